//! A conversation as a tree of messages: each message's parent is the message before it
//! in its branch. Editing a message or regenerating a reply adds a sibling; the old
//! continuation stays. The head is the last message of the branch shown; the path from
//! the root to the head is what the chat shows and the model reads.
//!
//! A parent is always inserted before its children (a smaller `seq`), so a path ends at
//! the root after fewer steps than there are messages, and the newest message under a
//! node is a leaf: switching to a branch shows its latest continuation.

use rusqlite::{OptionalExtension, params};
use serde_json::Value;

use crate::error::Context;
use crate::{Error, NOW, Store, json_column};

/// Where new messages go.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum After {
    /// After the head: the conversation goes on.
    Head,
    /// After this message (`None`: as a new first message), a new branch when it already
    /// has a continuation.
    Message(Option<i64>),
}

/// One message's place in the tree.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Node {
    /// The message.
    pub seq: i64,
    /// The message before it in its branch.
    pub parent_seq: Option<i64>,
}

impl Store {
    /// Appends `messages` after `after`, chained, in one transaction; the last becomes
    /// the head, and the model used is noted. Their seqs; `None` (nothing written) when
    /// the conversation or the message to append after is not there.
    pub fn append_after(
        &self,
        conversation_id: &str,
        model_id: Option<&str>,
        after: After,
        messages: &[Value],
    ) -> Result<Option<Vec<i64>>, Error> {
        let mut conn = self.conn()?;
        let tx = conn.transaction().sql("BEGIN")?;
        let head = "SELECT head_seq FROM conversations WHERE id = ?1";
        let Some(head) = tx
            .query_row(head, [conversation_id], |r| r.get::<_, Option<i64>>(0))
            .optional()
            .sql(head)?
        else {
            return Ok(None);
        };
        let mut parent = match after {
            After::Head => head,
            After::Message(None) => None,
            After::Message(Some(seq)) => {
                let mine =
                    "SELECT 1 FROM conversation_messages WHERE seq = ?1 AND conversation_id = ?2";
                let found = tx
                    .query_row(mine, params![seq, conversation_id], |_| Ok(()))
                    .optional()
                    .sql(mine)?;
                if found.is_none() {
                    return Ok(None);
                }
                Some(seq)
            }
        };
        let insert = format!(
            "INSERT INTO conversation_messages (conversation_id, message, at, parent_seq) \
             VALUES (?1, ?2, {NOW}, ?3)"
        );
        let mut seqs = Vec::with_capacity(messages.len());
        for message in messages {
            tx.execute(
                &insert,
                params![conversation_id, message.to_string(), parent],
            )
            .sql(&insert)?;
            let seq = tx.last_insert_rowid();
            seqs.push(seq);
            parent = Some(seq);
        }
        let touch = format!(
            "UPDATE conversations SET updated_at = {NOW}, model_id = coalesce(?2, model_id), \
             head_seq = coalesce(?3, head_seq) WHERE id = ?1"
        );
        tx.execute(&touch, params![conversation_id, model_id, seqs.last()])
            .sql(&touch)?;
        tx.commit().sql("COMMIT")?;
        Ok(Some(seqs))
    }

    /// The path from the root to `to` (the head when `None`), in order, each message
    /// with its seq; at most the last `limit`. Empty when there is no such message.
    pub fn path(
        &self,
        conversation_id: &str,
        to: Option<i64>,
        limit: u32,
    ) -> Result<Vec<(i64, Value)>, Error> {
        let sql = "WITH RECURSIVE up(seq, parent_seq, message, depth) AS ( \
                       SELECT seq, parent_seq, message, 0 FROM conversation_messages \
                       WHERE conversation_id = ?1 AND seq = coalesce(?2, \
                           (SELECT head_seq FROM conversations WHERE id = ?1)) \
                       UNION ALL \
                       SELECT m.seq, m.parent_seq, m.message, up.depth + 1 \
                       FROM conversation_messages m JOIN up ON m.seq = up.parent_seq \
                       WHERE up.depth < ?3) \
                   SELECT seq, message FROM up ORDER BY depth DESC";
        let conn = self.conn()?;
        let mut statement = conn.prepare_cached(sql).sql(sql)?;
        let rows = statement
            .query_map(
                params![conversation_id, to, i64::from(limit.max(1)) - 1],
                |row| Ok((row.get::<_, i64>(0)?, row.get::<_, String>(1)?)),
            )
            .sql(sql)?;
        let mut out = Vec::new();
        for row in rows {
            let (seq, text) = row.sql(sql)?;
            out.push((seq, json_column(&text, "conversation_messages.message")?));
        }
        Ok(out)
    }

    /// One message of a conversation and its parent; `None` when it is not there.
    pub fn tree_message(
        &self,
        conversation_id: &str,
        seq: i64,
    ) -> Result<Option<(Node, Value)>, Error> {
        let sql = "SELECT parent_seq, message FROM conversation_messages \
                   WHERE seq = ?1 AND conversation_id = ?2";
        let row = self
            .conn()?
            .query_row(sql, params![seq, conversation_id], |r| {
                Ok((r.get::<_, Option<i64>>(0)?, r.get::<_, String>(1)?))
            })
            .optional()
            .sql(sql)?;
        match row {
            None => Ok(None),
            Some((parent_seq, text)) => Ok(Some((
                Node { seq, parent_seq },
                json_column(&text, "conversation_messages.message")?,
            ))),
        }
    }

    /// Every message's place in a conversation's tree, in seq order.
    pub fn tree(&self, conversation_id: &str) -> Result<Vec<Node>, Error> {
        let sql = "SELECT seq, parent_seq FROM conversation_messages \
                   WHERE conversation_id = ?1 ORDER BY seq";
        let conn = self.conn()?;
        let mut statement = conn.prepare_cached(sql).sql(sql)?;
        let rows = statement
            .query_map([conversation_id], |r| {
                Ok(Node {
                    seq: r.get(0)?,
                    parent_seq: r.get(1)?,
                })
            })
            .sql(sql)?;
        rows.collect::<Result<Vec<_>, _>>().sql(sql)
    }

    /// Every message of a conversation with its place in the tree, in seq order (at most
    /// `limit`).
    pub fn tree_messages(
        &self,
        conversation_id: &str,
        limit: u32,
    ) -> Result<Vec<(Node, Value)>, Error> {
        let sql = "SELECT seq, parent_seq, message FROM conversation_messages \
                   WHERE conversation_id = ?1 ORDER BY seq LIMIT ?2";
        let conn = self.conn()?;
        let mut statement = conn.prepare_cached(sql).sql(sql)?;
        let rows = statement
            .query_map(params![conversation_id, limit], |r| {
                Ok((
                    Node {
                        seq: r.get(0)?,
                        parent_seq: r.get(1)?,
                    },
                    r.get::<_, String>(2)?,
                ))
            })
            .sql(sql)?;
        let mut out = Vec::new();
        for row in rows {
            let (node, text) = row.sql(sql)?;
            out.push((node, json_column(&text, "conversation_messages.message")?));
        }
        Ok(out)
    }

    /// Makes a conversation from a whole tree in one transaction: `messages` in order,
    /// each with the index of its parent among the earlier ones; `head` the index of the
    /// message shown last. Nothing is stored when any part is wrong (a parent that is not
    /// an earlier message, a head out of range, a used id).
    pub fn import_tree(
        &self,
        id: &str,
        title: &str,
        model_id: Option<&str>,
        messages: &[(Option<usize>, Value)],
        head: Option<usize>,
    ) -> Result<(), Error> {
        let wrong = |what: &str| Error::Sql {
            sql: format!("import: {what}"),
            source: rusqlite::Error::InvalidQuery,
        };
        if head.is_some_and(|h| h >= messages.len()) {
            return Err(wrong("the head is not one of the messages"));
        }
        let mut conn = self.conn()?;
        let tx = conn.transaction().sql("BEGIN")?;
        let create = format!(
            "INSERT INTO conversations (id, title, model_id, created_at, updated_at) VALUES (?1, ?2, ?3, {NOW}, {NOW})"
        );
        tx.execute(&create, params![id, title, model_id])
            .sql(&create)?;
        let insert = format!(
            "INSERT INTO conversation_messages (conversation_id, message, at, parent_seq) \
             VALUES (?1, ?2, {NOW}, ?3)"
        );
        let mut seqs: Vec<i64> = Vec::with_capacity(messages.len());
        for (i, (parent, message)) in messages.iter().enumerate() {
            let parent_seq = match parent {
                None => None,
                Some(p) if *p < i => Some(seqs[*p]),
                Some(_) => return Err(wrong("a parent that is not an earlier message")),
            };
            tx.execute(&insert, params![id, message.to_string(), parent_seq])
                .sql(&insert)?;
            seqs.push(tx.last_insert_rowid());
        }
        let set = "UPDATE conversations SET head_seq = ?2 WHERE id = ?1";
        tx.execute(set, params![id, head.map(|h| seqs[h])])
            .sql(set)?;
        tx.commit().sql("COMMIT")?;
        Ok(())
    }

    /// Shows the branch through `seq`: the head becomes the newest message under it (its
    /// latest continuation). The new head; `None` when `seq` is not a message of the
    /// conversation.
    pub fn show_branch(&self, conversation_id: &str, seq: i64) -> Result<Option<i64>, Error> {
        let sql = "WITH RECURSIVE down(seq) AS ( \
                       SELECT seq FROM conversation_messages WHERE seq = ?1 AND conversation_id = ?2 \
                       UNION ALL \
                       SELECT m.seq FROM conversation_messages m JOIN down ON m.parent_seq = down.seq) \
                   SELECT max(seq) FROM down";
        let mut conn = self.conn()?;
        let tx = conn.transaction().sql("BEGIN")?;
        let leaf: Option<i64> = tx
            .query_row(sql, params![seq, conversation_id], |r| r.get(0))
            .sql(sql)?;
        let Some(leaf) = leaf else {
            return Ok(None);
        };
        let set = "UPDATE conversations SET head_seq = ?2 WHERE id = ?1";
        tx.execute(set, params![conversation_id, leaf]).sql(set)?;
        tx.commit().sql("COMMIT")?;
        Ok(Some(leaf))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn say(role: &str, text: &str) -> Value {
        json!({"role": role, "content": text})
    }

    fn texts(path: &[(i64, Value)]) -> Vec<String> {
        path.iter()
            .map(|(_, m)| m["content"].as_str().unwrap_or_default().to_string())
            .collect()
    }

    #[test]
    fn an_edit_is_a_branch_and_the_old_one_stays_to_go_back_to() {
        let store = Store::open_in_memory().unwrap_or_else(|e| panic!("{e}"));
        store
            .create_conversation("c1", "sums", None)
            .unwrap_or_else(|e| panic!("{e}"));
        let first = store
            .append_after(
                "c1",
                None,
                After::Head,
                &[say("user", "1+1?"), say("assistant", "2")],
            )
            .unwrap_or_default()
            .unwrap_or_default();
        let second = store
            .append_after(
                "c1",
                None,
                After::Head,
                &[say("user", "2+2?"), say("assistant", "4")],
            )
            .unwrap_or_default()
            .unwrap_or_default();
        let path = |to| store.path("c1", to, 100).unwrap_or_default();
        assert_eq!(texts(&path(None)), ["1+1?", "2", "2+2?", "4"]);

        // "2+2?" edited into "3+3?": a sibling after "2"; the head is the new branch.
        let edited = store
            .append_after(
                "c1",
                None,
                After::Message(Some(first[1])),
                &[say("user", "3+3?"), say("assistant", "6")],
            )
            .unwrap_or_default()
            .unwrap_or_default();
        assert_eq!(texts(&path(None)), ["1+1?", "2", "3+3?", "6"]);
        let siblings: Vec<i64> = store
            .tree("c1")
            .unwrap_or_default()
            .iter()
            .filter(|n| n.parent_seq == Some(first[1]))
            .map(|n| n.seq)
            .collect();
        assert_eq!(siblings, [second[0], edited[0]]);

        // Back to the first branch: its latest continuation shows.
        assert_eq!(
            store.show_branch("c1", second[0]).ok(),
            Some(Some(second[1]))
        );
        assert_eq!(texts(&path(None)), ["1+1?", "2", "2+2?", "4"]);
        assert_eq!(texts(&path(Some(edited[1]))), ["1+1?", "2", "3+3?", "6"]);
        // The last two only.
        assert_eq!(
            texts(&store.path("c1", None, 2).unwrap_or_default()),
            ["2+2?", "4"]
        );

        // Another conversation's message is no place to append or show.
        store
            .create_conversation("c2", "other", None)
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            store
                .append_after(
                    "c2",
                    None,
                    After::Message(Some(first[0])),
                    &[say("user", "x")]
                )
                .ok(),
            Some(None)
        );
        assert_eq!(store.show_branch("c2", first[0]).ok(), Some(None));
        assert_eq!(store.tree("c2").unwrap_or_default(), Vec::new());
        assert_eq!(
            store
                .append_after("nope", None, After::Head, &[say("user", "x")])
                .ok(),
            Some(None)
        );
    }
}
