//! Black-box tests of `deskmate serve` over real HTTP on loopback: the QA journey (create
//! an HTTP tool, call it, see it audited, delete it), restart persistence, exactly-once
//! under 100 concurrent requests, and kill -9 in the middle of 1,000 concurrent writes.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

mod common;

use common::{Server, children_named};

use axum::routing::get;
use axum::{Json, Router};
use serde_json::{Value, json};

async fn weather_service() -> String {
    let app = Router::new().route(
        "/weather/{city}",
        get(
            |axum::extract::Path(city): axum::extract::Path<String>| async move {
                Json(json!({"city": city, "temp_c": 19}))
            },
        ),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    let addr = listener.local_addr().unwrap_or_else(|e| panic!("{e}"));
    tokio::spawn(async move { axum::serve(listener, app).await });
    format!("http://{addr}")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn qa_journey_over_http_with_restart() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let service = weather_service().await;
    let server = Server::start(dir.path());
    let client = Server::client();
    use reqwest::Method;

    let tool = json!({"name": "City weather", "category": "query", "http_url": format!("{service}/weather/{{city}}"),
        "parameter_schema": {"type": "object", "required": ["city"], "properties": {"city": {"type": "string", "description": "City"}}}});
    let (status, created) = server
        .send(&client, Method::POST, "/tools/resources", Some(tool))
        .await;
    assert_eq!(status, 201, "{created}");
    let (status, result) = server
        .send(
            &client,
            Method::POST,
            "/tools/call",
            Some(json!({"tool": "city_weather", "arguments": {"city": "Berlin"}})),
        )
        .await;
    assert_eq!(
        (
            status,
            result["ok"].clone(),
            result["data"]["body"]["temp_c"].clone()
        ),
        (200, json!(true), json!(19)),
        "{result}"
    );
    let (_, audit) = server
        .send(&client, Method::GET, "/audit?tool=city_weather", None)
        .await;
    assert_eq!(audit["total"], 1);
    assert_eq!(audit["list"][0]["call_id"], result["call_id"]);
    let (status, _) = server.send(&client, Method::GET, "/tools/list", None).await;
    assert_eq!(status, 200);
    let unauthorized = client
        .get(format!("{}/tools/list", server.url))
        .send()
        .await
        .map(|r| r.status().as_u16())
        .ok();
    assert_eq!(unauthorized, Some(401));

    // SIGTERM stops it cleanly; a restart finds the tool and the audit row.
    assert!(server.terminate().success());
    let server = Server::start(dir.path());
    let (status, _) = server
        .send(&client, Method::GET, "/tools/resources/city_weather", None)
        .await;
    assert_eq!(status, 200);
    let (_, audit) = server
        .send(&client, Method::GET, "/audit?tool=city_weather", None)
        .await;
    assert_eq!(audit["total"], 1);
    let (status, _) = server
        .send(
            &client,
            Method::DELETE,
            "/tools/resources/city_weather",
            None,
        )
        .await;
    assert_eq!(status, 200);
    let (_, gone) = server
        .send(
            &client,
            Method::POST,
            "/tools/call",
            Some(json!({"tool": "city_weather", "arguments": {"city": "Berlin"}})),
        )
        .await;
    assert_eq!(gone["error_type"], "not_found");
    assert!(server.terminate().success());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_idem_key_under_100_concurrent_requests() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let server = std::sync::Arc::new(Server::start(dir.path()));
    let client = Server::client();
    let mut tasks = Vec::new();
    for _ in 0..100 {
        let (server, client) = (server.clone(), client.clone());
        tasks.push(tokio::spawn(async move {
            let body = json!({"tool": "calculator", "arguments": {"expression": "6*7"}, "idem_key": "answer-1"});
            server.send(&client, reqwest::Method::POST, "/tools/call", Some(body)).await
        }));
    }
    let mut call_ids = std::collections::BTreeSet::new();
    for task in tasks {
        let (status, result) = task.await.unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            (status, result["data"]["result"].clone()),
            (200, json!(42)),
            "{result}"
        );
        call_ids.insert(result["call_id"].as_str().unwrap_or_default().to_string());
    }
    assert_eq!(
        call_ids.len(),
        1,
        "every request got the one execution's result"
    );
    let (_, audit) = server
        .send(
            &client,
            reqwest::Method::GET,
            "/audit?tool=calculator",
            None,
        )
        .await;
    assert_eq!(audit["total"], 1, "one audit row");
    if let Ok(server) = std::sync::Arc::try_unwrap(server) {
        server.terminate();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn kill_9_during_1000_concurrent_writes_loses_no_acknowledged_write() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let server = std::sync::Arc::new(Server::start(dir.path()));
    let client = Server::client();
    let acknowledged = std::sync::Arc::new(std::sync::Mutex::new(Vec::<String>::new()));
    let limit = std::sync::Arc::new(tokio::sync::Semaphore::new(64));
    let mut tasks = Vec::new();
    for i in 0..1000 {
        let (server, client, acknowledged, limit) = (
            server.clone(),
            client.clone(),
            acknowledged.clone(),
            limit.clone(),
        );
        tasks.push(tokio::spawn(async move {
            let _permit = limit.acquire_owned().await;
            let body =
                json!({"tool": "calculator", "arguments": {"expression": format!("{i} + 1")}});
            let sent = client
                .post(format!("{}/tools/call", server.url))
                .bearer_auth(&server.token)
                .json(&body)
                .send()
                .await;
            if let Ok(response) = sent
                && let Ok(result) = response.json::<Value>().await
                && let Some(id) = result["call_id"].as_str()
            {
                acknowledged
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .push(id.to_string());
            }
        }));
    }
    // Kill the server hard once some writes are acknowledged and others are in flight.
    let deadline = tokio::time::Instant::now() + Duration::from_secs(60);
    while acknowledged.lock().map(|a| a.len()).unwrap_or(0) < 300
        && tokio::time::Instant::now() < deadline
    {
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    let pid = nix::unistd::Pid::from_raw(i32::try_from(server.child.id()).unwrap_or(i32::MAX));
    let _ = nix::sys::signal::kill(pid, nix::sys::signal::Signal::SIGKILL);
    for task in tasks {
        let _ = task.await;
    }
    let acknowledged = acknowledged.lock().map(|a| a.clone()).unwrap_or_default();
    assert!(acknowledged.len() >= 300, "{}", acknowledged.len());

    // The database opens clean and holds every acknowledged call.
    let store = deskmate_store::Store::open(&dir.path().join("deskmate.db"))
        .unwrap_or_else(|e| panic!("reopen: {e}"));
    assert_eq!(store.pragma("integrity_check").ok().as_deref(), Some("ok"));
    let filter = deskmate_store::audit::AuditFilter {
        limit: 1000,
        page: 1,
        ..Default::default()
    };
    let (total, rows) = store.list_audit(&filter).unwrap_or_else(|e| panic!("{e}"));
    let stored: std::collections::HashSet<String> = rows.into_iter().map(|r| r.call_id).collect();
    let missing: Vec<&String> = acknowledged
        .iter()
        .filter(|id| !stored.contains(*id))
        .collect();
    assert!(
        missing.is_empty(),
        "{} acknowledged writes lost of {}",
        missing.len(),
        acknowledged.len()
    );
    assert!(total as usize >= acknowledged.len());
    if let Ok(server) = std::sync::Arc::try_unwrap(server) {
        server.kill_hard();
    }
}

#[tokio::test]
async fn the_server_outlives_a_reader_that_closed_its_stdout() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let mut server = Server::start(dir.path());
    // Close our end of the pipe, as a script that read the URL and exited would.
    server.stdout = None;
    tokio::time::sleep(Duration::from_millis(200)).await;
    let (status, _) = server
        .send(&Server::client(), reqwest::Method::GET, "/tools/list", None)
        .await;
    assert_eq!(status, 200);
    assert!(server.terminate().success());
}

/// Processes whose parent is `pid` and whose command line contains `name`.
/// With no local model installed, serve says so and how to add one, and serves anyway.
#[tokio::test]
async fn serve_without_local_models_says_how_to_add_one() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let missing = dir.path().join("no-such-manifest.json");
    let server = Server::start_with(dir.path(), &missing.display().to_string(), Stdio::piped());
    let (status, _) = server
        .send(&Server::client(), reqwest::Method::GET, "/models/llm", None)
        .await;
    assert_eq!(status, 200);
    let mut server = server;
    let mut stderr = server
        .child
        .stderr
        .take()
        .unwrap_or_else(|| panic!("stderr"));
    assert!(server.terminate().success());
    let mut text = String::new();
    let _ = std::io::Read::read_to_string(&mut stderr, &mut text);
    assert!(text.contains("no local model installed"), "{text}");
    assert!(
        text.contains("scripts/setup-models.sh") && text.contains("/api/v1/models/llm"),
        "{text}"
    );
}

/// `serve` starts the installed local servers (SmolLM2 and whisper-base here) as
/// sidecars, registers their models on first run, the autotest passes against them over
/// HTTP, and SIGTERM stops them with the app.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn serve_runs_the_local_models_as_sidecars_and_stops_them() {
    let installed = deskmate_service::local::default_manifest_path()
        .and_then(|p| std::fs::read_to_string(p).ok())
        .unwrap_or_else(|| {
            panic!("the local models are not installed: run scripts/setup-models.sh tests")
        });
    let mut manifest: Value = serde_json::from_str(&installed).unwrap_or_else(|e| panic!("{e}"));
    let mut llm: Vec<Value> = manifest["llm"]
        .as_array()
        .cloned()
        .unwrap_or_default()
        .into_iter()
        .filter(|m| m["id"] == "local-smollm2-135m")
        .collect();
    assert_eq!(llm.len(), 1, "SmolLM2 is installed");
    llm[0]["default"] = json!(true);
    manifest["llm"] = Value::Array(llm);
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let path = dir.path().join("local-models.json");
    std::fs::write(&path, manifest.to_string()).unwrap_or_else(|e| panic!("{e}"));

    let data = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let server = Server::start_with(data.path(), &path.display().to_string(), Stdio::null());
    let client = Server::client();
    let (_, models) = server
        .send(&client, reqwest::Method::GET, "/models/llm", None)
        .await;
    assert_eq!(models["list"][0]["id"], "local-smollm2-135m", "{models}");
    assert_eq!(models["list"][0]["managed"], "llama-server");
    assert_eq!(models["list"][0]["is_default"], true);

    // Ready within the servers' load time: the full autotest passes over HTTP.
    let deadline = std::time::Instant::now() + Duration::from_secs(240);
    let result = loop {
        let (status, result) = server
            .send(
                &client,
                reqwest::Method::POST,
                "/tools/autotest?test_devices=false",
                None,
            )
            .await;
        assert_eq!(status, 200, "{result}");
        // "Tool Calling" judges the model, not the wiring: SmolLM2-135M sometimes calls
        // the calculator and sometimes answers in text, and the check says which. Every
        // other check must pass.
        let failed: Vec<&str> = result["tests"]
            .as_array()
            .map(|t| {
                t.iter()
                    .filter(|c| c["status"] == "failed" && c["name"] != "Tool Calling")
                    .filter_map(|c| c["name"].as_str())
                    .collect()
            })
            .unwrap_or_default();
        let judged = result["tests"].as_array().is_some_and(|t| {
            t.iter().any(|c| {
                c["name"] == "Tool Calling"
                    && c["message"]
                        .as_str()
                        .is_some_and(|m| m.contains("calculator"))
            })
        });
        if failed.is_empty() && judged {
            break result;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "autotest never passed: {result:#}"
        );
        tokio::time::sleep(Duration::from_secs(2)).await;
    };
    assert!(result["tests"].as_array().is_some_and(|t| t.len() > 8));
    let llama = children_named(server.child.id(), "llama-server");
    let whisper = children_named(server.child.id(), "faster-whisper-server");
    assert_eq!((llama.len(), whisper.len()), (1, 1));

    assert!(server.terminate().success());
    tokio::time::sleep(Duration::from_millis(500)).await;
    for pid in llama.iter().chain(&whisper) {
        let alive = std::fs::read_to_string(format!("/proc/{pid}/status"))
            .map(|s| !s.contains("zombie"))
            .unwrap_or(false);
        assert!(!alive, "sidecar {pid} outlived the app");
    }
}

/// QA's check of the volume tools: called over HTTP on a headless server, verified with
/// PulseAudio's own pactl.
#[tokio::test]
async fn volume_tools_over_http_change_the_sink_pactl_sees() {
    let pulse = deskmate_testkit::pulse::PulseServer::start();
    pulse
        .pactl(&["set-sink-volume", "ci_sink", "40%"])
        .unwrap_or_else(|| panic!("pactl"));
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let server = Server::start_env(
        dir.path(),
        "off",
        Stdio::null(),
        &[("PULSE_SERVER", pulse.server())],
    );
    let client = Server::client();
    let (status, result) = server
        .send(
            &client,
            reqwest::Method::POST,
            "/tools/call",
            Some(json!({"tool": "increase_volume", "arguments": {"step": 25}})),
        )
        .await;
    assert_eq!(status, 200);
    assert_eq!(result["ok"], true, "{result}");
    assert_eq!(
        (
            result["data"]["before"].clone(),
            result["data"]["after"].clone()
        ),
        (json!(40), json!(65))
    );
    assert_eq!(result["data"]["device"], "ci_sink");
    assert_eq!(pulse.percent(), 65);
    let (_, result) = server
        .send(
            &client,
            reqwest::Method::POST,
            "/tools/call",
            Some(json!({"tool": "decrease_volume", "arguments": "{\"step\": \"30%\"}"})),
        )
        .await;
    assert_eq!(result["data"]["after"], 35, "{result}");
    assert_eq!(pulse.percent(), 35);
    let (_, refused) = server
        .send(
            &client,
            reqwest::Method::POST,
            "/tools/call",
            Some(json!({"tool": "increase_volume", "arguments": {"step": 80}})),
        )
        .await;
    assert_eq!(refused["error_type"], "validation", "{refused}");
    assert_eq!(pulse.percent(), 35, "a refused call changes nothing");
}

/// QA's check of text_msg_prompt: called over HTTP, the notification arrives at the
/// session's notification server (dunst's history); without one, a clear not_found.
#[tokio::test]
async fn text_msg_prompt_over_http_reaches_the_notification_server() {
    let desktop = deskmate_testkit::desktop::DesktopSession::start();
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let server = Server::start_env(
        dir.path(),
        "off",
        Stdio::null(),
        &[
            ("DBUS_SESSION_BUS_ADDRESS", desktop.bus_address()),
            ("DISPLAY", desktop.display().to_string()),
        ],
    );
    let client = Server::client();
    let (status, result) = server
        .send(
            &client,
            reqwest::Method::POST,
            "/tools/call",
            Some(json!({"tool": "text_msg_prompt",
                        "arguments": {"title": "Reminder", "message": "会议 10 点开始", "urgency": "critical"}})),
        )
        .await;
    assert_eq!(status, 200);
    assert_eq!(result["ok"], true, "{result}");
    assert_eq!(result["data"]["server"], "dunst");
    assert_eq!(result["data"]["desktop"], true);
    assert_eq!(
        desktop.notifications(),
        [("Reminder".to_string(), "会议 10 点开始".to_string())]
    );
    drop(server);

    // No notification server on the bus (and no app window): not_found, quickly.
    let bare = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let server = Server::start_env(
        bare.path(),
        "off",
        Stdio::null(),
        &[(
            "DBUS_SESSION_BUS_ADDRESS",
            format!("unix:path={}/no-bus", bare.path().display()),
        )],
    );
    let started = std::time::Instant::now();
    let (_, result) = server
        .send(
            &client,
            reqwest::Method::POST,
            "/tools/call",
            Some(json!({"tool": "text_msg_prompt", "arguments": {"message": "hello"}})),
        )
        .await;
    assert_eq!(result["error_type"], "not_found", "{result}");
    assert!(started.elapsed() < Duration::from_secs(6));

    // The app's window listens on /events: the message reaches it there, and that counts
    // as shown even without a notification server.
    let mut events = client
        .get(format!("{}/events", server.url))
        .bearer_auth(&server.token)
        .send()
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(events.status(), 200);
    // The stream is open once its first bytes could be sent; give the server a moment.
    tokio::time::sleep(Duration::from_millis(300)).await;
    let (_, result) = server
        .send(
            &client,
            reqwest::Method::POST,
            "/tools/call",
            Some(json!({"tool": "text_msg_prompt", "arguments": {"title": "Hi", "message": "窗口里的消息"}})),
        )
        .await;
    assert_eq!(result["ok"], true, "{result}");
    assert_eq!(
        (
            result["data"]["desktop"].clone(),
            result["data"]["in_app"].clone()
        ),
        (json!(false), json!(true)),
        "{result}"
    );
    let mut text = String::new();
    while !text.contains("窗口里的消息") {
        let chunk = tokio::time::timeout(Duration::from_secs(5), events.chunk())
            .await
            .unwrap_or_else(|_| panic!("no message event: {text:?}"))
            .unwrap_or_else(|e| panic!("{e}"))
            .unwrap_or_else(|| panic!("the stream ended: {text:?}"));
        text.push_str(&String::from_utf8_lossy(&chunk));
    }
    assert!(text.contains("event: message"), "{text}");
}

/// text_choice_prompt on a headless server: the question waits in /prompts, an answer
/// over HTTP returns the choice to the call; unanswered, it times out and is withdrawn.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn text_choice_prompt_waits_for_an_answer_over_http() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let server = Server::start(dir.path());
    let client = Server::client();
    let ask = |arguments: Value| {
        let (client, url, token) = (client.clone(), server.url.clone(), server.token.clone());
        tokio::spawn(async move {
            client
                .post(format!("{url}/tools/call"))
                .bearer_auth(token)
                .json(&json!({"tool": "text_choice_prompt", "arguments": arguments}))
                .send()
                .await
                .unwrap_or_else(|e| panic!("{e}"))
                .json::<Value>()
                .await
                .unwrap_or(Value::Null)
        })
    };
    let call =
        ask(json!({"question": "Export the report now?", "options": ["Yes", "No", "Later"]}));
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    let prompt = loop {
        let (_, body) = server
            .send(&client, reqwest::Method::GET, "/prompts", None)
            .await;
        if let Some(prompt) = body["list"].as_array().and_then(|l| l.first()).cloned() {
            break prompt;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "the question never appeared"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    assert_eq!(prompt["kind"], "choice");
    assert_eq!(prompt["question"], "Export the report now?");
    assert_eq!(prompt["options"], json!(["Yes", "No", "Later"]));
    let id = prompt["id"].as_str().unwrap_or_default().to_string();
    let (status, _) = server
        .send(
            &client,
            reqwest::Method::POST,
            &format!("/prompts/{id}/answer"),
            Some(json!({"choice": "later"})),
        )
        .await;
    assert_eq!(status, 200);
    let result = call.await.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(result["ok"], true, "{result}");
    assert_eq!(
        (
            result["data"]["choice"].clone(),
            result["data"]["index"].clone()
        ),
        (json!("Later"), json!(2))
    );

    // One option only (after duplicates are removed) is refused before anything is asked.
    let (_, refused) = server
        .send(
            &client,
            reqwest::Method::POST,
            "/tools/call",
            Some(json!({"tool": "text_choice_prompt", "arguments": {"question": "?", "options": ["Yes", "yes "]}})),
        )
        .await;
    assert_eq!(refused["error_type"], "validation", "{refused}");

    // Nobody answers: a timeout error, and the question is gone.
    let call = ask(json!({"question": "Anyone?", "options": ["A", "B"], "timeout_s": 5}));
    let result = call.await.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(result["error_type"], "timeout", "{result}");
    let (_, pending) = server
        .send(&client, reqwest::Method::GET, "/prompts", None)
        .await;
    assert_eq!(pending["list"], json!([]));
}

/// voice_choice_prompt on a headless server with real devices: the question is said on
/// the default sink, the answer is spoken (espeak-ng) into a virtual microphone (a null
/// sink's monitor as the default source), recorded with cpal, transcribed by the local
/// whisper server that serve runs, and matched to the option it names. The dialog the
/// question also opened is withdrawn.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn voice_choice_prompt_hears_the_answer_from_a_virtual_microphone() {
    let pulse = deskmate_testkit::pulse::PulseServer::start();
    pulse.add_microphone();
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let answer = spoken(dir.path(), "the second one");
    let (server, client) = serve_with_whisper(&pulse, dir.path()).await;

    // The tool answers a passing failure (the sound server did not take the question's
    // audio in time, seen now and then on a loaded machine) as `transient`: "try again
    // in a moment". The person, or a model, calls again; so does this test, once.
    let mut asked = false;
    let mut result = Value::Null;
    for _attempt in 0..2 {
        let call = {
            let (client, url, token) = (client.clone(), server.url.clone(), server.token.clone());
            tokio::spawn(async move {
                client
                    .post(format!("{url}/tools/call"))
                    .bearer_auth(token)
                    .json(&json!({"tool": "voice_choice_prompt", "arguments": {
                        "question": "Which color should the lamp be?",
                        "options": ["Red", "Green", "Blue"],
                        "timeout_s": 90,
                    }}))
                    .send()
                    .await
                    .unwrap_or_else(|e| panic!("{e}"))
                    .json::<Value>()
                    .await
                    .unwrap_or(Value::Null)
            })
        };
        // The person answers, and repeats it until Deskmate has heard.
        let deadline = std::time::Instant::now() + Duration::from_secs(100);
        while !call.is_finished() {
            assert!(std::time::Instant::now() < deadline, "never answered");
            let (_, pending) = server
                .send(&client, reqwest::Method::GET, "/prompts", None)
                .await;
            asked |= pending["list"][0]["question"] == "Which color should the lamp be?";
            let (pulse_ref, answer) = (&pulse, answer.clone());
            let played = tokio::task::block_in_place(|| pulse_ref.say_into_microphone(&answer));
            assert!(played, "paplay failed");
            tokio::time::sleep(Duration::from_millis(1500)).await;
        }
        result = call.await.unwrap_or_else(|e| panic!("{e}"));
        if result["error_type"] != "transient" {
            break;
        }
    }
    assert_eq!(result["ok"], true, "{result}");
    assert_eq!(result["data"]["via"], "voice", "{result}");
    assert_eq!(
        (
            result["data"]["choice"].clone(),
            result["data"]["index"].clone()
        ),
        (json!("Green"), json!(1)),
        "{result}"
    );
    assert!(asked, "the question was also open as a dialog");
    let (_, pending) = server
        .send(&client, reqwest::Method::GET, "/prompts", None)
        .await;
    assert_eq!(pending["list"], json!([]), "the dialog was withdrawn");
}

/// The autotest's device checks on real OS components: the mixer (PulseAudio null sink),
/// the speaker (espeak-ng and the output device), the notification server (dunst); and a
/// clear failure for each when they are missing.
#[test]
fn autotest_checks_every_device() {
    let pulse = deskmate_testkit::pulse::PulseServer::start();
    let desktop = deskmate_testkit::desktop::DesktopSession::start();
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let run = |envs: &[(&str, String)]| {
        let output = Command::new(env!("CARGO_BIN_EXE_deskmate"))
            .arg("--data-dir")
            .arg(dir.path())
            .args(["autotest", "--no-llm", "--no-asr", "--json"])
            .env("DESKMATE_LOCAL", "off")
            .env_remove("PULSE_SERVER")
            .env_remove("DBUS_SESSION_BUS_ADDRESS")
            .envs(envs.iter().map(|(k, v)| (*k, v.as_str())))
            .output()
            .unwrap_or_else(|e| panic!("{e}"));
        let result: Value = serde_json::from_slice(&output.stdout).unwrap_or(Value::Null);
        let devices: Vec<(String, bool, String)> = result["tests"]
            .as_array()
            .map(|t| {
                t.iter()
                    .filter(|c| {
                        c["name"]
                            .as_str()
                            .is_some_and(|n| n.starts_with("Device: "))
                    })
                    .map(|c| {
                        (
                            c["name"].as_str().unwrap_or_default().to_string(),
                            c["passed"].as_bool().unwrap_or(false),
                            c["message"].as_str().unwrap_or_default().to_string(),
                        )
                    })
                    .collect()
            })
            .unwrap_or_default();
        (output.status.code(), devices)
    };
    let (code, devices) = run(&[
        ("PULSE_SERVER", pulse.server()),
        ("DBUS_SESSION_BUS_ADDRESS", desktop.bus_address()),
    ]);
    let has_camera = std::fs::read_dir("/dev")
        .map(|d| {
            d.flatten()
                .any(|e| e.file_name().to_string_lossy().starts_with("video"))
        })
        .unwrap_or(false);
    assert_eq!(code, Some(if has_camera { 0 } else { 1 }), "{devices:?}");
    let names: Vec<&str> = devices.iter().map(|d| d.0.as_str()).collect();
    assert_eq!(
        names,
        [
            "Device: Mixer",
            "Device: Speaker",
            "Device: Microphone",
            "Device: Notifications",
            "Device: Camera"
        ]
    );
    assert!(devices[..4].iter().all(|d| d.1), "{devices:?}");
    assert_eq!(devices[4].1, has_camera, "{devices:?}");
    assert!(devices[0].2.contains("ci_sink"), "{devices:?}");
    assert!(devices[3].2.contains("dunst"), "{devices:?}");

    let missing = dir.path().join("none");
    let (code, devices) = run(&[
        ("PULSE_SERVER", format!("unix:{}", missing.display())),
        (
            "DBUS_SESSION_BUS_ADDRESS",
            format!("unix:path={}", missing.display()),
        ),
    ]);
    assert_eq!(code, Some(1));
    assert!(
        !devices[0].1 && devices[0].2.contains("running"),
        "{devices:?}"
    );
    assert!(!devices[3].1, "{devices:?}");
}

/// The camera on a machine without one, over HTTP: turn_on_camera is a clear not_found
/// that says not to retry, turn_off_camera is a harmless no-op, and there is no frame.
#[tokio::test]
async fn camera_tools_over_http_without_a_camera() {
    let has_camera = std::fs::read_dir("/dev")
        .map(|d| {
            d.flatten()
                .any(|e| e.file_name().to_string_lossy().starts_with("video"))
        })
        .unwrap_or(false);
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let server = Server::start(dir.path());
    let client = Server::client();
    let call = |tool: &'static str| Some(json!({"tool": tool, "arguments": {}}));
    let (_, off) = server
        .send(
            &client,
            reqwest::Method::POST,
            "/tools/call",
            call("turn_off_camera"),
        )
        .await;
    assert_eq!(
        (off["ok"].clone(), off["data"]["was_on"].clone()),
        (json!(true), json!(false)),
        "{off}"
    );
    let (status, frame) = server
        .send(&client, reqwest::Method::GET, "/devices/camera/frame", None)
        .await;
    assert_eq!(status, 404, "{frame}");
    assert!(frame["detail"].as_str().is_some_and(|d| d.contains("off")));
    if has_camera {
        return;
    }
    let (_, on) = server
        .send(
            &client,
            reqwest::Method::POST,
            "/tools/call",
            call("turn_on_camera"),
        )
        .await;
    assert_eq!(on["error_type"], "not_found", "{on}");
    assert!(
        on["hint"]
            .as_str()
            .is_some_and(|h| h.contains("do not retry"))
    );
}

/// `deskmate serve` on this PulseAudio server with only the local whisper server as
/// models, once whisper has loaded its model.
async fn serve_with_whisper(
    pulse: &deskmate_testkit::pulse::PulseServer,
    dir: &std::path::Path,
) -> (Server, reqwest::Client) {
    let installed = deskmate_service::local::default_manifest_path()
        .and_then(|p| std::fs::read_to_string(p).ok())
        .unwrap_or_else(|| {
            panic!("the local models are not installed: run scripts/setup-models.sh tests")
        });
    let mut manifest: Value = serde_json::from_str(&installed).unwrap_or_else(|e| panic!("{e}"));
    manifest["llm"] = json!([]);
    let whisper = manifest["asr"][0]["id"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    assert!(
        !whisper.is_empty(),
        "an ASR server is installed: {manifest}"
    );
    let path = dir.join("local-models.json");
    std::fs::write(&path, manifest.to_string()).unwrap_or_else(|e| panic!("{e}"));
    let data = dir.join("data");
    let server = Server::start_env(
        &data,
        &path.display().to_string(),
        Stdio::null(),
        &[("PULSE_SERVER", pulse.server())],
    );
    let client = Server::client();
    // The whisper server is up and has loaded its model.
    let deadline = std::time::Instant::now() + Duration::from_secs(180);
    loop {
        let (_, result) = server
            .send(
                &client,
                reqwest::Method::POST,
                &format!("/tools/autotest/asr/{whisper}"),
                None,
            )
            .await;
        if result["summary"]["failed"] == 0 {
            break;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "whisper never got ready: {result:#}"
        );
        tokio::time::sleep(Duration::from_secs(1)).await;
    }

    (server, client)
}

/// `text` spoken by espeak-ng (en-us) into a WAV file in `dir`.
fn spoken(dir: &std::path::Path, text: &str) -> std::path::PathBuf {
    let answer = dir.join(format!("{}.wav", text.replace(' ', "-")));
    let spoken = Command::new("espeak-ng")
        .args(["-v", "en-us", "-s", "140", "-w"])
        .arg(&answer)
        .arg(text)
        .status()
        .unwrap_or_else(|e| panic!("espeak-ng: {e}"));
    assert!(spoken.success());
    answer
}

/// Push to talk over the API with real devices: while "held" (between /voice/start and
/// /voice/stop) the virtual microphone hears a spoken sentence, /events streams its
/// level, and /voice/stop answers what the local whisper server heard. A press without
/// speech answers an empty text without asking the ASR.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn push_to_talk_records_the_microphone_and_transcribes_it() {
    let pulse = deskmate_testkit::pulse::PulseServer::start();
    pulse.add_microphone();
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let sentence = spoken(dir.path(), "please turn the volume up");
    let (server, client) = serve_with_whisper(&pulse, dir.path()).await;

    let events = client
        .get(format!("{}/events", server.url))
        .bearer_auth(&server.token)
        .send()
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    let (status, started) = server
        .send(&client, reqwest::Method::POST, "/voice/start", None)
        .await;
    assert_eq!(status, 200, "{started}");
    let (status, again) = server
        .send(&client, reqwest::Method::POST, "/voice/start", None)
        .await;
    assert_eq!(status, 409, "{again}");
    let played = tokio::task::block_in_place(|| pulse.say_into_microphone(&sentence));
    assert!(played, "paplay failed");
    // Levels arrived while recording; the loudest is well above silence.
    let mut events = events;
    let mut text = String::new();
    let loudest_in = |text: &str| {
        text.lines()
            .filter_map(|l| l.strip_prefix("data: "))
            .filter_map(|d| serde_json::from_str::<Value>(d).ok())
            .filter_map(|v| v["db"].as_f64())
            .fold(-100.0_f64, f64::max)
    };
    // Every level sent while the sentence played is in the stream (the first ones may
    // be from before it, on a loaded machine many of them).
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    while let Ok(Ok(Some(chunk))) = tokio::time::timeout_at(deadline, events.chunk()).await {
        text.push_str(&String::from_utf8_lossy(&chunk));
        if loudest_in(&text) > -40.0 {
            break;
        }
    }
    let loudest = loudest_in(&text);
    assert!(loudest > -40.0, "levels: {text}");
    let (status, heard) = server
        .send(&client, reqwest::Method::POST, "/voice/stop", None)
        .await;
    assert_eq!(status, 200, "{heard}");
    let words = heard["text"].as_str().unwrap_or_default().to_lowercase();
    assert!(words.contains("volume"), "{heard}");
    assert!(heard["seconds"].as_f64().unwrap_or(0.0) > 1.0, "{heard}");

    // Held without speaking: nothing heard, and not recording any more.
    let (status, _) = server
        .send(&client, reqwest::Method::POST, "/voice/start", None)
        .await;
    assert_eq!(status, 200);
    tokio::time::sleep(Duration::from_millis(800)).await;
    let (status, silent) = server
        .send(&client, reqwest::Method::POST, "/voice/stop", None)
        .await;
    assert_eq!(
        (status, silent["text"].clone()),
        (200, json!("")),
        "{silent}"
    );
    let (status, _) = server
        .send(&client, reqwest::Method::POST, "/voice/stop", None)
        .await;
    assert_eq!(status, 409);
}

/// A loopback service that answers with the `X-Key` header it received.
async fn key_echo_service() -> String {
    let app = Router::new().route(
        "/orders/{id}",
        get(|headers: axum::http::HeaderMap| async move {
            let key = headers
                .get("x-key")
                .and_then(|v| v.to_str().ok())
                .unwrap_or_default()
                .to_string();
            // A fingerprint, not the key: the test then proves which value was sent
            // without the value appearing in any answer.
            Json(json!({"received_key_sha": key_fingerprint(&key)}))
        }),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    let addr = listener.local_addr().unwrap_or_else(|e| panic!("{e}"));
    tokio::spawn(async move { axum::serve(listener, app).await });
    format!("http://{addr}")
}

fn key_fingerprint(key: &str) -> String {
    format!(
        "{:x}",
        key.bytes()
            .fold(0u64, |h, b| h.wrapping_mul(31).wrapping_add(u64::from(b)))
    )
}

/// Every file under `dir`, as bytes (the database and its WAL included).
fn everything_under(dir: &Path) -> Vec<(std::path::PathBuf, Vec<u8>)> {
    let mut found = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(next) = stack.pop() {
        for entry in std::fs::read_dir(&next).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if let Ok(bytes) = std::fs::read(&path) {
                found.push((path, bytes));
            }
        }
    }
    found
}

fn contains(haystack: &[u8], needle: &str) -> bool {
    haystack
        .windows(needle.len())
        .any(|w| w == needle.as_bytes())
}

/// Secrets live in a real OS keyring (gnome-keyring's Secret Service on a private session
/// bus): the file's secrets are moved in and the file emptied, new ones go straight in, a
/// restart reads them back, the autotest says which store is used, and no value appears
/// in the data dir, the log or an API answer. Without a keyring the owner-only file is
/// used, and the API says why.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn secrets_live_in_the_os_keyring_with_the_file_as_fallback() {
    use reqwest::Method;
    let keyring = deskmate_testkit::keyring::KeyringSession::start();
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let (old, new) = ("old-secret-value-7f3a", "new-secret-value-91c2");
    std::fs::write(
        dir.path().join("secrets.json"),
        json!({"orders.x_key": old}).to_string(),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let log = dir.path().join("..").join(format!(
        "serve-{}.log",
        dir.path()
            .file_name()
            .map(|n| n.to_string_lossy().to_string())
            .unwrap_or_default()
    ));
    let env = [
        ("DBUS_SESSION_BUS_ADDRESS", keyring.bus_address()),
        ("DESKMATE_SECRET_STORE", "auto".to_string()),
        ("DESKMATE_LOG", "debug".to_string()),
    ];
    let start = || {
        let log_file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&log)
            .unwrap_or_else(|e| panic!("{e}"));
        Server::start_env(dir.path(), "off", Stdio::from(log_file), &env)
    };
    let server = start();
    let client = Server::client();

    let (status, listed) = server.send(&client, Method::GET, "/secrets", None).await;
    assert_eq!(status, 200, "{listed}");
    assert_eq!(listed["store"]["backend"], "keyring", "{listed}");
    assert_eq!(listed["names"], json!(["orders.x_key"]));
    assert_eq!(
        std::fs::read_to_string(dir.path().join("secrets.json"))
            .map(|t| t.trim().to_string())
            .ok(),
        Some("{}".to_string()),
        "the file is emptied once its secrets are in the keyring"
    );
    let (status, _) = server
        .send(
            &client,
            Method::PUT,
            "/secrets/billing",
            Some(json!({"value": new})),
        )
        .await;
    assert_eq!(status, 200);
    let service = format!("deskmate {}", dir.path().display());
    assert_eq!(
        keyring.items(&[("service", service.as_str())]).len(),
        2,
        "both secrets are keyring items another program can find"
    );

    // A tool sends the secret from the keyring.
    let echo = key_echo_service().await;
    let tool = json!({"name": "Orders", "description": "Looks up an order by its id.", "category": "query",
        "http_url": format!("{echo}/orders/{{id}}"), "http_headers": {"X-Key": "{secret:billing}"},
        "parameter_schema": {"type": "object", "additionalProperties": false, "required": ["id"],
                             "properties": {"id": {"type": "string", "description": "Order id"}}}});
    let (status, created) = server
        .send(&client, Method::POST, "/tools/resources", Some(tool))
        .await;
    assert_eq!(status, 201, "{created}");
    let call = json!({"tool": "orders", "arguments": {"id": "A-1"}});
    let (_, result) = server
        .send(&client, Method::POST, "/tools/call", Some(call.clone()))
        .await;
    assert_eq!(
        result["data"]["body"]["received_key_sha"],
        json!(key_fingerprint(new)),
        "{result}"
    );

    let (status, run) = server
        .send(
            &client,
            Method::POST,
            "/tools/autotest?test_llm=false&test_asr=false&test_devices=false",
            None,
        )
        .await;
    assert_eq!(status, 200, "{run}");
    let store_check = run["tests"]
        .as_array()
        .and_then(|t| t.iter().find(|c| c["name"] == "Secret Store"))
        .cloned()
        .unwrap_or_default();
    assert_eq!(store_check["status"], "passed", "{store_check}");
    assert!(
        store_check["message"]
            .as_str()
            .is_some_and(|m| m.contains("2 secret(s)") && m.contains("OS keyring")),
        "{store_check}"
    );

    // A restart reads them back from the keyring.
    assert!(server.terminate().success());
    let server = start();
    let (_, listed) = server.send(&client, Method::GET, "/secrets", None).await;
    assert_eq!(
        listed["names"],
        json!(["billing", "orders.x_key"]),
        "{listed}"
    );
    let (_, result) = server
        .send(&client, Method::POST, "/tools/call", Some(call))
        .await;
    assert_eq!(
        result["data"]["body"]["received_key_sha"],
        json!(key_fingerprint(new)),
        "{result}"
    );
    let (_, audit) = server.send(&client, Method::GET, "/audit", None).await;
    let (_, resources) = server
        .send(&client, Method::GET, "/tools/resources", None)
        .await;
    assert!(server.terminate().success());

    // No value anywhere: the data dir (database and WAL included), the log, API answers.
    for (path, bytes) in everything_under(dir.path()) {
        for value in [old, new] {
            assert!(
                !contains(&bytes, value),
                "{value} found in {}",
                path.display()
            );
        }
    }
    let logged = std::fs::read(&log).unwrap_or_default();
    assert!(!logged.is_empty(), "the server logged nothing");
    for answer in [&listed, &run, &audit, &resources] {
        for value in [old, new] {
            assert!(!answer.to_string().contains(value), "{value} in {answer}");
            assert!(!contains(&logged, value), "{value} in the log");
        }
    }
    let _ = std::fs::remove_file(&log);

    // Without a keyring: the owner-only file, and why.
    let bare = deskmate_testkit::keyring::KeyringSession::bus_only();
    let other = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let server = Server::start_env(
        other.path(),
        "off",
        Stdio::null(),
        &[
            ("DBUS_SESSION_BUS_ADDRESS", bare.bus_address()),
            ("DESKMATE_SECRET_STORE", "auto".to_string()),
        ],
    );
    let (_, listed) = server.send(&client, Method::GET, "/secrets", None).await;
    assert_eq!(listed["store"]["backend"], "file", "{listed}");
    assert!(
        listed["store"]["detail"]
            .as_str()
            .is_some_and(|d| d.contains("no Secret Service")),
        "{listed}"
    );
    let (status, _) = server
        .send(
            &client,
            Method::PUT,
            "/secrets/billing",
            Some(json!({"value": new})),
        )
        .await;
    assert_eq!(status, 200);
    let file = other.path().join("secrets.json");
    assert!(std::fs::read_to_string(&file).is_ok_and(|t| t.contains("billing")));
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&file)
            .map(|m| m.permissions().mode() & 0o777)
            .ok();
        assert_eq!(mode, Some(0o600));
    }
    assert!(server.terminate().success());
}

/// One chat turn over HTTP (the SSE stream read to its end): the tools called and the
/// reply.
async fn chat(
    server: &Server,
    client: &reqwest::Client,
    message: &str,
    locale: &str,
) -> (Vec<String>, String) {
    let text = client
        .post(format!("{}/chat", server.url))
        .bearer_auth(&server.token)
        .json(&json!({"message": message, "locale": locale}))
        .send()
        .await
        .unwrap_or_else(|e| panic!("{e}"))
        .text()
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    let (mut tools, mut reply, mut event) = (Vec::new(), String::new(), String::new());
    for line in text.lines() {
        if let Some(name) = line.strip_prefix("event:") {
            event = name.trim().to_string();
        } else if let Some(data) = line.strip_prefix("data:") {
            let data: Value = serde_json::from_str(data.trim()).unwrap_or(Value::Null);
            match event.as_str() {
                "tool_result" if data["status"] == "done" => {
                    tools.extend(data["name"].as_str().map(String::from));
                }
                "done" => reply = data["reply"].as_str().unwrap_or_default().to_string(),
                _ => {}
            }
        }
    }
    (tools, reply)
}

/// Reminders from the chat with the default local model (Qwen2.5-Coder-1.5B), in
/// English and Chinese: a reminder is made with the rule asked for, its notification
/// arrives at the session's notification server (dunst) on time, the reminders are
/// listed, and one named by what it is for is cancelled. (30 seconds rather than
/// minutes, to keep the test command short; the scheduler fires what is due alike.)
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reminders_from_the_chat_fire_on_the_notification_server() {
    let installed = deskmate_service::local::default_manifest_path()
        .and_then(|p| std::fs::read_to_string(p).ok())
        .unwrap_or_else(|| {
            panic!("the local models are not installed: run scripts/setup-models.sh all")
        });
    let mut manifest: Value = serde_json::from_str(&installed).unwrap_or_else(|e| panic!("{e}"));
    let qwen: Vec<Value> = manifest["llm"]
        .as_array()
        .cloned()
        .unwrap_or_default()
        .into_iter()
        .filter(|m| m["id"] == "local-qwen2.5-coder-1.5b")
        .collect();
    assert_eq!(qwen.len(), 1, "Qwen2.5-Coder-1.5B is installed");
    manifest["llm"] = Value::Array(qwen);
    manifest["asr"] = json!([]);
    let desktop = deskmate_testkit::desktop::DesktopSession::start();
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let path = dir.path().join("local-models.json");
    std::fs::write(&path, manifest.to_string()).unwrap_or_else(|e| panic!("{e}"));
    let data = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let server = Server::start_env(
        data.path(),
        &path.display().to_string(),
        Stdio::null(),
        &[
            ("DBUS_SESSION_BUS_ADDRESS", desktop.bus_address()),
            ("DISPLAY", desktop.display().to_string()),
            ("TZ", "Europe/Berlin".to_string()),
        ],
    );
    let client = Server::client();
    let deadline = std::time::Instant::now() + Duration::from_secs(240);
    loop {
        let (_, models) = server
            .send(&client, reqwest::Method::GET, "/models/llm", None)
            .await;
        if models["list"][0]["state"] == "ready" {
            break;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "the model never got ready: {models}"
        );
        tokio::time::sleep(Duration::from_millis(500)).await;
    }

    let asked = chrono::Utc::now();
    let (tools, reply) = chat(&server, &client, "remind me in 30 seconds to stretch", "en").await;
    assert_eq!(tools, ["schedule"], "{reply}");
    let (_, listed) = server
        .send(&client, reqwest::Method::GET, "/schedules", None)
        .await;
    let made = &listed["list"][0];
    assert_eq!(made["action"]["kind"], "reminder", "{listed}");
    let message = made["action"]["message"]
        .as_str()
        .unwrap_or_default()
        .to_lowercase();
    assert!(message.contains("stretch"), "{listed}");
    assert_eq!(made["rule"]["kind"], "once", "{listed}");
    assert_eq!(made["created_by"], "chat");
    // Its time: the next one, or — when the turn took longer than 30 s on a loaded
    // machine and it fired already — the occurrence of its run.
    let id = made["id"].as_str().unwrap_or_default();
    let (_, runs) = server
        .send(
            &client,
            reqwest::Method::GET,
            &format!("/schedules/{id}/runs"),
            None,
        )
        .await;
    let due = made["next_at"]
        .as_str()
        .or_else(|| runs["list"][0]["occurrence"].as_str())
        .and_then(|at| chrono::DateTime::parse_from_rfc3339(at).ok())
        .map(|at| at.with_timezone(&chrono::Utc))
        .unwrap_or_else(|| panic!("a time: {made} {runs}"));
    // 30 s after the call made it (the turn itself takes a while on a cold model).
    let made_at = made["created_at"]
        .as_str()
        .and_then(|at| chrono::DateTime::parse_from_rfc3339(at).ok())
        .map(|at| at.with_timezone(&chrono::Utc))
        .unwrap_or_else(|| panic!("a creation time: {made}"));
    let ahead = (due - made_at).num_seconds();
    assert!(
        (29..=31).contains(&ahead),
        "due {ahead} s after it was made: {made}"
    );
    assert!(made_at >= asked);
    assert!(
        reply.contains("stretch"),
        "the reply says what was set: {reply}"
    );

    // Chinese, repeating: the rule is every day at 08:00.
    let (tools, reply) = chat(&server, &client, "每天早上8点提醒我喝水", "zh-CN").await;
    assert_eq!(tools, ["schedule"], "{reply}");
    let (_, listed) = server
        .send(&client, reqwest::Method::GET, "/schedules", None)
        .await;
    let daily = listed["list"]
        .as_array()
        .and_then(|l| l.iter().find(|s| s["rule"]["kind"] == "daily"))
        .unwrap_or_else(|| panic!("a daily schedule: {listed}"));
    assert_eq!(daily["rule"]["time"], "08:00:00", "{daily}");
    assert!(
        daily["action"]["message"]
            .as_str()
            .unwrap_or_default()
            .contains("喝水"),
        "{daily}"
    );
    assert!(reply.contains("每天"), "{reply}");

    let (tools, reply) = chat(&server, &client, "what reminders do I have?", "en").await;
    assert!(
        tools.contains(&"list_schedules".to_string()),
        "{tools:?} {reply}"
    );
    assert!(reply.contains("喝水"), "{reply}");

    // Named in its own language: "cancel the water reminder" for 喝水 once cancelled the
    // stretch reminder instead (a known gap of the small model across languages).
    let (tools, reply) = chat(&server, &client, "取消喝水的提醒", "zh-CN").await;
    assert!(
        tools.contains(&"cancel_schedule".to_string()),
        "{tools:?} {reply}"
    );
    let (_, listed) = server
        .send(&client, reqwest::Method::GET, "/schedules", None)
        .await;
    assert!(
        listed["list"]
            .as_array()
            .is_some_and(|l| l.iter().all(|s| s["rule"]["kind"] != "daily")),
        "the daily one is gone, the fired one stays: {listed}"
    );

    // The notification arrives at the notification server, on time: the turns above ran
    // while it was due (a reminder fires whatever the model is doing).
    let arrived = loop {
        let shown = desktop.notifications();
        if let Some(found) = shown
            .iter()
            .find(|(_, body)| body.to_lowercase().contains("stretch"))
        {
            break (chrono::Utc::now(), found.clone());
        }
        assert!(
            chrono::Utc::now() < due + chrono::TimeDelta::seconds(30),
            "no reminder by {due}: {shown:?}"
        );
        tokio::time::sleep(Duration::from_millis(250)).await;
    };
    assert_eq!(arrived.1.0, "Reminder");
    assert!(arrived.0 >= due, "not early: {arrived:?} before {due}");
    // On time, whenever the test looked: the run was claimed within 5 s of its time.
    let (_, runs) = server
        .send(
            &client,
            reqwest::Method::GET,
            &format!("/schedules/{id}/runs"),
            None,
        )
        .await;
    let claimed = runs["list"][0]["claimed_at"]
        .as_str()
        .and_then(|at| chrono::DateTime::parse_from_rfc3339(at).ok())
        .map(|at| at.with_timezone(&chrono::Utc))
        .unwrap_or_else(|| panic!("a run: {runs}"));
    let late = (claimed - due).num_milliseconds();
    assert!(
        (0..5000).contains(&late),
        "claimed {late} ms after its time: {runs}"
    );
    assert_eq!(runs["list"][0]["status"], "succeeded", "{runs}");
}

/// kill -9 between the claim of an occurrence and the end of its run: the next server on
/// the data dir records the run as failed (interrupted) at start, and does not run it
/// again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_run_killed_mid_way_is_failed_by_the_next_server_not_repeated() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let server = Server::start(dir.path());
    let client = Server::client();
    // A call that waits a minute for an answer nobody gives: in flight when killed.
    let (status, made) = server
        .send(
            &client,
            reqwest::Method::POST,
            "/schedules",
            Some(json!({"when": "in 1 second", "tool": "text_choice_prompt",
                        "arguments": {"question": "Tea or coffee?", "options": ["Tea", "Coffee"], "timeout_s": 60}})),
        )
        .await;
    assert_eq!(status, 201, "{made}");
    let id = made["id"].as_str().unwrap_or_default().to_string();
    let runs_path = format!("/schedules/{id}/runs");
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    loop {
        let (_, runs) = server
            .send(&client, reqwest::Method::GET, &runs_path, None)
            .await;
        if runs["list"][0]["status"] == "running" {
            break;
        }
        assert!(std::time::Instant::now() < deadline, "never ran: {runs}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    server.kill_hard();

    let server = Server::start(dir.path());
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    let runs = loop {
        let (_, runs) = server
            .send(&client, reqwest::Method::GET, &runs_path, None)
            .await;
        if runs["list"][0]["status"] == "failed" {
            break runs;
        }
        assert!(std::time::Instant::now() < deadline, "not failed: {runs}");
        tokio::time::sleep(Duration::from_millis(200)).await;
    };
    assert_eq!(runs["total"], 1, "not run again: {runs}");
    let error = runs["list"][0]["result"]["error"]
        .as_str()
        .unwrap_or_default();
    assert!(error.contains("interrupted"), "{runs}");
    let (_, schedule) = server
        .send(
            &client,
            reqwest::Method::GET,
            &format!("/schedules/{id}"),
            None,
        )
        .await;
    assert_eq!(
        (
            schedule["last_status"].clone(),
            schedule["next_at"].clone(),
            schedule["run_count"].clone()
        ),
        (json!("failed"), Value::Null, json!(1)),
        "{schedule}"
    );
}
