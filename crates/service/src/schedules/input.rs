//! What a new schedule asks for: one type for the API's body and the `schedule` tool's
//! arguments (the API document and the tool's schema are both derived from it), read
//! field by field so every wrong field is its own error.

use deskmate_core::JsonSchema;
use serde::Deserialize;
use serde_json::{Map, Value};
use utoipa::ToSchema;

use crate::body::{Body, declared_fields, unknown_fields};
use crate::error::FieldError;

/// Longest reminder text (what a notification shows).
pub const MESSAGE_MAX: usize = 1000;
/// Longest prompt run as a chat turn.
pub const PROMPT_MAX: usize = 2000;
/// Longest time expression.
pub const WHEN_MAX: usize = 200;

/// A schedule to add: what to do — a reminder `message`, a `tool` call with its
/// `arguments`, or a chat `prompt` — and `when`.
#[derive(Debug, Clone, Deserialize, ToSchema, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NewSchedule {
    /// When, in words or ISO 8601 or an RRULE.
    #[schemars(
        length(min = 1, max = 200),
        description = "When, as the user said it: 'in 10 minutes', 'at 17:30', 'tomorrow 9:00', 'every weekday at 9', 'every 2 hours', '10分钟后', '明天早上9点', '每个工作日9点', an ISO date-time '2026-12-24 18:00', or an RRULE.",
        extend("x-description-zh" = "什么时候，按用户的说法：'10分钟后'、'明天早上9点'、'每个工作日9点'、'每2小时'、'in 10 minutes'、'every weekday at 9'，ISO 日期时间 '2026-12-24 18:00'，或 RRULE。")
    )]
    #[schema(min_length = 1, max_length = 200, example = "every weekday at 9")]
    pub when: String,
    /// What to remind the person of (a reminder).
    #[schemars(
        length(min = 1, max = 1000),
        description = "For a reminder: what to remind the user of, e.g. 'stretch'. Leave out when scheduling a tool or a prompt.",
        extend("x-description-zh" = "提醒的内容，例如“起来活动一下”。安排工具调用或提示时省略。")
    )]
    #[schema(min_length = 1, max_length = 1000)]
    pub message: Option<String>,
    /// Say the reminder out loud too.
    #[schemars(
        description = "For a reminder: also say it out loud (only when the user asks for that).",
        extend("x-description-zh" = "提醒时也大声说出来（仅当用户要求时）。")
    )]
    pub speak: Option<bool>,
    /// The tool to call (a scheduled call).
    #[schemars(
        length(min = 1, max = 64),
        description = "For a scheduled action: the id of the tool to call then, e.g. 'volume_down'.",
        extend("x-description-zh" = "定时执行的操作：到时调用的工具 id，例如 'volume_down'。")
    )]
    #[schema(min_length = 1, max_length = 64)]
    pub tool: Option<String>,
    /// The tool's arguments.
    #[schemars(
        description = "The arguments of that tool call, as the tool takes them.",
        extend("x-description-zh" = "该工具调用的参数。")
    )]
    #[schema(value_type = Option<Object>)]
    pub arguments: Option<Map<String, Value>>,
    /// A request run as a new chat turn.
    #[schemars(
        length(min = 1, max = 2000),
        description = "For a scheduled request to the assistant: what to ask then, e.g. 'summarize AGE by arm in adsl'.",
        extend("x-description-zh" = "定时向助手提出的请求，例如“按组汇总 adsl 的 AGE”。")
    )]
    #[schema(min_length = 1, max_length = 2000)]
    pub prompt: Option<String>,
    /// The IANA time zone of the wall times; the computer's own when left out.
    #[schemars(
        length(min = 1, max = 64),
        description = "IANA time zone of the times, e.g. 'Asia/Shanghai'; leave out for the user's own.",
        extend("x-description-zh" = "时间所在的 IANA 时区，例如 'Asia/Shanghai'；省略则使用用户本地时区。")
    )]
    #[schema(min_length = 1, max_length = 64)]
    pub time_zone: Option<String>,
    /// Whether it fires (default true).
    #[schemars(skip)]
    #[schema(nullable = false)]
    pub enabled: Option<bool>,
}

fn field(path: &str, message: impl Into<String>, hint: impl Into<String>) -> FieldError {
    FieldError {
        path: path.to_string(),
        message: message.into(),
        hint: hint.into(),
    }
}

fn text(body: &Map<String, Value>, key: &str, max: usize, errors: &mut Vec<FieldError>) {
    match body.get(key) {
        None | Some(Value::Null) => {}
        Some(Value::String(s)) if !s.trim().is_empty() && s.chars().count() <= max => {}
        Some(_) => errors.push(field(
            &format!("/{key}"),
            format!("{key} must be a non-empty string of at most {max} characters"),
            "send a shorter text",
        )),
    }
}

impl Body for NewSchedule {
    fn check(body: &Value) -> Vec<FieldError> {
        let Some(body) = body.as_object() else {
            return vec![field(
                "",
                "the body must be a JSON object",
                "send {\"when\": …, \"message\": …}",
            )];
        };
        let mut errors = unknown_fields(body, &declared_fields::<Self>());
        match body.get("when") {
            Some(Value::String(_)) => text(body, "when", WHEN_MAX, &mut errors),
            _ => errors.push(field(
                "/when",
                "when is required: a time expression",
                "e.g. \"in 10 minutes\", \"tomorrow 9:00\", \"every weekday at 9\"",
            )),
        }
        text(body, "message", MESSAGE_MAX, &mut errors);
        text(body, "prompt", PROMPT_MAX, &mut errors);
        text(body, "tool", 64, &mut errors);
        text(body, "time_zone", 64, &mut errors);
        for key in ["speak", "enabled"] {
            if let Some(v) = body.get(key)
                && !v.is_boolean()
                && !v.is_null()
            {
                errors.push(field(
                    &format!("/{key}"),
                    format!("{key} must be true or false"),
                    "send a JSON boolean",
                ));
            }
        }
        if let Some(v) = body.get("arguments")
            && !v.is_object()
            && !v.is_null()
        {
            errors.push(field(
                "/arguments",
                "arguments must be an object",
                "send the tool's arguments as a JSON object, e.g. {\"step\": 10}",
            ));
        }
        errors.extend(one_action(
            ["message", "tool", "prompt"].map(|k| body.get(k).is_some_and(|v| !v.is_null())),
            body.get("arguments").is_some_and(|v| !v.is_null()),
        ));
        errors
    }
}

/// Exactly one of `message`, `tool`, `prompt`; `arguments` only with a tool.
pub(crate) fn one_action([message, tool, prompt]: [bool; 3], arguments: bool) -> Vec<FieldError> {
    let mut errors = Vec::new();
    match usize::from(message) + usize::from(tool) + usize::from(prompt) {
        1 => {}
        0 => errors.push(field(
            "/message",
            "say what to do: a reminder message, a tool, or a prompt",
            "send message (a reminder), tool with arguments (a scheduled call) or prompt (a request to the assistant)",
        )),
        _ => errors.push(field(
            if tool { "/tool" } else { "/prompt" },
            "a schedule does one thing: a reminder message, a tool call or a prompt, not several",
            "send only one of message, tool, prompt",
        )),
    }
    if arguments && !tool {
        errors.push(field(
            "/arguments",
            "arguments belong to a tool call",
            "send tool with arguments, or leave arguments out",
        ));
    }
    errors
}

impl NewSchedule {
    /// A reminder of `message` at `when`.
    pub fn reminder(when: impl Into<String>, message: impl Into<String>) -> Self {
        Self {
            when: when.into(),
            message: Some(message.into()),
            speak: None,
            tool: None,
            arguments: None,
            prompt: None,
            time_zone: None,
            enabled: None,
        }
    }
}
