//! The API contract's tool resources: list with filters and paging, detail, create, update, delete.

use axum::Json;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use deskmate_service::resource_input::ResourceInput;
use deskmate_store::resources::{ResourceFilter, ToolResource};
use serde::Deserialize;

use crate::AppState;
use crate::answers::{Deleted, Page};
use crate::error::AppError;
use crate::extract::{ApiBody, ApiQuery};

/// The API contract's query parameters.
#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub struct ListQuery {
    /// Only HTTP tools (`query`) or only built-in ones (`system`).
    #[param(inline)]
    category: Option<ListedCategory>,
    enabled: Option<bool>,
    include_system: Option<bool>,
    /// Page number, from 1.
    #[param(minimum = 1, maximum = 1000000)]
    page: Option<u32>,
    /// Items per page (default 100).
    #[param(minimum = 1, maximum = 1000)]
    limit: Option<u32>,
}

/// The categories a listing filters by.
#[derive(Debug, Clone, Copy, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum ListedCategory {
    /// HTTP tools.
    Query,
    /// Built-in tools.
    System,
}

/// `GET /api/v1/tools/resources`.
#[utoipa::path(get, path = "/api/v1/tools/resources", tag = "resources", params(ListQuery), responses((status = 200, description = "One page of the resources", body = Page<ToolResource>)))]
pub async fn list(
    State(state): State<AppState>,
    ApiQuery(q): ApiQuery<ListQuery>,
) -> Result<Json<Page<ToolResource>>, AppError> {
    let (page, limit) = crate::paging::paging(q.page, q.limit, 100)?;
    let filter = ResourceFilter {
        category: q.category.map(|c| match c {
            ListedCategory::Query => "query".to_string(),
            ListedCategory::System => "system".to_string(),
        }),
        enabled: q.enabled,
        include_system: q.include_system.unwrap_or(true),
        page,
        limit,
    };
    let (total, list) = state.deskmate.list_resources(&filter)?;
    Ok(Json(Page {
        total,
        page,
        limit,
        list,
    }))
}

/// `GET /api/v1/tools/resources/{id}`.
#[utoipa::path(get, path = "/api/v1/tools/resources/{id}", tag = "resources", params(("id" = String, Path, description = "Resource id")), responses((status = 200, description = "The resource", body = ToolResource), (status = 404, description = "Not found")))]
pub async fn detail(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Json<ToolResource>, AppError> {
    Ok(Json(state.deskmate.resource(&id)?))
}

/// `POST /api/v1/tools/resources` → 201 with the stored resource.
#[utoipa::path(post, path = "/api/v1/tools/resources", tag = "resources", description = "Fields that depend on each other are checked beyond this schema (a JSON Schema cannot state it): every `{name}` placeholder of `http_url` must be a required or defaulted property of `parameter_schema`, and the defaults must satisfy it. A body valid by the schema can so still get a 422 naming the field.", request_body = ResourceInput, responses((status = 201, description = "The stored resource", body = ToolResource), (status = 422, description = "{detail, errors: [{path, message, hint}]}")))]
pub async fn create(
    State(state): State<AppState>,
    ApiBody(input): ApiBody<ResourceInput>,
) -> Result<(StatusCode, Json<ToolResource>), AppError> {
    let deskmate = state.deskmate.clone();
    let created = tokio::task::spawn_blocking(move || deskmate.create_resource(input))
        .await
        .map_err(|e| AppError::Internal(e.to_string()))??;
    Ok((StatusCode::CREATED, Json(created)))
}

/// `PUT /api/v1/tools/resources/{id}`.
#[utoipa::path(put, path = "/api/v1/tools/resources/{id}", tag = "resources", description = "Fields that depend on each other are checked beyond this schema (a JSON Schema cannot state it): every `{name}` placeholder of `http_url` must be a required or defaulted property of `parameter_schema`, and the defaults must satisfy it. A body valid by the schema can so still get a 422 naming the field.", params(("id" = String, Path, description = "Resource id")), request_body = ResourceInput, responses((status = 200, description = "The stored resource", body = ToolResource), (status = 422, description = "Invalid input")))]
pub async fn update(
    State(state): State<AppState>,
    Path(id): Path<String>,
    ApiBody(input): ApiBody<ResourceInput>,
) -> Result<Json<ToolResource>, AppError> {
    let deskmate = state.deskmate.clone();
    let updated = tokio::task::spawn_blocking(move || deskmate.update_resource(&id, input))
        .await
        .map_err(|e| AppError::Internal(e.to_string()))??;
    Ok(Json(updated))
}

/// `DELETE /api/v1/tools/resources/{id}`.
#[utoipa::path(delete, path = "/api/v1/tools/resources/{id}", tag = "resources", params(("id" = String, Path, description = "Resource id")), responses((status = 200, description = "The resource was deleted", body = Deleted), (status = 403, description = "A built-in tool")))]
pub async fn delete(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Json<Deleted>, AppError> {
    let deskmate = state.deskmate.clone();
    let target = id.clone();
    tokio::task::spawn_blocking(move || deskmate.delete_resource(&target))
        .await
        .map_err(|e| AppError::Internal(e.to_string()))??;
    Ok(Json(Deleted::new(id)))
}
