//! `GET /api/v1/events`: what the app's window must show without asking — new prompts
//! (confirmations, choice questions), in-app messages (`text_msg_prompt`) and the
//! microphone's level during push to talk — as SSE.

use std::convert::Infallible;

use axum::extract::State;
use axum::response::IntoResponse;
use axum::response::sse::{Event, KeepAlive, Sse};
use futures_util::StreamExt;
use tokio::sync::broadcast;

use crate::AppState;

/// `GET /api/v1/events`: SSE events `prompt` (a new prompt, as `/prompts` lists it),
/// `message` (an in-app message: title, body, urgency) and `level` (`{db}`, while push
/// to talk records). Events missed by a slow reader
/// are skipped; `/prompts` always has the pending ones.
#[utoipa::path(get, path = "/api/v1/events", tag = "devices", responses((status = 200, description = "text/event-stream of `prompt` and `message` events", content_type = "text/event-stream", body = String)))]
pub async fn events(State(state): State<AppState>) -> impl IntoResponse {
    let messages = state
        .messages
        .as_ref()
        .map_or_else(|| futures_util::stream::pending().boxed(), |feed| feed())
        .filter_map(
            |message| async move { Event::default().event("message").json_data(&message).ok() },
        );
    let levels = state
        .voice
        .as_ref()
        .map_or_else(
            || futures_util::stream::pending().boxed(),
            |voice| voice.levels(),
        )
        .filter_map(|db| async move {
            Event::default()
                .event("level")
                .json_data(serde_json::json!({ "db": db }))
                .ok()
        });
    let stream = futures_util::stream::select(
        prompts(state.prompts.subscribe()),
        futures_util::stream::select(messages, levels),
    )
    .map(Ok::<_, Infallible>);
    Sse::new(stream).keep_alive(KeepAlive::default())
}

/// New prompts as SSE events; lagging skips, closing ends it.
fn prompts(
    receiver: broadcast::Receiver<deskmate_service::prompts::Prompt>,
) -> impl futures_util::Stream<Item = Event> + Send {
    futures_util::stream::unfold(receiver, move |mut receiver| async move {
        loop {
            match receiver.recv().await {
                Ok(item) => {
                    let event = Event::default().event("prompt").json_data(&item).ok()?;
                    return Some((event, receiver));
                }
                Err(broadcast::error::RecvError::Lagged(_)) => {}
                Err(broadcast::error::RecvError::Closed) => return None,
            }
        }
    })
}
