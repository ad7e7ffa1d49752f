//! Request bodies as the service takes them: typed structs (the same types the API
//! document is generated from), read from JSON in two steps so that a client learns about
//! every wrong field at once:
//!
//! 1. the body's own checks ([`Body::check`]) look at the JSON field by field and report
//!    each wrong one with its JSON pointer, what is wrong and how to fix it;
//! 2. a body that passes is read into its type with serde. A field serde still refuses
//!    (a check that let something through) is reported the same way, with its path.
//!
//! The service's methods take the typed bodies; the API's `ApiBody` extractor runs
//! [`Body::read`] and answers 422 with the errors.

use deskmate_core::normalize::escape_pointer;
use serde::de::DeserializeOwned;
use serde_json::Value;
use utoipa::PartialSchema;
use utoipa::openapi::RefOr;
use utoipa::openapi::schema::Schema;

use crate::error::FieldError;

/// A request body: checked field by field, then read into `Self`.
pub trait Body: DeserializeOwned {
    /// Every problem of `body`, each with its path and a hint (empty: none).
    fn check(body: &Value) -> Vec<FieldError>;

    /// Checks `body` and reads it.
    fn read(body: &Value) -> Result<Self, Vec<FieldError>> {
        let errors = Self::check(body);
        if !errors.is_empty() {
            return Err(errors);
        }
        typed(body)
    }
}

/// Reads `body` into `T`; the first field serde refuses is the error, with its path.
pub fn typed<T: DeserializeOwned>(body: &Value) -> Result<T, Vec<FieldError>> {
    serde_path_to_error::deserialize(body).map_err(|e| {
        vec![FieldError {
            path: pointer(e.path()),
            message: e.inner().to_string(),
            hint: "send the field as the API document declares it".into(),
        }]
    })
}

/// A serde path as a JSON pointer (`/hotwords/2`).
fn pointer(path: &serde_path_to_error::Path) -> String {
    use serde_path_to_error::Segment;
    path.iter()
        .filter_map(|segment| match segment {
            Segment::Seq { index } => Some(index.to_string()),
            Segment::Map { key } => Some(escape_pointer(key)),
            Segment::Enum { .. } | Segment::Unknown => None,
        })
        .map(|s| format!("/{s}"))
        .collect()
}

/// The properties `T`'s schema declares: the fields a body of that type may have.
pub fn declared_fields<T: PartialSchema>() -> Vec<String> {
    match T::schema() {
        RefOr::T(Schema::Object(object)) => object.properties.keys().cloned().collect(),
        _ => Vec::new(),
    }
}

/// The "unknown field" errors of `body`: every key outside `allowed`.
pub fn unknown_fields(
    body: &serde_json::Map<String, Value>,
    allowed: &[String],
) -> Vec<FieldError> {
    body.keys()
        .filter(|k| !allowed.iter().any(|a| a == *k))
        .map(|k| FieldError {
            path: format!("/{}", escape_pointer(k)),
            message: format!("unknown or read-only field '{k}'"),
            hint: format!("writable fields: {}", allowed.join(", ")),
        })
        .collect()
}

/// `Option<Option<T>>` for a field where `null` means something else than leaving it out
/// (`null` removes, left out keeps): use with `#[serde(default, deserialize_with =
/// "crate::body::present")]`.
pub fn present<'de, D, T>(deserializer: D) -> Result<Option<Option<T>>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: serde::Deserialize<'de>,
{
    serde::Deserialize::deserialize(deserializer).map(Some)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;
    use serde_json::json;

    #[derive(Debug, Deserialize)]
    struct Sample {
        #[serde(default, deserialize_with = "present")]
        key: Option<Option<String>>,
        #[serde(default)]
        words: Vec<String>,
    }

    #[test]
    fn a_refused_field_is_reported_at_its_path() {
        let errors = typed::<Sample>(&json!({"words": ["a", 2]}))
            .map(|s| s.words)
            .err()
            .unwrap_or_default();
        assert_eq!(errors.len(), 1, "{errors:?}");
        assert_eq!(errors[0].path, "/words/1");
        assert!(
            errors[0].message.contains("expected a string"),
            "{errors:?}"
        );
    }

    #[test]
    fn null_and_left_out_are_told_apart() {
        let read = |v| typed::<Sample>(&v).map(|s| s.key).ok();
        assert_eq!(read(json!({})), Some(None));
        assert_eq!(read(json!({"key": null})), Some(Some(None)));
        assert_eq!(read(json!({"key": "k"})), Some(Some(Some("k".into()))));
    }
}
