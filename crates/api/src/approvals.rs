//! Approvals that last ("always allow this tool", "allow in this conversation"): list
//! them and take one back, after which the tool asks again.

use axum::Json;
use axum::extract::{Path, State};
use deskmate_service::approvals::Approval;
use deskmate_service::error::FieldError;
use serde::Deserialize;

use crate::AppState;
use crate::answers::{Deleted, Items};
use crate::error::AppError;
use crate::extract::ApiQuery;

/// Listing parameters.
#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub struct ListQuery {
    /// Only this tool's approvals.
    #[param(min_length = 1, max_length = 128)]
    tool: Option<String>,
}

/// `GET /api/v1/approvals`.
#[utoipa::path(get, path = "/api/v1/approvals", tag = "approvals", params(ListQuery), responses((status = 200, description = "The approvals, the newest first", body = Items<Approval>), (status = 422, description = "An empty or too long tool id")))]
pub async fn list(
    State(state): State<AppState>,
    ApiQuery(q): ApiQuery<ListQuery>,
) -> Result<Json<Items<Approval>>, AppError> {
    if q.tool
        .as_deref()
        .is_some_and(|t| t.is_empty() || t.len() > 128)
    {
        return Err(AppError::Invalid(vec![FieldError {
            path: "/tool".into(),
            message: "tool must be a tool id of 1 to 128 characters".into(),
            hint: "leave tool out to list every approval".into(),
        }]));
    }
    let list = state.deskmate.approvals(q.tool.as_deref())?;
    Ok(Json(Items { list }))
}

/// `DELETE /api/v1/approvals/{id}`: the tool asks again.
#[utoipa::path(delete, path = "/api/v1/approvals/{id}", tag = "approvals", params(("id" = String, Path, description = "Approval id")), responses((status = 200, description = "The approval was taken back", body = Deleted), (status = 404, description = "Approval not found")))]
pub async fn revoke(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Json<Deleted>, AppError> {
    state.deskmate.revoke_approval(&id)?;
    Ok(Json(Deleted::new(id)))
}
