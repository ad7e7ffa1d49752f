//! The types every part of the loop shares: the turn asked for, how each call ended, why
//! the turn ended, and the events the loop reports as it goes. A leaf: it names no other
//! module of the crate but `branch` (what a turn's branch is), so the loop, the calls,
//! the protocol, the reply and the summaries all read it without reading each other.

use deskmate_core::{ErrorType, ToolResult};
use deskmate_service::prompts::Prompt;
use serde::Serialize;
use tokio::sync::mpsc::UnboundedSender;

pub use crate::branch::Branch;

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
    /// The locale of the window the person types in (`zh-CN`, `en`): the language of
    /// Deskmate's own lines when the message does not tell (a sum, a name).
    pub locale: Option<String>,
    /// An edit of an earlier message of the person, or a new reply to one: a new branch
    /// of the conversation; the turn goes on from its head when absent.
    pub branch: Option<Branch>,
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
    /// It was not run because an earlier write of the turn failed, or the turn was
    /// stopped before it ran.
    Skipped,
    /// It was not run because the same call already succeeded in this turn; the result
    /// is the earlier call's.
    Repeated,
    /// It was not run because the person's message does not name what the tool acts on
    /// (the model chose it as a stand-in for something else).
    NotAsked,
}

impl CallStatus {
    /// The name on the wire.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Done => "done",
            Self::Failed => "failed",
            Self::Compensated => "compensated",
            Self::Skipped => "skipped",
            Self::Repeated => "repeated",
            Self::NotAsked => "not_asked",
        }
    }
}

/// Why a turn ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum StopReason {
    /// The model answered in its own words (with the lines of what it left out added).
    Answered,
    /// The reply was built from the tool results: the model said they answer everything
    /// (`done`), each part of the request it listed before a step's calls got a call
    /// that succeeded with a result that says all of itself, its own reply was no answer
    /// (empty, raw JSON, a call written as text), or it only repeated calls.
    FromResults,
    /// The same call failed twice.
    RepeatedFailure,
    /// The step limit was reached.
    StepLimit,
    /// The model's reply reached its token limit inside its calls: none of them ran.
    CutShort,
    /// The model server failed.
    ModelError,
    /// The turn was cancelled.
    Cancelled,
}

/// What the loop reports as it goes (the chat SSE events).
#[derive(Debug, Clone, Serialize)]
#[serde(untagged)]
pub enum AgentEvent {
    /// The parts of the request the model listed, each with the tool that does it (none:
    /// words), sent again each time another part is decoded: the turn's plan, before its
    /// calls are written. Only for the first request of a turn on the constrained protocol.
    Plan {
        /// The parts so far, in the model's order.
        parts: Vec<PlanPart>,
    },
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
        /// One line for the person ("17% of 2,340 = 397.8"), in the message's language.
        summary: String,
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
            Self::Plan { .. } => "plan",
            Self::Token { .. } => "token",
            Self::ToolCall { .. } => "tool_call",
            Self::ToolResult { .. } => "tool_result",
            Self::Prompt { .. } => "prompt",
            Self::Error { .. } => "error",
            Self::Done { .. } => "done",
        }
    }

    /// A call's end: the tool as the model named it, how it ended, and its result.
    pub fn tool_result(&self) -> Option<(&str, CallStatus, &ToolResult)> {
        match self {
            Self::ToolResult {
                name,
                status,
                result,
                ..
            } => Some((name, *status, result)),
            _ => None,
        }
    }
}

/// A part of the request as the model listed it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PlanPart {
    /// The part, in the person's words.
    pub ask: String,
    /// The tool that does it; `None`: no tool (the model answers it in words).
    pub tool: Option<String>,
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

/// Sends to the event channel; a closed channel (client gone) is not an error here.
pub(crate) fn emit(events: &UnboundedSender<AgentEvent>, event: AgentEvent) {
    let _ = events.send(event);
}
