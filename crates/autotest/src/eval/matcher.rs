//! How a value given matches an acceptable value: strings as BFCL compares them
//! (lower-cased, without spaces and `,./-_*^`), numbers numerically, lists and objects
//! item by item, and the matchers a case may write instead of a value.

use serde_json::Value;

/// A string as BFCL compares it.
pub fn normalize_string(text: &str) -> String {
    text.chars()
        .filter(|c| !matches!(c, ' ' | ',' | '.' | '/' | '-' | '_' | '*' | '^'))
        .flat_map(char::to_lowercase)
        .collect()
}

/// A matcher written where an acceptable value goes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Matcher<'a> {
    /// A string that holds this text (both normalized as strings compare).
    Contains(&'a str),
    /// Any value.
    Any,
}

impl<'a> Matcher<'a> {
    /// The matcher an acceptable value is, if it is one: `Ok(None)` for a plain value,
    /// an error for an object that looks like a matcher (a `$` key) but is not one.
    pub fn of(value: &'a Value) -> Result<Option<Self>, String> {
        let Some(object) = value.as_object() else {
            return Ok(None);
        };
        if !object.keys().any(|k| k.starts_with('$')) {
            return Ok(None);
        }
        match (object.len(), object.iter().next()) {
            (1, Some((key, Value::String(text)))) if key == "$contains" => {
                if normalize_string(text).is_empty() {
                    Err("$contains needs some text".into())
                } else {
                    Ok(Some(Self::Contains(text)))
                }
            }
            (1, Some((key, Value::Bool(true)))) if key == "$any" => Ok(Some(Self::Any)),
            _ => Err(format!(
                "{value} is not a matcher: write {{\"$contains\": \"text\"}} or {{\"$any\": true}}"
            )),
        }
    }
}

/// Checks every matcher inside an acceptable value (in lists and objects too).
pub fn check_matchers(value: &Value) -> Result<(), String> {
    if Matcher::of(value)?.is_some() {
        return Ok(());
    }
    match value {
        Value::Array(items) => items.iter().try_for_each(check_matchers),
        Value::Object(fields) => fields.values().try_for_each(check_matchers),
        _ => Ok(()),
    }
}

/// Whether a value given matches an acceptable value.
pub fn values_match(expected: &Value, got: &Value) -> bool {
    match Matcher::of(expected) {
        Ok(Some(Matcher::Any)) => return true,
        Ok(Some(Matcher::Contains(text))) => {
            return got
                .as_str()
                .is_some_and(|g| normalize_string(g).contains(&normalize_string(text)));
        }
        Ok(None) | Err(_) => {}
    }
    match (expected, got) {
        (Value::String(e), Value::String(g)) => normalize_string(e) == normalize_string(g),
        (Value::Number(e), Value::Number(g)) => match (e.as_f64(), g.as_f64()) {
            (Some(e), Some(g)) => (e - g).abs() <= 1e-9 * e.abs().max(1.0),
            _ => false,
        },
        (Value::Array(e), Value::Array(g)) => {
            e.len() == g.len() && e.iter().zip(g).all(|(e, g)| values_match(e, g))
        }
        (Value::Object(e), Value::Object(g)) => {
            e.len() == g.len()
                && e.iter()
                    .all(|(k, e)| g.get(k).is_some_and(|g| values_match(e, g)))
        }
        (e, g) => e == g,
    }
}
