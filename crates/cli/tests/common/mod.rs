//! What the black-box tests of the `deskmate` binary share: a `deskmate serve` child
//! process on a free loopback port, and requests to its API.
#![allow(dead_code)] // each test binary uses a part

pub mod voice;

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use serde_json::Value;

pub struct Server {
    pub child: Child,
    pub url: String,
    pub token: String,
    /// Kept open for the server's life, as a terminal or a log pipe would be.
    pub stdout: Option<BufReader<std::process::ChildStdout>>,
}

impl Server {
    pub fn start(data_dir: &Path) -> Self {
        // Hermetic: never the local model servers of this machine.
        Self::start_with(data_dir, "off", Stdio::null())
    }

    /// A server with `--local-models local` and its stderr going to `stderr`.
    pub fn start_with(data_dir: &Path, local: &str, stderr: Stdio) -> Self {
        Self::start_env(data_dir, local, stderr, &[])
    }

    /// The same, with extra environment.
    pub fn start_env(data_dir: &Path, local: &str, stderr: Stdio, envs: &[(&str, String)]) -> Self {
        let mut child = Command::new(env!("CARGO_BIN_EXE_deskmate"))
            .envs(envs.iter().map(|(k, v)| (*k, v.as_str())))
            .args(["--data-dir"])
            .arg(data_dir)
            .args(["serve", "--addr", "127.0.0.1:0", "--local-models", local])
            .env_remove("DESKMATE_LOCAL")
            .env_remove("DESKMATE_API_TOKEN")
            .stdout(Stdio::piped())
            .stderr(stderr)
            .spawn()
            .unwrap_or_else(|e| panic!("spawn: {e}"));
        Self::started(child.stdout.take(), child, data_dir)
    }

    /// The server whose first line of `stdout` is its URL.
    fn started(stdout: Option<std::process::ChildStdout>, child: Child, data_dir: &Path) -> Self {
        let stdout = stdout.unwrap_or_else(|| panic!("stdout"));
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

    /// A server run as the user `nobody` (through setpriv), for a test run as root that
    /// needs file permissions to hold; `data_dir` must be writable by everyone. The
    /// binary is copied beside it: `nobody` may not enter the build's folder.
    pub fn start_as_nobody(data_dir: &Path) -> Self {
        use std::os::unix::fs::PermissionsExt;
        let bin = data_dir.join("deskmate-bin");
        std::fs::copy(env!("CARGO_BIN_EXE_deskmate"), &bin).unwrap_or_else(|e| panic!("{e}"));
        std::fs::set_permissions(&bin, std::fs::Permissions::from_mode(0o755))
            .unwrap_or_else(|e| panic!("{e}"));
        let mut child = Command::new("setpriv")
            .args(["--reuid=65534", "--regid=65534", "--clear-groups", "--"])
            .arg(&bin)
            .arg("--data-dir")
            .arg(data_dir)
            .args(["serve", "--addr", "127.0.0.1:0", "--local-models", "off"])
            .env("HOME", data_dir)
            .env("DESKMATE_SECRET_STORE", "file")
            .env_remove("DESKMATE_LOCAL")
            .env_remove("DESKMATE_API_TOKEN")
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap_or_else(|e| panic!("spawn setpriv: {e}"));
        Self::started(child.stdout.take(), child, data_dir)
    }

    pub fn client() -> reqwest::Client {
        let _ = rustls::crypto::ring::default_provider().install_default();
        reqwest::Client::builder()
            // An autotest against local models may take a while on a loaded machine.
            .timeout(Duration::from_secs(180))
            .build()
            .unwrap_or_else(|e| panic!("{e}"))
    }

    pub async fn send(
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

    pub fn terminate(mut self) -> std::process::ExitStatus {
        let pid = nix::unistd::Pid::from_raw(i32::try_from(self.child.id()).unwrap_or(i32::MAX));
        let _ = nix::sys::signal::kill(pid, nix::sys::signal::Signal::SIGTERM);
        self.child.wait().unwrap_or_else(|e| panic!("{e}"))
    }

    pub fn kill_hard(mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Server {
    /// A test that fails part-way must not leave its server running.
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The processes whose parent is `pid` and whose command line contains `name`.
pub fn children_named(pid: u32, name: &str) -> Vec<u32> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").into_iter().flatten().flatten() {
        let Ok(child) = entry.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        let status = std::fs::read_to_string(entry.path().join("status")).unwrap_or_default();
        let parent = status
            .lines()
            .find_map(|l| l.strip_prefix("PPid:"))
            .and_then(|p| p.trim().parse::<u32>().ok());
        let cmdline = std::fs::read(entry.path().join("cmdline")).unwrap_or_default();
        if parent == Some(pid) && String::from_utf8_lossy(&cmdline).contains(name) {
            found.push(child);
        }
    }
    found
}

use deskmate_llm::sidecar::Sidecar;
use deskmate_llm::{AsrClient, AsrRequest, Endpoint};
use deskmate_service::local::{Found, default_manifest_path, load_manifest};

/// The local whisper server (scripts/setup-models.sh tests), started for the test.
pub async fn whisper() -> (Sidecar, AsrClient, String) {
    let (sidecar, url, model) = whisper_server().await;
    let client = AsrClient::new(Endpoint::new(&url, None).unwrap_or_else(|e| panic!("{e}")))
        .unwrap_or_else(|e| panic!("{e}"));
    (sidecar, client, model)
}

/// The local whisper server, started for the test: its sidecar, base URL and model name.
pub async fn whisper_server() -> (Sidecar, String, String) {
    let path = default_manifest_path().unwrap_or_else(|| panic!("no cache dir"));
    let Found::Ready(manifest) = load_manifest(&path) else {
        panic!("the local models are not installed: run scripts/setup-models.sh tests");
    };
    let whisper = manifest
        .asr
        .iter()
        .find(|s| s.id == "local-whisper-base")
        .unwrap_or_else(|| panic!("whisper-base is not installed"));
    let sidecar = Sidecar::start(
        whisper.sidecar("faster-whisper-server", None),
        std::sync::Arc::new(|_| {}),
    );
    let url = sidecar
        .wait_ready(Duration::from_secs(120))
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    (sidecar, url, whisper.model.clone())
}

pub async fn heard(client: &AsrClient, model: &str, language: &str, bytes: Vec<u8>) -> String {
    client
        .transcribe(
            &AsrRequest {
                model: model.to_string(),
                language: Some(language.into()),
                hotwords: Vec::new(),
            },
            bytes,
            "sink.wav",
        )
        .await
        .unwrap_or_else(|e| panic!("{e}"))
        .text
}
