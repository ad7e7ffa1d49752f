//! The two transports: stdio (one client, the process's stdin and stdout) and Streamable
//! HTTP (a tower service the REST API mounts at `/mcp` behind its own token, Host and
//! Origin checks).

use std::sync::Arc;

use deskmate_service::Deskmate;
use rmcp::ServiceExt;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};
use tokio_util::sync::CancellationToken;

use crate::server::{Confirm, DeskmateMcp, Language};

/// The service `/mcp` serves.
pub type HttpService = StreamableHttpService<DeskmateMcp, LocalSessionManager>;

/// Serves MCP on stdin/stdout until the client closes stdin. Only protocol messages go
/// to stdout (logs belong on stderr).
pub async fn serve_stdio(
    deskmate: Arc<Deskmate>,
    language: Language,
    confirm: Confirm,
) -> std::io::Result<()> {
    let running = DeskmateMcp::new(deskmate, language, confirm)
        .serve(rmcp::transport::stdio())
        .await
        .map_err(std::io::Error::other)?;
    let reason = running.waiting().await.map_err(std::io::Error::other)?;
    tracing::info!(?reason, "MCP stdio session ended");
    Ok(())
}

/// Streamable HTTP for `/mcp`: sessions for 2025-11-25 clients, stateless requests for
/// 2026-07-28 ones. Host and Origin are left to the router's loopback check (one rule
/// for the whole API); `body_limit` is the API's. Confirmations go to the service's own
/// confirmer (the app's dialog or `/api/v1/prompts`). `stop` ends open streams.
pub fn streamable_http(
    deskmate: Arc<Deskmate>,
    language: Language,
    body_limit: usize,
    stop: CancellationToken,
) -> HttpService {
    let config = StreamableHttpServerConfig::default()
        .disable_allowed_hosts()
        .with_max_request_body_bytes(body_limit)
        .with_cancellation_token(stop);
    let server = DeskmateMcp::new(deskmate, language, Confirm::Service);
    StreamableHttpService::new(
        move || Ok(server.clone()),
        Arc::new(LocalSessionManager::default()),
        config,
    )
}
