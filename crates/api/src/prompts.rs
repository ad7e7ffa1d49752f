//! Pending prompts: list them, answer them (how a headless run confirms a call or answers
//! a choice dialog).

use axum::Json;
use axum::extract::{Path, State};
use deskmate_service::prompts::AnswerError;
use deskmate_service::prompts::Prompt;
use deskmate_service::resources::FieldError;
use serde::Serialize;
use serde_json::Value;

use crate::answers::Items;

use crate::AppState;
use crate::error::AppError;
use crate::extract::ApiJson;

/// `GET /api/v1/prompts`.
#[utoipa::path(get, path = "/api/v1/prompts", tag = "prompts", responses((status = 200, description = "The prompts waiting for an answer", body = Items<Prompt>)))]
pub async fn list(State(state): State<AppState>) -> Json<Items<Prompt>> {
    Json(Items {
        list: state.prompts.list(),
    })
}

/// An answer to a pending prompt: `approve` for a confirmation, `index` or `choice` for a
/// choice. The body is read as JSON and checked against the prompt it answers (which
/// kind it is, how many options it has), so an answer that does not fit is a 422 that
/// says what the prompt takes; this type declares it to the OpenAPI document.
#[derive(Debug, utoipa::ToSchema)]
pub struct PromptAnswer {
    /// A confirmation's answer: go ahead or not.
    #[schema(nullable = false)]
    pub approve: Option<bool>,
    /// A choice's answer: the option's index, from 0.
    #[schema(nullable = false, minimum = 0)]
    pub index: Option<u64>,
    /// A choice's answer: the option's text (case and surrounding spaces ignored).
    #[schema(nullable = false)]
    pub choice: Option<String>,
}

/// A prompt that was answered.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct Answered {
    /// Always `true`: an answer that was not taken is an error answer.
    pub answered: bool,
    /// The prompt's id.
    pub id: String,
}

/// `POST /api/v1/prompts/{id}/answer` with `{"approve": bool}`, `{"index": N}` or
/// `{"choice": "text"}`.
#[utoipa::path(post, path = "/api/v1/prompts/{id}/answer", tag = "prompts", params(("id" = String, Path, description = "Prompt id")), request_body = PromptAnswer, responses((status = 200, description = "The answer was taken", body = Answered), (status = 404, description = "Not pending"), (status = 422, description = "Wrong answer for the prompt")))]
pub async fn answer(
    State(state): State<AppState>,
    Path(id): Path<String>,
    ApiJson(body): ApiJson<Value>,
) -> Result<Json<Answered>, AppError> {
    match state.prompts.answer_json(&id, &body) {
        Ok(()) => Ok(Json(Answered { answered: true, id })),
        Err(AnswerError::NotFound(_)) => Err(AppError::NotFound("Prompt not found (answered, expired or cancelled)".into())),
        Err(AnswerError::Invalid(message)) => Err(AppError::Invalid(vec![FieldError {
            path: String::new(),
            message,
            hint: "send {\"approve\": true|false} for a confirmation, {\"index\": N} or {\"choice\": \"text\"} for a choice".into(),
        }])),
        Err(other) => Err(AppError::BadRequest(other.to_string())),
    }
}
