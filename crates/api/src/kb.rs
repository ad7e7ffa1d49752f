//! Knowledge-base documents: list, add, read, delete, import a folder, search.

use std::path::PathBuf;

use axum::Json;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use deskmate_service::knowledge::ImportReport;
use deskmate_store::kb::{KbDocument, KbHit};
use serde::{Deserialize, Serialize};

use crate::AppState;
use crate::answers::Page;
use crate::error::AppError;
use crate::extract::{ApiJson, ApiQuery};

/// Listing parameters.
#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub struct ListQuery {
    kb_id: Option<String>,
    /// Page number, from 1.
    #[param(minimum = 1, maximum = 1000000)]
    page: Option<u32>,
    /// Items per page (default 50).
    #[param(minimum = 1, maximum = 1000)]
    limit: Option<u32>,
}

/// `GET /api/v1/kb/documents`.
#[utoipa::path(get, path = "/api/v1/kb/documents", tag = "knowledge", params(ListQuery), responses((status = 200, description = "One page of the documents, newest first", body = Page<KbDocument>)))]
pub async fn list(
    State(state): State<AppState>,
    ApiQuery(q): ApiQuery<ListQuery>,
) -> Result<Json<Page<KbDocument>>, AppError> {
    let (page, limit) = crate::paging::paging(q.page, q.limit, 50)?;
    let (total, list) = state
        .deskmate
        .list_documents(q.kb_id.as_deref(), page, limit)?;
    Ok(Json(Page {
        total,
        page,
        limit,
        list,
    }))
}

/// A new document.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewDocument {
    /// Knowledge base id: 1-64 letters, digits, `_` or `-`.
    #[schema(pattern = "^[A-Za-z0-9_-]{1,64}$")]
    kb_id: String,
    /// 1 to 200 characters, not only spaces.
    #[schema(min_length = 1, max_length = 200, pattern = "\\S")]
    title: String,
    /// The text: not only spaces, at most 1 MiB (counted in UTF-8 bytes).
    #[schema(min_length = 1, max_length = 1048576, pattern = "\\S")]
    body: String,
    source: Option<String>,
}

/// `POST /api/v1/kb/documents` → 201.
#[utoipa::path(post, path = "/api/v1/kb/documents", tag = "knowledge", request_body = NewDocument, responses((status = 201, description = "The document", body = KbDocument)))]
pub async fn create(
    State(state): State<AppState>,
    ApiJson(doc): ApiJson<NewDocument>,
) -> Result<(StatusCode, Json<KbDocument>), AppError> {
    let deskmate = state.deskmate.clone();
    let created = tokio::task::spawn_blocking(move || {
        deskmate.add_document(&doc.kb_id, &doc.title, &doc.body, doc.source.as_deref())
    })
    .await
    .map_err(|e| AppError::Internal(e.to_string()))??;
    Ok((StatusCode::CREATED, Json(created)))
}

fn document_id(id: &str) -> Result<i64, AppError> {
    id.parse()
        .map_err(|_| AppError::NotFound("Document not found".into()))
}

/// `GET /api/v1/kb/documents/{id}`.
#[utoipa::path(get, path = "/api/v1/kb/documents/{id}", tag = "knowledge", params(("id" = i64, Path, description = "Document id")), responses((status = 200, description = "The document", body = KbDocument), (status = 404, description = "Not found")))]
pub async fn detail(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Json<KbDocument>, AppError> {
    Ok(Json(state.deskmate.document(document_id(&id)?)?))
}

/// `DELETE /api/v1/kb/documents/{id}`.
#[utoipa::path(delete, path = "/api/v1/kb/documents/{id}", tag = "knowledge", params(("id" = i64, Path, description = "Document id")), responses((status = 200, description = "The document was deleted", body = DeletedDocument)))]
pub async fn delete(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Json<DeletedDocument>, AppError> {
    let number = document_id(&id)?;
    state.deskmate.delete_document(number)?;
    Ok(Json(DeletedDocument {
        deleted: true,
        id: number,
    }))
}

/// An import request: a folder on this computer.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Import {
    /// Knowledge base id: 1-64 letters, digits, `_` or `-`.
    #[schema(pattern = "^[A-Za-z0-9_-]{1,64}$")]
    kb_id: String,
    /// A folder on this computer.
    #[schema(value_type = String)]
    folder: PathBuf,
}

/// `POST /api/v1/kb/import`: imports the .md/.txt files of a folder.
#[utoipa::path(post, path = "/api/v1/kb/import", tag = "knowledge", description = "Imports the text files of a folder on this machine. Whether the folder exists is not in the request: a well-formed path that names no readable folder gets a 422 at `/folder`.", request_body = Import, responses((status = 200, description = "What was imported and what was left out", body = ImportReport)))]
pub async fn import(
    State(state): State<AppState>,
    ApiJson(request): ApiJson<Import>,
) -> Result<Json<ImportReport>, AppError> {
    let deskmate = state.deskmate.clone();
    let report = tokio::task::spawn_blocking(move || {
        deskmate.import_documents(&request.kb_id, &request.folder)
    })
    .await
    .map_err(|e| AppError::Internal(e.to_string()))??;
    Ok(Json(report))
}

/// A document that was deleted.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct DeletedDocument {
    /// Always `true`: a document that does not exist is a 404.
    pub deleted: bool,
    /// The document's id.
    pub id: i64,
}

/// The passages that best match a search.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct SearchResults {
    /// The words searched for.
    pub query: String,
    /// The matches, best first.
    pub hits: Vec<KbHit>,
}

/// Search parameters.
#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub struct SearchQuery {
    q: String,
    kb_id: Option<String>,
    limit: Option<u32>,
}

/// `GET /api/v1/kb/search?q=…`.
#[utoipa::path(get, path = "/api/v1/kb/search", tag = "knowledge", params(SearchQuery), responses((status = 200, description = "The best matches", body = SearchResults)))]
pub async fn search(
    State(state): State<AppState>,
    ApiQuery(q): ApiQuery<SearchQuery>,
) -> Result<Json<SearchResults>, AppError> {
    let hits = state
        .deskmate
        .search_documents(q.kb_id.as_deref(), &q.q, q.limit.unwrap_or(10))?;
    Ok(Json(SearchResults { query: q.q, hits }))
}
