//! Deskmate's contracts in MCP's shapes: a [`ToolSpec`] becomes an MCP `Tool`, a
//! [`ToolResult`] a `CallToolResult`.

use std::sync::Arc;

use deskmate_core::{SideEffect, ToolResult, ToolSpec};
use rmcp::model::{CallToolResult, ContentBlock, Tool, ToolAnnotations};
use serde_json::Value;

use crate::language::Language;

/// A tool as MCP clients see it: the id as its name, its display name in the user's
/// language as the title, the parameter schema (without Deskmate's `x-` normalization
/// hints, which mean nothing to a client; validation is the same) as `inputSchema`, and
/// annotations from its contract: read → `readOnlyHint`, irreversible →
/// `destructiveHint`, idempotent → `idempotentHint`, a tool that talks to a web service
/// → `openWorldHint`.
pub fn tool(spec: &ToolSpec, open_world: bool, language: Language) -> Tool {
    let schema = match spec.parameters_for_model() {
        Value::Object(map) => map,
        _ => serde_json::Map::new(),
    };
    let title = match language {
        Language::Zh => spec.name.zh.clone(),
        Language::En => spec.name.en.clone(),
    };
    let annotations = ToolAnnotations::new()
        .read_only(spec.side_effect == SideEffect::Read)
        .destructive(spec.side_effect == SideEffect::Irreversible)
        .idempotent(spec.idempotent)
        .open_world(open_world);
    Tool::new(spec.id.clone(), spec.description.clone(), Arc::new(schema))
        .with_title(title)
        .with_annotations(annotations)
}

/// A result as MCP clients read it. The text says what a model needs: the data, or the
/// error's type, message, hint and options; `structuredContent` is Deskmate's whole
/// result shape (`ok`, `data`, `error`, `error_type`, `hint`, `options`, `repairs`,
/// `truncated`, `call_id`, `duration_ms`). A failed call is `isError: true`.
pub fn call_result(result: &ToolResult) -> CallToolResult {
    let mut answer = if result.ok {
        CallToolResult::success(vec![ContentBlock::text(success_text(result))])
    } else {
        CallToolResult::error(vec![ContentBlock::text(error_text(result))])
    };
    answer.structured_content = serde_json::to_value(result).ok();
    answer
}

fn success_text(result: &ToolResult) -> String {
    let mut text = match &result.data {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    };
    if result.truncated {
        text.push_str("\n(truncated)");
        if let Some(hint) = &result.hint {
            text.push_str(&format!(" {hint}"));
        }
    }
    text
}

fn error_text(result: &ToolResult) -> String {
    let kind = result.error_type.map_or("error", |t| t.as_str());
    let mut text = format!(
        "{kind} error: {}",
        result.error.as_deref().unwrap_or("the call failed")
    );
    if let Some(hint) = &result.hint {
        text.push_str(&format!("\nhint: {hint}"));
    }
    if !result.options.is_empty() {
        text.push_str(&format!("\noptions: {}", result.options.join(", ")));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use deskmate_core::{ErrorType, ToolError};
    use serde_json::json;

    #[test]
    fn a_failure_carries_type_hint_and_options_in_text_and_shape() {
        let result = ToolResult::failure(
            ToolError::new(ErrorType::Validation, "unknown column 'sex'")
                .with_hint("use one of the dataset's columns")
                .with_options(["SEX", "AGE"]),
        );
        let answer = call_result(&result);
        assert_eq!(answer.is_error, Some(true));
        let text = serde_json::to_value(&answer.content).unwrap_or_default();
        assert_eq!(
            text[0]["text"],
            json!(
                "validation error: unknown column 'sex'\nhint: use one of the dataset's columns\noptions: SEX, AGE"
            )
        );
        let shape = answer.structured_content.unwrap_or_default();
        assert_eq!(shape["error_type"], json!("validation"));
        assert_eq!(shape["options"], json!(["SEX", "AGE"]));
        assert_eq!(shape["ok"], json!(false));
    }

    #[test]
    fn a_success_is_its_data() {
        let answer = call_result(&ToolResult::success(json!({"value": 14})));
        assert_eq!(answer.is_error, Some(false));
        let text = serde_json::to_value(&answer.content).unwrap_or_default();
        assert_eq!(text[0]["text"], json!("{\"value\":14}"));
        assert_eq!(
            answer.structured_content.unwrap_or_default()["data"],
            json!({"value": 14})
        );
    }
}
