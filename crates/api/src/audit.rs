//! `GET /api/v1/audit`: the call log, filtered by tool, outcome and time, paged.

use axum::Json;
use axum::extract::State;
use deskmate_store::audit::{AuditEvent, AuditFilter};
use serde::Deserialize;

use crate::AppState;
use crate::answers::Page;
use crate::error::AppError;
use crate::extract::ApiQuery;

/// Query parameters.
#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub struct AuditQuery {
    tool: Option<String>,
    /// Only calls that succeeded, or only those that failed.
    #[param(inline)]
    outcome: Option<Outcome>,
    /// RFC 3339 time; events at or after it.
    since: Option<String>,
    /// Page number, from 1.
    #[param(minimum = 1, maximum = 1000000)]
    page: Option<u32>,
    /// Items per page (default 50).
    #[param(minimum = 1, maximum = 1000)]
    limit: Option<u32>,
}

/// A call's outcome.
#[derive(Debug, Clone, Copy, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Outcome {
    /// It succeeded.
    Ok,
    /// It failed.
    Error,
}

/// `GET /api/v1/audit`.
#[utoipa::path(get, path = "/api/v1/audit", tag = "audit", params(AuditQuery), responses((status = 200, description = "One page of the log, newest first", body = Page<AuditEvent>)))]
pub async fn list(
    State(state): State<AppState>,
    ApiQuery(q): ApiQuery<AuditQuery>,
) -> Result<Json<Page<AuditEvent>>, AppError> {
    let ok = q.outcome.map(|o| matches!(o, Outcome::Ok));
    let (page, limit) = crate::paging::paging(q.page, q.limit, 50)?;
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
    Ok(Json(Page {
        total,
        page,
        limit,
        list,
    }))
}
