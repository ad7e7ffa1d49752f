//! The agent keeps a local model's prompt prefix warm by following the service, which
//! only announces: a managed model's server that becomes ready is sent the prefix every
//! turn starts with, and a tool change that changes that prefix sends the new one; a
//! change that leaves it as it was sends nothing.

mod common;

use std::sync::Arc;
use std::time::Duration;

use deskmate_agent::Agent;
use deskmate_service::Deskmate;
use deskmate_service::models::LlmModel;
use deskmate_testkit::{Script, ScriptedServer, completion};
use serde_json::{Value, json};

fn body<T: deskmate_service::body::Body>(json: Value) -> T {
    T::read(&json).unwrap_or_else(|e| panic!("{e:?}"))
}

/// The system prompts of the one-token requests that warm a prefix, in the order the
/// server got them.
fn warmed(server: &ScriptedServer) -> Vec<String> {
    server
        .requests()
        .iter()
        .filter(|r| r["max_tokens"] == json!(1))
        .map(|r| {
            r["messages"][0]["content"]
                .as_str()
                .unwrap_or_default()
                .to_string()
        })
        .collect()
}

/// Waits (at most 10 s) until `done`.
async fn until(done: impl Fn() -> bool) {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    while !done() {
        assert!(tokio::time::Instant::now() < deadline, "timed out");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test]
async fn the_prefix_is_warmed_when_a_server_is_ready_and_when_the_tools_change_it() {
    let dir = common::data_dir_with_adsl();
    let deskmate = Arc::new(Deskmate::open(dir.path()).unwrap_or_else(|e| panic!("{e}")));
    let agent = Agent::new(deskmate.clone());
    let server = ScriptedServer::start_llama_cpp(&["scripted"]).await;
    server.repeat(Script::Json(completion(Some("ok"), &[])));
    let model = deskmate
        .create_model::<LlmModel>(body(json!({
            "name": "Local", "base_url": "http://127.0.0.1:9/v1", "model": "scripted",
            "streaming": false, "is_default": true
        })))
        .unwrap_or_else(|e| panic!("{e}"));

    // The model's server is ready: the service says so, the agent warms the prefix.
    deskmate.set_managed_url(&model.id, Some(server.base_url()));
    until(|| warmed(&server).len() == 1).await;
    let first = agent.prefix_prompt(&agent.chat_tools(""));
    assert_eq!(warmed(&server), std::slice::from_ref(&first));

    // A tool every turn offers is a new prefix: it is warmed.
    deskmate
        .create_resource(body(json!({
            "name": "lookup_word", "description": "Looks a word up in the dictionary.",
            "category": "query", "http_method": "GET", "http_url": "http://127.0.0.1:9/x/{q}",
            "parameter_schema": {"type": "object", "required": ["q"],
                                 "properties": {"q": {"type": "string"}}},
        })))
        .unwrap_or_else(|e| panic!("{e}"));
    until(|| warmed(&server).len() == 2).await;
    let second = agent.prefix_prompt(&agent.chat_tools(""));
    assert_ne!(first, second);
    assert_eq!(warmed(&server)[1], second);

    // A setting swaps the registry too, but the prefix stays: nothing is sent.
    deskmate
        .set_setting("chat.context_tokens", json!(4096))
        .unwrap_or_else(|e| panic!("{e}"));
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(warmed(&server).len(), 2);
}
