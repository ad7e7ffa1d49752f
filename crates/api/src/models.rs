//! LLM and ASR models: list, create, read, update, delete. API keys go in and never come
//! out (a set key reads `••••`).

use axum::Json;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use deskmate_service::model_files::FoundFile;
use deskmate_service::model_input::{AsrModelChange, LlmModelChange, NewAsrModel, NewLlmModel};
use deskmate_service::model_view::{AsrModelView, LlmModelView};
use deskmate_service::{Deskmate, ServiceError};

use crate::AppState;
use crate::answers::{Deleted, Listed};
use crate::error::AppError;
use crate::extract::ApiBody;

/// Runs a blocking service call off the async runtime.
async fn blocking<T: Send + 'static>(
    state: &AppState,
    work: impl FnOnce(&Deskmate) -> Result<T, ServiceError> + Send + 'static,
) -> Result<T, AppError> {
    let deskmate = state.deskmate.clone();
    Ok(tokio::task::spawn_blocking(move || work(&deskmate))
        .await
        .map_err(|e| AppError::Internal(e.to_string()))??)
}

/// `GET /api/v1/models/llm`.
#[utoipa::path(get, path = "/api/v1/models/llm", tag = "models", responses((status = 200, description = "Every LLM model, the default first", body = Listed<LlmModelView>)))]
pub async fn list_llm(
    State(state): State<AppState>,
) -> Result<Json<Listed<LlmModelView>>, AppError> {
    Ok(Json(Listed::new(
        blocking(
            &state,
            Deskmate::models::<deskmate_service::models::LlmModel>,
        )
        .await?,
    )))
}

/// `POST /api/v1/models/llm` → 201.
#[utoipa::path(post, path = "/api/v1/models/llm", tag = "models", request_body = NewLlmModel, description = "A model served at `base_url`, or one Deskmate runs from a GGUF file on this computer (`file` instead of `base_url`). Whether a file can run is decided by the file and this computer, not by the request: a path that is well formed is refused with 422 at `/file` when nothing is there, it is a folder, it is not GGUF or cannot be read, it does not fit in free memory, or another model runs it.", responses((status = 201, description = "The model (api_key masked)", body = LlmModelView), (status = 422, description = "{detail, errors}"), (status = 409, description = "A model with this id exists: `errors` names the field")))]
pub async fn create_llm(
    State(state): State<AppState>,
    ApiBody(body): ApiBody<NewLlmModel>,
) -> Result<(StatusCode, Json<LlmModelView>), AppError> {
    let created = blocking(&state, move |d| {
        d.create_model::<deskmate_service::models::LlmModel>(body)
    })
    .await?;
    Ok((StatusCode::CREATED, Json(created)))
}

/// `GET /api/v1/models/llm/{id}`.
#[utoipa::path(get, path = "/api/v1/models/llm/{id}", tag = "models", params(("id" = String, Path, description = "Model id")), responses((status = 200, description = "The model", body = LlmModelView), (status = 404, description = "LLM Model not found")))]
pub async fn get_llm(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Json<LlmModelView>, AppError> {
    Ok(Json(
        blocking(&state, move |d| {
            d.model::<deskmate_service::models::LlmModel>(&id)
        })
        .await?,
    ))
}

/// `PUT /api/v1/models/llm/{id}`: changes the fields given.
#[utoipa::path(put, path = "/api/v1/models/llm/{id}", tag = "models", params(("id" = String, Path, description = "Model id")), request_body = LlmModelChange, responses((status = 200, description = "The model", body = LlmModelView), (status = 422, description = "Invalid input")))]
pub async fn update_llm(
    State(state): State<AppState>,
    Path(id): Path<String>,
    ApiBody(change): ApiBody<LlmModelChange>,
) -> Result<Json<LlmModelView>, AppError> {
    Ok(Json(
        blocking(&state, move |d| {
            d.update_model::<deskmate_service::models::LlmModel>(&id, change)
        })
        .await?,
    ))
}

/// `DELETE /api/v1/models/llm/{id}`.
#[utoipa::path(delete, path = "/api/v1/models/llm/{id}", tag = "models", params(("id" = String, Path, description = "Model id")), responses((status = 200, description = "The model was deleted", body = Deleted), (status = 404, description = "LLM Model not found")))]
pub async fn delete_llm(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Json<Deleted>, AppError> {
    let target = id.clone();
    blocking(&state, move |d| {
        d.delete_model::<deskmate_service::models::LlmModel>(&target)
    })
    .await?;
    Ok(Json(Deleted::new(id)))
}

/// `GET /api/v1/model-files`.
#[utoipa::path(get, path = "/api/v1/model-files", tag = "models", responses((status = 200, description = "The .gguf files of the models folders (the cache's `models` and the folder the `models.folder` setting names), each with what its header says, or why it cannot be added, and the model that runs it already. Add one with `POST /api/v1/models/llm` and `file`", body = Listed<FoundFile>)))]
pub async fn list_files(
    State(state): State<AppState>,
) -> Result<Json<Listed<FoundFile>>, AppError> {
    Ok(Json(Listed::new(
        blocking(&state, Deskmate::model_files).await?,
    )))
}

/// `GET /api/v1/models/asr`.
#[utoipa::path(get, path = "/api/v1/models/asr", tag = "models", responses((status = 200, description = "Every ASR model, the default first", body = Listed<AsrModelView>)))]
pub async fn list_asr(
    State(state): State<AppState>,
) -> Result<Json<Listed<AsrModelView>>, AppError> {
    Ok(Json(Listed::new(
        blocking(
            &state,
            Deskmate::models::<deskmate_service::models::AsrModel>,
        )
        .await?,
    )))
}

/// `POST /api/v1/models/asr` → 201.
#[utoipa::path(post, path = "/api/v1/models/asr", tag = "models", request_body = NewAsrModel, responses((status = 201, description = "The model (api_key masked)", body = AsrModelView), (status = 422, description = "{detail, errors}"), (status = 409, description = "A model with this id exists: `errors` names the field")))]
pub async fn create_asr(
    State(state): State<AppState>,
    ApiBody(body): ApiBody<NewAsrModel>,
) -> Result<(StatusCode, Json<AsrModelView>), AppError> {
    let created = blocking(&state, move |d| {
        d.create_model::<deskmate_service::models::AsrModel>(body)
    })
    .await?;
    Ok((StatusCode::CREATED, Json(created)))
}

/// `GET /api/v1/models/asr/{id}`.
#[utoipa::path(get, path = "/api/v1/models/asr/{id}", tag = "models", params(("id" = String, Path, description = "Model id")), responses((status = 200, description = "The model", body = AsrModelView), (status = 404, description = "ASR Model not found")))]
pub async fn get_asr(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Json<AsrModelView>, AppError> {
    Ok(Json(
        blocking(&state, move |d| {
            d.model::<deskmate_service::models::AsrModel>(&id)
        })
        .await?,
    ))
}

/// `PUT /api/v1/models/asr/{id}`: changes the fields given.
#[utoipa::path(put, path = "/api/v1/models/asr/{id}", tag = "models", params(("id" = String, Path, description = "Model id")), request_body = AsrModelChange, responses((status = 200, description = "The model", body = AsrModelView), (status = 422, description = "Invalid input")))]
pub async fn update_asr(
    State(state): State<AppState>,
    Path(id): Path<String>,
    ApiBody(change): ApiBody<AsrModelChange>,
) -> Result<Json<AsrModelView>, AppError> {
    Ok(Json(
        blocking(&state, move |d| {
            d.update_model::<deskmate_service::models::AsrModel>(&id, change)
        })
        .await?,
    ))
}

/// `DELETE /api/v1/models/asr/{id}`.
#[utoipa::path(delete, path = "/api/v1/models/asr/{id}", tag = "models", params(("id" = String, Path, description = "Model id")), responses((status = 200, description = "The model was deleted", body = Deleted), (status = 404, description = "ASR Model not found")))]
pub async fn delete_asr(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Json<Deleted>, AppError> {
    let target = id.clone();
    blocking(&state, move |d| {
        d.delete_model::<deskmate_service::models::AsrModel>(&target)
    })
    .await?;
    Ok(Json(Deleted::new(id)))
}
