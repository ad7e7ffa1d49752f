//! The guard's stateful steps as hooks — policy (6), confirmation (6), idempotency (7)
//! and audit (10) — with in-process defaults. Storage-backed versions plug in here.

use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex};

use async_trait::async_trait;
use deskmate_core::{Localized, Policy, Repair, SideEffect, ToolError, ToolResult, ToolSpec};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use tokio::sync::OnceCell;

/// Step 6: the policy of a tool.
pub trait PolicySource: Send + Sync + std::fmt::Debug {
    /// The policy in force for `spec`.
    fn policy(&self, spec: &ToolSpec) -> Policy;
}

/// Policies from side effects only (the defaults by side effect).
#[derive(Debug, Default)]
pub struct DefaultPolicies;

impl PolicySource for DefaultPolicies {
    fn policy(&self, spec: &ToolSpec) -> Policy {
        Policy::default_for(spec.side_effect)
    }
}

/// What a person is asked to confirm.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct ConfirmRequest {
    /// The call.
    pub call_id: String,
    /// The tool id.
    pub tool: String,
    /// The tool's display name, in both languages.
    pub tool_name: Localized,
    /// The arguments as they will run (secrets masked).
    pub arguments: Value,
    /// Repairs the guard made.
    pub repairs: Vec<Repair>,
    /// Why the call needs confirming, in both languages (a person reads it in theirs).
    pub reason: Localized,
    /// What the tool does to the world (an irreversible one is never allowed always
    /// without a second, explicit yes).
    pub side_effect: SideEffect,
    /// The yeses this question takes: always `once`; `conversation` when the call is
    /// part of a conversation; `always` for a single call of a tool.
    pub grants: Vec<Grant>,
}

/// How far a yes reaches.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Grant {
    /// This call only.
    Once,
    /// The tool's calls in this conversation, from now on.
    Conversation,
    /// Every call of the tool, until taken back on the Tools page.
    Always,
}

/// A person's answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Confirmation {
    /// Go ahead, this once.
    Approved,
    /// Go ahead, and with this tool in this conversation from now on.
    ApprovedInConversation,
    /// Go ahead, and with this tool always.
    ApprovedAlways,
    /// Don't.
    Denied,
    /// No answer in time: treated as no.
    TimedOut,
}

impl Confirmation {
    /// Whether the answer is a yes, however far it reaches.
    pub fn approved(&self) -> bool {
        matches!(
            self,
            Self::Approved | Self::ApprovedInConversation | Self::ApprovedAlways
        )
    }

    /// A yes that reaches as far as `grant`.
    pub fn yes(grant: Grant) -> Self {
        match grant {
            Grant::Once => Self::Approved,
            Grant::Conversation => Self::ApprovedInConversation,
            Grant::Always => Self::ApprovedAlways,
        }
    }
}

/// Step 6: asks a person.
#[async_trait]
pub trait Confirmer: Send + Sync + std::fmt::Debug {
    /// Asks and waits for the answer.
    async fn confirm(&self, request: ConfirmRequest) -> Confirmation;
}

/// Nobody to ask (a headless call without a prompt broker): every question is "no".
#[derive(Debug, Default)]
pub struct NoConfirmer;

#[async_trait]
impl Confirmer for NoConfirmer {
    async fn confirm(&self, request: ConfirmRequest) -> Confirmation {
        tracing::info!(tool = %request.tool, reason = %request.reason.en, "confirmation needed but nobody can answer; denied");
        Confirmation::Denied
    }
}

/// The person already confirmed up front (the CLI's `--yes`).
#[derive(Debug, Default)]
pub struct PreApproved;

#[async_trait]
impl Confirmer for PreApproved {
    async fn confirm(&self, request: ConfirmRequest) -> Confirmation {
        tracing::info!(tool = %request.tool, reason = %request.reason.en, "approved in advance by the caller");
        Confirmation::Approved
    }
}

/// Step 7: exactly-once execution per idempotency key.
#[async_trait]
pub trait IdempotencyStore: Send + Sync + std::fmt::Debug {
    /// Runs `work` unless `key` already ran (or is running) with the same `fingerprint`;
    /// then returns that call's result. A key reused for a different call is a
    /// `validation` error. Returns whether this call was the one that ran.
    async fn run_once(
        &self,
        key: &str,
        fingerprint: &str,
        work: BoxedWork,
    ) -> Result<(ToolResult, bool), ToolError>;
}

/// The work an idempotency store runs at most once.
pub type BoxedWork = Pin<Box<dyn Future<Output = ToolResult> + Send>>;

/// In-process cells, one per key: callers of the same key in this process share one
/// execution (the first runs it, the others await its result).
#[derive(Debug, Default)]
pub(crate) struct Slots {
    slots: Mutex<HashMap<String, Slot>>,
}

#[derive(Debug, Clone)]
struct Slot {
    fingerprint: String,
    cell: Arc<OnceCell<ToolResult>>,
}

impl Slots {
    /// The cell of `key`; a key first used with another fingerprint is a conflict.
    fn cell(&self, key: &str, fingerprint: &str) -> Result<Arc<OnceCell<ToolResult>>, ToolError> {
        let slot = {
            let mut slots = self
                .slots
                .lock()
                .map_err(|_| ToolError::internal("idempotency slots poisoned"))?;
            slots
                .entry(key.to_string())
                .or_insert_with(|| Slot {
                    fingerprint: fingerprint.to_string(),
                    cell: Arc::new(OnceCell::new()),
                })
                .clone()
        };
        if slot.fingerprint != fingerprint {
            return Err(key_conflict(key));
        }
        Ok(slot.cell)
    }

    /// The result of the call under `key`: `work`'s, when this caller is the first with
    /// `key` and `work` answers that it ran the call (`true`), else the first caller's.
    pub(crate) async fn run_once(
        &self,
        key: &str,
        fingerprint: &str,
        work: impl Future<Output = Result<(ToolResult, bool), ToolError>>,
    ) -> Result<(ToolResult, bool), ToolError> {
        let cell = self.cell(key, fingerprint)?;
        let mut ran = false;
        let result = cell
            .get_or_try_init(|| async {
                let (result, this_ran) = work.await?;
                ran = this_ran;
                Ok::<_, ToolError>(result)
            })
            .await?
            .clone();
        Ok((result, ran))
    }
}

/// The error for an idempotency key reused for a different call.
pub(crate) fn key_conflict(key: &str) -> ToolError {
    ToolError::validation(format!(
        "idem_key '{key}' was already used for a different call"
    ))
    .with_hint("use a new idem_key for a different tool or different arguments")
}

/// Keys remembered for the life of the process.
#[derive(Debug, Default)]
pub struct MemoryIdempotency {
    slots: Slots,
}

#[async_trait]
impl IdempotencyStore for MemoryIdempotency {
    async fn run_once(
        &self,
        key: &str,
        fingerprint: &str,
        work: BoxedWork,
    ) -> Result<(ToolResult, bool), ToolError> {
        let work = async { Ok((work.await, true)) };
        self.slots.run_once(key, fingerprint, work).await
    }
}

pub use deskmate_store::audit::AuditEvent;

/// Step 10: where audit events go. `record` returns once the event is kept, so a caller
/// that answers after it never acknowledges a call whose audit row could still be lost.
#[async_trait]
pub trait AuditSink: Send + Sync + std::fmt::Debug {
    /// Appends one event.
    async fn record(&self, event: AuditEvent);
}

/// Audit events as structured log lines.
#[derive(Debug, Default)]
pub struct TracingAudit;

#[async_trait]
impl AuditSink for TracingAudit {
    async fn record(&self, event: AuditEvent) {
        tracing::info!(
            target: "deskmate::audit",
            call_id = %event.call_id,
            tool = %event.tool,
            ok = event.ok,
            error_type = ?event.error_type,
            duration_ms = event.duration_ms,
            repairs = event.repairs.len(),
            origin = %event.origin,
            "tool call"
        );
    }
}

/// Audit events kept in memory (tests, and the eval harness).
#[derive(Debug, Default)]
pub struct MemoryAudit {
    events: Mutex<Vec<AuditEvent>>,
}

impl MemoryAudit {
    /// The events so far.
    pub fn events(&self) -> Vec<AuditEvent> {
        self.events.lock().map(|e| e.clone()).unwrap_or_default()
    }
}

#[async_trait]
impl AuditSink for MemoryAudit {
    async fn record(&self, event: AuditEvent) {
        if let Ok(mut events) = self.events.lock() {
            events.push(event);
        }
    }
}

/// The hooks a service runs with.
#[derive(Debug, Clone)]
pub struct Hooks {
    /// Step 6 policies.
    pub policies: Arc<dyn PolicySource>,
    /// Step 6 confirmations.
    pub confirmer: Arc<dyn Confirmer>,
    /// Step 7 idempotency.
    pub idempotency: Arc<dyn IdempotencyStore>,
    /// Step 10 audit.
    pub audit: Arc<dyn AuditSink>,
}

impl Default for Hooks {
    fn default() -> Self {
        Self {
            policies: Arc::new(DefaultPolicies),
            confirmer: Arc::new(NoConfirmer),
            idempotency: Arc::new(MemoryIdempotency::default()),
            audit: Arc::new(TracingAudit),
        }
    }
}
