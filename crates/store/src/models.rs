//! LLM and ASR model configurations. An API key is never stored here: `api_key_ref`
//! names a secret in the secrets file.

use rusqlite::types::Value as SqlValue;
use rusqlite::{OptionalExtension, Row, params_from_iter};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::error::Context;
use crate::{Error, NOW, Store};

/// An OpenAI-compatible chat model.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LlmModel {
    /// Stable id.
    pub id: String,
    /// Display name.
    pub name: String,
    /// OpenAI-style base URL (`http://127.0.0.1:8080/v1`).
    pub base_url: String,
    /// The model name the server knows.
    pub model: String,
    /// The secret holding the API key, if any.
    pub api_key_ref: Option<String>,
    /// Sampling temperature, 0–2.
    pub temperature: f64,
    /// Nucleus sampling, (0, 1].
    pub top_p: f64,
    /// Most tokens per answer.
    pub max_tokens: i64,
    /// Stream answers (SSE).
    pub streaming: bool,
    /// The model used when none is named.
    pub is_default: bool,
    /// `llama-server` when Deskmate runs the server itself.
    pub managed: Option<String>,
    /// For a model run from a person's own GGUF file: how it is run.
    pub file: Option<ModelFile>,
    /// RFC 3339.
    pub created_at: String,
    /// RFC 3339.
    pub updated_at: String,
}

/// A GGUF file Deskmate runs with its own llama-server, and the server's settings.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ModelFile {
    /// The file's absolute path.
    pub path: String,
    /// The context size in tokens (`-c`).
    pub context_size: i64,
    /// CPU threads (`-t`).
    pub threads: i64,
}

/// An OpenAI-compatible transcription model.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AsrModel {
    /// Stable id.
    pub id: String,
    /// Display name.
    pub name: String,
    /// OpenAI-style base URL.
    pub base_url: String,
    /// The model name the server knows.
    pub model: String,
    /// ISO-639-1 language, or none to detect.
    pub language: Option<String>,
    /// Words to favour.
    pub hotwords: Vec<String>,
    /// The secret holding the API key, if any.
    pub api_key_ref: Option<String>,
    /// The model used when none is named.
    pub is_default: bool,
    /// `faster-whisper-server` when Deskmate runs the server itself.
    pub managed: Option<String>,
    /// RFC 3339.
    pub created_at: String,
    /// RFC 3339.
    pub updated_at: String,
}

/// What the store needs to know of a kind of model: its table, the columns it writes and
/// how a row reads. One implementation per kind; every operation is written once, in
/// [`Store`]'s generic methods.
pub trait ModelRecord: Sized {
    /// The table.
    const TABLE: &'static str;
    /// The columns a create or an update writes, `id` first (the timestamps are the
    /// store's: `created_at` set once, `updated_at` on every write).
    const COLUMNS: &'static [&'static str];
    /// The columns besides `id` that hold one value per row: a write giving one of them
    /// another row's value fails with [`Error::Duplicate`] and changes nothing.
    const UNIQUE: &'static [&'static str] = &[];
    /// The stable id.
    fn id(&self) -> &str;
    /// Whether it is its kind's default.
    fn is_default(&self) -> bool;
    /// The values of [`Self::COLUMNS`], in that order.
    fn values(&self) -> Result<Vec<SqlValue>, Error>;
    /// A row of [`Self::COLUMNS`] followed by `created_at, updated_at`.
    fn read(row: &Row<'_>) -> rusqlite::Result<Self>;
}

fn text(value: &str) -> SqlValue {
    SqlValue::Text(value.to_string())
}

fn optional(value: Option<&String>) -> SqlValue {
    value.map_or(SqlValue::Null, |v| text(v))
}

fn flag(value: bool) -> SqlValue {
    SqlValue::Integer(i64::from(value))
}

/// The accessors of the fields every model has, alike for every kind.
macro_rules! shared_fields {
    () => {
        fn id(&self) -> &str {
            &self.id
        }

        fn is_default(&self) -> bool {
            self.is_default
        }
    };
}

impl ModelRecord for LlmModel {
    const TABLE: &'static str = "llm_models";
    const COLUMNS: &'static [&'static str] = &[
        "id",
        "name",
        "base_url",
        "model",
        "api_key_ref",
        "temperature",
        "top_p",
        "max_tokens",
        "streaming",
        "is_default",
        "managed",
        "file",
        "context_size",
        "threads",
    ];
    const UNIQUE: &'static [&'static str] = &["file"];

    shared_fields!();

    fn values(&self) -> Result<Vec<SqlValue>, Error> {
        let file = self.file.as_ref();
        Ok(vec![
            text(&self.id),
            text(&self.name),
            text(&self.base_url),
            text(&self.model),
            optional(self.api_key_ref.as_ref()),
            SqlValue::Real(self.temperature),
            SqlValue::Real(self.top_p),
            SqlValue::Integer(self.max_tokens),
            flag(self.streaming),
            flag(self.is_default),
            optional(self.managed.as_ref()),
            optional(file.map(|f| &f.path)),
            file.map_or(SqlValue::Null, |f| SqlValue::Integer(f.context_size)),
            file.map_or(SqlValue::Null, |f| SqlValue::Integer(f.threads)),
        ])
    }

    fn read(row: &Row<'_>) -> rusqlite::Result<Self> {
        let path: Option<String> = row.get(11)?;
        let file = match path {
            Some(path) => Some(ModelFile {
                path,
                context_size: row.get::<_, Option<i64>>(12)?.unwrap_or(4096),
                threads: row.get::<_, Option<i64>>(13)?.unwrap_or(1),
            }),
            None => None,
        };
        Ok(Self {
            id: row.get(0)?,
            name: row.get(1)?,
            base_url: row.get(2)?,
            model: row.get(3)?,
            api_key_ref: row.get(4)?,
            temperature: row.get(5)?,
            top_p: row.get(6)?,
            max_tokens: row.get(7)?,
            streaming: row.get(8)?,
            is_default: row.get(9)?,
            managed: row.get(10)?,
            file,
            created_at: row.get(14)?,
            updated_at: row.get(15)?,
        })
    }
}

impl ModelRecord for AsrModel {
    const TABLE: &'static str = "asr_models";
    const COLUMNS: &'static [&'static str] = &[
        "id",
        "name",
        "base_url",
        "model",
        "language",
        "hotwords",
        "api_key_ref",
        "is_default",
        "managed",
    ];

    shared_fields!();

    fn values(&self) -> Result<Vec<SqlValue>, Error> {
        let hotwords = serde_json::to_string(&self.hotwords).map_err(|source| Error::Json {
            column: "asr_models.hotwords",
            source,
        })?;
        Ok(vec![
            text(&self.id),
            text(&self.name),
            text(&self.base_url),
            text(&self.model),
            optional(self.language.as_ref()),
            SqlValue::Text(hotwords),
            optional(self.api_key_ref.as_ref()),
            flag(self.is_default),
            optional(self.managed.as_ref()),
        ])
    }

    fn read(row: &Row<'_>) -> rusqlite::Result<Self> {
        let hotwords: String = row.get(5)?;
        let hotwords = match serde_json::from_str::<Value>(&hotwords) {
            Ok(Value::Array(items)) => items
                .into_iter()
                .filter_map(|v| v.as_str().map(str::to_string))
                .collect(),
            Ok(_) => Vec::new(),
            Err(e) => {
                return Err(rusqlite::Error::FromSqlConversionFailure(
                    5,
                    rusqlite::types::Type::Text,
                    Box::new(e),
                ));
            }
        };
        Ok(Self {
            id: row.get(0)?,
            name: row.get(1)?,
            base_url: row.get(2)?,
            model: row.get(3)?,
            language: row.get(4)?,
            hotwords,
            api_key_ref: row.get(6)?,
            is_default: row.get(7)?,
            managed: row.get(8)?,
            created_at: row.get(9)?,
            updated_at: row.get(10)?,
        })
    }
}

/// The duplicate a unique-constraint message (`UNIQUE constraint failed: t.col`) names.
fn duplicate<M: ModelRecord>(message: &str) -> Error {
    let column = M::UNIQUE
        .iter()
        .find(|c| message.ends_with(&format!(".{c}")))
        .copied()
        .unwrap_or("id");
    Error::Duplicate {
        table: M::TABLE,
        column,
    }
}

fn select<M: ModelRecord>() -> String {
    format!(
        "SELECT {}, created_at, updated_at FROM {}",
        M::COLUMNS.join(", "),
        M::TABLE
    )
}

/// Within `tx`: `m` is its kind's only default when it is one.
fn sole_default<M: ModelRecord>(tx: &rusqlite::Transaction<'_>, m: &M) -> Result<(), Error> {
    if m.is_default() {
        let sql = format!("UPDATE {} SET is_default = 0 WHERE id <> ?1", M::TABLE);
        tx.execute(&sql, [m.id()]).sql(&sql)?;
    }
    Ok(())
}

impl Store {
    /// Adds a model (timestamps set here). A used id fails with [`Error::Taken`] and
    /// changes nothing: a create never overwrites. When it is the default, no other
    /// model of its kind stays the default.
    pub fn create_model<M: ModelRecord>(&self, m: &M) -> Result<M, Error> {
        let places: Vec<String> = (1..=M::COLUMNS.len()).map(|i| format!("?{i}")).collect();
        let sql = format!(
            "INSERT INTO {} ({}, created_at, updated_at) VALUES ({}, {NOW}, {NOW})",
            M::TABLE,
            M::COLUMNS.join(", "),
            places.join(", ")
        );
        let values = m.values()?;
        let mut conn = self.conn()?;
        let tx = conn.transaction().sql("BEGIN")?;
        match tx.execute(&sql, params_from_iter(values)) {
            Err(rusqlite::Error::SqliteFailure(e, _))
                if e.extended_code == rusqlite::ffi::SQLITE_CONSTRAINT_PRIMARYKEY =>
            {
                return Err(Error::Taken {
                    table: M::TABLE,
                    id: m.id().to_string(),
                });
            }
            Err(rusqlite::Error::SqliteFailure(e, Some(message)))
                if e.extended_code == rusqlite::ffi::SQLITE_CONSTRAINT_UNIQUE =>
            {
                return Err(duplicate::<M>(&message));
            }
            other => other.sql(&sql)?,
        };
        sole_default(&tx, m)?;
        tx.commit().sql("COMMIT")?;
        drop(conn);
        self.stored_model(m.id(), &sql)
    }

    /// Replaces every field of a stored model but its id and `created_at`; `None`, with
    /// nothing written, when no model has its id (deleted meanwhile: an update never
    /// brings a model back).
    pub fn update_model<M: ModelRecord>(&self, m: &M) -> Result<Option<M>, Error> {
        let sets: Vec<String> = M::COLUMNS
            .iter()
            .enumerate()
            .skip(1)
            .map(|(i, column)| format!("{column} = ?{}", i + 1))
            .collect();
        let sql = format!(
            "UPDATE {} SET {}, updated_at = {NOW} WHERE id = ?1",
            M::TABLE,
            sets.join(", ")
        );
        let values = m.values()?;
        let mut conn = self.conn()?;
        let tx = conn.transaction().sql("BEGIN")?;
        match tx.execute(&sql, params_from_iter(values)) {
            Ok(0) => return Ok(None),
            Err(rusqlite::Error::SqliteFailure(e, Some(message)))
                if e.extended_code == rusqlite::ffi::SQLITE_CONSTRAINT_UNIQUE =>
            {
                return Err(duplicate::<M>(&message));
            }
            other => {
                other.sql(&sql)?;
            }
        }
        sole_default(&tx, m)?;
        tx.commit().sql("COMMIT")?;
        drop(conn);
        self.stored_model(m.id(), &sql).map(Some)
    }

    /// A model just written, read back.
    fn stored_model<M: ModelRecord>(&self, id: &str, sql: &str) -> Result<M, Error> {
        self.model(id)?.ok_or_else(|| Error::Sql {
            sql: sql.to_string(),
            source: rusqlite::Error::QueryReturnedNoRows,
        })
    }

    /// One model.
    pub fn model<M: ModelRecord>(&self, id: &str) -> Result<Option<M>, Error> {
        let sql = format!("{} WHERE id = ?1", select::<M>());
        self.conn()?
            .query_row(&sql, [id], M::read)
            .optional()
            .sql(&sql)
    }

    /// Every model of a kind, the default first, then by creation.
    pub fn list_models<M: ModelRecord>(&self) -> Result<Vec<M>, Error> {
        let sql = format!(
            "{} ORDER BY is_default DESC, created_at, rowid",
            select::<M>()
        );
        let conn = self.conn()?;
        let mut statement = conn.prepare_cached(&sql).sql(&sql)?;
        let rows = statement.query_map([], M::read).sql(&sql)?;
        rows.map(|r| r.sql(&sql)).collect()
    }

    /// Deletes a model; returns whether one was deleted.
    pub fn delete_model<M: ModelRecord>(&self, id: &str) -> Result<bool, Error> {
        let sql = format!("DELETE FROM {} WHERE id = ?1", M::TABLE);
        Ok(self.conn()?.execute(&sql, [id]).sql(&sql)? > 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn llm(id: &str, default: bool) -> LlmModel {
        LlmModel {
            id: id.into(),
            name: format!("Model {id}"),
            base_url: "http://127.0.0.1:8080/v1".into(),
            model: "qwen".into(),
            api_key_ref: None,
            temperature: 0.7,
            top_p: 1.0,
            max_tokens: 1024,
            streaming: true,
            is_default: default,
            managed: None,
            file: None,
            created_at: String::new(),
            updated_at: String::new(),
        }
    }

    /// Two models never run one file: a create or an update that would is refused whole.
    #[test]
    fn one_model_per_file() {
        let store = Store::open_in_memory().unwrap_or_else(|e| panic!("{e}"));
        let from = |id: &str, path: &str| LlmModel {
            file: Some(ModelFile {
                path: path.into(),
                context_size: 4096,
                threads: 2,
            }),
            ..llm(id, false)
        };
        let a = store
            .create_model(&from("a", "/m/a.gguf"))
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(a.file, from("a", "/m/a.gguf").file);
        let refused = store.create_model(&from("b", "/m/a.gguf"));
        assert!(
            matches!(refused, Err(Error::Duplicate { column: "file", .. })),
            "{refused:?}"
        );
        store
            .create_model(&from("c", "/m/c.gguf"))
            .unwrap_or_else(|e| panic!("{e}"));
        let refused = store.update_model(&from("c", "/m/a.gguf"));
        assert!(
            matches!(refused, Err(Error::Duplicate { column: "file", .. })),
            "{refused:?}"
        );
        let c: Option<LlmModel> = store.model("c").unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            c.and_then(|m| m.file).map(|f| f.path),
            Some("/m/c.gguf".into())
        );
        // Models served elsewhere have no file, as many as there are.
        for id in ["d", "e"] {
            store
                .create_model(&llm(id, false))
                .unwrap_or_else(|e| panic!("{e}"));
        }
        assert_eq!(
            store.list_models::<LlmModel>().map(|l| l.len()).ok(),
            Some(4)
        );
    }

    #[test]
    fn one_default_at_most_and_an_update_keeps_created_at() {
        let store = Store::open_in_memory().unwrap_or_else(|e| panic!("{e}"));
        let a = store
            .create_model(&llm("a", true))
            .unwrap_or_else(|e| panic!("{e}"));
        store
            .create_model(&llm("b", true))
            .unwrap_or_else(|e| panic!("{e}"));
        let all: Vec<LlmModel> = store.list_models().unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            all.iter()
                .map(|m| (m.id.as_str(), m.is_default))
                .collect::<Vec<_>>(),
            [("b", true), ("a", false)]
        );
        let mut changed = llm("a", false);
        changed.temperature = 0.1;
        let saved = store
            .update_model(&changed)
            .unwrap_or_else(|e| panic!("{e}"))
            .unwrap_or_else(|| panic!("a is stored"));
        assert_eq!(saved.created_at, a.created_at);
        assert!((saved.temperature - 0.1).abs() < 1e-9);
        assert!(store.delete_model::<LlmModel>("a").unwrap_or(false));
        assert!(!store.delete_model::<LlmModel>("a").unwrap_or(true));
    }

    /// A create never overwrites and an update never brings back: correctness does not
    /// hang on a lock held by the caller.
    #[test]
    fn a_create_on_a_used_id_and_an_update_of_a_missing_one_change_nothing() {
        let store = Store::open_in_memory().unwrap_or_else(|e| panic!("{e}"));
        store
            .create_model(&llm("a", false))
            .unwrap_or_else(|e| panic!("{e}"));
        let mut other = llm("a", true);
        other.name = "Another".into();
        assert!(matches!(
            store.create_model(&other),
            Err(Error::Taken { table: "llm_models", ref id }) if id == "a"
        ));
        let kept: Option<LlmModel> = store.model("a").unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            kept.map(|m| (m.name, m.is_default)),
            Some(("Model a".to_string(), false))
        );

        // A default that is not stored does not take the default from another model.
        store
            .create_model(&llm("b", true))
            .unwrap_or_else(|e| panic!("{e}"));
        let gone = llm("gone", true);
        assert_eq!(store.update_model(&gone).ok(), Some(None));
        assert!(store.model::<LlmModel>("gone").ok().flatten().is_none());
        assert_eq!(
            store
                .model::<LlmModel>("b")
                .ok()
                .flatten()
                .map(|m| m.is_default),
            Some(true)
        );
    }

    /// Fifty threads create one id at once: one wins, the others are told the id is used,
    /// and the stored model is the winner's.
    #[test]
    fn concurrent_creates_of_one_id_store_the_winner_only() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let store = Store::open(&dir.path().join("d.db")).unwrap_or_else(|e| panic!("{e}"));
        let results: Vec<(usize, Result<LlmModel, Error>)> = std::thread::scope(|scope| {
            let handles: Vec<_> = (0..50)
                .map(|i| {
                    let store = &store;
                    scope.spawn(move || {
                        let mut m = llm("same", false);
                        m.name = format!("writer {i}");
                        (i, store.create_model(&m))
                    })
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().unwrap_or_else(|_| panic!("a writer panicked")))
                .collect()
        });
        let winners: Vec<usize> = results
            .iter()
            .filter(|(_, r)| r.is_ok())
            .map(|(i, _)| *i)
            .collect();
        assert_eq!(winners.len(), 1, "{results:?}");
        let taken = results
            .iter()
            .filter(|(_, r)| matches!(r, Err(Error::Taken { .. })))
            .count();
        assert_eq!(taken, 49, "{results:?}");
        let stored: Option<LlmModel> = store.model("same").unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            stored.map(|m| m.name),
            Some(format!("writer {}", winners[0]))
        );
    }

    #[test]
    fn asr_hotwords_round_trip_and_bad_managed_values_are_refused() {
        let store = Store::open_in_memory().unwrap_or_else(|e| panic!("{e}"));
        let model = AsrModel {
            id: "w".into(),
            name: "Whisper".into(),
            base_url: "http://127.0.0.1:9000/v1".into(),
            model: "whisper-base".into(),
            language: Some("zh".into()),
            hotwords: vec!["Deskmate".into(), "音量".into()],
            api_key_ref: None,
            is_default: true,
            managed: Some("faster-whisper-server".into()),
            created_at: String::new(),
            updated_at: String::new(),
        };
        let saved = store.create_model(&model).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(saved.hotwords, model.hotwords);
        let mut bad = model.clone();
        bad.managed = Some("something-else".into());
        assert!(store.update_model(&bad).is_err());
        assert_eq!(
            store
                .model::<AsrModel>("w")
                .ok()
                .flatten()
                .map(|m| m.managed),
            Some(model.managed)
        );
    }
}
