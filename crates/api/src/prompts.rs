//! Pending prompts: list them, answer them (how a headless run confirms a call or answers
//! a choice dialog).

use axum::Json;
use axum::extract::{Path, State};
use deskmate_service::prompts::AnswerError;
use deskmate_service::resources::FieldError;
use serde_json::{Value, json};

use crate::AppState;
use crate::error::AppError;
use crate::extract::ApiJson;

/// `GET /api/v1/prompts`.
#[utoipa::path(get, path = "/api/v1/prompts", tag = "prompts", responses((status = 200, description = "{list: [prompt]}", body = Object)))]
pub async fn list(State(state): State<AppState>) -> Json<Value> {
    Json(json!({"list": state.prompts.list()}))
}

/// `POST /api/v1/prompts/{id}/answer` with `{"approve": bool}`, `{"index": N}` or
/// `{"choice": "text"}`.
#[utoipa::path(post, path = "/api/v1/prompts/{id}/answer", tag = "prompts", params(("id" = String, Path, description = "Prompt id")), request_body = Object, responses((status = 200, description = "{answered, id}", body = Object), (status = 404, description = "Not pending", body = Object), (status = 422, description = "Wrong answer for the prompt", body = Object)))]
pub async fn answer(
    State(state): State<AppState>,
    Path(id): Path<String>,
    ApiJson(body): ApiJson<Value>,
) -> Result<Json<Value>, AppError> {
    match state.prompts.answer_json(&id, &body) {
        Ok(()) => Ok(Json(json!({"answered": true, "id": id}))),
        Err(AnswerError::NotFound(_)) => Err(AppError::NotFound("Prompt not found (answered, expired or cancelled)".into())),
        Err(AnswerError::Invalid(message)) => Err(AppError::Invalid(vec![FieldError {
            path: String::new(),
            message,
            hint: "send {\"approve\": true|false} for a confirmation, {\"index\": N} or {\"choice\": \"text\"} for a choice".into(),
        }])),
        Err(other) => Err(AppError::BadRequest(other.to_string())),
    }
}
