//! Schedules and their runs. A schedule's action and rule are JSON the service reads
//! into its types; times are UTC text in one form (see [`utc`]) so that text order is
//! time order.
//!
//! Firing exactly once: an occurrence fires only after [`Store::claim_occurrence`]
//! inserted its run row, keyed by (schedule, occurrence), in the same transaction that
//! moves the schedule's `next_at` on. Two processes on one database race on that insert;
//! one wins, the other sees the row and skips.

use chrono::{DateTime, SecondsFormat, Utc};
use rusqlite::{OptionalExtension, Row, ToSql, TransactionBehavior, params};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::error::Context;
use crate::{Error, NOW, Store, json_column};

/// A time as the schedule tables store it: UTC, milliseconds, `Z`.
pub fn utc(at: DateTime<Utc>) -> String {
    at.to_rfc3339_opts(SecondsFormat::Millis, true)
}

/// A stored schedule. Its `Default` is where a new one starts: not stored yet (no id, no
/// times) and never run.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct StoredSchedule {
    /// Its id.
    pub id: String,
    /// What runs (the service's JSON).
    pub action: Value,
    /// The time rule (the service's JSON).
    pub rule: Value,
    /// The words the rule was given in.
    pub rule_text: String,
    /// The IANA time zone its wall times are in.
    pub time_zone: String,
    /// The next occurrence (see [`utc`]); `None` when it fires no more.
    pub next_at: Option<String>,
    /// Whether it fires.
    pub enabled: bool,
    /// Who made it: `chat`, `api`, `gui`, `mcp` or `cli`.
    pub created_by: String,
    /// The conversation it came from.
    pub conversation_id: Option<String>,
    /// The fingerprint of the tool definition the person agreed to, for a tool that asks.
    pub consent: Option<String>,
    /// How many occurrences were claimed (run or missed).
    pub run_count: i64,
    /// When the last one was claimed.
    pub last_run_at: Option<String>,
    /// `running`, `succeeded`, `failed` or `missed`.
    pub last_status: Option<String>,
    /// The last run's result, short.
    pub last_result: Option<String>,
    /// RFC 3339.
    pub created_at: String,
    /// RFC 3339.
    pub updated_at: String,
}

/// One occurrence that came due.
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ScheduleRun {
    /// The schedule.
    pub schedule_id: String,
    /// The occurrence's time (see [`utc`]).
    pub occurrence: String,
    /// The process that claimed it.
    pub claimed_by: String,
    /// When.
    pub claimed_at: String,
    /// When it ended.
    pub finished_at: Option<String>,
    /// `running`, `succeeded`, `failed` or `missed`.
    pub status: String,
    /// What came of it (the tool's result, or why it failed or was missed).
    #[cfg_attr(feature = "utoipa", schema(value_type = Option<Object>))]
    pub result: Option<Value>,
}

/// How a run ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RunStatus {
    /// It ran and succeeded.
    Succeeded,
    /// It ran and failed, or could not run.
    Failed,
    /// It came due while nothing ran, and was not run late.
    Missed,
}

impl RunStatus {
    fn as_str(self) -> &'static str {
        match self {
            Self::Succeeded => "succeeded",
            Self::Failed => "failed",
            Self::Missed => "missed",
        }
    }
}

const COLUMNS: &str = "id, action, rule, rule_text, time_zone, next_at, enabled, created_by, \
    conversation_id, consent, run_count, last_run_at, last_status, last_result, created_at, updated_at";

struct Raw(StoredSchedule, String, String);

fn read(row: &Row<'_>) -> rusqlite::Result<Raw> {
    Ok(Raw(
        StoredSchedule {
            id: row.get(0)?,
            action: Value::Null,
            rule: Value::Null,
            rule_text: row.get(3)?,
            time_zone: row.get(4)?,
            next_at: row.get(5)?,
            enabled: row.get(6)?,
            created_by: row.get(7)?,
            conversation_id: row.get(8)?,
            consent: row.get(9)?,
            run_count: row.get(10)?,
            last_run_at: row.get(11)?,
            last_status: row.get(12)?,
            last_result: row.get(13)?,
            created_at: row.get(14)?,
            updated_at: row.get(15)?,
        },
        row.get(1)?,
        row.get(2)?,
    ))
}

impl Raw {
    fn parse(self) -> Result<StoredSchedule, Error> {
        let Self(mut schedule, action, rule) = self;
        schedule.action = json_column(&action, "schedules.action")?;
        schedule.rule = json_column(&rule, "schedules.rule")?;
        Ok(schedule)
    }
}

fn read_run(row: &Row<'_>) -> rusqlite::Result<(ScheduleRun, Option<String>)> {
    Ok((
        ScheduleRun {
            schedule_id: row.get(0)?,
            occurrence: row.get(1)?,
            claimed_by: row.get(2)?,
            claimed_at: row.get(3)?,
            finished_at: row.get(4)?,
            status: row.get(5)?,
            result: None,
        },
        row.get(6)?,
    ))
}

/// The action and rule of a schedule as the text their columns hold.
fn definition_texts(s: &StoredSchedule) -> (String, String) {
    (s.action.to_string(), s.rule.to_string())
}

/// A schedule's definition as the parameters ?1 to ?8 of the statements that write it:
/// id, action, rule, rule_text, time_zone, next_at, enabled, consent.
fn definition<'a>(s: &'a StoredSchedule, texts: &'a (String, String)) -> [&'a dyn ToSql; 8] {
    [
        &s.id,
        &texts.0,
        &texts.1,
        &s.rule_text,
        &s.time_zone,
        &s.next_at,
        &s.enabled,
        &s.consent,
    ]
}

impl Store {
    /// Adds a schedule (timestamps and counters set here). Fails with
    /// [`Error::Taken`] on a used id.
    pub fn create_schedule(&self, s: &StoredSchedule) -> Result<StoredSchedule, Error> {
        let sql = format!(
            "INSERT INTO schedules (id, action, rule, rule_text, time_zone, next_at, enabled, consent, \
             created_by, conversation_id, created_at, updated_at) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, {NOW}, {NOW})"
        );
        let texts = definition_texts(s);
        let mut values = definition(s, &texts).to_vec();
        values.extend([&s.created_by as &dyn ToSql, &s.conversation_id]);
        let result = self
            .conn()?
            .execute(&sql, rusqlite::params_from_iter(values));
        match result {
            Err(rusqlite::Error::SqliteFailure(e, _))
                if e.extended_code == rusqlite::ffi::SQLITE_CONSTRAINT_PRIMARYKEY =>
            {
                return Err(Error::Taken {
                    table: "schedules",
                    id: s.id.clone(),
                });
            }
            other => other.sql(&sql)?,
        };
        self.schedule(&s.id)?.ok_or(Error::Sql {
            sql,
            source: rusqlite::Error::QueryReturnedNoRows,
        })
    }

    /// One schedule.
    pub fn schedule(&self, id: &str) -> Result<Option<StoredSchedule>, Error> {
        let sql = format!("SELECT {COLUMNS} FROM schedules WHERE id = ?1");
        let raw = self
            .conn()?
            .query_row(&sql, [id], read)
            .optional()
            .sql(&sql)?;
        raw.map(Raw::parse).transpose()
    }

    /// Schedules, the next to fire first (those that fire no more last), at most
    /// `limit` from `offset`, and how many there are in all.
    pub fn list_schedules(
        &self,
        limit: u32,
        offset: u32,
    ) -> Result<(Vec<StoredSchedule>, u64), Error> {
        let sql = format!(
            "SELECT {COLUMNS} FROM schedules ORDER BY next_at IS NULL, next_at, created_at, rowid \
             LIMIT ?1 OFFSET ?2"
        );
        let total = self.count_schedules()?;
        let conn = self.conn()?;
        let mut statement = conn.prepare_cached(&sql).sql(&sql)?;
        let rows = statement
            .query_map(params![limit, offset], read)
            .sql(&sql)?;
        let items = rows
            .map(|r| r.sql(&sql).and_then(Raw::parse))
            .collect::<Result<_, _>>()?;
        Ok((items, total))
    }

    /// How many schedules there are.
    pub fn count_schedules(&self) -> Result<u64, Error> {
        let sql = "SELECT count(*) FROM schedules";
        self.conn()?.query_row(sql, [], |r| r.get(0)).sql(sql)
    }

    /// Turns a schedule on or off; on, with the next occurrence from now. `None` when
    /// there is no such schedule.
    pub fn set_schedule_enabled(
        &self,
        id: &str,
        enabled: bool,
        next_at: Option<&str>,
    ) -> Result<Option<StoredSchedule>, Error> {
        let sql = format!(
            "UPDATE schedules SET enabled = ?2, next_at = CASE WHEN ?2 THEN ?3 ELSE next_at END, \
             updated_at = {NOW} WHERE id = ?1"
        );
        let changed = self
            .conn()?
            .execute(&sql, params![id, enabled, next_at])
            .sql(&sql)?;
        if changed == 0 {
            return Ok(None);
        }
        self.schedule(id)
    }

    /// Gives a schedule a new definition — action, rule, zone, next occurrence, enabled,
    /// consent — keeping its id, origin, conversation and runs. `None` when there is no
    /// such schedule.
    pub fn redefine_schedule(&self, s: &StoredSchedule) -> Result<Option<StoredSchedule>, Error> {
        let sql = format!(
            "UPDATE schedules SET action = ?2, rule = ?3, rule_text = ?4, time_zone = ?5, \
             next_at = ?6, enabled = ?7, consent = ?8, updated_at = {NOW} WHERE id = ?1"
        );
        let texts = definition_texts(s);
        let changed = self
            .conn()?
            .execute(&sql, definition(s, &texts).as_slice())
            .sql(&sql)?;
        if changed == 0 {
            return Ok(None);
        }
        self.schedule(&s.id)
    }

    /// Deletes a schedule and its runs; returns whether one was deleted.
    pub fn delete_schedule(&self, id: &str) -> Result<bool, Error> {
        let sql = "DELETE FROM schedules WHERE id = ?1";
        Ok(self.conn()?.execute(sql, [id]).sql(sql)? > 0)
    }

    /// The earliest next occurrence of any enabled schedule.
    pub fn next_due(&self) -> Result<Option<String>, Error> {
        let sql = "SELECT min(next_at) FROM schedules WHERE enabled = 1 AND next_at IS NOT NULL";
        self.conn()?.query_row(sql, [], |r| r.get(0)).sql(sql)
    }

    /// Enabled schedules whose next occurrence is at or before `now`, the earliest
    /// first, at most `limit`.
    pub fn due_schedules(&self, now: &str, limit: u32) -> Result<Vec<StoredSchedule>, Error> {
        let sql = format!(
            "SELECT {COLUMNS} FROM schedules WHERE enabled = 1 AND next_at IS NOT NULL \
             AND next_at <= ?1 ORDER BY next_at, rowid LIMIT ?2"
        );
        let conn = self.conn()?;
        let mut statement = conn.prepare_cached(&sql).sql(&sql)?;
        let rows = statement.query_map(params![now, limit], read).sql(&sql)?;
        rows.map(|r| r.sql(&sql).and_then(Raw::parse)).collect()
    }

    /// Claims an occurrence for `claimer`: its run row is inserted (`running`, or
    /// `missed` with `missed`'s reason: then it is finished at once) and the schedule
    /// moves on to `next_at`, in one transaction. `false` when the occurrence was
    /// claimed already (by this process or another) or the schedule moved on: the caller
    /// must not fire it.
    pub fn claim_occurrence(
        &self,
        schedule_id: &str,
        occurrence: &str,
        next_at: Option<&str>,
        claimer: &str,
        now: &str,
        missed: Option<&Value>,
    ) -> Result<bool, Error> {
        let mut conn = self.conn()?;
        let tx = conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .sql("BEGIN IMMEDIATE")?;
        let (status, finished, result) = match missed {
            Some(why) => ("missed", Some(now), Some(why.to_string())),
            None => ("running", None, None),
        };
        let sql = "INSERT OR IGNORE INTO schedule_runs \
                   (schedule_id, occurrence, claimed_by, claimed_at, finished_at, status, result) \
                   VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)";
        let inserted = tx
            .execute(
                sql,
                params![
                    schedule_id,
                    occurrence,
                    claimer,
                    now,
                    finished,
                    status,
                    result
                ],
            )
            .sql(sql)?;
        if inserted == 0 {
            return Ok(false);
        }
        let sql = format!(
            "UPDATE schedules SET next_at = ?3, run_count = run_count + 1, last_run_at = ?4, \
             last_status = ?5, last_result = ?6, updated_at = {NOW} \
             WHERE id = ?1 AND next_at = ?2"
        );
        let moved = tx
            .execute(
                &sql,
                params![schedule_id, occurrence, next_at, now, status, result],
            )
            .sql(&sql)?;
        if moved == 0 {
            // Deleted, disabled and re-enabled, or moved on meanwhile: not this
            // occurrence any more.
            return Ok(false);
        }
        tx.commit().sql("COMMIT")?;
        Ok(true)
    }

    /// Records how a claimed occurrence ended.
    pub fn finish_run(
        &self,
        schedule_id: &str,
        occurrence: &str,
        status: RunStatus,
        result: &Value,
        now: &str,
    ) -> Result<(), Error> {
        let mut conn = self.conn()?;
        let tx = conn.transaction().sql("BEGIN")?;
        let text = result.to_string();
        let sql = "UPDATE schedule_runs SET status = ?3, result = ?4, finished_at = ?5 \
                   WHERE schedule_id = ?1 AND occurrence = ?2";
        tx.execute(
            sql,
            params![schedule_id, occurrence, status.as_str(), text, now],
        )
        .sql(sql)?;
        let sql = format!(
            "UPDATE schedules SET last_status = ?2, last_result = ?3, updated_at = {NOW} \
             WHERE id = ?1 AND last_run_at IS NOT NULL"
        );
        tx.execute(&sql, params![schedule_id, status.as_str(), text])
            .sql(&sql)?;
        tx.commit().sql("COMMIT")
    }

    /// Runs still `running` that were claimed before `before` (their process stopped
    /// between the claim and the end: killed, or the machine went down) are recorded as
    /// failed with `why`; returns how many. Such an occurrence is neither lost nor run
    /// again.
    pub fn fail_abandoned_runs(
        &self,
        before: &str,
        why: &Value,
        now: &str,
    ) -> Result<usize, Error> {
        let sql = "UPDATE schedule_runs SET status = 'failed', result = ?2, finished_at = ?3 \
                   WHERE status = 'running' AND claimed_at < ?1";
        let conn = self.conn()?;
        let n = conn
            .execute(sql, params![before, why.to_string(), now])
            .sql(sql)?;
        if n > 0 {
            let sql = "UPDATE schedules SET last_status = 'failed', last_result = ?1 \
                       WHERE last_status = 'running' AND NOT EXISTS (SELECT 1 FROM schedule_runs r \
                       WHERE r.schedule_id = schedules.id AND r.status = 'running')";
            conn.execute(sql, [why.to_string()]).sql(sql)?;
        }
        Ok(n)
    }

    /// Runs still `running`: (schedule, occurrence, claimer).
    pub fn running_runs(&self) -> Result<Vec<(String, String, String)>, Error> {
        let sql = "SELECT schedule_id, occurrence, claimed_by FROM schedule_runs WHERE status = 'running'";
        let conn = self.conn()?;
        let mut statement = conn.prepare_cached(sql).sql(sql)?;
        let rows = statement
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
            .sql(sql)?;
        rows.map(|r| r.sql(sql)).collect()
    }

    /// Records a run that is still `running` as failed with `why` (its process is gone);
    /// whether it was.
    pub fn fail_run(
        &self,
        schedule_id: &str,
        occurrence: &str,
        why: &Value,
        now: &str,
    ) -> Result<bool, Error> {
        let sql = "UPDATE schedule_runs SET status = 'failed', result = ?3, finished_at = ?4 \
                   WHERE schedule_id = ?1 AND occurrence = ?2 AND status = 'running'";
        let conn = self.conn()?;
        let changed = conn
            .execute(sql, params![schedule_id, occurrence, why.to_string(), now])
            .sql(sql)?;
        if changed > 0 {
            let sql = "UPDATE schedules SET last_status = 'failed', last_result = ?2 \
                       WHERE id = ?1 AND last_status = 'running'";
            conn.execute(sql, params![schedule_id, why.to_string()])
                .sql(sql)?;
        }
        Ok(changed > 0)
    }

    /// A schedule's runs, the latest first, at most `limit` from `offset`, and how many
    /// there are in all.
    pub fn schedule_runs(
        &self,
        schedule_id: &str,
        limit: u32,
        offset: u32,
    ) -> Result<(Vec<ScheduleRun>, u64), Error> {
        let conn = self.conn()?;
        let count = "SELECT count(*) FROM schedule_runs WHERE schedule_id = ?1";
        let total: u64 = conn
            .query_row(count, [schedule_id], |r| r.get(0))
            .sql(count)?;
        let sql = "SELECT schedule_id, occurrence, claimed_by, claimed_at, finished_at, status, result \
                   FROM schedule_runs WHERE schedule_id = ?1 ORDER BY occurrence DESC LIMIT ?2 OFFSET ?3";
        let mut statement = conn.prepare_cached(sql).sql(sql)?;
        let rows = statement
            .query_map(params![schedule_id, limit, offset], read_run)
            .sql(sql)?;
        let mut runs = Vec::new();
        for row in rows {
            let (mut run, result) = row.sql(sql)?;
            run.result = result
                .map(|text| json_column(&text, "schedule_runs.result"))
                .transpose()?;
            runs.push(run);
        }
        Ok((runs, total))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn schedule(id: &str, next_at: &str) -> StoredSchedule {
        StoredSchedule {
            id: id.into(),
            action: json!({"kind": "reminder", "message": "stretch"}),
            rule: json!({"kind": "daily", "time": "09:00:00"}),
            rule_text: "every day at 9".into(),
            time_zone: "Europe/Berlin".into(),
            next_at: Some(next_at.into()),
            enabled: true,
            created_by: "api".into(),
            ..StoredSchedule::default()
        }
    }

    const T0: &str = "2026-12-03T08:00:00.000Z";
    const T1: &str = "2026-12-04T08:00:00.000Z";

    #[test]
    fn an_occurrence_is_claimed_once_and_the_schedule_moves_on() {
        let store = Store::open_in_memory().unwrap_or_else(|e| panic!("{e}"));
        store
            .create_schedule(&schedule("s", T0))
            .unwrap_or_else(|e| panic!("{e}"));
        assert!(matches!(
            store.create_schedule(&schedule("s", T0)),
            Err(Error::Taken { .. })
        ));
        let due = store
            .due_schedules(T0, 10)
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(due.len(), 1);
        assert_eq!(due[0].action["message"], "stretch");
        let claim = |who: &str| {
            store
                .claim_occurrence("s", T0, Some(T1), who, T0, None)
                .unwrap_or_else(|e| panic!("{e}"))
        };
        assert!(claim("a"));
        assert!(!claim("b"), "a second claim of one occurrence");
        let s = store
            .schedule("s")
            .ok()
            .flatten()
            .unwrap_or_else(|| panic!("stored"));
        assert_eq!(
            (s.next_at.as_deref(), s.run_count, s.last_status.as_deref()),
            (Some(T1), 1, Some("running"))
        );
        assert!(
            store
                .due_schedules(T0, 10)
                .unwrap_or_else(|e| panic!("{e}"))
                .is_empty()
        );
        store
            .finish_run("s", T0, RunStatus::Succeeded, &json!({"ok": true}), T0)
            .unwrap_or_else(|e| panic!("{e}"));
        let (runs, total) = store
            .schedule_runs("s", 10, 0)
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(total, 1);
        assert_eq!(
            (runs[0].status.as_str(), runs[0].claimed_by.as_str()),
            ("succeeded", "a")
        );
        assert_eq!(store.next_due().ok().flatten().as_deref(), Some(T1));
        assert!(store.delete_schedule("s").unwrap_or(false));
        assert_eq!(
            store.schedule_runs("s", 10, 0).map(|(_, n)| n).ok(),
            Some(0),
            "runs go with their schedule"
        );
    }

    #[test]
    fn an_abandoned_run_is_failed_not_repeated() {
        let store = Store::open_in_memory().unwrap_or_else(|e| panic!("{e}"));
        store
            .create_schedule(&schedule("s", T0))
            .unwrap_or_else(|e| panic!("{e}"));
        assert!(
            store
                .claim_occurrence("s", T0, Some(T1), "gone", T0, None)
                .unwrap_or(false)
        );
        let why = json!({"error": "interrupted"});
        assert_eq!(
            store.fail_abandoned_runs(T0, &why, T1).ok(),
            Some(0),
            "not older than the lease"
        );
        assert_eq!(store.fail_abandoned_runs(T1, &why, T1).ok(), Some(1));
        let s = store.schedule("s").ok().flatten();
        assert_eq!(s.and_then(|s| s.last_status), Some("failed".to_string()));
        // The failed occurrence is not claimable again.
        assert!(
            !store
                .claim_occurrence("s", T0, Some(T1), "new", T1, None)
                .unwrap_or(true)
        );
    }

    #[test]
    fn a_missed_occurrence_is_recorded_finished() {
        let store = Store::open_in_memory().unwrap_or_else(|e| panic!("{e}"));
        store
            .create_schedule(&schedule("s", T0))
            .unwrap_or_else(|e| panic!("{e}"));
        let why = json!({"missed": "nothing ran at that time"});
        assert!(
            store
                .claim_occurrence("s", T0, Some(T1), "p", T1, Some(&why))
                .unwrap_or(false)
        );
        let (runs, _) = store
            .schedule_runs("s", 10, 0)
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(runs[0].status, "missed");
        assert_eq!(runs[0].result.as_ref(), Some(&why));
        assert_eq!(runs[0].finished_at.as_deref(), Some(T1));
    }

    #[test]
    fn disabled_schedules_are_not_due_and_come_back_with_a_new_time() {
        let store = Store::open_in_memory().unwrap_or_else(|e| panic!("{e}"));
        store
            .create_schedule(&schedule("s", T0))
            .unwrap_or_else(|e| panic!("{e}"));
        store
            .set_schedule_enabled("s", false, None)
            .unwrap_or_else(|e| panic!("{e}"));
        assert!(
            store
                .due_schedules(T1, 10)
                .map(|d| d.is_empty())
                .unwrap_or(false)
        );
        assert_eq!(store.next_due().ok().flatten(), None);
        let on = store
            .set_schedule_enabled("s", true, Some(T1))
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(on.and_then(|s| s.next_at).as_deref(), Some(T1));
        assert_eq!(
            store.set_schedule_enabled("nope", true, None).ok(),
            Some(None)
        );
    }
}
