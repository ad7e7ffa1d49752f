//! Pending prompts: list them, answer them (how a headless run confirms a call or answers
//! a choice dialog).

use axum::Json;
use axum::extract::{Path, State};
use deskmate_service::error::FieldError;
use deskmate_service::prompts::{ANSWER_HINT, AnswerError, Prompt, PromptAnswer};
use serde::Serialize;

use crate::answers::Items;

use crate::AppState;
use crate::error::AppError;
use crate::extract::ApiBody;

/// `GET /api/v1/prompts`.
#[utoipa::path(get, path = "/api/v1/prompts", tag = "prompts", responses((status = 200, description = "The prompts waiting for an answer", body = Items<Prompt>)))]
pub async fn list(State(state): State<AppState>) -> Json<Items<Prompt>> {
    Json(Items {
        list: state.prompts.list(),
    })
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
    ApiBody(body): ApiBody<PromptAnswer>,
) -> Result<Json<Answered>, AppError> {
    match state.prompts.answer_body(&id, &body) {
        Ok(()) => Ok(Json(Answered { answered: true, id })),
        Err(AnswerError::NotFound(_)) => Err(AppError::NotFound(
            "Prompt not found (answered, expired or cancelled)".into(),
        )),
        Err(AnswerError::Invalid(message)) => Err(AppError::Invalid(vec![FieldError {
            path: String::new(),
            message,
            hint: ANSWER_HINT.into(),
        }])),
        Err(other) => Err(AppError::BadRequest(other.to_string())),
    }
}
