//! Stored conversations: the list the window's sidebar shows, one read back as the chat
//! shows it, rename, delete.

use axum::Json;
use axum::extract::{Path, State};
use deskmate_service::conversations::ConversationDetail;
use deskmate_store::conversations::Conversation;
use serde::Deserialize;

use crate::AppState;
use crate::answers::{Deleted, Items};
use crate::error::AppError;
use crate::extract::{ApiJson, ApiQuery};

/// Listing parameters.
#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub struct ListQuery {
    /// At most this many (default 200).
    #[param(minimum = 1, maximum = 1000)]
    limit: Option<u32>,
}

/// `GET /api/v1/conversations`: most recently used first.
#[utoipa::path(get, path = "/api/v1/conversations", tag = "chat", params(ListQuery), responses((status = 200, description = "The conversations, most recently used first", body = Items<Conversation>), (status = 422, description = "Invalid query")))]
pub async fn list(
    State(state): State<AppState>,
    ApiQuery(q): ApiQuery<ListQuery>,
) -> Result<Json<Items<Conversation>>, AppError> {
    let list = state
        .deskmate
        .list_conversations(crate::paging::paging(None, q.limit, 200)?.1)?;
    Ok(Json(Items { list }))
}

/// `GET /api/v1/conversations/{id}`: the conversation and its entries (user, assistant,
/// tool cards) in order.
#[utoipa::path(get, path = "/api/v1/conversations/{id}", tag = "chat", params(("id" = String, Path, description = "Conversation id")), responses((status = 200, description = "The conversation and its entries", body = ConversationDetail), (status = 404, description = "Conversation not found")))]
pub async fn detail(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Json<ConversationDetail>, AppError> {
    Ok(Json(state.deskmate.conversation(&id)?))
}

/// A new title.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Rename {
    /// 1 to 200 characters.
    #[schema(min_length = 1, max_length = 200)]
    title: String,
}

/// `PATCH /api/v1/conversations/{id}`: renames it.
#[utoipa::path(patch, path = "/api/v1/conversations/{id}", tag = "chat", params(("id" = String, Path, description = "Conversation id")), request_body = Rename, responses((status = 200, description = "The conversation", body = Conversation), (status = 404, description = "Conversation not found"), (status = 422, description = "Invalid title")))]
pub async fn rename(
    State(state): State<AppState>,
    Path(id): Path<String>,
    ApiJson(body): ApiJson<Rename>,
) -> Result<Json<Conversation>, AppError> {
    Ok(Json(state.deskmate.rename_conversation(&id, &body.title)?))
}

/// `DELETE /api/v1/conversations/{id}`: the conversation and its messages.
#[utoipa::path(delete, path = "/api/v1/conversations/{id}", tag = "chat", params(("id" = String, Path, description = "Conversation id")), responses((status = 200, description = "The conversation was deleted", body = Deleted), (status = 404, description = "Conversation not found")))]
pub async fn delete(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Json<Deleted>, AppError> {
    state.deskmate.delete_conversation(&id)?;
    Ok(Json(Deleted::new(id)))
}
