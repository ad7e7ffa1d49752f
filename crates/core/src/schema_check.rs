//! Checks a parameter schema someone wrote (an HTTP tool's, a built-in's): valid JSON
//! Schema 2020-12, an object at the root, and every `required` name a declared property.
//! One problem per place, with its JSON pointer and, where the place takes one of a set
//! (a misspelt `"type"`), the allowed values.

use jsonschema::ValidationError;
use jsonschema::error::ValidationErrorKind;
use serde_json::Value;

/// One thing wrong with a schema, at one place.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SchemaProblem {
    /// JSON pointer into the schema (`""` is the root).
    pub path: String,
    /// What is wrong, in one phrase.
    pub message: String,
    /// The values allowed at `path`, where the meta-schema lists them.
    pub allowed: Vec<String>,
}

/// Every problem of `schema`, one per place, in document order of discovery.
pub fn schema_problems(schema: &Value) -> Vec<SchemaProblem> {
    let mut problems: Vec<SchemaProblem> = Vec::new();
    let mut add = |problem: SchemaProblem| {
        match problems.iter_mut().find(|p| p.path == problem.path) {
            // A place already named keeps one message, the one listing allowed values.
            Some(known) if known.allowed.is_empty() && !problem.allowed.is_empty() => {
                *known = problem
            }
            Some(_) => {}
            None => problems.push(problem),
        }
    };
    for error in jsonschema::draft202012::meta::validator().iter_errors(schema) {
        let path = error.instance_path().as_str().to_string();
        let allowed = listed_values(&error);
        let message = if allowed.is_empty() {
            error.to_string()
        } else {
            format!("{} is not one of the allowed values", error.instance())
        };
        add(SchemaProblem {
            path,
            message,
            allowed,
        });
    }
    if schema.get("type").and_then(Value::as_str) != Some("object") {
        add(SchemaProblem {
            path: "/type".into(),
            message: "a parameter schema must have \"type\": \"object\" at the root".into(),
            allowed: vec!["\"object\"".into()],
        });
    }
    let declared = schema.get("properties").and_then(Value::as_object);
    if let Some(required) = schema.get("required").and_then(Value::as_array) {
        for (i, name) in required.iter().enumerate() {
            if let Some(name) = name.as_str()
                && !declared.is_some_and(|d| d.contains_key(name))
            {
                add(SchemaProblem {
                    path: format!("/required/{i}"),
                    message: format!("'{name}' is required but is not a property"),
                    allowed: declared
                        .map(|d| d.keys().cloned().collect())
                        .unwrap_or_default(),
                });
            }
        }
    }
    problems
}

/// The values an `enum` of the meta-schema allows here, also inside `anyOf`/`oneOf`
/// branches (`"type"` is a type name or a list of them).
fn listed_values(error: &ValidationError<'_>) -> Vec<String> {
    match error.kind() {
        ValidationErrorKind::Enum { options } => options
            .as_array()
            .map(|values| values.iter().map(Value::to_string).collect())
            .unwrap_or_default(),
        ValidationErrorKind::AnyOf { context }
        | ValidationErrorKind::OneOfNotValid { context }
        | ValidationErrorKind::OneOfMultipleValid { context } => context
            .iter()
            .flatten()
            .map(listed_values)
            .find(|values| !values.is_empty())
            .unwrap_or_default(),
        _ => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_misspelt_type_is_one_problem_with_the_type_names() {
        let problems = schema_problems(&json!({"type": "object", "properties": {
            "city": {"type": "strng", "description": "City"}}}));
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert_eq!(problems[0].path, "/properties/city/type");
        assert!(problems[0].message.contains("\"strng\""), "{problems:?}");
        assert!(
            problems[0].allowed.contains(&"\"string\"".to_string()),
            "{problems:?}"
        );
    }

    #[test]
    fn each_place_is_named_once() {
        let problems = schema_problems(&json!({"type": "array", "properties": {
            "a": {"type": "strng"}, "b": {"minLength": -1}}, "required": ["a", "c"]}));
        let paths: Vec<_> = problems.iter().map(|p| p.path.as_str()).collect();
        assert_eq!(
            paths,
            [
                "/properties/a/type",
                "/properties/b/minLength",
                "/type",
                "/required/1"
            ],
            "{problems:?}"
        );
        assert_eq!(problems[3].allowed, ["a", "b"]);
    }

    #[test]
    fn a_good_schema_has_no_problem() {
        assert!(
            schema_problems(&json!({"type": "object", "properties": {
            "a": {"type": "string"}}, "required": ["a"]}))
            .is_empty()
        );
    }
}
