//! The agent loop: model → extraction → guard → tools → results → model, up to a step
//! limit. Structured errors go back to the model so it can fix its call; the same failing
//! call twice ends the turn with a plain message. Several calls in one reply follow
//! DESIGN.md: reads run concurrently, writes one at a time in the model's order; when a
//! write fails, earlier writes that declare a compensation are undone and later writes
//! are skipped; every call's status goes back to the model.

use std::collections::HashMap;

use deskmate_core::{ErrorType, Repair, RepairRule, SideEffect, ToolError, ToolResult};
use deskmate_llm::extract::{Extracted, extract_calls};
use deskmate_llm::wire::{ChatRequest, Message, ToolCall, ToolDef};
use deskmate_llm::{ChatClient, Endpoint, StreamEvent};
use serde::Serialize;
use serde_json::{Value, json};
use tokio::sync::mpsc::UnboundedSender;
use tokio_util::sync::CancellationToken;

use crate::prompts::Prompt;
use crate::resources::FieldError;
use crate::{CallRequest, Deskmate, ServiceError};

/// One user turn.
#[derive(Debug, Clone, Default)]
pub struct ChatTurn {
    /// What the person said or typed.
    pub message: String,
    /// The model to use; the default model when absent.
    pub model_id: Option<String>,
    /// The conversation to continue; a new one when absent.
    pub conversation_id: Option<String>,
    /// Only these tools are offered (and run) in this turn; every enabled tool when absent.
    pub tools: Option<Vec<String>>,
}

/// How a call of the turn ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum CallStatus {
    /// It ran and succeeded.
    Done,
    /// It ran and failed (or the guard refused it).
    Failed,
    /// It succeeded, then was undone because a later write of the turn failed.
    Compensated,
    /// It was not run because an earlier write of the turn failed.
    Skipped,
}

/// Why a turn ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum StopReason {
    /// The model answered without calling a tool.
    Answered,
    /// The same call failed twice.
    RepeatedFailure,
    /// The step limit was reached.
    StepLimit,
    /// The model server failed.
    ModelError,
    /// The turn was cancelled.
    Cancelled,
}

/// What the loop reports as it goes (the chat SSE events).
#[derive(Debug, Clone, Serialize)]
#[serde(untagged)]
pub enum AgentEvent {
    /// A piece of the reply's text.
    Token {
        /// The text.
        text: String,
    },
    /// A call the model made, before it runs.
    ToolCall {
        /// The call's id.
        id: String,
        /// The tool as the model named it.
        name: String,
        /// The arguments as the model wrote them.
        arguments: String,
        /// How the call was written when it came from the text (`bare JSON`, …).
        extracted: Option<String>,
    },
    /// A call's outcome.
    ToolResult {
        /// The call's id.
        id: String,
        /// The tool as the model named it.
        name: String,
        /// How it ended.
        status: CallStatus,
        /// The result (with the guard's repairs).
        result: Box<ToolResult>,
    },
    /// A confirmation or a choice is waiting for the person.
    Prompt {
        /// The prompt (answer it with `POST /api/v1/prompts/{id}/answer`).
        prompt: Box<Prompt>,
    },
    /// Something failed; the turn ends after it.
    Error {
        /// What failed.
        message: String,
        /// `transient` (try again) or `internal`, …
        error_type: ErrorType,
    },
    /// The turn is over.
    Done {
        /// The conversation (pass it to continue).
        conversation_id: String,
        /// The reply shown to the person.
        reply: String,
        /// Model requests made.
        steps: usize,
        /// Why it ended.
        stop: StopReason,
    },
}

impl AgentEvent {
    /// The SSE event name.
    pub fn name(&self) -> &'static str {
        match self {
            Self::Token { .. } => "token",
            Self::ToolCall { .. } => "tool_call",
            Self::ToolResult { .. } => "tool_result",
            Self::Prompt { .. } => "prompt",
            Self::Error { .. } => "error",
            Self::Done { .. } => "done",
        }
    }
}

/// The turn's outcome (also sent as the `done` event).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ChatOutcome {
    /// The conversation.
    pub conversation_id: String,
    /// The reply shown to the person.
    pub reply: String,
    /// Model requests made.
    pub steps: usize,
    /// Why it ended.
    pub stop: StopReason,
}

/// Most model requests in one turn.
pub const MAX_STEPS: usize = 6;
/// Earlier messages sent along.
const HISTORY: u32 = 40;
/// Longest message accepted.
const MAX_MESSAGE_CHARS: usize = 16_000;

const SYSTEM_PROMPT: &str = "You are Deskmate, a desktop assistant. Call a tool only when the \
user's request needs it, and never call a tool the user did not ask for. Give every argument \
its schema's type. When a tool answers with an error, read its hint and options and fix the \
call, or explain the problem to the user. Answer briefly, in the user's language.";

fn is_chinese(text: &str) -> bool {
    text.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c))
}

/// Sends to the event channel; a closed channel (client gone) is not an error here.
fn emit(events: &UnboundedSender<AgentEvent>, event: AgentEvent) {
    let _ = events.send(event);
}

/// Streams tokens unless the reply looks like a call written as text (it starts with
/// `{`, `[`, `<` or a code fence): that is held back until the reply is complete.
struct TokenGate<'a> {
    events: &'a UnboundedSender<AgentEvent>,
    held: String,
    passing: Option<bool>,
}

impl<'a> TokenGate<'a> {
    fn new(events: &'a UnboundedSender<AgentEvent>) -> Self {
        Self {
            events,
            held: String::new(),
            passing: None,
        }
    }

    fn on(&mut self, event: StreamEvent) {
        let StreamEvent::Token(text) = event else {
            return;
        };
        match self.passing {
            Some(true) => emit(self.events, AgentEvent::Token { text }),
            Some(false) => self.held.push_str(&text),
            None => {
                self.held.push_str(&text);
                let start = self.held.trim_start();
                if start.is_empty() {
                    return;
                }
                let pass = !start.starts_with(['{', '[', '<', '`']);
                self.passing = Some(pass);
                if pass {
                    let text = std::mem::take(&mut self.held);
                    emit(self.events, AgentEvent::Token { text });
                }
            }
        }
    }

    /// The reply is complete: `text` is what remains once calls are cut out.
    fn finish(self, text: &str) {
        if self.passing != Some(true) && !text.trim().is_empty() {
            emit(
                self.events,
                AgentEvent::Token {
                    text: text.to_string(),
                },
            );
        }
    }
}

fn canonical_arguments(arguments: &str) -> String {
    serde_json::from_str::<Value>(arguments)
        .map(|v| v.to_string())
        .unwrap_or_else(|_| arguments.trim().to_string())
}

impl Deskmate {
    /// Runs one turn, reporting through `events`; fails before the turn starts when the
    /// input, the model or the conversation is wrong.
    pub async fn chat(
        &self,
        turn: ChatTurn,
        events: &UnboundedSender<AgentEvent>,
        cancel: &CancellationToken,
    ) -> Result<ChatOutcome, ServiceError> {
        self.check_turn(&turn)?;
        let message = turn.message.trim().to_string();
        let model = self.llm_model_record(turn.model_id.as_deref())?;
        let store = self.stored()?.store.clone();
        let conversation_id = match &turn.conversation_id {
            Some(id) => id.clone(),
            None => {
                let id = uuid::Uuid::new_v4().simple().to_string();
                let title: String = message.chars().take(60).collect();
                store.create_conversation(&id, &title, Some(&model.id))?;
                id
            }
        };
        let history: Vec<Message> = store
            .conversation_messages(&conversation_id, HISTORY)?
            .into_iter()
            .filter_map(|m| serde_json::from_value(m).ok())
            .collect();

        let zh = is_chinese(&message);
        let mut messages = vec![Message::system(SYSTEM_PROMPT)];
        // History starts at a user message, so no tool result loses its call.
        let start = history
            .iter()
            .position(|m| m.role == "user")
            .unwrap_or(history.len());
        messages.extend(history.into_iter().skip(start));
        let user = Message::user(message.clone());
        messages.push(user.clone());
        let mut new_messages = vec![user];

        let offered = turn.tools.as_deref();
        let tools: Vec<ToolDef> = self
            .enabled_specs()
            .iter()
            .filter(|s| offered.is_none_or(|ids| ids.contains(&s.id)))
            .map(|s| ToolDef::function(&s.id, &s.description, s.parameters_for_model()))
            .collect();
        self.wait_managed(
            &model.id,
            model.managed.as_deref(),
            crate::MANAGED_START_WAIT,
        )
        .await;
        let base_url = self.base_url_for(&model.id, &model.base_url, model.managed.as_deref());
        let api_key = self.model_api_key(model.api_key_ref.as_deref());

        let mut failures: HashMap<String, usize> = HashMap::new();
        let mut steps = 0;
        let (reply, stop) = 'turn: {
            let client = match Endpoint::new(&base_url, api_key).and_then(ChatClient::new) {
                Ok(client) => client,
                Err(e) => {
                    emit(
                        events,
                        AgentEvent::Error {
                            message: e.to_string(),
                            error_type: ErrorType::Validation,
                        },
                    );
                    break 'turn (model_failed(zh, &e.to_string()), StopReason::ModelError);
                }
            };
            while steps < MAX_STEPS {
                steps += 1;
                let mut request = ChatRequest::new(model.model.clone(), messages.clone());
                request.tools = tools.clone();
                request.tool_choice = (!tools.is_empty()).then(|| json!("auto"));
                request.temperature = Some(model.temperature);
                request.top_p = Some(model.top_p);
                request.max_tokens = u32::try_from(model.max_tokens).ok();
                request.stream = model.streaming;
                let mut gate = TokenGate::new(events);
                let mut on_event = |e| gate.on(e);
                let reply = tokio::select! {
                    reply = client.complete(&request, &mut on_event) => reply,
                    () = cancel.cancelled() => break 'turn (String::new(), StopReason::Cancelled),
                };
                let reply = match reply {
                    Ok(reply) => reply,
                    Err(e) => {
                        let error_type = if e.is_transient() {
                            ErrorType::Transient
                        } else {
                            ErrorType::Validation
                        };
                        emit(
                            events,
                            AgentEvent::Error {
                                message: e.to_string(),
                                error_type,
                            },
                        );
                        break 'turn (model_failed(zh, &e.to_string()), StopReason::ModelError);
                    }
                };
                let (calls, text, extracted) = if !reply.tool_calls.is_empty() {
                    (reply.tool_calls, reply.content, None)
                } else if let Some(found) = extract_calls(&reply.content) {
                    (found.calls.clone(), found.text.clone(), Some(found))
                } else {
                    (Vec::new(), reply.content, None)
                };
                gate.finish(&text);
                if calls.is_empty() {
                    new_messages.push(Message::assistant(Some(text.clone()), Vec::new()));
                    break 'turn (text, StopReason::Answered);
                }
                let assistant = Message::assistant(
                    (!text.trim().is_empty()).then(|| text.clone()),
                    calls.clone(),
                );
                messages.push(assistant.clone());
                new_messages.push(assistant);
                let outcomes = tokio::select! {
                    outcomes = self.run_calls(&calls, extracted.as_ref(), offered, &conversation_id, events) => outcomes,
                    () = cancel.cancelled() => break 'turn (String::new(), StopReason::Cancelled),
                };
                let mut repeated = None;
                for (call, status, result) in &outcomes {
                    let mut content = result.to_llm_text();
                    if *status != CallStatus::Done {
                        content = format!("[status: {}] {content}", status_name(*status));
                    }
                    let tool_message = Message::tool(call.id.clone(), content);
                    messages.push(tool_message.clone());
                    new_messages.push(tool_message);
                    if *status == CallStatus::Failed {
                        let key = format!(
                            "{}\n{}",
                            call.function.name,
                            canonical_arguments(&call.function.arguments)
                        );
                        let count = failures.entry(key).or_default();
                        *count += 1;
                        if *count >= 2 && repeated.is_none() {
                            repeated = Some(result.error.clone().unwrap_or_default());
                        }
                    }
                }
                if let Some(error) = repeated {
                    let reply = if zh {
                        format!(
                            "这件事我没能完成：同一个操作连续失败了两次（{error}）。请换个说法或检查设置后再试。"
                        )
                    } else {
                        format!(
                            "I could not do this: the same action failed twice ({error}). Please rephrase or check the settings and try again."
                        )
                    };
                    emit(
                        events,
                        AgentEvent::Token {
                            text: reply.clone(),
                        },
                    );
                    new_messages.push(Message::assistant(Some(reply.clone()), Vec::new()));
                    break 'turn (reply, StopReason::RepeatedFailure);
                }
            }
            let reply = if zh {
                format!("我已经尝试了 {MAX_STEPS} 步仍未完成，先停在这里。")
            } else {
                format!("I stopped after {MAX_STEPS} steps without finishing.")
            };
            emit(
                events,
                AgentEvent::Token {
                    text: reply.clone(),
                },
            );
            new_messages.push(Message::assistant(Some(reply.clone()), Vec::new()));
            (reply, StopReason::StepLimit)
        };

        let rows: Vec<Value> = new_messages
            .iter()
            .filter_map(|m| serde_json::to_value(m).ok())
            .collect();
        if let Err(e) = store.append_messages(&conversation_id, Some(&model.id), &rows) {
            tracing::error!(error = %e, "the conversation could not be saved");
        }
        let outcome = ChatOutcome {
            conversation_id,
            reply,
            steps,
            stop,
        };
        emit(
            events,
            AgentEvent::Done {
                conversation_id: outcome.conversation_id.clone(),
                reply: outcome.reply.clone(),
                steps,
                stop,
            },
        );
        Ok(outcome)
    }

    /// Checks a turn before it starts: the message, the model, the conversation. Front
    /// ends that stream call it first so a bad turn gets a plain error, not a stream.
    pub fn check_turn(&self, turn: &ChatTurn) -> Result<(), ServiceError> {
        let length = turn.message.trim().chars().count();
        if length == 0 || length > MAX_MESSAGE_CHARS {
            return Err(ServiceError::Invalid(vec![FieldError {
                path: "/message".into(),
                message: format!("message must have 1 to {MAX_MESSAGE_CHARS} characters"),
                hint: "type what you want Deskmate to do".into(),
            }]));
        }
        self.llm_model_record(turn.model_id.as_deref())?;
        if let Some(id) = &turn.conversation_id
            && self.stored()?.store.conversation(id)?.is_none()
        {
            return Err(ServiceError::NotFound {
                what: "Conversation",
                id: id.clone(),
            });
        }
        Ok(())
    }

    /// Runs one reply's calls: reads concurrently, writes in order with compensation.
    async fn run_calls(
        &self,
        calls: &[ToolCall],
        extracted: Option<&Extracted>,
        offered: Option<&[String]>,
        conversation_id: &str,
        events: &UnboundedSender<AgentEvent>,
    ) -> Vec<(ToolCall, CallStatus, ToolResult)> {
        let registry = self.registry();
        let mut requests = Vec::new();
        // A tool the turn did not offer is not run, whatever the registry has.
        let refused: Vec<Option<ToolError>> = calls
            .iter()
            .map(|call| {
                let ids = offered?;
                deskmate_core::resolve::resolve_name(
                    &call.function.name,
                    ids.iter().map(String::as_str),
                )
                .err()
            })
            .collect();
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
            let spec = registry
                .guard()
                .prepare(&call.function.name, arguments.clone())
                .ok()
                .and_then(|p| registry.guard().spec(&p.tool).cloned());
            let mut request = CallRequest::new(call.function.name.clone(), arguments);
            request.conversation_id = Some(conversation_id.to_string());
            request.origin = "llm".into();
            if let Some(found) = extracted {
                request.repairs.push(Repair {
                    path: String::new(),
                    from: Value::String(found.sources.get(i).cloned().unwrap_or_default()),
                    to: json!({"name": call.function.name, "arguments": call.function.arguments}),
                    rule: RepairRule::ExtractedFromContent,
                });
            }
            requests.push((request, spec));
        }

        // An irreversible call among several: one confirmation for the whole batch, asked
        // before anything runs, so a "no" leaves nothing half done.
        let irreversible = requests.iter().find(|(_, spec)| {
            spec.as_ref()
                .is_some_and(|s| s.side_effect == SideEffect::Irreversible)
        });
        if calls.len() > 1
            && let Some((_, Some(spec))) = irreversible
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
                        "these {} calls run together and {} cannot be undone",
                        calls.len(),
                        spec.id
                    ),
                })
                .await;
            if !approved {
                return calls
                    .iter()
                    .map(|call| {
                        let error = ToolError::new(
                            ErrorType::Denied,
                            "the user did not confirm this batch of calls",
                        )
                        .with_hint("do not retry unless the user asks again");
                        let result = ToolResult::failure(error);
                        emit(
                            events,
                            AgentEvent::ToolResult {
                                id: call.id.clone(),
                                name: call.function.name.clone(),
                                status: CallStatus::Skipped,
                                result: Box::new(result.clone()),
                            },
                        );
                        (call.clone(), CallStatus::Skipped, result)
                    })
                    .collect();
            }
            for (request, _) in &mut requests {
                request.confirmed = true;
            }
        }

        let mut outcomes: Vec<Option<(CallStatus, ToolResult)>> = refused
            .iter()
            .map(|r| {
                r.clone()
                    .map(|error| (CallStatus::Failed, ToolResult::failure(error)))
            })
            .collect();
        let reads = requests
            .iter()
            .enumerate()
            .filter(|(i, (_, spec))| {
                refused[*i].is_none()
                    && spec
                        .as_ref()
                        .is_none_or(|s| s.side_effect == SideEffect::Read)
            })
            .map(|(i, (request, _))| {
                let request = request.clone();
                async move { (i, self.call(request).await) }
            });
        let writes = async {
            let mut done: Vec<(usize, ToolResult)> = Vec::new();
            let mut results = Vec::new();
            let mut failed = false;
            for (i, (request, spec)) in requests.iter().enumerate() {
                if refused[i].is_some()
                    || spec
                        .as_ref()
                        .is_none_or(|s| s.side_effect == SideEffect::Read)
                {
                    continue;
                }
                if failed {
                    let error =
                        ToolError::transient("not run: an earlier write in the same turn failed")
                            .with_hint("fix the failed call first, then ask for this one again");
                    results.push((i, CallStatus::Skipped, ToolResult::failure(error)));
                    continue;
                }
                let result = self.call(request.clone()).await;
                if result.ok {
                    done.push((i, result.clone()));
                    results.push((i, CallStatus::Done, result));
                } else {
                    failed = true;
                    results.push((i, CallStatus::Failed, result));
                    // Undo what this turn already changed, newest first.
                    for (j, earlier) in done.iter().rev() {
                        if self
                            .compensate(&requests[*j].1, earlier, conversation_id)
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
        calls
            .iter()
            .zip(outcomes)
            .map(|(call, outcome)| {
                let (status, result) = outcome.unwrap_or_else(|| {
                    (
                        CallStatus::Failed,
                        ToolResult::failure(ToolError::internal("the call was lost")),
                    )
                });
                emit(
                    events,
                    AgentEvent::ToolResult {
                        id: call.id.clone(),
                        name: call.function.name.clone(),
                        status,
                        result: Box::new(result.clone()),
                    },
                );
                (call.clone(), status, result)
            })
            .collect()
    }

    /// Runs a write's compensation: the tool its spec names, with the arguments its
    /// result put under `undo`. Returns whether it was undone.
    async fn compensate(
        &self,
        spec: &Option<deskmate_core::ToolSpec>,
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

fn status_name(status: CallStatus) -> &'static str {
    match status {
        CallStatus::Done => "done",
        CallStatus::Failed => "failed",
        CallStatus::Compensated => "compensated",
        CallStatus::Skipped => "skipped",
    }
}

fn model_failed(zh: bool, error: &str) -> String {
    if zh {
        format!("模型服务出错了，没能完成：{error}")
    } else {
        format!("The model server failed, so I could not finish: {error}")
    }
}
