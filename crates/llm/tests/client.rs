//! The chat and ASR clients against a real HTTP server on loopback that replays scripted
//! answers: streamed calls cut at every byte boundary, every way a server can fail.

use std::time::{Duration, Instant};

use deskmate_llm::client::StreamState;
use deskmate_llm::sse::SseParser;
use deskmate_llm::wire::{ChatRequest, Message, ToolDef};
use deskmate_llm::{AsrClient, AsrRequest, ChatClient, Endpoint, LlmError, Reply, StreamEvent};
use deskmate_testkit::{Script, ScriptedServer, Split, completion, sse_body};
use proptest::prelude::*;
use serde_json::{Value, json};

/// The shape llama-server streams a tool call in : the first fragment has the
/// index, id, type, name and `{`; later ones only the index and argument pieces.
fn llama_tool_call_stream() -> Vec<u8> {
    let mut chunks =
        vec![json!({"choices": [{"index": 0, "delta": {"role": "assistant", "content": null}}]})];
    chunks.push(json!({"choices": [{"index": 0, "delta": {"tool_calls": [
        {"index": 0, "id": "V5pLr", "type": "function", "function": {"name": "increase_volume", "arguments": "{"}}
    ]}}]}));
    for piece in ["\"", "step", "\":", " 2", "0", "}"] {
        chunks.push(json!({"choices": [{"index": 0, "delta": {"tool_calls": [
            {"index": 0, "function": {"arguments": piece}}
        ]}}]}));
    }
    chunks.push(
        json!({"choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}],
                       "usage": {"prompt_tokens": 30, "completion_tokens": 9, "total_tokens": 39}}),
    );
    sse_body(&chunks)
}

fn text_stream(pieces: &[&str]) -> Vec<u8> {
    let mut chunks: Vec<Value> = pieces
        .iter()
        .map(|p| json!({"choices": [{"index": 0, "delta": {"content": p}}]}))
        .collect();
    chunks.push(json!({"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}));
    sse_body(&chunks)
}

fn client(server: &ScriptedServer) -> ChatClient {
    let endpoint = Endpoint::new(&server.base_url(), Some("sk-test".into()))
        .unwrap_or_else(|e| panic!("{e}"))
        .with_timeouts(
            Duration::from_secs(2),
            Duration::from_millis(800),
            Duration::from_millis(800),
        );
    ChatClient::new(endpoint).unwrap_or_else(|e| panic!("{e}"))
}

fn request(stream: bool) -> ChatRequest {
    let mut request = ChatRequest::new("local", vec![Message::user("turn the volume up by 20")]);
    request.stream = stream;
    request.temperature = Some(0.2);
    request.tools = vec![ToolDef::function(
        "increase_volume",
        "Raise the volume",
        json!({"type": "object", "properties": {"step": {"type": "integer"}}}),
    )];
    request.tool_choice = Some(json!("auto"));
    request
}

async fn run(
    client: &ChatClient,
    request: &ChatRequest,
) -> (Result<Reply, LlmError>, Vec<StreamEvent>) {
    let mut events = Vec::new();
    let reply = client.complete(request, &mut |e| events.push(e)).await;
    (reply, events)
}

fn calls(reply: &Reply) -> Vec<(String, String, String)> {
    reply
        .tool_calls
        .iter()
        .map(|c| {
            (
                c.id.clone(),
                c.function.name.clone(),
                c.function.arguments.clone(),
            )
        })
        .collect()
}

#[tokio::test]
async fn non_streamed_answers_with_text_and_calls() {
    let server = ScriptedServer::start(&["local"]).await;
    server.push(Script::Json(completion(
        None,
        &[("increase_volume", "{\"step\": 20}")],
    )));
    let (reply, events) = run(&client(&server), &request(false)).await;
    let reply = reply.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        calls(&reply),
        [(
            "call_0".into(),
            "increase_volume".into(),
            "{\"step\": 20}".into()
        )]
    );
    assert_eq!(reply.finish_reason.as_deref(), Some("tool_calls"));
    assert_eq!(reply.usage.map(|u| u.total_tokens), Some(15));
    assert!(events.is_empty());
    // What was sent: the model, the tools, the sampling settings, the key.
    let sent = &server.requests()[0];
    assert_eq!(sent["model"], "local");
    assert_eq!(sent["stream"], false);
    assert_eq!(sent["temperature"], 0.2);
    assert_eq!(sent["tool_choice"], "auto");
    assert_eq!(sent["tools"][0]["function"]["name"], "increase_volume");
    assert_eq!(server.headers()[0]["authorization"], "Bearer sk-test");
}

#[tokio::test]
async fn a_streamed_call_cut_at_every_byte_boundary_is_the_same_call() {
    let server = ScriptedServer::start(&["local"]).await;
    let body = llama_tool_call_stream();
    let client = client(&server);
    let expected = (
        "V5pLr".to_string(),
        "increase_volume".to_string(),
        "{\"step\": 20}".to_string(),
    );
    for cut in 1..body.len() {
        server.push(Script::sse_split(body.clone(), Split::At(vec![cut])));
        let (reply, events) = run(&client, &request(true)).await;
        let reply = reply.unwrap_or_else(|e| panic!("cut at {cut}: {e}"));
        assert_eq!(
            calls(&reply),
            std::slice::from_ref(&expected),
            "cut at {cut}"
        );
        assert_eq!(
            events,
            [StreamEvent::ToolCallStarted {
                index: 0,
                name: "increase_volume".into()
            }],
            "cut at {cut}"
        );
    }
    server.push(Script::sse_split(body, Split::EveryByte));
    let (reply, _) = run(&client, &request(true)).await;
    let reply = reply.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(calls(&reply), [expected]);
    assert_eq!(reply.usage.map(|u| u.total_tokens), Some(39));
}

#[tokio::test]
async fn streamed_text_comes_as_tokens_with_keep_alives_between() {
    let server = ScriptedServer::start(&["local"]).await;
    let mut body = b": keep-alive\n\n".to_vec();
    body.extend(text_stream(&["你", "好", ", world"]));
    let body = String::from_utf8_lossy(&body).replace("\n\ndata", "\n\n: ping\n\ndata");
    server.push(Script::sse_split(body.into_bytes(), Split::EveryByte));
    let (reply, events) = run(&client(&server), &request(true)).await;
    let reply = reply.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(reply.content, "你好, world");
    assert_eq!(
        events,
        ["你", "好", ", world"].map(|t| StreamEvent::Token(t.into()))
    );
    assert_eq!(reply.chunks, 4);
}

#[tokio::test]
async fn every_failure_is_a_clear_error_within_its_timeout() {
    let server = ScriptedServer::start(&["local"]).await;
    let client = client(&server);

    server.push(Script::Status(
        401,
        "{\"error\": \"invalid api key\"}".into(),
    ));
    let (reply, _) = run(&client, &request(false)).await;
    assert!(
        matches!(reply, Err(LlmError::Unauthorized { status: 401, .. })),
        "{reply:?}"
    );

    server.push(Script::Status(503, "loading model".into()));
    let (reply, _) = run(&client, &request(true)).await;
    let error = reply.err().unwrap_or_else(|| panic!("503 accepted"));
    assert!(error.is_transient(), "{error}");
    assert!(error.to_string().contains("loading model"));

    for (script, what) in [
        (Script::Stall, "response headers"),
        (
            Script::SseThenStall(b"data: {\"choices\": []}\n\n".to_vec()),
            "next chunk",
        ),
    ] {
        server.push(script);
        let started = Instant::now();
        let (reply, _) = run(&client, &request(true)).await;
        assert!(
            matches!(&reply, Err(LlmError::Timeout { stage, .. }) if *stage == what),
            "{reply:?}"
        );
        assert!(started.elapsed() < Duration::from_secs(3), "{what}");
    }

    // The stream stops with neither [DONE] nor a finish reason.
    let cut = text_stream(&["half"]);
    let cut = cut[..cut.len() / 2].to_vec();
    server.push(Script::sse(cut));
    let (reply, _) = run(&client, &request(true)).await;
    assert!(
        matches!(reply, Err(LlmError::StreamEndedEarly { .. })),
        "{reply:?}"
    );

    server.push(Script::sse(b"data: not json\n\n".to_vec()));
    let (reply, _) = run(&client, &request(true)).await;
    assert!(matches!(reply, Err(LlmError::Decode { .. })), "{reply:?}");

    server.push(Script::sse(
        b"event: error\ndata: {\"message\": \"context too long\"}\n\n".to_vec(),
    ));
    let (reply, _) = run(&client, &request(true)).await;
    let error = reply.err().map(|e| e.to_string()).unwrap_or_default();
    assert!(error.contains("context too long"), "{error}");

    server.push(Script::Json(json!({"unexpected": true})));
    let (reply, _) = run(&client, &request(false)).await;
    assert!(matches!(reply, Err(LlmError::Decode { .. })), "{reply:?}");

    // Nobody listens on the port.
    let closed = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .unwrap_or_else(|e| panic!("{e}"));
    let nobody = ChatClient::new(
        Endpoint::new(&format!("http://{closed}/v1"), None).unwrap_or_else(|e| panic!("{e}")),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let (reply, _) = run(&nobody, &request(false)).await;
    assert!(matches!(reply, Err(LlmError::Connect { .. })), "{reply:?}");
}

#[tokio::test]
async fn bad_base_urls_are_refused_up_front() {
    for url in [
        "",
        "localhost:8080",
        "ftp://x/v1",
        "http://h/v1?x=1",
        "not a url",
    ] {
        assert!(
            matches!(Endpoint::new(url, None), Err(LlmError::BadUrl { .. })),
            "{url}"
        );
    }
    let endpoint =
        Endpoint::new("http://127.0.0.1:8080/v1/", None).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        endpoint.url("/chat/completions"),
        "http://127.0.0.1:8080/v1/chat/completions"
    );
}

#[tokio::test]
async fn models_are_listed() {
    let server = ScriptedServer::start(&["qwen", "smollm"]).await;
    let models = client(&server)
        .models()
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(models, ["qwen", "smollm"]);
}

#[tokio::test]
async fn a_transcription_sends_the_audio_language_and_hotwords() {
    let server = ScriptedServer::start(&["whisper"]).await;
    server.push_transcription(Script::Json(json!({"text": " turn the volume up "})));
    let asr =
        AsrClient::new(Endpoint::new(&server.base_url(), None).unwrap_or_else(|e| panic!("{e}")))
            .unwrap_or_else(|e| panic!("{e}"));
    let request = AsrRequest {
        model: "whisper-base".into(),
        language: Some("en".into()),
        hotwords: vec!["Deskmate".into(), "CDISC".into()],
    };
    let text = asr
        .transcribe(&request, b"RIFF....WAVEfmt ".to_vec(), "speech.wav")
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(text.text, "turn the volume up");
    let content_type = server.headers()[0]["content-type"]
        .to_str()
        .unwrap_or_default()
        .to_string();
    assert!(
        content_type.starts_with("multipart/form-data"),
        "{content_type}"
    );
    assert!(
        server.requests()[0]["multipart_bytes"]
            .as_u64()
            .unwrap_or(0)
            > 100
    );
}

/// Feeds a body to the pure stream machinery cut at the given offsets.
fn assemble(body: &[u8], cuts: &[usize]) -> Result<Reply, LlmError> {
    let mut parser = SseParser::new();
    let mut state = StreamState::default();
    for chunk in deskmate_testkit::cut(body, &Split::At(cuts.to_vec())) {
        for event in parser.feed(&chunk) {
            state.event("test", event.event.as_deref(), &event.data, &mut |_| {})?;
        }
    }
    Ok(state.finish())
}

fn two_parallel_calls() -> Vec<u8> {
    // Two calls streamed interleaved, ids only in the first fragments, CRLF line ends.
    let chunks = vec![
        json!({"choices": [{"delta": {"tool_calls": [{"index": 0, "id": "a", "function": {"name": "current_time", "arguments": ""}}]}}]}),
        json!({"choices": [{"delta": {"tool_calls": [{"index": 1, "id": "b", "function": {"name": "calculator", "arguments": "{\"expr"}}]}}]}),
        json!({"choices": [{"delta": {"tool_calls": [{"index": 0, "function": {"arguments": "{\"timezone\": \"Asia/Shanghai\"}"}}]}}]}),
        json!({"choices": [{"delta": {"tool_calls": [{"index": 1, "function": {"arguments": "ession\": \"17% of 2,340\"}"}}]}}]}),
        json!({"choices": [{"delta": {}, "finish_reason": "tool_calls"}]}),
    ];
    String::from_utf8_lossy(&sse_body(&chunks))
        .replace('\n', "\r\n")
        .into_bytes()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    /// Any chunking of the same stream yields the same tool calls.
    #[test]
    fn any_chunking_yields_the_same_calls(cuts in proptest::collection::vec(0usize..2000, 0..40)) {
        for body in [llama_tool_call_stream(), two_parallel_calls()] {
            let whole = assemble(&body, &[]).map(|r| calls(&r)).map_err(|e| e.to_string());
            let cut = assemble(&body, &cuts).map(|r| calls(&r)).map_err(|e| e.to_string());
            prop_assert!(whole.as_ref().is_ok_and(|c| !c.is_empty()));
            prop_assert_eq!(whole, cut);
        }
    }
}

/// Recorded from llama-server with Qwen2.5-Coder-1.5B: it writes the call as JSON in its
/// text. Cut at every byte boundary, the client assembles the same text, and extraction
/// finds the same call.
#[tokio::test]
async fn recorded_qwen_stream_cut_anywhere_yields_the_call_written_in_text() {
    let server = ScriptedServer::start(&["qwen"]).await;
    let body = deskmate_testkit::recorded("qwen-tools-stream.sse");
    let non_streamed = deskmate_llm::client::parse_completion(
        "recorded",
        &deskmate_testkit::recorded("qwen-tools.json"),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let client = client(&server);
    for cut in (1..body.len()).step_by(7).chain([body.len() - 1]) {
        server.push(Script::sse_split(
            body.clone(),
            Split::At(vec![cut, cut / 2]),
        ));
        let (reply, events) = run(&client, &request(true)).await;
        let reply = reply.unwrap_or_else(|e| panic!("cut at {cut}: {e}"));
        assert_eq!(reply.content, non_streamed.content, "cut at {cut}");
        let streamed: String = events
            .iter()
            .filter_map(|e| match e {
                StreamEvent::Token(t) => Some(t.as_str()),
                StreamEvent::ToolCallStarted { .. } => None,
            })
            .collect();
        assert_eq!(streamed, reply.content);
        assert_eq!(reply.finish_reason.as_deref(), Some("stop"));
    }
    let extracted = deskmate_llm::extract::extract_calls(&non_streamed.content)
        .unwrap_or_else(|| panic!("no call in {}", non_streamed.content));
    assert_eq!(extracted.calls[0].function.name, "increase_volume");
    assert_eq!(extracted.calls[0].function.arguments, r#"{"step":20}"#);
}

#[tokio::test]
async fn recorded_smollm2_stream_every_byte() {
    let server = ScriptedServer::start(&["smollm2"]).await;
    server.push(Script::sse_split(
        deskmate_testkit::recorded("smollm2-chat-stream.sse"),
        Split::EveryByte,
    ));
    let (reply, events) = run(&client(&server), &request(true)).await;
    let reply = reply.unwrap_or_else(|e| panic!("{e}"));
    assert!(!reply.content.trim().is_empty());
    assert!(reply.tool_calls.is_empty());
    assert_eq!(
        events.len(),
        reply.chunks - 2,
        "one token per content chunk"
    );
}
