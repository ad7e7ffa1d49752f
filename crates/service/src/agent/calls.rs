//! One reply's calls: each through `Deskmate::call`, reads concurrently, writes in the
//! model's order with compensation and skipping, and no effect twice in a turn.
//!
//! A call identical to one that already succeeded in the turn (same tool, same arguments
//! after the guard's normalization) is not run again: it gets the earlier result with the
//! status `repeated`, and the model is told so. A write whose arguments the guard rejects
//! is still a write: it fails in its place in the order, and later writes are skipped.

use std::collections::HashMap;

use deskmate_core::{ErrorType, Repair, RepairRule, SideEffect, ToolError, ToolResult, ToolSpec};
use deskmate_llm::extract::Extracted;
use deskmate_llm::wire::ToolCall;
use serde_json::{Value, json};
use tokio::sync::mpsc::UnboundedSender;

use super::{AgentEvent, CallStatus, emit};
use crate::{CallRequest, Deskmate};

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
}

impl Outcome {
    /// A failure no other call can fix in this turn: the device or service is not there
    /// (not found, with no valid values to choose from instead) or a person or a policy
    /// refused the call. After one, the model may only answer.
    pub(crate) fn settles(&self) -> bool {
        self.status == CallStatus::NotAsked
            || self.status == CallStatus::Failed
                && match self.result.error_type {
                    Some(ErrorType::Denied) => true,
                    Some(ErrorType::NotFound) => self.result.options.is_empty(),
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
        }
    }

    /// A failure that calling again as it was may get past: the tool said it was
    /// passing (busy, restarting), or a read timed out (a write that timed out may have
    /// happened, so it is not called again unasked).
    pub(crate) fn passing(&self, read: bool) -> bool {
        self.status == CallStatus::Failed
            && match self.result.error_type {
                Some(ErrorType::Transient) => true,
                Some(ErrorType::Timeout) => read,
                _ => false,
            }
    }
}

/// The results of the calls that succeeded so far in a turn, by call key.
pub(crate) type Succeeded = HashMap<String, ToolResult>;

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
}

/// Whether a call of the tool with `spec` only reads; one whose name resolves to no tool
/// runs nothing, so it counts as a read.
pub(crate) fn reads(spec: Option<&ToolSpec>) -> bool {
    spec.is_none_or(|s| s.side_effect == SideEffect::Read)
}

/// Where a call's result comes from when it is not run.
enum Reuse {
    /// An earlier step of the turn.
    Earlier(ToolResult),
    /// An earlier call of the same reply.
    Twin(usize),
}

impl Deskmate {
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
        } = *turn;
        let registry = self.registry();
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

        // Nor a tool whose subject the person did not name (a stand-in for what they
        // asked: the camera for the lights, the volume for the screen's brightness).
        for (i, p) in planned.iter().enumerate() {
            if refused[i].is_none()
                && let Some(subjects) = registry.tool(&p.tool).map(|t| t.subjects())
                && !subjects.is_empty()
                && !asked
                    .iter()
                    .any(|m| deskmate_tools::words::mentions_any(m, subjects))
            {
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
                if let Some(earlier) = succeeded.get(&p.key) {
                    return Some(Reuse::Earlier(earlier.clone()));
                }
                planned[..i]
                    .iter()
                    .position(|q| q.key == p.key)
                    .filter(|&j| refused[j].is_none())
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
                .confirm_batch(crate::hooks::ConfirmRequest {
                    call_id: format!("batch-{}", uuid::Uuid::new_v4().simple()),
                    tool: "batch".into(),
                    tool_name: format!("{} calls", calls.len()),
                    arguments: Value::Array(listed),
                    repairs: Vec::new(),
                    reason: format!(
                        "these {} calls run together and {tool} cannot be undone",
                        calls.len(),
                    ),
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
                        finish(
                            events,
                            zh,
                            call,
                            &p.tool,
                            CallStatus::Skipped,
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
        let reads = planned
            .iter()
            .enumerate()
            .filter(|(i, p)| runs(*i) && p.is_read())
            .map(|(i, p)| {
                let request = p.request.clone();
                async move { (i, self.call(request).await) }
            });
        let writes = async {
            let mut done: Vec<(usize, ToolResult)> = Vec::new();
            let mut results = Vec::new();
            let mut failed = false;
            for (i, p) in planned.iter().enumerate() {
                if !runs(i) || p.is_read() {
                    continue;
                }
                if failed {
                    let error =
                        ToolError::transient("not run: an earlier write in the same turn failed")
                            .with_hint("fix the failed call first, then ask for this one again");
                    results.push((i, CallStatus::Skipped, ToolResult::failure(error)));
                    continue;
                }
                let result = self.call(p.request.clone()).await;
                if result.ok {
                    done.push((i, result.clone()));
                    results.push((i, CallStatus::Done, result));
                } else {
                    failed = true;
                    results.push((i, CallStatus::Failed, result));
                    // Undo what this turn already changed, newest first.
                    for (j, earlier) in done.iter().rev() {
                        if self
                            .compensate(&planned[*j].spec, earlier, conversation_id)
                            .await
                            && let Some(entry) = results.iter_mut().find(|(k, _, _)| k == j)
                        {
                            entry.1 = CallStatus::Compensated;
                        }
                    }
                }
            }
            results
        };
        let (read_results, write_results) =
            tokio::join!(futures_util::future::join_all(reads), writes);
        for (i, result) in read_results {
            let status = if result.ok {
                CallStatus::Done
            } else {
                CallStatus::Failed
            };
            outcomes[i] = Some((status, result));
        }
        for (i, status, result) in write_results {
            outcomes[i] = Some((status, result));
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
                finish(events, zh, call, &p.tool, status, result)
            })
            .collect();
        for (outcome, p) in finished.iter().zip(&planned) {
            if outcome.status == CallStatus::Done {
                succeeded.insert(p.key.clone(), outcome.result.clone());
            }
        }
        finished
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
        self.call(request).await.ok
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

/// Reports a call's end and wraps it up.
fn finish(
    events: &UnboundedSender<AgentEvent>,
    zh: bool,
    call: &ToolCall,
    tool: &str,
    status: CallStatus,
    result: ToolResult,
) -> Outcome {
    emit(
        events,
        AgentEvent::ToolResult {
            id: call.id.clone(),
            name: call.function.name.clone(),
            status,
            summary: super::summary::line(tool, status, &result, zh),
            result: Box::new(result.clone()),
        },
    );
    Outcome {
        call: call.clone(),
        tool: tool.to_string(),
        status,
        result,
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
    // it turns into "to undo this, turn the volume down by 10%" in the reply.
    if let Some(data) = result.data.as_object_mut() {
        data.remove("undo");
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
    fn the_model_reads_a_result_without_its_undo_data() {
        let outcome = Outcome::of(
            "increase_volume",
            "{}",
            CallStatus::Done,
            ToolResult::success(json!({"before": 40, "after": 50, "undo": {"step": 10}})),
        );
        let text = model_text(&outcome);
        assert!(text.contains("\"after\":50"), "{text}");
        assert!(!text.contains("undo"), "{text}");
        assert_eq!(outcome.result.data["undo"]["step"], 10, "the loop keeps it");
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
