//! The Deskmate service: the one object every front end (CLI, REST API, GUI, agent loop)
//! calls. [`Deskmate::call`] runs a tool call through every guard step:
//!
//! 1–4. resolve, read, normalize, validate ([`deskmate_core::Guard`]);
//! 5. plausibility ([`deskmate_tools::Tool::check`]);
//! 6. policy and confirmation ([`hooks::PolicySource`], [`hooks::Confirmer`]);
//! 7. idempotency ([`hooks::IdempotencyStore`]);
//! 8. execution with the tool's timeout, cancellation and panic isolation;
//! 9. capping ([`deskmate_core::cap`]);
//! 10. audit ([`hooks::AuditSink`]).
//!
//! ```no_run
//! # async fn demo() -> Result<(), deskmate_service::Error> {
//! use deskmate_service::{CallRequest, Deskmate};
//! let deskmate = Deskmate::open(std::path::Path::new("/tmp/deskmate-demo"))?;
//! let result = deskmate.call(CallRequest::new("calculator", serde_json::json!({"expression": "2+3"}))).await;
//! assert_eq!(result.data["result"], 5);
//! # Ok(()) }
//! ```

pub mod error;
pub mod hooks;
pub mod paths;
pub mod stored;

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use deskmate_core::mask::mask_secrets;
use deskmate_core::{
    CapLimits, Decision, ErrorType, PreparedCall, ToolError, ToolResult, ToolSpec, cap,
};
use deskmate_store::Store;
use deskmate_store::resources::ResourceFilter;
use deskmate_tools::{Registry, Tool, ToolConfig, ToolContext};
use serde_json::Value;

pub use error::Error;

/// The database file in the data dir.
pub const DATABASE_FILE: &str = "deskmate.db";
pub use hooks::Hooks;
use hooks::{AuditEvent, ConfirmRequest, Confirmation};

/// One tool call as a front end asks for it.
#[derive(Debug, Clone)]
pub struct CallRequest {
    /// The tool name as the caller spelled it.
    pub tool: String,
    /// The arguments: an object, a JSON string, or anything the guard accepts.
    pub arguments: Value,
    /// Run at most once per key.
    pub idem_key: Option<String>,
    /// The conversation the call belongs to.
    pub conversation_id: Option<String>,
    /// Which front end asks (`cli`, `api`, `llm`, `gui`).
    pub origin: String,
}

impl CallRequest {
    /// A call from the CLI with no key and no conversation.
    pub fn new(tool: impl Into<String>, arguments: Value) -> Self {
        Self {
            tool: tool.into(),
            arguments,
            idem_key: None,
            conversation_id: None,
            origin: "cli".into(),
        }
    }
}

/// The service.
#[derive(Debug)]
pub struct Deskmate {
    data_dir: PathBuf,
    registry: Arc<Registry>,
    hooks: Hooks,
    limits: CapLimits,
    store: Option<Arc<Store>>,
}

impl Deskmate {
    /// Opens the service on a data dir (created if missing, with its `datasets` folder
    /// and its database `deskmate.db`). Nobody can confirm calls that need a yes.
    pub fn open(data_dir: &Path) -> Result<Self, Error> {
        Self::open_with(data_dir, Arc::new(hooks::NoConfirmer))
    }

    /// Opens the service with the given confirmer: the built-in tools are registered as
    /// system resources, the user's enabled flags and policies applied, and audit and
    /// idempotency kept in the database.
    pub fn open_with(data_dir: &Path, confirmer: Arc<dyn hooks::Confirmer>) -> Result<Self, Error> {
        let config = ToolConfig::for_data_dir(data_dir);
        std::fs::create_dir_all(&config.datasets_dir).map_err(|source| Error::DataDir {
            path: config.datasets_dir.clone(),
            source,
        })?;
        let store = Arc::new(Store::open(&data_dir.join(DATABASE_FILE))?);
        let mut registry = Registry::builtin(&config)?;
        let system: Vec<_> = registry.specs().map(stored::system_resource).collect();
        store.sync_system_resources(&system)?;
        let everything = ResourceFilter {
            limit: 1000,
            ..ResourceFilter::default()
        };
        let (_, resources) = store.list_resources(&everything)?;
        for resource in resources.iter().filter(|r| !r.enabled) {
            registry.guard_mut().set_enabled(&resource.id, false);
        }
        let hooks = Hooks {
            policies: Arc::new(stored::ResourcePolicies::from_resources(&resources)),
            confirmer,
            idempotency: Arc::new(stored::StoreIdempotency::new(store.clone())),
            audit: Arc::new(stored::StoreAudit::new(store.clone())),
        };
        let mut deskmate = Self::from_registry(data_dir, registry, hooks);
        deskmate.store = Some(store);
        Ok(deskmate)
    }

    /// A service over an explicit registry (extra tools, tests).
    pub fn from_registry(data_dir: &Path, registry: Registry, hooks: Hooks) -> Self {
        Self {
            data_dir: data_dir.to_path_buf(),
            registry: Arc::new(registry),
            hooks,
            limits: CapLimits::default(),
            store: None,
        }
    }

    /// The database, when the service was opened on a data dir.
    pub fn store(&self) -> Option<&Arc<Store>> {
        self.store.as_ref()
    }

    /// Replaces the result limits.
    #[must_use]
    pub fn with_limits(mut self, limits: CapLimits) -> Self {
        self.limits = limits;
        self
    }

    /// The data dir.
    pub fn data_dir(&self) -> &Path {
        &self.data_dir
    }

    /// Every tool spec, in registration order.
    pub fn specs(&self) -> Vec<ToolSpec> {
        self.registry.specs().cloned().collect()
    }

    /// Runs one call through every guard step. Never panics; every failure is a result.
    pub async fn call(&self, request: CallRequest) -> ToolResult {
        let started = Instant::now();
        let call_id = uuid::Uuid::new_v4().simple().to_string();
        let outcome = self.guarded(&request, &call_id, started).await;
        let mut result = outcome.result;
        // A replayed idempotent result keeps the call id, duration and audit row of the
        // call that ran.
        if outcome.ran {
            result.call_id = call_id;
            result.duration_ms = elapsed_ms(started);
            self.audit(&request, &outcome.tool, &outcome.arguments, &result);
        }
        result
    }

    async fn guarded(&self, request: &CallRequest, call_id: &str, started: Instant) -> Outcome {
        // Steps 1–4.
        let prepared = match self
            .registry
            .guard()
            .prepare(&request.tool, request.arguments.clone())
        {
            Ok(prepared) => prepared,
            Err(rejection) => {
                return Outcome::ran(
                    request.tool.clone(),
                    request.arguments.clone(),
                    rejection.into(),
                );
            }
        };
        let Some(tool) = self.registry.tool(&prepared.tool).cloned() else {
            let error = ToolError::internal("tool has a spec but no executor");
            let result = ToolResult::failure(error).with_repairs(prepared.repairs);
            return Outcome::ran(prepared.tool, prepared.arguments, result);
        };
        // Steps 5 and 6.
        if let Err(error) = self.authorize(tool.as_ref(), &prepared, call_id).await {
            let result = ToolResult::failure(error).with_repairs(prepared.repairs);
            return Outcome::ran(prepared.tool, prepared.arguments, result);
        }
        // Steps 7–9.
        let work = execute(
            tool,
            prepared.clone(),
            call_id.to_string(),
            self.limits,
            started,
        );
        let (result, ran) = match &request.idem_key {
            Some(key) => {
                let fingerprint = format!("{}\n{}", prepared.tool, prepared.arguments);
                match self
                    .hooks
                    .idempotency
                    .run_once(key, &fingerprint, Box::pin(work))
                    .await
                {
                    Ok(pair) => pair,
                    // A key reused for another call: nothing ran, the refusal is this call's.
                    Err(error) => (
                        ToolResult::failure(error).with_repairs(prepared.repairs),
                        true,
                    ),
                }
            }
            None => (work.await, true),
        };
        Outcome {
            tool: prepared.tool,
            arguments: prepared.arguments,
            result,
            ran,
        }
    }

    /// Steps 5 and 6: the tool's plausibility check combined with its policy; a call that
    /// needs a person's yes waits for the confirmer.
    async fn authorize(
        &self,
        tool: &dyn Tool,
        call: &PreparedCall,
        call_id: &str,
    ) -> Result<(), ToolError> {
        let policy = self.hooks.policies.policy(tool.spec());
        let reason = match policy.combine(&tool.check(&call.arguments)) {
            Decision::Allow => return Ok(()),
            Decision::Deny { reason } => {
                return Err(ToolError::new(
                    ErrorType::Denied,
                    format!("the call was refused: {reason}"),
                )
                .with_hint("do not retry this call; tell the user why it was refused"));
            }
            Decision::Ask { reason } => reason,
        };
        let answer = self
            .hooks
            .confirmer
            .confirm(ConfirmRequest {
                call_id: call_id.to_string(),
                tool: call.tool.clone(),
                tool_name: tool.spec().name.en.clone(),
                arguments: mask_secrets(&call.arguments),
                repairs: call.repairs.clone(),
                reason: reason.clone(),
            })
            .await;
        let why = match answer {
            Confirmation::Approved => return Ok(()),
            Confirmation::Denied => "the user declined",
            Confirmation::TimedOut => "nobody confirmed before the timeout",
        };
        Err(
            ToolError::new(ErrorType::Denied, format!("{why} ({reason})"))
                .with_hint("do not retry unless the user asks again"),
        )
    }

    fn audit(&self, request: &CallRequest, tool: &str, arguments: &Value, result: &ToolResult) {
        self.hooks.audit.record(&AuditEvent {
            call_id: result.call_id.clone(),
            at: chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Millis, true),
            tool: tool.to_string(),
            arguments: mask_secrets(&as_object(arguments)),
            repairs: result.repairs.clone(),
            ok: result.ok,
            error_type: result.error_type,
            duration_ms: result.duration_ms,
            idem_key: request.idem_key.clone(),
            conversation_id: request.conversation_id.clone(),
            origin: request.origin.clone(),
        });
    }
}

/// What the pipeline did with one call.
struct Outcome {
    /// The resolved tool id, or the name as asked when it did not resolve.
    tool: String,
    /// The arguments as the tool received them, or as sent when the guard refused them.
    arguments: Value,
    result: ToolResult,
    /// False when an idempotent call replayed a stored result.
    ran: bool,
}

impl Outcome {
    fn ran(tool: String, arguments: Value, result: ToolResult) -> Self {
        Self {
            tool,
            arguments,
            result,
            ran: true,
        }
    }
}

/// Steps 8 and 9: runs the tool on its own task with its timeout and a cancellation
/// token, turns a panic into an `internal` error, and caps the answer. The result is
/// complete (call id, repairs, duration) because an idempotency store keeps it for replays.
async fn execute(
    tool: Arc<dyn Tool>,
    call: PreparedCall,
    call_id: String,
    limits: CapLimits,
    started: Instant,
) -> ToolResult {
    let timeout = Duration::from_millis(tool.spec().timeout_ms);
    let ctx = ToolContext::new(call_id.clone());
    let cancel = ctx.cancel.clone();
    let handle = tokio::spawn(async move { tool.run(call.arguments, ctx).await });
    let abort = handle.abort_handle();
    let outcome = match tokio::time::timeout(timeout, handle).await {
        Ok(Ok(outcome)) => outcome,
        Ok(Err(join)) => {
            tracing::error!(error = %join, "tool task failed");
            Err(ToolError::internal("the tool stopped unexpectedly")
                .with_hint("this is a bug in Deskmate; report it"))
        }
        Err(_) => {
            cancel.cancel();
            abort.abort();
            Err(ToolError::new(
                ErrorType::Timeout,
                format!(
                    "the tool did not finish within {} ms and was cancelled",
                    timeout.as_millis()
                ),
            )
            .with_hint("ask for less (a smaller range or fewer items) or try again later"))
        }
    };
    let mut result = match outcome {
        Ok(data) => capped(data, limits),
        Err(error) => ToolResult::failure(error),
    };
    result.call_id = call_id;
    result.repairs = call.repairs;
    result.duration_ms = elapsed_ms(started);
    result
}

fn elapsed_ms(started: Instant) -> u64 {
    u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX)
}

/// Arguments sent as JSON text are audited as the object they encode, so their secrets
/// are masked too; text that is not JSON is kept only as its length.
fn as_object(arguments: &Value) -> Value {
    match arguments {
        Value::String(text) => serde_json::from_str(text)
            .unwrap_or_else(|_| serde_json::json!({"unparsed_text_chars": text.chars().count()})),
        other => other.clone(),
    }
}

/// Step 9 on a successful answer.
fn capped(data: Value, limits: CapLimits) -> ToolResult {
    let (data, capped) = cap(data, limits);
    let mut result = ToolResult::success(data);
    result.truncated = capped.truncated();
    result.hint = capped.notice();
    result
}
