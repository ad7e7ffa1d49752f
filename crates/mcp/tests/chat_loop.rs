//! An imported tool in a chat turn: server-everything (the reference MCP server, stdio)
//! is configured, its tools join the registry, and a scripted model's call of
//! `everything.echo` runs through the agent loop and the guard; the server's answer goes
//! back to the model. The peers come from `DESKMATE_MCP_PEERS` (scripts/common.sh).

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use deskmate_agent::{Agent, AgentEvent, CallStatus, ChatTurn};
use deskmate_service::Deskmate;
use deskmate_service::hooks::PreApproved;
use deskmate_testkit::{Script, ScriptedServer, completion};
use serde_json::json;
use tokio_util::sync::CancellationToken;

/// A typed request body from JSON, as the API reads it.
fn body<T: deskmate_service::body::Body>(json: serde_json::Value) -> T {
    T::read(&json).unwrap_or_else(|e| panic!("{e:?}"))
}

fn everything() -> PathBuf {
    std::env::var_os("DESKMATE_MCP_PEERS")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache/deskmate/mcp")))
        .map(|p| p.join("npm/node_modules/.bin/mcp-server-everything"))
        .filter(|p| p.exists())
        .unwrap_or_else(|| panic!("the MCP peers are not installed: run scripts/test.sh"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_model_calls_an_imported_tool_through_the_agent_loop() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let deskmate = Arc::new(
        Deskmate::open_with(dir.path(), Arc::new(PreApproved)).unwrap_or_else(|e| panic!("{e}")),
    );
    deskmate
        .create_mcp_server(body(
            json!({"name": "everything", "command": everything(), "args": ["stdio"]}),
        ))
        .unwrap_or_else(|e| panic!("{e}"));
    let stop = CancellationToken::new();
    tokio::spawn(deskmate_mcp::client::run_imports(
        deskmate.clone(),
        None,
        stop.clone(),
    ));
    let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
    while deskmate.registry().tool("everything.echo").is_none() {
        assert!(tokio::time::Instant::now() < deadline, "never imported");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }

    let model = ScriptedServer::start(&["scripted"]).await;
    model
        .push(Script::Json(completion(
            None,
            // The name as the model was offered it (OpenAI's function-name rule has no
            // dot): the loop reads it back as the imported tool's id.
            &[("everything-echo", r#"{"message": "hello from the loop"}"#)],
        )))
        .push(Script::Json(completion(
            Some("The server echoed: hello from the loop."),
            &[],
        )));
    deskmate
        .create_model::<deskmate_service::models::LlmModel>(body(
            json!({"name": "Scripted", "base_url": model.base_url(),
            "model": "scripted", "streaming": false, "is_default": true}),
        ))
        .unwrap_or_else(|e| panic!("{e}"));
    let (events, _) = Agent::new(deskmate.clone())
        .chat_collected(ChatTurn {
            message: "Echo 'hello from the loop' with the everything server".into(),
            model_id: None,
            conversation_id: None,
            tools: None,
            locale: None,
            branch: None,
        })
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    let results: Vec<_> = events
        .iter()
        .filter_map(AgentEvent::tool_result)
        .map(|(name, status, result)| {
            (
                name.to_string(),
                status,
                serde_json::to_value(result).unwrap_or_default(),
            )
        })
        .collect();
    assert_eq!(results.len(), 1, "{results:?}");
    let (name, status, result) = &results[0];
    assert_eq!(name, "everything.echo");
    assert_eq!(*status, CallStatus::Done, "{result}");
    assert_eq!(
        result["data"]["text"], "Echo: hello from the loop",
        "{result}"
    );
    // The imported tool was offered to the model under a name OpenAI's rule takes, and
    // its answer went back.
    let requests = model.requests();
    let offered = requests[0]["tools"].to_string();
    assert!(offered.contains("\"everything-echo\""), "{offered}");
    assert!(!offered.contains("everything.echo"), "{offered}");
    assert!(
        requests[1]["messages"]
            .to_string()
            .contains("Echo: hello from the loop"),
        "{}",
        requests[1]["messages"]
    );
    stop.cancel();
}
