//! Managed local servers (llama-server, faster-whisper-server): started on a free
//! loopback port, health-checked, restarted with backoff when they die, stopped on
//! shutdown. The URL is reported each time the server becomes ready or goes away.

use std::path::PathBuf;
use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde::Serialize;
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

/// How to run one server. `{port}` in an argument is replaced by the chosen port.
#[derive(Debug, Clone)]
pub struct SidecarSpec {
    /// A name for logs and status (`llama-server:qwen`).
    pub name: String,
    /// The executable.
    pub program: PathBuf,
    /// Its arguments.
    pub args: Vec<String>,
    /// Extra environment.
    pub env: Vec<(String, String)>,
    /// The path answering 200 once the server is ready (`/health`).
    pub health_path: String,
    /// The OpenAI-style base path under the server (`/v1`).
    pub api_path: String,
    /// How long loading may take before the start counts as failed.
    pub ready_timeout: Duration,
    /// Where the server's output goes (appended); none discards it.
    pub log_file: Option<PathBuf>,
}

/// Where a sidecar is in its life.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case", tag = "state")]
pub enum SidecarState {
    /// Started, loading.
    Starting,
    /// Answering on `url`.
    Ready {
        /// Its base URL.
        url: String,
    },
    /// Died or never got ready; restarting after a pause.
    Restarting {
        /// Why.
        reason: String,
    },
    /// Stopped on request.
    Stopped,
}

/// A sidecar's status.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SidecarStatus {
    /// Its name.
    pub name: String,
    /// Its state.
    #[serde(flatten)]
    pub state: SidecarState,
    /// How many times it was restarted.
    pub restarts: u32,
    /// The running process, if any.
    pub pid: Option<u32>,
}

/// A sidecar that did not get ready in time, with its status then.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{} is not ready: {:?}", .0.name, .0.state)]
pub struct NotReady(pub SidecarStatus);

/// Called with the base URL when the server becomes ready, `None` when it goes away.
pub type OnUrl = Arc<dyn Fn(Option<String>) + Send + Sync>;

/// A running, supervised server.
#[derive(Debug)]
pub struct Sidecar {
    status: Arc<Mutex<SidecarStatus>>,
    stop: CancellationToken,
    task: Option<JoinHandle<()>>,
}

/// The program as a path: as given when it has a directory part, else found on `PATH`.
fn resolve(program: &std::path::Path) -> Option<PathBuf> {
    if program.components().count() > 1 {
        return program.is_file().then(|| program.to_path_buf());
    }
    std::env::var_os("PATH")
        .iter()
        .flat_map(std::env::split_paths)
        .map(|dir| dir.join(program))
        .find(|p| p.is_file())
}

fn free_port() -> std::io::Result<u16> {
    let listener = std::net::TcpListener::bind("127.0.0.1:0")?;
    Ok(listener.local_addr()?.port())
}

impl Sidecar {
    /// Starts supervising: the first start begins at once.
    pub fn start(spec: SidecarSpec, on_url: OnUrl) -> Self {
        let status = Arc::new(Mutex::new(SidecarStatus {
            name: spec.name.clone(),
            state: SidecarState::Starting,
            restarts: 0,
            pid: None,
        }));
        let stop = CancellationToken::new();
        let task = tokio::spawn(supervise(spec, status.clone(), stop.clone(), on_url));
        Self {
            status,
            stop,
            task: Some(task),
        }
    }

    /// The status now.
    pub fn status(&self) -> SidecarStatus {
        self.status
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clone()
    }

    /// Waits until the server is ready; returns its base URL.
    pub async fn wait_ready(&self, timeout: Duration) -> Result<String, NotReady> {
        let deadline = tokio::time::Instant::now() + timeout;
        loop {
            let status = self.status();
            if let SidecarState::Ready { url } = &status.state {
                return Ok(url.clone());
            }
            if tokio::time::Instant::now() >= deadline {
                return Err(NotReady(status));
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    /// Stops the server and its supervision.
    pub async fn stop(mut self) {
        self.stop.cancel();
        if let Some(task) = self.task.take() {
            let _ = task.await;
        }
    }
}

impl Drop for Sidecar {
    fn drop(&mut self) {
        // The child is started with kill_on_drop: cancelling ends the supervisor, which
        // drops (and so kills) the child.
        self.stop.cancel();
    }
}

fn set(status: &Mutex<SidecarStatus>, change: impl FnOnce(&mut SidecarStatus)) {
    let mut status = status
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    change(&mut status);
}

async fn supervise(
    spec: SidecarSpec,
    status: Arc<Mutex<SidecarStatus>>,
    stop: CancellationToken,
    on_url: OnUrl,
) {
    // Installing the provider twice is harmless; reqwest needs one before it builds.
    let _ = rustls::crypto::ring::default_provider().install_default();
    let http = reqwest::Client::builder()
        .timeout(Duration::from_secs(2))
        .build()
        .ok();
    let mut failures: u32 = 0;
    loop {
        let reason = match run_once(&spec, &status, &stop, &on_url, http.as_ref()).await {
            Some(reason) => reason,
            None => break,
        };
        on_url(None);
        failures += 1;
        // 0.5 s, 1 s, 2 s … at most 30 s between attempts.
        let pause = Duration::from_millis(500u64.saturating_mul(1 << failures.min(6)))
            .min(Duration::from_secs(30));
        tracing::warn!(name = %spec.name, %reason, pause_ms = pause.as_millis() as u64, "sidecar down; restarting");
        set(&status, |s| {
            s.state = SidecarState::Restarting { reason };
            s.restarts += 1;
            s.pid = None;
        });
        tokio::select! {
            () = tokio::time::sleep(pause) => {}
            () = stop.cancelled() => break,
        }
    }
    on_url(None);
    set(&status, |s| {
        s.state = SidecarState::Stopped;
        s.pid = None;
    });
}

/// One life of the server; `None` when stopped on request, else why it ended.
async fn run_once(
    spec: &SidecarSpec,
    status: &Mutex<SidecarStatus>,
    stop: &CancellationToken,
    on_url: &OnUrl,
    http: Option<&reqwest::Client>,
) -> Option<String> {
    let port = match free_port() {
        Ok(port) => port,
        Err(e) => return Some(format!("no free port: {e}")),
    };
    let args: Vec<String> = spec
        .args
        .iter()
        .map(|a| a.replace("{port}", &port.to_string()))
        .collect();
    let Some(program) = resolve(&spec.program) else {
        return Some(format!(
            "cannot start {}: no such file (re-run scripts/setup-models.sh)",
            spec.program.display()
        ));
    };
    // On Linux the server is started through setpriv with a parent-death signal, so it
    // dies with Deskmate even when Deskmate is killed with SIGKILL (kill_on_drop only
    // covers an orderly exit).
    let setpriv = std::path::Path::new("/usr/bin/setpriv");
    let mut command = if cfg!(target_os = "linux") && setpriv.is_file() {
        let mut command = tokio::process::Command::new(setpriv);
        command.args(["--pdeathsig", "KILL", "--"]).arg(&program);
        command
    } else {
        tokio::process::Command::new(&program)
    };
    command
        .args(&args)
        .envs(spec.env.iter().map(|(k, v)| (k, v)))
        .stdin(Stdio::null())
        .kill_on_drop(true);
    match spec.log_file.as_ref().and_then(|path| {
        std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .ok()
    }) {
        Some(file) => {
            let err = file.try_clone().ok();
            command.stdout(Stdio::from(file));
            command.stderr(err.map_or_else(Stdio::null, Stdio::from));
        }
        None => {
            command.stdout(Stdio::null()).stderr(Stdio::null());
        }
    }
    let mut child = match command.spawn() {
        Ok(child) => child,
        Err(e) => return Some(format!("cannot start {}: {e}", spec.program.display())),
    };
    set(status, |s| {
        s.state = SidecarState::Starting;
        s.pid = child.id();
    });
    let root = format!("http://127.0.0.1:{port}");
    let url = format!("{root}{}", spec.api_path);
    let health = format!("{root}{}", spec.health_path);
    let deadline = tokio::time::Instant::now() + spec.ready_timeout;
    // Loading.
    loop {
        tokio::select! {
            exit = child.wait() => {
                return Some(format!("exited while loading ({})", exit.map(|s| s.to_string()).unwrap_or_else(|e| e.to_string())));
            }
            () = stop.cancelled() => return None,
            () = tokio::time::sleep(Duration::from_millis(200)) => {}
        }
        let ok = match http {
            Some(http) => http
                .get(&health)
                .send()
                .await
                .is_ok_and(|r| r.status().is_success()),
            None => false,
        };
        if ok {
            break;
        }
        if tokio::time::Instant::now() >= deadline {
            return Some(format!(
                "not ready after {} s",
                spec.ready_timeout.as_secs()
            ));
        }
    }
    tracing::info!(name = %spec.name, %url, "sidecar ready");
    set(status, |s| {
        s.state = SidecarState::Ready { url: url.clone() }
    });
    on_url(Some(url));
    // Serving.
    tokio::select! {
        exit = child.wait() => Some(format!("exited ({})", exit.map(|s| s.to_string()).unwrap_or_else(|e| e.to_string()))),
        () = stop.cancelled() => None,
    }
}
