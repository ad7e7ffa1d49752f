//! Exactly-once keys (guard step 7). The first caller of a key claims it inside SQLite's
//! write lock, runs the call and stores the result; every later caller gets that result.

use rusqlite::{OptionalExtension, TransactionBehavior, params};
use serde_json::Value;

use crate::error::Context;
use crate::{Error, NOW, Store, json_column};

/// What claiming a key found.
#[derive(Debug, Clone, PartialEq)]
pub enum Claim {
    /// This caller owns the key and must run the call, then [`Store::finish_claim`].
    Claimed,
    /// The call already ran; here is its stored result.
    Finished(Value),
    /// Another caller claimed the key and has not finished yet.
    Pending,
    /// The key was used for a different call (another fingerprint).
    Conflict,
}

impl Store {
    /// Claims `key` for the call identified by `fingerprint`, atomically. A claim left
    /// unfinished for longer than `stale_after_secs` (its process died) is taken over.
    pub fn claim(
        &self,
        key: &str,
        fingerprint: &str,
        stale_after_secs: u64,
    ) -> Result<Claim, Error> {
        let mut conn = self.conn()?;
        let tx = conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .sql("BEGIN IMMEDIATE")?;
        let select = "SELECT fingerprint, result, unixepoch('now') - unixepoch(created_at) FROM idempotency WHERE key = ?1";
        let existing: Option<(String, Option<String>, i64)> = tx
            .query_row(select, [key], |row| {
                Ok((row.get(0)?, row.get(1)?, row.get(2)?))
            })
            .optional()
            .sql(select)?;
        let stale = i64::try_from(stale_after_secs).unwrap_or(i64::MAX);
        let claim = match existing {
            Some((stored, _, _)) if stored != fingerprint => Claim::Conflict,
            Some((_, Some(result), _)) => {
                Claim::Finished(json_column(&result, "idempotency.result")?)
            }
            Some((_, None, age)) if age > stale => {
                let retake = format!("UPDATE idempotency SET created_at = {NOW} WHERE key = ?1");
                tx.execute(&retake, [key]).sql(&retake)?;
                Claim::Claimed
            }
            Some((_, None, _)) => Claim::Pending,
            None => {
                let insert = format!(
                    "INSERT INTO idempotency (key, fingerprint, created_at) VALUES (?1, ?2, {NOW})"
                );
                tx.execute(&insert, params![key, fingerprint])
                    .sql(&insert)?;
                Claim::Claimed
            }
        };
        tx.commit().sql("COMMIT")?;
        Ok(claim)
    }

    /// Stores the result of a claimed key.
    pub fn finish_claim(&self, key: &str, result: &Value) -> Result<(), Error> {
        let sql = format!("UPDATE idempotency SET result = ?2, finished_at = {NOW} WHERE key = ?1");
        self.conn()?
            .execute(&sql, params![key, result.to_string()])
            .sql(&sql)?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn claim_run_finish_replay() {
        let store = Store::open_in_memory().unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(store.claim("k", "f", 60).ok(), Some(Claim::Claimed));
        assert_eq!(store.claim("k", "f", 60).ok(), Some(Claim::Pending));
        assert_eq!(store.claim("k", "other", 60).ok(), Some(Claim::Conflict));
        store
            .finish_claim("k", &json!({"ok": true}))
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            store.claim("k", "f", 60).ok(),
            Some(Claim::Finished(json!({"ok": true})))
        );
        assert!(
            matches!(store.claim("k", "f", 60), Ok(Claim::Finished(_))),
            "finished claims stay"
        );
        assert_eq!(store.claim("j", "f", 60).ok(), Some(Claim::Claimed));
        // A claim whose owner died is taken over once it is stale.
        assert_eq!(store.claim("j", "f", 60).ok(), Some(Claim::Pending));
        let conn = store.conn().unwrap_or_else(|e| panic!("{e}"));
        conn.execute(
            "UPDATE idempotency SET created_at = '2000-01-01T00:00:00.000Z' WHERE key = 'j'",
            [],
        )
        .unwrap_or_else(|e| panic!("{e}"));
        drop(conn);
        assert_eq!(store.claim("j", "f", 60).ok(), Some(Claim::Claimed));
    }

    #[test]
    fn one_claim_among_threads_and_connections() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let path = dir.path().join("t.db");
        drop(Store::open(&path).unwrap_or_else(|e| panic!("{e}")));
        let handles: Vec<_> = (0..8)
            .map(|_| {
                let path = path.clone();
                std::thread::spawn(move || {
                    // Each thread has its own connection, as separate processes would.
                    let store = Store::open(&path).unwrap_or_else(|e| panic!("{e}"));
                    store
                        .claim("same", "f", 60)
                        .unwrap_or_else(|e| panic!("{e}"))
                })
            })
            .collect();
        let claimed = handles
            .into_iter()
            .filter_map(|h| h.join().ok())
            .filter(|c| *c == Claim::Claimed)
            .count();
        assert_eq!(claimed, 1);
    }
}
