//! Schedules: a reminder, a tool call or a chat prompt with a time rule, kept in the
//! database and fired by the service while it runs.
//!
//! - A schedule is checked when it is made: the rule must fire after now, a tool call's
//!   arguments must pass the guard, a tool whose policy is `never` cannot be scheduled
//!   and one whose policy asks asks now, showing the call and the rule; the yes is kept
//!   with the schedule as the fingerprint of the tool's definition.
//! - It is checked again when it fires (see [`fire`]): the tool may have been changed,
//!   disabled or removed meanwhile, and then the run fails visibly. A changed definition
//!   asks again.
//! - Firing exactly once and the missed-run policy are described in [`fire`].

pub mod fire;
pub mod input;
pub mod tools;

use std::str::FromStr;
use std::sync::{Arc, OnceLock, RwLock};

use chrono::{DateTime, Utc};
use chrono_tz::Tz;
use deskmate_core::{Decision, Localized};
use deskmate_schedule::{Lang, Rule};
use deskmate_store::Store;
use deskmate_store::schedules::{ScheduleRun, StoredSchedule, utc};
use deskmate_tools::Registry;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;

use crate::ServiceError;
use crate::error::FieldError;
use crate::hooks::{ConfirmRequest, Confirmer, PolicySource};
pub use input::{NewSchedule, ScheduleChange};

/// Most schedules kept at once.
pub const MAX_SCHEDULES: u64 = 10_000;

/// What a schedule does when it fires.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Action {
    /// A desktop notification (and a line in the conversation it came from), spoken
    /// too when `speak`.
    Reminder {
        /// What to remind of.
        message: String,
        /// Also say it out loud.
        speak: bool,
    },
    /// A tool call, through the guard like any other.
    Tool {
        /// The tool's id.
        tool: String,
        /// Its arguments as the guard prepared them.
        #[schema(value_type = Object)]
        arguments: Value,
    },
    /// A request to the assistant, run as a new turn of the conversation it came from.
    Prompt {
        /// What to ask.
        prompt: String,
    },
}

/// A schedule as the API and the tools show it.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct ScheduleView {
    /// Its id.
    pub id: String,
    /// What it does.
    pub action: Action,
    /// The time expression it was given.
    pub when: String,
    /// The rule as understood, in words (en and zh).
    pub rule_words: Localized,
    /// The rule as stored.
    #[schema(value_type = Object)]
    pub rule: Value,
    /// The IANA time zone of its wall times.
    pub time_zone: String,
    /// The next time it fires (RFC 3339, UTC); `null` when it fires no more.
    pub next_at: Option<String>,
    /// The same in its time zone (RFC 3339 with the offset).
    pub next_at_local: Option<String>,
    /// Whether it fires.
    pub enabled: bool,
    /// Who made it: `chat`, `api`, `gui`, `mcp` or `cli`.
    pub created_by: String,
    /// The conversation it came from.
    pub conversation_id: Option<String>,
    /// How many times it came due (run or missed).
    pub run_count: i64,
    /// When it last came due.
    pub last_run_at: Option<String>,
    /// `running`, `succeeded`, `failed` or `missed`.
    pub last_status: Option<String>,
    /// What came of the last run.
    #[schema(value_type = Option<Object>)]
    pub last_result: Option<Value>,
    /// RFC 3339.
    pub created_at: String,
    /// RFC 3339.
    pub updated_at: String,
}

/// The schedules of a data dir: made, listed, changed and deleted here; fired by
/// [`crate::Deskmate::fire_due`].
#[derive(Debug)]
pub struct Schedules {
    store: Arc<Store>,
    policies: Arc<dyn PolicySource>,
    confirmer: Arc<dyn Confirmer>,
    /// The service's registry as it is now (set once the service is built).
    registry: OnceLock<Arc<RwLock<Arc<Registry>>>>,
    /// Woken when a schedule is added or turned on: the scheduler recomputes its sleep.
    pub(crate) wake: tokio::sync::Notify,
    /// This process's name in the claims of the runs it fires.
    pub(crate) claimer: String,
}

fn field(path: &str, message: impl Into<String>, hint: impl Into<String>) -> FieldError {
    FieldError {
        path: path.to_string(),
        message: message.into(),
        hint: hint.into(),
    }
}

fn invalid(path: &str, message: impl Into<String>, hint: impl Into<String>) -> ServiceError {
    ServiceError::Invalid(vec![field(path, message, hint)])
}

fn not_found(id: &str) -> ServiceError {
    ServiceError::NotFound {
        what: "Schedule",
        id: id.to_string(),
    }
}

/// The computer's time zone (UTC when it has none Deskmate knows).
pub fn local_zone() -> Tz {
    deskmate_tools::current_time::system_zone().unwrap_or(Tz::UTC)
}

pub use crate::approvals::definition_fingerprint;

impl Schedules {
    pub(crate) fn new(
        store: Arc<Store>,
        policies: Arc<dyn PolicySource>,
        confirmer: Arc<dyn Confirmer>,
    ) -> Self {
        Self {
            store,
            policies,
            confirmer,
            registry: OnceLock::new(),
            wake: tokio::sync::Notify::new(),
            claimer: format!(
                "{}-{}",
                std::process::id(),
                &uuid::Uuid::new_v4().simple().to_string()[..8]
            ),
        }
    }

    pub(crate) fn attach(&self, registry: Arc<RwLock<Arc<Registry>>>) {
        let _ = self.registry.set(registry);
    }

    pub(crate) fn registry(&self) -> Option<Arc<Registry>> {
        let shared = self.registry.get()?;
        Some(
            shared
                .read()
                .map(|r| r.clone())
                .unwrap_or_else(|poisoned| poisoned.into_inner().clone()),
        )
    }

    pub(crate) fn store(&self) -> &Store {
        &self.store
    }

    /// The policy decision for a call of a tool, as the guard would make it.
    pub(crate) fn decide(&self, registry: &Registry, tool: &str, arguments: &Value) -> Decision {
        match registry.tool(tool) {
            Some(t) => self.policies.policy(t.spec()).combine(&t.check(arguments)),
            None => Decision::Deny {
                reason: format!("there is no tool '{tool}'"),
            },
        }
    }

    /// Makes a schedule from `input`, said at `now` by `origin` in a conversation.
    ///
    /// # Errors
    /// `Invalid` with the field (a rule that does not parse or never fires, a tool call
    /// the guard refuses, too many schedules), `Forbidden` when the tool may never run
    /// or the person said no.
    pub async fn create(
        &self,
        input: NewSchedule,
        origin: &str,
        conversation_id: Option<String>,
        now: DateTime<Utc>,
    ) -> Result<ScheduleView, ServiceError> {
        let defined = self.define(input, None, now).await?;
        let total = self.store.count_schedules()?;
        if total >= MAX_SCHEDULES {
            return Err(invalid(
                "",
                format!("there are {total} schedules already, the most Deskmate keeps"),
                "delete schedules you no longer need",
            ));
        }
        let stored = StoredSchedule {
            id: format!("sch-{}", &uuid::Uuid::new_v4().simple().to_string()[..12]),
            created_by: created_by(origin).to_string(),
            conversation_id,
            ..defined
        };
        let created = self.store.create_schedule(&stored)?;
        self.wake.notify_one();
        Ok(view(&created))
    }

    /// Changes a schedule: `enabled` alone turns it on or off; a new time, zone or action
    /// redefines it, checked as a new one is (a tool that asks asks again, for the call
    /// and the rule it is now). What the change leaves out stays as it was.
    ///
    /// # Errors
    /// As [`Schedules::create`], and `NotFound`.
    pub async fn update(
        &self,
        id: &str,
        change: ScheduleChange,
        now: DateTime<Utc>,
    ) -> Result<ScheduleView, ServiceError> {
        let stored = self.store.schedule(id)?.ok_or_else(|| not_found(id))?;
        let Some((input, new_time)) = change.merged_with(&stored)? else {
            return match change.enabled {
                Some(enabled) => self.set_enabled(id, enabled, now),
                None => Ok(view(&stored)),
            };
        };
        let kept = (!new_time).then_some(&stored);
        let defined = self.define(input, kept, now).await?;
        let changed = self
            .store
            .redefine_schedule(&StoredSchedule {
                id: stored.id.clone(),
                ..defined
            })?
            .ok_or_else(|| not_found(id))?;
        self.wake.notify_one();
        Ok(view(&changed))
    }

    /// What `input` defines, checked: the rule parsed in its zone (the computer's when it
    /// names none) or the one `kept` has, its next time, the action and the consent it
    /// needs.
    async fn define(
        &self,
        input: NewSchedule,
        kept: Option<&StoredSchedule>,
        now: DateTime<Utc>,
    ) -> Result<StoredSchedule, ServiceError> {
        let errors = input::one_action(
            [
                input.message.is_some(),
                input.tool.is_some(),
                input.prompt.is_some(),
            ],
            input.arguments.is_some(),
        );
        if !errors.is_empty() {
            return Err(ServiceError::Invalid(errors));
        }
        let (rule, zone, when, next_at) = match kept.and_then(|k| parts(k).map(|p| (k, p))) {
            // The time the schedule had, as it was understood then ("in 2 hours" is not
            // read again from now).
            Some((kept, (rule, zone))) => {
                (rule, zone, kept.rule_text.clone(), kept.next_at.clone())
            }
            None => {
                let (rule, zone, when, next) = timing(&input, now)?;
                (rule, zone, when, Some(utc(next)))
            }
        };
        let words = Localized::new(rule.describe(zone, Lang::Zh), rule.describe(zone, Lang::En));
        let (action, consent) = match (input.message, input.tool, input.prompt) {
            (Some(message), _, _) => (
                Action::Reminder {
                    message: message.trim().to_string(),
                    speak: input.speak.unwrap_or(false),
                },
                None,
            ),
            (_, Some(tool), _) => {
                let arguments = Value::Object(input.arguments.unwrap_or_default());
                self.checked_call(&tool, arguments, &words).await?
            }
            (_, _, Some(prompt)) => (
                Action::Prompt {
                    prompt: prompt.trim().to_string(),
                },
                None,
            ),
            (None, None, None) => unreachable!("one_action requires one"),
        };
        Ok(StoredSchedule {
            action: serde_json::to_value(&action).unwrap_or(Value::Null),
            rule: serde_json::to_value(&rule).unwrap_or(Value::Null),
            rule_text: when,
            time_zone: zone.name().to_string(),
            next_at,
            enabled: input.enabled.unwrap_or(true),
            consent,
            ..StoredSchedule::default()
        })
    }

    /// A scheduled call as the guard prepares it, and the consent it needs: refused as
    /// the guard would refuse it now; a tool that asks asks now.
    async fn checked_call(
        &self,
        tool: &str,
        arguments: Value,
        words: &Localized,
    ) -> Result<(Action, Option<String>), ServiceError> {
        let registry = self.registry().ok_or(ServiceError::NoStore)?;
        let prepared = registry.guard().prepare(tool, arguments).map_err(|r| {
            let path = if r.error.error_type == deskmate_core::ErrorType::NotFound {
                "/tool"
            } else {
                "/arguments"
            };
            invalid(
                path,
                r.error.message.clone(),
                r.error
                    .hint
                    .clone()
                    .unwrap_or_else(|| "fix the call as the tool's schema says".into()),
            )
        })?;
        if tools::IDS.contains(&prepared.tool.as_str()) {
            return Err(invalid(
                "/tool",
                "a schedule cannot make, list or cancel schedules",
                "schedule the action itself",
            ));
        }
        let spec = registry
            .guard()
            .spec(&prepared.tool)
            .cloned()
            .ok_or_else(|| invalid("/tool", format!("there is no tool '{tool}'"), ""))?;
        let consent = match self.decide(&registry, &prepared.tool, &prepared.arguments) {
            Decision::Allow => None,
            Decision::Deny { reason } => {
                return Err(ServiceError::Forbidden(format!(
                    "{} cannot be scheduled: {reason}",
                    prepared.tool
                )));
            }
            Decision::Ask { reason } => {
                let answer = self
                    .confirmer
                    .confirm(ConfirmRequest {
                        call_id: format!("schedule-{}", uuid::Uuid::new_v4().simple()),
                        tool: prepared.tool.clone(),
                        tool_name: spec.name.clone(),
                        arguments: prepared.arguments.clone(),
                        repairs: prepared.repairs.clone(),
                        reason: Localized::new(
                            format!("定时（{}）：{}", words.zh, reason.zh),
                            format!("scheduled {}: {}", words.en, reason.en),
                        ),
                        side_effect: spec.side_effect,
                        // The yes is kept with the schedule, for this schedule only.
                        grants: vec![crate::hooks::Grant::Once],
                    })
                    .await;
                if !answer.approved() {
                    return Err(ServiceError::Forbidden(format!(
                        "the user did not agree to run {} {}",
                        prepared.tool, words.en
                    )));
                }
                Some(definition_fingerprint(&spec))
            }
        };
        Ok((
            Action::Tool {
                tool: prepared.tool,
                arguments: prepared.arguments,
            },
            consent,
        ))
    }

    /// Schedules, the next to fire first; a page and the total.
    pub fn list(&self, limit: u32, offset: u32) -> Result<(Vec<ScheduleView>, u64), ServiceError> {
        let (items, total) = self.store.list_schedules(limit, offset)?;
        Ok((items.iter().map(view).collect(), total))
    }

    /// One schedule.
    pub fn get(&self, id: &str) -> Result<ScheduleView, ServiceError> {
        self.store
            .schedule(id)?
            .map(|s| view(&s))
            .ok_or_else(|| not_found(id))
    }

    /// Turns a schedule on (its next occurrence counted from `now`) or off.
    pub fn set_enabled(
        &self,
        id: &str,
        enabled: bool,
        now: DateTime<Utc>,
    ) -> Result<ScheduleView, ServiceError> {
        let stored = self.store.schedule(id)?.ok_or_else(|| not_found(id))?;
        let next = if enabled {
            parts(&stored).and_then(|(rule, zone)| rule.next_after(now, zone))
        } else {
            None
        };
        let changed = self
            .store
            .set_schedule_enabled(id, enabled, next.map(utc).as_deref())?
            .ok_or_else(|| not_found(id))?;
        if enabled {
            self.wake.notify_one();
        }
        Ok(view(&changed))
    }

    /// Deletes a schedule and its runs.
    pub fn delete(&self, id: &str) -> Result<ScheduleView, ServiceError> {
        let stored = self.store.schedule(id)?.ok_or_else(|| not_found(id))?;
        if !self.store.delete_schedule(id)? {
            return Err(not_found(id));
        }
        Ok(view(&stored))
    }

    /// A schedule's runs, the latest first; a page and the total.
    pub fn runs(
        &self,
        id: &str,
        limit: u32,
        offset: u32,
    ) -> Result<(Vec<ScheduleRun>, u64), ServiceError> {
        if self.store.schedule(id)?.is_none() {
            return Err(not_found(id));
        }
        Ok(self.store.schedule_runs(id, limit, offset)?)
    }
}

/// The rule `input` says, in its zone (the computer's when it names none), with the
/// expression as given and the next time after `now`.
fn timing(
    input: &NewSchedule,
    now: DateTime<Utc>,
) -> Result<(Rule, Tz, String, DateTime<Utc>), ServiceError> {
    let zone = match input.time_zone.as_deref().map(str::trim) {
        None => local_zone(),
        Some(name) => Tz::from_str_insensitive(name).map_err(|_| {
            invalid(
                "/time_zone",
                format!("unknown time zone '{name}'"),
                "use an IANA name like 'Asia/Shanghai' or 'Europe/Berlin', or leave it out",
            )
        })?,
    };
    let when = input.when.trim().to_string();
    let rule = Rule::parse(&when, now, zone)
        .map_err(|e| invalid("/when", e.message(), "give a time expression as listed"))?;
    let Some(next) = rule.next_after(now, zone) else {
        return Err(invalid(
            "/when",
            format!("'{when}' never fires after now"),
            "give a time in the future",
        ));
    };
    Ok((rule, zone, when, next))
}

/// What the schedules table calls the front end that made one.
fn created_by(origin: &str) -> &'static str {
    match origin {
        "llm" | "chat" => "chat",
        "gui" => "gui",
        "mcp" => "mcp",
        "cli" => "cli",
        _ => "api",
    }
}

/// A stored schedule's rule and zone, when they read (a row written by a newer version
/// may not).
pub(crate) fn parts(stored: &StoredSchedule) -> Option<(Rule, Tz)> {
    let rule: Rule = serde_json::from_value(stored.rule.clone()).ok()?;
    let zone = Tz::from_str(&stored.time_zone).ok()?;
    Some((rule, zone))
}

/// A stored schedule as the API shows it.
pub fn view(stored: &StoredSchedule) -> ScheduleView {
    let parsed = parts(stored);
    let rule_words = match &parsed {
        Some((rule, zone)) => Localized::new(
            rule.describe(*zone, Lang::Zh),
            rule.describe(*zone, Lang::En),
        ),
        None => Localized::new(stored.rule_text.clone(), stored.rule_text.clone()),
    };
    let next_at_local = stored
        .next_at
        .as_deref()
        .and_then(|at| DateTime::parse_from_rfc3339(at).ok())
        .zip(parsed.as_ref().map(|(_, zone)| *zone))
        .map(|(at, zone)| at.with_timezone(&zone).to_rfc3339());
    ScheduleView {
        id: stored.id.clone(),
        action: serde_json::from_value(stored.action.clone()).unwrap_or(Action::Reminder {
            message: stored.action.to_string(),
            speak: false,
        }),
        when: stored.rule_text.clone(),
        rule_words,
        rule: stored.rule.clone(),
        time_zone: stored.time_zone.clone(),
        next_at: stored.next_at.clone(),
        next_at_local,
        enabled: stored.enabled,
        created_by: stored.created_by.clone(),
        conversation_id: stored.conversation_id.clone(),
        run_count: stored.run_count,
        last_run_at: stored.last_run_at.clone(),
        last_status: stored.last_status.clone(),
        last_result: stored
            .last_result
            .as_deref()
            .map(|text| serde_json::from_str(text).unwrap_or(Value::String(text.to_string()))),
        created_at: stored.created_at.clone(),
        updated_at: stored.updated_at.clone(),
    }
}
