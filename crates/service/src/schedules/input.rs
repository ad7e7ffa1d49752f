//! What a new schedule asks for: one type for the API's body and the `schedule` tool's
//! arguments (the API document and the tool's schema are both derived from it), read
//! field by field so every wrong field is its own error.

use deskmate_core::JsonSchema;
use deskmate_store::schedules::StoredSchedule;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};
use utoipa::ToSchema;

use super::Action;
use crate::ServiceError;
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
// One of the three, as a structure the model's constrained decoding follows (a branch
// leaves out the fields only the others require), not a rule it must remember.
#[schemars(extend("oneOf" = [{"required": ["message"]}, {"required": ["tool", "arguments"]}, {"required": ["prompt"]}]))]
pub struct NewSchedule {
    /// When, in words or ISO 8601 or an RRULE.
    #[schemars(
        length(min = 1, max = 200),
        description = "When: the user's own time words, copied as they wrote them, in their language, repetition included (not translated, not shortened): 'in 10 minutes', 'tomorrow 9:00', 'every weekday at 9', '10分钟后', '明天早上9点', '每个工作日早上9点', or an ISO date-time '2026-12-24 18:00'.",
        extend("x-said" = "time", "x-description-zh" = "时间：照抄用户自己说的时间词，用用户的语言，包括重复（不翻译、不省略）：'10分钟后'、'明天早上9点'、'每个工作日早上9点'、'in 10 minutes'、'every weekday at 9'，或 ISO 日期时间 '2026-12-24 18:00'。")
    )]
    #[schema(min_length = 1, max_length = 200, example = "every weekday at 9")]
    pub when: String,
    /// What to remind the person of (a reminder).
    #[schemars(
        length(min = 1, max = 1000),
        description = "For a reminder: the words to show the user then, e.g. 'stretch', 'call Anna'.",
        extend("x-description-zh" = "提醒：到时显示给用户的话，例如“起来活动一下”“给安娜打电话”。")
    )]
    #[schema(min_length = 1, max_length = 1000)]
    pub message: Option<String>,
    /// Say the reminder out loud too. Not offered to a model (small models set every
    /// optional flag): a spoken reminder from the chat is a scheduled call of the voice
    /// tool, which the person's words must ask for.
    #[schemars(skip)]
    #[schema(nullable = false)]
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
        description = "For a request the assistant carries out then, its answer shown to the user: e.g. 'what time is it?', 'summarize AGE by arm in adsl'.",
        extend("x-description-zh" = "到时由助手执行的请求，结果会显示给用户：例如“现在几点？”“按组汇总 adsl 的 AGE”。")
    )]
    #[schema(min_length = 1, max_length = 2000)]
    pub prompt: Option<String>,
    /// The IANA time zone of the wall times; the computer's own when left out. Not
    /// offered to a model: it would guess one (UTC), and the person's own is right.
    #[schemars(skip)]
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

/// A change of a schedule: `enabled` turns it on or off (on, it goes on from now); any
/// other field redefines it, and what the change leaves out stays as it was (a new
/// `message`, `tool` or `prompt` replaces the action whole).
#[derive(Debug, Clone, Default, Deserialize, Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ScheduleChange {
    /// Whether it fires.
    #[schema(nullable = false)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub enabled: Option<bool>,
    /// A new time, as for a new schedule.
    #[schema(min_length = 1, max_length = 200, nullable = false)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub when: Option<String>,
    /// A new reminder text (the action becomes this reminder).
    #[schema(min_length = 1, max_length = 1000, nullable = false)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// Say the new reminder out loud too.
    #[schema(nullable = false)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub speak: Option<bool>,
    /// A new tool to call (with `arguments`).
    #[schema(min_length = 1, max_length = 64, nullable = false)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool: Option<String>,
    /// Its arguments.
    #[schema(value_type = Option<Object>, nullable = false)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arguments: Option<Map<String, Value>>,
    /// A new prompt to run as a chat turn.
    #[schema(min_length = 1, max_length = 2000, nullable = false)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prompt: Option<String>,
    /// A new IANA time zone for the wall times.
    #[schema(min_length = 1, max_length = 64, nullable = false)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time_zone: Option<String>,
}

impl Body for ScheduleChange {
    fn check(body: &Value) -> Vec<FieldError> {
        let Some(object) = body.as_object() else {
            return vec![field(
                "",
                "the body must be a JSON object",
                "send {\"enabled\": false} or the fields to change",
            )];
        };
        // The fields are checked as a new schedule's are when they are merged; here,
        // only what could not be merged.
        let mut errors = unknown_fields(object, &declared_fields::<Self>());
        if let Some(v) = object.get("enabled")
            && !v.is_boolean()
        {
            errors.push(field(
                "/enabled",
                "enabled must be true or false",
                "send a JSON boolean",
            ));
        }
        if errors.is_empty() {
            errors.extend(crate::body::typed::<Self>(body).err().unwrap_or_default());
        }
        errors
    }
}

impl ScheduleChange {
    /// The schedule `stored` is, with this change, and whether the change gives it a new
    /// time (`when` or `time_zone`): `None` when the change only turns it on or off (or
    /// is empty). Checked as a new schedule's body is, field by field.
    ///
    /// # Errors
    /// `Invalid` with the fields that are wrong.
    pub(crate) fn merged_with(
        &self,
        stored: &StoredSchedule,
    ) -> Result<Option<(NewSchedule, bool)>, ServiceError> {
        let change = serde_json::to_value(self).unwrap_or_default();
        let Some(change) = change
            .as_object()
            .filter(|c| c.keys().any(|k| k != "enabled"))
        else {
            return Ok(None);
        };
        let mut body = serde_json::from_value::<Action>(stored.action.clone())
            .ok()
            .map(|action| match action {
                Action::Reminder { message, speak } => json!({"message": message, "speak": speak}),
                Action::Tool { tool, arguments } => json!({"tool": tool, "arguments": arguments}),
                Action::Prompt { prompt } => json!({"prompt": prompt}),
            })
            .unwrap_or_else(|| json!({}));
        if ["message", "tool", "arguments", "prompt"]
            .iter()
            .any(|k| change.contains_key(*k))
        {
            body = json!({});
        }
        body["when"] = json!(stored.rule_text);
        body["time_zone"] = json!(stored.time_zone);
        body["enabled"] = json!(stored.enabled);
        for (key, value) in change {
            body[key] = value.clone();
        }
        let new_time = change.contains_key("when") || change.contains_key("time_zone");
        NewSchedule::read(&body)
            .map(|input| Some((input, new_time)))
            .map_err(ServiceError::Invalid)
    }
}
