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

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use deskmate_core::mask::mask_secrets;
use deskmate_core::{CapLimits, Decision, ErrorType, ToolError, ToolResult, ToolSpec, cap};
use deskmate_tools::{Registry, ToolConfig, ToolContext};
use serde_json::Value;

pub use error::Error;
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
}

impl Deskmate {
    /// Opens the service on a data dir (created if missing, with its `datasets` folder),
    /// with the default hooks.
    pub fn open(data_dir: &Path) -> Result<Self, Error> {
        Self::open_with(data_dir, Hooks::default())
    }

    /// Opens the service with the given hooks.
    pub fn open_with(data_dir: &Path, hooks: Hooks) -> Result<Self, Error> {
        let config = ToolConfig::for_data_dir(data_dir);
        std::fs::create_dir_all(&config.datasets_dir).map_err(|source| Error::DataDir {
            path: config.datasets_dir.clone(),
            source,
        })?;
        Ok(Self::from_registry(
            data_dir,
            Registry::builtin(&config)?,
            hooks,
        ))
    }

    /// A service over an explicit registry (extra tools, tests).
    pub fn from_registry(data_dir: &Path, registry: Registry, hooks: Hooks) -> Self {
        Self {
            data_dir: data_dir.to_path_buf(),
            registry: Arc::new(registry),
            hooks,
            limits: CapLimits::default(),
        }
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
        let (tool, arguments, mut result, ran) = self.guarded(&request, &call_id).await;
        // A replayed idempotent result keeps its own call id, duration and audit row.
        if ran {
            result.call_id = call_id;
            result.duration_ms = u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX);
            self.audit(&request, &tool, &arguments, &result);
        }
        result
    }

    async fn guarded(
        &self,
        request: &CallRequest,
        call_id: &str,
    ) -> (String, Value, ToolResult, bool) {
        // Steps 1–4.
        let prepared = match self
            .registry
            .guard()
            .prepare(&request.tool, request.arguments.clone())
        {
            Ok(prepared) => prepared,
            Err(rejection) => {
                return (
                    request.tool.clone(),
                    request.arguments.clone(),
                    rejection.into(),
                    true,
                );
            }
        };
        let tool_id = prepared.tool.clone();
        let args = prepared.arguments.clone();
        let repairs = prepared.repairs.clone();
        let fail = |error: ToolError| ToolResult::failure(error).with_repairs(repairs.clone());
        let Some(tool) = self.registry.tool(&tool_id).cloned() else {
            return (
                tool_id.clone(),
                args,
                fail(ToolError::internal("tool has a spec but no executor")),
                true,
            );
        };
        // Steps 5 and 6.
        let policy = self.hooks.policies.policy(tool.spec());
        match policy.combine(&tool.check(&args)) {
            Decision::Allow => {}
            Decision::Deny { reason } => {
                let error =
                    ToolError::new(ErrorType::Denied, format!("the call was refused: {reason}"))
                        .with_hint("do not retry this call; tell the user why it was refused");
                return (tool_id, args, fail(error), true);
            }
            Decision::Ask { reason } => {
                let answer = self
                    .hooks
                    .confirmer
                    .confirm(ConfirmRequest {
                        call_id: call_id.to_string(),
                        tool: tool_id.clone(),
                        tool_name: tool.spec().name.en.clone(),
                        arguments: mask_secrets(&args),
                        repairs: repairs.clone(),
                        reason: reason.clone(),
                    })
                    .await;
                let refused = match answer {
                    Confirmation::Approved => None,
                    Confirmation::Denied => Some("the user declined"),
                    Confirmation::TimedOut => Some("nobody confirmed before the timeout"),
                };
                if let Some(why) = refused {
                    let error = ToolError::new(ErrorType::Denied, format!("{why} ({reason})"))
                        .with_hint("do not retry unless the user asks again");
                    return (tool_id, args, fail(error), true);
                }
            }
        }
        // Steps 7–9.
        let timeout = Duration::from_millis(tool.spec().timeout_ms);
        let limits = self.limits;
        let run_args = args.clone();
        let run_id = call_id.to_string();
        let ctx_call_id = run_id.clone();
        let work_repairs = repairs.clone();
        let work = async move {
            let ctx = ToolContext::new(run_id);
            let cancel = ctx.cancel.clone();
            let handle = tokio::spawn({
                let tool = tool.clone();
                async move { tool.run(run_args, ctx).await }
            });
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
            // The stored result of an idempotent call is complete: replays return it as is.
            result.call_id = ctx_call_id;
            result.repairs = work_repairs;
            result
        };
        let (mut result, ran) = match &request.idem_key {
            Some(key) => {
                let fingerprint = format!("{tool_id}\n{args}");
                match self
                    .hooks
                    .idempotency
                    .run_once(key, &fingerprint, Box::pin(work))
                    .await
                {
                    Ok(pair) => pair,
                    Err(error) => (ToolResult::failure(error), true),
                }
            }
            None => (work.await, true),
        };
        if ran && result.call_id.is_empty() {
            // An idempotency conflict: nothing ran, but the refusal is this call's own.
            result.repairs = repairs;
        }
        (tool_id, args, result, ran)
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
