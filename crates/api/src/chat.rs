//! `POST /api/v1/chat`: one turn of the agent loop as server-sent events named `token`,
//! `tool_call`, `tool_result`, `prompt`, `error` and `done`. A client that goes away
//! cancels the turn.

use std::convert::Infallible;

use axum::extract::State;
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use deskmate_agent::{AgentEvent, Branch, ChatTurn};
use deskmate_service::error::FieldError;
use serde::Deserialize;
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

use crate::AppState;
use crate::error::AppError;
use crate::extract::ApiJson;

/// A chat turn.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ChatBody {
    /// What the person said or typed.
    message: String,
    /// The LLM model; the default model when absent.
    #[serde(default)]
    model_id: Option<String>,
    /// The conversation to continue; a new one when absent.
    #[serde(default)]
    conversation_id: Option<String>,
    /// The locale of the client's window (`zh-CN`, `en`): the language of Deskmate's own
    /// lines when the message does not tell (a sum, a name). The message's own language
    /// comes first.
    #[serde(default)]
    #[schema(max_length = 35)]
    locale: Option<String>,
    /// Sends `message` in place of the person's earlier message with this seq: a new
    /// branch beside the old one, which stays (needs `conversation_id`).
    #[serde(default)]
    #[schema(nullable = false)]
    edit_of: Option<i64>,
    /// A new reply to the person's message with this seq (its stored text is used): a
    /// sibling of the reply it had (needs `conversation_id`).
    #[serde(default)]
    #[schema(nullable = false)]
    regenerate: Option<i64>,
}

/// Cancels the turn when the response stream is dropped (the client went away).
struct CancelOnDrop(CancellationToken);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.cancel();
    }
}

/// `POST /api/v1/chat`.
#[utoipa::path(post, path = "/api/v1/chat", tag = "chat", request_body = ChatBody, responses((status = 200, description = "text/event-stream: plan, token, tool_call, tool_result, prompt, error, done", body = String), (status = 404, description = "LLM Model not found / Conversation not found"), (status = 422, description = "Invalid message")))]
pub async fn chat(
    State(state): State<AppState>,
    ApiJson(body): ApiJson<ChatBody>,
) -> Result<Response, AppError> {
    let branch = match (body.edit_of, body.regenerate) {
        (None, None) => None,
        (Some(seq), None) => Some(Branch::Edit(seq)),
        (None, Some(seq)) => Some(Branch::Regenerate(seq)),
        (Some(_), Some(_)) => {
            return Err(AppError::Invalid(vec![FieldError {
                path: "/regenerate".into(),
                message: "a turn is an edit or a regeneration, not both".into(),
                hint: "send edit_of or regenerate".into(),
            }]));
        }
    };
    let turn = ChatTurn {
        message: body.message,
        model_id: body.model_id,
        conversation_id: body.conversation_id,
        tools: None,
        locale: body.locale,
        branch,
    };
    state.agent.check_turn(&turn)?;
    let (tx, rx) = mpsc::unbounded_channel::<AgentEvent>();
    let cancel = CancellationToken::new();
    let agent = state.agent.clone();
    let mut prompts = state.prompts.subscribe();
    let turn_cancel = cancel.clone();
    tokio::spawn(async move {
        let forward = tx.clone();
        let prompts_task = tokio::spawn(async move {
            while let Ok(prompt) = prompts.recv().await {
                if forward
                    .send(AgentEvent::Prompt {
                        prompt: Box::new(prompt),
                    })
                    .is_err()
                {
                    break;
                }
            }
        });
        if let Err(error) = agent.chat(turn, &tx, &turn_cancel).await {
            let _ = tx.send(AgentEvent::Error {
                message: error.to_string(),
                error_type: deskmate_core::ErrorType::Internal,
            });
        }
        prompts_task.abort();
    });
    let guard = CancelOnDrop(cancel);
    let stream = futures_util::stream::unfold((rx, guard), |(mut rx, guard)| async move {
        let event = rx.recv().await?;
        let sse = Event::default()
            .event(event.name())
            .json_data(&event)
            .unwrap_or_else(|_| Event::default().event("error").data("{}"));
        let last = matches!(event, AgentEvent::Done { .. });
        // After `done` the stream ends (the channel may stay open for prompts).
        if last {
            rx.close();
        }
        Some((Ok::<_, Infallible>(sse), (rx, guard)))
    });
    Ok(Sse::new(stream)
        .keep_alive(KeepAlive::default())
        .into_response())
}
