//! A tool's own line about its result, in both languages: `said` in the result's data
//! (`{"zh": …, "en": …}`), what the chat's card leads with and what a reply made of the
//! results says ("17% of 2,340 = 397.8").
//!
//! The tool writes it because it knows its result best: a volume that did not move, a
//! camera that was already off, a table too large to write out. The chat reads it from
//! any tool — built-in, HTTP or MCP — and gives a tool that says nothing a generic line;
//! the chat's model does not read it (it reads the data the line was made from).

use deskmate_core::Localized;
use serde_json::{Value, json};

/// The key of a result's data that holds the tool's own line.
pub const KEY: &str = "said";

/// `data` (an object) with the tool's line.
pub fn with_line(data: Value, line: Localized) -> Value {
    with(data, json!(line))
}

/// `data` (an object) with the tool's line and whether the line holds all of the
/// result (`whole`): a small table written out does, a large one only counted does not.
pub fn with_partial_line(data: Value, line: Localized, whole: bool) -> Value {
    with(data, json!({"zh": line.zh, "en": line.en, "whole": whole}))
}

fn with(mut data: Value, said: Value) -> Value {
    if let Some(map) = data.as_object_mut() {
        map.insert(KEY.into(), said);
    }
    data
}

/// The line a result's `data` carries, in Chinese when `zh`; `None` when the tool said
/// none.
pub fn line(data: &Value, zh: bool) -> Option<&str> {
    data.get(KEY)?.get(if zh { "zh" } else { "en" })?.as_str()
}

/// Whether the line `data` carries holds all of the result; `None` when the tool does
/// not say.
pub fn whole(data: &Value) -> Option<bool> {
    data.get(KEY)?.get("whole")?.as_bool()
}

/// A scalar as a line writes it (a string as it is, a number or a boolean as JSON writes
/// it); `None` for anything else.
pub fn text(value: &Value) -> Option<String> {
    match value {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

/// The scalar at `key` of `data` as text.
pub fn field(data: &Value, key: &str) -> Option<String> {
    data.get(key).and_then(text)
}

/// `text` cut to `chars` characters, with `…` when it was cut.
pub fn clip(text: &str, chars: usize) -> String {
    if text.chars().count() <= chars {
        return text.to_string();
    }
    let mut out: String = text.chars().take(chars).collect();
    out.push('…');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_is_read_back_in_either_language_with_its_wholeness() {
        let data = with_line(json!({"n": 1}), Localized::new("一", "one"));
        assert_eq!(line(&data, true), Some("一"));
        assert_eq!(line(&data, false), Some("one"));
        assert_eq!(whole(&data), None);
        let data = with_partial_line(json!({}), Localized::same("t"), false);
        assert_eq!(
            data,
            json!({"said": {"zh": "t", "en": "t", "whole": false}})
        );
        assert_eq!(whole(&data), Some(false));
        // Data that is no object has no room for a line, and is left as it is.
        assert_eq!(with_line(json!(3), Localized::same("3")), json!(3));
        assert_eq!(line(&json!({"said": "x"}), false), None);
    }

    #[test]
    fn long_text_is_clipped_on_characters() {
        assert_eq!(clip("abc", 3), "abc");
        assert_eq!(clip("数据集很大", 2), "数据…");
        assert_eq!(text(&json!(2.5)), Some("2.5".into()));
        assert_eq!(text(&json!([1])), None);
    }
}
