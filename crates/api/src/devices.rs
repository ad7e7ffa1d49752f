//! `GET /api/v1/devices/camera/frame`: the camera's current frame as JPEG while it is on.

use axum::extract::State;
use axum::http::header;
use axum::response::{IntoResponse, Response};

use crate::error::AppError;
use crate::{AppState, FrameError};

/// `GET /api/v1/devices/camera/frame`.
#[utoipa::path(get, path = "/api/v1/devices/camera/frame", tag = "devices", responses((status = 200, description = "image/jpeg", content_type = "image/jpeg", body = Vec<u8>), (status = 404, description = "The camera is off"), (status = 503, description = "The camera is busy or failed")))]
pub async fn camera_frame(State(state): State<AppState>) -> Result<Response, AppError> {
    let Some(frame) = state.camera_frame.clone() else {
        return Err(AppError::NotFound("No camera in this app".into()));
    };
    let taken = tokio::task::spawn_blocking(move || frame())
        .await
        .map_err(|e| AppError::Internal(e.to_string()))?;
    match taken {
        Ok(jpeg) => Ok((
            [
                (header::CONTENT_TYPE, "image/jpeg"),
                (header::CACHE_CONTROL, "no-store"),
            ],
            jpeg,
        )
            .into_response()),
        Err(FrameError::Off(detail)) => Err(AppError::NotFound(detail)),
        Err(FrameError::Unavailable(detail)) => Err(AppError::Unavailable(detail)),
    }
}
