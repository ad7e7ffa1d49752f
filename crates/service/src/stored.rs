//! The guard's stateful hooks backed by the SQLite store: audit rows, exactly-once keys
//! that hold across processes and restarts, and per-tool policies from tool resources.

use std::collections::HashMap;
use std::sync::{Arc, RwLock};
use std::time::{Duration, Instant};

use async_trait::async_trait;
use deskmate_core::{Policy, SideEffect, ToolDisplay, ToolError, ToolResult, ToolSpec};
use deskmate_store::Store;
use deskmate_store::idempotency::Claim;
use deskmate_store::resources::ToolResource;

use crate::hooks::{
    AuditEvent, AuditSink, BoxedWork, IdempotencyStore, PolicySource, Slots, key_conflict,
};

/// Audit events as rows of `audit_events`, written by one thread with group commit:
/// events that arrive while a commit is under way go into the next transaction together,
/// and each caller resumes once its row is committed.
#[derive(Debug)]
pub struct StoreAudit {
    /// `None` only while dropping.
    queue: Option<std::sync::mpsc::Sender<(AuditEvent, tokio::sync::oneshot::Sender<()>)>>,
    writer: Option<std::thread::JoinHandle<()>>,
}

impl Drop for StoreAudit {
    /// Closes the queue and waits for the writer to commit what is queued and let go of
    /// the store, so the database is closed when the service is (its folder may be
    /// removed right after).
    fn drop(&mut self) {
        drop(self.queue.take());
        if let Some(writer) = self.writer.take() {
            let _ = writer.join();
        }
    }
}

/// Most events committed in one transaction.
const MAX_BATCH: usize = 512;

impl StoreAudit {
    /// Audits into `store`; starts the writer thread, which ends when this is dropped.
    pub fn new(store: Arc<Store>) -> Self {
        let (queue, incoming) =
            std::sync::mpsc::channel::<(AuditEvent, tokio::sync::oneshot::Sender<()>)>();
        let spawned = std::thread::Builder::new().name("deskmate-audit".into()).spawn(move || {
            while let Ok(first) = incoming.recv() {
                let mut batch = vec![first];
                while batch.len() < MAX_BATCH {
                    match incoming.try_recv() {
                        Ok(next) => batch.push(next),
                        Err(_) => break,
                    }
                }
                let (events, waiters): (Vec<AuditEvent>, Vec<_>) = batch.into_iter().unzip();
                if let Err(error) = store.append_audit_batch(&events) {
                    // One bad event must not take the others with it: retry them one by one.
                    tracing::warn!(%error, events = events.len(), "audit batch failed; writing events one by one");
                    for event in &events {
                        if let Err(error) = store.append_audit(event) {
                            tracing::error!(call_id = %event.call_id, tool = %event.tool, %error, "audit event not written");
                        }
                    }
                }
                for waiter in waiters {
                    let _ = waiter.send(());
                }
            }
        });
        let writer = spawned
            .map_err(|error| {
                tracing::error!(%error, "cannot start the audit writer; calls will not be audited");
            })
            .ok();
        Self {
            queue: Some(queue),
            writer,
        }
    }
}

#[async_trait]
impl AuditSink for StoreAudit {
    async fn record(&self, event: AuditEvent) {
        let (done, committed) = tokio::sync::oneshot::channel();
        let call_id = event.call_id.clone();
        let sent = self
            .queue
            .as_ref()
            .is_some_and(|queue| queue.send((event, done)).is_ok());
        if !sent {
            tracing::error!(%call_id, "the audit writer is gone; event not written");
            return;
        }
        let _ = committed.await;
    }
}

/// Exactly-once keys: concurrent callers in this process share one execution through an
/// in-memory cell, and the claim in SQLite makes it hold across processes and restarts.
#[derive(Debug)]
pub struct StoreIdempotency {
    store: Arc<Store>,
    slots: Slots,
    /// How long to wait for another process's execution of the same key.
    wait: Duration,
}

/// A claim whose owner has not finished after this long is taken over (its process died;
/// tool timeouts are at most two minutes).
const STALE_CLAIM_SECS: u64 = 300;
const POLL: Duration = Duration::from_millis(50);

impl StoreIdempotency {
    /// Keys kept in `store`.
    pub fn new(store: Arc<Store>) -> Self {
        Self {
            store,
            slots: Slots::default(),
            wait: Duration::from_secs(150),
        }
    }

    /// Runs `work` if this caller wins the claim, else waits for the stored result.
    async fn claim_and_run(
        &self,
        key: &str,
        fingerprint: &str,
        work: BoxedWork,
    ) -> Result<(ToolResult, bool), ToolError> {
        let started = Instant::now();
        loop {
            let claim = self
                .store
                .claim(key, fingerprint, STALE_CLAIM_SECS)
                .map_err(store_error)?;
            match claim {
                Claim::Claimed => {
                    let result = work.await;
                    let stored = serde_json::to_value(&result)
                        .map_err(|e| ToolError::internal(e.to_string()))?;
                    if let Err(error) = self.store.finish_claim(key, &stored) {
                        tracing::error!(%key, %error, "idempotent result not stored");
                    }
                    return Ok((result, true));
                }
                Claim::Finished(stored) => {
                    let result = serde_json::from_value(stored).map_err(|e| {
                        ToolError::internal(format!(
                            "stored result of idem_key '{key}' is unreadable: {e}"
                        ))
                    })?;
                    return Ok((result, false));
                }
                Claim::Conflict => return Err(key_conflict(key)),
                Claim::Pending if started.elapsed() < self.wait => tokio::time::sleep(POLL).await,
                Claim::Pending => {
                    return Err(ToolError::transient(format!(
                        "a call with idem_key '{key}' is still running elsewhere"
                    ))
                    .with_hint("try again later with the same idem_key to get its result"));
                }
            }
        }
    }
}

fn store_error(error: deskmate_store::Error) -> ToolError {
    tracing::error!(%error, "store error");
    ToolError::internal("the local database failed; the call was not run")
        .with_hint("try again; if it persists, check the data dir")
}

#[async_trait]
impl IdempotencyStore for StoreIdempotency {
    async fn run_once(
        &self,
        key: &str,
        fingerprint: &str,
        work: BoxedWork,
    ) -> Result<(ToolResult, bool), ToolError> {
        let work = self.claim_and_run(key, fingerprint, work);
        self.slots.run_once(key, fingerprint, work).await
    }
}

/// Policies from tool resources (`policy` column), else the default for the side effect.
#[derive(Debug, Default)]
pub struct ResourcePolicies {
    policies: RwLock<HashMap<String, Policy>>,
}

impl ResourcePolicies {
    /// Policies as set on `resources`.
    pub fn from_resources(resources: &[ToolResource]) -> Self {
        let this = Self::default();
        this.replace_all(resources);
        this
    }

    /// Replaces every policy with those set on `resources`.
    pub fn replace_all(&self, resources: &[ToolResource]) {
        let policies: HashMap<String, Policy> = resources
            .iter()
            .filter_map(|r| Some((r.id.clone(), policy_of(r)?)))
            .collect();
        if let Ok(mut current) = self.policies.write() {
            *current = policies;
        }
    }

    /// Sets (or clears) the policy of one resource.
    pub fn update(&self, resource: &ToolResource) {
        if let Ok(mut current) = self.policies.write() {
            match policy_of(resource) {
                Some(policy) => current.insert(resource.id.clone(), policy),
                None => current.remove(&resource.id),
            };
        }
    }

    /// Forgets a deleted resource's policy.
    pub fn remove(&self, id: &str) {
        if let Ok(mut current) = self.policies.write() {
            current.remove(id);
        }
    }
}

/// The policy a resource sets, if any.
fn policy_of(resource: &ToolResource) -> Option<Policy> {
    match resource.policy.as_deref()? {
        "always" => Some(Policy::Always),
        "ask" => Some(Policy::Ask),
        "never" => Some(Policy::Never),
        _ => None,
    }
}

impl PolicySource for ResourcePolicies {
    fn policy(&self, spec: &ToolSpec) -> Policy {
        self.policies
            .read()
            .ok()
            .and_then(|p| p.get(&spec.id).copied())
            .unwrap_or_else(|| default_policy(spec))
    }
}

/// The policy of a tool nobody set one for: by its side effect, except that a tool
/// imported from an MCP server asks first unless it declares itself read-only (its
/// contract is the server's word, not Deskmate's).
fn default_policy(spec: &ToolSpec) -> Policy {
    if deskmate_core::spec::is_valid_imported_tool_id(&spec.id)
        && spec.side_effect != SideEffect::Read
    {
        Policy::Ask
    } else {
        Policy::default_for(spec.side_effect)
    }
}

/// The resource row of a built-in tool.
pub fn system_resource(spec: &ToolSpec) -> ToolResource {
    ToolResource {
        id: spec.id.clone(),
        user_id: 1,
        name: spec.name.zh.clone(),
        description: spec.description.clone(),
        category: serde_json::to_value(spec.category)
            .ok()
            .and_then(|v| v.as_str().map(str::to_string))
            .unwrap_or_else(|| "query".into()),
        icon: None,
        http_method: "GET".into(),
        http_url: None,
        http_headers: serde_json::json!({}),
        http_timeout_ms: i64::try_from(spec.timeout_ms)
            .unwrap_or(120_000)
            .clamp(100, 120_000),
        parameter_schema: spec.parameters_for_people(),
        parameter_defaults: serde_json::json!({}),
        wait_for_response: false,
        enabled: true,
        is_system: true,
        side_effect: serde_json::to_value(spec.side_effect)
            .ok()
            .and_then(|v| v.as_str().map(str::to_string))
            .unwrap_or_else(|| "read".into()),
        policy: None,
        display: spec.summary.as_ref().map(|summary| ToolDisplay {
            name: spec.name.clone(),
            description: summary.clone(),
        }),
        created_at: String::new(),
        updated_at: String::new(),
    }
}
