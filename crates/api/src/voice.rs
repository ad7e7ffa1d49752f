//! Push to talk over the API: `POST /voice/start` while the key is held, `POST
//! /voice/stop` on release answers the transcript; the sound's level is pushed on
//! `/events` as `level` events while recording (for a level meter).

use std::sync::Arc;

use axum::Json;
use axum::extract::State;
use serde::Serialize;

use crate::AppState;
use crate::error::AppError;

/// Why push to talk failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum VoiceError {
    /// Already recording, or not recording (409).
    Conflict(String),
    /// No microphone or no speech recognition (404).
    NotFound(String),
    /// The device or the recognizer failed (503).
    Unavailable(String),
}

impl From<VoiceError> for AppError {
    fn from(e: VoiceError) -> Self {
        match e {
            VoiceError::Conflict(d) => Self::Conflict(d),
            VoiceError::NotFound(d) => Self::NotFound(d),
            VoiceError::Unavailable(d) => Self::Unavailable(d),
        }
    }
}

/// What was said while the key was held.
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
pub struct Transcript {
    /// The words heard; empty when nothing was said.
    pub text: String,
    /// How long the recording was, in seconds.
    pub seconds: f32,
}

/// Whether the microphone records now.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct Recording {
    /// `true` after a start, `false` after a cancel.
    pub recording: bool,
}

/// Push to talk, as the front end that owns the microphone provides it.
#[async_trait::async_trait]
pub trait VoiceInput: Send + Sync {
    /// Starts recording; answers once the microphone delivers sound.
    async fn start(&self) -> Result<(), VoiceError>;
    /// Stops recording and transcribes.
    async fn stop(&self) -> Result<Transcript, VoiceError>;
    /// Throws the recording away.
    fn cancel(&self);
    /// Levels in dBFS while recording.
    fn levels(&self) -> futures_util::stream::BoxStream<'static, f32>;
}

fn voice(state: &AppState) -> Result<Arc<dyn VoiceInput>, AppError> {
    state
        .voice
        .clone()
        .ok_or_else(|| AppError::NotFound("No microphone in this app".into()))
}

/// `POST /api/v1/voice/start`.
#[utoipa::path(post, path = "/api/v1/voice/start", tag = "devices", responses((status = 200, description = "Recording", body = Recording), (status = 404, description = "No microphone or no ASR model"), (status = 409, description = "Already recording"), (status = 503, description = "The microphone cannot be opened or delivers no sound")))]
pub async fn start(State(state): State<AppState>) -> Result<Json<Recording>, AppError> {
    voice(&state)?.start().await?;
    Ok(Json(Recording { recording: true }))
}

/// `POST /api/v1/voice/stop`.
#[utoipa::path(post, path = "/api/v1/voice/stop", tag = "devices", responses((status = 200, description = "What was said; `text` is empty when nothing was said", body = Transcript), (status = 404, description = "No microphone in this app"), (status = 409, description = "Not recording"), (status = 503, description = "The microphone or the ASR failed")))]
pub async fn stop(State(state): State<AppState>) -> Result<Json<Transcript>, AppError> {
    Ok(Json(voice(&state)?.stop().await?))
}

/// `POST /api/v1/voice/cancel`.
#[utoipa::path(post, path = "/api/v1/voice/cancel", tag = "devices", responses((status = 200, description = "Not recording", body = Recording), (status = 404, description = "No microphone in this app")))]
pub async fn cancel(State(state): State<AppState>) -> Result<Json<Recording>, AppError> {
    voice(&state)?.cancel();
    Ok(Json(Recording { recording: false }))
}
