//! Guard step 4: validation with a compiled JSON Schema 2020-12 validator, every
//! violation reported with its JSON path, the expected type and the enum options.

use jsonschema::Validator;
use jsonschema::error::{TypeKind, ValidationErrorKind};
use serde::Serialize;
use serde_json::{Value, json};

use crate::args::json_type;
use crate::error::SpecError;
use crate::normalize::escape_pointer;
use crate::result::ToolError;

/// How many violations one error message lists in full (all are in `data`).
const MAX_LISTED: usize = 5;

/// One way the arguments break the schema.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Violation {
    /// JSON pointer into the arguments (`""` is the whole object).
    pub path: String,
    /// What is wrong, in one phrase.
    pub message: String,
    /// The JSON type expected at `path`, where the schema says.
    pub expected: Option<String>,
    /// Valid values at `path` (enum values, or property names for an unknown property).
    pub options: Vec<String>,
}

/// A parameter schema compiled once, with the schema kept for error messages.
#[derive(Debug)]
pub struct CompiledSchema {
    schema: Value,
    validator: Validator,
}

impl CompiledSchema {
    /// Checks `schema` against the 2020-12 meta-schema and compiles it.
    pub fn compile(tool: &str, schema: &Value) -> Result<Self, SpecError> {
        check_schema(schema).map_err(|reason| SpecError::InvalidSchema {
            tool: tool.to_string(),
            reason,
        })?;
        let validator = jsonschema::draft202012::options()
            .should_validate_formats(true)
            .build(schema)
            .map_err(|e| SpecError::InvalidSchema {
                tool: tool.to_string(),
                reason: e.to_string(),
            })?;
        Ok(Self {
            schema: schema.clone(),
            validator,
        })
    }

    /// The source schema.
    pub fn schema(&self) -> &Value {
        &self.schema
    }

    /// Every violation of `instance`, in the validator's order.
    pub fn violations(&self, instance: &Value) -> Vec<Violation> {
        if self.validator.is_valid(instance) {
            return Vec::new();
        }
        self.validator
            .iter_errors(instance)
            .map(|error| self.describe(&error))
            .collect()
    }

    /// Validates `instance`; on failure a `validation` error listing every violation,
    /// with the violations themselves attached for the result's `data`.
    pub fn validate(&self, instance: &Value) -> Result<(), (ToolError, Value)> {
        let violations = self.violations(instance);
        if violations.is_empty() {
            return Ok(());
        }
        Err(violations_error(&violations))
    }

    fn describe(&self, error: &jsonschema::ValidationError<'_>) -> Violation {
        let path = error.instance_path().as_str();
        let instance = error.instance();
        let here = schema_at(&self.schema, path);
        let expected = || here.and_then(declared_type);
        let one_of = matches!(
            error.kind(),
            ValidationErrorKind::OneOfNotValid { .. }
                | ValidationErrorKind::OneOfMultipleValid { .. }
        );
        if one_of && let Some(ways) = either_ways(here) {
            return Violation {
                path: path.to_string(),
                message: format!(
                    "give exactly one of these ways, not none and not two: {}",
                    ways.iter()
                        .map(|w| format!("({w})"))
                        .collect::<Vec<_>>()
                        .join(" or ")
                ),
                expected: Some("object".into()),
                options: ways,
            };
        }
        match error.kind() {
            ValidationErrorKind::Type { kind } => {
                let want = match kind {
                    TypeKind::Single(t) => t.to_string(),
                    TypeKind::Multiple(ts) => ts
                        .iter()
                        .map(|t| t.to_string())
                        .collect::<Vec<_>>()
                        .join(" or "),
                };
                Violation {
                    path: path.to_string(),
                    message: format!(
                        "expected {want}, got {} {}",
                        json_type(instance),
                        preview(instance)
                    ),
                    expected: Some(want),
                    options: enum_options(here),
                }
            }
            ValidationErrorKind::Required { property } => {
                let name = property.as_str().unwrap_or_default();
                let child = here
                    .and_then(|s| s.get("properties"))
                    .and_then(|p| p.get(name));
                Violation {
                    path: format!("{path}/{}", escape_pointer(name)),
                    message: format!("missing required property '{name}'"),
                    expected: child.and_then(declared_type),
                    options: enum_options(child),
                }
            }
            ValidationErrorKind::Enum { options } => Violation {
                path: path.to_string(),
                message: format!("{} is not one of the allowed values", preview(instance)),
                expected: expected(),
                options: options
                    .as_array()
                    .map(|o| o.iter().map(option_text).collect())
                    .unwrap_or_default(),
            },
            ValidationErrorKind::AdditionalProperties { unexpected } => Violation {
                path: path.to_string(),
                message: format!(
                    "unknown propert{} {}",
                    if unexpected.len() == 1 { "y" } else { "ies" },
                    unexpected
                        .iter()
                        .map(|u| format!("'{u}'"))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
                expected: Some("object".into()),
                options: here
                    .and_then(|s| s.get("properties"))
                    .and_then(Value::as_object)
                    .map(|p| p.keys().cloned().collect())
                    .unwrap_or_default(),
            },
            // A value out of its range or length, or not of its pattern or format (every
            // kind not read above): what the field means goes with it, so
            // the model reads what to give instead ("-10 is less than the minimum of 1"
            // beside "points to raise the volume by …; to lower it, call …").
            _ => Violation {
                path: path.to_string(),
                message: match here
                    .and_then(|s| s.get("description"))
                    .and_then(Value::as_str)
                {
                    Some(meaning) => format!("{error} ({meaning})"),
                    None => error.to_string(),
                },
                expected: expected(),
                options: enum_options(here),
            },
        }
    }
}

/// Checks a schema against the JSON Schema 2020-12 meta-schema and Deskmate's rules for
/// parameter schemas: type object at the root. (What a person writes is checked one problem
/// at a time by [`crate::schema_check::schema_problems`].)
pub fn check_schema(schema: &Value) -> Result<(), String> {
    jsonschema::draft202012::meta::validate(schema)
        .map_err(|e| format!("not a valid JSON Schema 2020-12: {e}"))?;
    if schema.get("type").and_then(Value::as_str) != Some("object") {
        return Err("a parameter schema must have \"type\": \"object\" at the root".into());
    }
    Ok(())
}

/// Builds the `validation` error for a list of violations, plus `data` holding them all.
pub fn violations_error(violations: &[Violation]) -> (ToolError, Value) {
    let listed: Vec<String> = violations
        .iter()
        .take(MAX_LISTED)
        .map(|v| {
            let path = if v.path.is_empty() {
                "arguments"
            } else {
                &v.path
            };
            let mut line = format!("{path}: {}", v.message);
            if !v.options.is_empty() && v.options.len() <= 20 {
                line.push_str(&format!(" (one of: {})", v.options.join(", ")));
            }
            line
        })
        .collect();
    let more = violations.len().saturating_sub(MAX_LISTED);
    let mut message = format!(
        "{} problem{} in the arguments: {}",
        violations.len(),
        if violations.len() == 1 { "" } else { "s" },
        listed.join("; ")
    );
    if more > 0 {
        message.push_str(&format!("; and {more} more"));
    }
    let options = violations
        .iter()
        .find(|v| !v.options.is_empty())
        .map(|v| v.options.clone())
        .unwrap_or_default();
    let error = ToolError::validation(message)
        .with_hint("fix the listed fields to match the parameter schema and call again; do not add properties the schema does not declare")
        .with_options(options);
    (error, json!({ "violations": violations }))
}

/// The sub-schema that governs the value at `pointer`, following `properties` and `items`.
fn schema_at<'a>(root: &'a Value, pointer: &str) -> Option<&'a Value> {
    let mut current = root;
    for raw in pointer.split('/').skip(1) {
        let segment = if raw.contains('~') {
            std::borrow::Cow::Owned(raw.replace("~1", "/").replace("~0", "~"))
        } else {
            std::borrow::Cow::Borrowed(raw)
        };
        current = match current
            .get("properties")
            .and_then(|p| p.get(segment.as_ref()))
        {
            Some(next) => next,
            None if segment.parse::<usize>().is_ok() => current.get("items")?,
            None => return None,
        };
    }
    Some(current)
}

/// The ways a `oneOf` of required-only branches allows ("value", "numerator and
/// denominator"); `None` for any other schema.
fn either_ways(schema: Option<&Value>) -> Option<Vec<String>> {
    let branches = schema?.get("oneOf")?.as_array()?;
    branches
        .iter()
        .map(|b| {
            let names: Vec<&str> = b
                .get("required")?
                .as_array()?
                .iter()
                .filter_map(Value::as_str)
                .collect();
            (!names.is_empty()).then(|| names.join(" and "))
        })
        .collect::<Option<Vec<String>>>()
        .filter(|ways| !ways.is_empty())
}

fn declared_type(schema: &Value) -> Option<String> {
    match schema.get("type")? {
        Value::String(t) => Some(t.clone()),
        Value::Array(ts) => Some(
            ts.iter()
                .filter_map(Value::as_str)
                .collect::<Vec<_>>()
                .join(" or "),
        ),
        _ => None,
    }
}

fn enum_options(schema: Option<&Value>) -> Vec<String> {
    let schema = match schema {
        Some(s) => s,
        None => return Vec::new(),
    };
    let options = schema
        .get("enum")
        .or_else(|| schema.get("items").and_then(|i| i.get("enum")));
    options
        .and_then(Value::as_array)
        .map(|o| o.iter().map(option_text).collect())
        .unwrap_or_default()
}

fn option_text(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

fn preview(value: &Value) -> String {
    let text = value.to_string();
    if text.chars().count() > 40 {
        format!("{}...", text.chars().take(37).collect::<String>())
    } else {
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A nested schema (book_flight).
    fn book_flight() -> CompiledSchema {
        let schema = json!({
            "type": "object",
            "properties": {
                "passenger": {"type": "object", "properties": {
                    "name": {"type": "string"},
                    "loyalty": {"type": "object", "properties": {
                        "tier": {"type": "string", "enum": ["silver", "gold", "platinum"]},
                        "points": {"type": "number"}
                    }}
                }},
                "legs": {"type": "array", "items": {"type": "object", "properties": {
                    "from": {"type": "string"}, "to": {"type": "string"}
                }}}
            }
        });
        CompiledSchema::compile("book_flight", &schema).unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn nested_violations_are_reported_at_their_paths() {
        let args = json!({"passenger": {"name": "John", "loyalty": "gold"}, "legs": "SFO-JFK"});
        let violations = book_flight().violations(&args);
        let mut found: Vec<(&str, Option<&str>)> = violations
            .iter()
            .map(|v| (v.path.as_str(), v.expected.as_deref()))
            .collect();
        found.sort();
        assert_eq!(
            found,
            [
                ("/legs", Some("array")),
                ("/passenger/loyalty", Some("object"))
            ]
        );
    }

    #[test]
    fn enum_violation_lists_options_and_required_names_the_child() {
        let v = book_flight().violations(&json!({"passenger": {"loyalty": {"tier": "diamond"}}}));
        assert_eq!(v.len(), 1);
        assert_eq!(v[0].path, "/passenger/loyalty/tier");
        assert_eq!(v[0].options, ["silver", "gold", "platinum"]);

        let schema = json!({"type": "object", "required": ["step"], "additionalProperties": false,
            "properties": {"step": {"type": "integer"}}});
        let compiled = CompiledSchema::compile("t", &schema).unwrap_or_else(|e| panic!("{e}"));
        let v = compiled.violations(&json!({"stpe": 3}));
        let paths: Vec<&str> = v.iter().map(|v| v.path.as_str()).collect();
        assert!(paths.contains(&"/step"), "{v:?}");
        let unknown = v
            .iter()
            .find(|v| v.message.contains("stpe"))
            .map(|v| v.options.clone());
        assert_eq!(unknown, Some(vec!["step".to_string()]));
        let required = v
            .iter()
            .find(|v| v.path == "/step")
            .and_then(|v| v.expected.clone());
        assert_eq!(required.as_deref(), Some("integer"));
    }

    #[test]
    fn a_value_out_of_range_is_reported_with_what_its_field_means() {
        let schema = json!({"type": "object", "additionalProperties": false,
            "properties": {
                "step": {"type": "integer", "minimum": 1,
                         "description": "Points to raise by; to lower, call decrease."},
                "bare": {"type": "integer", "minimum": 1}}});
        let compiled = CompiledSchema::compile("t", &schema).unwrap_or_else(|e| panic!("{e}"));
        let v = compiled.violations(&json!({"step": -10}));
        assert_eq!(v.len(), 1, "{v:?}");
        assert_eq!(
            v[0].message,
            "-10 is less than the minimum of 1 (Points to raise by; to lower, call decrease.)"
        );
        let v = compiled.violations(&json!({"bare": 0}));
        assert_eq!(v[0].message, "0 is less than the minimum of 1");
    }

    #[test]
    fn either_or_arguments_name_the_ways() {
        let schema = CompiledSchema::compile(
            "round",
            &json!({"type": "object", "additionalProperties": false,
                    "properties": {"value": {"type": "number"}, "numerator": {"type": "number"},
                                   "denominator": {"type": "number"}},
                    "oneOf": [{"required": ["value"]}, {"required": ["numerator", "denominator"]}]}),
        )
        .unwrap_or_else(|e| panic!("{e}"));
        assert!(schema.violations(&json!({"value": 1})).is_empty());
        assert!(
            schema
                .violations(&json!({"numerator": 1, "denominator": 2}))
                .is_empty()
        );
        for wrong in [
            json!({"value": 1, "numerator": 1, "denominator": 2}),
            json!({}),
        ] {
            let v = schema.violations(&wrong);
            assert_eq!(v.len(), 1, "{v:?}");
            assert_eq!(v[0].options, ["value", "numerator and denominator"]);
            assert!(
                v[0].message
                    .contains("(value) or (numerator and denominator)"),
                "{v:?}"
            );
        }
    }

    #[test]
    fn invalid_schemas_are_refused() {
        assert!(
            check_schema(&json!({"type": "object", "properties": {"a": {"type": "strnig"}}}))
                .is_err()
        );
        assert!(check_schema(&json!({"type": "array"})).is_err());
        assert!(check_schema(&json!({"type": "object", "properties": {}})).is_ok());
    }
}
