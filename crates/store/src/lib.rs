//! Deskmate's SQLite store: one file in the data dir (`deskmate.db`), opened with WAL,
//! foreign keys and a busy timeout, migrated with `rusqlite_migration` from the SQL files
//! in `migrations/`.
//!
//! - [`Store`]: the connection and the operations, one module per table group:
//!   [`resources`] (tool resources), [`audit`] (one event per call), [`idempotency`]
//!   (exactly-once keys), [`kb`] (knowledge base with FTS5), [`settings`],
//!   [`conversations`] and [`conversation_search`] (all of them searched, FTS5 trigrams),
//!   [`conversation_context`] (summaries of long conversations' older turns).
//!
//! ```
//! let dir = tempfile::tempdir().unwrap();
//! let store = deskmate_store::Store::open(&dir.path().join("deskmate.db")).unwrap();
//! store.set_setting("locale", &serde_json::json!("zh-CN")).unwrap();
//! assert_eq!(store.setting("locale").unwrap(), Some(serde_json::json!("zh-CN")));
//! ```

pub mod approvals;
pub mod audit;
pub mod autotest;
pub mod conversation_context;
pub mod conversation_search;
pub mod conversation_tree;
pub mod conversations;
pub mod error;
pub mod idempotency;
pub mod kb;
pub mod mcp_servers;
pub mod models;
pub mod resources;
pub mod schedules;
pub mod settings;

use std::path::Path;
use std::sync::{Mutex, MutexGuard};
use std::time::Duration;

use rusqlite::Connection;
use rusqlite_migration::{M, Migrations};

pub use error::Error;

/// The schema: SQL files compiled in as constant data, applied in order.
pub fn migrations() -> Migrations<'static> {
    Migrations::new(vec![
        M::up(include_str!("../migrations/001_init.sql")),
        M::up(include_str!("../migrations/002_models_conversations.sql")),
        M::up(include_str!("../migrations/003_audit_client.sql")),
        M::up(include_str!("../migrations/004_mcp_servers.sql")),
        M::up(include_str!("../migrations/005_mcp_tool_pins.sql")),
        M::up(include_str!("../migrations/006_audit_outcome.sql")),
        M::up(include_str!("../migrations/007_resource_display.sql")),
        M::up(include_str!("../migrations/008_schedules.sql")),
        M::up(include_str!("../migrations/009_conversation_search.sql")),
        M::up(include_str!("../migrations/010_approvals.sql")),
        M::up(include_str!("../migrations/011_conversation_summaries.sql")),
        M::up(include_str!("../migrations/012_conversation_tree.sql")),
        M::up(include_str!("../migrations/013_model_files.sql")),
    ])
}

/// The current time as SQLite writes it: RFC 3339, UTC, milliseconds.
pub(crate) const NOW: &str = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')";

/// How long a statement waits for a lock held by another connection.
const BUSY_TIMEOUT: Duration = Duration::from_secs(10);

/// The store: one connection, shared behind a mutex. SQLite serializes writers anyway,
/// and every statement here is short.
#[derive(Debug)]
pub struct Store {
    conn: Mutex<Connection>,
    /// The background checkpointer, stopped and waited for when the store is dropped.
    checkpointer: Mutex<Option<Checkpointer>>,
}

/// The checkpoint thread and the way to stop it.
#[derive(Debug)]
struct Checkpointer {
    stop: std::sync::mpsc::Sender<()>,
    thread: std::thread::JoinHandle<()>,
}

impl Drop for Store {
    /// Stops the checkpointer and waits for its last checkpoint, so that nothing touches
    /// the database files once the store is gone (a temporary data dir may be removed
    /// right after).
    fn drop(&mut self) {
        let checkpointer = self
            .checkpointer
            .get_mut()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .take();
        if let Some(Checkpointer { stop, thread }) = checkpointer {
            let _ = stop.send(());
            let _ = thread.join();
        }
    }
}

impl Store {
    /// Opens (creating if needed) and migrates the database at `path`.
    pub fn open(path: &Path) -> Result<Self, Error> {
        let conn = Connection::open(path).map_err(|source| Error::Open {
            path: path.display().to_string(),
            source,
        })?;
        Self::from_connection(conn)
    }

    /// An in-memory store (tests).
    pub fn open_in_memory() -> Result<Self, Error> {
        let conn = Connection::open_in_memory().map_err(|source| Error::Open {
            path: ":memory:".into(),
            source,
        })?;
        Self::from_connection(conn)
    }

    fn from_connection(mut conn: Connection) -> Result<Self, Error> {
        conn.busy_timeout(BUSY_TIMEOUT)
            .map_err(|source| Error::Sql {
                sql: "busy_timeout".into(),
                source,
            })?;
        // WAL lets readers work while a write is under way; NORMAL synchronisation in WAL
        // mode keeps every committed transaction across a crash of the process (only a
        // power cut may lose the last ones).
        for pragma in [
            "PRAGMA journal_mode = WAL",
            "PRAGMA synchronous = NORMAL",
            "PRAGMA foreign_keys = ON",
        ] {
            conn.query_row(pragma, [], |_| Ok(()))
                .or_else(|e| match e {
                    rusqlite::Error::QueryReturnedNoRows => Ok(()),
                    e => Err(e),
                })
                .map_err(|source| Error::Sql {
                    sql: pragma.into(),
                    source,
                })?;
        }
        migrations().to_latest(&mut conn)?;
        Ok(Self {
            conn: Mutex::new(conn),
            checkpointer: Mutex::new(None),
        })
    }

    pub(crate) fn conn(&self) -> Result<MutexGuard<'_, Connection>, Error> {
        self.conn.lock().map_err(|_| Error::Poisoned)
    }

    /// Moves checkpoints off the commit path: this connection stops checkpointing on
    /// commit, and a background thread on its own connection runs passive checkpoints
    /// (which never block writers) every `every`, until this store is dropped. A commit
    /// then never waits for pages to be copied back and synced into the database file.
    pub fn checkpoint_in_background(&self, path: &Path, every: Duration) -> Result<(), Error> {
        self.conn()?
            .query_row("PRAGMA wal_autocheckpoint = 0", [], |_| Ok(()))
            .or_else(|e| match e {
                rusqlite::Error::QueryReturnedNoRows => Ok(()),
                e => Err(e),
            })
            .map_err(|source| Error::Sql {
                sql: "PRAGMA wal_autocheckpoint = 0".into(),
                source,
            })?;
        let checkpointer = Connection::open(path).map_err(|source| Error::Open {
            path: path.display().to_string(),
            source,
        })?;
        checkpointer
            .busy_timeout(BUSY_TIMEOUT)
            .map_err(|source| Error::Sql {
                sql: "busy_timeout".into(),
                source,
            })?;
        let (stop, stopped) = std::sync::mpsc::channel::<()>();
        let thread = std::thread::Builder::new()
            .name("deskmate-checkpoint".into())
            .spawn(move || {
                // Every `every` until the store says stop (or is gone).
                while let Err(std::sync::mpsc::RecvTimeoutError::Timeout) =
                    stopped.recv_timeout(every)
                {
                    if let Err(error) =
                        checkpointer.query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |_| Ok(()))
                    {
                        tracing::warn!(%error, "WAL checkpoint failed");
                    }
                }
                // A last full checkpoint leaves a small WAL behind.
                let _ = checkpointer.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(()));
            })
            .map_err(|e| Error::Sql {
                sql: "spawn checkpoint thread".into(),
                source: rusqlite::Error::ToSqlConversionFailure(Box::new(e)),
            })?;
        let previous = self
            .checkpointer
            .lock()
            .map_err(|_| Error::Poisoned)?
            .replace(Checkpointer { stop, thread });
        if let Some(Checkpointer { stop, thread }) = previous {
            let _ = stop.send(());
            let _ = thread.join();
        }
        Ok(())
    }

    /// A PRAGMA's value (tests and diagnostics).
    pub fn pragma(&self, name: &str) -> Result<String, Error> {
        let sql = format!("PRAGMA {name}");
        let conn = self.conn()?;
        conn.query_row(&sql, [], |row| {
            row.get::<_, rusqlite::types::Value>(0).map(|v| match v {
                rusqlite::types::Value::Integer(i) => i.to_string(),
                rusqlite::types::Value::Text(t) => t,
                other => format!("{other:?}"),
            })
        })
        .map_err(|source| Error::Sql { sql, source })
    }
}

/// Reads a JSON text column.
pub(crate) fn json_column(text: &str, column: &'static str) -> Result<serde_json::Value, Error> {
    serde_json::from_str(text).map_err(|source| Error::Json { column, source })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Dropping the store stops the checkpointer and waits for its last checkpoint: the
    /// files are settled when `drop` returns (the checkpoint thread once went on after
    /// the store was gone, and failed with "disk I/O error" on removed temporary dirs).
    #[test]
    fn dropping_the_store_settles_its_files_before_returning() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let path = dir.path().join("t.db");
        let store = Store::open(&path).unwrap_or_else(|e| panic!("{e}"));
        store
            .checkpoint_in_background(&path, Duration::from_secs(30))
            .unwrap_or_else(|e| panic!("{e}"));
        for i in 0..50 {
            store
                .set_setting(&format!("k{i}"), &serde_json::json!(i))
                .unwrap_or_else(|e| panic!("{e}"));
        }
        let wal = dir.path().join("t.db-wal");
        assert!(
            wal.metadata().is_ok_and(|m| m.len() > 0),
            "writes went to the WAL"
        );
        let started = std::time::Instant::now();
        drop(store);
        assert!(
            started.elapsed() < Duration::from_secs(5),
            "drop waited for a sleep"
        );
        let left = wal.metadata().map(|m| m.len()).unwrap_or(0);
        assert_eq!(left, 0, "the WAL was checkpointed before drop returned");
        let again = Store::open(&path).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            again.setting("k49").ok().flatten(),
            Some(serde_json::json!(49))
        );
    }

    #[test]
    fn migrations_are_valid() {
        assert!(migrations().validate().is_ok());
    }

    #[test]
    fn pragmas_are_set_on_open() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let store = Store::open(&dir.path().join("t.db")).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(store.pragma("journal_mode").ok().as_deref(), Some("wal"));
        assert_eq!(store.pragma("foreign_keys").ok().as_deref(), Some("1"));
        assert_eq!(store.pragma("busy_timeout").ok().as_deref(), Some("10000"));
        assert_eq!(store.pragma("synchronous").ok().as_deref(), Some("1"));
        // Reopening an up-to-date database applies nothing and keeps the data.
        store
            .set_setting("k", &serde_json::json!(1))
            .unwrap_or_else(|e| panic!("{e}"));
        drop(store);
        let again = Store::open(&dir.path().join("t.db")).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            again.setting("k").ok().flatten(),
            Some(serde_json::json!(1))
        );
    }
}
