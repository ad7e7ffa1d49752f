//! Autotest runs: the whole result as JSON, with its counts for listing.

use rusqlite::{OptionalExtension, params};
use serde_json::Value;

use crate::error::Context;
use crate::{Error, Store, json_column};

/// A stored run, as listed.
#[derive(Debug, Clone, PartialEq)]
pub struct AutotestRun {
    /// Its id.
    pub id: String,
    /// `full`, `llm` or `asr`.
    pub kind: String,
    /// Unix seconds.
    pub started_at: f64,
    /// Total time.
    pub duration_ms: i64,
    /// Checks passed.
    pub passed: i64,
    /// Checks failed.
    pub failed: i64,
    /// The result object as served.
    pub result: Value,
}

impl Store {
    /// Stores a finished run.
    pub fn insert_autotest_run(&self, run: &AutotestRun) -> Result<(), Error> {
        let sql = "INSERT INTO autotest_runs (id, kind, started_at, duration_ms, passed, failed, result) \
                   VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)";
        self.conn()?
            .execute(
                sql,
                params![
                    run.id,
                    run.kind,
                    run.started_at,
                    run.duration_ms,
                    run.passed,
                    run.failed,
                    run.result.to_string()
                ],
            )
            .sql(sql)?;
        Ok(())
    }

    /// Autotest runs (not evaluations), newest first, a page at a time, with the total.
    pub fn list_autotest_runs(
        &self,
        page: u32,
        limit: u32,
    ) -> Result<(u64, Vec<AutotestRun>), Error> {
        self.list_runs(false, page, limit)
    }

    /// Tool-call evaluations (kind `eval`), newest first, a page at a time, with the total.
    pub fn list_eval_runs(&self, page: u32, limit: u32) -> Result<(u64, Vec<AutotestRun>), Error> {
        self.list_runs(true, page, limit)
    }

    fn list_runs(
        &self,
        eval: bool,
        page: u32,
        limit: u32,
    ) -> Result<(u64, Vec<AutotestRun>), Error> {
        let limit = limit.clamp(1, 200);
        let offset = u64::from(page.max(1) - 1) * u64::from(limit);
        let conn = self.conn()?;
        let count = "SELECT count(*) FROM autotest_runs WHERE (kind = 'eval') = ?1";
        let total: i64 = conn.query_row(count, [eval], |r| r.get(0)).sql(count)?;
        let sql = "SELECT id, kind, started_at, duration_ms, passed, failed, result FROM autotest_runs \
                   WHERE (kind = 'eval') = ?3 ORDER BY started_at DESC, rowid DESC LIMIT ?1 OFFSET ?2";
        let mut statement = conn.prepare_cached(sql).sql(sql)?;
        let rows = statement
            .query_map(params![limit, offset, eval], read)
            .sql(sql)?;
        let mut out = Vec::new();
        for row in rows {
            out.push(parse(row.sql(sql)?)?);
        }
        Ok((u64::try_from(total).unwrap_or(0), out))
    }

    /// The run of the same kind and scope stored just before run `id` (what "compare
    /// with the previous run" compares with), if any.
    pub fn previous_autotest_run(&self, id: &str) -> Result<Option<AutotestRun>, Error> {
        let sql = "SELECT p.id, p.kind, p.started_at, p.duration_ms, p.passed, p.failed, p.result \
                   FROM autotest_runs p JOIN autotest_runs c ON c.id = ?1 \
                   WHERE p.kind = c.kind AND p.kind <> 'eval' AND p.id <> c.id \
                   AND json_extract(p.result, '$.scope') IS json_extract(c.result, '$.scope') \
                   AND (p.started_at < c.started_at OR (p.started_at = c.started_at AND p.rowid < c.rowid)) \
                   ORDER BY p.started_at DESC, p.rowid DESC LIMIT 1";
        let raw = self
            .conn()?
            .query_row(sql, [id], read)
            .optional()
            .sql(sql)?;
        raw.map(parse).transpose()
    }

    /// One run.
    pub fn autotest_run(&self, id: &str) -> Result<Option<AutotestRun>, Error> {
        let sql = "SELECT id, kind, started_at, duration_ms, passed, failed, result FROM autotest_runs WHERE id = ?1";
        let raw = self
            .conn()?
            .query_row(sql, [id], read)
            .optional()
            .sql(sql)?;
        raw.map(parse).transpose()
    }
}

type Raw = (String, String, f64, i64, i64, i64, String);

fn read(row: &rusqlite::Row<'_>) -> rusqlite::Result<Raw> {
    Ok((
        row.get(0)?,
        row.get(1)?,
        row.get(2)?,
        row.get(3)?,
        row.get(4)?,
        row.get(5)?,
        row.get(6)?,
    ))
}

fn parse(
    (id, kind, started_at, duration_ms, passed, failed, result): Raw,
) -> Result<AutotestRun, Error> {
    Ok(AutotestRun {
        id,
        kind,
        started_at,
        duration_ms,
        passed,
        failed,
        result: json_column(&result, "autotest_runs.result")?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn runs_are_listed_newest_first() {
        let store = Store::open_in_memory().unwrap_or_else(|e| panic!("{e}"));
        for (i, id) in ["a", "b", "c"].iter().enumerate() {
            store
                .insert_autotest_run(&AutotestRun {
                    id: (*id).into(),
                    kind: "llm".into(),
                    started_at: 1000.0 + i as f64,
                    duration_ms: 5,
                    passed: 4,
                    failed: 0,
                    result: json!({"id": id}),
                })
                .unwrap_or_else(|e| panic!("{e}"));
        }
        let (total, page) = store
            .list_autotest_runs(1, 2)
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(total, 3);
        assert_eq!(
            page.iter().map(|r| r.id.as_str()).collect::<Vec<_>>(),
            ["c", "b"]
        );
        assert_eq!(
            store.autotest_run("a").ok().flatten().map(|r| r.result),
            Some(json!({"id": "a"}))
        );
        // Evaluations are listed on their own.
        store
            .insert_autotest_run(&AutotestRun {
                id: "e".into(),
                kind: "eval".into(),
                started_at: 2000.0,
                duration_ms: 9,
                passed: 100,
                failed: 20,
                result: json!({"id": "e"}),
            })
            .unwrap_or_else(|e| panic!("{e}"));
        let (total, _) = store
            .list_autotest_runs(1, 10)
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(total, 3);
        let (total, evals) = store
            .list_eval_runs(1, 10)
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!((total, evals[0].id.as_str()), (1, "e"));
        assert!(
            store
                .insert_autotest_run(&AutotestRun {
                    id: "a".into(),
                    kind: "llm".into(),
                    started_at: 0.0,
                    duration_ms: 0,
                    passed: 0,
                    failed: 0,
                    result: json!({})
                })
                .is_err()
        );
    }

    #[test]
    fn the_previous_run_has_the_same_kind_and_scope() {
        let store = Store::open_in_memory().unwrap_or_else(|e| panic!("{e}"));
        let runs = [
            ("a", "full", 1.0, json!({"llm": true, "tools": true})),
            ("b", "llm", 2.0, json!({"llm": true})),
            ("c", "full", 3.0, json!({"asr": true, "tools": true})),
            ("d", "full", 4.0, json!({"llm": true, "tools": true})),
        ];
        for (id, kind, at, scope) in runs {
            store
                .insert_autotest_run(&AutotestRun {
                    id: id.into(),
                    kind: kind.into(),
                    started_at: at,
                    duration_ms: 1,
                    passed: 1,
                    failed: 0,
                    result: json!({"id": id, "scope": scope}),
                })
                .unwrap_or_else(|e| panic!("{e}"));
        }
        let previous = |id: &str| {
            store
                .previous_autotest_run(id)
                .unwrap_or_else(|e| panic!("{e}"))
                .map(|r| r.id)
        };
        assert_eq!(previous("d").as_deref(), Some("a"));
        assert_eq!(previous("c"), None);
        assert_eq!(previous("a"), None);
        assert_eq!(previous("missing"), None);
    }
}
