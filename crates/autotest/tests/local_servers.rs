//! Against the real local servers `scripts/setup-models.sh tests` installs (the README's
//! test command runs it first): llama-server with SmolLM2-135M and faster-whisper-server
//! with whisper-base, started as sidecars by this test. The autotest passes every check;
//! a chat turn streams; a killed llama-server is restarted and works again.

use std::sync::Arc;
use std::time::Duration;

use deskmate_agent::{Agent, AgentEvent, ChatTurn, StopReason};
use deskmate_autotest::{Autotest, Limits};
use deskmate_llm::sidecar::{Sidecar, SidecarState};
use deskmate_service::Deskmate;
use deskmate_service::local::{Found, Manifest, default_manifest_path, load_manifest};

const SMOLLM2: &str = "local-smollm2-135m";
const WHISPER: &str = "local-whisper-base";

fn manifest() -> Manifest {
    let path = default_manifest_path().unwrap_or_else(|| panic!("no cache dir"));
    match load_manifest(&path) {
        Found::Ready(mut manifest) => {
            manifest.llm.retain(|s| s.id == SMOLLM2);
            manifest.asr.retain(|s| s.id == WHISPER);
            assert_eq!(
                (manifest.llm.len(), manifest.asr.len()),
                (1, 1),
                "SmolLM2 and whisper-base must be installed: run scripts/setup-models.sh tests"
            );
            manifest
        }
        other => panic!(
            "the local models are not installed ({other:?}): run scripts/setup-models.sh tests"
        ),
    }
}

fn start(deskmate: &Arc<Deskmate>, manifest: &Manifest) -> Vec<Sidecar> {
    let servers = manifest
        .llm
        .iter()
        .map(|s| ("llama-server", s))
        .chain(manifest.asr.iter().map(|s| ("faster-whisper-server", s)));
    servers
        .map(|(kind, server)| {
            let service = deskmate.clone();
            let id = server.id.clone();
            Sidecar::start(
                server.sidecar(kind, None),
                Arc::new(move |url| service.set_managed_url(&id, url)),
            )
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_local_servers_pass_the_autotest_chat_and_come_back_after_a_kill() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let deskmate = Arc::new(Deskmate::open(dir.path()).unwrap_or_else(|e| panic!("{e}")));
    let manifest = manifest();
    let added = deskmate
        .register_local_models(&manifest)
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(added, [SMOLLM2, WHISPER]);
    // Registered once: a second start adds nothing.
    assert!(
        deskmate
            .register_local_models(&manifest)
            .unwrap_or_default()
            .is_empty()
    );

    let agent = Agent::new(deskmate.clone());
    let sidecars = start(&deskmate, &manifest);
    for sidecar in &sidecars {
        sidecar
            .wait_ready(Duration::from_secs(180))
            .await
            .unwrap_or_else(|e| panic!("{e}"));
    }
    let autotest = Autotest::new(agent.clone()).with_limits(Limits {
        connect: Duration::from_secs(3),
        response: Duration::from_secs(120),
    });
    let llm = autotest
        .llm(Some(SMOLLM2), &mut |_| {})
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    // Every check passes but Tool Calling, whose outcome is the model's choice: with
    // constrained decoding even this small model can emit a valid call. Either way the
    // check ran the canned request and says what the model did.
    let judged = |run: &deskmate_autotest::AutotestResult| {
        for test in &run.tests {
            if test.name == "Tool Calling" {
                assert!(test.message.starts_with("asked"), "{test:?}");
            } else {
                assert!(test.passed, "{:#?}", run.tests);
            }
        }
        assert_eq!(run.tests.len(), 5, "{:#?}", run.tests);
    };
    judged(&llm);
    let asr = autotest
        .asr(Some(WHISPER), &mut |_| {})
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(asr.summary.failed, 0, "{:#?}", asr.tests);

    // A chat turn with the real model streams tokens and ends.
    let (events, outcome) = agent
        .chat_collected(ChatTurn {
            message: "Say hello in five words.".into(),
            model_id: Some(SMOLLM2.into()),
            conversation_id: None,
            tools: None,
            locale: None,
            branch: None,
        })
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    let tokens = events
        .iter()
        .filter(|e| matches!(e, AgentEvent::Token { .. }))
        .count();
    assert_ne!(outcome.stop, StopReason::ModelError, "{outcome:?}");
    assert!(
        tokens > 0 || outcome.stop != StopReason::Answered,
        "{outcome:?}"
    );

    // kill -9 the model server: it is restarted on a new port and works again.
    let llama = &sidecars[0];
    let pid = llama.status().pid.unwrap_or_else(|| panic!("no pid"));
    nix::sys::signal::kill(
        nix::unistd::Pid::from_raw(i32::try_from(pid).unwrap_or(0)),
        nix::sys::signal::Signal::SIGKILL,
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let deadline = tokio::time::Instant::now() + Duration::from_secs(180);
    loop {
        let status = llama.status();
        if status.restarts >= 1 && matches!(status.state, SidecarState::Ready { .. }) {
            break;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "not restarted: {status:?}"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    let again = autotest
        .llm(Some(SMOLLM2), &mut |_| {})
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    judged(&again);

    for sidecar in sidecars {
        sidecar.stop().await;
    }
    // Stopped: the model's URL is withdrawn and the check fails cleanly, in time.
    let down = autotest
        .llm(Some(SMOLLM2), &mut |_| {})
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(!down.tests[1].passed);
}
