//! How the dataset tools say their results in a line ([`crate::said`]). A small table
//! reads in one line with its values ("adsl: SEX (of 254): F 143 (56.3%), M 111 (43.7%)"),
//! and the line then holds the whole result; a large one is only counted, and the card's
//! table is where it is read. Each tool's file writes its own line with these pieces.

use deskmate_core::Localized;
use serde_json::Value;

/// A tool's line for its answer in one language (Chinese when `zh`), and whether it
/// holds the whole result; `None` when the answer lacks what the line needs.
pub(super) type Line = fn(&Value, bool) -> Option<(String, bool)>;

/// `data` with the line `line` writes of it, in both languages.
pub(super) fn with_line(data: Value, line: Line) -> Value {
    match (line(&data, true), line(&data, false)) {
        (Some((zh, _)), Some((en, whole))) => {
            crate::said::with_partial_line(data, Localized::new(zh, en), whole)
        }
        _ => data,
    }
}

/// The answer's table rows.
pub(super) fn rows(data: &Value) -> &[Value] {
    data.get("rows")
        .and_then(Value::as_array)
        .map_or(&[], Vec::as_slice)
}

/// Joins the parts of a line: "，" and "；" in Chinese, ", " and "; " otherwise.
pub(super) fn join(parts: &[String], zh: bool, strong: bool) -> String {
    let separator = match (zh, strong) {
        (true, true) => "；",
        (true, false) => "，",
        (false, true) => "; ",
        (false, false) => ", ",
    };
    parts.join(separator)
}

/// "head: body" ("head：body" in Chinese).
pub(super) fn colon(head: String, body: &str, zh: bool) -> String {
    if zh {
        format!("{head}：{body}")
    } else {
        format!("{head}: {body}")
    }
}

/// The line of a table too large to write out: how many rows it has.
pub(super) fn counted(head: String, rows: usize, zh: bool) -> (String, bool) {
    let line = if zh {
        format!("{head}，{rows} 行")
    } else {
        format!("{head}, {rows} rows")
    };
    (line, false)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn line(data: &Value, zh: bool) -> Option<(String, bool)> {
        let n = crate::said::field(data, "n")?;
        Some((
            colon(if zh { "数".into() } else { "n".into() }, &n, zh),
            n == "1",
        ))
    }

    #[test]
    fn a_line_is_said_in_both_languages_with_its_wholeness() {
        let data = with_line(json!({"n": 1}), line);
        assert_eq!(
            data["said"],
            json!({"zh": "数：1", "en": "n: 1", "whole": true})
        );
        assert_eq!(with_line(json!({"n": 2}), line)["said"]["whole"], false);
        // An answer that lacks what the line needs says nothing.
        assert_eq!(with_line(json!({"m": 1}), line), json!({"m": 1}));
        assert_eq!(counted("t".into(), 40, false), ("t, 40 rows".into(), false));
    }
}
