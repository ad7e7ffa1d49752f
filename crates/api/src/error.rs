//! Every error the API answers is JSON, an [`ErrorBody`]: `{"detail": "...", "hint"?, "errors"?}`.

use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use deskmate_service::ServiceError;
use deskmate_service::error::FieldError;
use serde::Serialize;

/// An API error: a status and a JSON body.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum AppError {
    /// 400: the request could not be read (bad JSON, wrong types in the query).
    #[error("{0}")]
    BadRequest(String),
    /// 405: the path exists, the method does not (the router adds `Allow`).
    #[error("method not allowed for this path")]
    MethodNotAllowed,
    /// 401: no or wrong bearer token.
    #[error("missing or invalid bearer token")]
    Unauthorized,
    /// 403: refused (foreign Host or Origin, a built-in tool that cannot be deleted).
    #[error("{0}")]
    Forbidden(String),
    /// 404 with the API contract's message.
    #[error("{0}")]
    NotFound(String),
    /// 413: the body is over the limit.
    #[error("request body too large")]
    TooLarge,
    /// 415: not JSON.
    #[error("{0}")]
    UnsupportedMediaType(String),
    /// 422: valid JSON that breaks the rules, one entry per field.
    #[error("invalid input")]
    Invalid(Vec<FieldError>),
    /// 409: the request does not fit the current state (recording while recording).
    #[error("{0}")]
    Conflict(String),
    /// 409: the id or name is already used, one entry per field.
    #[error("already used")]
    Taken(Vec<FieldError>),
    /// 503: a device or server is busy or failed; trying again later may work.
    #[error("{0}")]
    Unavailable(String),
    /// 500: logged with its cause, answered generically.
    #[error("internal error")]
    Internal(String),
}

impl From<ServiceError> for AppError {
    fn from(error: ServiceError) -> Self {
        match error {
            ServiceError::NotFound { what, .. } => {
                // The API contract spells these with a capital letter: "Tool not found".
                let mut detail = what.to_string();
                if let Some(first) = detail.get_mut(0..1) {
                    first.make_ascii_uppercase();
                }
                Self::NotFound(format!("{detail} not found"))
            }
            ServiceError::Invalid(errors) => Self::Invalid(errors),
            ServiceError::Taken(errors) => Self::Taken(errors),
            ServiceError::Forbidden(message) => Self::Forbidden(message),
            ServiceError::Model(e) => Self::Unavailable(e.to_string()),
            // The OS keyring refused or is locked: trying again (after unlocking) may work.
            ServiceError::Secrets(deskmate_service::secrets::SecretsError::Keyring(why)) => {
                Self::Unavailable(why)
            }
            other => Self::Internal(other.to_string()),
        }
    }
}

/// The body of every error answer.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct ErrorBody {
    /// What went wrong, in one sentence.
    pub detail: String,
    /// How to fix it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hint: Option<String>,
    /// For a 422: one entry per problem, at a JSON pointer into the request body.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub errors: Option<Vec<FieldError>>,
}

impl ErrorBody {
    fn new(detail: impl Into<String>, hint: Option<&str>) -> Self {
        Self {
            detail: detail.into(),
            hint: hint.map(str::to_string),
            errors: None,
        }
    }
}

impl IntoResponse for AppError {
    fn into_response(self) -> Response {
        let (status, body) = match &self {
            Self::BadRequest(detail) => (StatusCode::BAD_REQUEST, ErrorBody::new(detail, None)),
            Self::MethodNotAllowed => (
                StatusCode::METHOD_NOT_ALLOWED,
                ErrorBody::new(
                    "method not allowed for this path",
                    Some("the Allow header lists the methods this path answers"),
                ),
            ),
            Self::Unauthorized => (
                StatusCode::UNAUTHORIZED,
                ErrorBody::new(
                    "missing or invalid bearer token",
                    Some(
                        "send Authorization: Bearer <token>; the token is in the data dir's api-token file",
                    ),
                ),
            ),
            Self::Forbidden(detail) => (StatusCode::FORBIDDEN, ErrorBody::new(detail, None)),
            Self::NotFound(detail) => (StatusCode::NOT_FOUND, ErrorBody::new(detail, None)),
            Self::TooLarge => (
                StatusCode::PAYLOAD_TOO_LARGE,
                ErrorBody::new(
                    "request body too large",
                    Some("bodies are limited to 1 MiB"),
                ),
            ),
            Self::UnsupportedMediaType(detail) => (
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                ErrorBody::new(detail, Some("send Content-Type: application/json")),
            ),
            Self::Invalid(errors) => (
                StatusCode::UNPROCESSABLE_ENTITY,
                ErrorBody {
                    detail: "invalid input".into(),
                    hint: errors.first().map(|e| e.hint.clone()),
                    errors: Some(errors.clone()),
                },
            ),
            Self::Conflict(detail) => (StatusCode::CONFLICT, ErrorBody::new(detail, None)),
            Self::Taken(errors) => (
                StatusCode::CONFLICT,
                ErrorBody {
                    detail: "already used".into(),
                    hint: errors.first().map(|e| e.hint.clone()),
                    errors: Some(errors.clone()),
                },
            ),
            Self::Unavailable(detail) => (
                StatusCode::SERVICE_UNAVAILABLE,
                ErrorBody::new(detail, Some("try again in a moment")),
            ),
            Self::Internal(cause) => {
                tracing::error!(%cause, "internal error answering a request");
                (
                    StatusCode::INTERNAL_SERVER_ERROR,
                    ErrorBody::new("internal error", Some("see the server log")),
                )
            }
        };
        (status, Json(body)).into_response()
    }
}
