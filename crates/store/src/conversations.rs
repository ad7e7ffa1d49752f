//! Chat conversations: one row per conversation, one row per message (the OpenAI wire
//! format as JSON), appended in order.

use rusqlite::{OptionalExtension, params};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::error::Context;
use crate::{Error, NOW, Store};

/// A conversation.
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Conversation {
    /// Its id.
    pub id: String,
    /// A title (the first user message, shortened).
    pub title: String,
    /// The model it last used.
    pub model_id: Option<String>,
    /// RFC 3339.
    pub created_at: String,
    /// RFC 3339.
    pub updated_at: String,
}

impl Store {
    /// Creates a conversation.
    pub fn create_conversation(
        &self,
        id: &str,
        title: &str,
        model_id: Option<&str>,
    ) -> Result<Conversation, Error> {
        let sql = format!(
            "INSERT INTO conversations (id, title, model_id, created_at, updated_at) VALUES (?1, ?2, ?3, {NOW}, {NOW})"
        );
        self.conn()?
            .execute(&sql, params![id, title, model_id])
            .sql(&sql)?;
        self.conversation(id)?.ok_or(Error::Sql {
            sql,
            source: rusqlite::Error::QueryReturnedNoRows,
        })
    }

    /// One conversation.
    pub fn conversation(&self, id: &str) -> Result<Option<Conversation>, Error> {
        let sql =
            "SELECT id, title, model_id, created_at, updated_at FROM conversations WHERE id = ?1";
        self.conn()?
            .query_row(sql, [id], read_conversation)
            .optional()
            .sql(sql)
    }

    /// Conversations, most recently used first: at most `limit`, after the first `offset`.
    pub fn list_conversations(&self, limit: u32, offset: u64) -> Result<Vec<Conversation>, Error> {
        let sql = "SELECT id, title, model_id, created_at, updated_at FROM conversations \
                   ORDER BY updated_at DESC, rowid DESC LIMIT ?1 OFFSET ?2";
        let conn = self.conn()?;
        let mut statement = conn.prepare_cached(sql).sql(sql)?;
        let offset = i64::try_from(offset).unwrap_or(i64::MAX);
        let rows = statement
            .query_map(params![limit.clamp(1, 1000), offset], read_conversation)
            .sql(sql)?;
        rows.collect::<Result<Vec<_>, _>>().sql(sql)
    }

    /// Gives a conversation a new title; `None` when there is no such conversation.
    pub fn rename_conversation(
        &self,
        id: &str,
        title: &str,
    ) -> Result<Option<Conversation>, Error> {
        let sql = "UPDATE conversations SET title = ?2 WHERE id = ?1";
        if self.conn()?.execute(sql, params![id, title]).sql(sql)? == 0 {
            return Ok(None);
        }
        self.conversation(id)
    }

    /// Deletes a conversation and its messages; returns whether one was deleted.
    pub fn delete_conversation(&self, id: &str) -> Result<bool, Error> {
        let sql = "DELETE FROM conversations WHERE id = ?1";
        Ok(self.conn()?.execute(sql, [id]).sql(sql)? > 0)
    }

    /// Appends messages after the conversation's head in one transaction, and notes the
    /// model used. A conversation that is not there is an error (nothing is written).
    pub fn append_messages(
        &self,
        conversation_id: &str,
        model_id: Option<&str>,
        messages: &[Value],
    ) -> Result<(), Error> {
        match self.append_after(
            conversation_id,
            model_id,
            crate::conversation_tree::After::Head,
            messages,
        )? {
            Some(_) => Ok(()),
            None => Err(Error::Sql {
                sql: "INSERT INTO conversation_messages".into(),
                source: rusqlite::Error::QueryReturnedNoRows,
            }),
        }
    }

    /// The last `turns` turns of the path to `to` (the head when `None`), in order: its
    /// messages from the `turns`-th last message of the person on (all of them when it
    /// has fewer). Whole turns, so the window never starts inside one, however many calls
    /// a turn made.
    pub fn conversation_turns(
        &self,
        conversation_id: &str,
        to: Option<i64>,
        turns: u32,
    ) -> Result<Vec<Value>, Error> {
        let path = self.path(conversation_id, to, u32::MAX)?;
        let starts: Vec<usize> = path
            .iter()
            .enumerate()
            .filter(|(_, (_, m))| m["role"] == "user")
            .map(|(i, _)| i)
            .collect();
        let from = starts
            .len()
            .checked_sub(turns.max(1) as usize)
            .map_or(0, |i| starts[i]);
        Ok(path.into_iter().skip(from).map(|(_, m)| m).collect())
    }

    /// The messages the conversation shows (the path to its head) in order (at most the
    /// last `limit`).
    pub fn conversation_messages(
        &self,
        conversation_id: &str,
        limit: u32,
    ) -> Result<Vec<Value>, Error> {
        Ok(self
            .numbered_messages(conversation_id, limit)?
            .into_iter()
            .map(|(_, message)| message)
            .collect())
    }

    /// The messages the conversation shows (the path to its head) in order, each with its
    /// `seq` (at most the last `limit`).
    pub fn numbered_messages(
        &self,
        conversation_id: &str,
        limit: u32,
    ) -> Result<Vec<(i64, Value)>, Error> {
        self.path(conversation_id, None, limit)
    }
}

/// A row of `SELECT id, title, model_id, created_at, updated_at FROM conversations`.
fn read_conversation(row: &rusqlite::Row<'_>) -> rusqlite::Result<Conversation> {
    Ok(Conversation {
        id: row.get(0)?,
        title: row.get(1)?,
        model_id: row.get(2)?,
        created_at: row.get(3)?,
        updated_at: row.get(4)?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn messages_come_back_in_order_and_cascade_on_delete() {
        let store = Store::open_in_memory().unwrap_or_else(|e| panic!("{e}"));
        store
            .create_conversation("c1", "hello", None)
            .unwrap_or_else(|e| panic!("{e}"));
        let messages: Vec<Value> = (0..5)
            .map(|i| json!({"role": "user", "content": i.to_string()}))
            .collect();
        store
            .append_messages("c1", Some("m"), &messages)
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            store.conversation_messages("c1", 3).unwrap_or_default(),
            messages[2..]
        );
        let numbered = store.numbered_messages("c1", 2).unwrap_or_default();
        assert_eq!(
            numbered,
            [(4, messages[3].clone()), (5, messages[4].clone())]
        );
        assert_eq!(
            store
                .conversation("c1")
                .ok()
                .flatten()
                .and_then(|c| c.model_id),
            Some("m".into())
        );
        // A message for a conversation that does not exist is refused whole.
        assert!(store.append_messages("nope", None, &messages).is_err());
    }

    #[test]
    fn conversations_are_listed_renamed_and_deleted() {
        let store = Store::open_in_memory().unwrap_or_else(|e| panic!("{e}"));
        for (id, title) in [("a", "first"), ("b", "second")] {
            store
                .create_conversation(id, title, None)
                .unwrap_or_else(|e| panic!("{e}"));
        }
        let ids = |store: &Store| -> Vec<String> {
            store
                .list_conversations(10, 0)
                .unwrap_or_default()
                .into_iter()
                .map(|c| c.id)
                .collect()
        };
        assert_eq!(ids(&store), ["b", "a"], "newest first");
        let second: Vec<String> = store
            .list_conversations(1, 1)
            .unwrap_or_default()
            .into_iter()
            .map(|c| c.id)
            .collect();
        assert_eq!(second, ["a"], "one page further");
        let renamed = store.rename_conversation("a", "groceries").ok().flatten();
        assert_eq!(renamed.map(|c| c.title), Some("groceries".into()));
        assert_eq!(store.rename_conversation("zzz", "x").ok(), Some(None));
        store
            .append_messages("a", None, &[json!({"role": "user", "content": "hi"})])
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(store.delete_conversation("a").ok(), Some(true));
        assert_eq!(store.delete_conversation("a").ok(), Some(false));
        assert_eq!(ids(&store), ["b"]);
        assert!(
            store
                .conversation_messages("a", 10)
                .unwrap_or_default()
                .is_empty()
        );
    }
}
