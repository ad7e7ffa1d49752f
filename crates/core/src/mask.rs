//! Masking secrets before arguments are logged or audited.

use serde_json::{Map, Value};

/// What a masked secret looks like everywhere.
pub const MASK: &str = "••••";

/// Property names whose values are secrets, compared lower-cased as substrings.
const SECRET_WORDS: [&str; 8] = [
    "password",
    "passwd",
    "secret",
    "token",
    "api_key",
    "apikey",
    "authorization",
    "cookie",
];

/// Whether a property name holds a secret.
pub fn is_secret_name(name: &str) -> bool {
    let lower = name.to_lowercase().replace('-', "_");
    SECRET_WORDS.iter().any(|w| lower.contains(w))
}

/// A copy of `value` with the values of secret-named properties replaced by [`MASK`],
/// and `{secret:NAME}` references left as they are (they name, not hold, a secret).
pub fn mask_secrets(value: &Value) -> Value {
    match value {
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(k, v)| {
                    let masked = if is_secret_name(k) && !v.is_null() {
                        Value::String(MASK.into())
                    } else {
                        mask_secrets(v)
                    };
                    (k.clone(), masked)
                })
                .collect::<Map<String, Value>>(),
        ),
        Value::Array(items) => Value::Array(items.iter().map(mask_secrets).collect()),
        other => other.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn secrets_are_masked_at_any_depth() {
        let args = json!({"city": "Paris", "api_key": "sk-123", "headers": {"Authorization": "Bearer x"},
            "list": [{"X-Auth-Token": "t"}], "password": null});
        assert_eq!(
            mask_secrets(&args),
            json!({"city": "Paris", "api_key": MASK, "headers": {"Authorization": MASK},
                "list": [{"X-Auth-Token": MASK}], "password": null})
        );
    }
}
