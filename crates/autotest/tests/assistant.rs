//! The assistant with the real default local model (Qwen2.5-Coder-1.5B on llama-server,
//! installed by `scripts/setup-models.sh`; the README's test command runs it first):
//!
//! - the prompt prefix is byte-identical across conversations, so the server reuses it:
//!   a new conversation's prompt evaluates at most 10 % of the tokens the first did
//!   (read from llama.cpp's own timings);
//! - a conversation of several turns, in English and Chinese, on simulated devices: every
//!   turn runs the tool it needs and the reply the person reads carries the result;
//! - a Chinese request the model first answers in English is read in Chinese (the model
//!   names the language the message wants and writes its reply again).

use std::sync::Arc;
use std::time::Duration;

use deskmate_agent::{Agent, AgentEvent, CallStatus, ChatTurn};
use deskmate_devices::Backends;
use deskmate_llm::sidecar::Sidecar;
use deskmate_llm::wire::{ChatRequest, Message};
use deskmate_llm::{ChatClient, Endpoint};
use deskmate_service::Deskmate;
use deskmate_service::hooks::PreApproved;
use deskmate_service::local::{Found, default_manifest_path, load_manifest};
use serde_json::Value;

const QWEN: &str = "local-qwen2.5-coder-1.5b";
const ADSL: &[u8] = include_bytes!("../../../testdata/cdisc/adsl.csv");

struct Running {
    _dir: tempfile::TempDir,
    deskmate: Arc<Deskmate>,
    agent: Arc<Agent>,
    sidecar: Sidecar,
    backends: Backends,
}

async fn start() -> Running {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let datasets = dir.path().join("datasets");
    std::fs::create_dir_all(&datasets)
        .and_then(|()| std::fs::write(datasets.join("adsl.csv"), ADSL))
        .unwrap_or_else(|e| panic!("{e}"));
    let backends = Backends::simulated();
    let deskmate = Arc::new(
        Deskmate::open_with_tools(
            dir.path(),
            Arc::new(PreApproved),
            deskmate_devices::system_tools(&backends),
        )
        .unwrap_or_else(|e| panic!("{e}")),
    );
    let path = default_manifest_path().unwrap_or_else(|| panic!("no cache dir"));
    let Found::Ready(mut manifest) = load_manifest(&path) else {
        panic!("the local models are not installed: run scripts/setup-models.sh all");
    };
    manifest.llm.retain(|s| s.id == QWEN);
    manifest.asr.clear();
    // No saved prompt cache: this test measures evaluation, not a restore.
    for server in &mut manifest.llm {
        server.slot_dir = None;
    }
    let server = manifest.llm.first().cloned().unwrap_or_else(|| {
        panic!("Qwen2.5-Coder-1.5B is not installed: run scripts/setup-models.sh all")
    });
    deskmate
        .register_local_models(&manifest)
        .unwrap_or_else(|e| panic!("{e}"));
    // The agent before the server, so it warms the prefix once the server is ready.
    let agent = Agent::new(deskmate.clone());
    let service = deskmate.clone();
    let sidecar = Sidecar::start(
        server.sidecar("llama-server", None),
        Arc::new(move |url| service.set_managed_url(QWEN, url)),
    );
    sidecar
        .wait_ready(Duration::from_secs(240))
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    Running {
        _dir: dir,
        deskmate,
        agent,
        sidecar,
        backends,
    }
}

/// One turn: the calls' (tool, status, data) and the reply.
async fn ask(
    agent: &Agent,
    message: &str,
    conversation: Option<String>,
) -> (Vec<(String, CallStatus, Value)>, String, String) {
    let (events, outcome) = agent
        .chat_collected(ChatTurn {
            message: message.into(),
            model_id: Some(QWEN.into()),
            conversation_id: conversation,
            tools: None,
            locale: None,
            branch: None,
        })
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    let calls = events
        .iter()
        .filter_map(AgentEvent::tool_result)
        .map(|(name, status, result)| (name.to_string(), status, result.data.clone()))
        .collect();
    (calls, outcome.reply, outcome.conversation_id)
}

fn ran(calls: &[(String, CallStatus, Value)], tool: &str) -> Option<Value> {
    calls
        .iter()
        .find(|(name, status, _)| name == tool && *status == CallStatus::Done)
        .map(|(_, _, data)| data.clone())
}

/// The reply after a result neither refuses nor apologizes.
fn answered(reply: &str, calls: &[(String, CallStatus, Value)]) {
    let lower = reply.to_lowercase();
    assert!(
        !reply.trim().is_empty()
            && !["sorry", "apolog", "cannot", "can't", "抱歉", "无法"]
                .iter()
                .any(|w| lower.contains(w)),
        "no refusal after a result: {reply:?} {calls:?}"
    );
}

/// Digits only, so "1,234.5" and "1234.5" compare equal.
fn digits(text: &str) -> String {
    text.chars().filter(char::is_ascii_digit).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_local_model_reuses_its_prefix_and_answers_each_turn_with_the_result() {
    let running = start().await;
    let deskmate = &running.deskmate;
    let agent = &running.agent;

    // The warm prefix, measured with the server's own counts. The warm-up started when
    // the server became ready may still run: the first request waits behind it and then
    // evaluates what is left, so the comparison is with the full prompt's length.
    let model = deskmate
        .model::<deskmate_service::models::LlmModel>(QWEN)
        .unwrap_or_else(|e| panic!("{e}"));
    let base = deskmate.base_url_for(QWEN, "", Some("llama-server"));
    let client = ChatClient::new(Endpoint::new(&base, None).unwrap_or_else(|e| panic!("{e}")))
        .unwrap_or_else(|e| panic!("{e}"));
    let prompt = agent.prefix_prompt(&agent.offered_tools(None));
    let send = |text: &'static str| {
        let mut request = ChatRequest::new(
            model.model.as_str(),
            vec![Message::system(prompt.clone()), Message::user(text)],
        );
        request.max_tokens = Some(1);
        let client = client.clone();
        async move {
            client
                .complete(&request, &mut |_| {})
                .await
                .unwrap_or_else(|e| panic!("{e}"))
        }
    };
    let first = send("What is 2 + 2?").await;
    let second = send("请把音量调低一点").await;
    let (first, second) = (
        first.timings.unwrap_or_else(|| panic!("no timings")),
        second.timings.unwrap_or_else(|| panic!("no timings")),
    );
    let whole = first.prompt_n + first.cache_n;
    assert!(whole > 500, "the prompt has the tool catalog: {first:?}");
    assert!(
        second.prompt_n * 10 <= whole,
        "a new conversation evaluated {} of {} prompt tokens",
        second.prompt_n,
        whole
    );

    // A conversation of several turns, follow-ups in the same conversation.
    let (calls, reply, conversation) = ask(agent, "What is 17% of 2,340?", None).await;
    let sum =
        ran(&calls, "calculator").unwrap_or_else(|| panic!("no calculator: {calls:?} {reply}"));
    let value = sum["text"].as_str().unwrap_or_default().to_string();
    assert!(
        digits(&reply).contains(&digits(&value)),
        "reply {reply:?} lacks {value}"
    );
    answered(&reply, &calls);

    let before = running
        .backends
        .mixer
        .volume()
        .map(|v| v.percent)
        .unwrap_or(0);
    let (calls, reply, _) = ask(agent, "请把音量调低一点", Some(conversation.clone())).await;
    let volume = ran(&calls, "decrease_volume")
        .unwrap_or_else(|| panic!("no decrease_volume: {calls:?} {reply}"));
    let after = running
        .backends
        .mixer
        .volume()
        .map(|v| v.percent)
        .unwrap_or(0);
    assert!(after < before, "the volume went from {before} to {after}");
    assert_eq!(volume["after"], after);
    assert!(
        reply.contains(&after.to_string()) || reply.contains("调低") || reply.contains("降低"),
        "the reply says what happened: {reply:?}"
    );
    assert!(
        reply
            .chars()
            .any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)),
        "in Chinese: {reply:?}"
    );
    answered(&reply, &calls);

    let (calls, reply, _) = ask(
        agent,
        "What time is it in Tokyo right now?",
        Some(conversation.clone()),
    )
    .await;
    let time =
        ran(&calls, "current_time").unwrap_or_else(|| panic!("no current_time: {calls:?} {reply}"));
    assert_eq!(time["timezone"], "Asia/Tokyo", "{calls:?}");
    let hour = time["time"]
        .as_str()
        .unwrap_or_default()
        .get(..2)
        .unwrap_or_default()
        .trim_start_matches('0')
        .to_string();
    assert!(
        reply.contains(&hour),
        "reply {reply:?} lacks the hour {hour}"
    );
    answered(&reply, &calls);

    let (calls, reply, _) = ask(
        agent,
        "Summarize AGE by TRT01A in the adsl dataset",
        Some(conversation.clone()),
    )
    .await;
    assert!(
        ran(&calls, "summarize_by_group").is_some() || ran(&calls, "describe_dataset").is_some(),
        "a dataset tool ran: {calls:?} {reply}"
    );
    answered(&reply, &calls);

    // A Chinese request this model first answers in English (measured: a joke in
    // English): the model is asked which language the message wants and writes the
    // reply again in it, so the person reads Chinese.
    let (calls, reply, _) = ask(agent, "给我讲一个冷笑话", None).await;
    assert!(calls.is_empty(), "no tool for a joke: {calls:?} {reply}");
    assert!(
        reply
            .chars()
            .filter(|c| ('\u{4e00}'..='\u{9fff}').contains(c))
            .count()
            >= 4,
        "in Chinese: {reply:?}"
    );
    running.sidecar.stop().await;
}
