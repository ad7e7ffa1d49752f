//! [`DeskmateMcp`]: the MCP server handler over one [`Deskmate`].

use std::sync::Arc;
use std::time::{Duration, Instant};

use deskmate_core::{ErrorType, ToolError, ToolResult};
use deskmate_service::{CallRequest, Deskmate};
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, ElicitRequest, ElicitRequestParams, ElicitResult,
    ElicitationAction, ElicitationSchema, EnumSchema, Implementation, InputRequest, InputRequests,
    InputRequiredResult, ListToolsResult, PaginatedRequestParams, ProgressNotificationParam,
    ServerCapabilities, ServerConfig, SubscriptionFilter, Tool,
};
use rmcp::service::{NotificationContext, RequestContext, SubscriptionContext};
use rmcp::{ErrorData, Peer, RoleServer, ServerHandler};
use serde_json::{Value, json};
use tokio::sync::watch;

use crate::convert;
pub use crate::language::Language;

/// Who answers when a call's policy asks the person first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Confirm {
    /// The service's own confirmer: the desktop app's dialog, or a prompt answered over
    /// `/api/v1/prompts` (the server runs inside `deskmate serve` or the app).
    Service,
    /// The MCP client, by elicitation where it declared it (`elicitation/create` in the
    /// 2025-11-25 era, an `input_required` result in the 2026-07-28 era); a client that
    /// cannot ask gets a refusal that says how to allow the tool.
    Elicit,
}

/// The key of the confirmation in an `input_required` round trip.
const CONFIRM_KEY: &str = "deskmate/confirm";

/// The `_meta` key a client may send to run a call at most once per key (the REST API's
/// `idem_key`).
pub const IDEM_KEY_META: &str = "deskmate/idem_key";

/// The `_meta` key with which `deskmate mcp`, forwarding to the app, names the client
/// it serves.
pub const CLIENT_META: &str = "deskmate/client";

/// How often a long call reports progress to a client that asked for it.
const PROGRESS_EVERY: Duration = Duration::from_secs(1);

/// Runs a call; a client that asked for progress (a progress token) hears every second
/// how long the call `name` has been running, until it ends.
pub(crate) async fn with_progress<T>(
    running: impl std::future::Future<Output = T>,
    context: &RequestContext<RoleServer>,
    name: &str,
) -> T {
    let Some(token) = context.meta.get_progress_token() else {
        return running.await;
    };
    tokio::pin!(running);
    let started = Instant::now();
    let mut tick = tokio::time::interval(PROGRESS_EVERY);
    tick.tick().await;
    loop {
        tokio::select! {
            result = &mut running => return result,
            _ = tick.tick() => {
                let seconds = started.elapsed().as_secs_f64().floor();
                let note = ProgressNotificationParam::new(token.clone(), seconds)
                    .with_message(format!("{name} running for {seconds} s"));
                if let Err(e) = context.peer.notify_progress(note).await {
                    tracing::debug!(error = %e, "progress not delivered");
                }
            }
        }
    }
}

/// The handler: cheap to clone (one per MCP session or stateless request).
#[derive(Debug, Clone)]
pub struct DeskmateMcp {
    deskmate: Arc<Deskmate>,
    language: Language,
    confirm: Confirm,
}

impl DeskmateMcp {
    /// A server over this service.
    pub fn new(deskmate: Arc<Deskmate>, language: Language, confirm: Confirm) -> Self {
        Self {
            deskmate,
            language,
            confirm,
        }
    }

    /// The enabled tools, in registry order.
    pub fn tools(&self) -> Vec<Tool> {
        let registry = self.deskmate.registry();
        registry
            .specs()
            .filter(|spec| registry.guard().is_enabled(&spec.id))
            .map(|spec| {
                let open_world = registry.tool(&spec.id).is_some_and(|t| t.open_world());
                convert::tool(spec, open_world, self.language)
            })
            .collect()
    }

    /// Whether the tool list as clients see it differs from the last one this returned
    /// true for: a setting change swaps the registry too, and only a different list is news.
    fn list_is_news(&self) -> impl FnMut() -> bool + Send + 'static {
        let server = self.clone();
        let mut listed = fingerprint(&server.tools());
        move || {
            let now = fingerprint(&server.tools());
            let news = now != listed;
            listed = now;
            news
        }
    }

    /// Asks the client to confirm a call its policy asks about, offering "always allow"
    /// as a choice (not for a tool that cannot be undone). `Ok(true)`: approved (an
    /// "always" is kept); `Ok(false)`: declined; `Err`: the answer to send now instead (a
    /// refusal, or an `input_required` round trip).
    async fn confirm_by_elicitation(
        &self,
        request: &CallToolRequestParams,
        context: &RequestContext<RoleServer>,
        reason: &str,
    ) -> Result<bool, CallToolResponse> {
        let can_elicit = context
            .client_capabilities()
            .is_some_and(|c| c.elicitation.is_some());
        if !can_elicit {
            let refusal = ToolResult::failure(
                ToolError::new(
                    ErrorType::Denied,
                    format!(
                        "'{}' asks the person before it runs ({reason}), and this client cannot ask (it declared no elicitation)",
                        request.name
                    ),
                )
                .with_hint(
                    "use a client that supports elicitation, run the call from the Deskmate app, or set the tool's policy to \"always\" in Deskmate's Tools page",
                ),
            );
            return Err(convert::call_result(&refusal).into());
        }
        let irreversible = self
            .deskmate
            .registry()
            .guard()
            .spec(&request.name)
            .is_none_or(|spec| spec.side_effect == deskmate_core::SideEffect::Irreversible);
        let mut schema = ElicitationSchema::builder().required_bool("approve");
        if !irreversible {
            schema = schema.optional_enum_schema(REMEMBER, remember_choice());
        }
        let params = ElicitRequestParams::FormElicitationParams {
            meta: None,
            message: format!("Deskmate: run {} now? {reason}", request.name),
            requested_schema: schema.build().map_err(|e| {
                CallToolResponse::from(convert::call_result(&ToolResult::failure(
                    ToolError::internal(e.to_string()),
                )))
            })?,
        };
        let stateless = context
            .protocol_version()
            .is_some_and(|v| !v.has_initialize());
        let answer = if stateless {
            // 2026-07-28: no server-to-client request; the client asks and calls again
            // with the answer and the state, which names this exact call.
            let state = call_state(request);
            let answered = request
                .input_responses
                .as_ref()
                .and_then(|r| r.get(CONFIRM_KEY))
                .filter(|_| request.request_state.as_deref() == Some(state.as_str()))
                .and_then(|v| serde_json::from_value::<ElicitResult>(v.clone()).ok());
            match answered {
                Some(answer) => answer,
                None => {
                    let mut asks = InputRequests::new();
                    asks.insert(
                        CONFIRM_KEY.into(),
                        InputRequest::Elicitation(ElicitRequest::new(params)),
                    );
                    return Err(InputRequiredResult::new(Some(asks), Some(state)).into());
                }
            }
        } else {
            match context.peer.create_elicitation(params).await {
                Ok(answer) => answer,
                Err(e) => {
                    tracing::info!(error = %e, "the MCP client did not answer the confirmation");
                    return Ok(false);
                }
            }
        };
        let field = |key: &str| answer.content.as_ref().and_then(|c| c.get(key)).cloned();
        let approved = answer.action == ElicitationAction::Accept
            && field("approve").and_then(|v| v.as_bool()) == Some(true);
        if approved
            && !irreversible
            && field(REMEMBER)
                .and_then(|v| v.as_str().map(str::to_string))
                .as_deref()
                == Some("always")
        {
            self.deskmate.allow_always(&request.name);
        }
        Ok(approved)
    }
}

/// The elicitation field that says how far a yes reaches.
const REMEMBER: &str = "remember";

/// "This call only" or "Always allow this tool" (taken back on Deskmate's Tools page).
fn remember_choice() -> EnumSchema {
    let builder = EnumSchema::builder(vec!["once".into(), "always".into()])
        .title("Remember")
        .description("How far the yes reaches; 'always' is taken back on Deskmate's Tools page");
    let titled = builder
        .enum_titles(vec![
            "This call only".into(),
            "Always allow this tool".into(),
        ])
        .and_then(|b| b.with_default("once"));
    match titled {
        Ok(builder) => builder.build(),
        // Not reached: two titles for two values, and the default is one of them.
        Err(_) => EnumSchema::builder(vec!["once".into(), "always".into()]).build(),
    }
}

/// What identifies one call across an `input_required` round trip.
fn call_state(request: &CallToolRequestParams) -> String {
    let arguments = Value::Object(request.arguments.clone().unwrap_or_default());
    format!(
        "confirm:{}:{}",
        request.name,
        deskmate_core::canonical_json(&arguments)
    )
}

fn fingerprint(tools: &[Tool]) -> String {
    serde_json::to_string(tools).unwrap_or_default()
}

/// What Deskmate's server says about itself (also through the app bridge).
pub(crate) fn info() -> ServerConfig {
    ServerConfig::new(
        ServerCapabilities::builder()
            .enable_tools()
            .enable_tool_list_changed()
            .build(),
    )
    .with_server_info(Implementation::new("deskmate", env!("CARGO_PKG_VERSION")))
    .with_instructions(
        "Deskmate's desktop tools (camera, volume, messages, choices, calculator, time, \
         datasets, knowledge base, sandboxed Python, user-defined HTTP tools). Every call \
         is validated, may be normalized (see `repairs` in structuredContent), may ask \
         the person first, and is audited. A failed call says how to fix it in its hint.",
    )
}

impl ServerHandler for DeskmateMcp {
    fn get_info(&self) -> ServerConfig {
        info()
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        self.tools().into_iter().find(|t| t.name == name)
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(self.tools()))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let name = request.name.to_string();
        // Only the names tools/list gives: a disabled or unknown tool is a protocol error.
        if self.get_tool(&name).is_none() {
            return Err(ErrorData::invalid_params(
                format!("unknown tool: {name}; tools/list names the tools this server has"),
                Some(json!({"tool": name})),
            ));
        }
        let arguments = Value::Object(request.arguments.clone().unwrap_or_default());
        // A client names itself (clientInfo); the app bridge passes on the name of the
        // client it serves.
        let client = context
            .meta
            .get(CLIENT_META)
            .and_then(Value::as_str)
            .map(str::to_string)
            .or_else(|| context.client_info().map(|c| c.name));
        let mut call = CallRequest::new(name.clone(), arguments);
        call.origin = "mcp".into();
        call.client = client.clone();
        call.cancel = Some(context.ct.clone());
        call.idem_key = context
            .meta
            .get(IDEM_KEY_META)
            .and_then(Value::as_str)
            .filter(|k| !k.is_empty() && k.len() <= 200)
            .map(str::to_string);
        if self.confirm == Confirm::Elicit
            && let Some(reason) = self.deskmate.confirmation_needed(&name, &call.arguments)
        {
            match self
                .confirm_by_elicitation(&request, &context, &reason)
                .await
            {
                Ok(approved) => call.confirmed = approved,
                Err(answer) => return Ok(answer),
            }
            // Declined: the call goes on unconfirmed, so the service refuses it and
            // audits the refusal like any other.
        }
        tracing::info!(tool = %name, client = client.as_deref().unwrap_or("unknown"), "MCP call");
        let result = with_progress(self.deskmate.call(call), &context, &name).await;
        Ok(convert::call_result(&result).into())
    }

    async fn on_initialized(&self, context: NotificationContext<RoleServer>) {
        tell_session(
            context.peer,
            self.deskmate.tool_changes(),
            self.list_is_news(),
        );
    }

    fn accepted_subscription_filter(
        &self,
        _requested: &SubscriptionFilter,
    ) -> Option<SubscriptionFilter> {
        Some(SubscriptionFilter::builder().tools_list_changed().build())
    }

    async fn listen(&self, context: SubscriptionContext) -> Result<(), ErrorData> {
        tell_subscriber(context, self.deskmate.tool_changes(), self.list_is_news()).await;
        Ok(())
    }
}

/// Calls `notify` for each change `changes` signals that `is_news` confirms, until
/// `notify` fails (the client is gone) or `stop` resolves.
async fn forward_changes<F, Fut>(
    mut changes: watch::Receiver<u64>,
    mut is_news: impl FnMut() -> bool,
    notify: F,
    stop: impl std::future::Future<Output = ()>,
) where
    F: Fn() -> Fut,
    Fut: std::future::Future<Output = bool>,
{
    tokio::pin!(stop);
    loop {
        tokio::select! {
            () = &mut stop => return,
            changed = changes.changed() => {
                if changed.is_err() {
                    return;
                }
            }
        }
        if is_news() && !notify().await {
            return;
        }
    }
}

/// Tells a 2025-11-25 session `notifications/tools/list_changed` while it lasts.
pub(crate) fn tell_session(
    peer: Peer<RoleServer>,
    changes: watch::Receiver<u64>,
    is_news: impl FnMut() -> bool + Send + 'static,
) {
    tokio::spawn(async move {
        let closed = peer.clone();
        let stop = async move {
            while !closed.is_transport_closed() {
                tokio::time::sleep(Duration::from_secs(1)).await;
            }
        };
        let notify = || {
            let peer = peer.clone();
            async move { peer.notify_tool_list_changed().await.is_ok() }
        };
        forward_changes(changes, is_news, notify, stop).await;
    });
}

/// Tells a 2026-07-28 `subscriptions/listen` stream of list changes until it hangs up.
pub(crate) async fn tell_subscriber(
    context: SubscriptionContext,
    changes: watch::Receiver<u64>,
    is_news: impl FnMut() -> bool,
) {
    let sink = context.sink().clone();
    let notify = || {
        let sink = sink.clone();
        async move { sink.notify_tool_list_changed().await.is_ok() }
    };
    forward_changes(changes, is_news, notify, context.cancelled()).await;
}
