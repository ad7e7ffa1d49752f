//! A failed call's valid options hold its next try. When a tool answers "there is no
//! schedule 'water_reminder'" with the values that exist, a small model often makes the
//! same guess again, and the turn ends on a repeated failure. So, for the rest of the
//! turn, the grammar of the requests admits only those values for the argument that was
//! wrong: the model still decides whether to call again and which value the person
//! meant, but it cannot repeat a value the tool said does not exist.
//!
//! The argument is the one top-level string, free in its schema (no `enum` of its own),
//! whose value is not among the options. When no argument, or more than one, fits that
//! rule (a dataset named right and a variable wrong: both are outside a list of
//! variables), nothing is narrowed: the options go to the model in the error's text, as
//! before. Only the grammar changes; the prompt stays as it was, and so does its cache.
//!
//! An error with no options says no value is valid ("there is no knowledge base 'notes'"
//! when the person has none). When the value it names (quoted in the error, as Deskmate's
//! tools write it) is that of an optional argument, free in its schema, the argument is
//! taken out of the tool's grammar for the rest of the turn: the next try can only leave it
//! to its default, not guess another name.

use deskmate_core::ErrorType;
use deskmate_llm::wire::ToolDef;
use serde_json::{Value, json};

use crate::outcome::Outcome;
use crate::types::CallStatus;

/// Narrows, in `tools`, the argument of `outcome`'s call that its error's options
/// replace, or takes out the optional one for which no value is valid. Returns whether a
/// schema changed.
pub(crate) fn hold(tools: &mut [ToolDef], outcome: &Outcome) -> bool {
    let result = &outcome.result;
    if outcome.status != CallStatus::Failed
        || !matches!(
            result.error_type,
            Some(ErrorType::NotFound | ErrorType::Validation)
        )
    {
        return false;
    }
    let Ok(Value::Object(arguments)) =
        serde_json::from_str::<Value>(&outcome.call.function.arguments)
    else {
        return false;
    };
    let Some(tool) = tools.iter_mut().find(|t| t.function.name == outcome.tool) else {
        return false;
    };
    let required: Vec<String> = tool.function.parameters["required"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|r| r.as_str().map(str::to_string))
        .collect();
    let Some(properties) = tool.properties_mut() else {
        return false;
    };
    let free = |name: &str| {
        properties.get(name).is_some_and(|schema| {
            schema.get("type").and_then(Value::as_str) == Some("string")
                && schema.get("enum").is_none()
        })
    };
    if result.options.is_empty() {
        let error = result.error.as_deref().unwrap_or_default();
        let named =
            |v: &str| error.contains(&format!("'{v}'")) || error.contains(&format!("\"{v}\""));
        let optional: Vec<&String> = arguments
            .iter()
            .filter(|(name, value)| {
                !required.contains(name)
                    && free(name)
                    && value.as_str().is_some_and(|v| !v.is_empty() && named(v))
            })
            .map(|(name, _)| name)
            .collect();
        let [name] = optional.as_slice() else {
            return false;
        };
        return properties.remove(*name).is_some();
    }
    let wrong: Vec<&String> = arguments
        .iter()
        .filter(|(name, value)| {
            value
                .as_str()
                .is_some_and(|v| !result.options.iter().any(|o| o == v))
                && free(name)
        })
        .map(|(name, _)| name)
        .collect();
    let [name] = wrong.as_slice() else {
        return false;
    };
    let Some(schema) = properties.get_mut(*name) else {
        return false;
    };
    schema["enum"] = json!(result.options);
    true
}

#[cfg(test)]
mod tests {
    use deskmate_core::{ToolError, ToolResult};

    use super::*;

    fn tools() -> Vec<ToolDef> {
        [
            json!({"type": "function", "function": {
                "name": "cancel_schedule", "description": "",
                "parameters": {"type": "object", "required": ["id"],
                               "properties": {"id": {"type": "string"}}}
            }}),
            json!({"type": "function", "function": {
                "name": "frequency", "description": "",
                "parameters": {"type": "object", "properties": {
                    "dataset": {"type": "string"}, "variable": {"type": "string"}
                }}
            }}),
        ]
        .into_iter()
        .map(|t| serde_json::from_value(t).unwrap_or_else(|e| panic!("{e}")))
        .collect()
    }

    fn failed(tool: &str, arguments: &str, error: ToolError) -> Outcome {
        Outcome::of(
            tool,
            arguments,
            CallStatus::Failed,
            ToolResult::failure(error),
        )
    }

    fn held(tools: &[ToolDef], tool: &str, property: &str) -> Option<Value> {
        tools
            .iter()
            .find(|t| t.function.name == tool)
            .and_then(|t| t.function.parameters["properties"][property].get("enum"))
            .cloned()
    }

    #[test]
    fn a_guessed_id_is_held_to_the_ids_there_are() {
        let mut tools = tools();
        let error = ToolError::not_found("there is no schedule 'water_reminder'")
            .with_options(["sch-1", "sch-2"]);
        let outcome = failed("cancel_schedule", r#"{"id":"water_reminder"}"#, error);
        assert!(hold(&mut tools, &outcome));
        assert_eq!(
            held(&tools, "cancel_schedule", "id"),
            Some(json!(["sch-1", "sch-2"]))
        );
        assert_eq!(held(&tools, "frequency", "variable"), None);
    }

    #[test]
    fn only_the_wrong_argument_is_held_and_only_when_it_is_the_one() {
        let mut tools = tools();
        let error = ToolError::not_found("no variable 'ARMS'").with_options(["ARM", "TRT01P"]);
        let outcome = failed(
            "frequency",
            r#"{"dataset":"adsl","variable":"ARMS"}"#,
            error.clone(),
        );
        // Both strings are outside the options: which one they replace is not known.
        assert!(!hold(&mut tools, &outcome));
        assert_eq!(held(&tools, "frequency", "variable"), None);
        // The other string is one of the options: the wrong one is known.
        let outcome = failed("frequency", r#"{"dataset":"ARM","variable":"ARMS"}"#, error);
        assert!(hold(&mut tools, &outcome));
        assert_eq!(held(&tools, "frequency", "dataset"), None);
        assert_eq!(
            held(&tools, "frequency", "variable"),
            Some(json!(["ARM", "TRT01P"]))
        );
    }

    #[test]
    fn an_optional_name_no_value_fits_is_taken_out_of_the_grammar() {
        let mut tools = tools();
        let search = || {
            serde_json::from_value::<ToolDef>(json!({"type": "function", "function": {
                "name": "knowledge", "description": "",
                "parameters": {"type": "object", "required": ["query"], "properties": {
                    "query": {"type": "string"}, "kb_id": {"type": "string"}
                }}
            }}))
            .unwrap_or_else(|e| panic!("{e}"))
        };
        tools.push(search());
        let error = ToolError::validation("there is no knowledge base 'notes'");
        let outcome = failed(
            "knowledge",
            r#"{"query":"VPN setup","kb_id":"notes"}"#,
            error.clone(),
        );
        assert!(hold(&mut tools, &outcome));
        let properties = &tools[2].function.parameters["properties"];
        assert!(properties.get("kb_id").is_none(), "{properties}");
        assert!(properties.get("query").is_some());
        // A value the error does not name, or a required argument, stays.
        let mut tools = vec![search()];
        let other = failed("knowledge", r#"{"query":"VPN","kb_id":"work"}"#, error);
        assert!(!hold(&mut tools, &other));
        let required = failed(
            "knowledge",
            r#"{"query":"notes"}"#,
            ToolError::validation("no passage for 'notes'"),
        );
        assert!(!hold(&mut tools, &required));
        assert!(
            tools[0].function.parameters["properties"]
                .get("kb_id")
                .is_some()
        );
    }

    #[test]
    fn a_failure_without_options_or_of_another_kind_holds_nothing() {
        let mut tools = tools();
        let plain = failed(
            "cancel_schedule",
            r#"{"id":"x"}"#,
            ToolError::not_found("there is no schedule 'x'"),
        );
        assert!(!hold(&mut tools, &plain));
        let denied = failed(
            "cancel_schedule",
            r#"{"id":"x"}"#,
            ToolError::new(ErrorType::Denied, "refused").with_options(["sch-1"]),
        );
        assert!(!hold(&mut tools, &denied));
        let unknown_tool = failed(
            "cancel_everything",
            r#"{"id":"x"}"#,
            ToolError::not_found("no such tool").with_options(["cancel_schedule"]),
        );
        assert!(!hold(&mut tools, &unknown_tool));
        assert_eq!(held(&tools, "cancel_schedule", "id"), None);
    }
}
