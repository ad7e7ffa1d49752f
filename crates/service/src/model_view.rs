//! LLM and ASR models as API clients see them: the key masked (`••••` when one is set),
//! with what the model's server is doing now. The OpenAPI document's answer schemas
//! are derived from these types.

use deskmate_core::mask::MASK;
use deskmate_store::models::{AsrModel, LlmModel};
use serde::Serialize;
use utoipa::ToSchema;

/// What a model's server is doing now.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ServingState {
    /// A server Deskmate does not run; whether it answers is not known without a
    /// request.
    Remote,
    /// A server Deskmate runs, loading the model.
    Starting,
    /// A server Deskmate runs, listening.
    Ready,
    /// A server Deskmate runs, not running now (see `state_detail`).
    Stopped,
    /// A model Deskmate runs from a file whose server cannot run: `state_detail` says
    /// why (the file is gone, the server exited, with its last log lines).
    Failed,
}

/// How Deskmate runs a model from a person's own GGUF file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct ModelFileView {
    /// The file's absolute path.
    pub path: String,
    /// The context size in tokens.
    pub context_size: i64,
    /// CPU threads.
    pub threads: i64,
}

/// An LLM model as the API shows it.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct LlmModelView {
    /// The model's id.
    pub id: String,
    /// The name shown in the app.
    pub name: String,
    /// The OpenAI-style base URL; for a model Deskmate runs and is ready, where its
    /// server listens now.
    pub base_url: String,
    /// The model's name at its server.
    pub model: String,
    /// `••••` when a key is set, `null` when none is.
    #[schema(value_type = Option<String>)]
    pub api_key: Option<&'static str>,
    /// Sampling temperature.
    pub temperature: f64,
    /// Nucleus sampling.
    pub top_p: f64,
    /// Most tokens of a reply.
    pub max_tokens: i64,
    /// Whether replies are streamed.
    pub streaming: bool,
    /// Whether it is the default model.
    pub is_default: bool,
    /// The program that runs it when Deskmate does (`llama-server`), else `null`.
    pub managed: Option<String>,
    /// For a model Deskmate runs from a GGUF file on this computer: the file and the
    /// server's settings; else `null`.
    pub file: Option<ModelFileView>,
    /// RFC 3339.
    pub created_at: String,
    /// RFC 3339.
    pub updated_at: String,
    /// What its server is doing now.
    pub state: ServingState,
    /// Why a server Deskmate runs is stopped or failed, or what a loading one is doing;
    /// else `null`.
    pub state_detail: Option<String>,
}

/// An ASR (speech-to-text) model as the API shows it.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct AsrModelView {
    /// The model's id.
    pub id: String,
    /// The name shown in the app.
    pub name: String,
    /// The OpenAI-style base URL; for a model Deskmate runs and is ready, where its
    /// server listens now.
    pub base_url: String,
    /// The model's name at its server.
    pub model: String,
    /// `••••` when a key is set, `null` when none is.
    #[schema(value_type = Option<String>)]
    pub api_key: Option<&'static str>,
    /// The spoken language (ISO 639-1), `null` to let the server detect it.
    pub language: Option<String>,
    /// Words the recognizer should expect.
    pub hotwords: Vec<String>,
    /// Whether it is the default model.
    pub is_default: bool,
    /// The program that runs it when Deskmate does, else `null`.
    pub managed: Option<String>,
    /// RFC 3339.
    pub created_at: String,
    /// RFC 3339.
    pub updated_at: String,
    /// What its server is doing now.
    pub state: ServingState,
    /// Why a server Deskmate runs is stopped, else `null`.
    pub state_detail: Option<String>,
}

/// What a model's server is doing, and where it listens when Deskmate runs it and it is
/// ready (see [`crate::Deskmate`]'s model views).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Serving {
    /// The state.
    pub state: ServingState,
    /// Why it is stopped.
    pub detail: Option<String>,
    /// The URL its server listens at now, which replaces the stored one.
    pub url: Option<String>,
}

impl LlmModelView {
    /// The view of a stored model whose server does `serving`.
    pub fn new(m: &LlmModel, serving: Serving) -> Self {
        Self {
            id: m.id.clone(),
            name: m.name.clone(),
            base_url: serving.url.unwrap_or_else(|| m.base_url.clone()),
            model: m.model.clone(),
            api_key: m.api_key_ref.as_ref().map(|_| MASK),
            temperature: m.temperature,
            top_p: m.top_p,
            max_tokens: m.max_tokens,
            streaming: m.streaming,
            is_default: m.is_default,
            managed: m.managed.clone(),
            file: m.file.as_ref().map(|f| ModelFileView {
                path: f.path.clone(),
                context_size: f.context_size,
                threads: f.threads,
            }),
            created_at: m.created_at.clone(),
            updated_at: m.updated_at.clone(),
            state: serving.state,
            state_detail: serving.detail,
        }
    }
}

impl AsrModelView {
    /// The view of a stored model whose server does `serving`.
    pub fn new(m: &AsrModel, serving: Serving) -> Self {
        Self {
            id: m.id.clone(),
            name: m.name.clone(),
            base_url: serving.url.unwrap_or_else(|| m.base_url.clone()),
            model: m.model.clone(),
            api_key: m.api_key_ref.as_ref().map(|_| MASK),
            language: m.language.clone(),
            hotwords: m.hotwords.clone(),
            is_default: m.is_default,
            managed: m.managed.clone(),
            created_at: m.created_at.clone(),
            updated_at: m.updated_at.clone(),
            state: serving.state,
            state_detail: serving.detail,
        }
    }
}
