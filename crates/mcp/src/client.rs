//! Deskmate as an MCP client: the configured servers (`Deskmate::mcp_server_configs`)
//! are started or connected to in the background, each under its own supervisor (a
//! start timeout, restart with backoff when it dies, stopped when removed or disabled or
//! when Deskmate stops), and their tools join the registry as `<server>.<tool>`
//! ([`McpTool`]) — under the guard, the policy (anything not read-only asks first by
//! default), the tool's timeout, capping and audit like every other tool.
//!
//! A stdio server's stdin is a pipe from Deskmate: when Deskmate ends, even by
//! `kill -9`, the server reads end-of-file and exits, as MCP servers do.

use std::collections::{BTreeMap, HashSet};
use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use deskmate_core::{Category, ErrorType, Localized, SideEffect, ToolError, ToolSpec};
use deskmate_service::Deskmate;
use deskmate_service::mcp_servers::{ChangedTool, McpServerConfig, McpStatus, Transport};
use deskmate_service::prompts::PromptBroker;
use deskmate_tools::{Tool, ToolContext};
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ClientCapabilities, ClientConfig,
    ContentBlock, ElicitRequestParams, ElicitResult, ElicitationAction, Implementation,
    InputRequest, InputResponses, ProtocolVersion, SubscriptionFilter,
};
use rmcp::service::{ClientLifecycleMode, ClientServiceExt, NotificationContext, RunningService};
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::transport::{StreamableHttpClientTransport, TokioChildProcess};
use rmcp::{ClientHandler, Peer, RoleClient};
use serde_json::{Value, json};
use tokio::sync::watch;
use tokio_util::sync::CancellationToken;

/// How long a server may take by default to start and answer `initialize` (and
/// `tools/list`); `DESKMATE_MCP_START_TIMEOUT` (seconds) overrides it.
pub const START_TIMEOUT: Duration = Duration::from_secs(30);

fn start_timeout() -> Duration {
    std::env::var("DESKMATE_MCP_START_TIMEOUT")
        .ok()
        .and_then(|s| s.trim().parse::<u64>().ok())
        .filter(|s| *s > 0)
        .map_or(START_TIMEOUT, Duration::from_secs)
}
/// How long one imported call may run.
const CALL_TIMEOUT_MS: u64 = 60_000;
/// The longest wait between restarts.
const MAX_BACKOFF: Duration = Duration::from_secs(60);

/// Runs the configured servers until `stop` is cancelled: reconciles on every change of
/// the configuration. With `prompts` (the app's or `deskmate serve`'s prompt broker) the
/// servers may ask the person questions (elicitation); without, they are told Deskmate
/// cannot.
pub async fn run_imports(
    deskmate: Arc<Deskmate>,
    prompts: Option<Arc<PromptBroker>>,
    stop: CancellationToken,
) {
    let mut changes = deskmate.mcp_server_changes();
    let mut running: BTreeMap<String, (McpServerConfig, CancellationToken)> = BTreeMap::new();
    loop {
        let wanted = deskmate.mcp_server_configs().unwrap_or_else(|e| {
            tracing::warn!(error = %e, "cannot read the MCP servers");
            Vec::new()
        });
        let names: HashSet<&str> = wanted.iter().map(|c| c.name.as_str()).collect();
        // Stop what was removed, disabled or changed.
        let stale: Vec<String> = running
            .iter()
            .filter(|(name, (config, _))| {
                !names.contains(name.as_str()) || !wanted.contains(config)
            })
            .map(|(name, _)| name.clone())
            .collect();
        for name in stale {
            if let Some((_, cancel)) = running.remove(&name) {
                cancel.cancel();
            }
            deskmate.set_imported_tools(&name, Vec::new(), &HashSet::new());
        }
        for config in wanted {
            if running.contains_key(&config.name) {
                continue;
            }
            let cancel = stop.child_token();
            running.insert(config.name.clone(), (config.clone(), cancel.clone()));
            tokio::spawn(supervise(deskmate.clone(), prompts.clone(), config, cancel));
        }
        tokio::select! {
            () = stop.cancelled() => return,
            changed = changes.changed() => if changed.is_err() { return },
        }
    }
}

/// Keeps one server connected until `cancel`: start, import its tools, wait for it to
/// end, restart after a growing pause.
async fn supervise(
    deskmate: Arc<Deskmate>,
    prompts: Option<Arc<PromptBroker>>,
    config: McpServerConfig,
    cancel: CancellationToken,
) {
    let mut backoff = Duration::from_secs(1);
    // "starting" only the first time: on a retry the last failure stays visible.
    deskmate.set_mcp_status(&config.name, McpStatus::Starting);
    loop {
        let outcome = tokio::select! {
            () = cancel.cancelled() => return,
            outcome = connect_and_serve(&deskmate, prompts.clone(), &config, &cancel) => outcome,
        };
        match outcome {
            Ok(()) if cancel.is_cancelled() => return,
            Ok(()) => {
                // It ran and then ended: try again soon, as after a first failure.
                backoff = Duration::from_secs(1);
                deskmate.set_mcp_status(
                    &config.name,
                    McpStatus::Failed {
                        reason: "the server stopped; restarting".into(),
                    },
                );
            }
            Err(reason) => {
                tracing::warn!(server = %config.name, %reason, "MCP server not available");
                deskmate.set_mcp_status(&config.name, McpStatus::Failed { reason });
            }
        }
        deskmate.set_imported_tools(&config.name, Vec::new(), &HashSet::new());
        tokio::select! {
            () = cancel.cancelled() => return,
            () = tokio::time::sleep(backoff) => {}
        }
        backoff = (backoff * 2).min(MAX_BACKOFF);
    }
}

/// The client side of one connection: re-lists the tools when the server says they
/// changed, and puts the server's questions (elicitation) to the person.
#[derive(Debug, Clone)]
struct Importer {
    changed: watch::Sender<u64>,
    asker: Arc<Asker>,
}

/// Who answers a server's questions (elicitation) for the person: the app's dialog or
/// `/api/v1/prompts`, through the prompt broker. Shared by the connection (a 2025-11-25
/// server asks with `elicitation/create`) and its tools (a 2026-07-28 server answers a
/// call with `input_required`, and the call is made again with the answers).
#[derive(Debug)]
struct Asker {
    server: String,
    prompts: Option<Arc<PromptBroker>>,
}

/// How many `input_required` rounds one call may take before it fails.
const MAX_INPUT_ROUNDS: usize = 10;

/// How long a server's question waits for the person.
const QUESTION_TIMEOUT: Duration = Duration::from_secs(120);

impl ClientHandler for Importer {
    fn get_info(&self) -> ClientConfig {
        let capabilities = if self.asker.prompts.is_some() {
            ClientCapabilities::builder().enable_elicitation().build()
        } else {
            ClientCapabilities::default()
        };
        ClientConfig::new(
            capabilities,
            Implementation::new("deskmate", env!("CARGO_PKG_VERSION")),
        )
    }

    /// A server's question, answered by the person ([`Asker::elicit`]).
    async fn create_elicitation(
        &self,
        request: ElicitRequestParams,
        _context: rmcp::service::RequestContext<RoleClient>,
    ) -> Result<ElicitResult, rmcp::ErrorData> {
        Ok(self.asker.elicit(request).await)
    }

    async fn on_tool_list_changed(&self, _context: NotificationContext<RoleClient>) {
        self.changed.send_modify(|generation| *generation += 1);
    }
}

impl Asker {
    /// A form with one choice (a yes/no field, an enum field) or none (accept or
    /// decline) becomes a choice in the app's dialog (or `/api/v1/prompts`): the person's
    /// pick is the answer, "Decline" declines, no answer in time cancels. A form Deskmate
    /// cannot show as one choice (several fields, free text) and a URL are declined.
    async fn elicit(&self, request: ElicitRequestParams) -> ElicitResult {
        let decline = || ElicitResult::new(ElicitationAction::Decline);
        let Some(prompts) = &self.prompts else {
            return decline();
        };
        let ElicitRequestParams::FormElicitationParams {
            message,
            requested_schema,
            ..
        } = request
        else {
            tracing::info!(server = %self.server, "a URL elicitation was declined");
            return decline();
        };
        let Some(question) =
            Question::of(&serde_json::to_value(&requested_schema).unwrap_or_default())
        else {
            tracing::info!(server = %self.server, "a form Deskmate cannot show as one choice was declined");
            return decline();
        };
        let mut options = question.labels();
        options.push(DECLINE.into());
        let asked = format!("{} asks: {message}", self.server);
        match prompts.choose(&asked, &options, QUESTION_TIMEOUT).await {
            Ok((index, _)) if index + 1 == options.len() => decline(),
            Ok((index, _)) => {
                ElicitResult::new(ElicitationAction::Accept).with_content(question.answer(index))
            }
            Err(_) => ElicitResult::new(ElicitationAction::Cancel),
        }
    }

    /// The answers to a 2026-07-28 server's `input_required` requests: its questions are
    /// asked ([`Asker::elicit`]); a model completion (sampling) or the roots of this
    /// computer's files are never given to a server.
    async fn answer(&self, requests: rmcp::model::InputRequests) -> Result<InputResponses, String> {
        let mut answers = InputResponses::new();
        for (key, request) in requests {
            let answer = match request {
                InputRequest::Elicitation(request) => self.elicit(request.params).await,
                InputRequest::CreateMessage(_) => {
                    return Err("the server asked for a model completion (sampling), which Deskmate does not give to servers".into());
                }
                InputRequest::ListRoots(_) => {
                    return Err(
                        "the server asked for this computer's roots, which Deskmate does not share"
                            .into(),
                    );
                }
                _ => {
                    return Err(
                        "the server asked for input of a kind Deskmate does not know".into(),
                    );
                }
            };
            answers.insert(
                key,
                serde_json::to_value(answer).map_err(|e| e.to_string())?,
            );
        }
        Ok(answers)
    }
}

/// The option that declines a server's question.
const DECLINE: &str = "Decline";

/// A server's form that one choice can answer.
#[derive(Debug, Clone, PartialEq)]
enum Question {
    /// No field: accept or decline.
    Nothing,
    /// One yes/no field.
    YesNo(String),
    /// One field with a list of values.
    OneOf(String, Vec<Value>),
}

impl Question {
    /// The question a requested schema asks, if one choice can answer it. Fields the
    /// schema does not require are left out of the answer (another Deskmate offers
    /// "remember": the person here answers yes or no, this once); when it names none as
    /// required, every field is asked.
    fn of(schema: &Value) -> Option<Self> {
        let properties = schema.get("properties").and_then(Value::as_object);
        let Some(properties) = properties.filter(|p| !p.is_empty()) else {
            return Some(Self::Nothing);
        };
        let required: Option<Vec<&str>> = schema
            .get("required")
            .and_then(Value::as_array)
            .map(|names| names.iter().filter_map(Value::as_str).collect());
        let asked: Vec<(&String, &Value)> = properties
            .iter()
            .filter(|(name, _)| required.as_ref().is_none_or(|r| r.contains(&name.as_str())))
            .collect();
        let [(name, field)] = asked[..] else {
            return if asked.is_empty() {
                Some(Self::Nothing)
            } else {
                None
            };
        };
        if field.get("type").and_then(Value::as_str) == Some("boolean") {
            return Some(Self::YesNo(name.clone()));
        }
        let values = field
            .get("enum")
            .and_then(Value::as_array)
            .filter(|v| !v.is_empty())?;
        Some(Self::OneOf(name.clone(), values.clone()))
    }

    /// The options shown, in order.
    fn labels(&self) -> Vec<String> {
        match self {
            Self::Nothing => vec!["Accept".into()],
            Self::YesNo(_) => vec!["Yes".into(), "No".into()],
            Self::OneOf(_, values) => values
                .iter()
                .map(|v| v.as_str().map_or_else(|| v.to_string(), str::to_string))
                .collect(),
        }
    }

    /// The content of an accepted answer: option `index`.
    fn answer(&self, index: usize) -> Value {
        match self {
            Self::Nothing => json!({}),
            Self::YesNo(name) => json!({ name: index == 0 }),
            Self::OneOf(name, values) => {
                json!({ name: values.get(index).cloned().unwrap_or(Value::Null) })
            }
        }
    }
}

/// How a connection starts: the 2026-07-28 era first (`server/discover`, stateless),
/// and the 2025-11-25 handshake (`initialize`, offering 2025-11-25) when the server does
/// not know `server/discover` (an error, or no answer within 10 s).
fn lifecycle() -> ClientLifecycleMode {
    ClientLifecycleMode::Auto {
        preferred_versions: vec![ProtocolVersion::V_2026_07_28],
        legacy_version: Some(ProtocolVersion::LATEST_WITH_INITIALIZE),
    }
}

async fn connect(
    deskmate: &Deskmate,
    config: &McpServerConfig,
    importer: Importer,
) -> Result<RunningService<RoleClient, Importer>, String> {
    let connecting = async {
        match &config.transport {
            Transport::Stdio { command, args, env } => {
                let mut cmd = tokio::process::Command::new(command);
                cmd.args(args).envs(env.iter().map(|(k, v)| (k, v)));
                let logs = deskmate.data_dir().join("logs");
                let _ = std::fs::create_dir_all(&logs);
                let stderr = std::fs::File::create(logs.join(format!("mcp-{}.log", config.name)))
                    .map(std::process::Stdio::from)
                    .unwrap_or_else(|_| std::process::Stdio::null());
                let (process, _) = TokioChildProcess::builder(cmd)
                    .stderr(stderr)
                    .spawn()
                    .map_err(|e| format!("cannot start '{command}': {e}"))?;
                importer
                    .serve_with_lifecycle(process, lifecycle())
                    .await
                    .map_err(|e| {
                        format!(
                            "'{command}' did not start as an MCP server: {}",
                            readable(&e)
                        )
                    })
            }
            Transport::Http { url, headers } => {
                let _ = rustls::crypto::ring::default_provider().install_default();
                let mut custom = std::collections::HashMap::new();
                for (name, value) in headers {
                    let name = http::HeaderName::try_from(name.as_str())
                        .map_err(|e| format!("header {name}: {e}"))?;
                    let value = http::HeaderValue::try_from(value.as_str())
                        .map_err(|_| format!("the value of header {name} is not valid"))?;
                    custom.insert(name, value);
                }
                let transport = StreamableHttpClientTransport::from_config(
                    StreamableHttpClientTransportConfig::with_uri(url.clone())
                        .custom_headers(custom),
                );
                importer
                    .serve_with_lifecycle(transport, lifecycle())
                    .await
                    .map_err(|e| format!("{url} did not answer as an MCP server: {}", readable(&e)))
            }
        }
    };
    let timeout = start_timeout();
    tokio::time::timeout(timeout, connecting)
        .await
        .map_err(|_| {
            format!(
                "no answer within {} s (is it an MCP server?)",
                timeout.as_secs()
            )
        })?
}

/// An SDK error as a person reads it: without the Rust type names rmcp's messages carry
/// ("Transport [rmcp::transport::worker::WorkerTransport<…>] error: …").
fn readable(error: &impl std::fmt::Display) -> String {
    let text = error.to_string();
    let mut out = String::with_capacity(text.len());
    let mut rest = text.as_str();
    while let Some(start) = rest.find('[') {
        let Some(len) = rest[start..].find(']') else {
            break;
        };
        let inside = &rest[start + 1..start + len];
        out.push_str(&rest[..start]);
        if !inside.contains("::") {
            out.push_str(&rest[start..=start + len]);
        }
        rest = &rest[start + len + 1..];
    }
    out.push_str(rest);
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

async fn connect_and_serve(
    deskmate: &Arc<Deskmate>,
    prompts: Option<Arc<PromptBroker>>,
    config: &McpServerConfig,
    cancel: &CancellationToken,
) -> Result<(), String> {
    let (changed, mut changes) = watch::channel(0);
    let asker = Arc::new(Asker {
        server: config.name.clone(),
        prompts,
    });
    let importer = Importer {
        changed,
        asker: asker.clone(),
    };
    let running = connect(deskmate, config, importer).await?;
    let version = running
        .peer()
        .peer_info()
        .map(|i| i.protocol_version.clone());
    let protocol = version
        .as_ref()
        .map(ToString::to_string)
        .unwrap_or_default();
    // 2026-07-28: no notification comes unasked; list changes are subscribed to.
    let modern = version.is_some_and(|v| !v.has_initialize());
    let peer = running.peer().clone();
    let protocol = &protocol;
    let asker = &asker;
    let import = |peer: Peer<RoleClient>| async move {
        let listed = tokio::time::timeout(start_timeout(), peer.list_all_tools())
            .await
            .map_err(|_| "tools/list got no answer".to_string())?
            .map_err(|e| format!("tools/list failed: {e}"))?;
        let tools = imported_tools(&config.name, &listed, &peer, asker);
        let count = tools.len();
        let (blocked, changed) = check_pins(deskmate, &config.name, &listed, &tools);
        deskmate.set_imported_tools(&config.name, tools, &blocked);
        deskmate.set_mcp_changed_tools(&config.name, changed);
        deskmate.set_mcp_status(
            &config.name,
            McpStatus::Running {
                tools: count,
                protocol: protocol.clone(),
            },
        );
        Ok::<(), String>(())
    };
    import(peer.clone()).await?;
    let mut subscription = if modern {
        let tools = SubscriptionFilter::builder().tools_list_changed().build();
        match tokio::time::timeout(start_timeout(), peer.listen(tools)).await {
            Ok(Ok(subscription)) => Some(subscription),
            Ok(Err(error)) => {
                tracing::warn!(server = %config.name, %error, "cannot subscribe to list changes");
                None
            }
            Err(_) => {
                tracing::warn!(server = %config.name, "the subscription to list changes got no answer");
                None
            }
        }
    } else {
        None
    };
    // Dropping the service (cancelled) closes the connection and ends a stdio child.
    let ended = running.waiting();
    tokio::pin!(ended);
    loop {
        let heard = async {
            match subscription.as_mut() {
                Some(listening) => listening.next().await,
                None => std::future::pending().await,
            }
        };
        tokio::select! {
            () = cancel.cancelled() => return Ok(()),
            _ = &mut ended => return Ok(()),
            changed = changes.changed() => {
                if changed.is_err() {
                    return Ok(());
                }
                import(peer.clone()).await?;
            }
            note = heard => match note {
                Ok(Some(_)) => import(peer.clone()).await?,
                // The server ended the subscription: the connection may go on.
                _ => subscription = None,
            },
        }
    }
}

/// What is pinned of a tool (trust on first use): everything a model or the person reads
/// of it and everything that decides how it is run.
pub fn definition(tool: &rmcp::model::Tool) -> Value {
    json!({
        "name": tool.name,
        "title": tool.title,
        "description": tool.description,
        "inputSchema": *tool.input_schema,
        "annotations": tool.annotations,
    })
}

/// SHA-256 (hex) of a definition's canonical JSON (key order does not matter).
pub fn definition_hash(definition: &Value) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(deskmate_core::canonical_json(definition).as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Compares each listed tool with its pin: a tool seen for the first time is pinned
/// (trust on first use); one whose definition changed is blocked (disabled) and
/// reported with both definitions until the person approves it.
fn check_pins(
    deskmate: &Deskmate,
    server: &str,
    listed: &[rmcp::model::Tool],
    tools: &[Arc<dyn Tool>],
) -> (HashSet<String>, Vec<ChangedTool>) {
    let pins = deskmate.mcp_tool_pins(server).unwrap_or_else(|e| {
        tracing::warn!(%server, error = %e, "cannot read the tool pins");
        Default::default()
    });
    let mut blocked = HashSet::new();
    let mut changed = Vec::new();
    for (remote, tool) in listed.iter().zip(tools) {
        let now = definition(remote);
        let hash = definition_hash(&now);
        match pins.get(remote.name.as_ref()) {
            None => {
                if let Err(e) = deskmate.pin_mcp_tool(server, &remote.name, &hash, &now) {
                    tracing::warn!(%server, tool = %remote.name, error = %e, "cannot pin the tool");
                }
            }
            Some((pinned_hash, _)) if *pinned_hash == hash => {}
            Some((_, pinned)) => {
                let id = tool.spec().id.clone();
                tracing::warn!(%server, tool = %remote.name, "the tool's definition changed; disabled until approved");
                blocked.insert(id.clone());
                changed.push(ChangedTool {
                    tool: remote.name.to_string(),
                    id,
                    hash,
                    pinned: pinned.clone(),
                    now,
                });
            }
        }
    }
    (blocked, changed)
}

/// The id an imported tool gets: `<server>.<name>`, the name's characters outside MCP's
/// `[A-Za-z0-9_-]` replaced by '_', cut to 64 characters; a second tool that would get
/// the same id gets `_2`, `_3`… in the server's order.
pub fn imported_id(server: &str, name: &str, taken: &mut HashSet<String>) -> String {
    let clean: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect();
    let base: String = format!("{server}.{clean}").chars().take(64).collect();
    let mut id = base.clone();
    let mut n = 2;
    while !taken.insert(id.clone()) {
        let suffix = format!("_{n}");
        id = format!(
            "{}{suffix}",
            base.chars().take(64 - suffix.len()).collect::<String>()
        );
        n += 1;
    }
    id
}

fn imported_tools(
    server: &str,
    listed: &[rmcp::model::Tool],
    peer: &Peer<RoleClient>,
    asker: &Arc<Asker>,
) -> Vec<Arc<dyn Tool>> {
    let mut taken = HashSet::new();
    listed
        .iter()
        .map(|tool| {
            let id = imported_id(server, &tool.name, &mut taken);
            Arc::new(McpTool::new(id, tool, peer.clone(), asker.clone())) as Arc<dyn Tool>
        })
        .collect()
}

/// A tool of an MCP server: its spec from the server's definition, its run a
/// `tools/call` to the server.
#[derive(Debug)]
pub struct McpTool {
    spec: ToolSpec,
    /// The tool's name on its server.
    remote: String,
    open_world: bool,
    peer: Peer<RoleClient>,
    asker: Arc<Asker>,
}

impl McpTool {
    /// The tool `definition` of a server, as `id` in Deskmate.
    fn new(
        id: String,
        definition: &rmcp::model::Tool,
        peer: Peer<RoleClient>,
        asker: Arc<Asker>,
    ) -> Self {
        let annotations = definition.annotations.clone().unwrap_or_default();
        // No annotations: a write (the server did not say it only reads).
        let side_effect = if annotations.read_only_hint == Some(true) {
            SideEffect::Read
        } else if annotations.destructive_hint == Some(true) {
            SideEffect::Irreversible
        } else {
            SideEffect::Write
        };
        let title = definition
            .title
            .clone()
            .or(annotations.title.clone())
            .unwrap_or_else(|| definition.name.to_string());
        let mut parameters = Value::Object((*definition.input_schema).clone());
        if parameters.get("type").is_none() {
            parameters["type"] = json!("object");
        }
        let spec = ToolSpec {
            id,
            name: Localized::new(title.clone(), title),
            summary: None,
            description: definition
                .description
                .as_deref()
                .unwrap_or("A tool of an MCP server.")
                .to_string(),
            category: if side_effect == SideEffect::Read {
                Category::Query
            } else {
                Category::System
            },
            parameters,
            side_effect,
            idempotent: annotations.idempotent_hint == Some(true),
            timeout_ms: CALL_TIMEOUT_MS,
            compensation: None,
        };
        Self {
            spec,
            remote: definition.name.to_string(),
            open_world: annotations.open_world_hint.unwrap_or(true),
            peer,
            asker,
        }
    }
}

impl McpTool {
    /// One `tools/call`, with the rounds a 2026-07-28 server may ask for: its
    /// `input_required` questions are answered ([`Asker::answer`]) and the call is made
    /// again with the answers and the server's state, at most [`MAX_INPUT_ROUNDS`] times.
    /// The outer error is Deskmate's (a question it cannot answer, too many rounds); the
    /// inner one the SDK's, as the caller maps it.
    async fn call(
        &self,
        mut request: CallToolRequestParams,
    ) -> Result<Result<CallToolResult, rmcp::ServiceError>, ToolError> {
        let server = &self.asker.server;
        for _ in 0..MAX_INPUT_ROUNDS {
            match self.peer.call_tool_once(request.clone()).await {
                Ok(CallToolResponse::Complete(result)) => return Ok(Ok(result)),
                Ok(CallToolResponse::InputRequired(asked)) => {
                    let answers = self
                        .asker
                        .answer(asked.input_requests.unwrap_or_default())
                        .await
                        .map_err(|why| {
                            ToolError::new(
                                ErrorType::Permission,
                                format!("the MCP server '{server}' {why}"),
                            )
                            .with_hint("this tool cannot be used from Deskmate; tell the user")
                        })?;
                    request.input_responses = (!answers.is_empty()).then_some(answers);
                    request.request_state = asked.request_state;
                }
                Ok(_) => {
                    return Err(ToolError::new(
                        ErrorType::Internal,
                        format!("the MCP server '{server}' answered with a task, which Deskmate does not follow"),
                    )
                    .with_hint("tell the user this tool cannot be used from Deskmate"));
                }
                Err(error) => return Ok(Err(error)),
            }
        }
        Err(ToolError::new(
            ErrorType::Transient,
            format!("the MCP server '{server}' asked for input {MAX_INPUT_ROUNDS} times without finishing the call"),
        )
        .with_hint("try again later, or tell the user the server did not finish"))
    }
}

fn text_of(content: &[ContentBlock]) -> String {
    content
        .iter()
        .filter_map(|c| c.as_text().map(|t| t.text.clone()))
        .collect::<Vec<_>>()
        .join("\n")
}

#[async_trait]
impl Tool for McpTool {
    fn spec(&self) -> &ToolSpec {
        &self.spec
    }

    fn open_world(&self) -> bool {
        self.open_world
    }

    /// Never run by the autotest (its effect is the server's); its server has a check.
    fn self_check(&self) -> deskmate_tools::SelfCheck {
        let server = self.spec.id.split_once('.').map_or("", |(s, _)| s);
        deskmate_tools::SelfCheck::Skip(deskmate_core::said!(
            "从 MCP 服务器“{server}”导入：见检查项“MCP 服务器：{server}”",
            "imported from the MCP server '{server}': see the check \"MCP server: {server}\""
        ))
    }

    async fn run(&self, args: Value, ctx: ToolContext) -> Result<Value, ToolError> {
        let arguments = match args {
            Value::Object(map) => map,
            _ => serde_json::Map::new(),
        };
        let request = CallToolRequestParams::new(self.remote.clone()).with_arguments(arguments);
        let answer = tokio::select! {
            answer = self.call(request) => answer?,
            () = ctx.cancel.cancelled() => {
                return Err(ToolError::new(ErrorType::Timeout, "the call was cancelled"));
            }
        };
        let server = self.spec.id.split_once('.').map_or("", |(s, _)| s);
        match answer {
            Ok(result) if result.is_error == Some(true) => {
                let text = text_of(&result.content);
                Err(ToolError::new(
                    ErrorType::Validation,
                    if text.is_empty() {
                        format!("the MCP server '{server}' reported an error")
                    } else {
                        text
                    },
                )
                .with_hint("the server refused or failed this call: read its message, fix the arguments if they caused it, or tell the user"))
            }
            Ok(result) => Ok(match result.structured_content {
                Some(data) => data,
                None => json!({"text": text_of(&result.content)}),
            }),
            Err(rmcp::ServiceError::McpError(e))
                if e.code == rmcp::model::ErrorCode::INVALID_PARAMS =>
            {
                Err(ToolError::new(ErrorType::Validation, e.message.to_string())
                    .with_hint("the server rejected the arguments; fix them as its message says"))
            }
            Err(rmcp::ServiceError::McpError(e)) => Err(ToolError::new(
                ErrorType::Transient,
                format!(
                    "the MCP server '{server}' answered with an error: {}",
                    e.message
                ),
            )
            .with_hint("try again later, or tell the user the server failed")),
            Err(other) => Err(ToolError::new(
                ErrorType::Transient,
                format!("the MCP server '{server}' is not reachable: {other}"),
            )
            .with_hint("the server may have stopped; Deskmate restarts it, try again shortly")),
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn sdk_errors_lose_their_rust_type_names() {
        let sdk = "Send message error Transport [rmcp::transport::worker::WorkerTransport<\
                   rmcp::transport::streamable_http_client::StreamableHttpClientWorker<\
                   reqwest::async_impl::client::Client>>] error: Client error: error sending \
                   request for url (http://a/mcp), when send initialize request";
        assert_eq!(
            super::readable(&sdk),
            "Send message error Transport error: Client error: error sending request for url \
             (http://a/mcp), when send initialize request"
        );
        assert_eq!(super::readable(&"list [1, 2]"), "list [1, 2]");
    }

    use super::*;

    #[test]
    fn a_question_is_one_choice_or_none() {
        let yes_no = json!({"type": "object", "properties": {"confirm": {"type": "boolean"}}});
        let question = Question::of(&yes_no);
        assert_eq!(question, Some(Question::YesNo("confirm".into())));
        assert_eq!(
            question.as_ref().map(|q| q.answer(0)),
            Some(json!({"confirm": true}))
        );
        let size = json!({"type": "object", "properties": {"size": {"type": "string", "enum": ["S", "M"]}}});
        let question = Question::of(&size);
        assert_eq!(
            question.as_ref().map(Question::labels),
            Some(vec!["S".into(), "M".into()])
        );
        assert_eq!(
            question.as_ref().map(|q| q.answer(1)),
            Some(json!({"size": "M"}))
        );
        assert_eq!(
            Question::of(&json!({"type": "object"})),
            Some(Question::Nothing)
        );
        let form = json!({"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "string"}}});
        assert_eq!(
            Question::of(&form),
            None,
            "two fields are a form, not a choice"
        );
        let text = json!({"type": "object", "properties": {"a": {"type": "string"}}});
        assert_eq!(Question::of(&text), None, "free text is not a choice");
        // Another Deskmate's confirmation: a required yes/no and an optional "remember".
        let confirm = json!({"type": "object", "required": ["approve"], "properties": {
            "approve": {"type": "boolean"},
            "remember": {"type": "string", "enum": ["once", "always"]}}});
        let question = Question::of(&confirm);
        assert_eq!(question, Some(Question::YesNo("approve".into())));
        assert_eq!(
            question.as_ref().map(|q| q.answer(0)),
            Some(json!({"approve": true})),
            "the optional field is left out: yes, this once"
        );
    }

    #[test]
    fn ids_are_prefixed_cleaned_cut_and_unique() {
        let mut taken = HashSet::new();
        assert_eq!(imported_id("fs", "read_file", &mut taken), "fs.read_file");
        assert_eq!(imported_id("fs", "read.file", &mut taken), "fs.read_file_2");
        assert_eq!(imported_id("fs", "read file", &mut taken), "fs.read_file_3");
        let long = imported_id("fs", &"x".repeat(100), &mut taken);
        assert_eq!(long.len(), 64);
        let again = imported_id("fs", &"x".repeat(100), &mut taken);
        assert!(again.len() <= 64 && again.ends_with("_2") && again != long);
        assert!(deskmate_core::spec::is_valid_imported_tool_id(&again));
    }
}
