//! Deskmate's REST API: [`app`] builds the axum `Router` for `/api/v1` over one
//! [`deskmate_service::Deskmate`] and its [`deskmate_agent::Agent`] (chat and
//! conversations). Handlers only translate HTTP to service and agent calls.
//!
//! Safety, in order: a body limit, a loopback-only check (Host and Origin), CORS for
//! loopback origins (the desktop app's webview), the bearer
//! token (all but the health check), panics caught as JSON 500s. Every error is JSON.

pub mod answers;
pub mod approvals;
pub mod audit;
pub mod autotest;
pub mod chat;
pub mod conversation_export;
pub mod conversations;
pub mod devices;
pub mod error;
mod error_docs;
pub mod eval;
pub mod events;
pub mod extract;
pub mod kb;
pub mod mcp_servers;
pub mod models;
pub mod openapi;
pub mod paging;
pub mod prompts;
pub mod resources;
pub mod running;
pub mod safety;
pub mod schedules;
pub mod secrets;
pub mod settings;
pub mod tools;
pub mod voice;

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use axum::Router;
use axum::body::Bytes;
use axum::extract::DefaultBodyLimit;
use axum::routing::{delete, get, post, put};
use deskmate_agent::Agent;
use deskmate_service::Deskmate;
use deskmate_service::prompts::PromptBroker;
use deskmate_tools::Registry;
use tower_http::catch_panic::CatchPanicLayer;

pub use error::AppError;

/// Largest request body.
pub const BODY_LIMIT: usize = 1024 * 1024;

/// A serialized tool list and the registry it was built from.
type CachedList = (Arc<Registry>, Bytes);

/// What every handler shares.
#[derive(Clone)]
pub struct AppState {
    /// The service.
    pub deskmate: Arc<Deskmate>,
    /// The agent over that service: chat turns and the conversations they keep.
    pub agent: Arc<Agent>,
    /// The bearer token.
    pub token: Arc<str>,
    /// Pending confirmations and choices.
    pub prompts: Arc<PromptBroker>,
    /// The tool list as served, for the registry it was built from.
    list_cache: Arc<Mutex<Option<CachedList>>>,
    /// Device readiness for the autotest (set by the front end that owns the devices).
    pub devices: Option<deskmate_autotest::DeviceProbe>,
    /// The camera's current frame as JPEG (set by the front end that owns the camera).
    pub camera_frame: Option<CameraFrame>,
    /// In-app messages for `/events` (set by the front end that owns the devices).
    pub messages: Option<MessageFeed>,
    /// Push to talk on the microphone (set by the front end that owns the devices).
    pub voice: Option<Arc<dyn voice::VoiceInput>>,
    /// Ends the open MCP streams when the server shuts down.
    pub mcp_stop: tokio_util::sync::CancellationToken,
}

/// Subscribes to the in-app messages: each call is one listener (a window that is open),
/// for as long as it keeps the stream.
pub type MessageFeed =
    Arc<dyn Fn() -> futures_util::stream::BoxStream<'static, serde_json::Value> + Send + Sync>;

/// Takes the camera's current frame: JPEG bytes, or why there is none.
pub type CameraFrame = Arc<dyn Fn() -> Result<Vec<u8>, FrameError> + Send + Sync>;

/// Why there is no frame.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FrameError {
    /// The camera is off (404).
    Off(String),
    /// The camera is busy or failed (503).
    Unavailable(String),
}

impl std::fmt::Debug for AppState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AppState")
            .field("prompts", &self.prompts)
            .field("devices", &self.devices.is_some())
            .finish_non_exhaustive()
    }
}

impl AppState {
    /// The state for an agent (and the service it holds), its token and its prompt
    /// broker.
    pub fn new(agent: Arc<Agent>, token: impl Into<Arc<str>>, prompts: Arc<PromptBroker>) -> Self {
        Self {
            deskmate: agent.deskmate().clone(),
            agent,
            token: token.into(),
            prompts,
            list_cache: Arc::new(Mutex::new(None)),
            devices: None,
            camera_frame: None,
            messages: None,
            voice: None,
            mcp_stop: tokio_util::sync::CancellationToken::new(),
        }
    }

    /// The serialized `/tools/list` body. The list only changes when a resource change
    /// swaps in a new registry, so it is built once per registry.
    pub fn tool_list(&self, build: impl FnOnce(&Registry) -> Bytes) -> Bytes {
        let registry = self.deskmate.registry();
        let mut cache = self
            .list_cache
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some((built_for, body)) = cache.as_ref()
            && Arc::ptr_eq(built_for, &registry)
        {
            return body.clone();
        }
        let body = build(&registry);
        *cache = Some((registry, body.clone()));
        body
    }
}

/// The `/api/v1` router.
pub fn app(state: AppState) -> Router {
    let api = Router::new()
        .route("/api/v1/tools/list", get(tools::list))
        .route("/api/v1/tools/list/{tool_id}", get(tools::detail))
        .route("/api/v1/tools/health", get(tools::health))
        .route("/api/v1/tools/call", post(tools::call))
        .route(
            "/api/v1/tools/resources",
            get(resources::list).post(resources::create),
        )
        .route(
            "/api/v1/tools/resources/{id}",
            get(resources::detail)
                .put(resources::update)
                .delete(resources::delete),
        )
        .route("/api/v1/audit", get(audit::list))
        .route(
            "/api/v1/mcp/servers",
            get(mcp_servers::list).post(mcp_servers::create),
        )
        .route(
            "/api/v1/mcp/servers/{name}",
            get(mcp_servers::detail)
                .put(mcp_servers::update)
                .delete(mcp_servers::delete),
        )
        .route("/api/v1/mcp/import", post(mcp_servers::import))
        .route(
            "/api/v1/mcp/servers/{name}/tools/{tool}/approve",
            post(mcp_servers::approve),
        )
        .route("/api/v1/approvals", get(approvals::list))
        .route("/api/v1/approvals/{id}", delete(approvals::revoke))
        .route("/api/v1/conversations", get(conversations::list))
        .route(
            "/api/v1/conversations/import",
            post(conversation_export::import),
        )
        .route(
            "/api/v1/conversations/{id}/export",
            get(conversation_export::export),
        )
        .route(
            "/api/v1/conversations/{id}/branch",
            put(conversations::show_branch),
        )
        .route(
            "/api/v1/conversations/{id}",
            get(conversations::detail)
                .patch(conversations::rename)
                .delete(conversations::delete),
        )
        .route("/api/v1/kb/documents", get(kb::list).post(kb::create))
        .route(
            "/api/v1/kb/documents/{id}",
            get(kb::detail).delete(kb::delete),
        )
        .route("/api/v1/kb/import", post(kb::import))
        .route("/api/v1/kb/search", get(kb::search))
        .route("/api/v1/secrets", get(secrets::list))
        .route(
            "/api/v1/secrets/{name}",
            put(secrets::set).delete(secrets::delete),
        )
        .route(
            "/api/v1/models/llm",
            get(models::list_llm).post(models::create_llm),
        )
        .route(
            "/api/v1/models/llm/{id}",
            get(models::get_llm)
                .put(models::update_llm)
                .delete(models::delete_llm),
        )
        .route(
            "/api/v1/models/asr",
            get(models::list_asr).post(models::create_asr),
        )
        .route("/api/v1/model-files", get(models::list_files))
        .route(
            "/api/v1/models/asr/{id}",
            get(models::get_asr)
                .put(models::update_asr)
                .delete(models::delete_asr),
        )
        .route("/api/v1/chat", post(chat::chat))
        .route(
            "/api/v1/schedules",
            get(schedules::list).post(schedules::create),
        )
        .route(
            "/api/v1/schedules/{id}",
            get(schedules::detail)
                .put(schedules::update)
                .delete(schedules::delete),
        )
        .route("/api/v1/schedules/{id}/runs", get(schedules::runs))
        .route("/api/v1/devices/camera/frame", get(devices::camera_frame))
        .route("/api/v1/events", get(events::events))
        .route("/api/v1/voice/start", post(voice::start))
        .route("/api/v1/voice/stop", post(voice::stop))
        .route("/api/v1/voice/cancel", post(voice::cancel))
        .route("/api/v1/eval", post(eval::run))
        .route("/api/v1/eval/runs", get(eval::runs))
        .route("/api/v1/eval/runs/{id}", get(eval::run_detail))
        .route("/api/v1/tools/autotest", post(autotest::run))
        .route("/api/v1/tools/autotest/llm/{model_id}", post(autotest::llm))
        .route("/api/v1/tools/autotest/asr/{model_id}", post(autotest::asr))
        .route("/api/v1/tools/autotest/runs", get(autotest::runs))
        .route(
            "/api/v1/tools/autotest/runs/{id}",
            get(autotest::run_detail),
        )
        .route(
            "/api/v1/tools/autotest/runs/{id}/compare",
            get(autotest::compare),
        )
        .route("/api/v1/tools/test-message", post(autotest::test_message))
        .route("/api/v1/settings", get(settings::list))
        .route("/api/v1/settings/{key}", put(settings::set))
        .route("/api/v1/openapi.json", get(openapi::document))
        .route("/api/v1/prompts", get(prompts::list))
        .route("/api/v1/prompts/{id}/answer", post(prompts::answer))
        // MCP's Streamable HTTP, behind the same token and loopback checks as the rest.
        .nest_service(
            "/mcp",
            deskmate_mcp::streamable_http(
                state.deskmate.clone(),
                deskmate_mcp::Language::from_env(),
                BODY_LIMIT,
                state.mcp_stop.clone(),
            ),
        )
        .fallback(|| async { AppError::NotFound("Not found".into()) })
        .method_not_allowed_fallback(|| async { AppError::MethodNotAllowed });
    api.layer(axum::middleware::from_fn_with_state(
        state.clone(),
        safety::require_token,
    ))
    // Outside the token check, so a browser's preflight (which carries no token) is
    // answered; only loopback origins (the desktop app's webview) get CORS headers.
    .layer(safety::cors())
    .layer(axum::middleware::from_fn(safety::loopback_only))
    .layer(DefaultBodyLimit::max(BODY_LIMIT))
    .layer(CatchPanicLayer::custom(
        |_: Box<dyn std::any::Any + Send>| {
            axum::response::IntoResponse::into_response(AppError::Internal(
                "a handler panicked".into(),
            ))
        },
    ))
    .with_state(state)
}

/// Serves [`app`] on a bound listener until `shutdown` resolves (open requests finish,
/// streams end).
pub async fn serve(
    listener: tokio::net::TcpListener,
    state: AppState,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let mcp_stop = state.mcp_stop.clone();
    axum::serve(listener, app(state))
        .with_graceful_shutdown(async move {
            shutdown.await;
            // Open MCP streams would hold the graceful shutdown forever.
            mcp_stop.cancel();
        })
        .await
}

/// Where the token lives in a data dir.
pub fn token_path(data_dir: &Path) -> PathBuf {
    data_dir.join("api-token")
}

/// A fresh random bearer token: 256 bits from two v4 UUIDs, as hex (the one way Deskmate
/// makes tokens, for the data dir's file and for a token that lives one launch).
pub fn new_token() -> String {
    format!(
        "{}{}",
        uuid::Uuid::new_v4().simple(),
        uuid::Uuid::new_v4().simple()
    )
}

/// The API token: `DESKMATE_API_TOKEN` if set, else the one in the data dir, created
/// (random, mode 0600) on first start.
pub fn load_or_create_token(data_dir: &Path) -> std::io::Result<String> {
    if let Ok(token) = std::env::var("DESKMATE_API_TOKEN")
        && !token.trim().is_empty()
    {
        return Ok(token.trim().to_string());
    }
    let path = token_path(data_dir);
    match std::fs::read_to_string(&path) {
        Ok(token) if !token.trim().is_empty() => return Ok(token.trim().to_string()),
        Ok(_) => {}
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return Err(e),
    }
    let token = new_token();
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create(true).truncate(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    use std::io::Write;
    let mut file = options.open(&path)?;
    file.write_all(token.as_bytes())?;
    file.sync_all()?;
    Ok(token)
}
