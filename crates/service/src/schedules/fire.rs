//! Firing due schedules.
//!
//! - **Exactly once.** An occurrence fires only after its run row is inserted, keyed by
//!   (schedule, occurrence), in the transaction that moves the schedule on
//!   ([`deskmate_store::Store::claim_occurrence`]); two services on one data dir race on
//!   that insert and one wins. The call it makes carries the idempotency key
//!   `schedule:<id>:<occurrence>`.
//! - **Stopped mid-run.** A run still `running` whose claiming process is gone (its pid no
//!   longer exists), or a [`LEASE`] after its claim, was abandoned (the process was
//!   killed): it is recorded as failed, not lost and not run again.
//! - **Missed.** An occurrence more than [`ON_TIME`] late came due while nothing ran. A
//!   reminder missed by less than the grace (the `schedules.missed_reminder_grace_minutes`
//!   setting, default 60) still fires, saying when it was due; anything else — older
//!   reminders, tool calls, prompts — is recorded as missed and not run late (a volume
//!   change meant for 9:00 must not happen at 15:00). A recurring schedule then goes on
//!   from now.
//! - **The clock is injected**: [`Deskmate::fire_due`] takes `now`, so tests drive time
//!   without sleeping; [`Deskmate::run_schedules`] is the loop with the real clock.

use std::time::Duration;

use chrono::{DateTime, Utc};
use deskmate_store::schedules::{RunStatus, StoredSchedule, utc};
use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;

use super::{Action, Schedules, definition_fingerprint, parts};
use crate::language::Language;
use crate::{CallRequest, Deskmate, ServiceError};

/// How late an occurrence may fire and still be on time.
pub const ON_TIME: chrono::TimeDelta = chrono::TimeDelta::minutes(2);
/// A run still running this long after its claim was abandoned.
pub const LEASE: chrono::TimeDelta = chrono::TimeDelta::minutes(15);
/// The setting: how late a missed reminder may still fire (minutes).
pub const GRACE_SETTING: &str = "schedules.missed_reminder_grace_minutes";
/// Its default.
pub const DEFAULT_GRACE_MINUTES: i64 = 60;
/// Longest sleep of the scheduler: a schedule another process adds is seen this late at
/// the most.
const MAX_SLEEP: Duration = Duration::from_secs(30);

/// What came of one occurrence this process claimed.
#[derive(Debug, Clone, PartialEq)]
pub struct Fired {
    /// The schedule.
    pub schedule_id: String,
    /// The occurrence (UTC, the store's form).
    pub occurrence: String,
    /// How it ended.
    pub status: RunStatus,
    /// The call's result, the turn's reply, or why it failed or was missed.
    pub result: Value,
}

impl Deskmate {
    fn schedules(&self) -> Result<&Schedules, ServiceError> {
        Ok(&self.stored()?.schedules)
    }

    /// The schedules of this data dir.
    ///
    /// # Errors
    /// `NoStore` for a service without a data dir.
    pub fn schedule_book(&self) -> Result<&Schedules, ServiceError> {
        self.schedules()
    }

    /// Fires every occurrence due at `now` that no other process claimed, and records
    /// abandoned runs as failed; returns what this process fired or recorded missed.
    ///
    /// # Errors
    /// The database failed.
    pub async fn fire_due(&self, now: DateTime<Utc>) -> Result<Vec<Fired>, ServiceError> {
        let schedules = self.schedules()?;
        let store = schedules.store();
        let interrupted =
            json!({"error": "the run was interrupted: Deskmate stopped before it finished"});
        store.fail_abandoned_runs(&utc(now - LEASE), &interrupted, &utc(now))?;
        // A run whose process is gone (killed, crashed) fails now, not a lease later.
        for (schedule, occurrence, claimer) in store.running_runs()? {
            if claimer_gone(&claimer, &schedules.claimer) {
                store.fail_run(&schedule, &occurrence, &interrupted, &utc(now))?;
            }
        }
        let grace = self
            .setting_i64(GRACE_SETTING)
            .unwrap_or(DEFAULT_GRACE_MINUTES)
            .clamp(0, 1440);
        let mut fired = Vec::new();
        loop {
            let due = store.due_schedules(&utc(now), 100)?;
            if due.is_empty() {
                break;
            }
            let mut progress = false;
            for schedule in &due {
                let (claimed, outcome) = self
                    .fire_one(schedules, schedule, now, chrono::TimeDelta::minutes(grace))
                    .await?;
                progress |= claimed;
                fired.extend(outcome);
            }
            if !progress && due.len() < 100 {
                break;
            }
        }
        Ok(fired)
    }

    fn setting_i64(&self, key: &str) -> Option<i64> {
        self.stored()
            .ok()?
            .store
            .setting(key)
            .ok()
            .flatten()
            .and_then(|v| v.as_i64())
    }

    /// Claims and fires one due occurrence. `(false, None)` when another process had it.
    async fn fire_one(
        &self,
        schedules: &Schedules,
        schedule: &StoredSchedule,
        now: DateTime<Utc>,
        grace: chrono::TimeDelta,
    ) -> Result<(bool, Option<Fired>), ServiceError> {
        let store = schedules.store();
        let Some(occurrence) = schedule.next_at.clone() else {
            return Ok((false, None));
        };
        let due = DateTime::parse_from_rfc3339(&occurrence)
            .map(|at| at.with_timezone(&Utc))
            .unwrap_or(now);
        let late = now - due;
        let parsed = parts(schedule);
        let action: Option<Action> = serde_json::from_value(schedule.action.clone()).ok();
        // A recurring schedule goes on from now: the occurrences missed in between are
        // not run late.
        let next = parsed
            .as_ref()
            .and_then(|(rule, zone)| rule.next_after(now.max(due), *zone));
        let missed = match (&action, &parsed) {
            _ if late <= ON_TIME => None,
            (Some(Action::Reminder { .. }), Some(_)) if late <= grace => None,
            (Some(_), Some(_)) => Some(json!({
                "missed": format!("due at {occurrence}, when Deskmate was not running; not run late"),
            })),
            _ => None,
        };
        let claimed = store.claim_occurrence(
            &schedule.id,
            &occurrence,
            next.map(utc).as_deref(),
            &schedules.claimer,
            &utc(now),
            missed.as_ref(),
        )?;
        if !claimed {
            return Ok((false, None));
        }
        let (status, result) = match (missed, action, parsed) {
            (Some(why), _, _) => (RunStatus::Missed, why),
            (None, Some(action), Some(_)) => {
                self.run_action(schedule, action, &occurrence, late > ON_TIME)
                    .await
            }
            (None, _, _) => (
                RunStatus::Failed,
                json!({"error": "the stored schedule cannot be read by this version of Deskmate"}),
            ),
        };
        if status != RunStatus::Missed {
            store.finish_run(&schedule.id, &occurrence, status, &result, &utc(now))?;
        }
        tracing::info!(schedule = %schedule.id, %occurrence, ?status, "schedule fired");
        Ok((
            true,
            Some(Fired {
                schedule_id: schedule.id.clone(),
                occurrence,
                status,
                result,
            }),
        ))
    }

    /// Runs what a schedule does, through the guard like any call (origin `schedule`).
    async fn run_action(
        &self,
        schedule: &StoredSchedule,
        action: Action,
        occurrence: &str,
        late: bool,
    ) -> (RunStatus, Value) {
        let request = |tool: &str, arguments: Value, confirmed: bool| CallRequest {
            tool: tool.to_string(),
            arguments,
            idem_key: Some(format!("schedule:{}:{occurrence}:{tool}", schedule.id)),
            conversation_id: schedule.conversation_id.clone(),
            turn_id: None,
            before: deskmate_tools::Before::Head,
            origin: "schedule".into(),
            client: None,
            repairs: Vec::new(),
            confirmed,
            cancel: None,
        };
        match action {
            Action::Reminder { message, speak } => {
                let zh = Language::of(&message, None).zh();
                let due = local_time(schedule, occurrence);
                let body = match (late, zh) {
                    (false, _) => message.clone(),
                    (true, true) => format!("{message}（本应在 {due} 提醒）"),
                    (true, false) => format!("{message} (missed at {due})"),
                };
                let title = if zh { "提醒" } else { "Reminder" };
                // The person asked for this reminder when they made it.
                let shown = self
                    .call(request(
                        "text_msg_prompt",
                        json!({"message": body, "title": title}),
                        true,
                    ))
                    .await;
                let mut ok = shown.ok;
                let mut result = json!({"shown": shown});
                if speak {
                    let said = self
                        .call(request("voice_msg_prompt", json!({"message": body}), true))
                        .await;
                    ok &= said.ok;
                    result["spoken"] = serde_json::to_value(&said).unwrap_or(Value::Null);
                }
                self.note_in_conversation(schedule, occurrence, &body);
                (status(ok), result)
            }
            Action::Tool { tool, arguments } => {
                // A yes given when the schedule was made holds for the definition it was
                // given for; a changed tool asks again (its policy decides how).
                let registry = self.registry();
                let confirmed = match (&schedule.consent, registry.guard().spec(&tool)) {
                    (Some(consent), Some(spec)) => *consent == definition_fingerprint(spec),
                    _ => false,
                };
                let result = self.call(request(&tool, arguments, confirmed)).await;
                (
                    status(result.ok),
                    serde_json::to_value(&result).unwrap_or(Value::Null),
                )
            }
            Action::Prompt { prompt } => {
                let conversation_id = schedule.conversation_id.clone().filter(|id| {
                    matches!(
                        self.stored().map(|s| s.store.conversation(id)),
                        Ok(Ok(Some(_)))
                    )
                });
                // The agent runs the turn; the service only knows it as a runner.
                let Some(runner) = self.turn_runner() else {
                    return (
                        RunStatus::Failed,
                        json!({"error": "no agent runs chat turns in this process"}),
                    );
                };
                match runner.run_turn(prompt, conversation_id).await {
                    Ok(outcome) => {
                        // The answer is shown as a notification, as a reminder is: the
                        // person asked for it to come to them.
                        let shown: String = outcome.reply.chars().take(1000).collect();
                        let shown = self
                            .call(request(
                                "text_msg_prompt",
                                json!({"message": shown, "title": "Deskmate"}),
                                true,
                            ))
                            .await;
                        (
                            status(shown.ok),
                            json!({"conversation_id": outcome.conversation_id, "reply": outcome.reply,
                                   "shown": shown}),
                        )
                    }
                    Err(e) => (RunStatus::Failed, json!({"error": e.to_string()})),
                }
            }
        }
    }

    /// A reminder made in a conversation is also a line of it, so the window shows it
    /// and the model knows, later in that conversation, what it reminded of. The line is
    /// an assistant message marked as a reminder; a conversation deleted since is left
    /// alone.
    fn note_in_conversation(&self, schedule: &StoredSchedule, occurrence: &str, text: &str) {
        let Some(conversation_id) = schedule.conversation_id.as_deref() else {
            return;
        };
        let Ok(stored) = self.stored() else {
            return;
        };
        if !matches!(stored.store.conversation(conversation_id), Ok(Some(_))) {
            return;
        }
        let line = json!({
            "role": "assistant",
            "content": text,
            "deskmate": {"kind": "reminder", "schedule_id": schedule.id, "occurrence": occurrence},
        });
        if let Err(error) = stored.store.append_messages(conversation_id, None, &[line]) {
            tracing::warn!(%error, schedule = %schedule.id, "the reminder could not be added to its conversation");
        }
    }

    /// Fires due schedules until `stop`: sleeps until the next occurrence (at most
    /// 30 s, so schedules another process adds are seen), woken early when one is added.
    pub async fn run_schedules(&self, stop: CancellationToken) {
        let Ok(schedules) = self.schedules() else {
            return;
        };
        loop {
            let now = Utc::now();
            if let Err(error) = self.fire_due(now).await {
                tracing::warn!(%error, "firing schedules failed");
            }
            let next = schedules
                .store()
                .next_due()
                .ok()
                .flatten()
                .and_then(|at| DateTime::parse_from_rfc3339(&at).ok())
                .map(|at| at.with_timezone(&Utc));
            let wait = next
                .map(|at| (at - Utc::now()).to_std().unwrap_or(Duration::ZERO))
                .unwrap_or(MAX_SLEEP)
                .min(MAX_SLEEP);
            tokio::select! {
                () = tokio::time::sleep(wait) => {}
                () = schedules.wake.notified() => {}
                () = stop.cancelled() => return,
            }
        }
    }
}

/// Whether the process that claimed a run is gone: a claimer is `<pid>-<nonce>`; this
/// process's own runs and claimers of another form are never judged gone (the lease
/// covers them), nor is a pid that is alive (whatever process it is now).
fn claimer_gone(claimer: &str, own: &str) -> bool {
    if claimer == own {
        return false;
    }
    let Some(pid) = claimer
        .split_once('-')
        .and_then(|(pid, _)| pid.parse::<u32>().ok())
    else {
        return false;
    };
    cfg!(target_os = "linux") && !std::path::Path::new(&format!("/proc/{pid}")).exists()
}

fn status(ok: bool) -> RunStatus {
    if ok {
        RunStatus::Succeeded
    } else {
        RunStatus::Failed
    }
}

/// An occurrence in its schedule's zone, `2026-12-04 09:00`.
fn local_time(schedule: &StoredSchedule, occurrence: &str) -> String {
    let zone = parts(schedule).map_or(chrono_tz::Tz::UTC, |(_, zone)| zone);
    DateTime::parse_from_rfc3339(occurrence).map_or_else(
        |_| occurrence.to_string(),
        |at| at.with_timezone(&zone).format("%Y-%m-%d %H:%M").to_string(),
    )
}
