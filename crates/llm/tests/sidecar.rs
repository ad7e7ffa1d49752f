//! The supervisor with a real process (Python's http.server stands in for a model
//! server): ready on a free port, restarted with a new URL after `kill -9`, stopped.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use deskmate_llm::sidecar::{Sidecar, SidecarSpec, SidecarState};

fn spec(program: &str, args: &[&str]) -> SidecarSpec {
    SidecarSpec {
        name: "test-server".into(),
        program: program.into(),
        args: args.iter().map(|a| (*a).to_string()).collect(),
        env: Vec::new(),
        health_path: "/".into(),
        api_path: "/v1".into(),
        ready_timeout: Duration::from_secs(20),
        log_file: None,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_killed_server_is_restarted_and_a_stopped_one_is_gone() {
    let urls: Arc<Mutex<Vec<Option<String>>>> = Arc::default();
    let seen = urls.clone();
    let sidecar = Sidecar::start(
        spec(
            "python3",
            &["-m", "http.server", "--bind", "127.0.0.1", "{port}"],
        ),
        Arc::new(move |url| seen.lock().unwrap_or_else(|e| e.into_inner()).push(url)),
    );
    let first = sidecar
        .wait_ready(Duration::from_secs(20))
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(
        first.starts_with("http://127.0.0.1:") && first.ends_with("/v1"),
        "{first}"
    );
    let pid = sidecar.status().pid.unwrap_or_else(|| panic!("no pid"));

    nix::sys::signal::kill(
        nix::unistd::Pid::from_raw(i32::try_from(pid).unwrap_or(0)),
        nix::sys::signal::Signal::SIGKILL,
    )
    .unwrap_or_else(|e| panic!("{e}"));
    // Down, then back after the backoff, on a new process.
    let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
    loop {
        let status = sidecar.status();
        if status.restarts == 1 && matches!(status.state, SidecarState::Ready { .. }) {
            assert_ne!(status.pid, Some(pid));
            break;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "not restarted: {status:?}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let second = sidecar.status();
    sidecar.stop().await;
    let reported = urls.lock().unwrap_or_else(|e| e.into_inner()).clone();
    assert_eq!(reported.first(), Some(&Some(first)));
    assert_eq!(
        reported.get(1),
        Some(&None),
        "the URL was withdrawn when it died"
    );
    assert_eq!(reported.last(), Some(&None), "and when it stopped");
    // The stopped server's process is gone.
    tokio::time::sleep(Duration::from_millis(300)).await;
    if let Some(pid) = second.pid {
        assert!(
            !std::path::Path::new(&format!("/proc/{pid}")).exists()
                || std::fs::read_to_string(format!("/proc/{pid}/status"))
                    .unwrap_or_default()
                    .contains("zombie")
        );
    }
}

#[tokio::test]
async fn a_program_that_cannot_start_keeps_retrying_with_a_reason() {
    let sidecar = Sidecar::start(spec("/nonexistent/llama-server", &[]), Arc::new(|_| {}));
    let error = sidecar
        .wait_ready(Duration::from_millis(1500))
        .await
        .err()
        .map(|e| e.to_string())
        .unwrap_or_default();
    assert!(
        error.contains("cannot start /nonexistent/llama-server"),
        "{error}"
    );
    assert!(sidecar.status().restarts >= 1);
    sidecar.stop().await;
}
