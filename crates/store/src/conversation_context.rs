//! What the model is sent of a long conversation (migration 011): the summaries that stand
//! for its older messages, and how full the model's context was at its last turn.
//!
//! A summary covers a prefix of the conversation: every message up to and including
//! `until_seq`. It is deleted with that message (and with the conversation), so a summary
//! that is found still stands for messages that exist.

use rusqlite::{OptionalExtension, params};
use serde::{Deserialize, Serialize};

use crate::error::Context;
use crate::{Error, NOW, Store};

/// A summary of a conversation's messages up to one of them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ConversationSummary {
    /// The conversation.
    pub conversation_id: String,
    /// The seq of the last message it covers.
    pub until_seq: i64,
    /// The summary, in the conversation's language.
    pub text: String,
    /// Its length in the model's tokens, as counted when it was made.
    pub tokens: u32,
    /// The model that made it.
    pub model_id: Option<String>,
    /// RFC 3339.
    pub created_at: String,
}

/// How full the model's context was at a conversation's last turn, in tokens.
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ContextUse {
    /// The model's context size.
    pub n_ctx: u32,
    /// The system prompt: the instructions and the tool catalog.
    pub catalog_tokens: u32,
    /// The conversation as sent: the summary of earlier turns, the recent turns and the
    /// new message.
    pub conversation_tokens: u32,
    /// The seq of the last message folded into a summary (`None`: nothing folded).
    pub folded_until_seq: Option<i64>,
}

const COLUMNS: &str = "conversation_id, until_seq, text, tokens, model_id, created_at";

fn read(row: &rusqlite::Row<'_>) -> rusqlite::Result<ConversationSummary> {
    Ok(ConversationSummary {
        conversation_id: row.get(0)?,
        until_seq: row.get(1)?,
        text: row.get(2)?,
        tokens: row.get(3)?,
        model_id: row.get(4)?,
        created_at: row.get(5)?,
    })
}

impl Store {
    /// Stores a summary of `conversation_id` up to the message `until_seq`, replacing one
    /// made before for the same message.
    pub fn save_summary(
        &self,
        conversation_id: &str,
        until_seq: i64,
        text: &str,
        tokens: u32,
        model_id: Option<&str>,
    ) -> Result<ConversationSummary, Error> {
        let sql = format!(
            "INSERT OR REPLACE INTO conversation_summaries ({COLUMNS}) VALUES (?1, ?2, ?3, ?4, ?5, {NOW})"
        );
        self.conn()?
            .execute(
                &sql,
                params![conversation_id, until_seq, text, tokens, model_id],
            )
            .sql(&sql)?;
        let select = format!(
            "SELECT {COLUMNS} FROM conversation_summaries WHERE conversation_id = ?1 AND until_seq = ?2"
        );
        self.conn()?
            .query_row(&select, params![conversation_id, until_seq], read)
            .sql(&select)
    }

    /// A conversation's summaries, the one covering most first.
    pub fn conversation_summaries(
        &self,
        conversation_id: &str,
    ) -> Result<Vec<ConversationSummary>, Error> {
        let sql = format!(
            "SELECT {COLUMNS} FROM conversation_summaries WHERE conversation_id = ?1 ORDER BY until_seq DESC"
        );
        let conn = self.conn()?;
        let mut statement = conn.prepare_cached(&sql).sql(&sql)?;
        let rows = statement.query_map([conversation_id], read).sql(&sql)?;
        rows.collect::<Result<Vec<_>, _>>().sql(&sql)
    }

    /// Notes how full the model's context was at the conversation's last turn.
    pub fn set_context_use(&self, conversation_id: &str, used: &ContextUse) -> Result<(), Error> {
        let sql = format!(
            "INSERT OR REPLACE INTO conversation_context (conversation_id, n_ctx, catalog_tokens, \
             conversation_tokens, folded_until_seq, at) VALUES (?1, ?2, ?3, ?4, ?5, {NOW})"
        );
        self.conn()?
            .execute(
                &sql,
                params![
                    conversation_id,
                    used.n_ctx,
                    used.catalog_tokens,
                    used.conversation_tokens,
                    used.folded_until_seq
                ],
            )
            .sql(&sql)?;
        Ok(())
    }

    /// How full the model's context was at the conversation's last turn (`None` before
    /// its first turn, or when it was not measured).
    pub fn context_use(&self, conversation_id: &str) -> Result<Option<ContextUse>, Error> {
        let sql = "SELECT n_ctx, catalog_tokens, conversation_tokens, folded_until_seq \
                   FROM conversation_context WHERE conversation_id = ?1";
        self.conn()?
            .query_row(sql, [conversation_id], |row| {
                Ok(ContextUse {
                    n_ctx: row.get(0)?,
                    catalog_tokens: row.get(1)?,
                    conversation_tokens: row.get(2)?,
                    folded_until_seq: row.get(3)?,
                })
            })
            .optional()
            .sql(sql)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn store_with_messages(n: usize) -> Store {
        let store = Store::open_in_memory().unwrap_or_else(|e| panic!("{e}"));
        store
            .create_conversation("c", "t", None)
            .unwrap_or_else(|e| panic!("{e}"));
        let messages: Vec<serde_json::Value> = (0..n)
            .map(|i| json!({"role": "user", "content": i.to_string()}))
            .collect();
        store
            .append_messages("c", None, &messages)
            .unwrap_or_else(|e| panic!("{e}"));
        store
    }

    #[test]
    fn summaries_are_kept_newest_first_and_replaced_for_the_same_message() {
        let store = store_with_messages(6);
        store
            .save_summary("c", 2, "first", 3, Some("m"))
            .unwrap_or_else(|e| panic!("{e}"));
        store
            .save_summary("c", 5, "second", 4, None)
            .unwrap_or_else(|e| panic!("{e}"));
        let again = store
            .save_summary("c", 5, "second, again", 5, None)
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(again.text, "second, again");
        let all = store.conversation_summaries("c").unwrap_or_default();
        let seen: Vec<(i64, &str)> = all.iter().map(|s| (s.until_seq, s.text.as_str())).collect();
        assert_eq!(seen, [(5, "second, again"), (2, "first")]);
        // A summary must end at a message that exists.
        assert!(store.save_summary("c", 99, "x", 1, None).is_err());
    }

    #[test]
    fn a_summary_goes_with_its_last_message_and_with_the_conversation() {
        let store = store_with_messages(3);
        store
            .save_summary("c", 3, "all", 1, None)
            .unwrap_or_else(|e| panic!("{e}"));
        store
            .set_context_use(
                "c",
                &ContextUse {
                    n_ctx: 4096,
                    catalog_tokens: 1000,
                    conversation_tokens: 200,
                    folded_until_seq: Some(3),
                },
            )
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            store.context_use("c").ok().flatten().map(|u| u.n_ctx),
            Some(4096)
        );
        assert_eq!(store.delete_conversation("c").ok(), Some(true));
        assert!(
            store
                .conversation_summaries("c")
                .unwrap_or_default()
                .is_empty()
        );
        assert_eq!(store.context_use("c").ok(), Some(None));
    }
}
