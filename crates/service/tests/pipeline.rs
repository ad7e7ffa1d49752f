//! The stateful guard steps of `Deskmate::call`: plausibility, policy and confirmation,
//! idempotency under concurrency, timeouts, panic isolation, and one audit event per call.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use async_trait::async_trait;
use deskmate_core::{Category, Decision, ErrorType, Localized, SideEffect, ToolError, ToolSpec};
use deskmate_service::hooks::{Hooks, MemoryAudit, PreApproved};
use deskmate_service::{CallRequest, Deskmate};
use deskmate_tools::{Registry, Tool, ToolContext};
use serde_json::{Value, json};

#[derive(Debug)]
struct Probe {
    spec: ToolSpec,
    runs: Arc<AtomicUsize>,
    behaviour: Behaviour,
}

#[derive(Debug, Clone, Copy)]
enum Behaviour {
    Echo,
    Sleep,
    Panic,
}

fn probe(
    id: &str,
    side_effect: SideEffect,
    behaviour: Behaviour,
    runs: Arc<AtomicUsize>,
) -> Arc<dyn Tool> {
    Arc::new(Probe {
        spec: ToolSpec {
            id: id.into(),
            name: Localized::new("探针", "Probe"),
            summary: None,
            description: "A test tool that records how often it ran.".into(),
            category: Category::System,
            parameters: json!({"type": "object", "additionalProperties": false,
                "properties": {"step": {"type": "integer", "minimum": 1, "maximum": 50, "description": "step"},
                               "api_key": {"type": "string", "description": "a secret"}}}),
            side_effect,
            idempotent: false,
            timeout_ms: 200,
            compensation: None,
        },
        runs,
        behaviour,
    })
}

#[async_trait]
impl Tool for Probe {
    fn spec(&self) -> &ToolSpec {
        &self.spec
    }

    fn check(&self, args: &Value) -> Decision {
        match args["step"].as_i64() {
            Some(step) if step > 40 => Decision::Deny {
                reason: format!("a step of {step} is implausible"),
            },
            Some(step) if step > 20 => Decision::Ask {
                reason: deskmate_core::Localized::new(
                    format!("步长 {step} 太大了"),
                    format!("a step of {step} is unusually large"),
                ),
            },
            _ => Decision::Allow,
        }
    }

    async fn run(&self, args: Value, _ctx: ToolContext) -> Result<Value, ToolError> {
        self.runs.fetch_add(1, Ordering::SeqCst);
        match self.behaviour {
            Behaviour::Echo => {
                tokio::time::sleep(Duration::from_millis(20)).await;
                Ok(args)
            }
            Behaviour::Sleep => {
                tokio::time::sleep(Duration::from_secs(30)).await;
                Ok(Value::Null)
            }
            Behaviour::Panic => panic!("probe panicked on purpose"),
        }
    }
}

struct Fixture {
    _dir: tempfile::TempDir,
    deskmate: Arc<Deskmate>,
    audit: Arc<MemoryAudit>,
    runs: Arc<AtomicUsize>,
}

fn fixture(pre_approved: bool) -> Fixture {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let runs = Arc::new(AtomicUsize::new(0));
    let registry = Registry::new(vec![
        probe("echo", SideEffect::Write, Behaviour::Echo, runs.clone()),
        probe(
            "risky",
            SideEffect::Irreversible,
            Behaviour::Echo,
            runs.clone(),
        ),
        probe("slow", SideEffect::Read, Behaviour::Sleep, runs.clone()),
        probe("crashy", SideEffect::Read, Behaviour::Panic, runs.clone()),
    ])
    .unwrap_or_else(|e| panic!("{e}"));
    let audit = Arc::new(MemoryAudit::default());
    let mut hooks = Hooks {
        audit: audit.clone(),
        ..Hooks::default()
    };
    if pre_approved {
        hooks.confirmer = Arc::new(PreApproved);
    }
    Fixture {
        deskmate: Arc::new(Deskmate::from_registry(dir.path(), registry, hooks)),
        _dir: dir,
        audit,
        runs,
    }
}

#[tokio::test]
async fn plausibility_asks_or_denies_and_nobody_to_ask_means_no() {
    let f = fixture(false);
    let ok = f
        .deskmate
        .call(CallRequest::new("echo", json!({"step": 10})))
        .await;
    assert!(ok.ok);
    let asked = f
        .deskmate
        .call(CallRequest::new("echo", json!({"step": 30})))
        .await;
    assert_eq!(asked.error_type, Some(ErrorType::Denied));
    let denied = f
        .deskmate
        .call(CallRequest::new("echo", json!({"step": 45})))
        .await;
    assert_eq!(denied.error_type, Some(ErrorType::Denied));
    assert!(denied.error.unwrap_or_default().contains("implausible"));
    let irreversible = f.deskmate.call(CallRequest::new("risky", json!({}))).await;
    assert_eq!(
        irreversible.error_type,
        Some(ErrorType::Denied),
        "irreversible tools ask by default"
    );
    assert_eq!(
        f.runs.load(Ordering::SeqCst),
        1,
        "only the plausible call ran"
    );
    assert_eq!(
        f.audit.events().len(),
        4,
        "every call is audited, refused ones too"
    );
}

#[tokio::test]
async fn a_confirmed_call_runs_but_a_deny_stays_a_deny() {
    let f = fixture(true);
    assert!(
        f.deskmate
            .call(CallRequest::new("echo", json!({"step": 30})))
            .await
            .ok
    );
    assert!(
        f.deskmate
            .call(CallRequest::new("risky", json!({})))
            .await
            .ok
    );
    let denied = f
        .deskmate
        .call(CallRequest::new("echo", json!({"step": 45})))
        .await;
    assert_eq!(denied.error_type, Some(ErrorType::Denied));
    assert_eq!(f.runs.load(Ordering::SeqCst), 2);
}

#[tokio::test]
async fn idempotent_calls_run_exactly_once_under_concurrency() {
    let f = fixture(false);
    let mut tasks = Vec::new();
    for _ in 0..16 {
        let deskmate = f.deskmate.clone();
        tasks.push(tokio::spawn(async move {
            let mut request = CallRequest::new("echo", json!({"step": 5}));
            request.idem_key = Some("k-1".into());
            deskmate.call(request).await
        }));
    }
    let mut call_ids = Vec::new();
    for task in tasks {
        let result = task.await.unwrap_or_else(|e| panic!("{e}"));
        assert!(result.ok, "{result:?}");
        call_ids.push(result.call_id);
    }
    assert_eq!(f.runs.load(Ordering::SeqCst), 1);
    assert_eq!(f.audit.events().len(), 1);
    call_ids.dedup();
    assert_eq!(
        call_ids.len(),
        1,
        "every caller gets the stored result of the one execution"
    );

    let mut reuse = CallRequest::new("echo", json!({"step": 6}));
    reuse.idem_key = Some("k-1".into());
    let conflict = f.deskmate.call(reuse).await;
    assert_eq!(conflict.error_type, Some(ErrorType::Validation));
    assert_eq!(f.runs.load(Ordering::SeqCst), 1);

    // The same arguments with their keys in another order are the same call: replayed.
    let mut first = CallRequest::new("echo", json!({"step": 7, "api_key": "k"}));
    first.idem_key = Some("k-2".into());
    let ran = f.deskmate.call(first).await;
    let mut again = CallRequest::new("echo", json!({"api_key": "k", "step": 7}));
    again.idem_key = Some("k-2".into());
    let replayed = f.deskmate.call(again).await;
    assert!(ran.ok && replayed.ok, "{ran:?} {replayed:?}");
    assert_eq!(
        replayed.call_id, ran.call_id,
        "the stored result is answered"
    );
    assert_eq!(f.runs.load(Ordering::SeqCst), 2);
}

#[tokio::test]
async fn slow_tools_time_out_and_panics_become_internal_errors() {
    let f = fixture(false);
    let slow = f.deskmate.call(CallRequest::new("slow", json!({}))).await;
    assert_eq!(slow.error_type, Some(ErrorType::Timeout));
    assert!(slow.duration_ms < 5_000, "{}", slow.duration_ms);
    let crashy = f.deskmate.call(CallRequest::new("crashy", json!({}))).await;
    assert_eq!(crashy.error_type, Some(ErrorType::Internal));
    assert!(!crashy.ok);
}

#[tokio::test]
async fn audit_masks_secrets_and_records_repairs() {
    let f = fixture(false);
    let result = f
        .deskmate
        .call(CallRequest::new(
            "Echo",
            json!("{\"step\": \"7\", \"api_key\": \"sk-live-123\"}"),
        ))
        .await;
    assert!(result.ok, "{result:?}");
    let events = f.audit.events();
    assert_eq!(events.len(), 1);
    assert_eq!(events[0].tool, "echo");
    assert_eq!(events[0].arguments["api_key"], "••••");
    assert_eq!(events[0].repairs.len(), 1);
    let text = serde_json::to_string(&events).unwrap_or_default();
    assert!(!text.contains("sk-live-123"));

    // Rejected calls sent as JSON text are masked too.
    let _ = f
        .deskmate
        .call(CallRequest::new(
            "echo",
            json!("{\"step\": 0, \"api_key\": \"sk-live-456\"}"),
        ))
        .await;
    let text = serde_json::to_string(&f.audit.events()).unwrap_or_default();
    assert!(!text.contains("sk-live-456"));
}
