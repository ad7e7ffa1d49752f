//! The agent loop against a scripted OpenAI-compatible server on loopback: structured
//! calls, calls written as text, repeated failures, hallucinated tools, a batch whose
//! write fails (compensation and skipping), model errors, the step limit, persistence.

use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};

use deskmate_agent::{Agent, AgentEvent, CallStatus, ChatTurn, StopReason};
use deskmate_core::{
    Category, Compensation, ErrorType, Localized, SideEffect, ToolError, ToolSpec,
};
use deskmate_service::hooks::PreApproved;
use deskmate_service::{Deskmate, ServiceError};
use deskmate_testkit::{Script, ScriptedServer, completion, judging, sse_body};
use deskmate_tools::{FnTool, Tool};
use serde_json::{Value, json};
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

/// A typed request body from JSON, as the API reads it.
fn body<T: deskmate_service::body::Body>(json: serde_json::Value) -> T {
    T::read(&json).unwrap_or_else(|e| panic!("{e:?}"))
}

mod common;

fn write_spec(id: &str, compensation: Option<&str>) -> ToolSpec {
    ToolSpec {
        id: id.into(),
        name: Localized::new(id, id),
        summary: None,
        description: format!("Test write tool {id}."),
        category: Category::System,
        parameters: json!({"type": "object", "additionalProperties": false,
                           "properties": {"delta": {"type": "integer"}}}),
        side_effect: SideEffect::Write,
        idempotent: false,
        timeout_ms: 2_000,
        compensation: compensation.map(|tool| Compensation {
            tool: tool.into(),
            description: "adds the opposite delta".into(),
        }),
    }
}

struct Fixture {
    _dir: tempfile::TempDir,
    deskmate: Arc<Deskmate>,
    agent: Arc<Agent>,
    server: ScriptedServer,
    counter: Arc<AtomicI64>,
    model_id: String,
}

async fn fixture(streaming: bool) -> Fixture {
    fixture_with(streaming, Arc::new(PreApproved), Vec::new()).await
}

async fn fixture_with(
    streaming: bool,
    confirmer: Arc<dyn deskmate_service::hooks::Confirmer>,
    more: Vec<Arc<dyn Tool>>,
) -> Fixture {
    let server = ScriptedServer::start(&["scripted"]).await;
    fixture_on(server, streaming, confirmer, more).await
}

/// A model served by (a scripted) llama.cpp: the loop uses constrained JSON replies.
async fn constrained_fixture(streaming: bool) -> Fixture {
    let server = ScriptedServer::start_llama_cpp(&["scripted"]).await;
    fixture_on(server, streaming, Arc::new(PreApproved), Vec::new()).await
}

async fn fixture_on(
    server: ScriptedServer,
    streaming: bool,
    confirmer: Arc<dyn deskmate_service::hooks::Confirmer>,
    more: Vec<Arc<dyn Tool>>,
) -> Fixture {
    let dir = common::data_dir_with_adsl();
    let counter = Arc::new(AtomicI64::new(0));
    let add = counter.clone();
    let counter_add: Arc<dyn Tool> = Arc::new(FnTool::inline(
        write_spec("counter_add", Some("counter_add")),
        move |args: Value| {
            let delta = args["delta"].as_i64().unwrap_or(0);
            let after = add.fetch_add(delta, Ordering::SeqCst) + delta;
            Ok(json!({"after": after, "undo": {"delta": -delta}}))
        },
    ));
    let fail_write: Arc<dyn Tool> = Arc::new(FnTool::inline(
        write_spec("fail_write", None),
        |_: Value| Err(ToolError::transient("the device is busy")),
    ));
    let deskmate = Arc::new(
        Deskmate::open_with_tools(
            dir.path(),
            confirmer,
            [vec![counter_add, fail_write], more].concat(),
        )
        .unwrap_or_else(|e| panic!("{e}")),
    );
    let model = deskmate
        .create_model::<deskmate_service::models::LlmModel>(body(
            json!({"name": "Scripted", "base_url": server.base_url(),
                                  "model": "scripted", "streaming": streaming, "is_default": true}),
        ))
        .unwrap_or_else(|e| panic!("{e}"));
    Fixture {
        _dir: dir,
        agent: Agent::new(deskmate.clone()),
        deskmate,
        server,
        counter,
        model_id: model.id.clone(),
    }
}

async fn turn(
    f: &Fixture,
    message: &str,
    conversation: Option<String>,
) -> (Vec<AgentEvent>, deskmate_agent::ChatOutcome) {
    f.agent
        .chat_collected(ChatTurn {
            message: message.into(),
            model_id: None,
            conversation_id: conversation,
            tools: None,
            locale: None,
            branch: None,
        })
        .await
        .unwrap_or_else(|e| panic!("{e}"))
}

fn results(events: &[AgentEvent]) -> Vec<(String, CallStatus, Value)> {
    events
        .iter()
        .filter_map(AgentEvent::tool_result)
        .map(|(name, status, result)| {
            (
                name.to_string(),
                status,
                serde_json::to_value(result).unwrap_or_default(),
            )
        })
        .collect()
}

/// A streamed reply whose text arrives in these pieces.
fn streamed_text(pieces: &[&str]) -> Script {
    let mut chunks: Vec<Value> = pieces
        .iter()
        .map(|p| json!({"choices": [{"delta": {"content": p}}]}))
        .collect();
    chunks.push(json!({"choices": [{"delta": {}, "finish_reason": "stop"}]}));
    Script::sse(sse_body(&chunks))
}

fn tokens(events: &[AgentEvent]) -> String {
    events
        .iter()
        .filter_map(|e| match e {
            AgentEvent::Token { text } => Some(text.as_str()),
            _ => None,
        })
        .collect()
}

#[tokio::test]
async fn a_structured_call_runs_and_its_result_goes_back_to_the_model() {
    let f = fixture(false).await;
    f.server
        .push(Script::Json(completion(
            None,
            &[("calculator", r#"{"expression": "17% of 2,340"}"#)],
        )))
        .push(Script::Json(completion(
            Some("17% of 2,340 is 397.8, just under 400."),
            &[],
        )));
    // A question about the result: the model answers it (a bare sum would be answered
    // by the result's own line).
    let (events, outcome) = turn(&f, "what's 17% of 2,340, and is it over 400?", None).await;
    assert_eq!(outcome.stop, StopReason::Answered);
    assert_eq!(outcome.steps, 2);
    assert_eq!(outcome.reply, "17% of 2,340 is 397.8, just under 400.");
    let results = results(&events);
    assert_eq!(results.len(), 1);
    assert_eq!(
        (results[0].0.as_str(), results[0].1),
        ("calculator", CallStatus::Done)
    );
    assert_eq!(results[0].2["data"]["result"], json!(397.8));
    assert_eq!(tokens(&events), "17% of 2,340 is 397.8, just under 400.");
    assert!(matches!(events.last(), Some(AgentEvent::Done { .. })));

    // The second request carries the call and its result, tied by id; the tools were offered.
    let requests = f.server.requests();
    let second = &requests[1]["messages"];
    let tool_message = second
        .as_array()
        .and_then(|m| m.iter().find(|m| m["role"] == "tool"))
        .cloned()
        .unwrap_or_default();
    assert_eq!(tool_message["tool_call_id"], "call_0");
    assert!(
        tool_message["content"]
            .as_str()
            .is_some_and(|c| c.contains("397.8"))
    );
    let offered: Vec<&str> = requests[0]["tools"]
        .as_array()
        .map(|t| {
            t.iter()
                .filter_map(|t| t["function"]["name"].as_str())
                .collect()
        })
        .unwrap_or_default();
    assert!(offered.contains(&"calculator") && offered.contains(&"counter_add"));

    // The turn is saved; the next turn continues it with the history.
    let store = f
        .deskmate
        .store()
        .cloned()
        .unwrap_or_else(|| panic!("store"));
    let saved = store
        .conversation_messages(&outcome.conversation_id, 100)
        .unwrap_or_default();
    assert_eq!(
        saved
            .iter()
            .map(|m| m["role"].as_str().unwrap_or(""))
            .collect::<Vec<_>>(),
        ["user", "assistant", "tool", "assistant"]
    );
    f.server
        .push(Script::Json(completion(Some("You're welcome."), &[])));
    let (_, next) = turn(&f, "thanks", Some(outcome.conversation_id.clone())).await;
    assert_eq!(next.conversation_id, outcome.conversation_id);
    let history = f.server.requests()[2]["messages"]
        .as_array()
        .map(Vec::len)
        .unwrap_or(0);
    assert_eq!(
        history,
        1 + 2 + 1,
        "system, the first turn as said (message and reply, not its call and result), the new message"
    );
}

#[tokio::test]
async fn a_call_written_as_text_is_extracted_recorded_and_not_shown_as_text() {
    let f = fixture(true).await;
    let pieces = [
        "{\"name\": \"calcu",
        "lator\", \"arguments\": {\"expres",
        "sion\": \"2+2\"}}",
    ];
    f.server.push(streamed_text(&pieces));
    let answer = vec![
        json!({"choices": [{"delta": {"content": "2+2 "}}]}),
        json!({"choices": [{"delta": {"content": "= 4"}, "finish_reason": "stop"}]}),
    ];
    f.server.push(Script::sse(sse_body(&answer)));
    let (events, outcome) = turn(&f, "2+2? and is it even?", None).await;
    assert_eq!(outcome.reply, "2+2 = 4");
    assert_eq!(
        tokens(&events),
        "2+2 = 4",
        "the call's JSON is never shown as text"
    );
    let results = results(&events);
    assert_eq!(results[0].2["data"]["result"], json!(4));
    assert_eq!(results[0].2["repairs"][0]["rule"], "extracted_from_content");
    assert!(events.iter().any(
        |e| matches!(e, AgentEvent::ToolCall { extracted: Some(how), .. } if how == "bare JSON")
    ));
}

#[tokio::test]
async fn the_same_failing_call_twice_ends_the_turn_plainly() {
    let f = fixture(false).await;
    f.server.repeat(Script::Json(completion(
        None,
        &[("calculator", r#"{"expression": "1/0"}"#)],
    )));
    let (events, outcome) = turn(&f, "compute 1/0", None).await;
    assert_eq!(outcome.stop, StopReason::RepeatedFailure);
    assert_eq!(outcome.steps, 2);
    assert!(outcome.reply.contains("failed twice"), "{}", outcome.reply);
    assert_eq!(
        results(&events).iter().map(|r| r.1).collect::<Vec<_>>(),
        [CallStatus::Failed, CallStatus::Failed]
    );
    // The model saw the structured error the first time, with its hint.
    let second = f.server.requests()[1]["messages"].to_string();
    assert!(second.contains("validation"), "{second}");

    let (_, zh) = turn(&f, "算一下 1/0", None).await;
    assert!(zh.reply.contains("失败"), "{}", zh.reply);
}

#[tokio::test]
async fn a_hallucinated_tool_runs_nothing_and_the_model_learns_the_real_ids() {
    let f = fixture(false).await;
    f.server
        .push(Script::Json(completion(
            None,
            &[("delete_database_records", r#"{"table": "users"}"#)],
        )))
        .push(Script::Json(completion(
            Some("I can't delete database records."),
            &[],
        )));
    let (events, outcome) = turn(&f, "clean up inactive users", None).await;
    assert_eq!(outcome.stop, StopReason::Answered);
    let results = results(&events);
    assert_eq!(results[0].1, CallStatus::Failed);
    assert_eq!(results[0].2["error_type"], "not_found");
    assert_eq!(f.counter.load(Ordering::SeqCst), 0);
}

#[tokio::test]
async fn a_failed_write_compensates_earlier_writes_and_skips_later_ones() {
    let f = fixture(false).await;
    f.server
        .push(Script::Json(completion(
            None,
            &[
                ("counter_add", r#"{"delta": 5}"#),
                ("calculator", r#"{"expression": "1+1"}"#),
                ("fail_write", r#"{}"#),
                ("counter_add", r#"{"delta": 7}"#),
            ],
        )))
        .push(Script::Json(completion(
            Some("The device was busy; nothing changed."),
            &[],
        )));
    let (events, _) = turn(&f, "do all of it", None).await;
    assert_eq!(
        results(&events)
            .iter()
            .map(|r| (r.0.as_str(), r.1))
            .collect::<Vec<_>>(),
        [
            ("counter_add", CallStatus::Compensated),
            ("calculator", CallStatus::Done),
            ("fail_write", CallStatus::Failed),
            ("counter_add", CallStatus::Skipped),
        ]
    );
    assert_eq!(f.counter.load(Ordering::SeqCst), 0, "no partial state left");
    let told = f.server.requests()[1]["messages"].to_string();
    assert!(
        told.contains("[status: compensated]") && told.contains("[status: skipped]"),
        "{told}"
    );
}

#[tokio::test]
async fn a_model_error_and_the_step_limit_end_the_turn_with_a_message() {
    let f = fixture(true).await;
    f.server.push(Script::Status(500, "out of memory".into()));
    let (events, outcome) = turn(&f, "hello", None).await;
    assert_eq!(outcome.stop, StopReason::ModelError);
    assert!(events.iter().any(
        |e| matches!(e, AgentEvent::Error { message, .. } if message.contains("out of memory"))
    ));

    let f = fixture(false).await;
    // Each step asks something new, so no repeat ends the turn early.
    for i in 0..deskmate_agent::MAX_STEPS {
        let arguments = format!(r#"{{"expression": "1+{i}"}}"#);
        f.server.push(Script::Json(completion(
            None,
            &[("calculator", arguments.as_str())],
        )));
    }
    let (_, outcome) = turn(&f, "keep adding, then tell me the total", None).await;
    assert_eq!(outcome.stop, StopReason::StepLimit);
    assert_eq!(outcome.steps, deskmate_agent::MAX_STEPS);
}

#[tokio::test]
async fn bad_turns_are_refused_before_anything_runs() {
    let f = fixture(false).await;
    let (tx, _rx) = mpsc::unbounded_channel();
    let cancel = CancellationToken::new();
    let empty = f
        .agent
        .chat(
            ChatTurn {
                message: "  ".into(),
                ..ChatTurn::default()
            },
            &tx,
            &cancel,
        )
        .await;
    assert!(matches!(empty, Err(ServiceError::Invalid(_))));
    for locale in ["", "zh CN", "<script>", &"x".repeat(36)] {
        let bad = f
            .agent
            .chat(
                ChatTurn {
                    message: "hi".into(),
                    locale: Some(locale.to_string()),
                    ..ChatTurn::default()
                },
                &tx,
                &cancel,
            )
            .await;
        match bad {
            Err(ServiceError::Invalid(errors)) => assert_eq!(errors[0].path, "/locale"),
            other => panic!("{locale:?}: {other:?}"),
        }
    }
    let unknown = f
        .agent
        .chat(
            ChatTurn {
                message: "hi".into(),
                model_id: Some("nope".into()),
                conversation_id: None,
                tools: None,
                locale: None,
                branch: None,
            },
            &tx,
            &cancel,
        )
        .await;
    assert!(matches!(
        unknown,
        Err(ServiceError::NotFound {
            what: "LLM Model",
            ..
        })
    ));
    let conversation = f
        .agent
        .chat(
            ChatTurn {
                message: "hi".into(),
                model_id: Some(f.model_id.clone()),
                conversation_id: Some("missing".into()),
                tools: None,
                locale: None,
                branch: None,
            },
            &tx,
            &cancel,
        )
        .await;
    assert!(matches!(
        conversation,
        Err(ServiceError::NotFound {
            what: "Conversation",
            ..
        })
    ));
    assert!(f.server.requests().is_empty());
}

/// Answers every confirmation the same way and counts them.
#[derive(Debug)]
struct Counting {
    approve: bool,
    asked: std::sync::atomic::AtomicUsize,
    last: std::sync::Mutex<Option<deskmate_service::hooks::ConfirmRequest>>,
}

#[async_trait::async_trait]
impl deskmate_service::hooks::Confirmer for Counting {
    async fn confirm(
        &self,
        request: deskmate_service::hooks::ConfirmRequest,
    ) -> deskmate_service::hooks::Confirmation {
        self.asked.fetch_add(1, Ordering::SeqCst);
        *self.last.lock().unwrap_or_else(|e| e.into_inner()) = Some(request);
        if self.approve {
            deskmate_service::hooks::Confirmation::Approved
        } else {
            deskmate_service::hooks::Confirmation::Denied
        }
    }
}

#[tokio::test]
async fn an_irreversible_call_in_a_batch_asks_once_for_the_whole_batch() {
    for approve in [true, false] {
        let sent = Arc::new(AtomicI64::new(0));
        let counter = sent.clone();
        let mut spec = write_spec("send_report", None);
        spec.side_effect = SideEffect::Irreversible;
        let send_report: Arc<dyn Tool> = Arc::new(FnTool::inline(spec, move |_: Value| {
            counter.fetch_add(1, Ordering::SeqCst);
            Ok(json!({"sent": true}))
        }));
        let confirmer = Arc::new(Counting {
            approve,
            asked: Default::default(),
            last: Default::default(),
        });
        let f = fixture_with(false, confirmer.clone(), vec![send_report]).await;
        f.server
            .push(Script::Json(completion(
                None,
                &[("counter_add", r#"{"delta": 3}"#), ("send_report", "{}")],
            )))
            .push(Script::Json(completion(Some("Done."), &[])));
        let (events, outcome) = turn(&f, "update the counter and send the report", None).await;
        assert_eq!(
            confirmer.asked.load(Ordering::SeqCst),
            1,
            "one question for the batch"
        );
        let question = confirmer
            .last
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone();
        assert!(question.is_some_and(|q| q.reason.en.contains("send_report cannot be undone")));
        let statuses: Vec<CallStatus> = results(&events).iter().map(|r| r.1).collect();
        if approve {
            assert_eq!(statuses, [CallStatus::Done, CallStatus::Done]);
            assert_eq!(
                (
                    f.counter.load(Ordering::SeqCst),
                    sent.load(Ordering::SeqCst)
                ),
                (3, 1)
            );
        } else {
            // Refused, not merely skipped: the model may only answer, the person is not
            // asked again, and its "Done." does not hide the refusal.
            assert_eq!(statuses, [CallStatus::Failed, CallStatus::Failed]);
            let requests = f.server.requests();
            assert_eq!(requests.len(), 2);
            assert_eq!(requests[1]["tool_choice"], "none");
            assert!(
                outcome.reply.starts_with("Done.\n")
                    && outcome.reply.contains("did not confirm this batch"),
                "{}",
                outcome.reply
            );
            assert_eq!(
                (
                    f.counter.load(Ordering::SeqCst),
                    sent.load(Ordering::SeqCst)
                ),
                (0, 0)
            );
            assert_eq!(results(&events)[0].2["error_type"], "denied");
        }
    }
}

/// A turn limited to some tools offers only those, and a call to another tool (even one
/// the registry has) is not run: not_found, with the offered tools as options.
#[tokio::test]
async fn a_turn_limited_to_some_tools_runs_no_other() {
    let f = fixture(false).await;
    f.server
        .push(Script::Json(completion(
            None,
            &[
                ("counter_add", r#"{"delta": 5}"#),
                ("calculator", r#"{"expression": "2+2"}"#),
            ],
        )))
        .push(Script::Json(completion(Some("Only the sum."), &[])));
    let (events, _) = f
        .agent
        .chat_collected(ChatTurn {
            message: "add 5 and compute 2+2".into(),
            tools: Some(vec!["calculator".into()]),
            locale: None,
            ..ChatTurn::default()
        })
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    let offered: Vec<String> = f.server.requests()[0]["tools"]
        .as_array()
        .map(|t| {
            t.iter()
                .filter_map(|d| d["function"]["name"].as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default();
    assert_eq!(offered, ["calculator"]);
    let results = results(&events);
    assert_eq!(results[0].1, CallStatus::Failed);
    assert_eq!(results[0].2["error_type"], "not_found", "{:?}", results[0]);
    assert_eq!(results[0].2["options"], json!(["calculator"]));
    assert_eq!(f.counter.load(Ordering::SeqCst), 0, "counter_add never ran");
    assert_eq!(results[1].1, CallStatus::Done);
    assert_eq!(results[1].2["data"]["result"], json!(4));
}

fn statuses(events: &[AgentEvent]) -> Vec<(String, CallStatus)> {
    results(events).into_iter().map(|r| (r.0, r.1)).collect()
}

/// A call that already succeeded in the turn is not run again, whether the model repeats
/// it in a later step (other spacing, other key order) or twice in one reply; the model is
/// told it was done and given the earlier result.
#[tokio::test]
async fn an_identical_successful_call_is_not_run_twice_in_a_turn() {
    let f = fixture(false).await;
    f.server
        .push(Script::Json(completion(
            None,
            &[("counter_add", r#"{"delta": 5}"#)],
        )))
        .push(Script::Json(completion(
            None,
            &[
                ("counter_add", r#"{ "delta" : 5 }"#),
                ("calculator", r#"{"expression": "1+1"}"#),
                ("calculator", r#"{"expression":"1+1"}"#),
            ],
        )))
        .push(Script::Json(completion(Some("Added 5; 1+1 is 2."), &[])));
    let (events, outcome) = turn(&f, "add 5 and compute 1+1", None).await;
    assert_eq!(f.counter.load(Ordering::SeqCst), 5, "the write ran once");
    assert_eq!(
        statuses(&events),
        [
            ("counter_add".to_string(), CallStatus::Done),
            ("counter_add".to_string(), CallStatus::Repeated),
            ("calculator".to_string(), CallStatus::Done),
            ("calculator".to_string(), CallStatus::Repeated),
        ]
    );
    let repeated = &results(&events)[1].2;
    assert_eq!(repeated["data"]["after"], json!(5), "the earlier result");
    let told = f.server.requests()[2]["messages"].to_string();
    assert!(told.contains("already done"), "{told}");
    assert_eq!(outcome.reply, "Added 5; 1+1 is 2.");
}

/// A model that only repeats what is already done gets no more requests: the results are
/// the reply.
#[tokio::test]
async fn a_step_of_only_repeated_calls_ends_the_turn_with_the_results() {
    let f = fixture(false).await;
    f.server.repeat(Script::Json(completion(
        None,
        &[("calculator", r#"{"expression": "17% of 2,340"}"#)],
    )));
    let (_, outcome) = turn(&f, "What is 17% of 2,340, and is that a lot?", None).await;
    assert_eq!(outcome.stop, StopReason::FromResults);
    assert_eq!(outcome.steps, 2);
    assert_eq!(outcome.reply, "17% of 2,340 = 397.8.");
}

/// A write whose arguments the guard rejects is still a write: it fails in its place and
/// the writes after it are skipped, as for any failed write.
#[tokio::test]
async fn an_invalid_write_stops_the_later_writes() {
    let f = fixture(false).await;
    f.server
        .push(Script::Json(completion(
            None,
            &[
                ("counter_add", r#"{"delta": "lots"}"#),
                ("calculator", r#"{"expression": "2+2"}"#),
                ("counter_add", r#"{"delta": 3}"#),
            ],
        )))
        .push(Script::Json(completion(Some("The delta was wrong."), &[])));
    let (events, _) = turn(&f, "add lots, then 3", None).await;
    assert_eq!(
        statuses(&events),
        [
            ("counter_add".to_string(), CallStatus::Failed),
            ("calculator".to_string(), CallStatus::Done),
            ("counter_add".to_string(), CallStatus::Skipped),
        ]
    );
    assert_eq!(results(&events)[0].2["error_type"], "validation");
    assert_eq!(
        f.counter.load(Ordering::SeqCst),
        0,
        "no write after the failed one"
    );
}

/// Calls written as text get ids unique in the conversation, so each saved result is tied
/// to its own call; the model is not told that its call was "repaired" from its text.
#[tokio::test]
async fn calls_extracted_from_text_get_ids_unique_in_the_conversation() {
    let f = fixture(false).await;
    let written = |expression: &str| {
        Script::Json(completion(
            Some(&format!(
                "```json\n{{\"name\": \"calculator\", \"arguments\": {{\"expression\": \"{expression}\"}}}}\n```"
            )),
            &[],
        ))
    };
    f.server
        .push(written("1/0"))
        .push(Script::Json(completion(Some("That divides by zero."), &[])))
        .push(written("2+3"))
        .push(Script::Json(completion(Some("2+3 is 5."), &[])));
    let (first, outcome) = turn(&f, "1/0?", None).await;
    let (second, _) = turn(&f, "2+3?", Some(outcome.conversation_id.clone())).await;
    let id = |events: &[AgentEvent]| {
        events
            .iter()
            .find_map(|e| match e {
                AgentEvent::ToolCall { id, .. } => Some(id.clone()),
                _ => None,
            })
            .unwrap_or_default()
    };
    let (a, b) = (id(&first), id(&second));
    assert!(!a.is_empty() && a != b, "{a} vs {b}");
    let store = f
        .deskmate
        .store()
        .cloned()
        .unwrap_or_else(|| panic!("store"));
    let saved = store
        .conversation_messages(&outcome.conversation_id, 100)
        .unwrap_or_default();
    for message in saved.iter().filter(|m| m["role"] == "tool") {
        let call_id = message["tool_call_id"].as_str().unwrap_or_default();
        let call = saved
            .iter()
            .flat_map(|m| m["tool_calls"].as_array().cloned().unwrap_or_default())
            .filter(|c| c["id"] == call_id)
            .collect::<Vec<_>>();
        assert_eq!(call.len(), 1, "{call_id} belongs to exactly one call");
        let expression = call[0]["function"]["arguments"].to_string();
        let content = message["content"].as_str().unwrap_or_default();
        if expression.contains("2+3") {
            assert!(content.contains('5'), "{content}");
        } else {
            assert!(content.contains("validation"), "{content}");
        }
        assert!(!content.contains("repaired"), "{content}");
    }
}

/// After a correct result the model's reply stands, an honest caveat and an apology
/// included (no list of refusal phrases judges it); a reply that is no answer (a call
/// written as text) is replaced by the result, and is never streamed.
#[tokio::test]
async fn the_models_reply_after_a_result_stands_unless_it_is_no_answer() {
    let f = fixture(true).await;
    let calculation = || {
        Script::sse(sse_body(&[json!({"choices": [{"delta": {"tool_calls": [{
            "index": 0, "id": "c1", "type": "function",
            "function": {"name": "calculator", "arguments": "{\"expression\": \"17% of 2,340\"}"}
        }]}, "finish_reason": "tool_calls"}]})]))
    };
    f.server.push(calculation()).push(Script::sse(sse_body(&[
        json!({"choices": [{"delta": {"content": "It's 397.8. I can't tell "}}]}),
        json!({"choices": [{"delta": {"content": "whether that is a lot, though."}, "finish_reason": "stop"}]}),
    ])));
    let (events, outcome) = turn(&f, "What is 17% of 2,340, and is that a lot?", None).await;
    assert_eq!(outcome.stop, StopReason::Answered);
    assert_eq!(
        outcome.reply,
        "It's 397.8. I can't tell whether that is a lot, though."
    );
    assert_eq!(tokens(&events), outcome.reply);
    let summary = events.iter().find_map(|e| match e {
        AgentEvent::ToolResult { summary, .. } => Some(summary.clone()),
        _ => None,
    });
    assert_eq!(summary.as_deref(), Some("17% of 2,340 = 397.8"));

    // A reply that writes the call out again is no answer: the result is.
    f.server.push(calculation()).push(Script::sse(sse_body(&[
        json!({"choices": [{"delta": {"content":
            "You can use `calculator(\"17% of 2340\")` for that."}, "finish_reason": "stop"}]}),
    ])));
    let (events, outcome) = turn(&f, "What is 17% of 2,340?", None).await;
    assert_eq!(outcome.stop, StopReason::FromResults);
    assert_eq!(outcome.reply, "17% of 2,340 = 397.8.");
    assert_eq!(tokens(&events), outcome.reply, "never streamed");

    // In Chinese, an apology that states the result stands.
    f.server
        .push(Script::sse(sse_body(&[json!({"choices": [{"delta": {"content":
            "<tool_call>\n{\"name\": \"calculator\", \"arguments\": {\"expression\": \"2+3\"}}\n</tool_call>"
        }, "finish_reason": "stop"}]})])))
        .push(Script::sse(sse_body(&[json!({"choices": [{"delta": {"content": "抱歉让你久等了，2+3 等于 5。"}, "finish_reason": "stop"}]})])));
    let (_, zh) = turn(&f, "算一下 2+3", None).await;
    assert_eq!(zh.stop, StopReason::Answered);
    assert_eq!(zh.reply, "抱歉让你久等了，2+3 等于 5。");
}

fn content(text: &str) -> Script {
    Script::Json(completion(Some(text), &[]))
}

/// With a llama.cpp server the reply is decoded under a grammar of the offered tools: the
/// request has no `tools` field but a `grammar` naming each tool, the tools are a
/// compact catalog in a system prompt that is the same for every conversation, several
/// actions come back as one list run in one step, and the results go back as one message.
#[tokio::test]
async fn a_constrained_model_gets_a_schema_of_the_tools_and_acts_in_one_group() {
    let f = constrained_fixture(false).await;
    f.server
        .push(content(
            r#"{"calls": [{"name": "counter_add", "arguments": {"delta": 2}}, {"name": "calculator", "arguments": {"expression": "6*7"}}]}"#,
        ))
        .push(content(r#"{"answer": "Added 2; 6*7 is 42."}"#));
    let (events, outcome) = turn(&f, "add 2 and compute 6*7", None).await;
    assert_eq!(outcome.reply, "Added 2; 6*7 is 42.");
    assert_eq!(outcome.steps, 2, "both calls in one step");
    assert_eq!(
        statuses(&events),
        [
            ("counter_add".to_string(), CallStatus::Done),
            ("calculator".to_string(), CallStatus::Done),
        ]
    );
    assert_eq!(f.counter.load(Ordering::SeqCst), 2);
    let requests = f.server.requests();
    let first = &requests[0];
    assert!(first.get("tools").is_none(), "{first}");
    let grammar = first["grammar"].as_str().unwrap_or_default();
    assert!(
        grammar.contains(r#""{\"name\":\"counter_add\",\"arguments\":""#)
            && grammar.contains(r#""{\"name\":\"calculator\",\"arguments\":""#)
            && grammar.contains(r#"\"answer\":" string"#),
        "{grammar}"
    );
    assert!(first.get("response_format").is_none(), "{first}");
    let system = first["messages"][0]["content"].as_str().unwrap_or_default();
    assert!(
        system.contains("- calculator(expression: string)"),
        "{system}"
    );
    // The results went back as one message the model reads, with the language to use.
    let second = requests[1]["messages"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let last = second.last().cloned().unwrap_or_default();
    assert_eq!(last["role"], "user");
    let text = last["content"].as_str().unwrap_or_default();
    assert!(
        text.contains("- counter_add: {\"after\":2") && text.contains("- calculator: "),
        "{text}"
    );
    assert_eq!(second[2]["role"], "assistant");

    // Another conversation starts with the same system prompt, byte for byte.
    f.server.push(content(r#"{"answer": "Hello!"}"#));
    let (_, hello) = turn(&f, "hi", None).await;
    assert_ne!(hello.conversation_id, outcome.conversation_id);
    let again = &f.server.requests()[2]["messages"][0]["content"];
    assert_eq!(again.as_str(), Some(system));
}

/// A request near a tool's everyday-words examples is shown them in the person's message,
/// before its words (a system message anywhere but first is one strict chat templates
/// reject), in every step of its turn; they are not stored, so the next turn (near none)
/// reads only the prompt, the earlier turn as said, and its message.
#[tokio::test]
async fn a_request_near_a_tools_examples_is_shown_them_just_before_it() {
    let f = constrained_fixture(false).await;
    f.server
        .push(content(
            r#"{"calls": [{"name": "calculator", "arguments": {"expression": "45*12"}}]}"#,
        ))
        .push(content(r#"{"done": true}"#))
        .push(content(r#"{"answer": "Hello!"}"#));
    let (_, outcome) = turn(&f, "帮我算算 45 乘以 12 得几", None).await;
    let requests = f.server.requests();
    for step in &requests[..2] {
        let messages = step["messages"].as_array().cloned().unwrap_or_default();
        let systems = messages.iter().filter(|m| m["role"] == "system").count();
        assert_eq!(
            (systems, &messages[0]["role"]),
            (1, &json!("system")),
            "{step}"
        );
        let shown = messages[1]["content"].as_str().unwrap_or_default();
        assert!(
            shown.starts_with("Examples like this request:\nUser: 45 乘以 12 得几 → "),
            "{shown}"
        );
        assert!(
            shown.ends_with("\n\nUser: 帮我算算 45 乘以 12 得几"),
            "{shown}"
        );
    }
    turn(&f, "hi", Some(outcome.conversation_id)).await;
    let next = f.server.requests()[2]["messages"].to_string();
    assert!(!next.contains("Examples like this request"), "{next}");
    assert!(next.contains("帮我算算 45 乘以 12 得几"), "{next}");
}

/// A constrained turn limited to some tools reads the catalog every turn reads (so the
/// server's cached prefix serves it) with a line naming what can be called, and its
/// grammar admits only those; a masked tool named anyway is not run.
#[tokio::test]
async fn a_constrained_turn_limited_to_some_tools_masks_the_others() {
    let f = constrained_fixture(false).await;
    f.server.push(content(r#"{"answer": "Hello!"}"#));
    turn(&f, "hi", None).await;
    f.server
        .push(content(
            r#"{"calls": [{"name": "counter_add", "arguments": {"delta": 5}}, {"name": "calculator", "arguments": {"expression": "2+2"}}]}"#,
        ))
        .push(content(r#"{"answer": "2+2 is 4."}"#));
    let (events, _) = f
        .agent
        .chat_collected(ChatTurn {
            message: "add 5 and compute 2+2".into(),
            tools: Some(vec!["calculator".into()]),
            locale: None,
            ..ChatTurn::default()
        })
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    let requests = f.server.requests();
    let every_turn = requests[0]["messages"][0]["content"]
        .as_str()
        .unwrap_or_default();
    let limited = requests[1]["messages"][0]["content"]
        .as_str()
        .unwrap_or_default();
    let line = limited
        .strip_prefix(every_turn)
        .unwrap_or_else(|| panic!("{limited}"));
    assert!(
        line.contains("Only these tools can be called now: calculator."),
        "{line}"
    );
    let grammar = requests[1]["grammar"].as_str().unwrap_or_default();
    assert!(
        grammar.contains("calculator") && !grammar.contains("counter_add"),
        "{grammar}"
    );
    let results = results(&events);
    assert_eq!(results[0].2["error_type"], "not_found", "{:?}", results[0]);
    assert_eq!(f.counter.load(Ordering::SeqCst), 0, "counter_add never ran");
    assert_eq!(results[1].1, CallStatus::Done);
}

/// A constrained answer streams as text, decoded from its JSON, never as JSON.
#[tokio::test]
async fn a_constrained_answer_streams_as_plain_text() {
    let f = constrained_fixture(true).await;
    // A first answer is shown a sentence at a time (`look_again`): two sentences, two
    // pieces at least.
    let pieces = [
        "{\"ans",
        "wer\": \"Why did",
        " the \\\"chicken\\\"",
        " cross? To get",
        " to the other side.\"}",
    ];
    f.server.push(streamed_text(&pieces));
    let (events, outcome) = turn(&f, "tell me a joke", None).await;
    assert_eq!(
        outcome.reply,
        "Why did the \"chicken\" cross? To get to the other side."
    );
    assert_eq!(tokens(&events), outcome.reply);
    let streamed = events
        .iter()
        .filter(|e| matches!(e, AgentEvent::Token { .. }))
        .count();
    assert!(
        streamed >= 2,
        "streamed in pieces, not at the end: {streamed}"
    );
}

/// A constrained reply's parts are sent as the turn's plan as each one is decoded, before
/// the calls are written: the window shows the plan while the model is still writing.
#[tokio::test]
async fn the_parts_are_sent_as_the_plan_as_each_is_decoded() {
    let f = constrained_fixture(true).await;
    let pieces = [
        r#"{"parts":[{"ask":"12*7","too"#,
        r#"l":"calculator"},{"ask":"a jo"#,
        r#"ke","tool":"none"}],"calls":[{"name":"calculator","#,
        r#""arguments":{"expression":"12*7"}}]}"#,
    ];
    f.server.push(streamed_text(&pieces)).push(streamed_text(&[
        r#"{"answer":"84. Why did the chicken cross?"}"#,
    ]));
    let (events, _) = turn(&f, "12*7 and a joke", None).await;
    let plans: Vec<Vec<(String, Option<String>)>> = events
        .iter()
        .filter_map(|e| match e {
            AgentEvent::Plan { parts } => Some(
                parts
                    .iter()
                    .map(|p| (p.ask.clone(), p.tool.clone()))
                    .collect(),
            ),
            _ => None,
        })
        .collect();
    assert_eq!(
        plans,
        [
            vec![("12*7".to_string(), Some("calculator".to_string()))],
            vec![
                ("12*7".to_string(), Some("calculator".to_string())),
                ("a joke".to_string(), None)
            ],
        ]
    );
    let first_plan = events
        .iter()
        .position(|e| matches!(e, AgentEvent::Plan { .. }));
    let first_call = events
        .iter()
        .position(|e| matches!(e, AgentEvent::ToolCall { .. }));
    assert!(first_plan < first_call, "{events:?}");
    // Only the first request's parts are the plan: the step after results sends none.
    assert_eq!(
        events
            .iter()
            .skip_while(|e| !matches!(e, AgentEvent::ToolResult { .. }))
            .filter(|e| matches!(e, AgentEvent::Plan { .. }))
            .count(),
        0
    );
}

/// Two calls that failed the same way and a retry that fixed one: the turn does not end
/// on the fixed one's result. The model is asked again, told which call is still not
/// fixed, and its fix runs; the reply then holds both results and no failure.
#[tokio::test]
async fn a_failed_call_a_retry_left_unfixed_is_named_to_the_model_again() {
    let f = constrained_fixture(false).await;
    let step = |calls: &[(&str, &str)]| {
        let calls: Vec<String> = calls
            .iter()
            .map(|(variable, by)| {
                format!(
                    r#"{{"name":"summarize_by_group","arguments":{{"dataset":"adsl","variable":"{variable}","group_by":"{by}"}}}}"#
                )
            })
            .collect();
        content(&format!(
            r#"{{"parts":[{{"ask":"AGE and BMIBL by treatment group","tool":"summarize_by_group"}}],"calls":[{}]}}"#,
            calls.join(",")
        ))
    };
    f.server
        .push(step(&[
            ("AGE", "treatment_group"),
            ("BMIBL", "treatment_group"),
        ]))
        .push(step(&[("AGE", "TRT01A")]))
        .push(step(&[("BMIBL", "TRT01A")]));
    let (events, outcome) = turn(&f, "AGE and BMIBL by treatment group in adsl", None).await;
    assert_eq!(
        statuses(&events),
        [
            ("summarize_by_group".to_string(), CallStatus::Failed),
            ("summarize_by_group".to_string(), CallStatus::Failed),
            ("summarize_by_group".to_string(), CallStatus::Done),
            ("summarize_by_group".to_string(), CallStatus::Done),
        ]
    );
    let requests = f.server.requests();
    assert_eq!(requests.len(), 3, "asked again after the partial fix");
    let told = requests[2]["messages"]
        .as_array()
        .and_then(|m| m.last())
        .and_then(|m| m["content"].as_str())
        .unwrap_or_default()
        .to_string();
    assert!(
        told.contains(
            r#"Not fixed yet: summarize_by_group {"dataset":"adsl","variable":"BMIBL","group_by":"treatment_group"}."#
        ),
        "{told}"
    );
    assert!(
        outcome.reply.contains("AGE") && outcome.reply.contains("BMIBL"),
        "{}",
        outcome.reply
    );
    assert!(
        !outcome.reply.contains("treatment_group"),
        "{}",
        outcome.reply
    );
}

/// A reply in the other language than the person's message: the model is asked which
/// language the person wants, and writes its reply again in it — unless it says the
/// person asked for the reply's own. The reply in the wrong language is never streamed.
#[tokio::test]
async fn a_reply_in_the_other_language_is_written_again_in_the_one_the_model_says_is_wanted() {
    let f = constrained_fixture(true).await;
    f.server
        .push(streamed_text(&[
            "{\"answer\": \"You're",
            " welcome! How can",
            " I help?\"}",
        ]))
        .push(content(r#"{"language":"Chinese"}"#))
        .push(content(r#"{"answer":"不客气！有什么可以帮你的？"}"#));
    let (events, outcome) = turn(&f, "谢谢啦", None).await;
    assert_eq!(outcome.reply, "不客气！有什么可以帮你的？");
    assert_eq!(
        tokens(&events),
        outcome.reply,
        "the English reply was not shown"
    );
    let requests = f.server.requests();
    assert_eq!(requests.len(), 3, "{requests:?}");
    // The choice is the model's, under a grammar of the two languages, on the same
    // system prompt.
    let grammar = requests[1]["grammar"].as_str().unwrap_or_default();
    assert!(grammar.contains(r#"("Chinese" | "English")"#), "{grammar}");
    assert_eq!(requests[1]["messages"][0], requests[0]["messages"][0]);
    let asked = requests[1]["messages"][1]["content"]
        .as_str()
        .unwrap_or_default();
    assert!(asked.contains("written in Chinese: \"谢谢啦\""), "{asked}");
    // The reply is written again after the model's own, as an answer only.
    let again = requests[2]["messages"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let n = again.len();
    assert_eq!(again[n - 2]["role"], "assistant");
    assert!(
        again[n - 2]["content"]
            .as_str()
            .is_some_and(|c| c.contains("You're welcome!")),
        "{again:?}"
    );
    assert_eq!(
        again[n - 1]["content"],
        "Reply to my message \"谢谢啦\" in Chinese, briefly."
    );
    let grammar = requests[2]["grammar"].as_str().unwrap_or_default();
    assert!(!grammar.contains("\"calls\""), "{grammar}");

    // The model says the person asked for English: the reply stays, one request more.
    f.server
        .push(streamed_text(&[
            r#"{"answer":"Why did the tomato blush? It saw the salad dressing."}"#,
        ]))
        .push(content(r#"{"language":"English"}"#));
    let (_, outcome) = turn(&f, "用英文给我讲个笑话", None).await;
    assert_eq!(
        outcome.reply,
        "Why did the tomato blush? It saw the salad dressing."
    );
    assert_eq!(f.server.requests().len(), 5);

    // A reply in the person's language, or one whose letters do not tell, asks nothing.
    f.server.push(streamed_text(&[r#"{"answer":"9801"}"#]));
    turn(&f, "99 乘 99 是不是 9801？", None).await;
    f.server.push(streamed_text(&[r#"{"answer":"你好！"}"#]));
    turn(&f, "你好", None).await;
    assert_eq!(f.server.requests().len(), 7);
}

/// `append_audit` needs no key from the model: the service derives it from the turn and
/// the event, so the event is recorded once per turn and again when asked again later.
#[tokio::test]
async fn an_audit_event_without_a_key_gets_one_from_the_turn() {
    let f = fixture(false).await;
    let call = || {
        Script::Json(completion(
            None,
            &[(
                "append_audit",
                r#"{"action": "ran QC checks", "dataset": "adsl"}"#,
            )],
        ))
    };
    // The audit record's line is the whole answer: each turn is one model request.
    f.server.push(call());
    let (first, outcome) = turn(&f, "log that I ran QC on adsl", None).await;
    f.server.push(call());
    let (second, _) = turn(
        &f,
        "log it again please",
        Some(outcome.conversation_id.clone()),
    )
    .await;
    let key = |events: &[AgentEvent]| {
        let r = results(events);
        assert_eq!(r[0].1, CallStatus::Done, "{:?}", r[0]);
        assert_eq!(r[0].2["data"]["recorded"], json!(true), "{:?}", r[0]);
        r[0].2["data"]["idem_key"]
            .as_str()
            .unwrap_or_default()
            .to_string()
    };
    let (a, b) = (key(&first), key(&second));
    assert!(
        a.starts_with("auto-") && b.starts_with("auto-") && a != b,
        "{a} {b}"
    );
    let journal = std::fs::read_to_string(f._dir.path().join("audit").join("dataset_audit.jsonl"))
        .unwrap_or_default();
    assert_eq!(journal.lines().count(), 2, "{journal}");
}

/// A call that failed in a way no other call can fix (the device is not there) settles
/// the turn: the next request lets the model only answer, and tells it not to call again.
#[tokio::test]
async fn after_a_missing_device_the_model_may_only_answer() {
    let missing: Arc<dyn Tool> = Arc::new(FnTool::inline(write_spec("beep", None), |_: Value| {
        Err(ToolError::not_found("no speaker is connected"))
    }));
    let server = ScriptedServer::start_llama_cpp(&["scripted"]).await;
    let f = fixture_on(server, false, Arc::new(PreApproved), vec![missing]).await;
    f.server
        .push(content(
            r#"{"calls":[{"name":"beep","arguments":{"delta":1}}]}"#,
        ))
        .push(content(
            r#"{"answer":"There is no speaker connected, so I could not beep."}"#,
        ));
    let (events, outcome) = turn(&f, "beep once", None).await;
    // What failed is told from the call's state, whatever the model wrote.
    assert_eq!(
        outcome.reply,
        "There is no speaker connected, so I could not beep.\nbeep failed: no speaker is connected."
    );
    assert_eq!(
        statuses(&events),
        [("beep".to_string(), CallStatus::Failed)]
    );
    let requests = f.server.requests();
    assert_eq!(requests.len(), 2);
    let first = requests[0]["grammar"].as_str().unwrap_or_default();
    let second = requests[1]["grammar"].as_str().unwrap_or_default();
    assert!(first.contains("beep"), "{first}");
    assert!(
        second.starts_with("root ::= answer") && !second.contains("beep"),
        "{second}"
    );
    let messages = requests[1]["messages"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let last = messages.last().cloned().unwrap_or_default();
    let text = last["content"].as_str().unwrap_or_default();
    assert!(text.contains("do not call it again"), "{text}");
}

/// A question the person left unanswered is not put to them again in the same turn: the
/// model's next step may only answer (its grammar offers no call), and says so.
#[tokio::test]
async fn a_question_nobody_answered_ends_the_calls_of_the_turn() {
    let asked = Arc::new(AtomicI64::new(0));
    let count = asked.clone();
    let question: Arc<dyn Tool> = Arc::new(FnTool::inline(
        ToolSpec {
            side_effect: SideEffect::Read,
            ..write_spec("ask_person", None)
        },
        move |_: Value| {
            count.fetch_add(1, Ordering::SeqCst);
            Err(ToolError::new(
                ErrorType::Timeout,
                "nobody chose within 60 s",
            ))
        },
    ));
    let server = ScriptedServer::start_llama_cpp(&["scripted"]).await;
    let f = fixture_on(server, false, Arc::new(PreApproved), vec![question]).await;
    f.server
        .push(content(
            r#"{"calls":[{"name":"ask_person","arguments":{}}]}"#,
        ))
        .push(content(r#"{"answer":"You did not choose, so I left it."}"#));
    let (events, outcome) = turn(&f, "ask me which one", None).await;
    assert_eq!(asked.load(Ordering::SeqCst), 1);
    assert_eq!(
        statuses(&events),
        [("ask_person".to_string(), CallStatus::Failed)]
    );
    assert!(
        outcome.reply.starts_with("You did not choose"),
        "{}",
        outcome.reply
    );
    let requests = f.server.requests();
    assert_eq!(requests.len(), 2);
    let second = requests[1]["grammar"].as_str().unwrap_or_default();
    assert!(
        second.starts_with("root ::= answer") && !second.contains("ask_person"),
        "{second}"
    );
}

/// With many tools enabled, a turn offers the built-in ones and only the user tools that
/// are relevant to the message, last in the catalog; the prompt every turn starts with
/// (the one kept warm) holds the built-in ones alone.
#[tokio::test]
async fn many_user_tools_are_preselected_by_relevance() {
    let f = constrained_fixture(false).await;
    let mut specs = vec![(
        "City weather".to_string(),
        "Current weather and forecast for a city.".to_string(),
    )];
    for i in 0..24 {
        specs.push((
            format!("Ledger entry {i}"),
            format!("Posts bookkeeping entry number {i} to the ledger."),
        ));
    }
    for (name, description) in specs {
        f.deskmate
            .create_resource(body(json!({
                "name": name, "description": description, "category": "query",
                "http_method": "GET", "http_url": "http://127.0.0.1:9/x/{q}",
                "parameter_schema": {"type": "object", "required": ["q"],
                                     "properties": {"q": {"type": "string"}}},
            })))
            .unwrap_or_else(|e| panic!("{e}"));
    }
    let all = f.agent.offered_tools(None).len();
    let core: Vec<String> = f
        .agent
        .chat_tools("")
        .into_iter()
        .map(|t| t.function.name)
        .collect();
    assert!(all > core.len() + 24, "{all} {core:?}");
    assert!(core.contains(&"calculator".to_string()), "{core:?}");
    assert!(
        !core
            .iter()
            .any(|t| t.contains("weather") || t.contains("ledger")),
        "{core:?}"
    );

    f.server.push(content(r#"{"answer":"Sunny."}"#));
    let (_, outcome) = turn(&f, "what's the weather in Paris tomorrow?", None).await;
    assert_eq!(outcome.reply, "Sunny.");
    let request = &f.server.requests()[0];
    let system = request["messages"][0]["content"]
        .as_str()
        .unwrap_or_default();
    let catalog = &system[system.find("Tools:").unwrap_or(0)..];
    let weather = catalog
        .find("- city_weather(")
        .unwrap_or_else(|| panic!("{catalog}"));
    assert!(
        catalog.find("- calculator(").is_some_and(|c| c < weather),
        "{catalog}"
    );
    assert!(!catalog.contains("ledger_entry"), "{catalog}");
    let grammar = request["grammar"].as_str().unwrap_or_default();
    assert!(grammar.contains("city_weather") && !grammar.contains("ledger_entry"));
}

/// The judgement of a call's part on its own, as a test sets it: dim_screen does a part
/// that names the screen (or follows a message that did), and nothing else.
fn screen_judge(request: &Value) -> Script {
    let names = |text: &str| text.to_lowercase().contains("screen");
    judging::answer(
        names(&judging::asked(request)) || judging::before(request).is_some_and(|b| names(&b)),
    )
}

/// A write whose part of the request, judged on its own, is not its tool's is put to the
/// person first (the model chose it as a stand-in for what was asked), not run on a no,
/// and the model may then only answer; a follow-up judged against it alone runs when the
/// judgement with the message before it gives it to the tool.
#[tokio::test]
async fn a_tool_the_person_did_not_ask_for_is_not_run() {
    let lamp = Arc::new(AtomicI64::new(0));
    let bump = lamp.clone();
    let dimmer: Arc<dyn Tool> = Arc::new(FnTool::inline(
        write_spec("dim_screen", None),
        move |_: Value| Ok(json!({"level": bump.fetch_add(1, Ordering::SeqCst) + 1})),
    ));
    let server = ScriptedServer::start_llama_cpp(&["scripted"]).await;
    server.judge_with(screen_judge);
    let confirmer = Arc::new(Counting {
        approve: false,
        asked: Default::default(),
        last: Default::default(),
    });
    let f = fixture_on(server, false, confirmer.clone(), vec![dimmer]).await;
    let call = r#"{"calls":[{"name":"dim_screen","arguments":{}}]}"#;
    f.server.push(content(call)).push(content(
        r#"{"answer":"I can't switch lights; I have no tool for them."}"#,
    ));
    let (events, outcome) = turn(&f, "switch off the kitchen lights", None).await;
    assert_eq!(lamp.load(Ordering::SeqCst), 0, "nothing ran");
    // The person was asked, and said no.
    assert_eq!(confirmer.asked.load(Ordering::SeqCst), 1);
    let question = confirmer
        .last
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .clone();
    assert!(question.is_some_and(|q| {
        q.tool == "dim_screen"
            && q.reason.en.contains(
                "“switch off the kitchen lights” does not read as something dim_screen does",
            )
            && q.reason.zh.contains("看起来不是 dim_screen 能做的事")
    }),);
    assert_eq!(
        judging::asked(&f.server.judgements()[0]),
        "switch off the kitchen lights"
    );
    assert_eq!(
        statuses(&events),
        [("dim_screen".to_string(), CallStatus::NotAsked)]
    );
    assert_eq!(
        outcome.reply,
        "I can't switch lights; I have no tool for them."
    );
    let requests = f.server.requests();
    let second = requests[1]["grammar"].as_str().unwrap_or_default();
    assert!(second.starts_with("root ::= answer"), "{second}");
    let told = requests[1]["messages"].to_string();
    assert!(
        told.contains("not run: the user did not ask for this"),
        "{told}"
    );
    assert!(told.contains("reply to the user's message"), "{told}");

    // Judged its tool's, it runs; a follow-up judged against it alone runs on the one
    // before.
    f.server
        .push(content(call))
        .push(content(r#"{"answer":"Dimmed."}"#))
        .push(content(call))
        .push(content(r#"{"answer":"Dimmed again."}"#));
    let (events, outcome) = turn(&f, "dim the SCREEN", outcome.conversation_id.into()).await;
    assert_eq!(
        statuses(&events),
        [("dim_screen".to_string(), CallStatus::Done)]
    );
    let (events, outcome) = turn(&f, "a bit more", outcome.conversation_id.into()).await;
    assert_eq!(
        statuses(&events),
        [("dim_screen".to_string(), CallStatus::Done)]
    );
    assert_eq!(lamp.load(Ordering::SeqCst), 2);
    assert_eq!(
        confirmer.asked.load(Ordering::SeqCst),
        1,
        "named: not asked"
    );

    // Judged against its tool, and confirmed by the person: it runs.
    let confirming = Arc::new(Counting {
        approve: true,
        asked: Default::default(),
        last: Default::default(),
    });
    let server = ScriptedServer::start_llama_cpp(&["scripted"]).await;
    server.judge_with(screen_judge);
    let dimmer: Arc<dyn Tool> = Arc::new(FnTool::inline(
        write_spec("dim_screen", None),
        |_: Value| Ok(json!({"level": 1})),
    ));
    let g = fixture_on(server, false, confirming.clone(), vec![dimmer]).await;
    g.server
        .push(content(call))
        .push(content(r#"{"done":true}"#));
    let (events, _) = turn(&g, "调暗一点", None).await;
    assert_eq!(
        statuses(&events),
        [("dim_screen".to_string(), CallStatus::Done)]
    );
    assert_eq!(confirming.asked.load(Ordering::SeqCst), 1);

    // With the parts listed, the words asked for are those of the parts whose calls did
    // not run, and of the parts no tool does, put as the person's question.
    f.server
        .push(content(
            r#"{"parts":[{"ask":"switch off the kitchen lights","tool":"dim_screen"},{"ask":"tell me a joke","tool":"none"}],"calls":[{"name":"dim_screen","arguments":{}}]}"#,
        ))
        .push(content(r#"{"answer":"I have no tool for lights. A joke: …"}"#));
    let (events, _) = turn(&f, "switch off the kitchen lights and tell me a joke", None).await;
    assert_eq!(
        statuses(&events),
        [("dim_screen".to_string(), CallStatus::NotAsked)]
    );
    let requests = f.server.requests();
    let last = &requests[requests.len() - 1];
    assert!(
        last["grammar"]
            .as_str()
            .is_some_and(|g| g.starts_with("root ::= answer")),
        "{last}"
    );
    let told = last["messages"]
        .as_array()
        .and_then(|m| m.last())
        .map(|m| m["content"].to_string())
        .unwrap_or_default();
    assert!(
        told.contains(
            r#"the user's question \"switch off the kitchen lights\", \"tell me a joke\""#
        ),
        "{told}"
    );
    drop(outcome);
}

/// A yes to "did you mean this?" says the person meant the tool, not that they accept
/// what its own policy asks about: a tool that asks first (irreversible) still puts its
/// own question, with its own reason, before it runs.
#[tokio::test]
async fn a_yes_to_did_you_mean_is_not_a_yes_to_the_tools_own_question() {
    let sent = Arc::new(AtomicI64::new(0));
    let counter = sent.clone();
    let mut spec = write_spec("send_invoice", None);
    spec.side_effect = SideEffect::Irreversible;
    let invoice: Arc<dyn Tool> = Arc::new(FnTool::inline(spec, move |_: Value| {
        counter.fetch_add(1, Ordering::SeqCst);
        Ok(json!({"sent": true}))
    }));
    let confirmer = Arc::new(Counting {
        approve: true,
        asked: Default::default(),
        last: Default::default(),
    });
    let server = ScriptedServer::start_llama_cpp(&["scripted"]).await;
    server.judge_with(|_| judging::answer(false));
    let f = fixture_on(server, false, confirmer.clone(), vec![invoice]).await;
    f.server
        .push(content(
            r#"{"calls":[{"name":"send_invoice","arguments":{}}]}"#,
        ))
        .push(content(r#"{"done":true}"#));
    let (events, _) = turn(&f, "bill the client for March", None).await;
    assert_eq!(
        statuses(&events),
        [("send_invoice".to_string(), CallStatus::Done)]
    );
    assert_eq!(sent.load(Ordering::SeqCst), 1);
    // Asked twice: "did you mean send_invoice?", then the tool's own question.
    assert_eq!(confirmer.asked.load(Ordering::SeqCst), 2);
    let last = confirmer
        .last
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .clone()
        .unwrap_or_else(|| panic!("nobody was asked"));
    assert!(
        !last.reason.en.contains("does not read as"),
        "the tool's own reason: {:?}",
        last.reason
    );
}

/// A read whose part is judged not its tool's is not run, and the model is told to say
/// honestly what no tool does; judged its tool's, it runs.
#[tokio::test]
async fn a_read_judged_not_to_do_its_part_is_not_run() {
    let read = Arc::new(AtomicI64::new(0));
    let count = read.clone();
    let clock: Arc<dyn Tool> = Arc::new(FnTool::inline(read_spec("clock"), move |_: Value| {
        count.fetch_add(1, Ordering::SeqCst);
        Ok(json!({"time": "10:00"}))
    }));
    let server = ScriptedServer::start_llama_cpp(&["scripted"]).await;
    server.judge_with(|request| judging::answer(!judging::asked(request).contains("rain")));
    let f = fixture_on(server, false, Arc::new(PreApproved), vec![clock]).await;
    let call = r#"{"parts":[{"ask":"will it rain tomorrow","tool":"clock"}],"calls":[{"name":"clock","arguments":{}}]}"#;
    f.server.push(content(call)).push(content(
        r#"{"answer":"I have no weather tool, so I can't tell."}"#,
    ));
    let (events, outcome) = turn(&f, "will it rain tomorrow", None).await;
    assert_eq!(read.load(Ordering::SeqCst), 0, "not run");
    assert_eq!(
        statuses(&events),
        [("clock".to_string(), CallStatus::NotAsked)]
    );
    assert_eq!(outcome.reply, "I have no weather tool, so I can't tell.");
    let judged = &f.server.judgements()[0];
    assert_eq!(
        (judging::asked(judged), judging::tool(judged)),
        ("will it rain tomorrow".to_string(), "clock".to_string())
    );
    // The question holds the part and the one tool, nothing of the conversation.
    assert_eq!(judged["messages"].as_array().map(Vec::len), Some(2));
    let told = f.server.requests()[1]["messages"].to_string();
    assert!(told.contains("clock does not do"), "{told}");
    assert!(told.contains("say so honestly"), "{told}");

    f.server
        .push(content(
            r#"{"parts":[{"ask":"the time","tool":"clock"}],"calls":[{"name":"clock","arguments":{}}]}"#,
        ))
        .push(content(r#"{"done":true}"#));
    let (events, _) = turn(&f, "the time", None).await;
    assert_eq!(statuses(&events), [("clock".to_string(), CallStatus::Done)]);
    assert_eq!(read.load(Ordering::SeqCst), 1);
}

/// An answer given without calls that states a figure nothing the model read holds is
/// looked at again: the same request once more, admitting only calls. Its call is taken
/// when judged to do its part, and the made-up figure is never shown; judged not to, the
/// first answer stands, shown whole. An answer saying back the person's own figure is
/// not looked at again, and a write thought of only the second time is put to the person.
#[tokio::test]
async fn an_answer_with_a_made_up_figure_is_looked_at_again() {
    let read = Arc::new(AtomicI64::new(0));
    let count = read.clone();
    let clock: Arc<dyn Tool> = Arc::new(FnTool::inline(read_spec("clock"), move |_: Value| {
        count.fetch_add(1, Ordering::SeqCst);
        Ok(json!({"time": "10:00"}))
    }));
    let confirmer = Arc::new(Counting {
        approve: true,
        asked: Default::default(),
        last: Default::default(),
    });
    let server = ScriptedServer::start_llama_cpp(&["scripted"]).await;
    server.judge_with(|request| judging::answer(!judging::asked(request).contains("Everest")));
    let f = fixture_on(server, true, confirmer.clone(), vec![clock]).await;
    let answer = |ask: &str, pieces: &[&str]| {
        let start = format!(r#"{{"parts":[{{"ask":"{ask}","tool":"none"}}],"answer":""#);
        let mut all = vec![start.as_str()];
        all.extend(pieces);
        all.push(r#""}"#);
        streamed_text(&all)
    };
    let call = |ask: &str, tool: &str, arguments: &str| {
        streamed_text(&[&format!(
            r#"{{"parts":[{{"ask":"{ask}","tool":"{tool}"}}],"calls":[{{"name":"{tool}","arguments":{arguments}}}]}}"#
        )])
    };

    // Made up, and a tool does it: the call is taken.
    f.server
        .push(answer(
            "the time in Rome",
            &["Sure. ", "It is 3:00 PM ", "in Rome."],
        ))
        .push(call("the time in Rome", "clock", "{}"));
    let (events, _) = turn(&f, "what's the time in Rome?", None).await;
    assert_eq!(statuses(&events), [("clock".to_string(), CallStatus::Done)]);
    assert_eq!(read.load(Ordering::SeqCst), 1);
    let shown = tokens(&events);
    assert!(
        !shown.contains("3:00"),
        "the made-up time was shown: {shown:?}"
    );
    let requests = f.server.requests();
    let grammar = |i: usize| {
        requests[i]["grammar"]
            .as_str()
            .unwrap_or_default()
            .to_string()
    };
    assert!(grammar(0).contains("answer"), "{}", grammar(0));
    assert!(
        !grammar(1).contains("answer"),
        "only calls the second time: {}",
        grammar(1)
    );
    assert_eq!(
        requests[0]["messages"], requests[1]["messages"],
        "the same request, looked at again"
    );
    assert_eq!(
        confirmer.asked.load(Ordering::SeqCst),
        0,
        "a read is not asked about"
    );

    // Made up, but the call the model thinks of is judged not to do the part: the first
    // answer is the reply, and it is shown.
    f.server
        .push(answer("how tall Everest is", &["It is 8,849 m ", "tall."]))
        .push(call("how tall Everest is", "clock", "{}"));
    let (events, outcome) = turn(&f, "how tall is Everest?", None).await;
    assert!(statuses(&events).is_empty());
    assert_eq!(read.load(Ordering::SeqCst), 1, "not run");
    assert_eq!(outcome.reply, "It is 8,849 m tall.");
    assert_eq!(tokens(&events), "It is 8,849 m tall.");

    // The person's own figure said back: no second look.
    let before = f.server.requests().len();
    f.server.push(answer("remember 40", &["OK, 40."]));
    let (_, outcome) = turn(&f, "remember 40", None).await;
    assert_eq!(outcome.reply, "OK, 40.");
    assert_eq!(f.server.requests().len(), before + 1);

    // A write thought of the second time is the person's to confirm.
    f.server
        .push(answer("add two to the counter", &["Done, it is now 2."]))
        .push(call(
            "add two to the counter",
            "counter_add",
            r#"{"delta":2}"#,
        ));
    let (events, _) = turn(&f, "add two to the counter", None).await;
    assert_eq!(
        statuses(&events),
        [("counter_add".to_string(), CallStatus::Done)]
    );
    assert_eq!(f.counter.load(Ordering::SeqCst), 2);
    assert_eq!(confirmer.asked.load(Ordering::SeqCst), 1);
    let question = confirmer
        .last
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .clone()
        .unwrap_or_else(|| panic!("nobody was asked"));
    assert_eq!(
        question.reason.en,
        "“add two to the counter”: shall counter_add do it?"
    );
}

/// After results the model is always asked, under a grammar that admits more calls, a
/// text answer, or "done": it says when the turn is finished. "done" makes the reply of
/// the results' lines; a part that needs words gets words; a result can feed the next
/// call; a first step of two calls can be followed by a third.
#[tokio::test]
async fn the_model_says_when_the_turn_is_done() {
    let f = constrained_fixture(false).await;
    let calc = |e: &str| {
        format!(r#"{{"calls":[{{"name":"calculator","arguments":{{"expression":"{e}"}}}}]}}"#)
    };
    f.server
        .push(content(&calc("17% of 2,340")))
        .push(content(r#"{"done":true}"#));
    let (_, outcome) = turn(&f, "What is 17% of 2,340?", None).await;
    assert_eq!(outcome.reply, "17% of 2,340 = 397.8.");
    assert_eq!(outcome.stop, StopReason::FromResults);
    let requests = f.server.requests();
    assert_eq!(requests.len(), 2);
    let grammar = |i: usize| {
        f.server.requests()[i]["grammar"]
            .as_str()
            .unwrap_or_default()
            .to_string()
    };
    assert!(grammar(1).contains(r#"{\"done\":true}"#), "{}", grammar(1));
    assert!(!grammar(0).contains("done"), "{}", grammar(0));

    // Words for the part no tool answers.
    f.server
        .push(content(&calc("12*7")))
        .push(content(r#"{"answer":"12*7 is 84, and 84 is even."}"#));
    let (_, outcome) = turn(&f, "what is 12*7 and is it even", None).await;
    assert_eq!(outcome.reply, "12*7 is 84, and 84 is even.");
    assert_eq!(outcome.stop, StopReason::Answered);

    // A result feeds the next call, then the model is done.
    f.server
        .push(content(&calc("12*7")))
        .push(content(
            r#"{"calls":[{"name":"counter_add","arguments":{"delta":84}}]}"#,
        ))
        .push(content(r#"{"done":true}"#));
    let (events, outcome) = turn(&f, "compute 12 times 7 then add that to the counter", None).await;
    assert_eq!(f.counter.load(Ordering::SeqCst), 84);
    assert_eq!(
        statuses(&events),
        [
            ("calculator".to_string(), CallStatus::Done),
            ("counter_add".to_string(), CallStatus::Done)
        ]
    );
    assert_eq!(outcome.reply.lines().count(), 2, "{}", outcome.reply);

    // Two calls first, a third after them.
    f.server
        .push(content(
            r#"{"calls":[{"name":"calculator","arguments":{"expression":"2+2"}},{"name":"calculator","arguments":{"expression":"3+3"}}]}"#,
        ))
        .push(content(
            r#"{"calls":[{"name":"current_time","arguments":{}}]}"#,
        ))
        .push(content(r#"{"done":true}"#));
    let (_, outcome) = turn(&f, "2+2, 3+3 and the time", None).await;
    let lines: Vec<&str> = outcome.reply.lines().collect();
    assert_eq!(lines.len(), 3, "{}", outcome.reply);
    assert!(lines[2].starts_with("It is "), "{}", outcome.reply);

    // The results message names the request and what "done" means.
    let requests = f.server.requests();
    let told = requests[1]["messages"]
        .as_array()
        .and_then(|m| m.last())
        .and_then(|m| m["content"].as_str())
        .unwrap_or_default()
        .to_string();
    assert!(
        told.contains(r#"The user's request: "What is 17% of 2,340?""#),
        "{told}"
    );
    assert!(told.contains(r#"reply {"done":true}"#), "{told}");
}

/// "Twice" is twice: an identical call of a tool that is not idempotent runs again in the
/// same reply; an identical read is answered once.
#[tokio::test]
async fn the_same_write_twice_in_one_reply_runs_twice() {
    let f = constrained_fixture(false).await;
    f.server
        .push(content(
            r#"{"calls":[{"name":"counter_add","arguments":{"delta":1}},{"name":"counter_add","arguments":{"delta":1}}]}"#,
        ))
        .push(content(r#"{"done":true}"#));
    let (events, _) = turn(&f, "add one to the counter twice", None).await;
    assert_eq!(f.counter.load(Ordering::SeqCst), 2);
    assert_eq!(
        statuses(&events),
        [
            ("counter_add".to_string(), CallStatus::Done),
            ("counter_add".to_string(), CallStatus::Done)
        ]
    );
    f.server
        .push(content(
            r#"{"calls":[{"name":"calculator","arguments":{"expression":"1+1"}},{"name":"calculator","arguments":{"expression":"1+1"}}]}"#,
        ))
        .push(content(r#"{"done":true}"#));
    let (events, _) = turn(&f, "1+1 twice", None).await;
    assert_eq!(
        statuses(&events),
        [
            ("calculator".to_string(), CallStatus::Done),
            ("calculator".to_string(), CallStatus::Repeated)
        ]
    );
}

/// A spec of a test tool that only reads.
fn read_spec(id: &str) -> ToolSpec {
    ToolSpec {
        side_effect: SideEffect::Read,
        idempotent: true,
        description: format!("Test read tool {id}."),
        parameters: json!({"type": "object", "additionalProperties": false, "properties": {}}),
        ..write_spec(id, None)
    }
}

/// A read after a write in one reply sees what the write did: reads next to each other run
/// together, never past a write.
#[tokio::test]
async fn a_read_never_overtakes_a_write_it_follows() {
    let value = Arc::new(AtomicI64::new(0));
    let written = value.clone();
    let slow_write: Arc<dyn Tool> = Arc::new(FnTool::blocking(
        write_spec("slow_write", None),
        move |_: Value| {
            std::thread::sleep(std::time::Duration::from_millis(300));
            Ok(json!({"after": written.fetch_add(1, Ordering::SeqCst) + 1}))
        },
    ));
    let seen = value.clone();
    let read_value: Arc<dyn Tool> =
        Arc::new(FnTool::inline(read_spec("read_value"), move |_: Value| {
            Ok(json!({"value": seen.load(Ordering::SeqCst)}))
        }));
    let server = ScriptedServer::start_llama_cpp(&["scripted"]).await;
    let f = fixture_on(
        server,
        false,
        Arc::new(PreApproved),
        vec![slow_write, read_value],
    )
    .await;
    f.server
        .push(content(
            r#"{"calls":[{"name":"read_value","arguments":{}},{"name":"slow_write","arguments":{"delta":1}},{"name":"read_value","arguments":{}}]}"#,
        ))
        .push(content(r#"{"done":true}"#));
    let (events, _) = turn(&f, "read it, write it, read it again", None).await;
    let read: Vec<Value> = results(&events)
        .into_iter()
        .filter(|r| r.0 == "read_value")
        .map(|r| r.2["data"]["value"].clone())
        .collect();
    assert_eq!(read, [json!(0), json!(1)], "{events:?}");
}

/// Stopping a turn while a write runs: the write ends and is undone, what had not started
/// is not run, and every call saved with the turn has its result (a strict server
/// rejects a conversation with a call that has none).
#[tokio::test]
async fn a_turn_stopped_during_a_write_saves_every_result_and_undoes_the_write() {
    let value = Arc::new(AtomicI64::new(0));
    let written = value.clone();
    // The turn is stopped once the write has started (not after a fixed time, which a
    // loaded machine's model reply may outlast).
    let started = Arc::new(tokio::sync::Notify::new());
    let starting = started.clone();
    let slow_add: Arc<dyn Tool> = Arc::new(FnTool::blocking(
        write_spec("slow_add", Some("slow_add")),
        move |args: Value| {
            let delta = args["delta"].as_i64().unwrap_or(0);
            if delta > 0 {
                starting.notify_one();
                std::thread::sleep(std::time::Duration::from_millis(400));
            }
            let after = written.fetch_add(delta, Ordering::SeqCst) + delta;
            Ok(json!({"after": after, "undo": {"delta": -delta}}))
        },
    ));
    let server = ScriptedServer::start_llama_cpp(&["scripted"]).await;
    let f = fixture_on(server, false, Arc::new(PreApproved), vec![slow_add]).await;
    f.server.push(content(
        r#"{"calls":[{"name":"slow_add","arguments":{"delta":5}},{"name":"counter_add","arguments":{"delta":1}}]}"#,
    ));
    let (tx, _rx) = mpsc::unbounded_channel();
    let cancel = CancellationToken::new();
    let stop = cancel.clone();
    tokio::spawn(async move {
        started.notified().await;
        stop.cancel();
    });
    let outcome = f
        .agent
        .chat(
            ChatTurn {
                message: "add 5 slowly and 1 to the counter".into(),
                ..ChatTurn::default()
            },
            &tx,
            &cancel,
        )
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(outcome.stop, StopReason::Cancelled);
    assert_eq!(
        value.load(Ordering::SeqCst),
        0,
        "the write in flight was undone"
    );
    assert_eq!(
        f.counter.load(Ordering::SeqCst),
        0,
        "the next write never ran"
    );
    let store = f.deskmate.store().unwrap_or_else(|| panic!("a store"));
    let saved = store
        .conversation_messages(&outcome.conversation_id, 100)
        .unwrap_or_else(|e| panic!("{e}"));
    let called: Vec<String> = saved
        .iter()
        .flat_map(|m| m["tool_calls"].as_array().cloned().unwrap_or_default())
        .filter_map(|c| c["id"].as_str().map(str::to_string))
        .collect();
    let answered: Vec<String> = saved
        .iter()
        .filter_map(|m| m["tool_call_id"].as_str().map(str::to_string))
        .collect();
    assert_eq!(called.len(), 2, "{saved:?}");
    assert_eq!(called, answered, "every call has its result");
}

/// A server that could not tell what it is (llama.cpp still loading its model answers
/// `/props` with 503) is asked again at the next turn, not taken for another kind until
/// restart.
#[tokio::test]
async fn a_server_still_loading_is_probed_again() {
    let server = ScriptedServer::start_llama_cpp(&["scripted"]).await;
    server.set_loading(true);
    let f = fixture_on(server, false, Arc::new(PreApproved), Vec::new()).await;
    f.server.push(content("Hello!"));
    turn(&f, "hi", None).await;
    // Asked once per turn: the turn's protocol and its history are decided by one answer.
    assert_eq!(f.server.probed(), 1);
    f.server.set_loading(false);
    f.server.push(content(r#"{"answer":"Hello again!"}"#));
    let (_, outcome) = turn(&f, "hi again", None).await;
    assert_eq!(outcome.reply, "Hello again!");
    let requests = f.server.requests();
    assert!(requests[0].get("grammar").is_none(), "native while loading");
    assert!(
        requests[1]["grammar"].is_string(),
        "constrained once loaded"
    );
}

/// After a turn too large for what the context leaves, the next turn folds it whole into
/// a summary that still says what the person asked, so a follow-up finds its subject. What
/// counts is what is sent of a turn: its calls and results are never sent again, so a turn
/// of many calls with a short reply fits, and a long reply is what makes it too large.
#[tokio::test]
async fn the_history_window_holds_whole_turns() {
    let f = constrained_fixture(false).await;
    let many: Vec<String> = (0..8)
        .map(|i| format!(r#"{{"name":"calculator","arguments":{{"expression":"10+{i}"}}}}"#))
        .collect();
    let calls = format!(r#"{{"calls":[{}]}}"#, many.join(","));
    f.server
        .push(content(&calls))
        .push(content(r#"{"answer":"They are 10 to 17."}"#));
    let (_, first) = turn(&f, "the first question", None).await;
    // Many calls, a short reply: the next turn reads it whole, without its calls.
    f.server.push(content(r#"{"answer":"ok"}"#));
    turn(&f, "and the second?", Some(first.conversation_id.clone())).await;
    let last = f
        .server
        .requests()
        .last()
        .cloned()
        .unwrap_or_default()
        .to_string();
    assert!(last.contains("They are 10 to 17."), "{last}");
    assert!(!last.contains("10+7"), "calls are not sent again: {last}");

    // A reply longer than what the context leaves: folded whole into a summary.
    let long: Vec<String> = (0..6000).map(|i| format!("w{i}")).collect();
    f.server
        .push(content(&calls))
        .push(content(&format!(r#"{{"answer":"{}"}}"#, long.join(" "))));
    turn(&f, "the long one", Some(first.conversation_id.clone())).await;
    f.server
        .push(content(
            "The user asked the first question and the long one; 8 sums were computed.",
        ))
        .push(content(r#"{"answer":"ok"}"#));
    turn(&f, "and now?", Some(first.conversation_id.clone())).await;
    let requests = f.server.requests();
    let summary = requests[requests.len() - 2].to_string();
    assert!(summary.contains("User: the long one"), "{summary}");
    let last = requests.last().cloned().unwrap_or_default().to_string();
    assert!(last.contains("the long one"), "{last}");
    assert!(
        !last.contains("w5999"),
        "the long turn is folded whole: {last}"
    );
}

/// A confirmer that never answers, and says when it was asked.
#[derive(Debug, Default)]
struct Silent {
    asked: tokio::sync::Notify,
}

#[async_trait::async_trait]
impl deskmate_service::hooks::Confirmer for Silent {
    async fn confirm(
        &self,
        _: deskmate_service::hooks::ConfirmRequest,
    ) -> deskmate_service::hooks::Confirmation {
        self.asked.notify_one();
        std::future::pending().await
    }
}

/// Runs `message` and stops it once `waiting` is done (the turn is then waiting where
/// the test says); the turn's outcome, or `None` when it did not end within 10 s.
async fn stopped_turn(
    f: &Fixture,
    message: &str,
    conversation: Option<String>,
    waiting: impl std::future::Future<Output = ()> + Send + 'static,
) -> Option<deskmate_agent::ChatOutcome> {
    let (tx, _rx) = mpsc::unbounded_channel();
    let cancel = CancellationToken::new();
    let stop = cancel.clone();
    tokio::spawn(async move {
        waiting.await;
        stop.cancel();
    });
    let turn = f.agent.chat(
        ChatTurn {
            message: message.into(),
            conversation_id: conversation,
            ..ChatTurn::default()
        },
        &tx,
        &cancel,
    );
    tokio::time::timeout(std::time::Duration::from_secs(10), turn)
        .await
        .ok()
        .map(|outcome| outcome.unwrap_or_else(|e| panic!("{e}")))
}

/// Stop is heard while a question waits for the person (nothing runs) and while the
/// earlier turns are folded into a summary (a request to the model).
#[tokio::test]
async fn stop_is_heard_during_a_question_and_while_history_is_fitted() {
    let ran = Arc::new(AtomicI64::new(0));
    let count = ran.clone();
    let dimmer: Arc<dyn Tool> = Arc::new(FnTool::inline(
        write_spec("dim_screen", None),
        move |_: Value| {
            count.fetch_add(1, Ordering::SeqCst);
            Ok(json!({"level": 1}))
        },
    ));
    let server = ScriptedServer::start_llama_cpp(&["scripted"]).await;
    server.judge_with(screen_judge);
    let silent = Arc::new(Silent::default());
    let f = fixture_on(server, false, silent.clone(), vec![dimmer]).await;
    f.server.push(content(
        r#"{"calls":[{"name":"dim_screen","arguments":{}}]}"#,
    ));
    let asked = async move { silent.asked.notified().await };
    let outcome = stopped_turn(&f, "make it darker", None, asked)
        .await
        .unwrap_or_else(|| panic!("the turn went on waiting for the person"));
    assert_eq!(outcome.stop, StopReason::Cancelled);
    assert_eq!(ran.load(Ordering::SeqCst), 0);

    // A turn too large for the context, then one whose summary request never ends.
    let long: Vec<String> = (0..6000).map(|i| format!("w{i}")).collect();
    f.server
        .push(content(&format!(r#"{{"answer":"{}"}}"#, long.join(" "))));
    let (_, first) = turn(&f, "the long one", None).await;
    f.server.push(Script::Stall);
    // Stopped once the summary request has reached the server.
    let before = f.server.requests().len();
    let server = f.server.clone();
    let summarizing = async move {
        while server.requests().len() <= before {
            tokio::time::sleep(std::time::Duration::from_millis(10)).await;
        }
    };
    let outcome = stopped_turn(&f, "and now?", Some(first.conversation_id), summarizing)
        .await
        .unwrap_or_else(|| panic!("the turn went on fitting the history"));
    assert_eq!(outcome.stop, StopReason::Cancelled);
}

/// A turn that ends on the same failing call twice still tells what succeeded before:
/// the person reads the results' lines (the failure once), not "I could not do this".
#[tokio::test]
async fn a_repeated_failure_after_a_success_still_tells_the_success() {
    let f = constrained_fixture(false).await;
    f.server
        .push(content(
            r#"{"calls":[{"name":"calculator","arguments":{"expression":"12*7"}}]}"#,
        ))
        .push(content(
            r#"{"calls":[{"name":"calculator","arguments":{"expression":"1/0"}}]}"#,
        ))
        .push(content(
            r#"{"calls":[{"name":"calculator","arguments":{"expression":"1/0"}}]}"#,
        ));
    let (_, outcome) = turn(&f, "12*7 then 1/0", None).await;
    assert_eq!(outcome.stop, StopReason::RepeatedFailure);
    assert!(outcome.reply.contains("84"), "{}", outcome.reply);
    assert!(
        !outcome.reply.contains("I could not do this"),
        "{}",
        outcome.reply
    );
    assert_eq!(
        outcome.reply.matches("division by zero").count(),
        1,
        "the failure is told once: {}",
        outcome.reply
    );
}

/// The same failing call twice ends the turn even when the model spells it another way
/// (the guard's normalized call is the key).
#[tokio::test]
async fn a_respelled_failing_call_counts_as_the_same() {
    let f = constrained_fixture(false).await;
    f.server
        .push(content(
            r#"{"calls":[{"name":"sas_round_rate","arguments":{"numerator":1,"denominator":0,"decimals":"2"}}]}"#,
        ))
        .push(content(
            r#"{"calls":[{"name":"sas_round_rate","arguments":{"decimals":2,"numerator":1,"denominator":0}}]}"#,
        ));
    let (_, outcome) = turn(&f, "round 1/0 to 2 decimals", None).await;
    assert_eq!(
        outcome.stop,
        StopReason::RepeatedFailure,
        "{}",
        outcome.reply
    );
}

/// A constrained reply cut at the token limit inside its calls runs none of them, and the
/// person reads why instead of a fragment of JSON.
#[tokio::test]
async fn a_call_cut_at_the_token_limit_runs_nothing_and_says_why() {
    let f = constrained_fixture(false).await;
    f.server.push(Script::Json(json!({
        "id": "c", "object": "chat.completion", "model": "scripted",
        "choices": [{"index": 0, "finish_reason": "length", "message": {"role": "assistant",
            "content": "{\"calls\":[{\"name\":\"counter_add\",\"arguments\":{\"delta\":1"}}],
    })));
    let (events, outcome) = turn(&f, "add 1+2+3+…+100 to the counter", None).await;
    assert!(results(&events).is_empty(), "{events:?}");
    assert_eq!(f.counter.load(Ordering::SeqCst), 0);
    assert_eq!(outcome.stop, StopReason::CutShort);
    assert!(outcome.reply.contains("length limit"), "{}", outcome.reply);
    assert!(!outcome.reply.contains('{'), "{}", outcome.reply);
    assert!(tokens(&events).contains("length limit"), "{events:?}");

    // Cut after a step that ran: what ran is told, then why nothing more did.
    f.server
        .push(content(
            r#"{"calls":[{"name":"counter_add","arguments":{"delta":2}}]}"#,
        ))
        .push(Script::Json(json!({
            "id": "c", "object": "chat.completion", "model": "scripted",
            "choices": [{"index": 0, "finish_reason": "length", "message": {"role": "assistant",
                "content": "{\"calls\":[{\"name\":\"calculator\",\"arguments\":{\"expression\":\"1+2+"}}],
        })));
    let (_, outcome) = turn(&f, "add 2 to the counter, then sum 1 to 100", None).await;
    assert_eq!(f.counter.load(Ordering::SeqCst), 2);
    assert_eq!(outcome.stop, StopReason::CutShort);
    let (ran, why) = outcome.reply.split_once('\n').unwrap_or_default();
    assert!(
        !ran.is_empty() && why.contains("length limit"),
        "{}",
        outcome.reply
    );
}

/// After a call failed for a passing reason (the tool said it was busy) the model is told
/// to call it again as it was; after a wrong call, to fix it with the error's hint.
#[tokio::test]
async fn a_passing_failure_is_called_again_and_a_wrong_call_is_fixed() {
    let f = constrained_fixture(false).await;
    f.server
        .push(content(
            r#"{"calls":[{"name":"fail_write","arguments":{}}]}"#,
        ))
        .push(content(r#"{"answer":"The device is busy."}"#));
    turn(&f, "run the fail write", None).await;
    f.server
        .push(content(
            r#"{"calls":[{"name":"calculator","arguments":{"expression":"2+"}}]}"#,
        ))
        .push(content(r#"{"answer":"That expression is incomplete."}"#));
    turn(&f, "what is 2+?", None).await;
    let told = |i: usize| -> String {
        let requests = f.server.requests();
        requests[i]["messages"]
            .as_array()
            .and_then(|m| m.last())
            .and_then(|m| m["content"].as_str())
            .unwrap_or_default()
            .to_string()
    };
    let busy = told(1);
    assert!(busy.contains("call it again as it was"), "{busy}");
    let wrong = told(3);
    assert!(
        wrong.contains("fix it with the error's hint") && !wrong.contains("as it was"),
        "{wrong}"
    );
}

/// A branched turn with the scripted model.
async fn branched(
    f: &Fixture,
    message: &str,
    conversation: &str,
    branch: deskmate_agent::Branch,
) -> Result<deskmate_agent::ChatOutcome, ServiceError> {
    f.agent
        .chat_collected(ChatTurn {
            message: message.into(),
            model_id: None,
            conversation_id: Some(conversation.into()),
            tools: None,
            locale: None,
            branch: Some(branch),
        })
        .await
        .map(|(_, outcome)| outcome)
}

/// The texts the chat shows, and the seq of the entry with `text`.
fn shown(f: &Fixture, conversation: &str) -> Vec<(i64, String)> {
    use deskmate_agent::ChatEntry;
    f.agent
        .conversation(conversation)
        .unwrap_or_else(|e| panic!("{e}"))
        .entries
        .iter()
        .map(|e| match e {
            ChatEntry::User { seq, text } | ChatEntry::Assistant { seq, text } => {
                (*seq, text.clone())
            }
            ChatEntry::Tool { seq, name, .. } => (*seq, format!("[{name}]")),
            other => panic!("{other:?}"),
        })
        .collect()
}

/// Editing an earlier message makes a branch (the model reads the history before it);
/// the old branch stays and shows again when chosen; regenerating a reply makes a sibling
/// of it, and a write of the regenerated turn runs again through the guard; a branch of
/// a message that is not the person's, or of another conversation, is refused.
#[tokio::test]
async fn edits_and_regenerations_are_branches_and_the_old_ones_stay() {
    use deskmate_agent::Branch;
    let f = fixture(false).await;
    f.server
        .push(content("2"))
        .push(content("4"))
        .push(content("6"));
    let (_, first) = turn(&f, "what is 1+1", None).await;
    let c = first.conversation_id.clone();
    turn(&f, "what is 2+2", Some(c.clone())).await;
    let texts = |f: &Fixture| shown(f, &c).into_iter().map(|(_, t)| t).collect::<Vec<_>>();
    assert_eq!(texts(&f), ["what is 1+1", "2", "what is 2+2", "4"]);
    let asked = shown(&f, &c)[2].0;

    branched(&f, "what is 3+3", &c, Branch::Edit(asked))
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    let sent = f
        .server
        .requests()
        .last()
        .map(|r| r["messages"].to_string())
        .unwrap_or_default();
    assert!(
        sent.contains("what is 1+1") && !sent.contains("what is 2+2"),
        "{sent}"
    );
    assert_eq!(texts(&f), ["what is 1+1", "2", "what is 3+3", "6"]);
    let detail = f.agent.conversation(&c).unwrap_or_else(|e| panic!("{e}"));
    let edited = shown(&f, &c)[2].0;
    assert_eq!(detail.branches.len(), 1, "{:?}", detail.branches);
    assert_eq!(
        (
            detail.branches[0].seq,
            detail.branches[0].index,
            detail.branches[0].count
        ),
        (edited, 2, 2)
    );
    assert_eq!(detail.branches[0].siblings, [asked, edited]);

    // Back to the first branch, then a new reply to its question.
    f.agent
        .show_branch(&c, asked)
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(texts(&f), ["what is 1+1", "2", "what is 2+2", "4"]);
    f.server
        .push(Script::Json(completion(
            None,
            &[("counter_add", r#"{"delta": 2}"#)],
        )))
        .push(content("added 2"));
    branched(&f, "", &c, Branch::Regenerate(asked))
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    let sent = f.server.requests()[f.server.requests().len() - 2]["messages"].to_string();
    assert!(
        sent.contains("what is 2+2") && !sent.contains("\"4\""),
        "{sent}"
    );
    assert_eq!(
        texts(&f),
        [
            "what is 1+1",
            "2",
            "what is 2+2",
            "[counter_add]",
            "added 2"
        ]
    );
    let detail = f.agent.conversation(&c).unwrap_or_else(|e| panic!("{e}"));
    let reply = shown(&f, &c)[3].0;
    assert!(
        detail
            .branches
            .iter()
            .any(|b| b.seq == reply && b.count == 2),
        "{:?}",
        detail.branches
    );
    // Regenerated again: the write runs again, through the guard.
    f.server
        .push(Script::Json(completion(
            None,
            &[("counter_add", r#"{"delta": 2}"#)],
        )))
        .push(content("added 2 again"));
    branched(&f, "", &c, Branch::Regenerate(asked))
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(f.counter.load(Ordering::SeqCst), 4);

    // Refused: an assistant message, a message of another conversation, no conversation.
    let (_, other) = {
        f.server.push(content("hi"));
        turn(&f, "hello", None).await
    };
    let foreign = shown(&f, &other.conversation_id)[0].0;
    let before = f.server.requests().len();
    for (branch, conversation) in [
        (Branch::Edit(reply), c.clone()),
        (Branch::Regenerate(foreign), c.clone()),
        (Branch::Edit(i64::MAX), c.clone()),
    ] {
        let refused = branched(&f, "x", &conversation, branch).await;
        assert!(
            matches!(refused, Err(ServiceError::Invalid(_))),
            "{refused:?}"
        );
    }
    let refused = f
        .agent
        .chat_collected(ChatTurn {
            message: "x".into(),
            model_id: None,
            conversation_id: None,
            tools: None,
            locale: None,
            branch: Some(Branch::Edit(asked)),
        })
        .await;
    assert!(matches!(refused, Err(ServiceError::Invalid(_))));
    assert!(matches!(
        f.agent.show_branch(&c, foreign),
        Err(ServiceError::NotFound { .. })
    ));
    assert_eq!(
        f.server.requests().len(),
        before,
        "nothing was asked of the model"
    );
}

/// `forget_item`: forgets an id in `known` (recording it in `forgotten`); any other id
/// fails "there is no item", with `item-1` and `item-2` as its options.
fn forget_items(
    known: &'static [&'static str],
    forgotten: &Arc<std::sync::Mutex<Vec<String>>>,
) -> Arc<dyn Tool> {
    let seen = forgotten.clone();
    Arc::new(FnTool::inline(
        ToolSpec {
            parameters: json!({"type": "object", "additionalProperties": false,
                               "required": ["id"],
                               "properties": {"id": {"type": "string"}}}),
            ..write_spec("forget_item", None)
        },
        move |args: Value| {
            let id = args["id"].as_str().unwrap_or_default().to_string();
            if !known.contains(&id.as_str()) {
                return Err(ToolError::not_found(format!("there is no item '{id}'"))
                    .with_hint("use one of the items there are")
                    .with_options(["item-1", "item-2"]));
            }
            seen.lock()
                .unwrap_or_else(|e| panic!("{e}"))
                .push(id.clone());
            Ok(json!({"forgot": id}))
        },
    ))
}

/// A call its tool answered with the values that exist ("there is no schedule
/// 'water_reminder'", with the ids there are) is tried again under a grammar that admits
/// only those values for the argument that was wrong: the model picks one, it cannot make
/// the same guess twice (which ended the turn on a repeated failure).
#[tokio::test]
async fn a_guessed_value_is_held_to_the_errors_options_on_the_next_try() {
    let forgotten = Arc::new(std::sync::Mutex::new(Vec::new()));
    let forget = forget_items(&["item-1", "item-2"], &forgotten);
    let server = ScriptedServer::start_llama_cpp(&["scripted"]).await;
    let f = fixture_on(server, false, Arc::new(PreApproved), vec![forget]).await;
    f.server
        .push(content(
            r#"{"calls":[{"name":"forget_item","arguments":{"id":"groceries"}}]}"#,
        ))
        .push(content(
            r#"{"calls":[{"name":"forget_item","arguments":{"id":"item-2"}}]}"#,
        ))
        .push(content(r#"{"done":true}"#));
    let (events, _) = turn(&f, "forget the groceries item", None).await;
    assert_eq!(
        statuses(&events),
        [
            ("forget_item".to_string(), CallStatus::Failed),
            ("forget_item".to_string(), CallStatus::Done)
        ]
    );
    assert_eq!(
        *forgotten.lock().unwrap_or_else(|e| panic!("{e}")),
        ["item-2"]
    );
    let requests = f.server.requests();
    assert_eq!(requests.len(), 3);
    let grammar = |i: usize| {
        requests[i]["grammar"]
            .as_str()
            .unwrap_or_default()
            .to_string()
    };
    // The first request leaves the id free; the next ones admit only the two ids.
    assert!(!grammar(0).contains("item-1"), "{}", grammar(0));
    for i in [1, 2] {
        assert!(
            grammar(i).contains(r#"\"item-1\""#) && grammar(i).contains(r#"\"item-2\""#),
            "{}",
            grammar(i)
        );
    }
}

/// A tool that fails with the values that exist, and the model answers instead of trying
/// one ("I could not find that item"): the model gets one more try whose grammar admits
/// only a call of that tool with one of those values.
/// Its answer was never shown; the try's call runs, and the turn ends on its result.
#[tokio::test]
async fn a_model_that_gives_up_on_named_values_gets_one_more_try_limited_to_them() {
    let forgotten = Arc::new(std::sync::Mutex::new(Vec::new()));
    let forget = forget_items(&["item-1", "item-2"], &forgotten);
    let server = ScriptedServer::start_llama_cpp(&["scripted"]).await;
    let f = fixture_on(server, false, Arc::new(PreApproved), vec![forget]).await;
    f.server
        .push(content(
            r#"{"calls":[{"name":"forget_item","arguments":{"id":"groceries"}}]}"#,
        ))
        .push(content(r#"{"answer":"I could not find that item."}"#))
        .push(content(
            r#"{"calls":[{"name":"forget_item","arguments":{"id":"item-2"}}]}"#,
        ))
        .push(content(r#"{"done":true}"#));
    let (events, outcome) = turn(&f, "forget the groceries item", None).await;
    assert_eq!(
        statuses(&events),
        [
            ("forget_item".to_string(), CallStatus::Failed),
            ("forget_item".to_string(), CallStatus::Done)
        ]
    );
    assert_eq!(
        *forgotten.lock().unwrap_or_else(|e| panic!("{e}")),
        ["item-2"]
    );
    assert!(
        !outcome.reply.contains("could not find"),
        "{}",
        outcome.reply
    );
    let shown: String = events
        .iter()
        .filter_map(|e| match e {
            AgentEvent::Token { text } => Some(text.as_str()),
            _ => None,
        })
        .collect();
    assert!(!shown.contains("could not find"), "{shown}");
    let requests = f.server.requests();
    assert_eq!(requests.len(), 4);
    let last_user = |i: usize| {
        requests[i]["messages"]
            .as_array()
            .and_then(|m| m.iter().rev().find(|m| m["role"] == "user"))
            .and_then(|m| m["content"].as_str())
            .unwrap_or_default()
            .to_string()
    };
    // The give-up's request may answer; the try's may only call, with a named id.
    let grammar = |i: usize| {
        requests[i]["grammar"]
            .as_str()
            .unwrap_or_default()
            .to_string()
    };
    assert!(grammar(1).contains(r#"\"answer\":"#), "{}", grammar(1));
    assert!(!grammar(2).contains(r#"\"answer\":"#), "{}", grammar(2));
    assert!(
        grammar(2).contains(r#"\"item-1\""#) && grammar(2).contains(r#"\"item-2\""#),
        "{}",
        grammar(2)
    );
    assert!(
        last_user(2).contains("Call forget_item again now"),
        "{}",
        last_user(2)
    );
}

/// A model that gives up twice on named values is not pressed a third time: its answer
/// after the one more try is the reply.
#[tokio::test]
async fn one_more_try_on_named_values_is_made_once() {
    let forgotten = Arc::new(std::sync::Mutex::new(Vec::new()));
    let forget = forget_items(&[], &forgotten);
    let server = ScriptedServer::start_llama_cpp(&["scripted"]).await;
    let f = fixture_on(server, false, Arc::new(PreApproved), vec![forget]).await;
    f.server
        .push(content(
            r#"{"calls":[{"name":"forget_item","arguments":{"id":"groceries"}}]}"#,
        ))
        .push(content(r#"{"answer":"No such item."}"#))
        .push(content(
            r#"{"calls":[{"name":"forget_item","arguments":{"id":"item-1"}}]}"#,
        ))
        .push(content(r#"{"answer":"Neither item could be forgotten."}"#));
    let (_, outcome) = turn(&f, "forget the groceries item", None).await;
    assert!(
        outcome
            .reply
            .starts_with("Neither item could be forgotten."),
        "{}",
        outcome.reply
    );
    assert_eq!(f.server.requests().len(), 4);
}

/// What a request shows the model of its own earlier replies, in order.
fn assistant_said(request: &Value) -> Vec<&str> {
    request["messages"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|m| m["role"] == "assistant")
        .filter_map(|m| m["content"].as_str())
        .collect()
}

/// The model pads its list of the request's parts: the words of a tool's part again as a
/// part no tool does ("12*7" beside "what's 12*7 all told"), the same words under
/// another tool. Neither is a request of its own: the calls that did the tool's part
/// end the turn, with no step asking for words about the arguments.
#[tokio::test]
async fn pieces_and_repeats_in_the_models_list_are_not_requests_of_their_own() {
    for listed in [
        r#"{"parts":[{"ask":"what's 12*7 all told","tool":"calculator"},{"ask":"12*7","tool":"none"}],"calls":[{"name":"calculator","arguments":{"expression":"12*7"}}]}"#,
        r#"{"parts":[{"ask":"what's 12*7 all told","tool":"calculator"},{"ask":"What's 12*7 all told","tool":"counter_add"}],"calls":[{"name":"calculator","arguments":{"expression":"12*7"}}]}"#,
    ] {
        let f = constrained_fixture(false).await;
        f.server.push(content(listed));
        let (_, outcome) = turn(&f, "what's 12*7 all told", None).await;
        assert_eq!(
            outcome.stop,
            StopReason::FromResults,
            "{listed}: {}",
            outcome.reply
        );
        assert_eq!(outcome.steps, 1, "{listed}");
        assert_eq!(f.server.requests().len(), 1, "{listed}");
        assert!(outcome.reply.contains("84"), "{}", outcome.reply);
        assert_eq!(f.counter.load(Ordering::SeqCst), 0, "{listed}");
    }
}

/// The model lists the parts of the request before its calls. When each part got a
/// call that succeeded with a result that says all of itself, the results are the reply
/// and the model is not asked again; a part left without a call, or a result only the
/// model can word (a tool that says nothing), goes back to the model with its plan shown
/// as it wrote it.
#[tokio::test]
async fn calls_that_cover_every_listed_part_end_the_turn_without_asking_again() {
    let f = constrained_fixture(false).await;
    f.server.push(content(
        r#"{"parts":[{"ask":"12*7","tool":"calculator"},{"ask":"2^10","tool":"calculator"}],"calls":[{"name":"calculator","arguments":{"expression":"12*7"}},{"name":"calculator","arguments":{"expression":"2^10"}}]}"#,
    ));
    let (_, outcome) = turn(&f, "12*7 and 2^10", None).await;
    assert_eq!(outcome.stop, StopReason::FromResults, "{}", outcome.reply);
    assert_eq!(outcome.steps, 1);
    assert!(
        outcome.reply.contains("12*7 = 84") && outcome.reply.contains("2^10 = 1024"),
        "{}",
        outcome.reply
    );
    let first = &f.server.requests()[0];
    assert!(
        first["grammar"]
            .as_str()
            .unwrap_or_default()
            .contains("parts"),
        "the first step's grammar asks for the parts: {first}"
    );
    // The next turn shows the model the earlier turn as it was said: the person's message
    // and the reply they read, not the calls behind it (a small model copies the last
    // call into the next question).
    f.server.push(content(
        r#"{"parts":[{"ask":"thanks","tool":"none"}],"answer":"You're welcome."}"#,
    ));
    let (_, thanks) = turn(&f, "thanks", Some(outcome.conversation_id.clone())).await;
    assert_eq!(thanks.reply, "You're welcome.");
    let next = &f.server.requests()[1];
    let earlier = assistant_said(next);
    assert_eq!(earlier.len(), 1, "{next}");
    assert_eq!(
        earlier[0],
        json!({ "answer": outcome.reply }).to_string(),
        "the earlier turn is its reply, not its calls: {next}"
    );

    // A part no tool does: the model is asked again for its words, reading its plan as it
    // wrote it. Its tools' parts are done, so it is asked for those words alone: no tool is
    // offered, "done" neither, and the results message names the part owed.
    let f = constrained_fixture(false).await;
    let planned = r#"{"parts":[{"ask":"12*7","tool":"calculator"},{"ask":"is it even?","tool":"none"}],"calls":[{"name":"calculator","arguments":{"expression":"12*7"}}]}"#;
    f.server
        .push(content(planned))
        .push(content(r#"{"answer":"12*7 is 84, and it is even."}"#));
    let (_, outcome) = turn(&f, "what is 12*7, and is it even?", None).await;
    assert_eq!(outcome.steps, 2, "{}", outcome.reply);
    assert_eq!(outcome.stop, StopReason::Answered);
    let second = &f.server.requests()[1];
    assert_eq!(assistant_said(second), [planned], "{second}");
    let grammar = second["grammar"].as_str().unwrap_or_default();
    assert!(
        grammar.contains(r#"\"answer\":"#)
            && !grammar.contains("calculator")
            && !grammar.contains("done"),
        "{grammar}"
    );
    // The results are the last message (examples near the request may come before it).
    let told = second["messages"]
        .as_array()
        .and_then(|m| m.last())
        .and_then(|m| m["content"].as_str())
        .unwrap_or_default();
    assert!(
        told.starts_with("Tool results:")
            && told.contains(r#""is it even?""#)
            && !told.contains(r#"{"done""#),
        "{told}"
    );

    // Words owed and a tool's part not done yet: calls stay offered (a result may feed
    // the next call), "done" is not.
    let f = constrained_fixture(false).await;
    f.server
        .push(content(
            r#"{"parts":[{"ask":"12*7","tool":"calculator"},{"ask":"add it to the counter","tool":"counter_add"},{"ask":"is it even?","tool":"none"}],"calls":[{"name":"calculator","arguments":{"expression":"12*7"}}]}"#,
        ))
        .push(content(
            r#"{"parts":[{"ask":"add it to the counter","tool":"counter_add"},{"ask":"is it even?","tool":"none"}],"calls":[{"name":"counter_add","arguments":{"delta":84}}]}"#,
        ))
        .push(content(r#"{"answer":"84 is even."}"#));
    let (_, outcome) = turn(&f, "12*7, add it to the counter, is it even?", None).await;
    assert_eq!(outcome.steps, 3, "{}", outcome.reply);
    assert_eq!(f.counter.load(Ordering::SeqCst), 84);
    let grammar = |i: usize| {
        f.server.requests()[i]["grammar"]
            .as_str()
            .unwrap_or_default()
            .to_string()
    };
    assert!(
        grammar(1).contains("counter_add") && !grammar(1).contains("done"),
        "{}",
        grammar(1)
    );
    assert!(!grammar(2).contains("counter_add"), "{}", grammar(2));

    // Words owed, and the model only repeats a call that is done: asked for its words.
    let f = constrained_fixture(false).await;
    let again = r#"{"parts":[{"ask":"2+2","tool":"calculator"},{"ask":"is it even?","tool":"none"}],"calls":[{"name":"calculator","arguments":{"expression":"2+2"}}]}"#;
    f.server
        .push(content(
            r#"{"parts":[{"ask":"2+2","tool":"calculator"},{"ask":"2+3","tool":"calculator"},{"ask":"is it even?","tool":"none"}],"calls":[{"name":"calculator","arguments":{"expression":"2+2"}}]}"#,
        ))
        .push(content(again))
        .push(content(r#"{"answer":"4 is even."}"#));
    let (_, outcome) = turn(&f, "2+2 and 2+3, is the first even?", None).await;
    assert_eq!(outcome.steps, 3, "{}", outcome.reply);
    assert!(outcome.reply.contains("4 is even."), "{}", outcome.reply);
    assert!(!grammar(2).contains("calculator"), "{}", grammar(2));

    // Two parts the calculator does, one call: the second part is still open.
    let f = constrained_fixture(false).await;
    f.server
        .push(content(
            r#"{"parts":[{"ask":"12*7","tool":"calculator"},{"ask":"2^10","tool":"calculator"}],"calls":[{"name":"calculator","arguments":{"expression":"12*7"}}]}"#,
        ))
        .push(content(r#"{"answer":"12*7 = 84, 2^10 = 1024."}"#));
    let (_, outcome) = turn(&f, "12*7 and 2^10", None).await;
    assert_eq!(outcome.steps, 2, "{}", outcome.reply);

    // A part whose named tool was not the one called: not covered.
    let f = constrained_fixture(false).await;
    f.server
        .push(content(
            r#"{"parts":[{"ask":"what time is it","tool":"current_time"}],"calls":[{"name":"calculator","arguments":{"expression":"12*7"}}]}"#,
        ))
        .push(content(r#"{"answer":"Sorry."}"#));
    let (_, outcome) = turn(&f, "what time is it", None).await;
    assert_eq!(outcome.steps, 2, "{}", outcome.reply);

    // One part, one call whose tool says nothing of its result: the model words it.
    let f = constrained_fixture(false).await;
    f.server
        .push(content(
            r#"{"parts":[{"ask":"add 2","tool":"counter_add"}],"calls":[{"name":"counter_add","arguments":{"delta":2}}]}"#,
        ))
        .push(content(r#"{"answer":"Added 2."}"#));
    let (_, outcome) = turn(&f, "add 2", None).await;
    assert_eq!(outcome.steps, 2, "{}", outcome.reply);
}

/// A turn on another branch (an edit of an earlier message) looks up the turns before it
/// on its own branch, not the ones the conversation's head shows.
#[tokio::test]
async fn an_edited_turn_looks_up_the_turns_of_its_own_branch() {
    use deskmate_agent::Branch;
    let f = fixture(false).await;
    f.server
        .push(Script::Json(completion(Some("4711 is 7 × 673."), &[])))
        .push(Script::Json(completion(Some("135 is odd."), &[])))
        .push(Script::Json(completion(Some("9 is odd."), &[])));
    let (_, first) = turn(&f, "What is special about 4711?", None).await;
    let c = first.conversation_id.clone();
    turn(&f, "Is 135 even or odd?", Some(c.clone())).await;
    turn(&f, "And 9?", Some(c.clone())).await;
    // "Is 135 even or odd?" edited: the branch holds only the first turn before it.
    let asked = shown(&f, &c)[2].0;
    f.server
        .push(Script::Json(completion(
            None,
            &[("conversation_history", r#"{"count": 10}"#)],
        )))
        .push(Script::Json(completion(Some("You asked about 4711."), &[])));
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
    f.agent
        .chat(
            ChatTurn {
                message: "What did I ask before this?".into(),
                conversation_id: Some(c.clone()),
                branch: Some(Branch::Edit(asked)),
                ..ChatTurn::default()
            },
            &tx,
            &CancellationToken::new(),
        )
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    drop(tx);
    let mut events = Vec::new();
    while let Ok(event) = rx.try_recv() {
        events.push(event);
    }
    let looked = results(&events);
    assert_eq!(looked[0].1, CallStatus::Done, "{looked:?}");
    let data = &looked[0].2["data"];
    assert_eq!(data["total_turns"], 1, "{data}");
    assert_eq!(
        data["turns"][0]["user"], "What is special about 4711?",
        "{data}"
    );
}

#[tokio::test]
async fn an_earlier_turn_is_looked_up_by_its_number_in_the_turns_conversation() {
    let f = fixture(false).await;
    // A conversation's first turn has no earlier turns: the tool is not offered.
    f.server
        .push(Script::Json(completion(Some("4711 is 7 × 673."), &[])));
    let (_, first) = turn(&f, "What is special about the number 4711?", None).await;
    let offered = |request: &Value| -> Vec<String> {
        request["tools"]
            .as_array()
            .map(|t| {
                t.iter()
                    .filter_map(|t| t["function"]["name"].as_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default()
    };
    let requests = f.server.requests();
    assert!(offered(&requests[0]).contains(&"calculator".to_string()));
    assert!(
        !offered(&requests[0]).contains(&"conversation_history".to_string()),
        "{:?}",
        offered(&requests[0])
    );
    let conversation = Some(first.conversation_id.clone());
    f.server
        .push(Script::Json(completion(Some("135 is odd."), &[])));
    turn(&f, "Is 135 even or odd?", conversation.clone()).await;
    f.server
        .push(Script::Json(completion(
            None,
            &[("conversation_history", r#"{"turn": 1, "count": 1}"#)],
        )))
        .push(Script::Json(completion(
            Some("You first asked about 4711."),
            &[],
        )));
    let (events, outcome) =
        turn(&f, "What was the first number I asked about?", conversation).await;
    let looked = results(&events);
    assert_eq!(
        (looked[0].0.as_str(), looked[0].1),
        ("conversation_history", CallStatus::Done),
        "{looked:?}"
    );
    let turns = &looked[0].2["data"]["turns"];
    assert_eq!(turns.as_array().map(Vec::len), Some(1), "{turns}");
    assert_eq!(turns[0]["turn"], 1);
    assert_eq!(turns[0]["user"], "What is special about the number 4711?");
    assert_eq!(turns[0]["reply"], "4711 is 7 × 673.");
    assert_eq!(looked[0].2["data"]["total_turns"], 2);
    assert_eq!(outcome.reply, "You first asked about 4711.");
}
