//! The audit log (guard step 10): one event per tool call, secrets already masked.

use deskmate_core::{ErrorType, Repair};
use rusqlite::{Row, params};
use serde::{Deserialize, Serialize};

use crate::error::Context;
use crate::{Error, Store, json_column};

/// One audit event: what was called, how it went, never a secret.
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AuditEvent {
    /// The call.
    pub call_id: String,
    /// When it finished (RFC 3339, UTC).
    pub at: String,
    /// The tool id as resolved, or the name as asked when it did not resolve.
    pub tool: String,
    /// Arguments with secrets masked.
    pub arguments: serde_json::Value,
    /// Repairs the guard made.
    pub repairs: Vec<Repair>,
    /// Whether the call succeeded.
    pub ok: bool,
    /// The failure kind.
    pub error_type: Option<ErrorType>,
    /// Wall-clock duration.
    pub duration_ms: u64,
    /// The idempotency key, if any.
    pub idem_key: Option<String>,
    /// The conversation the call belongs to, if any.
    pub conversation_id: Option<String>,
    /// Which front end made the call.
    pub origin: String,
    /// The program behind that front end, as it named itself (an MCP client).
    #[serde(default)]
    pub client: Option<String>,
    /// Why it failed.
    #[serde(default)]
    pub error: Option<String>,
    /// How to fix it (or what was cut from a long result).
    #[serde(default)]
    pub hint: Option<String>,
    /// What it returned, capped by the writer.
    #[serde(default)]
    pub result: Option<serde_json::Value>,
}

/// Which events to list.
#[derive(Debug, Clone, Default)]
pub struct AuditFilter {
    /// Only this tool.
    pub tool: Option<String>,
    /// Only successes (`true`) or failures (`false`).
    pub ok: Option<bool>,
    /// Only events at or after this RFC 3339 time.
    pub since: Option<String>,
    /// 1-based page.
    pub page: u32,
    /// Events per page.
    pub limit: u32,
}

const COLUMNS: &str = "call_id, at, tool, arguments, repairs, ok, error_type, duration_ms, idem_key, conversation_id, origin, client, error, hint, result";

impl Store {
    /// Appends one event.
    pub fn append_audit(&self, event: &AuditEvent) -> Result<(), Error> {
        self.append_audit_batch(std::slice::from_ref(event))
    }

    /// Appends several events in one transaction: all of them or none. One commit for many
    /// events is what lets a busy server audit every call without a disk write per call.
    pub fn append_audit_batch(&self, events: &[AuditEvent]) -> Result<(), Error> {
        let sql = format!(
            "INSERT INTO audit_events ({COLUMNS}) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15)"
        );
        let mut conn = self.conn()?;
        let tx = conn.transaction().sql("BEGIN")?;
        {
            let mut insert = tx.prepare_cached(&sql).sql(&sql)?;
            for event in events {
                let repairs =
                    serde_json::to_string(&event.repairs).map_err(|source| Error::Json {
                        column: "audit_events.repairs",
                        source,
                    })?;
                insert
                    .execute(params![
                        event.call_id,
                        event.at,
                        event.tool,
                        event.arguments.to_string(),
                        repairs,
                        event.ok,
                        event.error_type.map(ErrorType::as_str),
                        i64::try_from(event.duration_ms).unwrap_or(i64::MAX),
                        event.idem_key,
                        event.conversation_id,
                        event.origin,
                        event.client,
                        event.error,
                        event.hint,
                        event.result.as_ref().map(serde_json::Value::to_string),
                    ])
                    .sql(&sql)?;
            }
        }
        tx.commit().sql("COMMIT")?;
        Ok(())
    }

    /// Events matching `filter`, newest first, and the total number that match.
    pub fn list_audit(&self, filter: &AuditFilter) -> Result<(u64, Vec<AuditEvent>), Error> {
        let limit = filter.limit.clamp(1, 1000);
        let offset = u64::from(filter.page.max(1) - 1) * u64::from(limit);
        let condition =
            "(?1 IS NULL OR tool = ?1) AND (?2 IS NULL OR ok = ?2) AND (?3 IS NULL OR at >= ?3)";
        let conn = self.conn()?;
        let count_sql = format!("SELECT count(*) FROM audit_events WHERE {condition}");
        let total: i64 = conn
            .query_row(
                &count_sql,
                params![filter.tool, filter.ok, filter.since],
                |r| r.get(0),
            )
            .sql(&count_sql)?;
        let sql = format!(
            "SELECT {COLUMNS} FROM audit_events WHERE {condition} ORDER BY seq DESC LIMIT ?4 OFFSET ?5"
        );
        let mut statement = conn.prepare_cached(&sql).sql(&sql)?;
        let rows = statement
            .query_map(
                params![filter.tool, filter.ok, filter.since, limit, offset],
                read_row,
            )
            .sql(&sql)?;
        let mut events = Vec::new();
        for row in rows {
            events.push(row.sql(&sql)?.parse()?);
        }
        Ok((u64::try_from(total).unwrap_or(0), events))
    }
}

/// A row as SQLite returns it, before its JSON columns are parsed.
struct RawEvent {
    call_id: String,
    at: String,
    tool: String,
    arguments: String,
    repairs: String,
    ok: bool,
    error_type: Option<String>,
    duration_ms: i64,
    idem_key: Option<String>,
    conversation_id: Option<String>,
    origin: String,
    client: Option<String>,
    error: Option<String>,
    hint: Option<String>,
    result: Option<String>,
}

fn read_row(row: &Row<'_>) -> rusqlite::Result<RawEvent> {
    Ok(RawEvent {
        call_id: row.get(0)?,
        at: row.get(1)?,
        tool: row.get(2)?,
        arguments: row.get(3)?,
        repairs: row.get(4)?,
        ok: row.get(5)?,
        error_type: row.get(6)?,
        duration_ms: row.get(7)?,
        idem_key: row.get(8)?,
        conversation_id: row.get(9)?,
        origin: row.get(10)?,
        client: row.get(11)?,
        error: row.get(12)?,
        hint: row.get(13)?,
        result: row.get(14)?,
    })
}

impl RawEvent {
    fn parse(self) -> Result<AuditEvent, Error> {
        let json = |column| move |source| Error::Json { column, source };
        Ok(AuditEvent {
            call_id: self.call_id,
            at: self.at,
            tool: self.tool,
            arguments: json_column(&self.arguments, "audit_events.arguments")?,
            repairs: serde_json::from_str(&self.repairs).map_err(json("audit_events.repairs"))?,
            ok: self.ok,
            error_type: self
                .error_type
                .map(|t| serde_json::from_value(serde_json::Value::String(t)))
                .transpose()
                .map_err(json("audit_events.error_type"))?,
            duration_ms: u64::try_from(self.duration_ms).unwrap_or(0),
            idem_key: self.idem_key,
            conversation_id: self.conversation_id,
            origin: self.origin,
            client: self.client,
            error: self.error,
            hint: self.hint,
            result: self
                .result
                .map(|r| json_column(&r, "audit_events.result"))
                .transpose()?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn event(call_id: &str, tool: &str, ok: bool, at: &str) -> AuditEvent {
        AuditEvent {
            call_id: call_id.into(),
            at: at.into(),
            tool: tool.into(),
            arguments: json!({"api_key": "••••", "x": 1}),
            repairs: vec![],
            ok,
            error_type: (!ok).then_some(ErrorType::Validation),
            duration_ms: 3,
            idem_key: None,
            conversation_id: None,
            origin: "api".into(),
            client: None,
            error: (!ok).then(|| "division by zero".into()),
            hint: (!ok).then(|| "use a non-zero divisor".into()),
            result: ok.then(|| json!({"result": 4})),
        }
    }

    #[test]
    fn append_and_filter() {
        let store = Store::open_in_memory().unwrap_or_else(|e| panic!("{e}"));
        store
            .append_audit(&event("a", "calculator", true, "2026-11-30T10:00:00.000Z"))
            .unwrap_or_else(|e| panic!("{e}"));
        store
            .append_audit(&event("b", "calculator", false, "2026-11-30T11:00:00.000Z"))
            .unwrap_or_else(|e| panic!("{e}"));
        store
            .append_audit(&event(
                "c",
                "current_time",
                true,
                "2026-11-30T12:00:00.000Z",
            ))
            .unwrap_or_else(|e| panic!("{e}"));
        let all = |f: AuditFilter| {
            store
                .list_audit(&AuditFilter { limit: 50, ..f })
                .unwrap_or_else(|e| panic!("{e}"))
        };
        let (total, rows) = all(AuditFilter::default());
        assert_eq!(total, 3);
        assert_eq!(rows[0].call_id, "c", "newest first");
        assert_eq!(rows[1].error_type, Some(ErrorType::Validation));
        assert_eq!(
            (
                rows[1].error.as_deref(),
                rows[1].hint.as_deref(),
                &rows[1].result
            ),
            (
                Some("division by zero"),
                Some("use a non-zero divisor"),
                &None
            )
        );
        assert_eq!(rows[2].result, Some(json!({"result": 4})));
        assert_eq!(
            all(AuditFilter {
                tool: Some("calculator".into()),
                ..Default::default()
            })
            .0,
            2
        );
        assert_eq!(
            all(AuditFilter {
                ok: Some(false),
                ..Default::default()
            })
            .1[0]
                .call_id,
            "b"
        );
        assert_eq!(
            all(AuditFilter {
                since: Some("2026-11-30T11:00:00.000Z".into()),
                ..Default::default()
            })
            .0,
            2
        );
        let (total, page2) = store
            .list_audit(&AuditFilter {
                page: 2,
                limit: 2,
                ..Default::default()
            })
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!((total, page2.len(), page2[0].call_id.as_str()), (3, 1, "a"));
        // The same call id twice is refused: one call, one row.
        assert!(
            store
                .append_audit(&event("a", "calculator", true, "2026-11-30T13:00:00.000Z"))
                .is_err()
        );
    }
}
