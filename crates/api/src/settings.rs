//! The user's settings: list them, set one.

use axum::Json;
use axum::extract::{Path, State};
use serde::Deserialize;
use serde_json::{Value, json};

use crate::AppState;
use crate::error::AppError;
use crate::extract::ApiJson;

/// `GET /api/v1/settings`: every known setting with its value, default and description.
#[utoipa::path(get, path = "/api/v1/settings", tag = "settings", responses((status = 200, description = "{settings: [{key, value, default, is_set, description}]}", body = Object)))]
pub async fn list(State(state): State<AppState>) -> Result<Json<Value>, AppError> {
    Ok(Json(json!({"settings": state.deskmate.settings()?})))
}

/// A setting's new value.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SettingValue {
    value: Value,
}

/// `PUT /api/v1/settings/{key}` with `{"value": …}`: applied to the tools at once.
#[utoipa::path(put, path = "/api/v1/settings/{key}", tag = "settings", params(("key" = String, Path, description = "Setting key, e.g. sandbox.allow_weaker")), request_body = SettingValue, responses((status = 200, description = "The setting", body = Object), (status = 404, description = "Unknown key", body = Object), (status = 422, description = "Wrong type", body = Object)))]
pub async fn set(
    State(state): State<AppState>,
    Path(key): Path<String>,
    ApiJson(body): ApiJson<SettingValue>,
) -> Result<Json<Value>, AppError> {
    let deskmate = state.deskmate.clone();
    let setting = tokio::task::spawn_blocking(move || deskmate.set_setting(&key, body.value))
        .await
        .map_err(|e| AppError::Internal(e.to_string()))??;
    Ok(Json(json!(setting)))
}
