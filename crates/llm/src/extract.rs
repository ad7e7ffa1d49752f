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

fn build(
    found: Vec<(String, String)>,
    sources: Vec<String>,
    text: String,
    kind: ExtractionKind,
) -> Option<Extracted> {
    if found.is_empty() {
        return None;
    }
    let calls = found
        .into_iter()
        .map(|(name, arguments)| ToolCall {
            id: String::new(),
            kind: "function".into(),
            function: FunctionCall { name, arguments },
        })
        .collect();
    Some(Extracted {
        calls,
        text: text.trim().to_string(),
        kind,
        sources,
    })
}

fn marker(content: &str) -> Option<Extracted> {
    let at = content.find("[TOOL_CALLS]")?;
    let after = &content[at + "[TOOL_CALLS]".len()..];
    let (value, used) = leading_value(after)?;
    let calls = as_calls(&value)?;
    let end = at + "[TOOL_CALLS]".len() + used;
    let text = format!("{}{}", &content[..at], &content[end..]);
    build(
        calls,
        vec![content[at..end].to_string()],
        text,
        ExtractionKind::ToolCallsMarker,
    )
}

fn tags(content: &str) -> Option<Extracted> {
    const OPEN: &str = "<tool_call>";
    const CLOSE: &str = "</tool_call>";
    let mut found = Vec::new();
    let mut sources = Vec::new();
    let mut text = String::new();
    let mut rest = content;
    while let Some(open) = rest.find(OPEN) {
        text.push_str(&rest[..open]);
        let inner_start = open + OPEN.len();
        let (inner, end) = match rest[inner_start..].find(CLOSE) {
            Some(close) => (
                &rest[inner_start..inner_start + close],
                inner_start + close + CLOSE.len(),
            ),
            // Generation stopped before the closing tag: the rest is the call.
            None => (&rest[inner_start..], rest.len()),
        };
        let inner = strip_fence(inner.trim()).unwrap_or(inner);
        match snippet_value(inner).as_ref().and_then(as_calls) {
            Some(calls) => {
                found.extend(calls);
                sources.push(rest[open..end].to_string());
            }
            None => text.push_str(&rest[open..end]),
        }
        rest = &rest[end..];
    }
    text.push_str(rest);
    build(found, sources, text, ExtractionKind::ToolCallTag)
}

/// The inside of a code fence that spans the whole snippet.
fn strip_fence(snippet: &str) -> Option<&str> {
    let body = snippet.strip_prefix("```")?;
    let body = body.strip_suffix("```")?;
    let newline = body.find('\n')?;
    Some(&body[newline + 1..])
}

fn fences(content: &str) -> Option<Extracted> {
    let mut found = Vec::new();
    let mut sources = Vec::new();
    let mut text = String::new();
    let mut rest = content;
    while let Some(open) = rest.find("```") {
        let after = &rest[open + 3..];
        let Some(newline) = after.find('\n') else {
            break;
        };
        let body_start = open + 3 + newline + 1;
        let Some(close) = rest[body_start..].find("```") else {
            break;
        };
        let end = body_start + close + 3;
        text.push_str(&rest[..open]);
        match snippet_value(&rest[body_start..body_start + close])
            .as_ref()
            .and_then(as_calls)
        {
            Some(calls) => {
                found.extend(calls);
                sources.push(rest[open..end].to_string());
            }
            None => text.push_str(&rest[open..end]),
        }
        rest = &rest[end..];
    }
    text.push_str(rest);
    build(found, sources, text, ExtractionKind::CodeFence)
}

fn bare(content: &str) -> Option<Extracted> {
    let mut found = Vec::new();
    let mut sources = Vec::new();
    let mut text = String::new();
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
                    found.extend(calls);
                    text.push_str(&content[copied..start]);
                    sources.push(content[start..start + used].to_string());
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
    text.push_str(&content[copied..]);
    build(found, sources, text, ExtractionKind::BareJson)
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
}
