//! A person's own GGUF file as a model, over real HTTP on loopback against `deskmate
//! serve` and the real llama-server: the installed SmolLM2-135M file (through a hard link
//! in a folder whose name has a space and Chinese letters) is added over the API, made the
//! conversation's model, answers a turn, is restarted when its server is killed, restarts with changed settings, passes the autotest's connection checks, fails
//! with the reason once its file is removed while its server runs, and leaves no
//! llama-server behind when it is removed; files that cannot run are refused with 422 at
//! `/file` and store nothing.

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

mod common;

use common::{Server, children_named};
use reqwest::Method;
use serde_json::{Value, json};

/// The installed SmolLM2 file, as the local models' manifest names it.
fn smollm2() -> PathBuf {
    use deskmate_service::local::{Found, default_manifest_path, load_manifest};
    let path = default_manifest_path().unwrap_or_else(|| panic!("no cache dir"));
    let Found::Ready(manifest) = load_manifest(&path) else {
        panic!("the local models are not installed: run scripts/setup-models.sh tests");
    };
    let server = manifest
        .llm
        .iter()
        .find(|s| s.id == "local-smollm2-135m")
        .unwrap_or_else(|| panic!("SmolLM2 is not installed"));
    let at = server
        .args
        .iter()
        .position(|a| a == "-m")
        .unwrap_or_else(|| panic!("no -m"));
    PathBuf::from(&server.args[at + 1])
}

/// `from` at `to` without copying 100 MB when the two are on one file system.
fn link_or_copy(from: &Path, to: &Path) {
    if std::fs::hard_link(from, to).is_err() {
        std::fs::copy(from, to).unwrap_or_else(|e| panic!("{e}"));
    }
}

async fn models(server: &Server, client: &reqwest::Client) -> Vec<Value> {
    let (status, listed) = server.send(client, Method::GET, "/models/llm", None).await;
    assert_eq!(status, 200, "{listed}");
    listed["list"].as_array().cloned().unwrap_or_default()
}

/// The first error's path and message of a 422.
fn refusal(status: u16, body: &Value) -> (u16, String, String) {
    (
        status,
        body["errors"][0]["path"]
            .as_str()
            .unwrap_or_default()
            .to_string(),
        body["errors"][0]["message"]
            .as_str()
            .unwrap_or_default()
            .to_string(),
    )
}

/// Waits until `check` holds for the model's view, or panics with the last one.
async fn until(
    server: &Server,
    client: &reqwest::Client,
    id: &str,
    seconds: u64,
    check: impl Fn(&Value) -> bool,
) -> Value {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(seconds);
    loop {
        let (_, model) = server
            .send(client, Method::GET, &format!("/models/llm/{id}"), None)
            .await;
        if check(&model) {
            return model;
        }
        assert!(tokio::time::Instant::now() < deadline, "still {model}");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

/// One chat turn read to its end: the `done` event's reply and conversation.
async fn chat(server: &Server, client: &reqwest::Client, body: Value) -> (String, String) {
    let text = client
        .post(format!("{}/chat", server.url))
        .bearer_auth(&server.token)
        .json(&body)
        .send()
        .await
        .unwrap_or_else(|e| panic!("{e}"))
        .text()
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    let mut event = String::new();
    for line in text.lines() {
        if let Some(name) = line.strip_prefix("event:") {
            event = name.trim().to_string();
        } else if let Some(data) = line.strip_prefix("data:")
            && event == "done"
        {
            let data: Value = serde_json::from_str(data.trim()).unwrap_or(Value::Null);
            return (
                data["reply"].as_str().unwrap_or_default().to_string(),
                data["conversation_id"]
                    .as_str()
                    .unwrap_or_default()
                    .to_string(),
            );
        }
    }
    panic!("no done event: {text}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_model_file_is_added_answers_is_tested_and_leaves_no_server_behind() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let data = dir.path().join("data");
    let folder = dir.path().join("my models 模型");
    std::fs::create_dir_all(&folder).unwrap_or_else(|e| panic!("{e}"));
    let file = folder.join("smol lm 小.gguf");
    link_or_copy(&smollm2(), &file);
    let server = Server::start_with(&data, "off", Stdio::inherit());
    let client = Server::client();

    // Files that cannot run: each refused at /file, nothing stored.
    let text = folder.join("notes.gguf");
    std::fs::write(&text, "these are my notes, not a model").unwrap_or_else(|e| panic!("{e}"));
    let cut = folder.join("cut short.gguf");
    let bytes = std::fs::read(&file).unwrap_or_else(|e| panic!("{e}"));
    std::fs::write(&cut, &bytes[..65_536]).unwrap_or_else(|e| panic!("{e}"));
    drop(bytes);
    let missing = folder.join("nothing here.gguf");
    for (path, says) in [
        (&missing, "there is no file"),
        (&folder, "is a folder"),
        (&text, "not a GGUF model file"),
        (&cut, "damaged or cut short"),
    ] {
        let (status, body) = server
            .send(
                &client,
                Method::POST,
                "/models/llm",
                Some(json!({"name": "Mine", "file": path})),
            )
            .await;
        let (status, at, message) = refusal(status, &body);
        assert_eq!((status, at.as_str()), (422, "/file"), "{body}");
        assert!(message.contains(says), "{}: {message}", path.display());
    }
    for (body, at) in [
        (json!({"name": "Mine", "file": "models/smol.gguf"}), "/file"),
        (
            json!({"name": "Mine", "file": file, "base_url": "http://127.0.0.1:8080/v1"}),
            "/base_url",
        ),
        (
            json!({"name": "Mine", "file": file, "context_size": 2048}),
            "/context_size",
        ),
        (
            json!({"name": "Mine", "file": file, "context_size": 1_000_000}),
            "/context_size",
        ),
        (json!({"name": "Mine"}), "/base_url"),
    ] {
        let (status, answer) = server
            .send(&client, Method::POST, "/models/llm", Some(body.clone()))
            .await;
        let (status, path, _) = refusal(status, &answer);
        assert_eq!((status, path.as_str()), (422, at), "{body} → {answer}");
    }
    assert!(models(&server, &client).await.is_empty());

    // Added: its settings come from the file and this computer; it starts on first use.
    let (status, added) = server
        .send(
            &client,
            Method::POST,
            "/models/llm",
            Some(json!({"id": "my-smol", "name": "Smol from a file", "file": file})),
        )
        .await;
    assert_eq!(status, 201, "{added}");
    let canonical = std::fs::canonicalize(&file).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        added["file"]["path"],
        json!(canonical.display().to_string())
    );
    assert_eq!(added["managed"], "llama-server");
    assert_eq!(added["model"], "smol-lm-小");
    assert_eq!(added["state"], "stopped", "{added}");
    // It samples as the bundled local model does.
    assert_eq!(
        (added["temperature"].clone(), added["max_tokens"].clone()),
        (json!(0.0), json!(512))
    );
    assert!(
        added["file"]["context_size"]
            .as_i64()
            .is_some_and(|n| (4096..=8192).contains(&n)),
        "{added}"
    );
    assert!(
        added["file"]["threads"].as_i64().is_some_and(|n| n >= 1),
        "{added}"
    );
    // The same file again, by another spelling of its path: refused.
    let again = folder.join(".").join("smol lm 小.gguf");
    let (status, body) = server
        .send(
            &client,
            Method::POST,
            "/models/llm",
            Some(json!({"name": "Twice", "file": again})),
        )
        .await;
    let (status, at, message) = refusal(status, &body);
    assert_eq!((status, at.as_str()), (422, "/file"), "{body}");
    assert!(message.contains("my-smol"), "{message}");
    // It is listed as added among the model files of the folder the setting names.
    let (status, _) = server
        .send(
            &client,
            Method::PUT,
            "/settings/models.folder",
            Some(json!({"value": folder})),
        )
        .await;
    assert_eq!(status, 200);
    let (_, files) = server
        .send(&client, Method::GET, "/model-files", None)
        .await;
    let listed: Vec<(String, Value, bool)> = files["list"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|f| {
            f["path"]
                .as_str()
                .is_some_and(|p| p.contains("my models 模型"))
        })
        .map(|f| {
            (
                f["name"].as_str().unwrap_or_default().to_string(),
                f["model_id"].clone(),
                f["error"].is_null(),
            )
        })
        .collect();
    assert_eq!(
        listed,
        [
            ("cut short.gguf".to_string(), Value::Null, false),
            ("notes.gguf".to_string(), Value::Null, false),
            ("smol lm 小.gguf".to_string(), json!("my-smol"), true),
        ],
        "{files}"
    );

    // The conversation's model: a turn through it starts its server and gets a reply.
    let (reply, _) = chat(
        &server,
        &client,
        json!({"message": "Say hello in one short sentence.", "model_id": "my-smol"}),
    )
    .await;
    // Its words, not a failure's: the error lines all name the model or its server.
    assert!(
        !reply.trim().is_empty() && !reply.contains("my-smol") && !reply.contains("127.0.0.1"),
        "{reply}"
    );
    let ready = until(&server, &client, "my-smol", 60, |m| m["state"] == "ready").await;
    assert!(
        ready["base_url"]
            .as_str()
            .is_some_and(|u| !u.contains("127.0.0.1/v1")),
        "{ready}"
    );
    let pid = server.child.id();
    let first = children_named(pid, "llama-server");
    assert_eq!(first.len(), 1);

    // Its server killed: restarted, and ready again.
    let _ = std::process::Command::new("kill")
        .args(["-9", &first[0].to_string()])
        .status();
    let deadline = tokio::time::Instant::now() + Duration::from_secs(60);
    loop {
        let now = children_named(pid, "llama-server");
        let (_, model) = server
            .send(&client, Method::GET, "/models/llm/my-smol", None)
            .await;
        if now.len() == 1 && now != first && model["state"] == "ready" {
            break;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "not restarted: {model}"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }

    // A change of its settings stops its server; the autotest from its button starts it
    // again with them, and finds the model there and answering.
    let (status, changed) = server
        .send(
            &client,
            Method::PUT,
            "/models/llm/my-smol",
            Some(json!({"context_size": 4096, "threads": 1})),
        )
        .await;
    assert_eq!(
        (status, changed["file"]["context_size"].clone()),
        (200, json!(4096)),
        "{changed}"
    );
    assert_eq!(changed["state"], "stopped", "{changed}");
    let (status, run) = server
        .send(&client, Method::POST, "/tools/autotest/llm/my-smol", None)
        .await;
    assert_eq!(status, 200, "{run}");
    for name in ["Model Existence", "API Connection", "Streaming Support"] {
        let case = run["tests"]
            .as_array()
            .into_iter()
            .flatten()
            .find(|t| t["name"] == name)
            .unwrap_or_else(|| panic!("no {name}: {run}"));
        assert_eq!(case["passed"], true, "{case}");
    }
    let servers = children_named(pid, "llama-server");
    assert_eq!(servers.len(), 1, "one server after the restart");
    let args = std::fs::read(format!("/proc/{}/cmdline", servers[0]))
        .map(|c| String::from_utf8_lossy(&c).replace('\0', " "))
        .unwrap_or_default();
    assert!(args.contains("-c 4096 -t 1"), "{args}");

    // Its file removed while the server runs: failed, with the reason; no server left.
    std::fs::remove_file(&file).unwrap_or_else(|e| panic!("{e}"));
    let failed = until(&server, &client, "my-smol", 20, |m| m["state"] == "failed").await;
    assert!(
        failed["state_detail"]
            .as_str()
            .is_some_and(|d| d.contains("gone")),
        "{failed}"
    );
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    while !children_named(pid, "llama-server").is_empty() {
        assert!(
            tokio::time::Instant::now() < deadline,
            "its server still runs"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }

    // Back in place and removed: nothing of it is left.
    link_or_copy(&smollm2(), &file);
    let (status, _) = server
        .send(&client, Method::DELETE, "/models/llm/my-smol", None)
        .await;
    assert_eq!(status, 200);
    assert!(models(&server, &client).await.is_empty());
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert!(children_named(pid, "llama-server").is_empty());
    assert!(server.terminate().success());
}

/// A file this user may not read is refused with the reason. The test command runs as
/// root, whom no file mode stops, so the server runs as `nobody` there (setpriv).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_file_the_user_cannot_read_is_refused() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let data = dir.path().join("data");
    std::fs::create_dir_all(&data).unwrap_or_else(|e| panic!("{e}"));
    let file = dir.path().join("private.gguf");
    std::fs::write(&file, b"GGUF\x03\0\0\0").unwrap_or_else(|e| panic!("{e}"));
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o000))
        .unwrap_or_else(|e| panic!("{e}"));
    let root = {
        use std::os::unix::fs::MetadataExt;
        std::fs::metadata("/proc/self").is_ok_and(|m| m.uid() == 0)
    };
    if root {
        for path in [dir.path(), data.as_path()] {
            std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o777))
                .unwrap_or_else(|e| panic!("{e}"));
        }
    }
    let server = if root {
        Server::start_as_nobody(&data)
    } else {
        Server::start(&data)
    };
    let client = Server::client();
    let (status, body) = server
        .send(
            &client,
            Method::POST,
            "/models/llm",
            Some(json!({"name": "Private", "file": file})),
        )
        .await;
    let (status, at, message) = refusal(status, &body);
    assert_eq!((status, at.as_str()), (422, "/file"), "{body}");
    assert!(
        message.contains("cannot be read") && message.contains("ermission denied"),
        "{message}"
    );
    assert!(models(&server, &client).await.is_empty());
}
