//! The user's settings: list them, set one.

use axum::Json;
use axum::extract::{Path, State};
use deskmate_service::settings::Setting;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::AppState;
use crate::error::AppError;
use crate::extract::ApiJson;

/// Every known setting.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct SettingList {
    /// The settings, in a fixed order.
    pub settings: Vec<Setting>,
}

/// `GET /api/v1/settings`: every known setting with its value, default and description.
#[utoipa::path(get, path = "/api/v1/settings", tag = "settings", responses((status = 200, description = "Every known setting", body = SettingList)))]
pub async fn list(State(state): State<AppState>) -> Result<Json<SettingList>, AppError> {
    Ok(Json(SettingList {
        settings: state.deskmate.settings()?,
    }))
}

/// A setting's new value.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SettingValue {
    value: Value,
}

/// `PUT /api/v1/settings/{key}` with `{"value": …}`: applied to the tools at once.
#[utoipa::path(put, path = "/api/v1/settings/{key}", tag = "settings", params(("key" = String, Path, description = "Setting key, e.g. sandbox.allow_weaker")), request_body = SettingValue, responses((status = 200, description = "The setting", body = Setting), (status = 404, description = "Unknown key"), (status = 422, description = "Wrong type")))]
pub async fn set(
    State(state): State<AppState>,
    Path(key): Path<String>,
    ApiJson(body): ApiJson<SettingValue>,
) -> Result<Json<Setting>, AppError> {
    let deskmate = state.deskmate.clone();
    let setting = tokio::task::spawn_blocking(move || deskmate.set_setting(&key, body.value))
        .await
        .map_err(|e| AppError::Internal(e.to_string()))??;
    Ok(Json(setting))
}
