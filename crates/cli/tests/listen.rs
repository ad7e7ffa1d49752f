//! Voice mode for real: `deskmate listen` on a PulseAudio server started by the test. The
//! microphone is a null sink's monitor, fed with speech espeak-ng makes (the wake phrase
//! and a request); the local whisper server transcribes it; the model is a scripted
//! server on loopback that calls the calculator and words its reply from the calculator's
//! result (the Chinese path is measured by scripts/wake-bench.sh instead: whisper-base
//! hears espeak-ng's Mandarin too unreliably for a test); the reply is recorded from the output sink and transcribed again, and must
//! carry that result. Speech without the phrase starts no turn. Speech over a
//! long reply stops it within a second (barge-in; the figure is printed).

mod common;

use std::path::{Path, PathBuf};
use std::time::Duration;

use common::voice::{Feeder, Listening, Recorder, loud_windows, silent_at, spoken, trimmed};
use common::whisper_server;
use deskmate_devices::speaker::Language;
use deskmate_testkit::pulse::PulseServer;
use deskmate_testkit::{Script, ScriptedServer, completion};
use serde_json::{Value, json};

fn body<T: deskmate_service::body::Body>(json: Value) -> T {
    T::read(&json).unwrap_or_else(|e| panic!("{e:?}"))
}

/// The first number in a text that is neither of `not`.
fn result_number(text: &str, not: &[&str]) -> Option<String> {
    text.split(|c: char| !c.is_ascii_digit())
        .filter(|d| !d.is_empty() && !not.contains(d))
        .map(str::to_string)
        .next()
}

/// The scripted model: a request for a story gets a long reply; another request is sent
/// to the calculator, and after the calculator's result the reply says it.
fn model_reply(request: &Value) -> Script {
    let messages = request["messages"].as_array().cloned().unwrap_or_default();
    let user = messages
        .iter()
        .rev()
        .find(|m| m["role"] == "user")
        .and_then(|m| m["content"].as_str())
        .unwrap_or_default()
        .to_string();
    let result = messages
        .iter()
        .rev()
        .take_while(|m| m["role"] != "user")
        .find(|m| m["role"] == "tool")
        .and_then(|m| m["content"].as_str())
        .map(str::to_string);
    if let Some(result) = result {
        let n = result_number(&result, &["17", "23"]).unwrap_or_default();
        return Script::Json(completion(Some(&format!("The answer is {n}.")), &[]));
    }
    if user.to_lowercase().contains("story") {
        let story = "Once upon a time there was a lighthouse keeper who counted the ships \
            that passed each night, and wrote their names in a long blue book, one after \
            another, for many years, until the book was full and the sea was calm.";
        return Script::Json(completion(Some(story), &[]));
    }
    Script::Json(completion(
        None,
        &[("calculator", &json!({"expression": "17*23"}).to_string())],
    ))
}

/// A data dir with the scripted model and the local whisper server as the defaults.
fn data_dir(dir: &Path, llm: &ScriptedServer, asr_url: &str, asr_model: &str) -> PathBuf {
    let data = dir.join("data");
    let deskmate = deskmate_service::Deskmate::open(&data).unwrap_or_else(|e| panic!("{e}"));
    deskmate
        .create_model::<deskmate_service::models::LlmModel>(body(json!({
            "name": "S", "base_url": llm.base_url(), "model": "scripted", "streaming": false
        })))
        .unwrap_or_else(|e| panic!("{e}"));
    deskmate
        .create_model::<deskmate_service::models::AsrModel>(body(json!({
            "name": "Whisper", "base_url": asr_url, "model": asr_model
        })))
        .unwrap_or_else(|e| panic!("{e}"));
    data
}

async fn heard(asr_url: &str, model: &str, language: &str, bytes: Vec<u8>) -> String {
    let client = deskmate_llm::AsrClient::new(
        deskmate_llm::Endpoint::new(asr_url, None).unwrap_or_else(|e| panic!("{e}")),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    common::heard(&client, model, language, bytes).await
}

/// A sound server with a microphone, the whisper server, the scripted model and a data
/// dir that uses them.
struct Setup {
    pulse: PulseServer,
    dir: tempfile::TempDir,
    sidecar: deskmate_llm::sidecar::Sidecar,
    asr_url: String,
    asr_model: String,
    llm: ScriptedServer,
    data: PathBuf,
    path: PathBuf,
}

async fn setup() -> Setup {
    let pulse = PulseServer::start();
    pulse.add_microphone();
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let (sidecar, asr_url, asr_model) = whisper_server().await;
    let llm = ScriptedServer::start(&["scripted"]).await;
    llm.respond_with(model_reply);
    let data = data_dir(dir.path(), &llm, &asr_url, &asr_model);
    let path = dir.path().to_path_buf();
    Setup {
        pulse,
        dir,
        sidecar,
        asr_url,
        asr_model,
        llm,
        data,
        path,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_wake_phrase_starts_a_turn_whose_reply_is_heard() {
    let Setup {
        pulse,
        dir: _dir,
        sidecar,
        asr_url,
        asr_model,
        llm,
        data,
        path,
    } = setup().await;

    let english = tokio::task::spawn_blocking(move || {
        let mut listening = Listening::start(&data, &pulse);
        listening.wait_for(Duration::from_secs(60), |l| l == "[waiting]");

        // Speech without the phrase is heard and starts nothing.
        let plain = spoken(
            &path,
            "plain",
            "The weather was fine all week.",
            Language::En,
            150,
        );
        assert!(pulse.say_into_microphone(&plain));
        listening.wait_for(Duration::from_secs(30), |l| l.starts_with("[heard]"));

        // The phrase and a request in one breath.
        let recorder = Recorder::start(&pulse);
        let ask = spoken(
            &path,
            "ask",
            "Deskmate, what is 17 times 23?",
            Language::En,
            140,
        );
        assert!(pulse.say_into_microphone(&ask));
        listening.wait_for(Duration::from_secs(30), |l| l.starts_with("[heard, woken]"));
        listening.wait_for(Duration::from_secs(60), |l| l.starts_with("[reply"));
        // The reply has been said when the follow-up window opens.
        listening.wait_for(Duration::from_secs(60), |l| l == "[listening]");
        let (_, english) = recorder.stop();

        listening.drain(Duration::from_millis(200));
        let seen = listening.seen.join("\n");
        eprintln!("{seen}");
        assert_eq!(listening.stop(), Some(0), "{seen}");
        drop(pulse);
        english
    })
    .await
    .unwrap_or_else(|e| std::panic::resume_unwind(e.into_panic()));

    // The model was asked the words heard after the phrase, and never the plain speech.
    let asked: Vec<String> = llm
        .requests()
        .iter()
        .filter_map(|r| {
            r["messages"]
                .as_array()?
                .iter()
                .rev()
                .find(|m| m["role"] == "user")?["content"]
                .as_str()
                .map(str::to_string)
        })
        .collect();
    assert!(
        asked.iter().all(|a| !a.to_lowercase().contains("weather")),
        "{asked:?}"
    );
    assert!(
        asked.iter().any(|a| a.contains("17") && a.contains("23")),
        "{asked:?}"
    );

    // The English reply, heard again from the output sink, carries the calculator's
    // result (whisper-base's hearing of one recording varies: up to three hearings).
    let mut english_heard = Vec::new();
    for _ in 0..3 {
        let text = heard(&asr_url, &asr_model, "en", trimmed(&english)).await;
        let found = text.contains("391");
        english_heard.push(text);
        if found {
            break;
        }
    }
    sidecar.stop().await;
    assert!(
        english_heard.last().is_some_and(|t| t.contains("391")),
        "heard {english_heard:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn speech_over_the_reply_stops_it_at_once() {
    let Setup {
        pulse,
        dir: _dir,
        sidecar,
        asr_url: _,
        asr_model: _,
        llm: _llm,
        data,
        path,
    } = setup().await;

    let stopped_after = tokio::task::spawn_blocking(move || {
        let mut listening = Listening::start(&data, &pulse);
        listening.wait_for(Duration::from_secs(60), |l| l == "[waiting]");
        // What is played, recorded as it comes, and the microphone fed through one stream,
        // both open before the reply (a new stream can stall or start late).
        let played = Recorder::start(&pulse);
        let feeder = Feeder::start(&pulse);
        let ask = spoken(
            &path,
            "story",
            "Deskmate, tell me a story.",
            Language::En,
            150,
        );
        feeder.say(&ask);
        listening.wait_for(Duration::from_secs(60), |l| l.starts_with("[reply"));
        // Let the reply play a while (its stream can start seconds late), then talk over it.
        std::thread::sleep(Duration::from_millis(4500));
        let over = spoken(&path, "over", "Wait, stop please.", Language::En, 170);
        let spoke = feeder.say(&over);
        listening.wait_for(Duration::from_secs(10), |l| l == "[interrupted]");
        std::thread::sleep(Duration::from_millis(1500));
        let (first, samples) = played.stop();
        drop(feeder);
        listening.drain(Duration::from_millis(200));
        let seen = listening.seen.join("\n");
        assert_eq!(listening.stop(), Some(0), "{seen}");
        drop(pulse);
        let loud = loud_windows(&samples);
        let at = (spoke.saturating_duration_since(first).as_millis() / 10) as usize;
        assert!(
            loud[at.saturating_sub(50).min(loud.len())..at.min(loud.len())]
                .iter()
                .any(|l| *l),
            "the reply was not playing when the person spoke\n{seen}"
        );
        // From the moment the person's speech begins to the moment the reply falls silent.
        let silent = silent_at(first, &samples, spoke)
            .unwrap_or_else(|| panic!("the reply never fell silent"));
        silent.saturating_duration_since(spoke)
    })
    .await
    .unwrap_or_else(|e| std::panic::resume_unwind(e.into_panic()));
    sidecar.stop().await;
    eprintln!(
        "barge-in: the reply stopped {} ms after the speech began",
        stopped_after.as_millis()
    );
    // The story takes over 10 s to say: it stopped far before its end, within a second of
    // the person's speech (about 300 ms measured; the margin is for a loaded machine).
    assert!(
        stopped_after < Duration::from_millis(1000),
        "the reply went on {} ms after the speech began",
        stopped_after.as_millis()
    );
}
