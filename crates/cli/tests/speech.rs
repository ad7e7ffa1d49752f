//! voice_msg_prompt for real: `deskmate call` speaks into a PulseAudio null sink started
//! by the test; the sink's monitor, recorded with parecord, is not silent, and the local
//! whisper server (scripts/setup-models.sh tests) hears the words — in English, and in
//! Chinese as Mandarin: the toneless pinyin of what it heard (the better of two hearings
//! of each recording) shares at least half of the sentences' syllables (57–62 % measured;
//! espeak-ng's `cmn` voice, which reads tone digits in English, gave about 0 %).

mod common;

use std::process::{Command, Stdio};
use std::time::Duration;

use common::{heard, whisper};
use deskmate_devices::speaker::parse_wav;
use deskmate_testkit::pulse::PulseServer;
use serde_json::Value;

fn rms(samples: &[i16]) -> f64 {
    let sum: f64 = samples.iter().map(|s| f64::from(*s).powi(2)).sum();
    (sum / samples.len().max(1) as f64).sqrt()
}

/// Speaks the message through `deskmate call` into the test's sink and returns the
/// sink's recording (checked not silent).
fn play_and_record(
    pulse: &PulseServer,
    dir: &std::path::Path,
    attempt: u32,
    arguments: &Value,
    voice: &str,
) -> Vec<u8> {
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
        .args(["call", "voice_msg_prompt", &arguments.to_string()])
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
    assert_eq!(result["data"]["voice"], voice);

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
    let (sidecar, client, model) = whisper().await;
    // A recording made while the machine is loaded can lose samples (heard once as "turn
    // the model you map"): the message is played and heard again once before failing.
    let arguments = serde_json::json!({"message": "turn the volume up", "rate": 140});
    let mut texts = Vec::new();
    for attempt in 0..2 {
        let bytes = play_and_record(&pulse, dir.path(), attempt, &arguments, "en-us");
        texts.push(heard(&client, &model, "en", bytes).await.to_lowercase());
        if texts.last().is_some_and(|t| t.contains("volume")) {
            break;
        }
    }
    sidecar.stop().await;
    assert!(
        texts.last().is_some_and(|t| t.contains("volume")),
        "heard {texts:?}"
    );
}

/// How many of `said`'s syllables `heard` has (each counted as often as it was said),
/// out of how many were said.
fn shared(said: &[String], heard: &[String]) -> (usize, usize) {
    let mut left: Vec<&String> = heard.iter().collect();
    let mut found = 0;
    for syllable in said {
        if let Some(at) = left.iter().position(|h| *h == syllable) {
            left.remove(at);
            found += 1;
        }
    }
    (found, said.len())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_chinese_message_is_heard_as_mandarin() {
    use deskmate_devices::mandarin::syllables;
    let pulse = PulseServer::start();
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let (sidecar, client, model) = whisper().await;
    // What Deskmate says aloud: a result, a time, a question with options, a number.
    let sentences = [
        "把音量调大一点",
        "现在是下午三点二十分",
        "音量已经调到70%",
        "你要打开摄像头吗？好的还是不要",
    ];
    let (mut found, mut said, mut lines) = (0, 0, Vec::new());
    for (i, sentence) in sentences.iter().enumerate() {
        let arguments = serde_json::json!({"message": sentence, "language": "zh"});
        // A recording made while the machine is loaded can come back heard as nothing at
        // all (seen once in the test command): such a sentence is played again, once.
        let mut best = (0, 0, String::new());
        for attempt in 0..2u32 {
            let bytes = play_and_record(
                &pulse,
                dir.path(),
                i as u32 * 2 + attempt,
                &arguments,
                "cmn-latn-pinyin",
            );
            // whisper-base falls back to sampling when its greedy decode looks poor, so
            // one hearing of one recording varies (the same WAV heard as 把音量調大一點
            // and as 啪音量調啪音電): each recording is heard twice, the better counts.
            for _ in 0..2 {
                let text = heard(&client, &model, "zh", bytes.clone()).await;
                let (f, n) = shared(&syllables(sentence), &syllables(&text));
                lines.push(format!("{sentence} → {text} ({f}/{n})"));
                if f >= best.0 {
                    best = (f, n, text);
                }
            }
            if best.0 > 0 {
                break;
            }
        }
        found += best.0;
        said += best.1;
    }
    sidecar.stop().await;
    eprintln!("{}", lines.join("\n"));
    // Measured on this machine: 24 to 26 of 42 (57–62 %) from one run to the next, as
    // whisper-base hears espeak-ng's Mandarin (the same WAV padded by 0.2 s or 0.4 s of
    // silence is heard right or wrong). The bar is 50 %, which the `cmn` voice's ~0 %
    // is far below.
    assert!(
        found * 100 >= said * 50,
        "{found} of {said} syllables heard:\n{}",
        lines.join("\n")
    );
}
