//! One reply's calls: each through `Deskmate::call`, in the model's order — reads next to
//! each other run concurrently, but never past a write (a read after a write sees what it
//! wrote, a read before it what was there); writes one at a time, with compensation and
//! skipping.
//!
//! Before anything runs, the checks on the calls ([`crate::inspect`]) decide which run: a
//! call whose result the turn already has gets it with the status `repeated` (the model is
//! told so; [`crate::inspect::repeats`] says when). A write whose arguments the guard
//! rejects is still a write: it fails in its place in the order, and later writes are
//! skipped. When the turn is stopped, a call in flight ends,
//! what has not started is skipped, and the reply's finished writes are undone.

use deskmate_core::{Repair, RepairRule, ToolError, ToolResult, ToolSpec};
use deskmate_llm::envelope::Part;
use deskmate_llm::extract::Extracted;
use deskmate_llm::wire::ToolCall;
use deskmate_service::CallRequest;
use serde_json::{Value, json};
use tokio::sync::mpsc::UnboundedSender;
use tokio_util::sync::CancellationToken;

use crate::agent::Agent;
use crate::inspect;
use crate::judge::Judge;
use crate::outcome::{Outcome, Succeeded, canonical, canonical_arguments, stopped};
use crate::plan::{Calls, Planned, Reuse, Verdict};
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
    /// What of the conversation lies before this turn (its branch's history).
    pub before: deskmate_tools::Before,
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

/// How one step's calls are judged: the judge (absent: not checked) and the separate
/// requests the model listed with them.
#[derive(Clone, Copy)]
pub(crate) struct Judging<'a> {
    pub judge: Option<&'a Judge<'a>>,
    pub parts: &'a [Part],
    /// The calls are the model's second thought ([`crate::look_again`]).
    pub doubted: bool,
}

impl Agent {
    /// Runs one reply's calls and reports each as it starts and ends.
    pub(crate) async fn run_calls(
        &self,
        calls: &[ToolCall],
        extracted: Option<&Extracted>,
        turn: &TurnContext<'_>,
        judging: Judging<'_>,
        succeeded: &mut Succeeded,
    ) -> Vec<Outcome> {
        let TurnContext {
            offered,
            conversation_id,
            turn_id,
            before,
            zh,
            asked,
            events,
            cancel,
        } = *turn;
        let registry = self.deskmate.registry();
        let guard = registry.guard();
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
            request.before = before;
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

        // The checks before anything runs ([`crate::inspect`]): what is not offered, not
        // asked for, already done, or not confirmed as a batch does not run.
        let mut plan = Calls::new(calls, planned);
        inspect::check_calls(
            &mut plan,
            inspect::CallChecks {
                deskmate: &self.deskmate,
                offered,
                asked,
                judge: judging.judge,
                parts: judging.parts,
                doubted: judging.doubted,
                succeeded,
                cancel,
            },
        )
        .await;
        let Calls {
            planned, verdicts, ..
        } = plan;
        let runs = |i: usize| matches!(verdicts[i], Verdict::Run);

        let mut outcomes: Vec<Option<(CallStatus, ToolResult)>> = verdicts
            .iter()
            .map(|v| match v {
                Verdict::Refused(status, error) => {
                    Some((*status, ToolResult::failure(error.clone())))
                }
                _ => None,
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
        for (i, verdict) in verdicts.iter().enumerate() {
            let result = match verdict {
                Verdict::Reused(Reuse::Earlier(result)) => result.clone(),
                Verdict::Reused(Reuse::Twin(j)) => match &outcomes[*j] {
                    Some((_, result)) => result.clone(),
                    None => continue,
                },
                _ => continue,
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
}
