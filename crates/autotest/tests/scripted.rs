//! Autotest against a scripted OpenAI-compatible server on loopback: everything passes,
//! and each way a server fails gives a failed check with a clear message, in time.

use std::sync::Arc;
use std::time::{Duration, Instant};

use deskmate_agent::Agent;
use deskmate_autotest::{Autotest, Limits, RunRequest, TestCase};
use deskmate_service::Deskmate;
use deskmate_testkit::{Script, ScriptedServer, completion, sse_body};
use serde_json::json;

/// A typed request body from JSON, as the API reads it.
fn body<T: deskmate_service::body::Body>(json: serde_json::Value) -> T {
    T::read(&json).unwrap_or_else(|e| panic!("{e:?}"))
}

struct Fixture {
    _dir: tempfile::TempDir,
    deskmate: Arc<Deskmate>,
}

fn fixture() -> Fixture {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let deskmate = Arc::new(Deskmate::open(dir.path()).unwrap_or_else(|e| panic!("{e}")));
    Fixture {
        _dir: dir,
        deskmate,
    }
}

fn llm(f: &Fixture, base_url: &str) -> String {
    f.deskmate
        .create_model::<deskmate_service::models::LlmModel>(body(
            json!({"name": "Scripted", "base_url": base_url, "model": "scripted"}),
        ))
        .unwrap_or_else(|e| panic!("{e}"))
        .id
}

fn autotest(f: &Fixture) -> Autotest {
    Autotest::new(Agent::new(f.deskmate.clone())).with_limits(Limits {
        connect: Duration::from_secs(1),
        response: Duration::from_millis(600),
    })
}

fn stream() -> Script {
    Script::sse(sse_body(&[
        json!({"choices": [{"delta": {"content": "ready"}}]}),
        json!({"choices": [{"delta": {}, "finish_reason": "stop"}]}),
    ]))
}

fn outcome(tests: &[TestCase]) -> Vec<(&str, bool)> {
    tests.iter().map(|t| (t.name.as_str(), t.passed)).collect()
}

#[tokio::test]
async fn a_working_llm_passes_every_check_and_the_run_is_stored() {
    let f = fixture();
    let server = ScriptedServer::start(&["scripted"]).await;
    server
        .push(Script::Json(completion(Some("ready"), &[])))
        .push(Script::Json(completion(Some("ready"), &[])))
        .push(stream())
        .push(Script::Json(completion(
            None,
            &[("calculator", r#"{"expression": "1234 * 5678"}"#)],
        )));
    let id = llm(&f, &server.base_url());
    let mut seen = Vec::new();
    let result = autotest(&f)
        .llm(Some(&id), &mut |t| seen.push(t.name.clone()))
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        outcome(&result.tests),
        [
            ("Model Existence", true),
            ("API Connection", true),
            ("Temperature Setting", true),
            ("Streaming Support", true),
            ("Tool Calling", true)
        ],
        "{:?}",
        result.tests
    );
    assert_eq!(result.tests[0].message, "Found model: Scripted");
    assert!(result.tests[1].message.starts_with("Latency: "));
    assert_eq!(result.tests[2].message, "temperature=0.7");
    assert_eq!(result.tests[3].message, "Received 2 chunks");
    assert!(
        result.tests[4]
            .message
            .contains("called calculator({\"expression\":\"1234 * 5678\"})"),
        "{}",
        result.tests[4].message
    );
    // The canned request offered the calculator and one other tool, nothing else.
    let offered: Vec<String> = server.requests()[3]["tools"]
        .as_array()
        .map(|t| {
            t.iter()
                .filter_map(|d| d["function"]["name"].as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default();
    assert_eq!(offered, ["calculator", "current_time"]);
    assert_eq!(
        (
            result.summary.passed,
            result.summary.failed,
            result.summary.total
        ),
        (5, 0, 5)
    );
    assert_eq!(seen.len(), 5, "each check reported as it finished");
    // The requests were real: the temperature check sent the configured value.
    assert_eq!(server.requests()[1]["temperature"], 0.7);
    assert_eq!(server.requests()[2]["stream"], true);
    let store = f
        .deskmate
        .store()
        .cloned()
        .unwrap_or_else(|| panic!("store"));
    let (total, runs) = store.list_autotest_runs(1, 10).unwrap_or_default();
    assert_eq!(total, 1);
    assert_eq!(runs[0].result["summary"]["passed"], 5);
}

#[tokio::test]
async fn a_failing_server_fails_its_checks_clearly_and_in_time() {
    let f = fixture();
    let test = autotest(&f);

    // Down: nobody listens.
    let closed = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .unwrap_or_else(|e| panic!("{e}"));
    let down = llm(&f, &format!("http://{closed}/v1"));
    let result = test
        .llm(Some(&down), &mut |_| {})
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        outcome(&result.tests),
        [
            ("Model Existence", true),
            ("API Connection", false),
            ("Temperature Setting", false),
            ("Streaming Support", false),
            ("Tool Calling", false)
        ]
    );
    assert!(
        result.tests[1].message.contains("cannot connect"),
        "{}",
        result.tests[1].message
    );
    assert!(result.tests[2].message.starts_with("not run"));

    // 401.
    let server = ScriptedServer::start(&["scripted"]).await;
    server.push(Script::Status(401, "{\"error\": \"bad key\"}".into()));
    let keyed = llm(&f, &server.base_url());
    let result = test
        .llm(Some(&keyed), &mut |_| {})
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(
        result.tests[1].message.contains("refused the API key"),
        "{}",
        result.tests[1].message
    );

    // Slow: no answer at all.
    let server = ScriptedServer::start(&["scripted"]).await;
    server.push(Script::Stall);
    let slow = llm(&f, &server.base_url());
    let started = Instant::now();
    let result = test
        .llm(Some(&slow), &mut |_| {})
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(!result.tests[1].passed);
    assert!(
        result.tests[1]
            .message
            .contains("did not answer within 600 ms"),
        "{}",
        result.tests[1].message
    );
    assert!(started.elapsed() < Duration::from_secs(5));

    // Wrong about its model.
    let server = ScriptedServer::start(&["some-other-model"]).await;
    server.push(Script::Json(completion(Some("ok"), &[])));
    let wrong = llm(&f, &server.base_url());
    let result = test
        .llm(Some(&wrong), &mut |_| {})
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(
        result.tests[1]
            .message
            .contains("serves some-other-model, not 'scripted'"),
        "{}",
        result.tests[1].message
    );

    // Not in the database.
    let result = test
        .llm(Some("nope"), &mut |_| {})
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(result.summary.failed, 5);
    assert!(
        result.tests[0]
            .message
            .contains("no LLM model with id 'nope'")
    );
}

#[tokio::test]
async fn asr_checks_transcribe_a_spoken_phrase_and_compare_the_words() {
    let f = fixture();
    let server = ScriptedServer::start(&["whisper-base"]).await;
    server
        // The two transcriptions (English; the configured language) are sent at once.
        .push_transcription(Script::Json(json!({"text": " Turn the volume up."})))
        .push_transcription(Script::Json(json!({"text": " Turn the volume up."})));
    let id = f
        .deskmate
        .create_model::<deskmate_service::models::AsrModel>(body(
            json!({"name": "Whisper", "base_url": server.base_url(), "model": "whisper-base",
                                  "language": "zh", "hotwords": ["Deskmate", "CDISC"]}),
        ))
        .unwrap_or_else(|e| panic!("{e}"))
        .id;
    let result = autotest(&f)
        .asr(Some(&id), &mut |_| {})
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        outcome(&result.tests),
        [
            ("Model Existence", true),
            ("Hotwords Config", true),
            ("API Availability", true),
            ("Language Config", true)
        ],
        "{:?}",
        result.tests
    );
    assert_eq!(result.tests[1].message, "Hotwords: 2 words");
    assert!(
        result.tests[2].message.contains("(4/4 words)"),
        "{}",
        result.tests[2].message
    );
    assert_eq!(result.tests[3].message, "Language: zh");
    // A real WAV went up, as multipart.
    assert!(
        server.requests()[0]["multipart_bytes"]
            .as_u64()
            .unwrap_or(0)
            > 10_000
    );

    server
        .push_transcription(Script::Json(json!({"text": "thank you for watching"})))
        .push_transcription(Script::Json(json!({"text": "thank you for watching"})));
    let result = autotest(&f)
        .asr(Some(&id), &mut |_| {})
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(!result.tests[2].passed);
    assert!(
        result.tests[2]
            .message
            .contains("heard \"thank you for watching\"")
    );
    assert!(result.tests[3].message.starts_with("not run"));
}

#[tokio::test]
async fn the_full_run_checks_every_tool() {
    let f = fixture();
    let request = RunRequest {
        test_llm: false,
        test_asr: false,
        ..RunRequest::default()
    };
    let result = autotest(&f)
        .run(&request, &mut |_| {})
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    let tools = f.deskmate.registry().specs().count();
    assert_eq!(
        result.tests.len(),
        tools + 1,
        "every tool, then the secret store"
    );
    assert_eq!(result.tests[tools].name, "Secret Store");
    assert!(result.tests[tools].passed, "{:?}", result.tests[tools]);
    // Nothing is broken here: every check passes or is skipped with a reason (no
    // dataset in this data dir, example tools disabled).
    assert!(
        result.tests[..tools]
            .iter()
            .all(|t| t.name.starts_with("Tool: ")
                && (t.passed
                    || t.message.contains("no dataset")
                    || t.message.contains("disabled"))),
        "{:?}",
        result.tests
    );
    assert_eq!(result.summary.failed, 0);
    let everything = autotest(&f)
        .run(&RunRequest::default(), &mut |_| {})
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    // No models configured: the model checks fail and say how to add one.
    assert_eq!(everything.summary.failed, 9, "5 LLM and 4 ASR checks");
    assert!(
        everything.tests[0]
            .message
            .contains("no LLM model is configured")
    );
}

/// A model that answers in text (or calls something else) fails Tool Calling with a
/// sentence saying what it did; one served by llama.cpp is asked in constrained JSON.
#[tokio::test]
async fn a_model_that_cannot_call_tools_fails_tool_calling_and_says_why() {
    let f = fixture();
    let cases = [
        (
            ScriptedServer::start(&["scripted"]).await,
            completion(Some("1234 times 5678 is 7006652."), &[]),
            "answered in text",
        ),
        (
            ScriptedServer::start(&["scripted"]).await,
            completion(None, &[("current_time", "{}")]),
            "called current_time instead of calculator",
        ),
        (
            ScriptedServer::start(&["scripted"]).await,
            completion(None, &[("calculator", r#"{"expression": 7}"#)]),
            "the guard rejects it",
        ),
        (
            ScriptedServer::start_llama_cpp(&["scripted"]).await,
            completion(
                Some(
                    r#"{"calls": [{"name": "calculator", "arguments": {"expression": "1234*5678"}}]}"#,
                ),
                &[],
            ),
            "(constrained JSON)",
        ),
    ];
    for (server, answer, expect) in cases {
        server
            .push(Script::Json(completion(Some("ready"), &[])))
            .push(Script::Json(completion(Some("ready"), &[])))
            .push(stream())
            .push(Script::Json(answer));
        let id = llm(&f, &server.base_url());
        let result = autotest(&f)
            .llm(Some(&id), &mut |_| {})
            .await
            .unwrap_or_else(|e| panic!("{e}"));
        let check = &result.tests[4];
        assert_eq!(check.name, "Tool Calling");
        assert_eq!(check.passed, expect.starts_with('('), "{}", check.message);
        assert!(check.message.contains(expect), "{}", check.message);
    }
}
