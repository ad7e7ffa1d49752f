//! Black-box tests of `deskmate serve` over real HTTP on loopback: the QA journey (create
//! an HTTP tool, call it, see it audited, delete it), restart persistence, exactly-once
//! under 100 concurrent requests, and kill -9 in the middle of 1,000 concurrent writes.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use axum::routing::get;
use axum::{Json, Router};
use serde_json::{Value, json};

struct Server {
    child: Child,
    url: String,
    token: String,
    /// Kept open for the server's life, as a terminal or a log pipe would be.
    stdout: Option<BufReader<std::process::ChildStdout>>,
}

impl Server {
    fn start(data_dir: &Path) -> Self {
        let mut child = Command::new(env!("CARGO_BIN_EXE_deskmate"))
            .args(["--data-dir"])
            .arg(data_dir)
            .args(["serve", "--addr", "127.0.0.1:0"])
            // Hermetic: never the local model servers of this machine.
            .env("DESKMATE_LOCAL", "off")
            .env_remove("DESKMATE_API_TOKEN")
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("spawn: {e}"));
        let stdout = child.stdout.take().unwrap_or_else(|| panic!("stdout"));
        let mut line = String::new();
        let mut stdout = BufReader::new(stdout);
        stdout
            .read_line(&mut line)
            .unwrap_or_else(|e| panic!("read: {e}"));
        let url = line.trim().to_string();
        assert!(
            url.starts_with("http://127.0.0.1:"),
            "first line is the URL: {url:?}"
        );
        let token = std::fs::read_to_string(data_dir.join("api-token"))
            .unwrap_or_else(|e| panic!("token: {e}"));
        Self {
            child,
            url,
            token,
            stdout: Some(stdout),
        }
    }

    fn client() -> reqwest::Client {
        let _ = rustls::crypto::ring::default_provider().install_default();
        reqwest::Client::builder()
            .timeout(Duration::from_secs(30))
            .build()
            .unwrap_or_else(|e| panic!("{e}"))
    }

    async fn send(
        &self,
        client: &reqwest::Client,
        method: reqwest::Method,
        path: &str,
        body: Option<Value>,
    ) -> (u16, Value) {
        let mut request = client
            .request(method, format!("{}{path}", self.url))
            .bearer_auth(&self.token);
        if let Some(body) = body {
            request = request.json(&body);
        }
        let response = request
            .send()
            .await
            .unwrap_or_else(|e| panic!("{path}: {e:?}"));
        let status = response.status().as_u16();
        let body = response.json::<Value>().await.unwrap_or(Value::Null);
        (status, body)
    }

    fn terminate(mut self) -> std::process::ExitStatus {
        let pid = nix::unistd::Pid::from_raw(i32::try_from(self.child.id()).unwrap_or(i32::MAX));
        let _ = nix::sys::signal::kill(pid, nix::sys::signal::Signal::SIGTERM);
        self.child.wait().unwrap_or_else(|e| panic!("{e}"))
    }

    fn kill_hard(mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

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
