//! A tool's arguments as a Rust type, and its parameter schema derived from that type: one
//! source for what the guard checks and what the tool reads, so the two cannot drift.
//!
//! A built-in tool declares a struct that derives `Deserialize` and [`JsonSchema`], with
//! its limits, defaults and descriptions as attributes (`#[schemars(range(...),
//! length(...), description = ..., extend("x-description-zh" = ...))]`, `#[serde(default =
//! ...)]`); its spec's `parameters` is [`schema_for`] that struct, and its `run` reads the
//! arguments the guard let through with [`read_args`].
//!
//! ```
//! use deskmate_core::{JsonSchema, read_args, schema_for};
//! use serde::Deserialize;
//! use serde_json::json;
//!
//! fn ten() -> u32 { 10 }
//!
//! #[derive(Deserialize, JsonSchema)]
//! #[serde(deny_unknown_fields)]
//! struct Step {
//!     #[serde(default = "ten")]
//!     #[schemars(range(min = 1, max = 50), description = "Points, 1-50.")]
//!     step: u32,
//! }
//!
//! let schema = schema_for::<Step>();
//! assert_eq!(schema, json!({"type": "object", "additionalProperties": false, "properties":
//!     {"step": {"type": "integer", "minimum": 1, "maximum": 50, "default": 10,
//!               "description": "Points, 1-50."}}}));
//! let args: Step = read_args("volume", &json!({})).unwrap();
//! assert_eq!(args.step, 10);
//! ```

pub use schemars::JsonSchema;
use schemars::generate::SchemaSettings;
use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::ToolError;

/// The arguments of a tool that takes none: `{}` and nothing else.
#[derive(Debug, Clone, Copy, Default, serde::Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(extend("properties" = {}))]
pub struct NoArguments {}

/// The parameter schema of `T` as a tool's spec carries it: JSON Schema 2020-12 with every
/// subschema inline, and without what the derivation adds that a tool contract does not
/// say: no `$schema`, no `title` (the type's Rust name), no description of the whole
/// (the type's doc comment; the tool's description is in its spec), no `format` (Rust's integer and
/// float widths; ranges are declared explicitly), no `"additionalProperties": true`, and
/// no `"default": null` (an `Option` field marked `#[serde(default)]`, which a field
/// whose schema comes from `schema_with` needs to be optional), and
/// an `Option` field is optional rather than nullable (the normalizer drops a `null`
/// optional, so `null` is never a value a tool receives).
pub fn schema_for<T: JsonSchema>() -> Value {
    let mut settings = SchemaSettings::draft2020_12();
    settings.meta_schema = None;
    settings.inline_subschemas = true;
    let schema = settings.into_generator().into_root_schema_for::<T>();
    let mut value = schema.to_value();
    clean(&mut value);
    // The type's doc comment is for the code's readers: the tool's description is its spec's.
    if let Some(object) = value.as_object_mut() {
        object.remove("description");
    }
    value
}

/// Removes from a schema (and each of its subschemas) what [`schema_for`] says it leaves
/// out. Property maps are walked as maps of schemas, so a property named `title` stays.
fn clean(schema: &mut Value) {
    let Some(object) = schema.as_object_mut() else {
        return;
    };
    for keyword in ["$schema", "title", "format"] {
        object.remove(keyword);
    }
    if object.get("additionalProperties") == Some(&Value::Bool(true)) {
        object.remove("additionalProperties");
    }
    // `#[serde(default)]` on an `Option` field: its default says nothing.
    if object.get("default") == Some(&Value::Null) {
        object.remove("default");
    }
    if let Some(Value::Array(types)) = object.get_mut("type") {
        types.retain(|t| t != "null");
        if types.len() == 1 {
            let only = types.remove(0);
            object.insert("type".into(), only);
        }
    }
    if let Some(Value::Array(values)) = object.get_mut("enum") {
        values.retain(|v| !v.is_null());
    }
    if let Some(Value::Object(properties)) = object.get_mut("properties") {
        properties.values_mut().for_each(clean);
    }
    for keyword in ["items", "additionalProperties", "not"] {
        if let Some(sub) = object.get_mut(keyword) {
            clean(sub);
        }
    }
    for keyword in ["oneOf", "anyOf", "allOf", "prefixItems"] {
        if let Some(Value::Array(subs)) = object.get_mut(keyword) {
            subs.iter_mut().for_each(clean);
        }
    }
}

/// Reads arguments the guard accepted into the tool's argument type. The type is where
/// the schema comes from, so this fails only on a defect (a schema changed by hand after
/// it was derived): an internal error naming the tool and what did not fit.
///
/// A whole number written with a fraction (`20.0`, as Python's `json.dumps(20.0)` and some
/// models write it) is an integer to JSON Schema, so the guard lets it through an
/// `integer` parameter; it is read as that integer (a `f64` field takes it all the same).
pub fn read_args<T: DeserializeOwned>(tool: &str, args: &Value) -> Result<T, ToolError> {
    let mut args = args.clone();
    whole_numbers_as_integers(&mut args);
    T::deserialize(&args).map_err(|e| {
        ToolError::internal(format!(
            "the arguments passed {tool}'s schema but not its argument type: {e}"
        ))
    })
}

/// Every number with no fraction (and within the range of an `i64`) becomes an integer.
fn whole_numbers_as_integers(value: &mut Value) {
    match value {
        Value::Number(number) if !number.is_i64() && !number.is_u64() => {
            if let Some(float) = number.as_f64()
                && float.fract() == 0.0
                && float.abs() < 9.0e15
            {
                // Exact: |float| < 2^53, and it has no fraction.
                *value = Value::from(float as i64);
            }
        }
        Value::Array(items) => items.iter_mut().for_each(whole_numbers_as_integers),
        Value::Object(map) => map.values_mut().for_each(whole_numbers_as_integers),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use serde::Deserialize;
    use serde_json::json;

    use super::*;

    #[derive(Debug, Deserialize, JsonSchema, PartialEq)]
    #[serde(rename_all = "lowercase")]
    enum Urgency {
        Low,
        Critical,
    }

    #[derive(Debug, Deserialize, JsonSchema)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Notice {
        #[schemars(length(min = 1, max = 100), extend("x-description-zh" = "标题"))]
        title: String,
        urgency: Option<Urgency>,
        #[schemars(inner(length(min = 1)), extend("uniqueItems" = true))]
        tags: Option<Vec<String>>,
        count: Option<u32>,
    }

    #[test]
    fn options_are_optional_not_nullable_and_rust_names_stay_out() {
        assert_eq!(
            schema_for::<Notice>(),
            json!({
                "type": "object",
                "additionalProperties": false,
                "required": ["title"],
                "properties": {
                    "title": {"type": "string", "minLength": 1, "maxLength": 100,
                              "x-description-zh": "标题"},
                    "urgency": {"type": "string", "enum": ["low", "critical"]},
                    "tags": {"type": "array", "items": {"type": "string", "minLength": 1},
                             "uniqueItems": true},
                    "count": {"type": "integer", "minimum": 0}
                }
            })
        );
    }

    #[test]
    fn a_whole_number_written_with_a_fraction_is_read_as_an_integer() {
        let read: Option<Notice> = read_args("notice", &json!({"title": "t", "count": 20.0})).ok();
        assert_eq!(read.and_then(|n| n.count), Some(20));
        // A real fraction in an integer field stays a defect of the caller's check.
        assert!(read_args::<Notice>("notice", &json!({"title": "t", "count": 2.5})).is_err());
    }

    #[test]
    fn no_arguments_is_an_empty_closed_object() {
        assert_eq!(
            schema_for::<NoArguments>(),
            json!({"type": "object", "additionalProperties": false, "properties": {}})
        );
        assert!(read_args::<NoArguments>("t", &json!({"x": 1})).is_err());
    }

    #[test]
    fn arguments_that_do_not_fit_the_type_are_an_internal_error_naming_the_tool() {
        let error = read_args::<Notice>("notice", &json!({"title": 3}))
            .err()
            .map(|e| (e.error_type, e.message.contains("notice")));
        assert_eq!(error, Some((crate::ErrorType::Internal, true)));
        let read: Option<Notice> =
            read_args("notice", &json!({"title": "t", "urgency": "low"})).ok();
        assert_eq!(read.and_then(|n| n.urgency), Some(Urgency::Low));
    }
}
