//! Stored conversations: the list the window's sidebar shows, a search of all of them,
//! one read back as the chat shows it, another of its branches shown, rename, delete.

use axum::Json;
use axum::extract::{Path, State};
use deskmate_agent::ConversationDetail;
use deskmate_store::conversation_search::ConversationHit;
use deskmate_store::conversations::Conversation;
use serde::{Deserialize, Serialize};
use utoipa::openapi::RefOr;
use utoipa::openapi::schema::{AnyOfBuilder, Schema};

use crate::AppState;
use crate::answers::{Deleted, Items, Page};
use crate::error::AppError;
use crate::extract::{ApiJson, ApiQuery};

/// Listing and search parameters.
#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub struct ListQuery {
    /// Search all conversations for these words (1 to 200 characters, trimmed; every
    /// word must be found in a title or one entry, in any case, Chinese inside a longer
    /// phrase too). With it, the answer is one page of hits.
    #[param(min_length = 1, max_length = 200, pattern = "\\S")]
    q: Option<String>,
    /// Page number, from 1.
    #[param(minimum = 1, maximum = 1000000)]
    page: Option<u32>,
    /// At most this many (default 200; 50 with `q`).
    #[param(minimum = 1, maximum = 1000)]
    limit: Option<u32>,
}

/// What `GET /api/v1/conversations` answers: the conversations, or with `q` one page of
/// the places the words were found. Declared as `anyOf` the two shapes (an empty page of
/// hits is also a valid listing, so `oneOf`, what utoipa derives, would refuse it).
#[derive(Debug, Serialize)]
#[serde(untagged)]
pub enum ConversationListing {
    /// Without `q`: the conversations, most recently used first.
    Conversations(Items<Conversation>),
    /// With `q`: one page of hits, the most recently used conversation first.
    Hits(Page<ConversationHit>),
}

impl utoipa::PartialSchema for ConversationListing {
    fn schema() -> RefOr<Schema> {
        AnyOfBuilder::new()
            .item(<Items<Conversation> as utoipa::PartialSchema>::schema())
            .item(<Page<ConversationHit> as utoipa::PartialSchema>::schema())
            .description(Some(
                "Without `q`: the conversations (`{list}`). With `q`: one page of hits (`{total, page, limit, list}`).",
            ))
            .into()
    }
}

impl utoipa::ToSchema for ConversationListing {
    fn schemas(schemas: &mut Vec<(String, RefOr<Schema>)>) {
        // The hit is named, so a client has a type for it.
        schemas.push((
            ConversationHit::name().into_owned(),
            <ConversationHit as utoipa::PartialSchema>::schema(),
        ));
        <ConversationHit as utoipa::ToSchema>::schemas(schemas);
        <Conversation as utoipa::ToSchema>::schemas(schemas);
    }
}

/// `GET /api/v1/conversations`: most recently used first, or searched with `q`.
#[utoipa::path(get, path = "/api/v1/conversations", tag = "chat", params(ListQuery), responses((status = 200, description = "Without `q`: the conversations, most recently used first (`{list}`). With `q`: one page of hits (`{total, page, limit, list}`), each a title or an entry (`seq`, as in the conversation's entries) with a snippet", body = ConversationListing), (status = 422, description = "`q` is empty or longer than 200 characters: `errors` names `/q`")))]
pub async fn list(
    State(state): State<AppState>,
    ApiQuery(q): ApiQuery<ListQuery>,
) -> Result<Json<ConversationListing>, AppError> {
    let default_limit = if q.q.is_some() { 50 } else { 200 };
    let (page, limit) = crate::paging::paging(q.page, q.limit, default_limit)?;
    let offset = u64::from(page - 1) * u64::from(limit);
    let Some(query) = q.q else {
        let list = state.agent.list_conversations(limit, offset)?;
        return Ok(Json(ConversationListing::Conversations(Items { list })));
    };
    let agent = state.agent.clone();
    let (total, list) =
        tokio::task::spawn_blocking(move || agent.search_conversations(&query, limit, offset))
            .await
            .map_err(|e| AppError::Internal(e.to_string()))??;
    Ok(Json(ConversationListing::Hits(Page {
        total,
        page,
        limit,
        list,
    })))
}

/// `GET /api/v1/conversations/{id}`: the conversation and its entries (user, assistant,
/// tool cards) in order.
#[utoipa::path(get, path = "/api/v1/conversations/{id}", tag = "chat", params(("id" = String, Path, description = "Conversation id")), responses((status = 200, description = "The conversation and its entries", body = ConversationDetail), (status = 404, description = "Conversation not found")))]
pub async fn detail(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Json<ConversationDetail>, AppError> {
    Ok(Json(state.agent.conversation(&id)?))
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
    Ok(Json(state.agent.rename_conversation(&id, &body.title)?))
}

/// Which branch to show.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ShowBranch {
    /// A message of the conversation (a sibling from `branches`): its latest
    /// continuation is shown.
    seq: i64,
}

/// `PUT /api/v1/conversations/{id}/branch`: shows another branch.
#[utoipa::path(put, path = "/api/v1/conversations/{id}/branch", tag = "chat", params(("id" = String, Path, description = "Conversation id")), request_body = ShowBranch, responses((status = 200, description = "The conversation as it now shows", body = ConversationDetail), (status = 404, description = "Conversation or message not found"), (status = 422, description = "Invalid body")))]
pub async fn show_branch(
    State(state): State<AppState>,
    Path(id): Path<String>,
    ApiJson(body): ApiJson<ShowBranch>,
) -> Result<Json<ConversationDetail>, AppError> {
    Ok(Json(state.agent.show_branch(&id, body.seq)?))
}

/// `DELETE /api/v1/conversations/{id}`: the conversation and its messages.
#[utoipa::path(delete, path = "/api/v1/conversations/{id}", tag = "chat", params(("id" = String, Path, description = "Conversation id")), responses((status = 200, description = "The conversation was deleted", body = Deleted), (status = 404, description = "Conversation not found")))]
pub async fn delete(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Json<Deleted>, AppError> {
    state.agent.delete_conversation(&id)?;
    Ok(Json(Deleted::new(id)))
}
