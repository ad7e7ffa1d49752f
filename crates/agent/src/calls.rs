//! One reply's calls: each through `Deskmate::call`, in the model's order — reads next to
//! each other run concurrently, but never past a write (a read after a write sees what it
//! wrote, a read before it what was there); writes one at a time, with compensation and
//! skipping.
//!
//! A call identical to one that already succeeded in an earlier step of the turn (same
//! tool, same arguments after the guard's normalization) is not run again: it gets the
//! earlier result with the status `repeated`, and the model is told so. In one reply, an
//! identical call runs again when its tool is not idempotent ("turn it up twice"). A
//! write whose arguments the guard rejects is still a write: it fails in its place in the
//! order, and later writes are skipped. When the turn is stopped, a call in flight ends,
//! what has not started is skipped, and the reply's finished writes are undone.

use std::collections::HashMap;

use deskmate_core::{
    ErrorType, Localized, Repair, RepairRule, SideEffect, ToolError, ToolResult, ToolSpec,
};
use deskmate_llm::extract::Extracted;
use deskmate_llm::wire::ToolCall;
use deskmate_service::CallRequest;
use serde_json::{Value, json};
use tokio::sync::mpsc::UnboundedSender;
use tokio_util::sync::CancellationToken;

use crate::agent::Agent;
use crate::types::{AgentEvent, CallStatus, emit};

/// What every call of a turn shares.
#[derive(Clone, Copy)]
pub(crate) struct TurnContext<'a> {
    /// Only these tools may run (every enabled tool when absent).
    pub offered: Option<&'a [String]>,
    /// The conversation the calls belong to.
    pub conversation_id: &'a str,
    /// This turn's id (with the conversation, the scope of keys tools derive).
    pub turn_id: &'a str,
    /// The person writes Chinese: summaries in Chinese.
    pub zh: bool,
    /// What the person asked: their message of this turn and the one before it (a
    /// follow-up such as "a bit more" names its subject in the earlier one).
    pub asked: &'a [String],
    /// Where the calls are reported.
    pub events: &'a UnboundedSender<AgentEvent>,
    /// Fires when the person stops the turn.
    pub cancel: &'a CancellationToken,
}

/// What one call of a reply came to.
#[derive(Debug, Clone)]
pub(crate) struct Outcome {
    /// The call as the model made it (with the id the turn gave it).
    pub call: ToolCall,
    /// The tool it resolved to (the name as written when it resolved to none).
    pub tool: String,
    /// How it ended.
    pub status: CallStatus,
    /// Its result (for a repeated call, the earlier one's).
    pub result: ToolResult,
    /// The tool and its arguments as the guard normalized them (as written when the
    /// guard refused them): two spellings of one call have one key.
    pub key: String,
}

impl Outcome {
    /// A failure no other call can fix in this turn: the device or service is not there
    /// (not found, with no valid values to choose from instead), a person or a policy
    /// refused the call, or a call that may not simply be made again (`retriable` false:
    /// a question the person did not answer, a write that may have happened) timed out.
    /// After one, the model may only answer.
    pub(crate) fn settles(&self, retriable: bool) -> bool {
        self.status == CallStatus::NotAsked
            || self.status == CallStatus::Failed
                && match self.result.error_type {
                    Some(ErrorType::Denied) => true,
                    Some(ErrorType::NotFound) => self.result.options.is_empty(),
                    Some(ErrorType::Timeout) => !retriable,
                    _ => false,
                }
    }

    /// An outcome of `tool` called with `arguments` (JSON text), for tests.
    #[cfg(test)]
    pub(crate) fn of(tool: &str, arguments: &str, status: CallStatus, result: ToolResult) -> Self {
        Self {
            call: ToolCall {
                id: "c".into(),
                kind: "function".into(),
                function: deskmate_llm::wire::FunctionCall {
                    name: tool.into(),
                    arguments: arguments.into(),
                },
            },
            tool: tool.into(),
            status,
            result,
            key: format!("{tool}\n{}", canonical_arguments(arguments)),
        }
    }

    /// A failure that calling again as it was may get past: the tool said it was
    /// passing (busy, restarting), or a call that may be made again (`retriable`) timed
    /// out. A write that timed out may have happened, and a question that timed out was
    /// put to a person who did not answer: neither is made again unasked.
    pub(crate) fn passing(&self, retriable: bool) -> bool {
        self.status == CallStatus::Failed
            && match self.result.error_type {
                Some(ErrorType::Transient) => true,
                Some(ErrorType::Timeout) => retriable,
                _ => false,
            }
    }
}

/// The results of the calls that succeeded so far in a turn, by call key, each with
/// whether it was a read (a read's result is stale once a write ran after it).
pub(crate) type Succeeded = HashMap<String, (ToolResult, bool)>;

/// Object keys sorted at every level, so two spellings of the same arguments compare equal.
fn canonical(value: &Value) -> String {
    fn sorted(value: &Value) -> Value {
        match value {
            Value::Object(map) => {
                let mut keys: Vec<&String> = map.keys().collect();
                keys.sort();
                Value::Object(
                    keys.into_iter()
                        .map(|k| (k.clone(), sorted(&map[k])))
                        .collect(),
                )
            }
            Value::Array(items) => Value::Array(items.iter().map(sorted).collect()),
            other => other.clone(),
        }
    }
    sorted(value).to_string()
}

/// The raw arguments, canonical when they are JSON.
pub(crate) fn canonical_arguments(arguments: &str) -> String {
    serde_json::from_str::<Value>(arguments)
        .map(|v| canonical(&v))
        .unwrap_or_else(|_| arguments.trim().to_string())
}

/// A call ready to run: the request, its spec (when the name resolves), its key.
struct Planned {
    request: CallRequest,
    spec: Option<ToolSpec>,
    tool: String,
    key: String,
}

impl Planned {
    fn is_read(&self) -> bool {
        reads(self.spec.as_ref())
    }

    /// Whether running it again has no further effect: a read, or an idempotent tool.
    fn repeatable(&self) -> bool {
        self.spec
            .as_ref()
            .is_none_or(|s| s.idempotent || s.side_effect == SideEffect::Read)
    }
}

/// Whether a call of the tool with `spec` only reads; one whose name resolves to no tool
/// runs nothing, so it counts as a read.
pub(crate) fn reads(spec: Option<&ToolSpec>) -> bool {
    spec.is_none_or(|s| s.side_effect == SideEffect::Read)
}

/// Whether a call of the tool with `spec` may simply be made again after a timeout: it
/// only reads and a second call has no effect of its own. A question put to the person
/// reads, but is not idempotent: asking again puts it to them again.
pub(crate) fn retriable(spec: Option<&ToolSpec>) -> bool {
    spec.is_none_or(|s| s.side_effect == SideEffect::Read && s.idempotent)
}

/// Where a call's result comes from when it is not run.
enum Reuse {
    /// An earlier step of the turn.
    Earlier(ToolResult),
    /// An earlier call of the same reply.
    Twin(usize),
}

impl Agent {
    /// Runs one reply's calls and reports each as it starts and ends.
    pub(crate) async fn run_calls(
        &self,
        calls: &[ToolCall],
        extracted: Option<&Extracted>,
        turn: &TurnContext<'_>,
        succeeded: &mut Succeeded,
    ) -> Vec<Outcome> {
        let TurnContext {
            offered,
            conversation_id,
            turn_id,
            zh,
            asked,
            events,
            cancel,
        } = *turn;
        let registry = self.deskmate.registry();
        let guard = registry.guard();
        // A tool the turn did not offer is not run, whatever the registry has.
        let mut refused: Vec<Option<(CallStatus, ToolError)>> = calls
            .iter()
            .map(|call| {
                let ids = offered?;
                deskmate_core::resolve::resolve_name(
                    &call.function.name,
                    ids.iter().map(String::as_str),
                )
                .err()
                .map(|error| (CallStatus::Failed, error))
            })
            .collect();
        let mut planned = Vec::new();
        for (i, call) in calls.iter().enumerate() {
            emit(
                events,
                AgentEvent::ToolCall {
                    id: call.id.clone(),
                    name: call.function.name.clone(),
                    arguments: call.function.arguments.clone(),
                    extracted: extracted.map(|x| x.kind.as_str().to_string()),
                },
            );
            let arguments = Value::String(call.function.arguments.clone());
            let prepared = guard.prepare(&call.function.name, arguments.clone());
            // The spec comes from the name alone, so a write with invalid arguments is
            // still ordered and judged as a write.
            let spec = guard.resolve(&call.function.name).ok().cloned();
            let tool = spec
                .as_ref()
                .map_or_else(|| call.function.name.clone(), |s| s.id.clone());
            let key = match &prepared {
                Ok(p) => format!("{}\n{}", p.tool, canonical(&p.arguments)),
                Err(_) => format!("{tool}\n{}", canonical_arguments(&call.function.arguments)),
            };
            let mut request = CallRequest::new(call.function.name.clone(), arguments);
            request.conversation_id = Some(conversation_id.to_string());
            request.turn_id = Some(turn_id.to_string());
            request.origin = "llm".into();
            if let Some(found) = extracted {
                request.repairs.push(Repair {
                    path: String::new(),
                    from: Value::String(found.sources.get(i).cloned().unwrap_or_default()),
                    to: json!({"name": call.function.name, "arguments": call.function.arguments}),
                    rule: RepairRule::ExtractedFromContent,
                });
            }
            planned.push(Planned {
                request,
                spec,
                tool,
                key,
            });
        }

        // A tool whose subject the person did not name may be a stand-in for what they
        // asked (the camera for the lights, the volume for the screen's brightness) — or
        // a real request in words no list has ("开大点"). The person decides: asked
        // first, it runs on a yes and is not run on a no (or with nobody to ask).
        for (i, p) in planned.iter_mut().enumerate() {
            if refused[i].is_some() {
                continue;
            }
            let Some(subjects) = registry.tool(&p.tool).map(|t| t.subjects()) else {
                continue;
            };
            if subjects.is_empty()
                || asked
                    .iter()
                    .any(|m| deskmate_tools::words::mentions_any(m, subjects))
            {
                continue;
            }
            let named: Vec<&str> = subjects.iter().take(4).copied().collect();
            let approved = self
                .deskmate
                .confirm_batch(deskmate_service::hooks::ConfirmRequest {
                    call_id: calls[i].id.clone(),
                    tool: p.tool.clone(),
                    tool_name: p.spec.as_ref().map_or_else(
                        || Localized::new(p.tool.clone(), p.tool.clone()),
                        |s| s.name.clone(),
                    ),
                    arguments: serde_json::from_str(&calls[i].function.arguments)
                        .unwrap_or_else(|_| json!({})),
                    repairs: Vec::new(),
                    reason: Localized::new(
                        format!(
                            "消息里没有提到 {} 作用的对象（{}）",
                            p.tool,
                            named.join("、")
                        ),
                        format!(
                            "the message does not mention what {} acts on ({})",
                            p.tool,
                            named.join(", ")
                        ),
                    ),
                    side_effect: p.spec.as_ref().map_or(SideEffect::Write, |s| s.side_effect),
                    // About this message's words: a yes does not carry over.
                    grants: vec![deskmate_service::hooks::Grant::Once],
                })
                .await;
            if approved {
                p.request.confirmed = true;
            } else {
                refused[i] = Some((CallStatus::NotAsked, not_asked(&p.tool, subjects)));
            }
        }

        let reuse: Vec<Option<Reuse>> = planned
            .iter()
            .enumerate()
            .map(|(i, p)| {
                if refused[i].is_some() {
                    return None;
                }
                if let Some((earlier, _)) = succeeded.get(&p.key) {
                    return Some(Reuse::Earlier(earlier.clone()));
                }
                // The same call twice in one reply is asked for twice unless a second run
                // changes nothing — and a read after a write reads again.
                if !p.repeatable() {
                    return None;
                }
                planned[..i]
                    .iter()
                    .position(|q| q.key == p.key)
                    .filter(|&j| refused[j].is_none())
                    .filter(|&j| planned[j + 1..i].iter().all(Planned::is_read))
                    .map(Reuse::Twin)
            })
            .collect();
        let runs = |i: usize| refused[i].is_none() && reuse[i].is_none();

        // An irreversible call among several: one confirmation for the whole batch, asked
        // before anything runs, so a "no" leaves nothing half done.
        let irreversible = planned.iter().enumerate().find(|(i, p)| {
            runs(*i)
                && p.spec
                    .as_ref()
                    .is_some_and(|s| s.side_effect == SideEffect::Irreversible)
        });
        if calls.len() > 1
            && let Some((_, Planned { tool, .. })) = irreversible
        {
            let listed: Vec<Value> = calls
                .iter()
                .map(|c| json!({"tool": c.function.name, "arguments": c.function.arguments}))
                .collect();
            let approved = self
                .deskmate
                .confirm_batch(deskmate_service::hooks::ConfirmRequest {
                    call_id: format!("batch-{}", uuid::Uuid::new_v4().simple()),
                    tool: "batch".into(),
                    tool_name: Localized::new(
                        format!("{} 个调用", calls.len()),
                        format!("{} calls", calls.len()),
                    ),
                    arguments: Value::Array(listed),
                    repairs: Vec::new(),
                    reason: Localized::new(
                        format!("这 {} 个调用一起执行，而 {tool} 无法撤销", calls.len()),
                        format!(
                            "these {} calls run together and {tool} cannot be undone",
                            calls.len(),
                        ),
                    ),
                    side_effect: SideEffect::Irreversible,
                    grants: vec![deskmate_service::hooks::Grant::Once],
                })
                .await;
            if !approved {
                return calls
                    .iter()
                    .zip(&planned)
                    .map(|(call, p)| {
                        let error = ToolError::new(
                            ErrorType::Denied,
                            "the user did not confirm this batch of calls",
                        )
                        .with_hint("do not retry unless the user asks again");
                        // Refused, not merely not reached: the model may only answer now,
                        // and the person is not asked again.
                        finish(
                            events,
                            zh,
                            call,
                            &p.tool,
                            &p.key,
                            CallStatus::Failed,
                            ToolResult::failure(error),
                        )
                    })
                    .collect();
            }
            for p in &mut planned {
                p.request.confirmed = true;
            }
        }

        let mut outcomes: Vec<Option<(CallStatus, ToolResult)>> = refused
            .iter()
            .map(|r| {
                r.clone()
                    .map(|(status, error)| (status, ToolResult::failure(error)))
            })
            .collect();
        // In the model's order: the reads next to each other together, each write alone.
        let mut done: Vec<usize> = Vec::new();
        let mut failed = false;
        let mut next = 0;
        while next < planned.len() {
            if !runs(next) {
                next += 1;
                continue;
            }
            if cancel.is_cancelled() {
                outcomes[next] = Some((CallStatus::Skipped, stopped()));
                next += 1;
                continue;
            }
            if planned[next].is_read() {
                let group: Vec<usize> = (next..planned.len())
                    .take_while(|&i| !runs(i) || planned[i].is_read())
                    .filter(|&i| runs(i))
                    .collect();
                next = group.last().map_or(next, |&last| last + 1);
                // A read may wait on a person (a choice) or a slow service: stopping the
                // turn abandons it, which changes nothing.
                let reads = group.iter().map(|&i| {
                    let request = planned[i].request.clone();
                    async move {
                        tokio::select! {
                            result = self.deskmate.call(request) => (i, Some(result)),
                            () = cancel.cancelled() => (i, None),
                        }
                    }
                });
                for (i, result) in futures_util::future::join_all(reads).await {
                    outcomes[i] = Some(match result {
                        Some(result) if result.ok => (CallStatus::Done, result),
                        Some(result) => (CallStatus::Failed, result),
                        None => (CallStatus::Skipped, stopped()),
                    });
                }
                continue;
            }
            let i = next;
            next += 1;
            if failed {
                let error =
                    ToolError::transient("not run: an earlier write in the same turn failed")
                        .with_hint("fix the failed call first, then ask for this one again");
                outcomes[i] = Some((CallStatus::Skipped, ToolResult::failure(error)));
                continue;
            }
            // A write in flight is not abandoned (it may be half done): it ends, and is
            // undone below when the turn was stopped meanwhile.
            let result = self.deskmate.call(planned[i].request.clone()).await;
            if result.ok {
                done.push(i);
                outcomes[i] = Some((CallStatus::Done, result));
            } else {
                failed = true;
                outcomes[i] = Some((CallStatus::Failed, result));
                self.undo(&planned, &done, &mut outcomes, conversation_id)
                    .await;
                done.clear();
            }
        }
        if cancel.is_cancelled() {
            self.undo(&planned, &done, &mut outcomes, conversation_id)
                .await;
        }
        for (i, reuse) in reuse.iter().enumerate() {
            let result = match reuse {
                Some(Reuse::Earlier(result)) => result.clone(),
                Some(Reuse::Twin(j)) => match &outcomes[*j] {
                    Some((_, result)) => result.clone(),
                    None => continue,
                },
                None => continue,
            };
            outcomes[i] = Some((CallStatus::Repeated, result));
        }
        let finished: Vec<Outcome> = calls
            .iter()
            .zip(&planned)
            .zip(outcomes)
            .map(|((call, p), outcome)| {
                let (status, result) = outcome.unwrap_or_else(|| {
                    (
                        CallStatus::Failed,
                        ToolResult::failure(ToolError::internal("the call was lost")),
                    )
                });
                finish(events, zh, call, &p.tool, &p.key, status, result)
            })
            .collect();
        // A write that ran makes every earlier read stale: read again, not reused.
        let last_write = finished.iter().zip(&planned).rposition(|(o, p)| {
            !p.is_read() && matches!(o.status, CallStatus::Done | CallStatus::Compensated)
        });
        if last_write.is_some() {
            succeeded.retain(|_, (_, read)| !*read);
        }
        for (i, (outcome, p)) in finished.iter().zip(&planned).enumerate() {
            let stale = p.is_read() && last_write.is_some_and(|w| w > i);
            if outcome.status == CallStatus::Done && !stale {
                succeeded.insert(p.key.clone(), (outcome.result.clone(), p.is_read()));
            }
        }
        finished
    }

    /// Undoes the writes at `done` (indexes into `planned`), newest first, marking each
    /// undone one `compensated`.
    async fn undo(
        &self,
        planned: &[Planned],
        done: &[usize],
        outcomes: &mut [Option<(CallStatus, ToolResult)>],
        conversation_id: &str,
    ) {
        for &j in done.iter().rev() {
            let Some((_, result)) = outcomes[j].clone() else {
                continue;
            };
            if self
                .compensate(&planned[j].spec, &result, conversation_id)
                .await
                && let Some(entry) = outcomes[j].as_mut()
            {
                entry.0 = CallStatus::Compensated;
            }
        }
    }

    /// Runs a write's compensation: the tool its spec names, with the arguments its
    /// result put under `undo`. Returns whether it was undone.
    async fn compensate(
        &self,
        spec: &Option<ToolSpec>,
        result: &ToolResult,
        conversation_id: &str,
    ) -> bool {
        let Some(compensation) = spec.as_ref().and_then(|s| s.compensation.clone()) else {
            return false;
        };
        let Some(undo) = result.data.get("undo").filter(|u| u.is_object()) else {
            return false;
        };
        let mut request = CallRequest::new(compensation.tool, undo.clone());
        request.conversation_id = Some(conversation_id.to_string());
        request.origin = "compensation".into();
        self.deskmate.call(request).await.ok
    }
}

/// Why a call of a tool whose subject the person did not name is not run.
fn not_asked(tool: &str, subjects: &[&str]) -> ToolError {
    let named: Vec<&str> = subjects.iter().take(4).copied().collect();
    ToolError::new(
        ErrorType::Denied,
        format!(
            "not run: the user did not ask for this. {tool} is only for requests about {}, \
             and the user's message mentions none of that",
            named.join(", ")
        ),
    )
    .with_hint(
        "do not call it; answer the user directly, and if no tool does what they asked, say so",
    )
}

/// The result of a call not run because the person stopped the turn.
fn stopped() -> ToolResult {
    ToolResult::failure(
        ToolError::new(ErrorType::Denied, "not run: the user stopped the turn")
            .with_hint("do not call it again unless the user asks again"),
    )
}

/// Reports a call's end and wraps it up.
fn finish(
    events: &UnboundedSender<AgentEvent>,
    zh: bool,
    call: &ToolCall,
    tool: &str,
    key: &str,
    status: CallStatus,
    result: ToolResult,
) -> Outcome {
    emit(
        events,
        AgentEvent::ToolResult {
            id: call.id.clone(),
            name: call.function.name.clone(),
            status,
            summary: crate::summary::line(tool, status, &result, zh),
            result: Box::new(result.clone()),
        },
    );
    Outcome {
        call: call.clone(),
        tool: tool.to_string(),
        status,
        result,
        key: key.to_string(),
    }
}

/// What the model reads for a call: its result, with the status when it is not a plain
/// success. The extraction record is for the person, not the model: told that its call
/// was "repaired" from its own text, a model apologizes for an error it did not make.
pub(crate) fn model_text(outcome: &Outcome) -> String {
    let mut result = outcome.result.clone();
    result
        .repairs
        .retain(|r| r.rule != RepairRule::ExtractedFromContent);
    // `undo` is for the loop's compensation, not news for the person: shown to the model
    // it turns into "to undo this, turn the volume down by 10%" in the reply. The tool's
    // own line (`said`) is for the person: the model reads the data it was made from,
    // and the line in two languages would double what it evaluates (a dataset's line
    // writes its table out) and push the data past the cut below.
    if let Some(data) = result.data.as_object_mut() {
        data.remove("undo");
        data.remove(deskmate_tools::said::KEY);
    }
    let text = shortened(result.to_llm_text());
    match outcome.status {
        CallStatus::Done => text,
        CallStatus::Repeated => format!(
            "[status: already done] This exact call already ran in this turn, so it was not \
             run again. Its result: {text}\nDo not call it again; answer the user with this result."
        ),
        other => format!("[status: {}] {text}", other.as_str()),
    }
}

/// Most characters of one result the model reads. Every token of a result is prompt the
/// model evaluates before it answers (~35 tokens/s on two cores for the local model): a
/// dataset description of 50 columns was 40 s of it, and the reply then recited the
/// table. The person sees the whole result in the chat's card; the model reads enough to
/// answer in a sentence or two.
const MODEL_TEXT_MAX: usize = 1_200;

/// `text` cut to [`MODEL_TEXT_MAX`] characters, saying how much was left out.
fn shortened(text: String) -> String {
    let total = text.chars().count();
    if total <= MODEL_TEXT_MAX {
        return text;
    }
    let kept: String = text.chars().take(MODEL_TEXT_MAX).collect();
    format!(
        "{kept}… [{} more characters not shown here; the user sees the whole result]",
        total - MODEL_TEXT_MAX
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_result_is_cut_for_the_model_and_says_so() {
        assert_eq!(shortened("short".into()), "short");
        let long = "数".repeat(MODEL_TEXT_MAX + 5);
        let cut = shortened(long);
        assert!(
            cut.starts_with(&"数".repeat(MODEL_TEXT_MAX)),
            "cut on characters"
        );
        assert!(
            cut.ends_with("[5 more characters not shown here; the user sees the whole result]")
        );
    }

    #[test]
    fn a_passing_failure_is_one_the_tool_says_passes_or_a_read_that_timed_out() {
        let failed = |error: ToolError| {
            Outcome::of("t", "{}", CallStatus::Failed, ToolResult::failure(error))
        };
        assert!(failed(ToolError::transient("busy")).passing(false));
        let timed_out = failed(ToolError::new(ErrorType::Timeout, "slow"));
        assert!(timed_out.passing(true));
        assert!(
            !timed_out.passing(false),
            "a write that timed out may have happened"
        );
        assert!(!failed(ToolError::validation("bad")).passing(true));
    }

    #[test]
    fn a_question_nobody_answered_is_not_asked_again_unasked() {
        let spec = |side_effect, idempotent| ToolSpec {
            id: "ask".into(),
            name: deskmate_core::Localized::new("问", "Ask"),
            summary: None,
            description: "Asks the person.".into(),
            category: deskmate_core::Category::System,
            parameters: json!({"type": "object", "additionalProperties": false}),
            side_effect,
            idempotent,
            timeout_ms: 1000,
            compensation: None,
        };
        let nobody_chose = Outcome::of(
            "ask",
            "{}",
            CallStatus::Failed,
            ToolResult::failure(ToolError::new(ErrorType::Timeout, "nobody chose")),
        );
        // A question (reads, not idempotent), a lookup (reads, idempotent), a write.
        assert!(!nobody_chose.passing(retriable(Some(&spec(SideEffect::Read, false)))));
        assert!(nobody_chose.passing(retriable(Some(&spec(SideEffect::Read, true)))));
        assert!(!nobody_chose.passing(retriable(Some(&spec(SideEffect::Write, true)))));
        // And what may not be made again ends the model's calls: it may only answer.
        assert!(nobody_chose.settles(retriable(Some(&spec(SideEffect::Read, false)))));
        assert!(nobody_chose.settles(retriable(Some(&spec(SideEffect::Write, true)))));
        assert!(!nobody_chose.settles(retriable(Some(&spec(SideEffect::Read, true)))));
    }

    #[test]
    fn the_model_reads_a_result_without_its_undo_data_or_its_line() {
        let outcome = Outcome::of(
            "increase_volume",
            "{}",
            CallStatus::Done,
            ToolResult::success(json!({"before": 40, "after": 50, "undo": {"step": 10},
                "said": {"zh": "音量 40% → 50%", "en": "Volume 40% → 50%"}})),
        );
        let text = model_text(&outcome);
        assert_eq!(text, r#"{"before":40,"after":50}"#);
        assert_eq!(outcome.result.data["undo"]["step"], 10, "the loop keeps it");
        assert!(outcome.result.data["said"].is_object(), "the card keeps it");
    }

    #[test]
    fn the_same_arguments_in_another_order_have_one_key() {
        assert_eq!(
            canonical_arguments(r#"{"b": 1, "a": {"y": [1, {"d": 2, "c": 3}], "x": 0}}"#),
            canonical_arguments(r#"{"a":{"x":0,"y":[1,{"c":3,"d":2}]},"b":1}"#)
        );
        assert_ne!(
            canonical_arguments(r#"{"a": [1, 2]}"#),
            canonical_arguments(r#"{"a": [2, 1]}"#)
        );
        assert_eq!(canonical_arguments(" not json "), "not json");
    }
}
