//! The service over its SQLite store: audit rows, exactly-once keys across processes and
//! restarts, and the user's enabled flags and policies from tool resources.

mod common;

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use async_trait::async_trait;
use deskmate_core::{Category, ErrorType, Localized, SideEffect, ToolError, ToolSpec};
use deskmate_service::hooks::{DefaultPolicies, Hooks, NoConfirmer};
use deskmate_service::stored::{StoreAudit, StoreIdempotency};
use deskmate_service::{CallRequest, Deskmate};
use deskmate_store::Store;
use deskmate_store::audit::AuditFilter;
use deskmate_tools::{Registry, Tool, ToolContext};
use serde_json::{Value, json};

#[derive(Debug)]
struct Counter {
    spec: ToolSpec,
    runs: Arc<AtomicUsize>,
}

#[async_trait]
impl Tool for Counter {
    fn spec(&self) -> &ToolSpec {
        &self.spec
    }

    async fn run(&self, _args: Value, _ctx: ToolContext) -> Result<Value, ToolError> {
        let n = self.runs.fetch_add(1, Ordering::SeqCst) + 1;
        tokio::time::sleep(Duration::from_millis(50)).await;
        Ok(json!({"run": n}))
    }
}

/// A service on its own connection to `db`, as another process would have.
fn process(dir: &std::path::Path, runs: &Arc<AtomicUsize>) -> (Deskmate, Arc<Store>) {
    let store = Arc::new(Store::open(&dir.join("deskmate.db")).unwrap_or_else(|e| panic!("{e}")));
    let counter = Counter {
        spec: ToolSpec {
            id: "charge_card".into(),
            name: Localized::new("扣款", "Charge card"),
            summary: None,
            description: "A test tool that counts its executions.".into(),
            category: Category::Query,
            parameters: json!({"type": "object", "additionalProperties": false, "properties": {}}),
            side_effect: SideEffect::Write,
            idempotent: false,
            timeout_ms: 5_000,
            compensation: None,
        },
        runs: runs.clone(),
    };
    let registry = Registry::new(vec![Arc::new(counter)]).unwrap_or_else(|e| panic!("{e}"));
    let hooks = Hooks {
        policies: Arc::new(DefaultPolicies),
        confirmer: Arc::new(NoConfirmer),
        idempotency: Arc::new(StoreIdempotency::new(store.clone())),
        audit: Arc::new(StoreAudit::new(store.clone())),
    };
    (Deskmate::from_registry(dir, registry, hooks), store)
}

fn keyed(key: &str) -> CallRequest {
    let mut request = CallRequest::new("charge_card", json!({}));
    request.idem_key = Some(key.into());
    request.origin = "api".into();
    request
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn one_key_runs_once_across_processes_and_restarts() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let runs = Arc::new(AtomicUsize::new(0));
    let (a, store) = process(dir.path(), &runs);
    let (b, _) = process(dir.path(), &runs);
    let (a, b) = (Arc::new(a), Arc::new(b));
    let mut tasks = Vec::new();
    for i in 0..100 {
        let service = if i % 2 == 0 { a.clone() } else { b.clone() };
        tasks.push(tokio::spawn(
            async move { service.call(keyed("pay-1")).await },
        ));
    }
    for task in tasks {
        let result = task.await.unwrap_or_else(|e| panic!("{e}"));
        assert!(result.ok, "{result:?}");
        assert_eq!(result.data, json!({"run": 1}));
    }
    assert_eq!(runs.load(Ordering::SeqCst), 1, "one execution");
    let (total, rows) = store
        .list_audit(&AuditFilter {
            limit: 10,
            ..AuditFilter::default()
        })
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(total, 1, "one audit row");
    assert_eq!(rows[0].idem_key.as_deref(), Some("pay-1"));

    // After a restart the stored result is replayed, nothing runs.
    drop((a, b));
    let (c, _) = process(dir.path(), &runs);
    let replay = c.call(keyed("pay-1")).await;
    assert_eq!(replay.data, json!({"run": 1}));
    assert_eq!(runs.load(Ordering::SeqCst), 1);
    // A new key runs.
    assert_eq!(c.call(keyed("pay-2")).await.data, json!({"run": 2}));
}

#[tokio::test]
async fn calls_are_audited_in_the_database_with_secrets_masked() {
    let dir = common::data_dir_with_adsl();
    let deskmate = Deskmate::open(dir.path()).unwrap_or_else(|e| panic!("{e}"));
    let ok = deskmate
        .call(CallRequest::new("calculator", json!({"expression": "2+2"})))
        .await;
    let bad = deskmate
        .call(CallRequest::new(
            "describe_dataset",
            json!({"dataset": "nope", "token": "s3cret"}),
        ))
        .await;
    assert!(ok.ok && !bad.ok);
    let store = deskmate
        .store()
        .cloned()
        .unwrap_or_else(|| panic!("opened on a data dir"));
    let (total, rows) = store
        .list_audit(&AuditFilter {
            limit: 10,
            ..AuditFilter::default()
        })
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(total, 2);
    assert_eq!(rows[0].tool, "describe_dataset");
    assert_eq!(rows[0].error_type, Some(ErrorType::Validation));
    assert_eq!(rows[0].arguments["token"], "••••");
    assert_eq!(rows[1].call_id, ok.call_id);
}

#[tokio::test]
async fn disabled_resources_and_policies_apply_after_reopening() {
    let dir = common::data_dir_with_adsl();
    {
        let deskmate = Deskmate::open(dir.path()).unwrap_or_else(|e| panic!("{e}"));
        let store = deskmate.store().cloned().unwrap_or_else(|| panic!("store"));
        let (total, resources) = store
            .list_resources(&Default::default())
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(total, 17, "14 built-in tools and the 3 example templates");
        let system: Vec<_> = resources.iter().filter(|r| r.is_system).collect();
        assert_eq!(system.len(), 14);
        assert!(system.iter().all(|r| r.enabled));
        let templates: Vec<&str> = resources
            .iter()
            .filter(|r| !r.is_system)
            .map(|r| r.id.as_str())
            .collect();
        assert_eq!(templates, ["search", "weather", "translate"]);
        assert!(
            resources
                .iter()
                .filter(|r| !r.is_system)
                .all(|r| !r.enabled),
            "templates start disabled"
        );
        let mut calc = store
            .resource("calculator")
            .ok()
            .flatten()
            .unwrap_or_else(|| panic!("calculator"));
        calc.enabled = false;
        store
            .update_resource(&calc)
            .unwrap_or_else(|e| panic!("{e}"));
        let mut clock = store
            .resource("current_time")
            .ok()
            .flatten()
            .unwrap_or_else(|| panic!("current_time"));
        clock.policy = Some("never".into());
        store
            .update_resource(&clock)
            .unwrap_or_else(|e| panic!("{e}"));
        let mut rate = store
            .resource("sas_round_rate")
            .ok()
            .flatten()
            .unwrap_or_else(|| panic!("sas_round_rate"));
        rate.policy = Some("ask".into());
        store
            .update_resource(&rate)
            .unwrap_or_else(|e| panic!("{e}"));
    }
    let deskmate = Deskmate::open(dir.path()).unwrap_or_else(|e| panic!("{e}"));
    let calc = deskmate
        .call(CallRequest::new("calculator", json!({"expression": "1+1"})))
        .await;
    assert_eq!(calc.error_type, Some(ErrorType::Permission));
    let clock = deskmate
        .call(CallRequest::new("current_time", json!({})))
        .await;
    assert_eq!(clock.error_type, Some(ErrorType::Denied));
    let rate = deskmate
        .call(CallRequest::new("sas_round_rate", json!({"value": 0.125})))
        .await;
    assert_eq!(
        rate.error_type,
        Some(ErrorType::Denied),
        "'ask' with nobody to ask is no"
    );
    let freq = deskmate
        .call(CallRequest::new(
            "frequency",
            json!({"dataset": "adsl", "variable": "SEX"}),
        ))
        .await;
    assert!(freq.ok);
}

/// An imported configuration's errors point at the entry by its key as a JSON pointer
/// escapes it ("a/b~c" is `/mcpServers/a~1b~0c`) — the shape check always did; the
/// service's own paths (a name that is taken) now do too.
#[tokio::test]
async fn import_errors_point_at_the_entry_with_its_key_escaped() {
    let dir = common::data_dir_with_adsl();
    let deskmate = Deskmate::open(dir.path()).unwrap_or_else(|e| panic!("{e}"));
    let read = |body: Value| {
        <deskmate_service::mcp_input::McpImport as deskmate_service::body::Body>::read(&body)
            .unwrap_or_else(|e| panic!("{e:?}"))
    };
    let good = read(json!({"mcpServers": {"a/b~c": {"command": "x"}}}));
    deskmate
        .import_mcp_config(good)
        .unwrap_or_else(|e| panic!("{e}"));
    let again = read(json!({"mcpServers": {"a/b~c": {"command": "x"}}}));
    match deskmate.import_mcp_config(again) {
        Err(deskmate_service::ServiceError::Taken(errors)) => {
            assert_eq!(errors[0].path, "/mcpServers/a~1b~0c", "{errors:?}");
        }
        other => panic!("{other:?}"),
    }
}
