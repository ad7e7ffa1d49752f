//! The local knowledge base: documents grouped by `kb_id`, searched with SQLite FTS5.
//!
//! FTS5's default tokenizer keeps a run of CJK characters as one token, so Chinese text
//! would only match whole sentences. The indexed copy of each document therefore has its
//! CJK characters spaced apart, and a CJK query word becomes a phrase of its characters:
//! "知识库" finds the documents where those three characters stand in that order.

use rusqlite::{OptionalExtension, Row, params};
use serde::{Deserialize, Serialize};

use crate::error::Context;
use crate::{Error, NOW, Store};

/// A stored document.
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct KbDocument {
    /// Row id.
    pub id: i64,
    /// The knowledge base it belongs to.
    pub kb_id: String,
    /// Title.
    pub title: String,
    /// Full text.
    pub body: String,
    /// Where it came from (an imported file name), if anywhere.
    pub source: Option<String>,
    /// RFC 3339.
    pub created_at: String,
}

/// One search hit.
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct KbHit {
    /// Document id.
    pub id: i64,
    /// Its knowledge base.
    pub kb_id: String,
    /// Its title.
    pub title: String,
    /// The passage around the first match.
    pub snippet: String,
    /// BM25 relevance, higher is better.
    pub score: f64,
}

/// Characters around a match shown in a snippet.
const SNIPPET_CHARS: usize = 120;

impl Store {
    /// Adds a document, or replaces the one with the same `kb_id` and `source`.
    pub fn add_document(
        &self,
        kb_id: &str,
        title: &str,
        body: &str,
        source: Option<&str>,
    ) -> Result<KbDocument, Error> {
        let sql = format!(
            "INSERT INTO kb_documents (kb_id, title, body, indexed, source, created_at) VALUES (?1, ?2, ?3, ?4, ?5, {NOW}) \
             ON CONFLICT (kb_id, source) DO UPDATE SET title = excluded.title, body = excluded.body, indexed = excluded.indexed \
             RETURNING id, kb_id, title, body, source, created_at"
        );
        let indexed = segment(body);
        self.conn()?
            .query_row(
                &sql,
                params![kb_id, title, body, indexed, source],
                read_document,
            )
            .sql(&sql)
    }

    /// A document by id.
    pub fn document(&self, id: i64) -> Result<Option<KbDocument>, Error> {
        let sql =
            "SELECT id, kb_id, title, body, source, created_at FROM kb_documents WHERE id = ?1";
        self.conn()?
            .query_row(sql, [id], read_document)
            .optional()
            .sql(sql)
    }

    /// Documents of a knowledge base (or all), newest first, and the total.
    pub fn list_documents(
        &self,
        kb_id: Option<&str>,
        page: u32,
        limit: u32,
    ) -> Result<(u64, Vec<KbDocument>), Error> {
        let limit = limit.clamp(1, 1000);
        let offset = u64::from(page.max(1) - 1) * u64::from(limit);
        let conn = self.conn()?;
        let count = "SELECT count(*) FROM kb_documents WHERE ?1 IS NULL OR kb_id = ?1";
        let total: i64 = conn.query_row(count, [kb_id], |r| r.get(0)).sql(count)?;
        let sql = "SELECT id, kb_id, title, body, source, created_at FROM kb_documents \
                   WHERE ?1 IS NULL OR kb_id = ?1 ORDER BY id DESC LIMIT ?2 OFFSET ?3";
        let mut statement = conn.prepare_cached(sql).sql(sql)?;
        let rows = statement
            .query_map(params![kb_id, limit, offset], read_document)
            .sql(sql)?;
        let documents = rows.collect::<Result<Vec<_>, _>>().sql(sql)?;
        Ok((u64::try_from(total).unwrap_or(0), documents))
    }

    /// The knowledge bases that hold at least one document, by name.
    pub fn knowledge_bases(&self) -> Result<Vec<String>, Error> {
        let sql = "SELECT DISTINCT kb_id FROM kb_documents ORDER BY kb_id";
        let conn = self.conn()?;
        let mut statement = conn.prepare_cached(sql).sql(sql)?;
        let rows = statement.query_map([], |r| r.get(0)).sql(sql)?;
        rows.collect::<Result<Vec<String>, _>>().sql(sql)
    }

    /// Deletes a document; returns whether one was deleted.
    pub fn delete_document(&self, id: i64) -> Result<bool, Error> {
        let sql = "DELETE FROM kb_documents WHERE id = ?1";
        Ok(self.conn()?.execute(sql, [id]).sql(sql)? > 0)
    }

    /// Full-text search, best first. Any text is a valid query: words are matched as
    /// quoted terms (never as FTS operators), any one of them may match.
    pub fn search_documents(
        &self,
        kb_id: Option<&str>,
        query: &str,
        limit: u32,
    ) -> Result<Vec<KbHit>, Error> {
        let Some(expression) = match_expression(query) else {
            return Ok(Vec::new());
        };
        let sql = "SELECT d.id, d.kb_id, d.title, d.body, -bm25(kb_fts) FROM kb_fts JOIN kb_documents d ON d.id = kb_fts.rowid \
                   WHERE kb_fts MATCH ?1 AND (?2 IS NULL OR d.kb_id = ?2) ORDER BY bm25(kb_fts) LIMIT ?3";
        let conn = self.conn()?;
        let mut statement = conn.prepare_cached(sql).sql(sql)?;
        let terms = query_terms(query);
        let rows = statement
            .query_map(
                params![expression, kb_id, limit.clamp(1, 100)],
                |row: &Row<'_>| {
                    let body: String = row.get(3)?;
                    Ok(KbHit {
                        id: row.get(0)?,
                        kb_id: row.get(1)?,
                        title: row.get(2)?,
                        snippet: snippet(&body, &terms),
                        score: row.get(4)?,
                    })
                },
            )
            .sql(sql)?;
        rows.collect::<Result<Vec<_>, _>>().sql(sql)
    }
}

fn read_document(row: &Row<'_>) -> rusqlite::Result<KbDocument> {
    Ok(KbDocument {
        id: row.get(0)?,
        kb_id: row.get(1)?,
        title: row.get(2)?,
        body: row.get(3)?,
        source: row.get(4)?,
        created_at: row.get(5)?,
    })
}

fn is_cjk(c: char) -> bool {
    matches!(c as u32,
        0x3040..=0x30FF | 0x3400..=0x4DBF | 0x4E00..=0x9FFF | 0xAC00..=0xD7AF | 0xF900..=0xFAFF | 0x20000..=0x2A6DF)
}

/// The text as indexed: every CJK character stands alone.
pub fn segment(text: &str) -> String {
    let mut out = String::with_capacity(text.len() * 2);
    for c in text.chars() {
        if is_cjk(c) {
            out.push(' ');
            out.push(c);
            out.push(' ');
        } else {
            out.push(c);
        }
    }
    out
}

/// The words of a query: runs of letters and digits, split at CJK boundaries too.
fn query_terms(query: &str) -> Vec<String> {
    let mut terms = Vec::new();
    let mut current = String::new();
    let mut current_cjk = false;
    for c in query.chars() {
        let cjk = is_cjk(c);
        if c.is_alphanumeric() || cjk {
            if !current.is_empty() && cjk != current_cjk {
                terms.push(std::mem::take(&mut current));
            }
            current_cjk = cjk;
            current.push(c);
        } else if !current.is_empty() {
            terms.push(std::mem::take(&mut current));
        }
    }
    if !current.is_empty() {
        terms.push(current);
    }
    terms.truncate(32);
    terms
}

/// An FTS5 expression that matches any of the query's terms, each as a quoted phrase.
fn match_expression(query: &str) -> Option<String> {
    let phrases: Vec<String> = query_terms(query)
        .iter()
        .map(|term| {
            let spaced: Vec<String> = if term.chars().any(is_cjk) {
                term.chars().map(String::from).collect()
            } else {
                vec![term.clone()]
            };
            // Terms hold only letters and digits, so no quote needs escaping.
            format!("\"{}\"", spaced.join(" "))
        })
        .collect();
    (!phrases.is_empty()).then(|| phrases.join(" OR "))
}

/// The passage of `body` around the first term found (case-insensitive), or its start.
fn snippet(body: &str, terms: &[String]) -> String {
    let lower = body.to_lowercase();
    let found = terms
        .iter()
        .filter_map(|t| lower.find(&t.to_lowercase()))
        .min()
        // Lower-casing can change byte lengths; then the position is not one in `body`.
        .filter(|&at| lower.len() == body.len() && body.is_char_boundary(at))
        .unwrap_or(0);
    let chars_before = body[..found].chars().count();
    let start = chars_before.saturating_sub(SNIPPET_CHARS / 3);
    let text: String = body.chars().skip(start).take(SNIPPET_CHARS).collect();
    let mut out = String::new();
    if start > 0 {
        out.push('…');
    }
    out.push_str(text.trim());
    if start + SNIPPET_CHARS < body.chars().count() {
        out.push('…');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn store() -> Store {
        let store = Store::open_in_memory().unwrap_or_else(|e| panic!("{e}"));
        store
            .add_document(
                "handbook",
                "Volume",
                "To raise the volume, say 'turn the volume up'.",
                Some("volume.md"),
            )
            .unwrap_or_else(|e| panic!("{e}"));
        store
            .add_document(
                "handbook",
                "摄像头",
                "打开摄像头之前，请确认设备已连接。关闭摄像头会释放设备。",
                Some("camera.md"),
            )
            .unwrap_or_else(|e| panic!("{e}"));
        store
            .add_document("other", "Volume notes", "Loudness is not volume.", None)
            .unwrap_or_else(|e| panic!("{e}"));
        store
    }

    #[test]
    fn english_and_chinese_queries_find_their_documents() {
        let store = store();
        let hits = store
            .search_documents(Some("handbook"), "how do I raise the volume?", 5)
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(hits.first().map(|h| h.title.as_str()), Some("Volume"));
        assert!(hits.iter().all(|h| h.kb_id == "handbook"));
        let hits = store
            .search_documents(None, "关闭摄像头", 5)
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(hits.first().map(|h| h.title.as_str()), Some("摄像头"));
        assert!(
            hits[0].snippet.contains("关闭摄像头"),
            "{}",
            hits[0].snippet
        );
        assert_eq!(
            store
                .search_documents(None, "volume", 5)
                .map(|h| h.len())
                .ok(),
            Some(2)
        );
    }

    #[test]
    fn hostile_queries_are_just_text() {
        let store = store();
        for query in [
            "",
            "   ",
            "\"",
            "AND OR NOT",
            "vol*",
            "title:Volume",
            "NEAR(a b)",
            "'); DROP TABLE kb_documents; --",
        ] {
            assert!(store.search_documents(None, query, 5).is_ok(), "{query:?}");
        }
        assert_eq!(store.list_documents(None, 1, 10).map(|d| d.0).ok(), Some(3));
    }

    #[test]
    fn reimporting_a_source_replaces_it_and_delete_unindexes() {
        let store = store();
        let doc = store
            .add_document(
                "handbook",
                "Volume",
                "Now about brightness.",
                Some("volume.md"),
            )
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            store
                .list_documents(Some("handbook"), 1, 10)
                .map(|d| d.0)
                .ok(),
            Some(2)
        );
        assert!(
            store
                .search_documents(Some("handbook"), "raise", 5)
                .unwrap_or_default()
                .is_empty()
        );
        assert_eq!(
            store
                .search_documents(Some("handbook"), "brightness", 5)
                .map(|h| h.len())
                .ok(),
            Some(1)
        );
        assert_eq!(store.delete_document(doc.id).ok(), Some(true));
        assert!(
            store
                .search_documents(None, "brightness", 5)
                .unwrap_or_default()
                .is_empty()
        );
    }
}
