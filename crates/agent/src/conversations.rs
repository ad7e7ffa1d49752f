//! Stored conversations as the window lists and reopens them: the list (newest first),
//! a search of all of them, one conversation read back as the chat shows it, rename,
//! delete.

use deskmate_service::ServiceError;
use deskmate_service::error::FieldError;
use deskmate_store::conversation_search::ConversationHit;
use deskmate_store::conversations::Conversation;
use serde::Serialize;
use serde_json::Value;

use crate::agent::Agent;

/// Longest title, in characters.
const MAX_TITLE: usize = 200;
/// Most messages read back for one conversation.
const MAX_MESSAGES: u32 = 2_000;
/// Longest search, in characters.
pub const MAX_QUERY: usize = 200;

/// One entry of a conversation as the chat shows it. Its `seq` is the stored message it
/// comes from (a tool card: the assistant message holding the call), the `seq` a search
/// hit names.
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ChatEntry {
    /// What the person wrote.
    User {
        /// The stored message's seq.
        seq: i64,
        /// The message.
        text: String,
    },
    /// What the assistant answered.
    Assistant {
        /// The stored message's seq.
        seq: i64,
        /// The reply.
        text: String,
    },
    /// A reminder the person asked for in this conversation, as it fired.
    Reminder {
        /// The stored message's seq.
        seq: i64,
        /// What it reminded of.
        text: String,
    },
    /// A tool call and, once it ran, how it ended.
    Tool {
        /// The seq of the stored assistant message that holds the call.
        seq: i64,
        /// The call's id.
        id: String,
        /// The tool as the model named it.
        name: String,
        /// The arguments as the model wrote them.
        arguments: String,
        /// `done`, `failed`, `denied`, … (`None`: no result was saved).
        status: Option<String>,
        /// The one-line summary the card leads with.
        summary: Option<String>,
        /// The full result (with the guard's repairs), when it was saved.
        #[schema(value_type = Option<deskmate_core::ToolResult>)]
        result: Option<Value>,
    },
    /// The summary the model made of the conversation up to a message, which the model
    /// reads instead of those messages ("Earlier: …"); shown after the last one.
    Summary {
        /// The seq of the last message it covers (it shows after that message's entry).
        seq: i64,
        /// The summary, in the conversation's language.
        text: String,
        /// The seq of the last message it covers.
        covers_until_seq: i64,
    },
}

/// A conversation with its entries.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct ConversationDetail {
    /// The conversation.
    #[serde(flatten)]
    pub conversation: Conversation,
    /// What the chat shows, in order.
    pub entries: Vec<ChatEntry>,
    /// The messages shown that have siblings (edits, regenerated replies).
    pub branches: Vec<crate::branch_points::BranchPoint>,
    /// How full the model's context was at the last turn (`null` before one was
    /// measured): the chat's meter.
    pub context: Option<deskmate_store::conversation_context::ContextUse>,
}

impl Agent {
    /// Conversations, most recently used first: at most `limit`, after the first `offset`.
    pub fn list_conversations(
        &self,
        limit: u32,
        offset: u64,
    ) -> Result<Vec<Conversation>, ServiceError> {
        Ok(self.store()?.list_conversations(limit, offset)?)
    }

    /// Searches all conversations' titles and entries for `query` (1 to 200 characters,
    /// trimmed; every word of it must be found, in any case): at most `limit` hits after
    /// the first `offset`, and how many there are in all.
    pub fn search_conversations(
        &self,
        query: &str,
        limit: u32,
        offset: u64,
    ) -> Result<(u64, Vec<ConversationHit>), ServiceError> {
        let query = query.trim();
        if query.is_empty() || query.chars().count() > MAX_QUERY {
            return Err(ServiceError::Invalid(vec![FieldError {
                path: "/q".into(),
                message: format!("a search has 1 to {MAX_QUERY} characters besides spaces"),
                hint: "search for a word or a few words of the conversation".into(),
            }]));
        }
        Ok(self.store()?.search_conversations(query, limit, offset)?)
    }

    /// One conversation as the chat shows it.
    pub fn conversation(&self, id: &str) -> Result<ConversationDetail, ServiceError> {
        let store = self.store()?;
        let conversation = store.conversation(id)?.ok_or_else(|| not_found(id))?;
        let messages = store.numbered_messages(id, MAX_MESSAGES)?;
        let path: Vec<i64> = messages.iter().map(|(seq, _)| *seq).collect();
        let mut entries = entries(&messages);
        place_summary(&mut entries, &messages, &store.conversation_summaries(id)?);
        Ok(ConversationDetail {
            conversation,
            entries,
            branches: crate::branch_points::branch_points(&store.tree(id)?, &path),
            context: store.context_use(id)?,
        })
    }

    /// Gives a conversation a new title (1 to 200 characters, trimmed).
    pub fn rename_conversation(&self, id: &str, title: &str) -> Result<Conversation, ServiceError> {
        let title = title.trim();
        if title.is_empty() || title.chars().count() > MAX_TITLE {
            return Err(ServiceError::Invalid(vec![FieldError {
                path: "/title".into(),
                message: format!("a title has 1 to {MAX_TITLE} characters"),
                hint: "give the conversation a short title".into(),
            }]));
        }
        self.store()?
            .rename_conversation(id, title)?
            .ok_or_else(|| not_found(id))
    }

    /// Deletes a conversation and its messages (its audit records stay).
    pub fn delete_conversation(&self, id: &str) -> Result<(), ServiceError> {
        if self.store()?.delete_conversation(id)? {
            Ok(())
        } else {
            Err(not_found(id))
        }
    }
}

fn not_found(id: &str) -> ServiceError {
    ServiceError::NotFound {
        what: "Conversation",
        id: id.to_string(),
    }
}

/// The stored messages with their seq (OpenAI form; tool messages carry the card under
/// `deskmate`) as the chat's entries.
pub(crate) fn entries(messages: &[(i64, Value)]) -> Vec<ChatEntry> {
    let mut out: Vec<ChatEntry> = Vec::new();
    let text = |m: &Value| m["content"].as_str().unwrap_or_default().trim().to_string();
    for &(seq, ref message) in messages {
        match message["role"].as_str() {
            Some("user") => out.push(ChatEntry::User {
                seq,
                text: text(message),
            }),
            Some("assistant") => {
                let said = text(message);
                let calls = message["tool_calls"].as_array();
                if message["deskmate"]["kind"] == "reminder" {
                    out.push(ChatEntry::Reminder { seq, text: said });
                    continue;
                }
                if !said.is_empty() && calls.is_none_or(Vec::is_empty) {
                    out.push(ChatEntry::Assistant { seq, text: said });
                }
                for call in calls.into_iter().flatten() {
                    out.push(ChatEntry::Tool {
                        seq,
                        id: call["id"].as_str().unwrap_or_default().to_string(),
                        name: call["function"]["name"]
                            .as_str()
                            .unwrap_or_default()
                            .to_string(),
                        arguments: call["function"]["arguments"]
                            .as_str()
                            .unwrap_or_default()
                            .to_string(),
                        status: None,
                        summary: None,
                        result: None,
                    });
                }
            }
            Some("tool") => {
                let id = message["tool_call_id"].as_str().unwrap_or_default();
                let card = &message["deskmate"];
                let entry = out.iter_mut().rev().find(
                    |e| matches!(e, ChatEntry::Tool { id: call, status: None, .. } if call == id),
                );
                if let Some(ChatEntry::Tool {
                    status,
                    summary,
                    result,
                    ..
                }) = entry
                {
                    *status = Some(card["status"].as_str().unwrap_or("done").to_string());
                    *summary = Some(
                        card["summary"]
                            .as_str()
                            .map_or_else(|| text(message), str::to_string),
                    );
                    *result = card.get("result").cloned();
                }
            }
            _ => {}
        }
    }
    out
}

/// The latest summary of the conversation that ends at one of `messages`, after the last
/// entry it covers.
fn place_summary(
    entries: &mut Vec<ChatEntry>,
    messages: &[(i64, Value)],
    summaries: &[deskmate_store::conversation_context::ConversationSummary],
) {
    let Some(summary) = summaries
        .iter()
        .filter(|s| messages.iter().any(|(seq, _)| *seq == s.until_seq))
        .max_by_key(|s| s.until_seq)
    else {
        return;
    };
    let at = entries
        .iter()
        .rposition(|e| e.seq() <= summary.until_seq)
        .map_or(0, |i| i + 1);
    entries.insert(
        at,
        ChatEntry::Summary {
            seq: summary.until_seq,
            text: summary.text.clone(),
            covers_until_seq: summary.until_seq,
        },
    );
}

impl ChatEntry {
    /// The seq of the stored message it comes from.
    pub fn seq(&self) -> i64 {
        match self {
            Self::User { seq, .. }
            | Self::Assistant { seq, .. }
            | Self::Reminder { seq, .. }
            | Self::Tool { seq, .. }
            | Self::Summary { seq, .. } => *seq,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn stored_messages_read_back_as_the_chat_shows_them() {
        let messages = [
            json!({"role": "user", "content": "17% of 2340?"}),
            json!({"role": "assistant", "tool_calls": [{"id": "c1", "type": "function",
                "function": {"name": "calculator", "arguments": "{\"expression\":\"17% of 2340\"}"}}]}),
            json!({"role": "tool", "tool_call_id": "c1", "content": "{\"result\":397.8}",
                "deskmate": {"status": "done", "summary": "17% of 2340 = 397.8", "result": {"ok": true}}}),
            json!({"role": "assistant", "content": "It is 397.8."}),
            json!({"role": "user", "content": "and the time?"}),
            json!({"role": "assistant", "tool_calls": [{"id": "c2", "type": "function",
                "function": {"name": "current_time", "arguments": "{}"}}]}),
            // Saved before cards were kept: the text stands in for the summary.
            json!({"role": "tool", "tool_call_id": "c2", "content": "12:00"}),
            json!({"role": "assistant", "content": "drink water", "deskmate": {"kind": "reminder"}}),
        ];
        // Stored seqs need not follow each other (other conversations' messages between).
        let numbered: Vec<(i64, Value)> = messages
            .iter()
            .enumerate()
            .map(|(i, m)| (10 + 2 * i64::try_from(i).unwrap_or_default(), m.clone()))
            .collect();
        let got = entries(&numbered);
        assert_eq!(got.len(), 6, "{got:?}");
        assert_eq!(
            got[0],
            ChatEntry::User {
                seq: 10,
                text: "17% of 2340?".into()
            }
        );
        // A card has the seq of the message holding the call, not of its result.
        assert_eq!(
            got[1],
            ChatEntry::Tool {
                seq: 12,
                id: "c1".into(),
                name: "calculator".into(),
                arguments: "{\"expression\":\"17% of 2340\"}".into(),
                status: Some("done".into()),
                summary: Some("17% of 2340 = 397.8".into()),
                result: Some(json!({"ok": true})),
            }
        );
        assert_eq!(
            got[2],
            ChatEntry::Assistant {
                seq: 16,
                text: "It is 397.8.".into()
            }
        );
        assert!(
            matches!(&got[4], ChatEntry::Tool { seq: 20, summary: Some(s), status: Some(_), result: None, .. } if s == "12:00")
        );
        assert_eq!(
            got[5],
            ChatEntry::Reminder {
                seq: 24,
                text: "drink water".into()
            }
        );
        // A summary up to the first turn's end shows after that turn's entries; one whose
        // message is not in the conversation is not shown.
        let summary = |until_seq: i64, text: &str| {
            deskmate_store::conversation_context::ConversationSummary {
                conversation_id: "c".into(),
                until_seq,
                text: text.into(),
                tokens: 3,
                model_id: None,
                created_at: String::new(),
            }
        };
        let mut with = got.clone();
        place_summary(
            &mut with,
            &numbered,
            &[summary(16, "asked 17% of 2340"), summary(99, "x")],
        );
        assert_eq!(with.len(), 7);
        assert_eq!(
            with[3],
            ChatEntry::Summary {
                seq: 16,
                text: "asked 17% of 2340".into(),
                covers_until_seq: 16
            }
        );
    }
}
