//! A conversation exported and imported: Markdown a person reads (tool cards as
//! "Tool · status · summary" lines with the arguments in a code block), and JSON in the
//! store's own shape (every message with its seq and its parent, so all branches survive)
//! that imports back whole or not at all.

use deskmate_service::ServiceError;
use deskmate_service::body::Body;
use deskmate_service::error::FieldError;
use deskmate_store::conversation_tree::Node;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::agent::Agent;
use crate::conversations::{ChatEntry, ConversationDetail, entries};

/// What names the JSON export's format.
pub const FORMAT: &str = "deskmate.conversation";
/// Its version.
pub const VERSION: u32 = 1;
/// Most messages exported or imported.
pub const MAX_MESSAGES: usize = 10_000;
/// Longest title.
const MAX_TITLE: usize = 200;

/// One message of an export.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ExportedMessage {
    /// Its seq in the export (unique).
    pub seq: i64,
    /// The message before it in its branch (an earlier message of the export), or
    /// `null` for a first message.
    pub parent: Option<i64>,
    /// The message as the model reads it (`role`, `content`, `tool_calls`, …), with the
    /// chat's card under `deskmate`.
    #[schema(value_type = Object)]
    pub message: Value,
}

/// A conversation in JSON: the API's own shapes, importable again.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ConversationExport {
    /// Always `deskmate.conversation`.
    pub format: String,
    /// Always 1.
    pub version: u32,
    /// The title.
    #[schema(min_length = 1, max_length = 200)]
    pub title: String,
    /// The model it last used.
    pub model_id: Option<String>,
    /// The last message shown (its seq); the last message when absent.
    pub head: Option<i64>,
    /// The messages, each after its parent.
    #[schema(max_items = 10000)]
    pub messages: Vec<ExportedMessage>,
}

impl Body for ConversationExport {
    fn check(body: &Value) -> Vec<FieldError> {
        if body.is_object() {
            return Vec::new();
        }
        vec![field(
            "",
            "an import is a JSON object as the export makes it",
            "export a conversation as JSON and import that file",
        )]
    }
}

fn field(path: &str, message: impl Into<String>, hint: impl Into<String>) -> FieldError {
    FieldError {
        path: path.into(),
        message: message.into(),
        hint: hint.into(),
    }
}

/// The messages as the store imports them (each with its parent's index), and the
/// head's index.
type Importable = (Vec<(Option<usize>, Value)>, Option<usize>);

/// The roles a stored message may have.
const ROLES: [&str; 4] = ["user", "assistant", "tool", "system"];

impl ConversationExport {
    /// The messages as the store imports them (each with its parent's index) and the
    /// head's index; every problem with its path.
    fn checked(&self) -> Result<Importable, Vec<FieldError>> {
        let mut errors = Vec::new();
        if self.format != FORMAT {
            errors.push(field(
                "/format",
                format!("format must be '{FORMAT}'"),
                "import a file Deskmate exported as JSON",
            ));
        }
        if self.version != VERSION {
            errors.push(field(
                "/version",
                format!(
                    "version {} is not known; this Deskmate reads {VERSION}",
                    self.version
                ),
                "export the conversation again with this version",
            ));
        }
        let title = self.title.trim();
        if title.is_empty() || title.chars().count() > MAX_TITLE {
            errors.push(field(
                "/title",
                format!("a title has 1 to {MAX_TITLE} characters"),
                "give the conversation a short title",
            ));
        }
        if self.messages.len() > MAX_MESSAGES {
            errors.push(field(
                "/messages",
                format!("at most {MAX_MESSAGES} messages are imported"),
                "import a shorter conversation",
            ));
            return Err(errors);
        }
        let mut index = std::collections::HashMap::new();
        let mut out = Vec::with_capacity(self.messages.len());
        for (i, m) in self.messages.iter().enumerate() {
            let at = |key: &str| format!("/messages/{i}/{key}");
            if index.contains_key(&m.seq) {
                errors.push(field(
                    &at("seq"),
                    format!("seq {} is used twice", m.seq),
                    "give every message its own seq",
                ));
            }
            let parent = match m.parent {
                None => None,
                // A parent listed before its child: a tree, never a cycle.
                Some(p) => match index.get(&p) {
                    Some(&j) => Some(j),
                    None => {
                        errors.push(field(
                            &at("parent"),
                            format!("parent {p} is not a message listed before this one"),
                            "list each message after its parent; a cycle cannot be imported",
                        ));
                        None
                    }
                },
            };
            let role = m.message.get("role").and_then(Value::as_str);
            if !m.message.is_object() || !role.is_some_and(|r| ROLES.contains(&r)) {
                errors.push(field(
                    &at("message/role"),
                    format!(
                        "a message is an object whose role is one of {}",
                        ROLES.join(", ")
                    ),
                    "import the messages as the export wrote them",
                ));
            }
            let content = m.message.get("content");
            if !content.is_none_or(|c| c.is_string() || c.is_null()) {
                errors.push(field(
                    &at("message/content"),
                    "content is text or null",
                    "import the messages as the export wrote them",
                ));
            }
            index.insert(m.seq, i);
            out.push((parent, m.message.clone()));
        }
        let head = match self.head {
            None => out.len().checked_sub(1),
            Some(h) => match index.get(&h) {
                Some(&i) => Some(i),
                None => {
                    errors.push(field(
                        "/head",
                        format!("head {h} is not one of the messages"),
                        "name the seq of the message shown last",
                    ));
                    None
                }
            },
        };
        if errors.is_empty() {
            Ok((out, head))
        } else {
            Err(errors)
        }
    }
}

/// Which messages an export holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Branches {
    /// The branch shown.
    #[default]
    Active,
    /// Every branch.
    All,
}

impl Agent {
    /// A conversation as JSON: the branch shown, or all of them.
    pub fn export_json(
        &self,
        id: &str,
        branches: Branches,
    ) -> Result<ConversationExport, ServiceError> {
        let store = self.store()?;
        let conversation = store.conversation(id)?.ok_or_else(|| not_found(id))?;
        let limit = u32::try_from(MAX_MESSAGES).unwrap_or(u32::MAX);
        let (messages, head): (Vec<ExportedMessage>, Option<i64>) = match branches {
            Branches::All => {
                let all = store.tree_messages(id, limit)?;
                let head = store.path(id, None, 1)?.first().map(|(seq, _)| *seq);
                (all.into_iter().map(|(n, m)| exported(n, m)).collect(), head)
            }
            Branches::Active => {
                let path = store.path(id, None, limit)?;
                let mut parent = None;
                let mut out = Vec::with_capacity(path.len());
                for (seq, message) in path {
                    out.push(exported(
                        Node {
                            seq,
                            parent_seq: parent,
                        },
                        message,
                    ));
                    parent = Some(seq);
                }
                let head = out.last().map(|m| m.seq);
                (out, head)
            }
        };
        Ok(ConversationExport {
            format: FORMAT.into(),
            version: VERSION,
            title: conversation.title,
            model_id: conversation.model_id,
            head,
            messages,
        })
    }

    /// A conversation as Markdown a person reads: the branch shown, or each branch in
    /// turn (from its first message to its last), labels in `zh` or English.
    pub fn export_markdown(
        &self,
        id: &str,
        branches: Branches,
        zh: bool,
    ) -> Result<String, ServiceError> {
        let store = self.store()?;
        let conversation = store.conversation(id)?.ok_or_else(|| not_found(id))?;
        let limit = u32::try_from(MAX_MESSAGES).unwrap_or(u32::MAX);
        let mut text = format!("# {}\n\n", conversation.title.trim());
        let leaves: Vec<Option<i64>> = match branches {
            Branches::Active => vec![None],
            Branches::All => {
                let tree = store.tree(id)?;
                let parents: std::collections::HashSet<i64> =
                    tree.iter().filter_map(|n| n.parent_seq).collect();
                tree.iter()
                    .filter(|n| !parents.contains(&n.seq))
                    .map(|n| Some(n.seq))
                    .collect()
            }
        };
        let several = leaves.len() > 1;
        for (k, leaf) in leaves.into_iter().enumerate() {
            if several {
                text.push_str(&if zh {
                    format!("## 分支 {}\n\n", k + 1)
                } else {
                    format!("## Branch {}\n\n", k + 1)
                });
            }
            let path = store.path(id, leaf, limit)?;
            for entry in entries(&path) {
                text.push_str(&markdown(&entry, zh, &|tool| self.tool_name(tool, zh)));
                text.push('\n');
            }
        }
        Ok(text)
    }

    /// Makes a new conversation from a JSON export: all of it or, at the first wrong
    /// field, nothing.
    pub fn import_conversation(
        &self,
        export: &ConversationExport,
    ) -> Result<ConversationDetail, ServiceError> {
        let (messages, head) = export.checked().map_err(ServiceError::Invalid)?;
        let id = uuid::Uuid::new_v4().simple().to_string();
        self.store()?.import_tree(
            &id,
            export.title.trim(),
            export.model_id.as_deref(),
            &messages,
            head,
        )?;
        tracing::info!(conversation = %id, messages = messages.len(), "conversation imported");
        self.conversation(&id)
    }
}

fn exported(node: Node, message: Value) -> ExportedMessage {
    ExportedMessage {
        seq: node.seq,
        parent: node.parent_seq,
        message,
    }
}

fn not_found(id: &str) -> ServiceError {
    ServiceError::NotFound {
        what: "Conversation",
        id: id.to_string(),
    }
}

impl Agent {
    /// A tool's name as people read it (its id when it is gone).
    fn tool_name(&self, tool: &str, zh: bool) -> String {
        self.deskmate.registry().guard().spec(tool).map_or_else(
            || tool.to_string(),
            |spec| {
                if zh {
                    spec.name.zh.clone()
                } else {
                    spec.name.en.clone()
                }
            },
        )
    }
}

/// One entry as Markdown (`name` gives a tool's name).
fn markdown(entry: &ChatEntry, zh: bool, name: &dyn Fn(&str) -> String) -> String {
    let (you, assistant, reminder) = if zh {
        ("你", "Deskmate", "提醒")
    } else {
        ("You", "Deskmate", "Reminder")
    };
    match entry {
        ChatEntry::User { text, .. } => format!("**{you}:** {text}\n"),
        ChatEntry::Assistant { text, .. } => format!("**{assistant}:** {text}\n"),
        ChatEntry::Reminder { text, .. } => format!("⏰ **{reminder}:** {text}\n"),
        ChatEntry::Summary { text, .. } => {
            format!("_{}_ {text}\n", if zh { "此前：" } else { "Earlier:" })
        }
        ChatEntry::Tool {
            name: tool,
            arguments,
            status,
            summary,
            ..
        } => {
            let arguments = serde_json::from_str::<Value>(arguments)
                .ok()
                .and_then(|v| serde_json::to_string_pretty(&v).ok())
                .unwrap_or_else(|| arguments.clone());
            format!(
                "> 🔧 {} · {} · {}\n\n```json\n{arguments}\n```\n",
                name(tool),
                status.as_deref().unwrap_or("—"),
                summary.as_deref().unwrap_or("")
            )
        }
    }
}
