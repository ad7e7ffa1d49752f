//! Secrets by name, for `{secret:NAME}` header references: set, list names, delete.
//! A value goes in and never comes out.

use axum::Json;
use axum::extract::{Path, State};
use deskmate_service::error::FieldError;
use deskmate_service::secrets::StoreInfo;
use serde::{Deserialize, Serialize};

use crate::AppState;
use crate::error::AppError;
use crate::extract::ApiJson;

fn secrets(
    state: &AppState,
) -> Result<&std::sync::Arc<deskmate_service::secrets::Secrets>, AppError> {
    state
        .deskmate
        .secrets()
        .ok_or_else(|| AppError::Internal("no secret store".into()))
}

/// `GET /api/v1/secrets`: the names only, and where they are kept (the OS keyring, or
/// the owner-only file and why).
#[utoipa::path(get, path = "/api/v1/secrets", tag = "secrets", responses((status = 200, description = "The names of the secrets and where they are kept", body = SecretList)))]
pub async fn list(State(state): State<AppState>) -> Result<Json<SecretList>, AppError> {
    let secrets = secrets(&state)?;
    Ok(Json(SecretList {
        names: secrets.names(),
        store: secrets.store().clone(),
    }))
}

/// The names of the secrets (never their values) and where they are kept.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct SecretList {
    /// The names, sorted.
    pub names: Vec<String>,
    /// The OS keyring, or the owner-only file and why.
    pub store: StoreInfo,
}

/// A secret that was set.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct SecretSet {
    /// Its name.
    pub name: String,
    /// Always `true`.
    pub set: bool,
}

/// A secret that was deleted.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct SecretDeleted {
    /// Its name.
    pub name: String,
    /// Always `true`: a secret that was not set is a 404.
    pub deleted: bool,
}

/// A secret's value.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SecretValue {
    /// The secret: one line, at most 8192 bytes (UTF-8).
    #[schema(min_length = 1, max_length = 8192, pattern = "^[^\\r\\n]+$")]
    value: String,
}

/// `PUT /api/v1/secrets/{name}` with `{"value": "…"}`.
#[utoipa::path(put, path = "/api/v1/secrets/{name}", tag = "secrets", params(("name" = String, Path, description = "Secret name: 1-64 letters, digits, `_`, `.` or `-`", pattern = "^[A-Za-z0-9_.-]{1,64}$")), request_body = SecretValue, responses((status = 200, description = "The secret is set", body = SecretSet)))]
pub async fn set(
    State(state): State<AppState>,
    Path(name): Path<String>,
    ApiJson(body): ApiJson<SecretValue>,
) -> Result<Json<SecretSet>, AppError> {
    if !deskmate_service::secrets::valid_name(&name) {
        return Err(AppError::Invalid(vec![FieldError {
            path: "/name".into(),
            message: format!("'{name}' is not a valid secret name"),
            hint: "use 1-64 letters, digits, '_', '.' or '-'".into(),
        }]));
    }
    if body.value.is_empty() || body.value.len() > 8192 || body.value.contains(['\r', '\n']) {
        return Err(AppError::Invalid(vec![FieldError {
            path: "/value".into(),
            message: "a secret must have 1 to 8192 bytes and no line breaks".into(),
            hint: "paste the key on one line".into(),
        }]));
    }
    secrets(&state)?
        .set(&name, &body.value)
        .map_err(|e| AppError::from(deskmate_service::ServiceError::from(e)))?;
    Ok(Json(SecretSet { name, set: true }))
}

/// `DELETE /api/v1/secrets/{name}`.
#[utoipa::path(delete, path = "/api/v1/secrets/{name}", tag = "secrets", params(("name" = String, Path, description = "Secret name: 1-64 letters, digits, `_`, `.` or `-`", pattern = "^[A-Za-z0-9_.-]{1,64}$")), responses((status = 200, description = "The secret is deleted", body = SecretDeleted), (status = 404, description = "Not set")))]
pub async fn delete(
    State(state): State<AppState>,
    Path(name): Path<String>,
) -> Result<Json<SecretDeleted>, AppError> {
    if secrets(&state)?
        .remove(&name)
        .map_err(|e| AppError::from(deskmate_service::ServiceError::from(e)))?
    {
        Ok(Json(SecretDeleted {
            name,
            deleted: true,
        }))
    } else {
        Err(AppError::NotFound("Secret not found".into()))
    }
}
