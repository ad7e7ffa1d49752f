//! voice_msg_prompt for real: `deskmate call` speaks into a PulseAudio null sink started
//! by the test; the sink's monitor, recorded with parecord, is not silent, and the local
//! whisper server (scripts/setup-models.sh tests) hears the words.

use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::Duration;

use deskmate_devices::speaker::parse_wav;
use deskmate_llm::sidecar::Sidecar;
use deskmate_llm::{AsrClient, AsrRequest, Endpoint};
use deskmate_service::local::{Found, default_manifest_path, load_manifest};
use deskmate_testkit::pulse::PulseServer;
use serde_json::Value;

fn rms(samples: &[i16]) -> f64 {
    let sum: f64 = samples.iter().map(|s| f64::from(*s).powi(2)).sum();
    (sum / samples.len().max(1) as f64).sqrt()
}

/// Speaks the message through `deskmate call` into the test's sink and returns the
/// sink's recording (checked not silent).
fn play_and_record(pulse: &PulseServer, dir: &std::path::Path, attempt: u32) -> Vec<u8> {
    let recording = dir.join(format!("sink-{attempt}.wav"));
    let mut recorder = Command::new("parecord")
        .args([
            "--device=ci_sink.monitor",
            "--file-format=wav",
            "--rate=16000",
            "--channels=1",
        ])
        .arg(&recording)
        .env("PULSE_SERVER", pulse.server())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("parecord: {e}"));
    std::thread::sleep(Duration::from_millis(300));

    let data = dir.join("data");
    let output = Command::new(env!("CARGO_BIN_EXE_deskmate"))
        .arg("--data-dir")
        .arg(&data)
        .args([
            "call",
            "voice_msg_prompt",
            r#"{"message": "turn the volume up", "rate": 140}"#,
        ])
        .env("PULSE_SERVER", pulse.server())
        .env("DESKMATE_LOCAL", "off")
        .output()
        .unwrap_or_else(|e| panic!("deskmate: {e}"));
    let result: Value = serde_json::from_slice(&output.stdout).unwrap_or(Value::Null);
    assert_eq!(output.status.code(), Some(0), "{result}");
    assert!(
        result["data"]["duration_ms"].as_u64().unwrap_or(0) > 500,
        "{result}"
    );
    assert_eq!(result["data"]["voice"], "en-us");

    std::thread::sleep(Duration::from_millis(300));
    let _ = nix::sys::signal::kill(
        nix::unistd::Pid::from_raw(i32::try_from(recorder.id()).unwrap_or(i32::MAX)),
        nix::sys::signal::Signal::SIGINT,
    );
    let _ = recorder.wait();
    let bytes = std::fs::read(&recording).unwrap_or_else(|e| panic!("{e}"));
    let wav =
        parse_wav(&bytes).unwrap_or_else(|| panic!("no WAV recorded ({} bytes)", bytes.len()));
    let level = rms(&wav.samples);
    assert!(level > 300.0, "the sink was silent (RMS {level:.0})");
    bytes
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_spoken_message_is_played_and_heard() {
    let pulse = PulseServer::start();
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));

    // The words, as the local whisper server hears them.
    let path = default_manifest_path().unwrap_or_else(|| panic!("no cache dir"));
    let Found::Ready(manifest) = load_manifest(&path) else {
        panic!("the local models are not installed: run scripts/setup-models.sh tests");
    };
    let whisper = manifest
        .asr
        .iter()
        .find(|s| s.id == "local-whisper-base")
        .unwrap_or_else(|| panic!("whisper-base is not installed"));
    let sidecar = Sidecar::start(
        whisper.sidecar("faster-whisper-server", None),
        Arc::new(|_| {}),
    );
    let url = sidecar
        .wait_ready(Duration::from_secs(120))
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    let client = AsrClient::new(Endpoint::new(&url, None).unwrap_or_else(|e| panic!("{e}")))
        .unwrap_or_else(|e| panic!("{e}"));
    // A recording made while the machine is loaded can lose samples (heard once as "turn
    // the model you map"): the message is played and heard again once before failing.
    let mut heard = Vec::new();
    for attempt in 0..2 {
        let bytes = play_and_record(&pulse, dir.path(), attempt);
        let text = client
            .transcribe(
                &AsrRequest {
                    model: whisper.model.clone(),
                    language: Some("en".into()),
                    hotwords: Vec::new(),
                },
                bytes,
                "sink.wav",
            )
            .await
            .unwrap_or_else(|e| panic!("{e}"))
            .text
            .to_lowercase();
        heard.push(text);
        if heard.last().is_some_and(|t| t.contains("volume")) {
            break;
        }
    }
    sidecar.stop().await;
    assert!(
        heard.last().is_some_and(|t| t.contains("volume")),
        "heard {heard:?}"
    );
}
