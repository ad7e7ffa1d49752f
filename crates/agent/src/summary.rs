//! One line a person can read for a call's outcome ("17% of 2,340 = 397.8"): the tool
//! card leads with it, and a reply built from the results is made of these lines.
//!
//! A tool says its own line in its result (`said`, [`deskmate_tools::said`]): every
//! built-in tool does, and an HTTP or imported tool may. A tool that says nothing gets a
//! generic line from its result's first fields. The chat knows no tool by its id here.

use deskmate_core::ToolResult;
use deskmate_tools::said::{clip, text};
use serde_json::Value;

use crate::types::CallStatus;

/// The line for one call that ended with `status`, in Chinese when `zh`.
pub(crate) fn line(tool: &str, status: CallStatus, result: &ToolResult, zh: bool) -> String {
    match (status, zh) {
        (CallStatus::NotAsked, true) => {
            format!("没有执行 {tool}：你的消息没有提到它做的事。")
        }
        (CallStatus::NotAsked, false) => {
            format!("{tool} was not run: your message did not ask for what it does.")
        }
        _ => summarize(tool, result, zh),
    }
}

/// The line for one call's result, in Chinese when `zh`.
pub fn summarize(tool: &str, result: &ToolResult, zh: bool) -> String {
    if !result.ok {
        let error = result.error.as_deref().unwrap_or("the call failed");
        return if zh {
            format!("{tool} 未成功：{error}")
        } else {
            format!("{tool} failed: {error}")
        };
    }
    match deskmate_tools::said::line(&result.data, zh) {
        Some(said) => said.to_string(),
        None => generic(tool, &result.data, zh),
    }
}

/// `tool: key value, key value` from the first scalar fields, clipped. A success flag
/// and the tool's own name say nothing the line does not: `{"ok": true, "tool":
/// "lock_screen"}` reads "lock_screen done".
fn generic(tool: &str, data: &Value, zh: bool) -> String {
    let said = |k: &str, v: &Value| {
        k == "undo"
            || (matches!(k, "ok" | "success") && v == &Value::Bool(true))
            || v.as_str() == Some(tool)
    };
    let body = match data {
        Value::Object(map) => map
            .iter()
            .filter(|(k, v)| !said(k, v))
            .filter_map(|(k, v)| text(v).map(|v| format!("{k} {}", clip(&v, 40))))
            .take(4)
            .collect::<Vec<_>>()
            .join(", "),
        other => text(other).unwrap_or_default(),
    };
    match (zh, body.is_empty()) {
        (true, true) => format!("{tool} 已完成"),
        (false, true) => format!("{tool} done"),
        (_, false) => format!("{tool}: {body}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use deskmate_core::ToolError;
    use serde_json::json;

    #[test]
    fn a_tools_own_line_is_read_in_the_turns_language() {
        let result = ToolResult::success(json!({"before": 50, "after": 40,
            "said": {"zh": "音量 50% → 40%", "en": "Volume 50% → 40%"}}));
        assert_eq!(summarize("any_tool", &result, true), "音量 50% → 40%");
        assert_eq!(summarize("any_tool", &result, false), "Volume 50% → 40%");
        // A failure is the loop's to word, whatever the tool would have said.
        let failed = ToolResult::failure(ToolError::validation("no such sink"));
        assert_eq!(
            summarize("any_tool", &failed, false),
            "any_tool failed: no such sink"
        );
    }

    #[test]
    fn other_tools_and_failures_get_a_generic_line() {
        let weather = ToolResult::success(json!({"city": "Paris", "temp_c": 18, "undo": {}}));
        assert_eq!(
            summarize("get_weather", &weather, false),
            "get_weather: city Paris, temp_c 18"
        );
        let flag = ToolResult::success(json!({"ok": true, "tool": "lock_screen"}));
        assert_eq!(summarize("lock_screen", &flag, false), "lock_screen done");
        assert_eq!(summarize("lock_screen", &flag, true), "lock_screen 已完成");
        let failed = ToolResult::failure(ToolError::validation("unknown dataset 'x'"));
        assert_eq!(
            summarize("count_rows", &failed, true),
            "count_rows 未成功：unknown dataset 'x'"
        );
        // A line in only one language, or no text, is no line: the generic one stands.
        let odd = ToolResult::success(json!({"value": 1, "said": {"en": "one"}}));
        assert_eq!(summarize("count_rows", &odd, true), "count_rows: value 1");
        assert_eq!(summarize("count_rows", &odd, false), "one");
    }
}
