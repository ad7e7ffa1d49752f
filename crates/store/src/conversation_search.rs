//! Searching all conversations: their titles and the text the chat shows of their
//! messages (a person's words, replies, reminder lines, tool cards' summaries).
//!
//! The rows and their FTS5 index are kept by triggers (migration 009). The index uses the
//! trigram tokenizer, so a word of three or more characters is found anywhere inside a
//! text, Chinese included ("下午记得" inside "今天下午记得喝水和休息"), case-insensitively.
//! A word of one or two characters ("喝水") has no trigram: it is matched with `LIKE` on
//! the rows instead (a scan, escaped so `%` and `_` are just characters). Every word of
//! a query must be found in the same text. The query's words are bound as parameters,
//! quoted as FTS5 strings: no text a person types is read as FTS5 syntax.

use rusqlite::types::Value as SqlValue;
use rusqlite::{Row, params_from_iter};
use serde::{Deserialize, Serialize};

use crate::error::Context;
use crate::{Error, Store};

/// What a hit was found in.
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HitKind {
    /// The conversation's title.
    Title,
    /// A message the person wrote.
    User,
    /// An assistant's reply.
    Assistant,
    /// A tool card's summary.
    Tool,
    /// A reminder line.
    Reminder,
}

impl HitKind {
    /// The kind as stored in `conversation_search_rows.kind`.
    fn from_column(text: &str) -> Option<Self> {
        Some(match text {
            "title" => Self::Title,
            "user" => Self::User,
            "assistant" => Self::Assistant,
            "tool" => Self::Tool,
            "reminder" => Self::Reminder,
            _ => return None,
        })
    }
}

/// One place a search found its words: a conversation's title or one of its entries.
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ConversationHit {
    /// The conversation's id.
    pub conversation_id: String,
    /// Its title.
    pub title: String,
    /// When it was last used (RFC 3339).
    pub updated_at: String,
    /// The entry found, as the `seq` of the conversation's entries (a tool card: the
    /// assistant message holding the call); null when the title was found.
    pub seq: Option<i64>,
    /// What the words were found in.
    pub kind: HitKind,
    /// The text around the first word found, on one line, at most 120 characters (`…`
    /// where it was cut).
    pub snippet: String,
}

/// Most characters of a snippet, the `…` included.
pub const SNIPPET_CHARS: usize = 120;
/// Most words of a query that are searched for; the rest are left out.
const MAX_TERMS: usize = 16;
/// The fewest characters a word needs to be looked up in the trigram index.
const TRIGRAM: usize = 3;

impl Store {
    /// The titles and entries of all conversations where every word of `query` (split at
    /// white space) is found, the most recently used conversation first, then its title,
    /// then its latest entries; with the number of all hits. A query without words finds
    /// nothing.
    pub fn search_conversations(
        &self,
        query: &str,
        limit: u32,
        offset: u64,
    ) -> Result<(u64, Vec<ConversationHit>), Error> {
        let words = words(query);
        if words.is_empty() {
            return Ok((0, Vec::new()));
        }
        let (long, short): (Vec<&String>, Vec<&String>) = words
            .iter()
            .partition(|word| word.chars().count() >= TRIGRAM);
        let mut conditions: Vec<&str> = Vec::new();
        let mut values: Vec<SqlValue> = Vec::new();
        let from = if long.is_empty() {
            "conversation_search_rows r"
        } else {
            conditions.push("conversation_search MATCH ?");
            values.push(SqlValue::Text(match_expression(&long)));
            "conversation_search JOIN conversation_search_rows r ON r.id = conversation_search.rowid"
        };
        for word in short {
            conditions.push("r.body LIKE ? ESCAPE '\\'");
            values.push(SqlValue::Text(like_pattern(word)));
        }
        let filter = conditions.join(" AND ");

        let conn = self.conn()?;
        let count = format!("SELECT count(*) FROM {from} WHERE {filter}");
        let total: i64 = conn
            .query_row(&count, params_from_iter(values.iter()), |row| row.get(0))
            .sql(&count)?;
        let sql = format!(
            "SELECT r.conversation_id, c.title, c.updated_at, r.entry_seq, r.kind, r.body \
             FROM {from} JOIN conversations c ON c.id = r.conversation_id WHERE {filter} \
             ORDER BY c.updated_at DESC, c.rowid DESC, r.kind = 'title' DESC, r.entry_seq DESC, r.id DESC \
             LIMIT ? OFFSET ?"
        );
        values.push(SqlValue::Integer(i64::from(limit.clamp(1, 1000))));
        values.push(SqlValue::Integer(i64::try_from(offset).unwrap_or(i64::MAX)));
        let mut statement = conn.prepare(&sql).sql(&sql)?;
        let rows = statement
            .query_map(params_from_iter(values.iter()), |row| read_hit(row, &words))
            .sql(&sql)?;
        let hits = rows.collect::<Result<Vec<_>, _>>().sql(&sql)?;
        Ok((u64::try_from(total).unwrap_or(0), hits))
    }
}

/// A row of the search's `SELECT`, its snippet cut around the first of `words`.
fn read_hit(row: &Row<'_>, words: &[String]) -> rusqlite::Result<ConversationHit> {
    let kind: String = row.get(4)?;
    let body: String = row.get(5)?;
    Ok(ConversationHit {
        conversation_id: row.get(0)?,
        title: row.get(1)?,
        updated_at: row.get(2)?,
        seq: row.get(3)?,
        kind: HitKind::from_column(&kind).ok_or_else(|| {
            rusqlite::Error::FromSqlConversionFailure(
                4,
                rusqlite::types::Type::Text,
                format!("unknown hit kind '{kind}'").into(),
            )
        })?,
        snippet: snippet(&body, words),
    })
}

/// The words of a query: split at white space, each once (ignoring case), at most
/// [`MAX_TERMS`].
fn words(query: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for word in query.split_whitespace() {
        if !out.iter().any(|w| w.to_lowercase() == word.to_lowercase()) {
            out.push(word.to_string());
        }
        if out.len() == MAX_TERMS {
            break;
        }
    }
    out
}

/// An FTS5 expression that needs every word: each one an FTS5 string (double quotes, a
/// quote inside doubled), so operators, column filters, `*` and `NEAR(` are just text.
fn match_expression(words: &[&String]) -> String {
    words
        .iter()
        .map(|word| format!("\"{}\"", word.replace('"', "\"\"")))
        .collect::<Vec<_>>()
        .join(" AND ")
}

/// A `LIKE … ESCAPE '\'` pattern that finds `word` anywhere: `%`, `_` and `\` in it
/// stand for themselves.
fn like_pattern(word: &str) -> String {
    let mut pattern = String::with_capacity(word.len() + 2);
    pattern.push('%');
    for c in word.chars() {
        if matches!(c, '%' | '_' | '\\') {
            pattern.push('\\');
        }
        pattern.push(c);
    }
    pattern.push('%');
    pattern
}

/// A character folded for finding a word regardless of case, one character for one so
/// that positions stay positions of the original text.
fn fold(c: char) -> char {
    c.to_lowercase().next().unwrap_or(c)
}

/// Where `needle` first stands in `haystack`, both folded, in characters.
fn find(haystack: &[char], needle: &[char]) -> Option<usize> {
    if needle.is_empty() || needle.len() > haystack.len() {
        return None;
    }
    haystack.windows(needle.len()).position(|w| w == needle)
}

/// The text around the first of `words` found in `body` (its start when none is: the
/// words were found by the index in a way this search does not repeat), on one line, at
/// most [`SNIPPET_CHARS`] characters with the `…` that mark a cut. Cut between
/// characters, never inside one.
pub(crate) fn snippet(body: &str, words: &[String]) -> String {
    let chars: Vec<char> = body.chars().collect();
    let folded: Vec<char> = chars.iter().copied().map(fold).collect();
    let found = words
        .iter()
        .filter_map(|w| find(&folded, &w.chars().map(fold).collect::<Vec<_>>()))
        .min()
        .unwrap_or(0);
    // Room for a `…` on either side.
    let room = SNIPPET_CHARS - 2;
    let start = found
        .saturating_sub(room / 3)
        .min(chars.len().saturating_sub(room));
    let end = (start + room).min(chars.len());
    let mut out = String::new();
    if start > 0 {
        out.push('…');
    }
    let mut space = false;
    for &c in &chars[start..end] {
        if c.is_whitespace() {
            space = true;
            continue;
        }
        if space && !out.is_empty() && out != "…" {
            out.push(' ');
        }
        space = false;
        out.push(c);
    }
    if end < chars.len() {
        out.push('…');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Value, json};

    fn store() -> Store {
        Store::open_in_memory().unwrap_or_else(|e| panic!("{e}"))
    }

    fn conversation(store: &Store, id: &str, title: &str, messages: &[Value]) {
        store
            .create_conversation(id, title, None)
            .unwrap_or_else(|e| panic!("{e}"));
        store
            .append_messages(id, None, messages)
            .unwrap_or_else(|e| panic!("{e}"));
    }

    fn search(store: &Store, query: &str) -> Vec<ConversationHit> {
        store
            .search_conversations(query, 50, 0)
            .unwrap_or_else(|e| panic!("{query:?}: {e}"))
            .1
    }

    /// `(conversation, seq, kind)` of each hit.
    fn found(store: &Store, query: &str) -> Vec<(String, Option<i64>, HitKind)> {
        search(store, query)
            .into_iter()
            .map(|h| (h.conversation_id, h.seq, h.kind))
            .collect()
    }

    #[test]
    fn a_chinese_word_is_found_inside_a_phrase_however_short() {
        let store = store();
        conversation(
            &store,
            "zh",
            "提醒",
            &[
                json!({"role": "user", "content": "今天下午记得喝水和休息"}),
                json!({"role": "assistant", "content": "好的。"}),
            ],
        );
        conversation(
            &store,
            "en",
            "Water",
            &[json!({"role": "user", "content": "Remind me to drink water"})],
        );
        let user = |seq| ("zh".to_string(), Some(seq), HitKind::User);
        assert_eq!(found(&store, "喝水"), [user(1)], "two characters: LIKE");
        assert_eq!(
            found(&store, "下午记得"),
            [user(1)],
            "four: the trigram index"
        );
        assert_eq!(found(&store, "水"), [user(1)], "one character");
        assert_eq!(
            found(&store, "喝水 下午记得"),
            [user(1)],
            "both kinds at once"
        );
        assert_eq!(found(&store, "喝水 咖啡"), [], "every word must be found");
        let hit = &search(&store, "喝水")[0];
        assert_eq!(hit.snippet, "今天下午记得喝水和休息");
        assert_eq!((hit.title.as_str(), hit.kind), ("提醒", HitKind::User));
    }

    #[test]
    fn english_is_found_regardless_of_case() {
        let store = store();
        conversation(
            &store,
            "en",
            "Groceries",
            &[
                json!({"role": "user", "content": "Remind me to DRINK Water at 3pm"}),
                json!({"role": "assistant", "content": "I will remind you to drink water."}),
            ],
        );
        let got = found(&store, "drink WATER");
        assert_eq!(
            got,
            [
                ("en".to_string(), Some(2), HitKind::Assistant),
                ("en".to_string(), Some(1), HitKind::User)
            ],
            "latest entry first"
        );
        assert_eq!(found(&store, "Me"), [("en".into(), Some(1), HitKind::User)]);
        assert_eq!(
            found(&store, "grocer"),
            [("en".into(), None, HitKind::Title)]
        );
    }

    #[test]
    fn tool_summaries_and_reminders_are_found_at_the_entry_the_chat_shows() {
        let store = store();
        conversation(
            &store,
            "c",
            "",
            &[
                json!({"role": "user", "content": "17% of 2340?"}),
                json!({"role": "assistant", "content": "Let me compute.", "tool_calls": [{"id": "c1", "type": "function",
                    "function": {"name": "calculator", "arguments": "{\"expression\":\"zebra\"}"}}]}),
                json!({"role": "tool", "tool_call_id": "c1", "content": "{\"secret\":\"ostrich\"}",
                    "deskmate": {"status": "done", "summary": "17% of 2340 = 397.8"}}),
                json!({"role": "assistant", "content": "It is 397.8."}),
                json!({"role": "assistant", "content": "stretch your legs", "deskmate": {"kind": "reminder"}}),
            ],
        );
        // The card's summary is found at the call's message; its raw content, the call's
        // arguments and a reply shown only as cards are not searched.
        assert_eq!(
            found(&store, "= 397"),
            [("c".into(), Some(2), HitKind::Tool)]
        );
        for hidden in ["ostrich", "zebra", "Let me compute"] {
            assert_eq!(found(&store, hidden), [], "{hidden}");
        }
        assert_eq!(
            found(&store, "legs"),
            [("c".into(), Some(5), HitKind::Reminder)]
        );
        assert_eq!(
            found(&store, "397.8"),
            [
                ("c".into(), Some(4), HitKind::Assistant),
                ("c".into(), Some(2), HitKind::Tool)
            ]
        );
    }

    #[test]
    fn renamed_and_deleted_conversations_are_searched_as_they_are_now() {
        let store = store();
        conversation(
            &store,
            "a",
            "weekly plan",
            &[json!({"role": "user", "content": "plan the week"})],
        );
        assert_eq!(found(&store, "weekly").len(), 1);
        store
            .rename_conversation("a", "假期安排")
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(found(&store, "weekly"), []);
        assert_eq!(found(&store, "假期"), [("a".into(), None, HitKind::Title)]);
        assert_eq!(
            found(&store, "期安排"),
            [("a".into(), None, HitKind::Title)]
        );
        // Appending (which touches the conversation) keeps the title's row as it is.
        store
            .append_messages(
                "a",
                None,
                &[json!({"role": "user", "content": "假期去海边"})],
            )
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(found(&store, "假期").len(), 2);
        assert_eq!(store.delete_conversation("a").ok(), Some(true));
        for query in ["假期", "plan the", "海边"] {
            assert_eq!(found(&store, query), [], "{query}");
        }
        let conn = store.conn().unwrap_or_else(|e| panic!("{e}"));
        let rows: i64 = conn
            .query_row("SELECT count(*) FROM conversation_search_rows", [], |r| {
                r.get(0)
            })
            .unwrap_or(-1);
        assert_eq!(rows, 0, "no rows are left behind");
    }

    #[test]
    fn pages_count_every_hit() {
        let store = store();
        for i in 0..5 {
            let messages: Vec<Value> = (0..3)
                .map(|j| json!({"role": "user", "content": format!("coffee number {i}.{j}")}))
                .collect();
            conversation(&store, &format!("c{i}"), "chat", &messages);
        }
        let (total, first) = store
            .search_conversations("coffee", 4, 0)
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!((total, first.len()), (15, 4));
        let (total, last) = store
            .search_conversations("COFFEE", 4, 12)
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!((total, last.len()), (15, 3));
        let (total, past) = store
            .search_conversations("coffee", 4, 100)
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!((total, past.len()), (15, 0));
        // The most recently used conversation first, its latest entry first.
        assert_eq!(
            (first[0].conversation_id.as_str(), first[0].seq),
            ("c4", Some(15))
        );
        // Two-character words are counted the same way.
        assert_eq!(
            store.search_conversations("4.", 4, 0).map(|p| p.0).ok(),
            Some(3)
        );
    }

    #[test]
    fn hostile_queries_are_just_text() {
        let store = store();
        conversation(
            &store,
            "c",
            "t",
            &[
                json!({"role": "user", "content": "100% sure: a_b \"quoted\" NEAR(x y) -minus * \\ end"}),
            ],
        );
        for query in [
            "\"",
            "\"quoted\"",
            "NEAR(x",
            "-minus",
            "sure:",
            "*",
            "%",
            "_",
            "a_b",
            "\\",
            "100%",
            "OR",
            "body:end",
        ] {
            let hits = found(&store, query);
            let expected = usize::from(!["OR", "body:end"].contains(&query));
            assert_eq!(hits.len(), expected, "{query:?}: {hits:?}");
        }
        // `%` and `_` are characters, not wildcards.
        assert_eq!(found(&store, "0_"), []);
        assert_eq!(found(&store, "a%"), []);
        for query in ["", "   ", "AND", "\u{0}", &"喝".repeat(10_000)] {
            assert!(
                store.search_conversations(query, 10, 0).is_ok(),
                "{query:?}"
            );
        }
    }

    #[test]
    fn snippets_are_cut_around_the_word_between_characters() {
        let long = format!(
            "{}喝水{}",
            "很长的句子。".repeat(40),
            "然后休息。".repeat(40)
        );
        let cut = snippet(&long, &["喝水".to_string()]);
        assert!(cut.chars().count() <= SNIPPET_CHARS, "{cut}");
        assert!(cut.starts_with('…') && cut.ends_with('…'), "{cut}");
        assert!(cut.contains("喝水"), "{cut}");
        let spaced = snippet("line one\n\n   line  TWO", &["two".to_string()]);
        assert_eq!(spaced, "line one line TWO");
        let tail = snippet(&format!("{}end word", "x".repeat(300)), &["word".into()]);
        assert!(tail.ends_with("end word") && tail.chars().count() <= SNIPPET_CHARS);
        assert_eq!(snippet("", &["x".into()]), "");
        assert_eq!(snippet("abc", &[]), "abc");
    }

    #[test]
    fn existing_conversations_are_indexed_by_the_migration() {
        let mut conn = rusqlite::Connection::open_in_memory().unwrap_or_else(|e| panic!("{e}"));
        crate::migrations()
            .to_version(&mut conn, 8)
            .unwrap_or_else(|e| panic!("{e}"));
        conn.execute_batch(
            "INSERT INTO conversations VALUES ('old', 'Old talk', NULL, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z');
             INSERT INTO conversation_messages (conversation_id, message, at) VALUES
               ('old', '{\"role\":\"user\",\"content\":\"请提醒我喝水\"}', '2026-01-01T00:00:00.000Z');",
        )
        .unwrap_or_else(|e| panic!("{e}"));
        crate::migrations()
            .to_latest(&mut conn)
            .unwrap_or_else(|e| panic!("{e}"));
        let store = Store::from_connection(conn).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            found(&store, "喝水"),
            [("old".into(), Some(1), HitKind::User)]
        );
        assert_eq!(
            found(&store, "old talk"),
            [("old".into(), None, HitKind::Title)]
        );
    }
}
