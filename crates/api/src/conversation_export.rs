//! A conversation exported (Markdown to read, JSON to import again) and imported.

use axum::Json;
use axum::extract::{Path, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use deskmate_agent::ConversationDetail;
use deskmate_agent::conversation_export::{Branches, ConversationExport};
use serde::Deserialize;

use crate::AppState;
use crate::error::AppError;
use crate::extract::{ApiBody, ApiQuery};

/// The file an export makes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ExportFormat {
    /// Markdown to read.
    #[default]
    Markdown,
    /// JSON to import again.
    Json,
}

/// Export parameters.
#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub struct ExportQuery {
    /// `markdown` (default) or `json`.
    #[param(inline)]
    format: Option<ExportFormat>,
    /// `active` (the branch shown, default) or `all`.
    #[param(inline)]
    branches: Option<Branches>,
    /// The language of the Markdown's labels: `zh-CN` or `en` (default).
    #[param(max_length = 35)]
    lang: Option<String>,
}

/// `GET /api/v1/conversations/{id}/export`.
#[utoipa::path(get, path = "/api/v1/conversations/{id}/export", tag = "chat", params(("id" = String, Path, description = "Conversation id"), ExportQuery), responses((status = 200, description = "The conversation as Markdown (text/markdown) or as JSON to import again", content((String = "text/markdown"), (ConversationExport = "application/json"))), (status = 404, description = "Conversation not found")))]
pub async fn export(
    State(state): State<AppState>,
    Path(id): Path<String>,
    ApiQuery(q): ApiQuery<ExportQuery>,
) -> Result<Response, AppError> {
    let branches = q.branches.unwrap_or_default();
    Ok(match q.format.unwrap_or_default() {
        ExportFormat::Json => Json(state.agent.export_json(&id, branches)?).into_response(),
        ExportFormat::Markdown => {
            let zh = q
                .lang
                .as_deref()
                .is_some_and(|l| l.to_ascii_lowercase().starts_with("zh"));
            let text = state.agent.export_markdown(&id, branches, zh)?;
            (
                [(header::CONTENT_TYPE, "text/markdown; charset=utf-8")],
                text,
            )
                .into_response()
        }
    })
}

/// `POST /api/v1/conversations/import` → 201: a new conversation, all of it or nothing.
#[utoipa::path(post, path = "/api/v1/conversations/import", tag = "chat", request_body = ConversationExport, responses((status = 201, description = "The conversation made from the export", body = ConversationDetail), (status = 422, description = "{detail, errors}: every wrong field; nothing stored")))]
pub async fn import(
    State(state): State<AppState>,
    ApiBody(body): ApiBody<ConversationExport>,
) -> Result<(StatusCode, Json<ConversationDetail>), AppError> {
    Ok((
        StatusCode::CREATED,
        Json(state.agent.import_conversation(&body)?),
    ))
}
