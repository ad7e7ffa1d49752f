//! The evaluator end to end on hand-made model outputs with known answers: a scripted
//! OpenAI-compatible server answers each case's requests in order, the cases run through
//! the real agent loop and guard, and every metric is checked against what the outputs
//! must give.

use std::time::Duration;

use deskmate_autotest::eval::{self, CaseCategory, EvalOptions, parse_suite};
use deskmate_service::Deskmate;
use deskmate_testkit::{Script, ScriptedServer, completion, judging};
use serde_json::json;

/// A typed request body from JSON, as the API reads it.
fn body<T: deskmate_service::body::Body>(json: serde_json::Value) -> T {
    T::read(&json).unwrap_or_else(|e| panic!("{e:?}"))
}

/// A service in a fresh data dir with the scripted server registered as a model (its id).
fn scripted_service(server: &ScriptedServer) -> (tempfile::TempDir, Deskmate, String) {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let deskmate = Deskmate::open(dir.path()).unwrap_or_else(|e| panic!("{e}"));
    let created = deskmate
        .create_model::<deskmate_service::models::LlmModel>(body(
            json!({"name": "Scripted", "base_url": server.base_url(),
                                  "model": "scripted", "streaming": false}),
        ))
        .unwrap_or_else(|e| panic!("{e}"));
    let model_id = created.id;
    (dir, deskmate, model_id)
}

fn line(value: serde_json::Value) -> String {
    value.to_string()
}

fn case(
    id: &str,
    category: &str,
    message: &str,
    tools: serde_json::Value,
    expect: serde_json::Value,
) -> serde_json::Value {
    let mut case = json!({"id": id, "category": category, "lang": "en",
           "messages": [{"role": "user", "content": message}],
           "tools": tools, "expect": expect});
    // The suite's rule: a reply to a request no tool does has a claim it must not make.
    if category == "irrelevance" {
        case["reply_avoids"] = json!(["volume is now"]);
    }
    case
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_metric_on_known_outputs() {
    let server = ScriptedServer::start(&["scripted"]).await;
    // The per-call judgement: "thanks!" is no request for the volume; every other case's
    // call does what its message asks.
    server.judge_with(|request| judging::answer(judging::asked(request) != "thanks!"));
    let volume = json!(["increase_volume", "decrease_volume"]);
    let up20 = json!([{"tool": "increase_volume", "args": {"step": [20]}}]);
    let times = json!([
        {"tool": "current_time", "args": {"timezone": ["Asia/Tokyo"]}},
        {"tool": "current_time", "args": {"timezone": ["Europe/London"]}}
    ]);
    let mut recovery = case(
        "recovery",
        "error_recovery",
        "what time is it in Beijing?",
        json!(["current_time"]),
        json!([{"tool": "current_time", "args": {"timezone": ["Asia/Shanghai"]}}]),
    );
    recovery["fail_first"] = json!({"tool": "current_time", "error_type": "validation",
        "message": "unknown timezone", "hint": "use an IANA name such as Asia/Shanghai"});
    let mut atomic = case(
        "atomic",
        "atomicity",
        "volume up 20 and camera on",
        json!(["increase_volume", "turn_on_camera"]),
        json!([{"tool": "increase_volume", "args": {"step": [20]}}, {"tool": "turn_on_camera", "args": {"index": [null, 0]}}]),
    );
    atomic["fail_first"] = json!({"tool": "turn_on_camera", "error_type": "transient", "message": "the camera is busy"});
    let mut retry = atomic.clone();
    retry["id"] = json!("atomic-retry");
    let suite = [
        // 1. Right call, valid as emitted.
        case(
            "exact",
            "simple",
            "volume up by 20",
            volume.clone(),
            up20.clone(),
        ),
        // 2. Wrong type ("20%" for an integer): the guard repairs it, raw fails.
        case(
            "repaired",
            "malformed",
            "volume up by 20%",
            volume.clone(),
            up20.clone(),
        ),
        // 3. Two calls in the other order.
        case(
            "order",
            "parallel",
            "time in Tokyo and London?",
            json!(["current_time"]),
            times.clone(),
        ),
        // 4. An extra call.
        case(
            "extra",
            "simple",
            "volume up by 20",
            volume.clone(),
            up20.clone(),
        ),
        // 5. No call where one was needed.
        case(
            "none",
            "simple",
            "volume up by 20",
            volume.clone(),
            up20.clone(),
        ),
        // 6. A call where none fits.
        case(
            "irrelevant-call",
            "irrelevance",
            "thanks!",
            volume.clone(),
            json!([]),
        ),
        // 7. No call where none fits.
        case(
            "irrelevant-ok",
            "irrelevance",
            "thanks!",
            volume.clone(),
            json!([]),
        ),
        // 8. A tool that does not exist.
        case(
            "phantom",
            "simple",
            "volume up by 20",
            volume.clone(),
            up20.clone(),
        ),
        // 9. Error recovery: the scripted failure, then the corrected call.
        recovery,
        // 10. Atomicity: the camera fails after the volume went up: it is put back.
        atomic,
        // 11. The failure comes first: the other write is skipped; the model then redoes
        //     both on purpose in a later step, which is no partial state.
        retry,
        // 12. The model never answers: the case times out.
        case(
            "stall",
            "simple",
            "volume up by 20",
            volume.clone(),
            up20.clone(),
        ),
    ]
    .into_iter()
    .map(line)
    .collect::<Vec<_>>()
    .join("\n");
    let suite = parse_suite("known", &suite).unwrap_or_else(|e| panic!("{e}"));

    let text = |t: &str| Script::Json(completion(Some(t), &[]));
    let calls = |c: &[(&str, &str)]| Script::Json(completion(None, c));
    // After every step with results the model is asked again, and answers; the call where
    // none fits is not run (the message names no volume, and the case's person says no
    // when asked), and the model is then asked for an answer.
    server
        .push(calls(&[("increase_volume", r#"{"step": 20}"#)]))
        .push(text("Turned it up."))
        .push(calls(&[("increase_volume", r#"{"step": "20%"}"#)]))
        .push(text("Turned it up."))
        .push(calls(&[
            ("current_time", r#"{"timezone": "Europe/London"}"#),
            ("current_time", r#"{"timezone": "Asia/Tokyo"}"#),
        ]))
        .push(text("Those are the times."))
        .push(calls(&[
            ("increase_volume", r#"{"step": 20}"#),
            ("decrease_volume", r#"{"step": 5}"#),
        ]))
        .push(text("Done."))
        .push(text("I would turn it up, but I won't."))
        .push(calls(&[("increase_volume", "{}")]))
        .push(text("You're welcome."))
        .push(text("You're welcome!"))
        .push(calls(&[("set_master_volume", r#"{"level": 70}"#)]))
        .push(text("Sorry."))
        .push(calls(&[("current_time", r#"{"timezone": "Beijing"}"#)]))
        .push(calls(&[(
            "current_time",
            r#"{"timezone": "Asia/Shanghai"}"#,
        )]))
        .push(text("That is the time in Beijing."))
        .push(calls(&[
            ("increase_volume", r#"{"step": 20}"#),
            ("turn_on_camera", "{}"),
        ]))
        .push(text("The camera is busy."))
        .push(calls(&[
            ("turn_on_camera", "{}"),
            ("increase_volume", r#"{"step": 20}"#),
        ]))
        .push(calls(&[
            ("turn_on_camera", "{}"),
            ("increase_volume", r#"{"step": 20}"#),
        ]))
        .push(text("Both done."))
        .push(Script::Stall);

    let (_dir, deskmate, model_id) = scripted_service(&server);
    let options = EvalOptions {
        case_timeout: Duration::from_secs(3),
        ..EvalOptions::default()
    };
    let mut seen = Vec::new();
    let report = eval::evaluate(&deskmate, &model_id, &suite, &options, |r, i, n| {
        seen.push((r.id.clone(), i, n));
    })
    .await
    .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(seen.len(), 12);
    assert_eq!(seen[11], ("stall".to_string(), 12, 12));

    let by_id = |id: &str| {
        report
            .results
            .iter()
            .find(|r| r.id == id)
            .unwrap_or_else(|| panic!("no result for {id}"))
    };
    let outcome = |id: &str| {
        let r = by_id(id);
        (r.passed, r.passed_raw, r.hallucinated)
    };
    assert_eq!(outcome("exact"), (true, true, false));
    assert_eq!(outcome("repaired"), (true, false, false));
    assert_eq!(
        by_id("repaired").calls[0].normalized,
        Some(json!({"step": 20}))
    );
    assert_eq!(outcome("order"), (true, true, false));
    assert_eq!(outcome("extra"), (false, false, false));
    assert!(
        by_id("extra")
            .reason
            .as_deref()
            .is_some_and(|r| r.contains("2 call(s) made")),
        "{:?}",
        by_id("extra").reason
    );
    assert_eq!(outcome("none"), (false, false, false));
    assert_eq!(by_id("none").reason.as_deref(), Some("no tool was called"));
    // Judged a stand-in, nothing ran, but the person had to refuse it: a wrong call all
    // the same.
    assert_eq!(outcome("irrelevant-call"), (false, false, true));
    assert_eq!(
        by_id("irrelevant-call").calls[0].status,
        Some(deskmate_agent::CallStatus::NotAsked)
    );
    assert_eq!(by_id("irrelevant-call").refused, ["increase_volume"]);
    assert_eq!(outcome("irrelevant-ok"), (true, true, false));
    assert_eq!(outcome("phantom"), (false, false, true));
    let recovered = by_id("recovery");
    assert_eq!((recovered.passed, recovered.failure_fired), (true, true));
    assert_eq!(recovered.calls.len(), 2);
    let atomic = by_id("atomic");
    assert!(atomic.passed, "{:?}", atomic.reason);
    assert_eq!(
        (atomic.atomic, atomic.atomic_raw),
        (Some(true), Some(false))
    );
    let retried = by_id("atomic-retry");
    assert!(retried.passed, "{:?}", retried.reason);
    assert_eq!(
        retried.calls[1].status,
        Some(deskmate_agent::CallStatus::Skipped)
    );
    assert_eq!(
        (retried.atomic, retried.atomic_raw),
        (Some(true), Some(false))
    );
    let stalled = by_id("stall");
    assert!(!stalled.passed);
    assert!(
        stalled
            .reason
            .as_deref()
            .is_some_and(|r| r.contains("timed out")),
        "{:?}",
        stalled.reason
    );
    assert!(stalled.latency_ms >= 3000);

    let m = &report.metrics;
    // Calls to offered tools: exact 1, repaired 1 (invalid), order 2, extra 2, none 0,
    // irrelevant-call 1 ({} is valid), recovery 2, atomic 2, atomic-retry 4 → 14 valid
    // of 15; phantom's call is to a tool not offered.
    assert_eq!((m.calls, m.hallucinated_calls), (16, 1));
    assert!(
        (m.schema_compliance.unwrap_or(0.0) - 14.0 / 15.0).abs() < 1e-9,
        "{:?}",
        m.schema_compliance
    );
    assert!((m.hallucination_rate - 2.0 / 12.0).abs() < 1e-9);
    assert_eq!(m.error_recovery, Some(1.0));
    assert_eq!(
        (m.parallel_atomicity, m.parallel_atomicity_raw),
        (Some(1.0), Some(0.0))
    );
    assert_eq!(m.atomicity_measured, 2);
    // Passed: exact, repaired, order, irrelevant-ok, recovery, atomic, atomic-retry = 7 of
    // 12 (irrelevant-call made a call the person refused); raw loses "repaired" (its call
    // was not valid as emitted): 6 of 12.
    assert_eq!(m.refused_calls, 1);
    assert!(
        (m.task_success - 7.0 / 12.0).abs() < 1e-9,
        "{}",
        m.task_success
    );
    assert!(
        (m.task_success_raw - 6.0 / 12.0).abs() < 1e-9,
        "{}",
        m.task_success_raw
    );
    assert!((m.guard_lift_points - 100.0 / 12.0).abs() < 1e-9);
    assert!(m.latency_p95_ms >= 3000, "the stalled case is the slowest");
    let table = report.markdown();
    assert!(table.contains("| simple | 1/5 (20.0%), raw 1,"), "{table}");
    assert!(
        table.contains("| error_recovery | 1/1 (100.0%), raw 1,"),
        "{table}"
    );
    assert!(
        table.contains("| calls the person refused (wrong calls) | 1 |"),
        "{table}"
    );
    assert_eq!(report.by_category[0].category, CaseCategory::Simple);

    // Stored with the history, apart from the autotest runs.
    let store = deskmate.store().unwrap_or_else(|| panic!("a store"));
    let (total, runs) = store
        .list_eval_runs(1, 10)
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(total, 1);
    assert_eq!(runs[0].passed, 7);
    assert!(
        runs[0].result["markdown"]
            .as_str()
            .is_some_and(|t| t.contains("guard lift"))
    );
    assert_eq!(store.list_autotest_runs(1, 10).map(|r| r.0).ok(), Some(0));
}

/// A case may offer every enabled tool (`"tools": "all"`), and a run may offer every tool
/// in every case: the turn then offers them all, as a chat turn does, and the judge
/// resolves calls among all of them. After a result the model is asked again, and its
/// words answer what no tool does.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cases_can_offer_every_tool() {
    let server = ScriptedServer::start(&["scripted"]).await;
    let all = case(
        "all",
        "simple",
        "what is 6 times 7, and is it prime?",
        json!("all"),
        json!([{"tool": "calculator", "args": {"expression": ["6*7", "6 times 7"]}}]),
    );
    let listed = case(
        "listed",
        "simple",
        "time in Tokyo?",
        json!(["current_time"]),
        json!([{"tool": "current_time", "args": {"timezone": ["Asia/Tokyo"]}}]),
    );
    // The evaluator judges the reply with facts written in the case, not with the loop's
    // rules: one reply states its fact, the other does not.
    let mut all = all;
    all["reply_states"] = json!(["42", ["not prime", "不是质数"]]);
    all["reply_avoids"] = json!(["cannot"]);
    let mut listed = listed;
    listed["reply_states"] = json!([["JST", "日本标准时间"]]);
    let suite = parse_suite("modes", &format!("{}\n{}", line(all), line(listed)))
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(suite.cases[0].offers_all() && !suite.cases[1].offers_all());
    server
        .push(Script::Json(completion(
            None,
            &[("calculator", r#"{"expression": "6*7"}"#)],
        )))
        .push(Script::Json(completion(
            Some("6*7 is 42, and 42 is not prime."),
            &[],
        )))
        .push(Script::Json(completion(
            None,
            &[("current_time", r#"{"timezone": "Asia/Tokyo"}"#)],
        )))
        .push(Script::Json(completion(Some("See the time above."), &[])));
    let (_dir, deskmate, model_id) = scripted_service(&server);
    let options = EvalOptions {
        case_timeout: Duration::from_secs(5),
        every_tool: true,
        ..EvalOptions::default()
    };
    let report = eval::evaluate(&deskmate, &model_id, &suite, &options, |_, _, _| {})
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    for result in &report.results {
        assert!(result.passed, "{result:?}");
    }
    assert_eq!(report.results[0].reply, "6*7 is 42, and 42 is not prime.");
    let requests = server.requests();
    assert_eq!(requests.len(), 4, "the model was asked after each result");
    for request in [&requests[0], &requests[2]] {
        let offered = request["tools"].as_array().map_or(0, Vec::len);
        assert!(offered > 10, "every enabled tool offered: {offered}");
    }
    assert_eq!(report.metrics.task_success_plain, 1.0);
    assert_eq!(report.metrics.replies_judged, 2);
    assert_eq!(report.metrics.replies_stating_facts, 1);
    assert_eq!(report.results[0].reply_states_facts, Some(true));
    assert_eq!(
        report.results[1].reply_missing.as_deref(),
        Some(r#"states none of ["JST", "日本标准时间"]"#)
    );
}
