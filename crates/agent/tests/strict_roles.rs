//! A model whose chat template is strict about roles — a system message only first, then
//! the user and the assistant in turn (Gemma's, Mistral's and others' templates raise
//! otherwise) — answers every turn: the requests the loop builds keep to that shape, with
//! the examples near a request, with earlier turns, after a step's results. Served for
//! real: SmolLM2-135M on llama-server with `testdata/llm/strict-roles.jinja`.

use std::path::Path;
use std::sync::Arc;

use deskmate_agent::{Agent, AgentEvent, ChatTurn, StopReason};
use deskmate_llm::sidecar::Sidecar;
use deskmate_service::Deskmate;
use deskmate_service::hooks::PreApproved;
use serde_json::json;

mod common;

fn template() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../testdata/llm/strict-roles.jinja")
        .display()
        .to_string()
}

/// The installed SmolLM2 server with the strict template.
fn strict_smollm2() -> (deskmate_service::local::LocalServer, String) {
    let mut server = common::installed_smollm2();
    server
        .args
        .extend(["--jinja".into(), "--chat-template-file".into(), template()]);
    let model = server.model.clone();
    (server, model)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_model_strict_about_roles_answers_every_turn() {
    let (server, model) = strict_smollm2();
    let sidecar = Sidecar::start(server.sidecar("llama-server", None), Arc::new(|_| {}));
    let url = common::sidecar_ready(&sidecar, 0).await;

    let dir = common::data_dir_with_adsl();
    let deskmate = Arc::new(
        Deskmate::open_with_tools(dir.path(), Arc::new(PreApproved), Vec::new())
            .unwrap_or_else(|e| panic!("{e}")),
    );
    let body = json!({"name": "Strict", "base_url": url, "model": model,
                      "max_tokens": 64, "is_default": true});
    let body =
        <deskmate_service::model_input::NewLlmModel as deskmate_service::body::Body>::read(&body)
            .unwrap_or_else(|e| panic!("{e:?}"));
    deskmate
        .create_model::<deskmate_service::models::LlmModel>(body)
        .unwrap_or_else(|e| panic!("{e}"));
    let agent = Agent::new(deskmate.clone());

    // Requests that are the loop's own examples of answers no tool gives, so examples
    // near them are shown; the second and third with the earlier turns before them.
    let mut conversation = None;
    for message in [
        "is the printer out of paper?",
        "现在屏幕亮度是多少",
        "what's 12 * 7?",
    ] {
        let (events, outcome) = agent
            .chat_collected(ChatTurn {
                message: message.into(),
                conversation_id: conversation.clone(),
                ..ChatTurn::default()
            })
            .await
            .unwrap_or_else(|e| panic!("{e}"));
        let errors: Vec<&AgentEvent> = events
            .iter()
            .filter(|e| matches!(e, AgentEvent::Error { .. }))
            .collect();
        assert!(errors.is_empty(), "{message}: {errors:?}");
        assert_ne!(
            outcome.stop,
            StopReason::ModelError,
            "{message}: {}",
            outcome.reply
        );
        conversation = Some(outcome.conversation_id);
    }
    sidecar.stop().await;
}
