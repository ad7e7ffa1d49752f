//! `deskmate mcp` while the Deskmate app (or `deskmate serve`) runs on the same data dir:
//! the stdio server forwards to the app's `/mcp`, so calls run in the app — its
//! confirmation dialogs appear there, its registry and audit are the ones in use — and
//! a tool list change in the app reaches the stdio client; a client that asks for progress
//! of a long call hears it.

use std::time::Duration;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, ClientCapabilities, ClientConfig, Implementation,
    ListToolsResult, PaginatedRequestParams, RequestMetaObject, ResultType, ServerConfig,
    SubscriptionFilter,
};
use rmcp::service::{NotificationContext, RequestContext, RunningService, SubscriptionContext};
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::{ClientHandler, ErrorData, RoleClient, RoleServer, ServerHandler, ServiceExt};
use tokio::sync::watch;

use crate::server::{self, CLIENT_META, IDEM_KEY_META};

/// The app's side: counts its tool list changes.
#[derive(Debug, Clone)]
struct Upstream {
    changes: watch::Sender<u64>,
}

impl ClientHandler for Upstream {
    fn get_info(&self) -> ClientConfig {
        ClientConfig::new(
            ClientCapabilities::default(),
            Implementation::new("deskmate-mcp-bridge", env!("CARGO_PKG_VERSION")),
        )
    }

    async fn on_tool_list_changed(&self, _context: NotificationContext<RoleClient>) {
        self.changes.send_modify(|generation| *generation += 1);
    }
}

/// The stdio client's side: every request forwarded to the app.
#[derive(Debug, Clone)]
struct Bridge {
    app: rmcp::Peer<RoleClient>,
    changes: watch::Receiver<u64>,
}

fn from_app(e: rmcp::ServiceError) -> ErrorData {
    match e {
        rmcp::ServiceError::McpError(error) => error,
        other => ErrorData::internal_error(
            format!("the Deskmate app did not answer ({other}); is it still running?"),
            None,
        ),
    }
}

impl ServerHandler for Bridge {
    fn get_info(&self) -> ServerConfig {
        server::info()
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let tools = self.app.list_all_tools().await.map_err(from_app)?;
        Ok(ListToolsResult::with_all_items(tools))
    }

    async fn call_tool(
        &self,
        mut request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        // Deskmate's own `_meta` keys travel on, and the client's name; the era's
        // fields are the bridge's.
        let mut meta = RequestMetaObject::default();
        if let Some(key) = context.meta.get(IDEM_KEY_META) {
            meta.0.0.insert(IDEM_KEY_META.into(), key.clone());
        }
        if let Some(client) = context.client_info() {
            meta.0.0.insert(CLIENT_META.into(), client.name.into());
        }
        request.meta = Some(meta);
        let name = request.name.to_string();
        // The app's progress is not relayed; the bridge tells the client how long the
        // call has been running, as the app would.
        let answer = server::with_progress(self.app.call_tool(request), &context, &name);
        tokio::select! {
            answer = answer => {
                let mut answer = answer.map_err(from_app)?;
                // The app answered in the 2025-11-25 era, which has no result type; the
                // stdio client may speak 2026-07-28, which requires it.
                answer.result_type = Some(ResultType::COMPLETE);
                Ok(answer.into())
            }
            () = context.ct.cancelled() => Err(ErrorData::internal_error("cancelled by the client", None)),
        }
    }

    async fn on_initialized(&self, context: NotificationContext<RoleServer>) {
        // The app tells only of real changes: each one is news.
        server::tell_session(context.peer, self.changes.clone(), || true);
    }

    fn accepted_subscription_filter(
        &self,
        _requested: &SubscriptionFilter,
    ) -> Option<SubscriptionFilter> {
        Some(SubscriptionFilter::builder().tools_list_changed().build())
    }

    async fn listen(&self, context: SubscriptionContext) -> Result<(), ErrorData> {
        server::tell_subscriber(context, self.changes.clone(), || true).await;
        Ok(())
    }
}

/// A connection to the running app's `/mcp`, ready to serve a stdio client.
#[derive(Debug)]
pub struct AppBridge {
    app: RunningService<RoleClient, Upstream>,
    changes: watch::Receiver<u64>,
}

impl AppBridge {
    /// Connects to the app's `/mcp` (`url`, with its bearer token) within `wait`; an
    /// error means the app is not there (the caller then serves headless).
    pub async fn connect(url: &str, token: &str, wait: Duration) -> std::io::Result<Self> {
        let (changes, watcher) = watch::channel(0);
        // The HTTP client's TLS needs a crypto provider even for plain http.
        let _ = rustls::crypto::ring::default_provider().install_default();
        let transport = StreamableHttpClientTransport::from_config(
            StreamableHttpClientTransportConfig::with_uri(url.to_string()).auth_header(token),
        );
        let app = tokio::time::timeout(wait, Upstream { changes }.serve(transport))
            .await
            .map_err(|_| {
                std::io::Error::new(std::io::ErrorKind::TimedOut, "the app did not answer")
            })?
            .map_err(std::io::Error::other)?;
        Ok(Self {
            app,
            changes: watcher,
        })
    }

    /// Serves MCP on stdio until the client closes stdin, every request forwarded.
    pub async fn serve_stdio(self) -> std::io::Result<()> {
        let bridge = Bridge {
            app: self.app.peer().clone(),
            changes: self.changes,
        };
        let running = bridge
            .serve(rmcp::transport::stdio())
            .await
            .map_err(std::io::Error::other)?;
        let reason = running.waiting().await.map_err(std::io::Error::other)?;
        tracing::info!(?reason, "MCP stdio session (through the app) ended");
        let _ = self.app.cancel().await;
        Ok(())
    }
}
