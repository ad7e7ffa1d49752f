//! MCP servers whose tools Deskmate imports: list, detail, add, replace, remove, and the
//! import of a Claude Desktop configuration. The body of an entry is a Claude Desktop
//! entry plus its name; `env` and `headers` values are kept as secrets and read back
//! `••••`.

use axum::Json;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use deskmate_service::mcp_input::{McpEntry, McpImport};
use deskmate_service::mcp_view::McpServerView;
use serde::Serialize;

use crate::AppState;
use crate::answers::Listed;
use crate::error::AppError;
use crate::extract::ApiBody;

async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, deskmate_service::ServiceError> + Send + 'static,
) -> Result<T, AppError> {
    Ok(tokio::task::spawn_blocking(work)
        .await
        .map_err(|e| AppError::Internal(e.to_string()))??)
}

/// What was deleted, by name.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct DeletedServer {
    /// Always `true`: a deletion that did not happen is an error answer.
    pub deleted: bool,
    /// The server's name.
    pub name: String,
}

/// `GET /api/v1/mcp/servers`.
#[utoipa::path(get, path = "/api/v1/mcp/servers", tag = "mcp", responses((status = 200, description = "{list: [server]}: name, command/args/env or url/headers, enabled, status {state: starting|running|failed|disabled, tools?, protocol?, reason?}, tools (ids)", body = Listed<McpServerView>)))]
pub async fn list(State(state): State<AppState>) -> Result<Json<Listed<McpServerView>>, AppError> {
    let deskmate = state.deskmate.clone();
    let list = blocking(move || deskmate.mcp_servers()).await?;
    Ok(Json(Listed::new(list)))
}

/// `GET /api/v1/mcp/servers/{name}`.
#[utoipa::path(get, path = "/api/v1/mcp/servers/{name}", tag = "mcp", params(("name" = String, Path, description = "Server name")), responses((status = 200, description = "The server", body = McpServerView), (status = 404, description = "No such server")))]
pub async fn detail(
    State(state): State<AppState>,
    Path(name): Path<String>,
) -> Result<Json<McpServerView>, AppError> {
    let deskmate = state.deskmate.clone();
    Ok(Json(blocking(move || deskmate.mcp_server(&name)).await?))
}

/// `POST /api/v1/mcp/servers` → 201 with the stored server.
#[utoipa::path(post, path = "/api/v1/mcp/servers", tag = "mcp", request_body = deskmate_service::mcp_input::NewMcpServer, responses((status = 201, description = "The stored server", body = McpServerView), (status = 422, description = "{detail, errors: [{path, message, hint}]}"), (status = 409, description = "A server with this name exists: `errors` names the field")))]
pub async fn create(
    State(state): State<AppState>,
    ApiBody(entry): ApiBody<McpEntry>,
) -> Result<(StatusCode, Json<McpServerView>), AppError> {
    let deskmate = state.deskmate.clone();
    let created = blocking(move || deskmate.create_mcp_server(entry)).await?;
    Ok((StatusCode::CREATED, Json(created)))
}

/// `PUT /api/v1/mcp/servers/{name}`: the whole entry again.
#[utoipa::path(put, path = "/api/v1/mcp/servers/{name}", tag = "mcp", params(("name" = String, Path, description = "Server name")), request_body = deskmate_service::mcp_input::McpServerChange, responses((status = 200, description = "The stored server", body = McpServerView), (status = 404, description = "No such server"), (status = 422, description = "{detail, errors: [{path, message, hint}]}")))]
pub async fn update(
    State(state): State<AppState>,
    Path(name): Path<String>,
    ApiBody(entry): ApiBody<McpEntry>,
) -> Result<Json<McpServerView>, AppError> {
    let deskmate = state.deskmate.clone();
    Ok(Json(
        blocking(move || deskmate.update_mcp_server(&name, entry)).await?,
    ))
}

/// `DELETE /api/v1/mcp/servers/{name}`: the server, its secrets and its tools.
#[utoipa::path(delete, path = "/api/v1/mcp/servers/{name}", tag = "mcp", params(("name" = String, Path, description = "Server name")), responses((status = 200, description = "The server was removed", body = DeletedServer), (status = 404, description = "No such server")))]
pub async fn delete(
    State(state): State<AppState>,
    Path(name): Path<String>,
) -> Result<Json<DeletedServer>, AppError> {
    let deskmate = state.deskmate.clone();
    let target = name.clone();
    blocking(move || deskmate.delete_mcp_server(&target)).await?;
    Ok(Json(DeletedServer {
        deleted: true,
        name,
    }))
}

/// `POST /api/v1/mcp/import`: a Claude Desktop configuration (`{"mcpServers": {…}}`);
/// every server is added, or none.
#[utoipa::path(post, path = "/api/v1/mcp/import", tag = "mcp", request_body = McpImport, responses((status = 201, description = "The servers added", body = Listed<McpServerView>), (status = 422, description = "{detail, errors: [{path, message, hint}]}"), (status = 409, description = "A server of this name exists: `errors` names the field")))]
pub async fn import(
    State(state): State<AppState>,
    ApiBody(config): ApiBody<McpImport>,
) -> Result<(StatusCode, Json<Listed<McpServerView>>), AppError> {
    let deskmate = state.deskmate.clone();
    let list = blocking(move || deskmate.import_mcp_config(config)).await?;
    Ok((StatusCode::CREATED, Json(Listed::new(list))))
}

/// `POST /api/v1/mcp/servers/{name}/tools/{tool}/approve`: accepts the changed
/// definition of an imported tool and enables it again.
#[utoipa::path(post, path = "/api/v1/mcp/servers/{name}/tools/{tool}/approve", tag = "mcp", params(("name" = String, Path, description = "Server name"), ("tool" = String, Path, description = "The tool's name on its server")), responses((status = 200, description = "The server", body = McpServerView), (status = 404, description = "No changed tool of that name")))]
pub async fn approve(
    State(state): State<AppState>,
    Path((name, tool)): Path<(String, String)>,
) -> Result<Json<McpServerView>, AppError> {
    let deskmate = state.deskmate.clone();
    Ok(Json(
        blocking(move || deskmate.approve_mcp_tool(&name, &tool)).await?,
    ))
}
