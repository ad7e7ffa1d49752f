//! `GET /api/v1/audit`: the call log, filtered by tool, outcome and time, paged.

use axum::Json;
use axum::extract::State;
use deskmate_store::audit::AuditFilter;
use serde::Deserialize;
use serde_json::{Value, json};

use crate::AppState;
use crate::error::AppError;
use crate::extract::ApiQuery;

/// Query parameters.
#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub struct AuditQuery {
    tool: Option<String>,
    /// `ok` or `error`.
    outcome: Option<String>,
    /// RFC 3339 time; events at or after it.
    since: Option<String>,
    page: Option<u32>,
    limit: Option<u32>,
}

/// `GET /api/v1/audit`.
#[utoipa::path(get, path = "/api/v1/audit", tag = "audit", params(AuditQuery), responses((status = 200, description = "{total, page, limit, list}", body = Object)))]
pub async fn list(
    State(state): State<AppState>,
    ApiQuery(q): ApiQuery<AuditQuery>,
) -> Result<Json<Value>, AppError> {
    let ok = match q.outcome.as_deref() {
        None => None,
        Some("ok") => Some(true),
        Some("error") => Some(false),
        Some(other) => {
            return Err(AppError::BadRequest(format!(
                "outcome must be 'ok' or 'error', not '{other}'"
            )));
        }
    };
    let page = q.page.unwrap_or(1).max(1);
    let limit = q.limit.unwrap_or(50).clamp(1, 1000);
    let store = state
        .deskmate
        .store()
        .ok_or_else(|| AppError::Internal("no store".into()))?;
    let filter = AuditFilter {
        tool: q.tool,
        ok,
        since: q.since,
        page,
        limit,
    };
    let (total, list) = store
        .list_audit(&filter)
        .map_err(|e| AppError::Internal(e.to_string()))?;
    Ok(Json(
        json!({"total": total, "page": page, "limit": limit, "list": list}),
    ))
}
