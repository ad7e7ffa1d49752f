//! Tool calls a model wrote into its text instead of `tool_calls`: bare JSON
//! (`{"name": …, "arguments": …}`), `<tool_call>…</tool_call>` tags, fenced code blocks,
//! and Mistral's `[TOOL_CALLS]` prefix. Only objects shaped like a call are taken; other
//! JSON in the text stays text.

use serde_json::{Map, Value};

use crate::wire::{FunctionCall, ToolCall};

/// How the calls were written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExtractionKind {
    /// `[TOOL_CALLS] [...]`.
    ToolCallsMarker,
    /// `<tool_call>{…}</tool_call>`.
    ToolCallTag,
    /// A fenced code block holding a call.
    CodeFence,
    /// A call object (or a list of them) in plain text.
    BareJson,
}

impl ExtractionKind {
    /// A short name for logs and repair records.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::ToolCallsMarker => "[TOOL_CALLS]",
            Self::ToolCallTag => "<tool_call>",
            Self::CodeFence => "code fence",
            Self::BareJson => "bare JSON",
        }
    }
}

/// Calls found in a message's text.
#[derive(Debug, Clone, PartialEq)]
pub struct Extracted {
    /// The calls, in the order written (ids left empty: the caller gives them, unique
    /// where it keeps them).
    pub calls: Vec<ToolCall>,
    /// The text with the calls cut out, trimmed.
    pub text: String,
    /// How they were written.
    pub kind: ExtractionKind,
    /// The exact text each call was taken from, in order.
    pub sources: Vec<String>,
}

/// Finds the tool calls written in `content`, if any.
pub fn extract_calls(content: &str) -> Option<Extracted> {
    if content.len() > 256 * 1024 {
        return None;
    }
    marker(content)
        .or_else(|| tags(content))
        .or_else(|| fences(content))
        .or_else(|| bare(content))
}

/// A JSON value that is a call or a list of calls, as calls.
fn as_calls(value: &Value) -> Option<Vec<(String, String)>> {
    match value {
        Value::Array(items) if !items.is_empty() => {
            let mut calls = Vec::new();
            for item in items {
                calls.extend(as_calls(item)?);
            }
            Some(calls)
        }
        Value::Object(map) => one_call(map),
        _ => None,
    }
}

fn one_call(map: &Map<String, Value>) -> Option<Vec<(String, String)>> {
    if let Some(function) = map.get("function").and_then(Value::as_object) {
        return one_call(function);
    }
    if let Some(calls) = map.get("tool_calls") {
        return as_calls(calls);
    }
    let name = map.get("name").and_then(Value::as_str)?;
    if name.is_empty() || name.len() > 128 {
        return None;
    }
    let arguments = map.get("arguments").or_else(|| map.get("parameters"))?;
    let text = match arguments {
        Value::String(text) => text.clone(),
        other => other.to_string(),
    };
    // Only a call's own keys: an object with more is data, not a call.
    let known = ["name", "arguments", "parameters", "id", "type"];
    if map.keys().any(|k| !known.contains(&k.as_str())) {
        return None;
    }
    Some(vec![(name.to_string(), text)])
}

/// The first JSON value at the start of `text` and how many bytes it took.
fn leading_value(text: &str) -> Option<(Value, usize)> {
    let trimmed = text.trim_start();
    let skipped = text.len() - trimmed.len();
    let mut stream = serde_json::Deserializer::from_str(trimmed).into_iter::<Value>();
    let value = stream.next()?.ok()?;
    Some((value, skipped + stream.byte_offset()))
}

/// A whole snippet as JSON, repairing what `parse_arguments` repairs (trailing commas,
/// missing closing brackets) — for snippets whose bounds are certain (tags, fences).
fn snippet_value(snippet: &str) -> Option<Value> {
    let trimmed = snippet.trim();
    if let Ok(value) = serde_json::from_str::<Value>(trimmed) {
        return Some(value);
    }
    if trimmed.starts_with('[') {
        return None;
    }
    deskmate_core::args::parse_arguments(Value::String(trimmed.to_string()))
        .ok()
        .map(|(map, _)| Value::Object(map))
}

/// Calls found so far, each with the exact text it was taken from (a snippet holding two
/// calls is the source of both).
#[derive(Default)]
struct Found {
    calls: Vec<(String, String)>,
    sources: Vec<String>,
    text: String,
}

impl Found {
    fn add(&mut self, calls: Vec<(String, String)>, source: &str) {
        self.sources
            .extend(std::iter::repeat_n(source.to_string(), calls.len()));
        self.calls.extend(calls);
    }

    fn build(self, kind: ExtractionKind) -> Option<Extracted> {
        if self.calls.is_empty() {
            return None;
        }
        let calls = self
            .calls
            .into_iter()
            .map(|(name, arguments)| ToolCall {
                id: String::new(),
                kind: "function".into(),
                function: FunctionCall { name, arguments },
            })
            .collect();
        Some(Extracted {
            calls,
            text: self.text.trim().to_string(),
            kind,
            sources: self.sources,
        })
    }
}

fn marker(content: &str) -> Option<Extracted> {
    let at = content.find("[TOOL_CALLS]")?;
    let after = &content[at + "[TOOL_CALLS]".len()..];
    let (value, used) = leading_value(after)?;
    let calls = as_calls(&value)?;
    let end = at + "[TOOL_CALLS]".len() + used;
    let mut found = Found {
        text: format!("{}{}", &content[..at], &content[end..]),
        ..Found::default()
    };
    found.add(calls, &content[at..end]);
    found.build(ExtractionKind::ToolCallsMarker)
}

/// Where a delimited snippet is in a text: its inside, and where the whole snippet ends
/// (both relative to the text given); `None` when no snippet starts there.
type Bounds = fn(&str) -> Option<(std::ops::Range<usize>, usize)>;

/// Snippets that start with `open` and whose bounds `bounds` finds: each whose inside is a
/// call is taken out of the text, any other stays text.
fn delimited(content: &str, open: &str, bounds: Bounds, kind: ExtractionKind) -> Option<Extracted> {
    let mut found = Found::default();
    let mut rest = content;
    while let Some(at) = rest.find(open) {
        let Some((inside, end)) = bounds(&rest[at..]) else {
            break;
        };
        found.text.push_str(&rest[..at]);
        let snippet = &rest[at..at + end];
        match snippet_value(&snippet[inside]).as_ref().and_then(as_calls) {
            Some(calls) => found.add(calls, snippet),
            None => found.text.push_str(snippet),
        }
        rest = &rest[at + end..];
    }
    found.text.push_str(rest);
    found.build(kind)
}

/// `<tool_call>…</tool_call>`; a tag generation left open runs to the end, and a fence
/// inside the tag is looked through.
fn tag_bounds(text: &str) -> Option<(std::ops::Range<usize>, usize)> {
    const OPEN: &str = "<tool_call>";
    const CLOSE: &str = "</tool_call>";
    let start = OPEN.len();
    let (mut inside, end) = match text[start..].find(CLOSE) {
        Some(close) => (start..start + close, start + close + CLOSE.len()),
        None => (start..text.len(), text.len()),
    };
    let trimmed = text[inside.clone()].trim();
    if let Some(body) = strip_fence(trimmed) {
        let offset = body.as_ptr() as usize - text.as_ptr() as usize;
        inside = offset..offset + body.len();
    }
    Some((inside, end))
}

/// A fenced code block: its first line names the language, its body runs to the next fence.
fn fence_bounds(text: &str) -> Option<(std::ops::Range<usize>, usize)> {
    let newline = text[3..].find('\n')?;
    let body_start = 3 + newline + 1;
    let close = text[body_start..].find("```")?;
    Some((body_start..body_start + close, body_start + close + 3))
}

fn tags(content: &str) -> Option<Extracted> {
    delimited(
        content,
        "<tool_call>",
        tag_bounds,
        ExtractionKind::ToolCallTag,
    )
}

/// The inside of a code fence that spans the whole snippet.
fn strip_fence(snippet: &str) -> Option<&str> {
    let body = snippet.strip_prefix("```")?;
    let body = body.strip_suffix("```")?;
    let newline = body.find('\n')?;
    Some(&body[newline + 1..])
}

fn fences(content: &str) -> Option<Extracted> {
    delimited(content, "```", fence_bounds, ExtractionKind::CodeFence)
}

fn bare(content: &str) -> Option<Extracted> {
    let mut found = Found::default();
    let mut copied = 0;
    let mut at = 0;
    let mut attempts = 0;
    while let Some(offset) = content[at..].find(['{', '[']) {
        let start = at + offset;
        attempts += 1;
        if attempts > 64 {
            break;
        }
        match leading_value(&content[start..]) {
            Some((value, used)) => {
                if let Some(calls) = as_calls(&value) {
                    found.text.push_str(&content[copied..start]);
                    found.add(calls, &content[start..start + used]);
                    copied = start + used;
                    at = copied;
                } else {
                    // Some other JSON: skip it whole.
                    at = start + used.max(1);
                }
            }
            None => at = start + 1,
        }
    }
    found.text.push_str(&content[copied..]);
    found.build(ExtractionKind::BareJson)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Calls as (name, arguments).
    type Calls = Vec<(String, String)>;

    fn names_args(content: &str) -> Option<(Calls, String, ExtractionKind)> {
        extract_calls(content).map(|e| {
            (
                e.calls
                    .into_iter()
                    .map(|c| (c.function.name, c.function.arguments))
                    .collect(),
                e.text,
                e.kind,
            )
        })
    }

    fn call(name: &str, args: &str) -> (String, String) {
        (name.into(), args.into())
    }

    #[test]
    fn every_written_form_is_extracted() {
        use ExtractionKind::*;
        let cases: Vec<(&str, Calls, &str, ExtractionKind)> = vec![
            (
                r#"{"name": "increase_volume", "arguments": {"step": 20}}"#,
                vec![call("increase_volume", r#"{"step":20}"#)],
                "",
                BareJson,
            ),
            (
                "Sure.\n{\"name\": \"a\", \"arguments\": {}}\n{\"name\": \"b\", \"parameters\": {\"x\": 1}}",
                vec![call("a", "{}"), call("b", r#"{"x":1}"#)],
                "Sure.",
                BareJson,
            ),
            (
                r#"[{"name": "a", "arguments": "{\"q\": 1}"}]"#,
                vec![call("a", r#"{"q": 1}"#)],
                "",
                BareJson,
            ),
            (
                "<tool_call>\n{\"name\": \"current_time\", \"arguments\": {\"timezone\": \"Asia/Tokyo\"}}\n</tool_call>",
                vec![call("current_time", r#"{"timezone":"Asia/Tokyo"}"#)],
                "",
                ToolCallTag,
            ),
            (
                "<tool_call>{\"name\": \"a\", \"arguments\": {\"x\": 1,}}</tool_call> and <tool_call>{\"name\": \"b\", \"arguments\": {}",
                vec![call("a", r#"{"x":1}"#), call("b", "{}")],
                "and",
                ToolCallTag,
            ),
            (
                "Here:\n```json\n{\"name\": \"calculator\", \"arguments\": {\"expression\": \"2+2\"}}\n```\nDone.",
                vec![call("calculator", r#"{"expression":"2+2"}"#)],
                "Here:\n\nDone.",
                CodeFence,
            ),
            (
                "[TOOL_CALLS] [{\"name\": \"a\", \"arguments\": {\"k\": \"v\"}}]",
                vec![call("a", r#"{"k":"v"}"#)],
                "",
                ToolCallsMarker,
            ),
            (
                r#"{"function": {"name": "a", "arguments": "{}"}}"#,
                vec![call("a", "{}")],
                "",
                BareJson,
            ),
        ];
        for (content, calls, text, kind) in cases {
            assert_eq!(
                names_args(content),
                Some((calls, text.to_string(), kind)),
                "{content}"
            );
        }
    }

    #[test]
    fn json_that_is_not_a_call_stays_text() {
        for content in [
            "Hello!",
            r#"The result is {"mean": 2.5}."#,
            r#"{"name": "Alice", "age": 30}"#,
            r#"{"name": "x", "arguments": {}, "note": "data with more keys"}"#,
            "```python\nprint(1)\n```",
            "[1, 2, 3]",
            "{ broken",
        ] {
            assert_eq!(extract_calls(content), None, "{content}");
        }
    }

    /// Each call names the text it came from, so a repair record is right for every call
    /// of a snippet that holds several.
    #[test]
    fn every_call_has_its_own_source() {
        let list = r#"[{"name": "a", "arguments": {}}, {"name": "b", "arguments": {}}]"#;
        for content in [
            format!(
                "<tool_call>{list}</tool_call> then <tool_call>{{\"name\": \"c\", \"arguments\": {{}}}}</tool_call>"
            ),
            format!(
                "```json\n{list}\n```\nand ```json\n{{\"name\": \"c\", \"arguments\": {{}}}}\n```"
            ),
            format!("{list} and {{\"name\": \"c\", \"arguments\": {{}}}}"),
            format!("[TOOL_CALLS] {list}"),
        ] {
            let found = extract_calls(&content).unwrap_or_else(|| panic!("{content}"));
            assert_eq!(found.sources.len(), found.calls.len(), "{content}");
            assert!(found.sources[0].contains(r#""a""#) && found.sources[1].contains(r#""b""#));
            assert_eq!(found.sources[0], found.sources[1], "{content}");
            if let Some(third) = found.sources.get(2) {
                assert!(
                    third.contains(r#""c""#) && !third.contains(r#""a""#),
                    "{content}"
                );
            }
        }
    }
}
