//! Arguments that are the person's own words. A tool marks such a parameter in its
//! schema with `"x-said": "time"` (when a reminder fires): when the person's message
//! holds time expressions (found by `deskmate_schedule`'s grammar, in any of its
//! languages), the grammar of the turn's requests admits only those, as written, for that
//! parameter. The model still decides whether to call the tool and which expression is
//! meant; it cannot translate "每个工作日早上9点" into "9:00 AM" and lose the repetition
//! on the way. A message without one leaves the parameter free (the tool's error then
//! says what it takes).
//!
//! Only the grammar is narrowed: the prompt keeps the catalog every turn shares, so the
//! model server's cached prefix stays valid.

use chrono::Utc;
use deskmate_core::ToolSpec;
use deskmate_llm::wire::ToolDef;
use serde_json::{Value, json};

/// The (tool, parameter) pairs whose schema says `"x-said": "time"`, read from the tools'
/// full schemas (the model's view of a schema carries no `x-` annotations).
pub(crate) fn said_times<'a>(specs: impl Iterator<Item = &'a ToolSpec>) -> Vec<(String, String)> {
    specs
        .flat_map(|spec| {
            spec.parameters["properties"]
                .as_object()
                .into_iter()
                .flatten()
                .filter(|(_, schema)| schema.get("x-said").and_then(Value::as_str) == Some("time"))
                .map(|(name, _)| (spec.id.clone(), name.clone()))
        })
        .collect()
}

/// The tools with every parameter of `marked` held to the time expressions of `message`.
pub(crate) fn narrowed(
    tools: &[ToolDef],
    marked: &[(String, String)],
    message: &str,
) -> Vec<ToolDef> {
    let mut spans: Option<Vec<String>> = None;
    tools
        .iter()
        .map(|tool| {
            let mut tool = tool.clone();
            let name = tool.function.name.clone();
            let Some(properties) = tool.properties_mut() else {
                return tool;
            };
            for (property, schema) in properties.iter_mut() {
                if !marked.iter().any(|(t, p)| *t == name && p == property) {
                    continue;
                }
                let found = spans.get_or_insert_with(|| {
                    deskmate_schedule::time_spans(
                        message,
                        Utc::now(),
                        deskmate_service::schedules::local_zone(),
                    )
                });
                if !found.is_empty() {
                    schema["enum"] = json!(found);
                }
            }
            tool
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tool() -> ToolDef {
        serde_json::from_value(json!({"type": "function", "function": {
            "name": "schedule", "description": "",
            "parameters": {"type": "object", "properties": {
                "when": {"type": "string"},
                "message": {"type": "string"}
            }}
        }}))
        .unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn a_said_time_is_held_to_the_messages_own_words_and_nothing_else_changes() {
        let marked = [("schedule".to_string(), "when".to_string())];
        let held = narrowed(&[tool()], &marked, "每天早上8点提醒我喝水");
        let properties = &held[0].function.parameters["properties"];
        assert_eq!(properties["when"]["enum"], json!(["每天早上8点"]));
        assert!(properties["message"].get("enum").is_none());
        // No time in the message: left free.
        let free = narrowed(&[tool()], &marked, "remind me about it");
        assert!(
            free[0].function.parameters["properties"]["when"]
                .get("enum")
                .is_none()
        );
    }
}
