//! The call pipeline: a front end's request through every guard step — the name, the
//! arguments, the idempotency key, the tool's check and policy (a person asked when it
//! says so), the run under a timeout and the caller's cancel, the result capped — and the
//! audit row of what ran. Never panics; every failure is a result.

use std::sync::Arc;
use std::time::{Duration, Instant};

use deskmate_core::mask::mask_secrets;
use deskmate_core::{
    CapLimits, Decision, ErrorType, PreparedCall, Repair, ToolError, ToolResult, cap,
};
use deskmate_tools::{Before, Tool, ToolContext};
use serde_json::Value;
use tokio_util::sync::CancellationToken;

use crate::hooks::{AuditEvent, ConfirmRequest, Confirmation};
use crate::{Deskmate, approvals, hooks};

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
    /// The turn of that conversation (a model's calls); with the conversation it is the
    /// scope a tool derives keys from.
    pub turn_id: Option<String>,
    /// What of the conversation lies before the call's turn (a turn on another branch
    /// reads that branch's history).
    pub before: Before,
    /// Which front end asks (`cli`, `api`, `llm`, `gui`, `mcp`).
    pub origin: String,
    /// The program behind the front end, as it named itself (an MCP client's name).
    pub client: Option<String>,
    /// Repairs made before the guard (a call extracted from a model's text); they come
    /// first in the result's `repairs`.
    pub repairs: Vec<Repair>,
    /// The person already confirmed this call (one confirmation for a batch of a model's
    /// calls): a policy that asks is satisfied; one that refuses still refuses.
    pub confirmed: bool,
    /// Cancelled by the caller (an MCP client's `notifications/cancelled`): the tool is
    /// told to stop and the call ends as cancelled.
    pub cancel: Option<CancellationToken>,
}

impl CallRequest {
    /// A call from the CLI with no key and no conversation.
    pub fn new(tool: impl Into<String>, arguments: Value) -> Self {
        Self {
            tool: tool.into(),
            arguments,
            idem_key: None,
            conversation_id: None,
            turn_id: None,
            before: Before::Head,
            origin: "cli".into(),
            client: None,
            repairs: Vec::new(),
            confirmed: false,
            cancel: None,
        }
    }
}

impl Deskmate {
    /// Steps 1–5 and the policy, without running anything: the reason the call would
    /// ask the person first (in English, for a client's own dialog), or `None` when it would not ask (it runs, or it fails
    /// validation or is refused, which the call itself then reports).
    pub fn confirmation_needed(&self, tool: &str, arguments: &Value) -> Option<String> {
        let registry = self.registry();
        let prepared = registry.guard().prepare(tool, arguments.clone()).ok()?;
        let tool = registry.tool(&prepared.tool)?;
        match self.decide(tool.as_ref(), &prepared.arguments) {
            Decision::Ask { .. } if self.approved_before(tool.spec(), None) => None,
            Decision::Ask { reason } => Some(reason.en),
            Decision::Allow | Decision::Deny { .. } => None,
        }
    }

    /// Runs one call through every guard step. Never panics; every failure is a result.
    pub async fn call(&self, request: CallRequest) -> ToolResult {
        let started = Instant::now();
        let call_id = uuid::Uuid::new_v4().simple().to_string();
        let outcome = self.guarded(&request, &call_id, started).await;
        let mut result = outcome.result;
        if !request.repairs.is_empty() {
            result.repairs.splice(0..0, request.repairs.iter().cloned());
        }
        // A replayed idempotent result keeps the call id, duration and audit row of the
        // call that ran.
        if outcome.ran {
            result.call_id = call_id;
            result.duration_ms = elapsed_ms(started);
            self.audit(&request, &outcome.tool, &outcome.arguments, &result)
                .await;
        }
        result
    }

    async fn guarded(&self, request: &CallRequest, call_id: &str, started: Instant) -> Outcome {
        // Steps 1–4, on the registry as it is when the call starts.
        let registry = self.registry();
        let prepared = match registry
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
        let Some(tool) = registry.tool(&prepared.tool).cloned() else {
            let error = ToolError::internal("tool has a spec but no executor");
            let result = ToolResult::failure(error).with_repairs(prepared.repairs);
            return Outcome::ran(prepared.tool, prepared.arguments, result);
        };
        // Steps 5 and 6.
        if let Err(error) = self
            .authorize(
                tool.as_ref(),
                &prepared,
                call_id,
                (request.confirmed, request.conversation_id.as_deref()),
            )
            .await
        {
            let result = ToolResult::failure(error).with_repairs(prepared.repairs);
            return Outcome::ran(prepared.tool, prepared.arguments, result);
        }
        // Steps 7–9.
        let scope = request
            .conversation_id
            .as_ref()
            .zip(request.turn_id.as_ref())
            .map(|(conversation, turn)| format!("{conversation}/{turn}"));
        let work = execute(
            tool,
            prepared.clone(),
            (call_id.to_string(), scope, request.cancel.clone()),
            (
                request.origin.clone(),
                request.conversation_id.clone(),
                request.before,
            ),
            self.limits,
            started,
        );
        let (result, ran) = match &request.idem_key {
            Some(key) => {
                // The same call whatever order its arguments' keys came in.
                let fingerprint = format!(
                    "{}\n{}",
                    prepared.tool,
                    deskmate_core::canonical_json(&prepared.arguments)
                );
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

    /// Asks the person once for a batch of calls; true when approved.
    pub async fn confirm_batch(&self, request: hooks::ConfirmRequest) -> bool {
        self.hooks.confirmer.confirm(request).await.approved()
    }

    /// Steps 5 and 6 decided: the tool's plausibility check combined with its policy.
    fn decide(&self, tool: &dyn Tool, arguments: &Value) -> Decision {
        self.hooks
            .policies
            .policy(tool.spec())
            .combine(&tool.check(arguments))
    }

    /// Steps 5 and 6: the tool's plausibility check combined with its policy; a call that
    /// needs a person's yes waits for the confirmer.
    async fn authorize(
        &self,
        tool: &dyn Tool,
        call: &PreparedCall,
        call_id: &str,
        (confirmed, conversation_id): (bool, Option<&str>),
    ) -> Result<(), ToolError> {
        let reason = match self.decide(tool, &call.arguments) {
            Decision::Allow => return Ok(()),
            Decision::Deny { reason } => {
                return Err(ToolError::new(
                    ErrorType::Denied,
                    format!("the call was refused: {reason}"),
                )
                .with_hint("do not retry this call; tell the user why it was refused"));
            }
            Decision::Ask { .. } if confirmed => return Ok(()),
            // A yes given before for this tool (always, or in this conversation).
            Decision::Ask { .. } if self.approved_before(tool.spec(), conversation_id) => {
                return Ok(());
            }
            Decision::Ask { reason } => reason,
        };
        let answer = self
            .hooks
            .confirmer
            .confirm(ConfirmRequest {
                call_id: call_id.to_string(),
                tool: call.tool.clone(),
                tool_name: tool.spec().name.clone(),
                arguments: mask_secrets(&call.arguments),
                repairs: call.repairs.clone(),
                reason: reason.clone(),
                side_effect: tool.spec().side_effect,
                grants: approvals::grants_for(conversation_id),
            })
            .await;
        let why = match answer {
            Confirmation::Approved
            | Confirmation::ApprovedInConversation
            | Confirmation::ApprovedAlways => {
                self.remember_approval(tool.spec(), &answer, conversation_id);
                return Ok(());
            }
            Confirmation::Denied => "the user declined",
            Confirmation::TimedOut => "nobody confirmed before the timeout",
        };
        Err(
            ToolError::new(ErrorType::Denied, format!("{why} ({})", reason.en))
                .with_hint("do not retry unless the user asks again"),
        )
    }

    async fn audit(
        &self,
        request: &CallRequest,
        tool: &str,
        arguments: &Value,
        result: &ToolResult,
    ) {
        self.hooks
            .audit
            .record(AuditEvent {
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
                client: request.client.clone(),
                error: result.error.clone(),
                hint: result.hint.clone(),
                result: result.ok.then(|| audited_result(&result.data)),
            })
            .await;
    }
}

/// Most characters of a result the audit log keeps.
const AUDIT_RESULT_MAX: usize = 2_000;

/// A result as the audit log keeps it: secrets masked, and a long one as the start of its
/// JSON text (`{"truncated": true, "preview": …}`) so one call cannot swell the log.
fn audited_result(data: &Value) -> Value {
    let masked = mask_secrets(data);
    let text = masked.to_string();
    if text.chars().count() <= AUDIT_RESULT_MAX {
        return masked;
    }
    serde_json::json!({
        "truncated": true,
        "preview": text.chars().take(AUDIT_RESULT_MAX).collect::<String>(),
    })
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
    (call_id, scope, caller): (String, Option<String>, Option<CancellationToken>),
    (origin, conversation_id, before): (String, Option<String>, Before),
    limits: CapLimits,
    started: Instant,
) -> ToolResult {
    let timeout = Duration::from_millis(tool.spec().timeout_ms);
    let ctx = ToolContext::new(call_id.clone())
        .in_scope(scope)
        .asked_by(&origin, conversation_id)
        .after(before);
    let cancel = ctx.cancel.clone();
    let handle = tokio::spawn(async move { tool.run(call.arguments, ctx).await });
    let abort = handle.abort_handle();
    let caller = caller.unwrap_or_default();
    let finished = tokio::select! {
        finished = tokio::time::timeout(timeout, handle) => finished,
        () = caller.cancelled() => {
            cancel.cancel();
            abort.abort();
            Ok(Ok(Err(ToolError::new(
                ErrorType::Transient,
                "the caller cancelled the call before it finished",
            )
            .with_hint("the tool was told to stop; its effect may be partial"))))
        }
    };
    let outcome = match finished {
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
