//! Runs Python code in a separate, locked-down process — never in-process.
//!
//! The [`Runner`] starts the `deskmate-sandbox` helper (this crate's binary) in a new
//! process group with a clean environment, a fresh temporary directory and the code on
//! stdin. The helper confines itself before it starts Python (Linux: new network and PID
//! namespaces, a dedicated unprivileged uid when started as root, rlimits, Landlock for the
//! filesystem, TCP and signals, a seccomp filter), reports what it enforced on its first
//! stderr line, and refuses to start Python when a required protection is missing —
//! unless the caller allowed a weaker mode, and then every [`RunOutput`] lists what is
//! missing in `weaker`.
//!
//! The runner enforces the wall-clock timeout (the whole process group is killed; with a
//! PID namespace every process the code started dies with it), caps stdout and stderr,
//! and removes the temporary directory.

mod protocol;

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use serde::Serialize;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWriteExt};
use tokio_util::sync::CancellationToken;

pub use protocol::{HelperConfig, Limits, Missing, REFUSED_EXIT_CODE, REPORT_PREFIX, Report};

/// The helper binary's file name.
pub const HELPER_NAME: &str = "deskmate-sandbox";

/// The cell driver Python runs (`python -c`).
const DRIVER: &str = include_str!("driver.py");

/// The result file the driver writes, inside the run's temporary directory.
const RESULT_FILE: &str = "result.json";

/// Why a run did not produce an output.
#[derive(Debug, thiserror::Error)]
pub enum SandboxError {
    /// A required protection could not be applied, and weaker mode is not allowed.
    #[error("refused to run: {} cannot be enforced here", names(.missing))]
    Refused {
        /// What is missing and why.
        missing: Vec<Missing>,
    },
    /// The code ran past its wall-clock limit; the whole process group was killed.
    #[error("the code ran longer than {} s and was stopped", .after.as_secs())]
    TimedOut {
        /// The limit.
        after: Duration,
        /// What the code printed before it was stopped (capped).
        stdout: String,
    },
    /// The call was cancelled; the process group was killed.
    #[error("the run was cancelled")]
    Cancelled,
    /// Python or the helper is missing, or the OS is not supported.
    #[error("{0}")]
    Unavailable(String),
    /// Starting or talking to the helper failed.
    #[error("sandbox I/O failed: {0}")]
    Io(String),
}

fn names(missing: &[Missing]) -> String {
    missing
        .iter()
        .map(|m| m.protection.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}

/// What one run produced.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct RunOutput {
    /// What the code printed on stdout (capped).
    pub stdout: String,
    /// What the code printed on stderr, tracebacks included (capped).
    pub stderr: String,
    /// `repr()` of the cell's final expression, when it has one and it is not `None`.
    pub result: Option<String>,
    /// The process's exit code; 128 + n when signal n ended it.
    pub exit_code: i32,
    /// Wall-clock time of the run, start of the helper to its end.
    pub duration_ms: u64,
    /// Whether stdout or stderr was cut at the cap.
    pub truncated: bool,
    /// The protections that were actually enforced for this run.
    pub protections: Vec<String>,
    /// The uncaught exception, one line (`ZeroDivisionError: division by zero`).
    pub error: Option<String>,
    /// Protections that were missing and skipped because weaker mode is allowed.
    pub weaker: Vec<Missing>,
}

/// Runs Python cells in the sandbox.
#[derive(Debug, Clone)]
pub struct Runner {
    helper: PathBuf,
    python: PathBuf,
    limits: Limits,
    allow_weaker: bool,
    temp_root: PathBuf,
}

impl Runner {
    /// A runner with the default limits, the helper found next to the running executable
    /// (or at `DESKMATE_SANDBOX_HELPER`) and Python at `DESKMATE_PYTHON`, else
    /// `/usr/bin/python3`, else `python3` on `PATH`.
    pub fn new() -> Result<Self, SandboxError> {
        Ok(Self {
            helper: locate_helper()?,
            python: locate_python()?,
            limits: Limits::default(),
            allow_weaker: false,
            temp_root: std::env::temp_dir(),
        })
    }

    /// Uses this helper binary.
    #[must_use]
    pub fn with_helper(mut self, helper: impl Into<PathBuf>) -> Self {
        self.helper = helper.into();
        self
    }

    /// Uses this Python interpreter.
    #[must_use]
    pub fn with_python(mut self, python: impl Into<PathBuf>) -> Self {
        self.python = python.into();
        self
    }

    /// Uses these limits.
    #[must_use]
    pub fn with_limits(mut self, limits: Limits) -> Self {
        self.limits = limits;
        self
    }

    /// Allows running when a protection cannot be applied (every output then says what
    /// is missing). Off by default: the runner fails closed.
    #[must_use]
    pub fn allow_weaker(mut self, allow: bool) -> Self {
        self.allow_weaker = allow;
        self
    }

    /// Creates each run's temporary directory under this one (default: the OS temp dir).
    #[must_use]
    pub fn with_temp_root(mut self, dir: impl Into<PathBuf>) -> Self {
        self.temp_root = dir.into();
        self
    }

    /// The limits in force.
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// Runs one cell with the configured wall-clock limit.
    pub async fn run(&self, code: &str) -> Result<RunOutput, SandboxError> {
        self.run_with(code, self.limits.wall_seconds, &CancellationToken::new())
            .await
    }

    /// Runs one cell; `wall_seconds` (capped at the configured limit) bounds its time,
    /// and `cancel` stops it at once.
    pub async fn run_with(
        &self,
        code: &str,
        wall_seconds: u64,
        cancel: &CancellationToken,
    ) -> Result<RunOutput, SandboxError> {
        if !cfg!(unix) {
            return Err(SandboxError::Unavailable(format!(
                "code_interpreter is unsupported on this OS ({})",
                std::env::consts::OS
            )));
        }
        let wall = Duration::from_secs(wall_seconds.clamp(1, self.limits.wall_seconds.max(1)));
        let dir = tempfile::Builder::new()
            .prefix("deskmate-sbx-")
            .tempdir_in(&self.temp_root)
            .map_err(|e| SandboxError::Io(format!("cannot create the run's directory: {e}")))?;
        let work = dir.path().join("work");
        std::fs::create_dir(&work).map_err(|e| SandboxError::Io(e.to_string()))?;
        let uid = sandbox_uid(dir.path(), &work)?;
        let config = HelperConfig {
            python: self.python.clone(),
            python_args: vec![
                "-I".into(),
                "-B".into(),
                "-u".into(),
                "-X".into(),
                "utf8".into(),
                "-c".into(),
                DRIVER.into(),
                dir.path().join(RESULT_FILE).display().to_string(),
            ],
            work_dir: work.clone(),
            writable: dir.path().to_path_buf(),
            readable: python_paths(&self.python),
            env: vec![
                ("PATH".into(), "/usr/bin:/bin".into()),
                ("HOME".into(), work.display().to_string()),
                ("TMPDIR".into(), work.display().to_string()),
                ("LANG".into(), "C.UTF-8".into()),
                ("LC_ALL".into(), "C.UTF-8".into()),
            ],
            limits: self.limits.clone(),
            allow_weaker: self.allow_weaker,
            uid,
        };
        let config_json =
            serde_json::to_string(&config).map_err(|e| SandboxError::Io(e.to_string()))?;
        let started = Instant::now();
        let mut command = tokio::process::Command::new(&self.helper);
        command
            .arg(config_json)
            .env_clear()
            .current_dir(&work)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .kill_on_drop(true);
        #[cfg(unix)]
        command.process_group(0);
        let mut child = command.spawn().map_err(|e| {
            SandboxError::Unavailable(format!(
                "cannot start the sandbox helper {}: {e}",
                self.helper.display()
            ))
        })?;
        let pgid = child.id();
        let (Some(mut stdin), Some(stdout), Some(stderr)) =
            (child.stdin.take(), child.stdout.take(), child.stderr.take())
        else {
            return Err(SandboxError::Io("the helper's pipes are missing".into()));
        };
        let cap = self.limits.output_bytes;
        let code = code.to_owned();
        let feed = tokio::spawn(async move {
            // A cell that never reads stdin may exit first: a broken pipe is not an error.
            let _ = stdin.write_all(code.as_bytes()).await;
            let _ = stdin.shutdown().await;
        });
        let out_task = tokio::spawn(read_capped(stdout, cap));
        let err_task = tokio::spawn(read_capped(stderr, cap + protocol::MAX_REPORT_BYTES));
        let waited = tokio::select! {
            status = child.wait() => Waited::Exited(status),
            () = tokio::time::sleep(wall) => Waited::TimedOut,
            () = cancel.cancelled() => Waited::Cancelled,
        };
        if !matches!(waited, Waited::Exited(_)) {
            kill_group(pgid);
            let _ = child.wait().await;
        }
        feed.abort();
        let duration_ms = u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX);
        let (stdout, out_cut) = out_task.await.unwrap_or_default();
        let (stderr, err_cut) = err_task.await.unwrap_or_default();
        let (report, stderr) = protocol::split_report(&stderr);
        let stdout_text = String::from_utf8_lossy(&stdout).into_owned();
        let status = match waited {
            Waited::Exited(status) => status.map_err(|e| SandboxError::Io(e.to_string()))?,
            Waited::TimedOut => {
                return Err(SandboxError::TimedOut {
                    after: wall,
                    stdout: stdout_text,
                });
            }
            Waited::Cancelled => return Err(SandboxError::Cancelled),
        };
        let Some(report) = report else {
            return Err(SandboxError::Io(format!(
                "the helper ended without a report (status {status}): {}",
                String::from_utf8_lossy(stderr).trim()
            )));
        };
        if report.refused {
            return Err(SandboxError::Refused {
                missing: report.missing,
            });
        }
        let outcome = read_outcome(&dir.path().join(RESULT_FILE));
        Ok(RunOutput {
            stdout: stdout_text,
            stderr: String::from_utf8_lossy(stderr).into_owned(),
            result: outcome.result,
            exit_code: exit_code(status),
            duration_ms,
            truncated: out_cut || err_cut,
            protections: report.applied,
            error: outcome.error,
            weaker: report.missing,
        })
    }
}

enum Waited {
    Exited(std::io::Result<std::process::ExitStatus>),
    TimedOut,
    Cancelled,
}

#[derive(Debug, Default, serde::Deserialize)]
struct Outcome {
    result: Option<String>,
    error: Option<String>,
}

fn read_outcome(path: &Path) -> Outcome {
    // At most what the driver writes (a 20,000-character repr plus the error line).
    let Ok(bytes) = std::fs::read(path) else {
        return Outcome::default();
    };
    if bytes.len() > 256 * 1024 {
        return Outcome::default();
    }
    serde_json::from_slice(&bytes).unwrap_or_default()
}

/// Reads a pipe to its end, keeping the first `cap` bytes; what follows is read and dropped
/// so the writer never blocks. Returns the bytes and whether anything was dropped.
async fn read_capped(mut pipe: impl AsyncRead + Unpin, cap: usize) -> (Vec<u8>, bool) {
    let mut kept = Vec::new();
    let mut cut = false;
    let mut buf = vec![0u8; 64 * 1024];
    loop {
        match pipe.read(&mut buf).await {
            Ok(0) | Err(_) => break,
            Ok(n) => {
                let room = cap.saturating_sub(kept.len());
                kept.extend_from_slice(&buf[..n.min(room)]);
                cut |= n > room;
            }
        }
    }
    (kept, cut)
}

#[cfg(unix)]
fn exit_code(status: std::process::ExitStatus) -> i32 {
    use std::os::unix::process::ExitStatusExt;
    status
        .code()
        .or_else(|| status.signal().map(|s| 128 + s))
        .unwrap_or(-1)
}

#[cfg(not(unix))]
fn exit_code(status: std::process::ExitStatus) -> i32 {
    status.code().unwrap_or(-1)
}

#[cfg(unix)]
fn kill_group(pgid: Option<u32>) {
    use nix::sys::signal::{Signal, killpg};
    use nix::unistd::Pid;
    if let Some(pid) = pgid.and_then(|p| i32::try_from(p).ok())
        && let Err(e) = killpg(Pid::from_raw(pid), Signal::SIGKILL)
    {
        tracing::debug!(error = %e, "the sandbox's process group was already gone");
    }
}

#[cfg(not(unix))]
fn kill_group(_pgid: Option<u32>) {}

/// When Deskmate runs as root, each run gets a uid of its own (no passwd entry, no
/// groups) that owns the run's directory: its process limit then counts only its own
/// processes, and it can signal nothing else.
#[cfg(unix)]
fn sandbox_uid(root: &Path, work: &Path) -> Result<Option<u32>, SandboxError> {
    use std::hash::{BuildHasher, Hasher};
    if !nix::unistd::geteuid().is_root() {
        return Ok(None);
    }
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    hasher.write_u32(std::process::id());
    let uid = protocol::SANDBOX_UID_BASE + (hasher.finish() % protocol::SANDBOX_UID_SPAN) as u32;
    for dir in [root, work] {
        nix::unistd::chown(
            dir,
            Some(nix::unistd::Uid::from_raw(uid)),
            Some(nix::unistd::Gid::from_raw(uid)),
        )
        .map_err(|e| SandboxError::Io(format!("cannot hand the run's directory over: {e}")))?;
    }
    Ok(Some(uid))
}

#[cfg(not(unix))]
fn sandbox_uid(_root: &Path, _work: &Path) -> Result<Option<u32>, SandboxError> {
    Ok(None)
}

fn locate_helper() -> Result<PathBuf, SandboxError> {
    if let Some(path) = std::env::var_os("DESKMATE_SANDBOX_HELPER") {
        return Ok(PathBuf::from(path));
    }
    let name = format!("{HELPER_NAME}{}", std::env::consts::EXE_SUFFIX);
    let exe = std::env::current_exe().map_err(|e| SandboxError::Unavailable(e.to_string()))?;
    // Next to the app; for test binaries (target/debug/deps/…) one level up.
    let candidates = exe
        .ancestors()
        .skip(1)
        .take(2)
        .map(|dir| dir.join(&name))
        .collect::<Vec<_>>();
    candidates
        .iter()
        .find(|p| p.is_file())
        .cloned()
        .ok_or_else(|| {
            SandboxError::Unavailable(format!(
                "the sandbox helper `{name}` is not installed next to {} (set DESKMATE_SANDBOX_HELPER)",
                exe.display()
            ))
        })
}

fn locate_python() -> Result<PathBuf, SandboxError> {
    if let Some(path) = std::env::var_os("DESKMATE_PYTHON") {
        return Ok(PathBuf::from(path));
    }
    let system = Path::new("/usr/bin/python3");
    if system.is_file() {
        return Ok(system.to_path_buf());
    }
    std::env::var_os("PATH")
        .iter()
        .flat_map(std::env::split_paths)
        .map(|dir| dir.join("python3"))
        .find(|p| p.is_file())
        .ok_or_else(|| {
            SandboxError::Unavailable(
                "Python 3 is not installed (install python3 or set DESKMATE_PYTHON)".into(),
            )
        })
}

/// What the sandboxed Python may read (and execute): its own files, the shared libraries
/// it loads, time-zone data. Found once per interpreter by asking it for `sys.path`.
fn python_paths(python: &Path) -> Vec<PathBuf> {
    /// Readable paths by interpreter.
    type Known = Vec<(PathBuf, Vec<PathBuf>)>;
    static CACHE: OnceLock<std::sync::Mutex<Known>> = OnceLock::new();
    let cache = CACHE.get_or_init(Default::default);
    if let Ok(known) = cache.lock()
        && let Some((_, paths)) = known.iter().find(|(p, _)| p == python)
    {
        return paths.clone();
    }
    let mut paths: Vec<PathBuf> = [
        "/usr/lib",
        "/usr/lib64",
        "/lib",
        "/lib64",
        "/usr/share/zoneinfo",
        "/etc/localtime",
        "/etc/ld.so.cache",
    ]
    .iter()
    .map(PathBuf::from)
    .collect();
    if let Ok(real) = std::fs::canonicalize(python) {
        paths.push(real);
    }
    let probe = std::process::Command::new(python)
        .args([
            "-I",
            "-c",
            "import sys, json; print(json.dumps([sys.prefix, sys.exec_prefix, sys.base_prefix] + sys.path))",
        ])
        .env_clear()
        .stdin(Stdio::null())
        .stderr(Stdio::null())
        .output();
    if let Ok(output) = probe
        && let Ok(list) = serde_json::from_slice::<Vec<String>>(&output.stdout)
    {
        for entry in list.into_iter().filter(|e| !e.is_empty()) {
            let path = PathBuf::from(entry);
            // The prefix itself may be /usr: only its library dirs are needed.
            if path.join("bin").is_dir() {
                for lib in ["lib", "lib64"] {
                    paths.push(path.join(lib));
                }
            } else {
                paths.push(path);
            }
        }
    }
    paths.retain(|p| p.exists());
    paths.sort();
    paths.dedup();
    if let Ok(mut known) = cache.lock() {
        known.push((python.to_path_buf(), paths.clone()));
    }
    paths
}
