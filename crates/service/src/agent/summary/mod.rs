//! One line a person can read for a call's outcome ("17% of 2,340 = 397.8"): the tool
//! card leads with it, and a reply built from the results is made of these lines.
//!
//! A result whose data carries `said` (`{"zh", "en"}`) is read as the tool's own line.
//! The built-in tools' results have known shapes and read best with their own sentence;
//! any other tool (HTTP, imported, a test's) gets a generic line from its first fields.

mod datasets;

use deskmate_core::ToolResult;

use super::CallStatus;
use serde_json::Value;

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
    let data = &result.data;
    // A tool may say its own result, in both languages.
    if let Some(said) = data
        .get("said")
        .and_then(|s| s.get(if zh { "zh" } else { "en" }))
        .and_then(Value::as_str)
    {
        return said.to_string();
    }
    datasets::line(tool, data, zh)
        .map(|(line, _)| line)
        .or_else(|| builtin(tool, data, zh))
        .unwrap_or_else(|| generic(tool, data, zh))
}

fn text(value: &Value) -> Option<String> {
    match value {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

fn field(data: &Value, key: &str) -> Option<String> {
    data.get(key).and_then(text)
}

/// Most characters of code output a line shows whole.
const CODE_SHOWN: usize = 120;

/// What a code run printed or returned, trimmed; `None` when it gave nothing.
fn code_shown(data: &Value) -> Option<String> {
    field(data, "result")
        .filter(|r| !r.is_empty() && r != "None")
        .or_else(|| field(data, "stdout").map(|s| s.trim().to_string()))
        .filter(|s| !s.is_empty())
}

/// The sentence of a built-in tool; `None` when the data lacks what it needs.
fn builtin(tool: &str, data: &Value, zh: bool) -> Option<String> {
    let line = match tool {
        "calculator" => {
            let expression = field(data, "expression")?;
            let value = field(data, "text").or_else(|| field(data, "result"))?;
            format!("{expression} = {value}")
        }
        "current_time" => {
            let date = field(data, "date")?;
            let time = field(data, "time")?;
            let zone = field(data, "timezone").unwrap_or_default();
            if zh {
                format!("{zone} 现在是 {date} {time}")
            } else {
                format!("It is {time} on {date} ({zone})")
            }
        }
        "increase_volume" | "decrease_volume" => {
            let before = field(data, "before")?;
            let after = field(data, "after")?;
            let note = field(data, "note").filter(|_| before == after);
            match (zh, note) {
                (true, Some(_)) => format!("音量已经是 {after}%，没有变化"),
                (false, Some(note)) => format!("Volume unchanged: {note}"),
                (true, None) => format!("音量 {before}% → {after}%"),
                (false, None) => format!("Volume {before}% → {after}%"),
            }
        }
        "turn_on_camera" => {
            let device = field(data, "device").unwrap_or_default();
            if zh {
                format!("摄像头已打开（{device}）")
            } else {
                format!("Camera on ({device})")
            }
        }
        "turn_off_camera" => match (zh, data.get("was_on").and_then(Value::as_bool)) {
            (true, Some(false)) => "摄像头本来就是关着的".into(),
            (true, _) => "摄像头已关闭".into(),
            (false, Some(false)) => "The camera was already off".into(),
            (false, _) => "Camera off".into(),
        },
        "text_msg_prompt" => {
            let title = field(data, "title").unwrap_or_default();
            if zh {
                format!("已显示消息“{title}”")
            } else {
                format!("Message shown: \"{title}\"")
            }
        }
        "voice_msg_prompt" => {
            let ms = data.get("duration_ms").and_then(Value::as_f64)?;
            if zh {
                format!("已朗读消息（{:.1} 秒）", ms / 1000.0)
            } else {
                format!("Message spoken ({:.1} s)", ms / 1000.0)
            }
        }
        "text_choice_prompt" | "voice_choice_prompt" => {
            let choice = field(data, "choice")?;
            if zh {
                format!("选择了“{choice}”")
            } else {
                format!("Chosen: \"{choice}\"")
            }
        }
        "sas_round_rate" => {
            let value = field(data, "text")?;
            if zh {
                format!("四舍五入结果：{value}")
            } else {
                format!("Rounded: {value}")
            }
        }
        "append_audit" => match (zh, data.get("duplicate").and_then(Value::as_bool)) {
            (true, Some(true)) => "这条审计记录之前已经写过，没有重复写入".into(),
            (true, _) => "已写入审计记录".into(),
            (false, Some(true)) => {
                "This audit event was already recorded; not written again".into()
            }
            (false, _) => "Audit event recorded".into(),
        },
        "code_interpreter" => {
            let shown = clip(&code_shown(data).unwrap_or_default(), CODE_SHOWN);
            if zh {
                format!("代码已运行：{shown}")
            } else {
                format!("Code ran: {shown}")
            }
        }
        _ => return None,
    };
    Some(line)
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

fn clip(text: &str, chars: usize) -> String {
    if text.chars().count() <= chars {
        return text.to_string();
    }
    let mut out: String = text.chars().take(chars).collect();
    out.push('…');
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use deskmate_core::ToolError;
    use serde_json::json;

    #[test]
    fn built_in_results_read_as_sentences() {
        let cases = [
            (
                "calculator",
                json!({"expression": "17% of 2,340", "result": 397.8, "text": "397.8"}),
                false,
                "17% of 2,340 = 397.8",
            ),
            (
                "decrease_volume",
                json!({"before": 50, "after": 40, "device": "sink"}),
                true,
                "音量 50% → 40%",
            ),
            (
                "increase_volume",
                json!({"before": 100, "after": 100, "note": "the volume is already at 100"}),
                false,
                "Volume unchanged: the volume is already at 100",
            ),
            (
                "current_time",
                json!({"timezone": "Asia/Tokyo", "date": "2026-12-01", "time": "11:40:00"}),
                false,
                "It is 11:40:00 on 2026-12-01 (Asia/Tokyo)",
            ),
        ];
        for (tool, data, zh, want) in cases {
            assert_eq!(summarize(tool, &ToolResult::success(data), zh), want);
        }
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
            summarize("describe_dataset", &failed, true),
            "describe_dataset 未成功：unknown dataset 'x'"
        );
        // A built-in whose data lacks the fields falls back rather than inventing them.
        let odd = ToolResult::success(json!({"value": 1}));
        assert_eq!(summarize("calculator", &odd, false), "calculator: value 1");
    }
}
