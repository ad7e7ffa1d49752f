//! Approvals a person gave for more than one call: "always allow this tool" and "allow in
//! this conversation". Each is tied to the tool's definition by a fingerprint; one per
//! tool and scope (and conversation), replaced when given again; a conversation's go with
//! it.

use rusqlite::{OptionalExtension, params};
use serde::{Deserialize, Serialize};

use crate::error::Context;
use crate::{Error, NOW, Store};

/// How far an approval reaches.
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ApprovalScope {
    /// Every call of the tool, wherever it comes from.
    Always,
    /// The tool's calls in one conversation.
    Conversation,
}

impl ApprovalScope {
    fn as_str(self) -> &'static str {
        match self {
            Self::Always => "always",
            Self::Conversation => "conversation",
        }
    }
}

/// One stored approval.
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Approval {
    /// Its id.
    pub id: String,
    /// The tool it allows.
    pub tool: String,
    /// How far it reaches.
    pub scope: ApprovalScope,
    /// The conversation, for a conversation's approval.
    pub conversation_id: Option<String>,
    /// The tool's definition it was given for.
    pub fingerprint: String,
    /// RFC 3339.
    pub created_at: String,
}

const COLUMNS: &str = "id, tool, scope, conversation_id, fingerprint, created_at";

fn read(row: &rusqlite::Row<'_>) -> rusqlite::Result<Approval> {
    let scope: String = row.get(2)?;
    Ok(Approval {
        id: row.get(0)?,
        tool: row.get(1)?,
        scope: if scope == "always" {
            ApprovalScope::Always
        } else {
            ApprovalScope::Conversation
        },
        conversation_id: row.get(3)?,
        fingerprint: row.get(4)?,
        created_at: row.get(5)?,
    })
}

impl Store {
    /// Stores an approval, replacing the one of the same tool and scope (and
    /// conversation). A conversation's approval needs the conversation to exist.
    pub fn grant_approval(&self, approval: &Approval) -> Result<Approval, Error> {
        let insert = self.replace_approval(approval)?;
        self.approval(&approval.id)?.ok_or(Error::Sql {
            sql: insert,
            source: rusqlite::Error::QueryReturnedNoRows,
        })
    }

    /// Deletes the approval `approval` replaces and inserts it, in one transaction (the
    /// connection is given back before the new row is read); the insert's SQL.
    fn replace_approval(&self, approval: &Approval) -> Result<String, Error> {
        let mut conn = self.conn()?;
        let tx = conn.transaction().sql("BEGIN")?;
        let delete = "DELETE FROM approvals WHERE tool = ?1 AND scope = ?2 \
                      AND coalesce(conversation_id, '') = coalesce(?3, '')";
        tx.execute(
            delete,
            params![
                approval.tool,
                approval.scope.as_str(),
                approval.conversation_id
            ],
        )
        .sql(delete)?;
        let insert =
            format!("INSERT INTO approvals ({COLUMNS}) VALUES (?1, ?2, ?3, ?4, ?5, {NOW})");
        tx.execute(
            &insert,
            params![
                approval.id,
                approval.tool,
                approval.scope.as_str(),
                approval.conversation_id,
                approval.fingerprint
            ],
        )
        .sql(&insert)?;
        tx.commit().sql("COMMIT")?;
        Ok(insert)
    }

    /// One approval.
    pub fn approval(&self, id: &str) -> Result<Option<Approval>, Error> {
        let sql = format!("SELECT {COLUMNS} FROM approvals WHERE id = ?1");
        self.conn()?
            .query_row(&sql, [id], read)
            .optional()
            .sql(&sql)
    }

    /// Approvals, of one tool or all, the newest first.
    pub fn approvals(&self, tool: Option<&str>) -> Result<Vec<Approval>, Error> {
        let sql = format!(
            "SELECT {COLUMNS} FROM approvals WHERE ?1 IS NULL OR tool = ?1 \
             ORDER BY created_at DESC, rowid DESC"
        );
        let conn = self.conn()?;
        let mut statement = conn.prepare_cached(&sql).sql(&sql)?;
        let rows = statement.query_map([tool], read).sql(&sql)?;
        rows.collect::<Result<Vec<_>, _>>().sql(&sql)
    }

    /// Whether a call of `tool` (its definition's `fingerprint`) in `conversation_id` is
    /// approved: always, or in that conversation, for this very definition.
    pub fn approved(
        &self,
        tool: &str,
        fingerprint: &str,
        conversation_id: Option<&str>,
    ) -> Result<bool, Error> {
        let sql = "SELECT EXISTS (SELECT 1 FROM approvals WHERE tool = ?1 AND fingerprint = ?2 \
                   AND (scope = 'always' OR (scope = 'conversation' AND conversation_id = ?3)))";
        self.conn()?
            .query_row(sql, params![tool, fingerprint, conversation_id], |r| {
                r.get(0)
            })
            .sql(sql)
    }

    /// Takes an approval back; whether there was one.
    pub fn revoke_approval(&self, id: &str) -> Result<bool, Error> {
        let sql = "DELETE FROM approvals WHERE id = ?1";
        Ok(self.conn()?.execute(sql, [id]).sql(sql)? > 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn approval(id: &str, scope: ApprovalScope, conversation: Option<&str>, fp: &str) -> Approval {
        Approval {
            id: id.into(),
            tool: "send_mail".into(),
            scope,
            conversation_id: conversation.map(str::to_string),
            fingerprint: fp.into(),
            created_at: String::new(),
        }
    }

    #[test]
    fn approvals_hold_for_their_scope_and_definition_and_are_replaced_and_revoked() {
        let store = Store::open_in_memory().unwrap_or_else(|e| panic!("{e}"));
        store
            .create_conversation("c1", "mail", None)
            .unwrap_or_else(|e| panic!("{e}"));
        store
            .grant_approval(&approval(
                "a1",
                ApprovalScope::Conversation,
                Some("c1"),
                "f1",
            ))
            .unwrap_or_else(|e| panic!("{e}"));
        let approved = |fp: &str, c: Option<&str>| store.approved("send_mail", fp, c).ok();
        assert_eq!(approved("f1", Some("c1")), Some(true));
        assert_eq!(approved("f1", Some("c2")), Some(false));
        assert_eq!(approved("f1", None), Some(false));
        assert_eq!(
            approved("f2", Some("c1")),
            Some(false),
            "a changed definition"
        );

        // A conversation's approval needs the conversation; none is half-stored.
        assert!(
            store
                .grant_approval(&approval(
                    "a2",
                    ApprovalScope::Conversation,
                    Some("nope"),
                    "f1"
                ))
                .is_err()
        );
        assert_eq!(store.approval("a2").ok().flatten(), None);

        // Always, then given again for a new definition: one row, the new one.
        store
            .grant_approval(&approval("a3", ApprovalScope::Always, None, "f1"))
            .unwrap_or_else(|e| panic!("{e}"));
        store
            .grant_approval(&approval("a4", ApprovalScope::Always, None, "f2"))
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(approved("f2", Some("c9")), Some(true));
        assert_eq!(approved("f1", None), Some(false));
        let all = store.approvals(Some("send_mail")).unwrap_or_default();
        assert_eq!(
            all.iter().map(|a| a.id.as_str()).collect::<Vec<_>>(),
            ["a4", "a1"]
        );
        assert_eq!(store.revoke_approval("a4").ok(), Some(true));
        assert_eq!(store.revoke_approval("a4").ok(), Some(false));
        assert_eq!(approved("f2", None), Some(false));

        // The conversation's go with it.
        assert_eq!(store.delete_conversation("c1").ok(), Some(true));
        assert_eq!(store.approvals(None).unwrap_or_default(), Vec::new());
    }
}
