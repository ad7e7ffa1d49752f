//! Stored conversations as the window lists and reopens them: the list (newest first),
//! one conversation read back as the chat shows it, rename, delete.

use deskmate_store::conversations::Conversation;
use serde::Serialize;
use serde_json::Value;

use crate::error::FieldError;
use crate::{Deskmate, ServiceError};

/// Longest title, in characters.
const MAX_TITLE: usize = 200;
/// Most messages read back for one conversation.
const MAX_MESSAGES: u32 = 2_000;

/// One entry of a conversation as the chat shows it.
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ChatEntry {
    /// What the person wrote.
    User {
        /// The message.
        text: String,
    },
    /// What the assistant answered.
    Assistant {
        /// The reply.
        text: String,
    },
    /// A reminder the person asked for in this conversation, as it fired.
    Reminder {
        /// What it reminded of.
        text: String,
    },
    /// A tool call and, once it ran, how it ended.
    Tool {
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
}

/// A conversation with its entries.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct ConversationDetail {
    /// The conversation.
    #[serde(flatten)]
    pub conversation: Conversation,
    /// What the chat shows, in order.
    pub entries: Vec<ChatEntry>,
}

impl Deskmate {
    /// Conversations, most recently used first.
    pub fn list_conversations(&self, limit: u32) -> Result<Vec<Conversation>, ServiceError> {
        Ok(self.stored()?.store.list_conversations(limit)?)
    }

    /// One conversation as the chat shows it.
    pub fn conversation(&self, id: &str) -> Result<ConversationDetail, ServiceError> {
        let store = &self.stored()?.store;
        let conversation = store.conversation(id)?.ok_or_else(|| not_found(id))?;
        let messages = store.conversation_messages(id, MAX_MESSAGES)?;
        Ok(ConversationDetail {
            conversation,
            entries: entries(&messages),
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
        self.stored()?
            .store
            .rename_conversation(id, title)?
            .ok_or_else(|| not_found(id))
    }

    /// Deletes a conversation and its messages (its audit records stay).
    pub fn delete_conversation(&self, id: &str) -> Result<(), ServiceError> {
        if self.stored()?.store.delete_conversation(id)? {
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

/// The stored messages (OpenAI form; tool messages carry the card under `deskmate`) as
/// the chat's entries.
fn entries(messages: &[Value]) -> Vec<ChatEntry> {
    let mut out: Vec<ChatEntry> = Vec::new();
    let text = |m: &Value| m["content"].as_str().unwrap_or_default().trim().to_string();
    for message in messages {
        match message["role"].as_str() {
            Some("user") => out.push(ChatEntry::User {
                text: text(message),
            }),
            Some("assistant") => {
                let said = text(message);
                let calls = message["tool_calls"].as_array();
                if message["deskmate"]["kind"] == "reminder" {
                    out.push(ChatEntry::Reminder { text: said });
                    continue;
                }
                if !said.is_empty() && calls.is_none_or(Vec::is_empty) {
                    out.push(ChatEntry::Assistant { text: said });
                }
                for call in calls.into_iter().flatten() {
                    out.push(ChatEntry::Tool {
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
        ];
        let got = entries(&messages);
        assert_eq!(got.len(), 5, "{got:?}");
        assert_eq!(
            got[0],
            ChatEntry::User {
                text: "17% of 2340?".into()
            }
        );
        assert_eq!(
            got[1],
            ChatEntry::Tool {
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
                text: "It is 397.8.".into()
            }
        );
        assert!(
            matches!(&got[4], ChatEntry::Tool { summary: Some(s), status: Some(_), result: None, .. } if s == "12:00")
        );
    }
}
