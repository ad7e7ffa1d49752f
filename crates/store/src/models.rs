//! LLM and ASR model configurations. An API key is never stored here: `api_key_ref`
//! names a secret in the secrets file.

use rusqlite::{OptionalExtension, Row, params};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::error::Context;
use crate::{Error, NOW, Store, json_column};

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
    /// RFC 3339.
    pub created_at: String,
    /// RFC 3339.
    pub updated_at: String,
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

const LLM_COLUMNS: &str = "id, name, base_url, model, api_key_ref, temperature, top_p, max_tokens, \
    streaming, is_default, managed, created_at, updated_at";
const ASR_COLUMNS: &str = "id, name, base_url, model, language, hotwords, api_key_ref, is_default, \
    managed, created_at, updated_at";

fn llm_row(row: &Row<'_>) -> rusqlite::Result<LlmModel> {
    Ok(LlmModel {
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
        created_at: row.get(11)?,
        updated_at: row.get(12)?,
    })
}

fn asr_row(row: &Row<'_>) -> rusqlite::Result<(AsrModel, String)> {
    Ok((
        AsrModel {
            id: row.get(0)?,
            name: row.get(1)?,
            base_url: row.get(2)?,
            model: row.get(3)?,
            language: row.get(4)?,
            hotwords: Vec::new(),
            api_key_ref: row.get(6)?,
            is_default: row.get(7)?,
            managed: row.get(8)?,
            created_at: row.get(9)?,
            updated_at: row.get(10)?,
        },
        row.get(5)?,
    ))
}

fn with_hotwords((mut model, text): (AsrModel, String)) -> Result<AsrModel, Error> {
    model.hotwords = match json_column(&text, "asr_models.hotwords")? {
        Value::Array(items) => items
            .into_iter()
            .filter_map(|v| v.as_str().map(str::to_string))
            .collect(),
        _ => Vec::new(),
    };
    Ok(model)
}

impl Store {
    /// Inserts or replaces an LLM model (timestamps set here; `created_at` kept on
    /// replace). When it is the default, no other model stays the default.
    pub fn save_llm_model(&self, m: &LlmModel) -> Result<LlmModel, Error> {
        let mut conn = self.conn()?;
        let tx = conn.transaction().sql("BEGIN")?;
        if m.is_default {
            let sql = "UPDATE llm_models SET is_default = 0 WHERE id <> ?1";
            tx.execute(sql, [&m.id]).sql(sql)?;
        }
        let sql = format!(
            "INSERT INTO llm_models ({LLM_COLUMNS}) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, {NOW}, {NOW}) \
             ON CONFLICT (id) DO UPDATE SET name = excluded.name, base_url = excluded.base_url, \
             model = excluded.model, api_key_ref = excluded.api_key_ref, temperature = excluded.temperature, \
             top_p = excluded.top_p, max_tokens = excluded.max_tokens, streaming = excluded.streaming, \
             is_default = excluded.is_default, managed = excluded.managed, updated_at = excluded.updated_at"
        );
        tx.execute(
            &sql,
            params![
                m.id,
                m.name,
                m.base_url,
                m.model,
                m.api_key_ref,
                m.temperature,
                m.top_p,
                m.max_tokens,
                m.streaming,
                m.is_default,
                m.managed
            ],
        )
        .sql(&sql)?;
        tx.commit().sql("COMMIT")?;
        drop(conn);
        self.llm_model(&m.id)?.ok_or(Error::Sql {
            sql,
            source: rusqlite::Error::QueryReturnedNoRows,
        })
    }

    /// One LLM model.
    pub fn llm_model(&self, id: &str) -> Result<Option<LlmModel>, Error> {
        let sql = format!("SELECT {LLM_COLUMNS} FROM llm_models WHERE id = ?1");
        self.conn()?
            .query_row(&sql, [id], llm_row)
            .optional()
            .sql(&sql)
    }

    /// Every LLM model, the default first, then by creation.
    pub fn list_llm_models(&self) -> Result<Vec<LlmModel>, Error> {
        let sql = format!(
            "SELECT {LLM_COLUMNS} FROM llm_models ORDER BY is_default DESC, created_at, rowid"
        );
        let conn = self.conn()?;
        let mut statement = conn.prepare_cached(&sql).sql(&sql)?;
        let rows = statement.query_map([], llm_row).sql(&sql)?;
        rows.map(|r| r.sql(&sql)).collect()
    }

    /// Deletes an LLM model; returns whether one was deleted.
    pub fn delete_llm_model(&self, id: &str) -> Result<bool, Error> {
        let sql = "DELETE FROM llm_models WHERE id = ?1";
        Ok(self.conn()?.execute(sql, [id]).sql(sql)? > 0)
    }

    /// Inserts or replaces an ASR model (see [`Store::save_llm_model`]).
    pub fn save_asr_model(&self, m: &AsrModel) -> Result<AsrModel, Error> {
        let hotwords = serde_json::to_string(&m.hotwords).map_err(|source| Error::Json {
            column: "asr_models.hotwords",
            source,
        })?;
        let mut conn = self.conn()?;
        let tx = conn.transaction().sql("BEGIN")?;
        if m.is_default {
            let sql = "UPDATE asr_models SET is_default = 0 WHERE id <> ?1";
            tx.execute(sql, [&m.id]).sql(sql)?;
        }
        let sql = format!(
            "INSERT INTO asr_models ({ASR_COLUMNS}) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, {NOW}, {NOW}) \
             ON CONFLICT (id) DO UPDATE SET name = excluded.name, base_url = excluded.base_url, \
             model = excluded.model, language = excluded.language, hotwords = excluded.hotwords, \
             api_key_ref = excluded.api_key_ref, is_default = excluded.is_default, \
             managed = excluded.managed, updated_at = excluded.updated_at"
        );
        tx.execute(
            &sql,
            params![
                m.id,
                m.name,
                m.base_url,
                m.model,
                m.language,
                hotwords,
                m.api_key_ref,
                m.is_default,
                m.managed
            ],
        )
        .sql(&sql)?;
        tx.commit().sql("COMMIT")?;
        drop(conn);
        self.asr_model(&m.id)?.ok_or(Error::Sql {
            sql,
            source: rusqlite::Error::QueryReturnedNoRows,
        })
    }

    /// One ASR model.
    pub fn asr_model(&self, id: &str) -> Result<Option<AsrModel>, Error> {
        let sql = format!("SELECT {ASR_COLUMNS} FROM asr_models WHERE id = ?1");
        let raw = self
            .conn()?
            .query_row(&sql, [id], asr_row)
            .optional()
            .sql(&sql)?;
        raw.map(with_hotwords).transpose()
    }

    /// Every ASR model, the default first.
    pub fn list_asr_models(&self) -> Result<Vec<AsrModel>, Error> {
        let sql = format!(
            "SELECT {ASR_COLUMNS} FROM asr_models ORDER BY is_default DESC, created_at, rowid"
        );
        let conn = self.conn()?;
        let mut statement = conn.prepare_cached(&sql).sql(&sql)?;
        let rows = statement.query_map([], asr_row).sql(&sql)?;
        rows.map(|r| r.sql(&sql).and_then(with_hotwords)).collect()
    }

    /// Deletes an ASR model; returns whether one was deleted.
    pub fn delete_asr_model(&self, id: &str) -> Result<bool, Error> {
        let sql = "DELETE FROM asr_models WHERE id = ?1";
        Ok(self.conn()?.execute(sql, [id]).sql(sql)? > 0)
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
            created_at: String::new(),
            updated_at: String::new(),
        }
    }

    #[test]
    fn one_default_at_most_and_replace_keeps_created_at() {
        let store = Store::open_in_memory().unwrap_or_else(|e| panic!("{e}"));
        let a = store
            .save_llm_model(&llm("a", true))
            .unwrap_or_else(|e| panic!("{e}"));
        store
            .save_llm_model(&llm("b", true))
            .unwrap_or_else(|e| panic!("{e}"));
        let all = store.list_llm_models().unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            all.iter()
                .map(|m| (m.id.as_str(), m.is_default))
                .collect::<Vec<_>>(),
            [("b", true), ("a", false)]
        );
        let mut changed = llm("a", false);
        changed.temperature = 0.1;
        let saved = store
            .save_llm_model(&changed)
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(saved.created_at, a.created_at);
        assert!((saved.temperature - 0.1).abs() < 1e-9);
        assert!(store.delete_llm_model("a").unwrap_or(false));
        assert!(!store.delete_llm_model("a").unwrap_or(true));
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
        let saved = store
            .save_asr_model(&model)
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(saved.hotwords, model.hotwords);
        let mut bad = model.clone();
        bad.managed = Some("something-else".into());
        assert!(store.save_asr_model(&bad).is_err());
        assert_eq!(
            store.asr_model("w").ok().flatten().map(|m| m.managed),
            Some(model.managed)
        );
    }
}
