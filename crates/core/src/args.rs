//! Guard step 2: arguments arrive as an object or as JSON text; trivially broken text is
//! repaired only when the repair is unambiguous.

use serde_json::{Map, Value};

use crate::result::{Repair, RepairRule, ToolError};

/// Turns what a caller sent into an argument object, reporting every repair made.
pub fn parse_arguments(raw: Value) -> Result<(Map<String, Value>, Vec<Repair>), ToolError> {
    let mut repairs = Vec::new();
    match raw {
        Value::Object(map) => Ok((map, repairs)),
        Value::Null => {
            repairs.push(repair(
                Value::Null,
                Value::Object(Map::new()),
                RepairRule::EmptyArguments,
            ));
            Ok((Map::new(), repairs))
        }
        Value::String(text) => {
            let map = parse_text(&text, &mut repairs)?;
            Ok((map, repairs))
        }
        other => Err(ToolError::validation(format!(
            "arguments must be a JSON object, got {}",
            json_type(&other)
        ))
        .with_hint("send the arguments as one JSON object, e.g. {\"name\": value}")),
    }
}

fn parse_text(text: &str, repairs: &mut Vec<Repair>) -> Result<Map<String, Value>, ToolError> {
    let trimmed = text.trim();
    if trimmed.is_empty() || trimmed == "null" {
        repairs.push(repair(
            Value::String(text.into()),
            Value::Object(Map::new()),
            RepairRule::EmptyArguments,
        ));
        return Ok(Map::new());
    }
    let first_error = match serde_json::from_str::<Value>(trimmed) {
        Ok(value) => return object_from(value, text, repairs),
        Err(err) => err,
    };
    // The repairs below each fix one well-known way models break JSON. They are applied
    // in order and the text must parse afterwards; anything else stays an error.
    let mut fixed = trimmed.to_string();
    if let Some(inner) = strip_code_fence(&fixed) {
        fixed = inner;
        repairs.push(repair(
            Value::String(text.into()),
            Value::String(fixed.clone()),
            RepairRule::StripCodeFence,
        ));
    }
    if let Some(without) = remove_trailing_commas(&fixed) {
        repairs.push(repair(
            Value::String(fixed.clone()),
            Value::String(without.clone()),
            RepairRule::TrailingComma,
        ));
        fixed = without;
    }
    if let Some(closed) = close_brackets(&fixed) {
        repairs.push(repair(
            Value::String(fixed.clone()),
            Value::String(closed.clone()),
            RepairRule::CloseBrackets,
        ));
        fixed = closed;
    }
    match serde_json::from_str::<Value>(&fixed) {
        Ok(value) if !repairs.is_empty() => object_from(value, text, repairs),
        _ => Err(ToolError::validation(format!(
            "arguments are not valid JSON: {first_error}"
        ))
        .with_hint("send one JSON object with double-quoted keys and strings, e.g. {\"name\": \"value\"}")),
    }
}

fn object_from(
    value: Value,
    text: &str,
    repairs: &mut Vec<Repair>,
) -> Result<Map<String, Value>, ToolError> {
    match value {
        Value::Object(map) => Ok(map),
        // JSON text that encodes JSON text of an object: a double-encoded object.
        Value::String(inner) => match serde_json::from_str::<Value>(inner.trim()) {
            Ok(Value::Object(map)) => {
                repairs.push(repair(
                    Value::String(text.into()),
                    Value::Object(map.clone()),
                    RepairRule::ParseJsonString,
                ));
                Ok(map)
            }
            _ => Err(not_an_object("a string")),
        },
        Value::Null => {
            repairs.push(repair(
                Value::String(text.into()),
                Value::Object(Map::new()),
                RepairRule::EmptyArguments,
            ));
            Ok(Map::new())
        }
        other => Err(not_an_object(json_type(&other))),
    }
}

fn not_an_object(got: &str) -> ToolError {
    ToolError::validation(format!("arguments must be a JSON object, got {got}"))
        .with_hint("send the arguments as one JSON object, e.g. {\"name\": value}")
}

fn repair(from: Value, to: Value, rule: RepairRule) -> Repair {
    Repair {
        path: String::new(),
        from,
        to,
        rule,
    }
}

/// The name of a JSON value's type, as used in error messages.
pub fn json_type(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(n) if n.is_i64() || n.is_u64() => "integer",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// ```` ```json\n{…}\n``` ```` → `{…}`.
fn strip_code_fence(text: &str) -> Option<String> {
    let rest = text.strip_prefix("```")?;
    let body_start = rest.find('\n')?;
    let lang = rest[..body_start].trim();
    if !lang.is_empty() && !lang.chars().all(|c| c.is_ascii_alphanumeric()) {
        return None;
    }
    let body = rest[body_start + 1..].trim_end().strip_suffix("```")?;
    Some(body.trim().to_string())
}

/// Removes commas that directly precede `}` or `]` (outside strings).
fn remove_trailing_commas(text: &str) -> Option<String> {
    // Byte scan: every character that matters here is ASCII, and UTF-8 never uses ASCII
    // bytes inside a multi-byte character.
    let bytes = text.as_bytes();
    let mut drop = Vec::new();
    let mut in_string = false;
    let mut escaped = false;
    for (i, &b) in bytes.iter().enumerate() {
        if in_string {
            if escaped {
                escaped = false;
            } else if b == b'\\' {
                escaped = true;
            } else if b == b'"' {
                in_string = false;
            }
        } else if b == b'"' {
            in_string = true;
        } else if b == b',' {
            let next = bytes[i + 1..].iter().find(|c| !c.is_ascii_whitespace());
            if matches!(next, Some(b'}' | b']')) {
                drop.push(i);
            }
        }
    }
    if drop.is_empty() {
        return None;
    }
    let mut out = String::with_capacity(text.len());
    let mut from = 0;
    for i in drop {
        out.push_str(&text[from..i]);
        from = i + 1;
    }
    out.push_str(&text[from..]);
    Some(out)
}

/// Appends the closing brackets a truncated object lacks, when the text ends outside a
/// string and after a complete value (so nothing has to be guessed).
fn close_brackets(text: &str) -> Option<String> {
    let mut stack = Vec::new();
    let mut in_string = false;
    let mut escaped = false;
    for c in text.chars() {
        if in_string {
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == '"' {
                in_string = false;
            }
            continue;
        }
        match c {
            '"' => in_string = true,
            '{' => stack.push('}'),
            '[' => stack.push(']'),
            '}' | ']' if stack.pop() != Some(c) => return None,
            _ => {}
        }
    }
    let last = text.trim_end().chars().last()?;
    if in_string || stack.is_empty() || matches!(last, ',' | ':' | '{' | '[') {
        return None;
    }
    let mut closed = text.trim_end().to_string();
    closed.extend(stack.iter().rev());
    Some(closed)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn parse(raw: Value) -> Result<(Value, Vec<RepairRule>), ToolError> {
        parse_arguments(raw).map(|(map, repairs)| {
            (
                Value::Object(map),
                repairs.into_iter().map(|r| r.rule).collect(),
            )
        })
    }

    #[test]
    fn table() {
        use RepairRule::*;
        let cases: Vec<(Value, Value, Vec<RepairRule>)> = vec![
            (json!({"a": 1}), json!({"a": 1}), vec![]),
            (json!(r#"{"a": 1}"#), json!({"a": 1}), vec![]),
            (json!(null), json!({}), vec![EmptyArguments]),
            (json!("  "), json!({}), vec![EmptyArguments]),
            (json!("null"), json!({}), vec![EmptyArguments]),
            (
                json!("```json\n{\"a\": 1}\n```"),
                json!({"a": 1}),
                vec![StripCodeFence],
            ),
            (
                json!("{\"a\": [1, 2,], }"),
                json!({"a": [1, 2]}),
                vec![TrailingComma],
            ),
            (
                json!("{\"a\": {\"b\": 1"),
                json!({"a": {"b": 1}}),
                vec![CloseBrackets],
            ),
            (
                json!(r#""{\"a\": 1}""#),
                json!({"a": 1}),
                vec![ParseJsonString],
            ),
            (json!("{\"a\": \"x,}\"}"), json!({"a": "x,}"}), vec![]),
            (
                json!("{\"a\": \"中文,}\", \"b\": [1,\n],}"),
                json!({"a": "中文,}", "b": [1]}),
                vec![TrailingComma],
            ),
        ];
        for (raw, want, rules) in cases {
            let got = parse(raw.clone());
            assert_eq!(got.ok(), Some((want, rules)), "{raw}");
        }
    }

    #[test]
    fn ambiguous_or_wrong_text_is_a_validation_error() {
        for raw in [
            json!("{\"a\": "),
            json!("{\"a\": \"unterminated"),
            json!("{'a': 1}"),
            json!("[1, 2]"),
            json!("2 + 3"),
            json!(42),
            json!([{"a": 1}]),
            json!("{\"a\": 1}}"),
        ] {
            let err = parse(raw.clone()).err();
            assert_eq!(
                err.map(|e| e.error_type),
                Some(crate::ErrorType::Validation),
                "{raw}"
            );
        }
    }
}
