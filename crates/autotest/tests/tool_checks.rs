//! Each tool's autotest check runs the tool where that is harmless (a sample call and
//! what its answer must satisfy), probes what a writing tool needs without running it,
//! and skips with a reason when there is nothing to check on. Tools broken on purpose
//! fail with a message that names the cause. Checks run concurrently and are listed in
//! the planned order.

use std::sync::Arc;
use std::time::Duration;

use deskmate_agent::Agent;
use deskmate_autotest::{
    Autotest, AutotestResult, DeviceCheck, DeviceProbe, RunRequest, Status, TestCase,
};
use deskmate_devices::Backends;
use deskmate_service::Deskmate;
use serde_json::json;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// A typed request body from JSON, as the API reads it.
fn body<T: deskmate_service::body::Body>(json: serde_json::Value) -> T {
    T::read(&json).unwrap_or_else(|e| panic!("{e:?}"))
}

const ADSL: &[u8] = include_bytes!("../../../testdata/cdisc/adsl.csv");

struct Fixture {
    dir: tempfile::TempDir,
    deskmate: Arc<Deskmate>,
    backends: Backends,
}

/// A data dir with the ADSL dataset (when `with_dataset`) and the device tools on
/// simulated devices.
fn fixture(with_dataset: bool) -> Fixture {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    if with_dataset {
        let datasets = dir.path().join("datasets");
        std::fs::create_dir_all(&datasets)
            .and_then(|()| std::fs::write(datasets.join("adsl.csv"), ADSL))
            .unwrap_or_else(|e| panic!("{e}"));
    }
    let backends = Backends::simulated();
    let deskmate = Arc::new(
        Deskmate::open_with_tools(
            dir.path(),
            Arc::new(deskmate_service::hooks::NoConfirmer),
            deskmate_devices::system_tools(&backends),
        )
        .unwrap_or_else(|e| panic!("{e}")),
    );
    Fixture {
        dir,
        deskmate,
        backends,
    }
}

/// A run without the models; with the simulated devices' readiness when `devices`.
async fn run(f: &Fixture, devices: bool) -> (AutotestResult, Vec<String>) {
    let request = RunRequest {
        test_llm: false,
        test_asr: false,
        ..RunRequest::default()
    };
    let backends = f.backends.clone();
    let probe = DeviceProbe {
        devices: backends.probed_devices(),
        probe: Arc::new(move || {
            backends
                .probe()
                .into_iter()
                .map(|r| DeviceCheck {
                    device: r.device,
                    ready: r.ready,
                    message: r.message,
                })
                .collect()
        }),
    };
    let mut reported = Vec::new();
    let result = Autotest::new(Agent::new(f.deskmate.clone()))
        .with_devices(devices.then_some(probe))
        .run(&request, &mut |case| reported.push(case.name.clone()))
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    (result, reported)
}

fn check<'a>(result: &'a AutotestResult, tool: &str) -> &'a TestCase {
    let name = format!("Tool: {tool}");
    result
        .tests
        .iter()
        .find(|t| t.name == name)
        .unwrap_or_else(|| panic!("no check {name}: {:#?}", result.tests))
}

/// A loopback HTTP server that answers every request with 200 after `delay`, counting
/// requests and keeping their first lines.
struct Host {
    url: String,
    requests: Arc<std::sync::Mutex<Vec<String>>>,
}

async fn host(delay: Duration) -> Host {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    let addr = listener.local_addr().unwrap_or_else(|e| panic!("{e}"));
    let requests = Arc::new(std::sync::Mutex::new(Vec::new()));
    let seen = requests.clone();
    tokio::spawn(async move {
        while let Ok((mut socket, _)) = listener.accept().await {
            let seen = seen.clone();
            tokio::spawn(async move {
                let mut buf = vec![0u8; 4096];
                let n = socket.read(&mut buf).await.unwrap_or(0);
                let text = String::from_utf8_lossy(&buf[..n]).to_string();
                if let Ok(mut seen) = seen.lock() {
                    seen.push(text.lines().next().unwrap_or_default().to_string());
                }
                tokio::time::sleep(delay).await;
                let _ = socket
                    .write_all(b"HTTP/1.1 200 OK\r\ncontent-length: 0\r\nconnection: close\r\n\r\n")
                    .await;
            });
        }
    });
    Host {
        url: format!("http://{addr}"),
        requests,
    }
}

fn http_tool(f: &Fixture, name: &str, url: &str, method: &str) -> String {
    let resource = f
        .deskmate
        .create_resource(body(json!({
            "name": name, "description": "Looks up an order by its id.", "category": "query",
            "http_method": method, "http_url": url,
            "side_effect": if method == "GET" { "read" } else { "write" },
            "parameter_schema": {"type": "object", "additionalProperties": false, "required": ["order_id"],
                                 "properties": {"order_id": {"type": "string", "description": "The order's id."}}},
        })))
        .unwrap_or_else(|e| panic!("{e}"));
    resource.id
}

#[tokio::test]
async fn harmless_tools_run_a_sample_and_writing_tools_are_only_probed() {
    let f = fixture(true);
    let server = host(Duration::ZERO).await;
    let orders = http_tool(
        &f,
        "Order lookup",
        &format!("{}/orders/{{order_id}}", server.url),
        "GET",
    );
    let cancel = http_tool(
        &f,
        "Cancel order",
        &format!("{}/orders/{{order_id}}/cancel", server.url),
        "POST",
    );
    let volume_before = f.backends.mixer.volume().map(|v| v.percent).ok();

    let (result, _) = run(&f, true).await;

    let calculator = check(&result, "calculator");
    assert_eq!(calculator.status, Status::Passed, "{calculator:?}");
    assert!(
        calculator.message.contains("2+3*4") && calculator.message.ends_with("14"),
        "{calculator:?}"
    );
    let time = check(&result, "current_time");
    assert_eq!(time.status, Status::Passed, "{time:?}");
    assert!(time.message.contains("this computer's clock"), "{time:?}");
    for tool in [
        "describe_dataset",
        "summarize_by_group",
        "frequency",
        "run_qc_checks",
    ] {
        let case = check(&result, tool);
        assert_eq!(case.status, Status::Passed, "{case:?}");
        assert!(case.message.contains("\"dataset\":\"adsl\""), "{case:?}");
    }
    assert!(
        check(&result, "describe_dataset")
            .message
            .contains("254 rows")
    );

    // append_audit writes: its check is a dry run that writes nothing.
    let audit = check(&result, "append_audit");
    assert_eq!(audit.status, Status::Passed, "{audit:?}");
    assert!(audit.message.contains("nothing written"), "{audit:?}");
    assert!(
        !f.dir.path().join("audit").exists(),
        "the dry run wrote files"
    );

    // Device tools are never run: the simulated volume is where it was.
    let volume = check(&result, "increase_volume");
    assert_eq!(volume.status, Status::Passed, "{volume:?}");
    assert!(volume.message.contains("not run"), "{volume:?}");
    assert_eq!(
        f.backends.mixer.volume().map(|v| v.percent).ok(),
        volume_before
    );
    assert!(
        f.backends.camera.state().is_none(),
        "the camera was turned on"
    );

    // HTTP tools: the host answers; none of the tools' arguments or paths were sent.
    for id in [&orders, &cancel] {
        let case = check(&result, id);
        assert_eq!(case.status, Status::Passed, "{case:?}");
        assert!(case.message.contains("HTTP 200"), "{case:?}");
    }
    let seen = server
        .requests
        .lock()
        .map(|r| r.clone())
        .unwrap_or_default();
    assert_eq!(seen, ["HEAD / HTTP/1.1", "HEAD / HTTP/1.1"], "{seen:?}");

    assert_eq!(
        result.summary.total,
        result.summary.passed + result.summary.failed + result.summary.skipped
    );
    let skipped: Vec<&TestCase> = result
        .tests
        .iter()
        .filter(|t| t.status == Status::Skipped)
        .collect();
    // Only the disabled example tools are skipped here, each saying why.
    assert!(
        skipped.iter().all(|t| t.message.contains("disabled")),
        "{skipped:#?}"
    );
    assert!(skipped.iter().all(|t| !t.passed));
}

#[tokio::test]
async fn tools_broken_on_purpose_fail_with_the_cause_and_missing_data_is_skipped() {
    let f = fixture(true);
    // A port nothing listens on.
    let closed = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap_or_else(|e| panic!("{e}"));
        listener.local_addr().map(|a| a.port()).unwrap_or_default()
    };
    let gone = http_tool(
        &f,
        "Gone service",
        &format!("http://127.0.0.1:{closed}/orders/{{order_id}}"),
        "GET",
    );
    // The dataset file replaced by garbage after the tools were registered.
    let garbage: Vec<u8> = (0..4096u32)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
        .collect();
    std::fs::write(f.dir.path().join("datasets").join("adsl.csv"), garbage)
        .unwrap_or_else(|e| panic!("{e}"));

    let (result, _) = run(&f, false).await;

    let http = check(&result, &gone);
    assert_eq!(http.status, Status::Failed, "{http:?}");
    assert!(
        http.message.contains("cannot connect") && http.message.contains(&closed.to_string()),
        "{http:?}"
    );
    for tool in ["describe_dataset", "frequency", "summarize_by_group"] {
        let case = check(&result, tool);
        assert_eq!(case.status, Status::Failed, "{case:?}");
        assert!(
            case.message.contains("'adsl'") && case.message.contains("cannot be read"),
            "{case:?}"
        );
    }
    assert!(result.summary.failed >= 4);

    // No dataset at all: the dataset tools are skipped, saying where to put one.
    let empty = fixture(false);
    let (result, _) = run(&empty, false).await;
    let case = check(&result, "describe_dataset");
    assert_eq!(case.status, Status::Skipped, "{case:?}");
    assert!(case.message.contains("no dataset"), "{case:?}");
    assert!(result.summary.skipped >= 4);
}

#[tokio::test]
async fn tool_checks_run_concurrently_and_are_listed_in_planned_order() {
    let f = fixture(false);
    let slow = host(Duration::from_millis(400)).await;
    for i in 0..4 {
        http_tool(
            &f,
            &format!("Slow lookup {i}"),
            &format!("{}/orders/{{order_id}}", slow.url),
            "GET",
        );
    }
    let (result, reported) = run(&f, false).await;

    let planned: Vec<String> = f
        .deskmate
        .registry()
        .specs()
        .map(|s| format!("Tool: {}", s.id))
        .collect();
    let listed: Vec<String> = result.tests.iter().map(|t| t.name.clone()).collect();
    assert_eq!(
        listed[..planned.len()],
        planned,
        "the run lists its checks in planned order"
    );
    assert_eq!(listed[planned.len()..], ["Secret Store"]);
    let mut sorted_reported: Vec<String> = reported
        .iter()
        .filter(|name| name.starts_with("Tool: "))
        .cloned()
        .collect();
    sorted_reported.sort();
    let mut sorted_planned = planned.clone();
    sorted_planned.sort();
    assert_eq!(sorted_reported, sorted_planned, "each check reported once");

    let slow_checks: Vec<&TestCase> = result
        .tests
        .iter()
        .filter(|t| t.message.contains(&slow.url))
        .collect();
    assert_eq!(slow_checks.len(), 4, "{:#?}", result.tests);
    let sum: u64 = slow_checks.iter().map(|t| t.duration_ms).sum();
    assert!(sum >= 1600, "each slow check waited for its host: {sum} ms");
    // One after another they would take at least their sum.
    assert!(
        result.duration_ms < sum,
        "the run took {} ms, its slow checks {sum} ms together",
        result.duration_ms
    );
    assert_eq!(slow.requests.lock().map(|r| r.len()).unwrap_or(0), 4);
}
