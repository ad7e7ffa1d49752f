//! The assistant's schedule tools: `schedule` makes a reminder, a scheduled tool call or
//! a scheduled prompt; `list_schedules` lists them; `cancel_schedule` deletes one. The
//! result of `schedule` says the rule as understood, in words and as the next time, so
//! the model and the person see what was taken.

use std::sync::{Arc, Weak};

use async_trait::async_trait;
use chrono::Utc;
use deskmate_core::{
    Category, Compensation, JsonSchema, Localized, SideEffect, ToolError, ToolSpec, read_args,
    said, schema_for,
};
use deskmate_tools::{Example, SelfCheck, Teaches, Tool, ToolContext};
use serde::Deserialize;
use serde_json::{Value, json};

use super::{Action, NewSchedule, ScheduleView, Schedules};
use crate::ServiceError;

/// The ids of the schedule tools (a schedule never runs one of them).
pub const IDS: [&str; 3] = ["schedule", "list_schedules", "cancel_schedule"];

/// Which of the three a tool is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Create,
    List,
    Cancel,
}

/// One of the schedule tools over the service's schedules (held weakly: the schedules
/// own the registry handle the tools live in).
#[derive(Debug)]
pub struct ScheduleTool {
    kind: Kind,
    spec: ToolSpec,
    schedules: Weak<Schedules>,
}

/// `list_schedules`'s arguments.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct List {
    #[serde(default = "twenty")]
    #[schemars(
        range(min = 1, max = 100),
        description = "How many to list, the next to fire first (default 20).",
        extend("x-description-zh" = "列出多少个，最先触发的在前（默认 20）。")
    )]
    limit: u32,
}

fn twenty() -> u32 {
    20
}

/// `cancel_schedule`'s arguments.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct Cancel {
    #[schemars(
        length(min = 1, max = 64),
        description = "The schedule's id, as list_schedules or schedule gave it (e.g. 'sch-1a2b3c4d5e6f').",
        extend("x-description-zh" = "日程的 id，来自 list_schedules 或 schedule 的结果（例如 'sch-1a2b3c4d5e6f'）。")
    )]
    id: String,
}

/// The three tools.
pub fn tools(schedules: &Arc<Schedules>) -> Vec<Arc<dyn Tool>> {
    [Kind::Create, Kind::List, Kind::Cancel]
        .into_iter()
        .map(|kind| {
            Arc::new(ScheduleTool {
                kind,
                spec: spec(kind),
                schedules: Arc::downgrade(schedules),
            }) as Arc<dyn Tool>
        })
        .collect()
}

fn spec(kind: Kind) -> ToolSpec {
    match kind {
        Kind::Create => ToolSpec {
            id: IDS[0].into(),
            name: Localized::new("定时提醒", "Schedule"),
            summary: Some(Localized::new(
                "在以后的某个时间或按周期提醒你，或到时执行一个操作，例如“10分钟后提醒我活动一下”“每个工作日9点把音量调低”。",
                "Reminds you at a later time or on a schedule, or does something then, such as 'remind me in 10 minutes to stretch' or 'every weekday at 9 turn the volume down'.",
            )),
            description: "Makes a reminder or a scheduled action for a LATER time or a repeating time \
                (not now): give `when` as the user said it and either `message` (a reminder: what to \
                remind of), or `tool` with `arguments` (a tool call to run then), or `prompt` (a request \
                to the assistant to run then). The result echoes the rule as understood and the next \
                time; tell the user both. For something to do right now, call the tool itself instead."
                .into(),
            category: Category::System,
            parameters: schema_for::<NewSchedule>(),
            side_effect: SideEffect::Write,
            idempotent: false,
            timeout_ms: 60_000,
            compensation: Some(Compensation {
                tool: IDS[2].into(),
                description: "cancels the schedule just made".into(),
            }),
        },
        Kind::List => ToolSpec {
            id: IDS[1].into(),
            name: Localized::new("查看定时提醒", "List schedules"),
            summary: Some(Localized::new(
                "列出你的提醒和定时操作，以及下一次的时间。",
                "Lists your reminders and scheduled actions with their next time.",
            )),
            description: "Lists the user's reminders and scheduled actions, the next to fire first: id, \
                what it does, the rule in words and the next time. Read-only."
                .into(),
            category: Category::Query,
            parameters: schema_for::<List>(),
            side_effect: SideEffect::Read,
            idempotent: true,
            timeout_ms: 5_000,
            compensation: None,
        },
        Kind::Cancel => ToolSpec {
            id: IDS[2].into(),
            name: Localized::new("取消定时提醒", "Cancel schedule"),
            summary: Some(Localized::new(
                "取消一个提醒或定时操作。",
                "Cancels a reminder or a scheduled action.",
            )),
            description: "Cancels (deletes) one reminder or scheduled action by its id; find the id with \
                list_schedules first."
                .into(),
            category: Category::System,
            parameters: schema_for::<Cancel>(),
            side_effect: SideEffect::Write,
            idempotent: true,
            timeout_ms: 5_000,
            compensation: None,
        },
    }
}

/// A service error as the model should read it.
fn tool_error(error: ServiceError) -> ToolError {
    match error {
        ServiceError::Invalid(fields) => {
            let first = fields.first();
            let message = fields
                .iter()
                .map(|f| format!("{}: {}", f.path.trim_start_matches('/'), f.message))
                .collect::<Vec<_>>()
                .join("; ");
            let mut e = ToolError::validation(message);
            if let Some(f) = first
                && !f.hint.is_empty()
            {
                e = e.with_hint(f.hint.clone());
            }
            e
        }
        ServiceError::NotFound { what, id } => {
            ToolError::not_found(format!("{what} '{id}' not found"))
                .with_hint("call list_schedules for the ids")
        }
        ServiceError::Forbidden(why) => ToolError::new(deskmate_core::ErrorType::Denied, why)
            .with_hint("tell the user; do not retry"),
        other => ToolError::internal(other.to_string()),
    }
}

/// A schedule as the model reads it: what, when in words, and the next time.
fn brief(view: &ScheduleView) -> Value {
    json!({
        "id": view.id,
        "action": view.action,
        "rule": view.rule_words.en,
        "rule_zh": view.rule_words.zh,
        "next_at": view.next_at_local,
        "time_zone": view.time_zone,
        "enabled": view.enabled,
    })
}

/// What a schedule does, in a few words.
fn what(view: &ScheduleView) -> String {
    match &view.action {
        Action::Reminder { message, .. } => format!("“{message}”"),
        Action::Tool { tool, .. } => tool.clone(),
        Action::Prompt { prompt } => format!("“{prompt}”"),
    }
}

/// The next time in the schedule's zone, to the minute (`2026-12-04 09:00`).
fn next(view: &ScheduleView, zh: bool) -> String {
    match view
        .next_at_local
        .as_deref()
        .and_then(|at| chrono::DateTime::parse_from_rfc3339(at).ok())
    {
        Some(at) => at.format("%Y-%m-%d %H:%M").to_string(),
        None if zh => "不再触发".into(),
        None => "no more".into(),
    }
}

/// One schedule in a line: what, when (and the next time of a repeating one).
fn line(view: &ScheduleView, zh: bool) -> String {
    let (what, next) = (what(view), next(view, zh));
    let once = view.rule["kind"] == "once";
    match (zh, once) {
        (true, true) => format!("{what}，{next}"),
        (false, true) => format!("{what} at {next}"),
        (true, false) => format!("{what}（{}，下次 {next}）", view.rule_words.zh),
        (false, false) => format!("{what} ({}, next {next})", view.rule_words.en),
    }
}

/// The tool's own sentence about its result, in both languages (the chat's card and a
/// reply made of results read it).
fn said(view: &ScheduleView, made: bool) -> Localized {
    let (zh, en) = (line(view, true), line(view, false));
    let (zh_kind, en_kind) = match (&view.action, made) {
        (Action::Reminder { .. }, true) => ("已设置提醒", "Reminder set"),
        (Action::Tool { .. }, true) => ("已安排调用", "Scheduled call of"),
        (Action::Prompt { .. }, true) => ("已安排请求", "Scheduled request"),
        (_, false) => ("已取消", "Cancelled"),
    };
    Localized::new(format!("{zh_kind}：{zh}"), format!("{en_kind}: {en}"))
}

fn said_list(items: &[ScheduleView], total: u64) -> Localized {
    if items.is_empty() {
        return Localized::new("没有提醒或定时任务。", "No reminders or scheduled actions.");
    }
    let join = |zh: bool| {
        items
            .iter()
            .map(|v| line(v, zh))
            .collect::<Vec<_>>()
            .join(if zh { "；" } else { "; " })
    };
    Localized::new(
        format!("{total} 个定时任务：{}", join(true)),
        format!("{total} scheduled: {}", join(false)),
    )
}

/// How a person asks for a reminder, in everyday words (beside a request near them).
const CREATE_EXAMPLES: &[Example] = &[
    Example {
        teaches: Teaches::Wording,
        request: "ping me about the oven in 10 minutes",
        parts: &[],
        calls: &[(
            "schedule",
            r#"{"when":"in 10 minutes","message":"check the oven"}"#,
        )],
    },
    Example {
        teaches: Teaches::Wording,
        request: "周五下午三点提醒我交报告",
        parts: &[],
        calls: &[("schedule", r#"{"when":"周五下午三点","message":"交报告"}"#)],
    },
];

#[async_trait]
impl Tool for ScheduleTool {
    fn spec(&self) -> &ToolSpec {
        &self.spec
    }

    fn examples(&self) -> &[Example] {
        match self.kind {
            Kind::Create => CREATE_EXAMPLES,
            Kind::List | Kind::Cancel => &[],
        }
    }

    fn fits(&self, args: &Value) -> Result<(), ToolError> {
        match self.kind {
            Kind::Create => read_args::<NewSchedule>(&self.spec.id, args).map(drop),
            Kind::List => read_args::<List>(&self.spec.id, args).map(drop),
            Kind::Cancel => read_args::<Cancel>(&self.spec.id, args).map(drop),
        }
    }

    /// Listing answers, and the rule parser reads a sample expression.
    fn self_check(&self) -> SelfCheck {
        match self.kind {
            Kind::List => SelfCheck::Sample {
                args: json!({"limit": 1}),
                judge: |answer| match answer["total"].as_u64() {
                    Some(total) => Ok(said!("{total} 个定时提醒", "{total} schedule(s)")),
                    None => Err(said!(
                        "答案中没有总数：{answer}",
                        "no total in the answer: {answer}"
                    )),
                },
            },
            Kind::Create | Kind::Cancel => SelfCheck::Probe(Box::pin(async {
                let zone = super::local_zone();
                match deskmate_schedule::Rule::parse("every weekday at 9", Utc::now(), zone) {
                    Ok(rule) => {
                        let en = rule.describe(zone, deskmate_schedule::Lang::En);
                        let zh = rule.describe(zone, deskmate_schedule::Lang::Zh);
                        Ok(Localized::new(
                            format!("规则可以解析：{zh}"),
                            format!("rules parse: {en}"),
                        ))
                    }
                    Err(e) => {
                        let e = e.to_string();
                        Err(said!("规则解析失败：{e}", "the rule parser failed: {e}"))
                    }
                }
            })),
        }
    }

    async fn run(&self, args: Value, ctx: ToolContext) -> Result<Value, ToolError> {
        let schedules = self
            .schedules
            .upgrade()
            .ok_or_else(|| ToolError::internal("the schedules are closed"))?;
        match self.kind {
            Kind::Create => {
                let input: NewSchedule = read_args(&self.spec.id, &args)?;
                let origin = ctx.origin.as_deref().unwrap_or("api");
                let view = schedules
                    .create(input, origin, ctx.conversation_id.clone(), Utc::now())
                    .await
                    .map_err(tool_error)?;
                let mut answer = brief(&view);
                answer["undo"] = json!({"id": view.id});
                answer["said"] = json!(said(&view, true));
                Ok(answer)
            }
            Kind::List => {
                let List { limit } = read_args(&self.spec.id, &args)?;
                let (items, total) = schedules.list(limit, 0).map_err(tool_error)?;
                Ok(json!({
                    "total": total,
                    "schedules": items.iter().map(brief).collect::<Vec<_>>(),
                    "said": said_list(&items, total),
                }))
            }
            Kind::Cancel => {
                let Cancel { id } = read_args(&self.spec.id, &args)?;
                let view = match schedules.delete(id.trim()) {
                    Ok(view) => view,
                    // The model guessed an id ("stretch_reminder"): the error lists the
                    // schedules still to come, so its next call can name the right one (a
                    // one-time reminder that already fired is nothing to cancel, and
                    // offering it invites the wrong choice).
                    Err(ServiceError::NotFound { .. }) => {
                        let (mut items, _) = schedules.list(20, 0).map_err(tool_error)?;
                        items.retain(|v| v.next_at_local.is_some());
                        let known = items
                            .iter()
                            .map(|v| format!("{} = {}", v.id, line(v, false)))
                            .collect::<Vec<_>>()
                            .join("; ");
                        let hint = if items.is_empty() {
                            "no schedule is still to come, so there is nothing to cancel; tell the user".to_string()
                        } else {
                            format!("use the id of the one the user means: {known}")
                        };
                        return Err(ToolError::not_found(format!("there is no schedule '{id}'"))
                            .with_hint(hint)
                            .with_options(items.iter().map(|v| v.id.clone())));
                    }
                    Err(e) => return Err(tool_error(e)),
                };
                Ok(json!({"cancelled": brief(&view), "said": said(&view, false)}))
            }
        }
    }
}
