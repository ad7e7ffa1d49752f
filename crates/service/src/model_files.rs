//! Models from a person's own GGUF files: the file checked before anything is stored (it
//! exists, is a readable GGUF file, fits in free memory, no other model uses it), the
//! server's settings chosen from its header and this computer (context size, threads),
//! and its llama-server run as a managed sidecar — started on first use (or at launch for
//! the default model), restarted when it dies, stopped when the model is removed or
//! changed, when its file goes away, and on exit. The `.gguf` files of the models folders
//! are listed for the Models page to offer.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, RwLock};
use std::time::Duration;

use deskmate_llm::gguf::{self, GgufError, GgufInfo};
use deskmate_llm::sidecar::{Sidecar, SidecarSpec, SidecarState};
use deskmate_store::models::{LlmModel, ModelFile};
use serde::Serialize;
use tokio_util::sync::CancellationToken;
use utoipa::ToSchema;

use crate::error::FieldError;
use crate::managed::Managed;
use crate::model_view::{Serving, ServingState};
use crate::{Deskmate, ServiceError};

/// The `managed` value of a model Deskmate runs with llama-server.
pub const LLAMA_SERVER: &str = "llama-server";
/// The stored base URL of a managed model (the port is chosen at each start).
pub const PLACEHOLDER_URL: &str = "http://127.0.0.1/v1";
/// The context a model file is run with when none is asked (and it was trained for as
/// much): what the bundled model runs with.
pub const DEFAULT_CONTEXT: u64 = 8192;
/// The setting naming one more folder whose `.gguf` files the Models page offers.
pub const FOLDER_SETTING: &str = "models.folder";
/// How many of its last log lines a failed server's state shows.
const LOG_TAIL: usize = 5;
/// How often a running file model's server and file are looked at.
const WATCH: Duration = Duration::from_millis(250);

fn field(path: &str, message: impl Into<String>, hint: impl Into<String>) -> FieldError {
    FieldError {
        path: path.to_string(),
        message: message.into(),
        hint: hint.into(),
    }
}

/// Why a path is not a model file this computer can run, as the field error a person
/// reads; the header when it is one.
pub fn inspect(path: &Path) -> Result<GgufInfo, FieldError> {
    let shown = path.display();
    let hint = "choose a .gguf model file on this computer";
    match std::fs::metadata(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(field("/file", format!("there is no file at {shown}"), hint));
        }
        Err(e) => return Err(field("/file", format!("{shown} cannot be read: {e}"), hint)),
        Ok(meta) if meta.is_dir() => {
            return Err(field(
                "/file",
                format!("{shown} is a folder, not a model file"),
                "choose the .gguf file inside it",
            ));
        }
        Ok(_) => {}
    }
    gguf::read_info(path).map_err(|e| {
        let message = match e {
            GgufError::Unreadable(why) => format!("{shown} cannot be read: {why}"),
            other => format!("{shown}: {other}"),
        };
        field("/file", message, hint)
    })
}

/// Fills in what a model from a file takes from the file and this computer: its path made
/// canonical, the context (asked or chosen), the threads, the model name; `managed` and
/// the placeholder URL. Refuses, as field errors, a file that cannot run here or that
/// another model (`others`) uses.
pub(crate) fn prepare(model: &mut LlmModel, others: &[LlmModel]) -> Result<(), Vec<FieldError>> {
    let Some(file) = &mut model.file else {
        return Ok(());
    };
    let info = inspect(Path::new(&file.path)).map_err(|e| vec![e])?;
    let canonical = std::fs::canonicalize(&file.path).map_err(|e| {
        vec![field(
            "/file",
            format!("{}: {e}", file.path),
            "choose another file",
        )]
    })?;
    file.path = canonical.display().to_string();
    if let Some(other) = others
        .iter()
        .find(|m| m.id != model.id && m.file.as_ref().is_some_and(|f| f.path == file.path))
    {
        return Err(vec![field(
            "/file",
            format!(
                "the model '{}' ({}) already runs this file",
                other.name, other.id
            ),
            "use that model, or remove it first",
        )]);
    }
    let trained = info.context_length.unwrap_or(DEFAULT_CONTEXT);
    if trained < gguf::MIN_CONTEXT {
        return Err(vec![field(
            "/file",
            format!(
                "the model was trained for a context of {trained} tokens, and a turn needs at least {}: the tools' descriptions alone are about 2,500",
                gguf::MIN_CONTEXT
            ),
            "choose a model made for longer contexts",
        )]);
    }
    let asked = u64::try_from(file.context_size).ok().filter(|n| *n > 0);
    if let Some(asked) = asked
        && asked > trained
    {
        return Err(vec![field(
            "/context_size",
            format!(
                "the model was trained for a context of {trained} tokens, and {asked} were asked"
            ),
            format!("at most {trained}"),
        )]);
    }
    let wanted = asked.unwrap_or(DEFAULT_CONTEXT.min(trained));
    let free = gguf::available_memory().unwrap_or(u64::MAX);
    let fits = gguf::fitting_context(&info, free, wanted).map_err(|too_large| {
        vec![field(
            "/file",
            format!("{} is too large for this computer: {too_large}", file.path),
            "close other programs, or choose a smaller (more quantized) model",
        )]
    })?;
    if let Some(asked) = asked
        && fits < asked
    {
        return Err(vec![field(
            "/context_size",
            format!("a context of {asked} tokens does not fit in the memory free now"),
            format!("at most {fits}"),
        )]);
    }
    file.context_size = i64::try_from(fits).unwrap_or(i64::MAX);
    if file.threads <= 0 {
        file.threads = std::thread::available_parallelism().map_or(1, |n| n.get() as i64);
    }
    if model.model.is_empty() {
        model.model = model_name(&canonical, &info);
    }
    model.managed = Some(LLAMA_SERVER.into());
    model.base_url = PLACEHOLDER_URL.into();
    Ok(())
}

/// The name requests carry for a file's model: its file name without `.gguf`, in the
/// letters a model name takes.
fn model_name(path: &Path, info: &GgufInfo) -> String {
    let stem = path
        .file_stem()
        .and_then(|s| s.to_str())
        .or(info.name.as_deref())
        .unwrap_or("local-model");
    let name: String = stem
        .chars()
        .map(|c| if c.is_whitespace() { '-' } else { c })
        .take(crate::model_input::MODEL_MAX)
        .collect();
    if name.trim().is_empty() {
        "local-model".into()
    } else {
        name
    }
}

/// What a file model's server is doing, as its watcher last saw it.
#[derive(Debug, Clone, PartialEq, Eq)]
enum FileState {
    /// Loading; the server's last log line.
    Loading(Option<String>),
    /// Serving.
    Ready,
    /// Not serving, and why (with the log's last lines).
    Failed(String),
}

/// One start of a file model's server, as the managed state hears of it: what it reports
/// counts only while it is the current start, so a server being stopped cannot clear (or
/// set) the URL of the one started after it for the same model.
#[derive(Debug, Clone)]
struct Generation {
    id: String,
    managed: Arc<Managed>,
    current: Arc<Mutex<bool>>,
}

impl Generation {
    fn new(id: &str, managed: Arc<Managed>) -> Self {
        Self {
            id: id.to_string(),
            managed,
            current: Arc::new(Mutex::new(true)),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, bool> {
        self.current
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    fn set_url(&self, url: Option<String>) {
        let current = self.lock();
        if *current {
            self.managed.set_url(&self.id, url);
        }
    }

    fn set_starting(&self, starting: bool) {
        let current = self.lock();
        if *current {
            self.managed.set_starting(&self.id, starting);
        }
    }

    /// Nothing this start reports reaches the managed state after this.
    fn end(&self) {
        *self.lock() = false;
    }
}

/// One file model's server and its watcher.
#[derive(Debug)]
struct Running {
    generation: Generation,
    state: Arc<Mutex<FileState>>,
    stop: CancellationToken,
    watcher: tokio::task::JoinHandle<()>,
}

/// The servers of the models run from files, by model id.
#[derive(Debug, Default)]
pub(crate) struct FileServers {
    running: Mutex<HashMap<String, Running>>,
    /// The llama-server program, as the local models' manifest names it.
    program: RwLock<Option<PathBuf>>,
}

impl Drop for FileServers {
    fn drop(&mut self) {
        let running = self
            .running
            .get_mut()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        for server in running.values() {
            server.stop.cancel();
        }
    }
}

/// The last `n` non-empty lines of a log file, read from its last 64 KiB only (the
/// watcher asks four times a second while a server loads).
fn log_tail(path: &Path, n: usize) -> Vec<String> {
    use std::io::{Read, Seek, SeekFrom};
    const TAIL: u64 = 64 * 1024;
    let mut bytes = Vec::new();
    if let Ok(mut file) = std::fs::File::open(path) {
        let size = file.metadata().map_or(0, |m| m.len());
        let _ = file.seek(SeekFrom::Start(size.saturating_sub(TAIL)));
        let _ = file.take(TAIL).read_to_end(&mut bytes);
    }
    let text = String::from_utf8_lossy(&bytes);
    let lines: Vec<String> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(|l| l.chars().take(300).collect())
        .collect();
    lines[lines.len().saturating_sub(n)..].to_vec()
}

/// Watches one server: its state as the sidecar reports it (a restart is a failure with
/// the log's last lines, until it is ready again), and its file (gone: the server is
/// stopped and the model failed, so it does not run a file that was taken away).
async fn watch(
    id: String,
    spec: SidecarSpec,
    path: PathBuf,
    state: Arc<Mutex<FileState>>,
    managed: Generation,
    stop: CancellationToken,
) {
    let log = spec.log_file.clone();
    let urls = managed.clone();
    let sidecar = Sidecar::start(spec, Arc::new(move |url| urls.set_url(url)));
    let set = |next: FileState| {
        *state
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = next;
    };
    loop {
        tokio::select! {
            () = stop.cancelled() => break,
            () = tokio::time::sleep(WATCH) => {}
        }
        if !path.is_file() {
            tracing::warn!(model = %id, file = %path.display(), "the model file is gone; stopping its server");
            sidecar.stop().await;
            managed.set_url(None);
            managed.set_starting(false);
            set(FileState::Failed(format!(
                "the model file {} is gone (moved or deleted), so its server was stopped",
                path.display()
            )));
            return;
        }
        let tail = || {
            log.as_deref()
                .map(|l| log_tail(l, LOG_TAIL))
                .unwrap_or_default()
        };
        match sidecar.status().state {
            SidecarState::Starting => set(FileState::Loading(tail().pop())),
            SidecarState::Ready { .. } => set(FileState::Ready),
            SidecarState::Restarting { reason } => {
                // Calls waiting for it fail now, with this reason, instead of at the
                // start timeout.
                managed.set_starting(false);
                let lines = tail();
                let mut why = format!("the model's server {reason}; restarting");
                if !lines.is_empty() {
                    why.push_str(". Its last log lines: ");
                    why.push_str(&lines.join(" | "));
                }
                set(FileState::Failed(why));
            }
            SidecarState::Stopped => break,
        }
    }
    sidecar.stop().await;
    managed.set_url(None);
    managed.set_starting(false);
}

impl Deskmate {
    /// Records the llama-server program that runs model files (the local models'
    /// manifest's).
    pub fn set_llama_server(&self, program: PathBuf) {
        *self
            .file_servers
            .program
            .write()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = Some(program);
    }

    /// The llama-server program: `DESKMATE_LLAMA_SERVER`, else the one recorded from the
    /// manifest, else the default manifest's, else `llama-server` on `PATH`.
    fn llama_server(&self) -> PathBuf {
        if let Some(path) = std::env::var_os("DESKMATE_LLAMA_SERVER") {
            return PathBuf::from(path);
        }
        if let Some(path) = self
            .file_servers
            .program
            .read()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clone()
        {
            return path;
        }
        let manifest =
            crate::local::default_manifest_path().map(|path| crate::local::load_manifest(&path));
        if let Some(crate::local::Found::Ready(manifest)) = manifest
            && let Some(server) = manifest.llm.first()
        {
            return server.program.clone();
        }
        PathBuf::from(LLAMA_SERVER)
    }

    /// How a file model's llama-server is run: the file's own chat template (`--jinja`),
    /// one slot, its prompt caches in the data dir's `slots`, its output in
    /// `logs/<id>.log` (written anew at each start of Deskmate's).
    fn file_server_spec(&self, model: &LlmModel, file: &ModelFile) -> SidecarSpec {
        let logs = self.data_dir.join("logs");
        let slots = self.data_dir.join("slots");
        let _ = std::fs::create_dir_all(&logs);
        let _ = std::fs::create_dir_all(&slots);
        let log = logs.join(format!("{}.log", model.id));
        let _ = std::fs::write(&log, b"");
        self.slot_dirs
            .write()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .insert(model.id.clone(), slots.clone());
        let args = [
            "--host",
            "127.0.0.1",
            "--port",
            "{port}",
            "-m",
            &file.path,
            "-c",
            &file.context_size.to_string(),
            "-t",
            &file.threads.to_string(),
            "-np",
            "1",
            "--jinja",
            "--alias",
            &model.model,
            "--slot-save-path",
            &slots.display().to_string(),
        ]
        .map(str::to_string)
        .to_vec();
        SidecarSpec {
            name: format!("{LLAMA_SERVER}:{}", model.id),
            program: self.llama_server(),
            args,
            env: Vec::new(),
            health_path: "/health".into(),
            api_path: "/v1".into(),
            ready_timeout: Duration::from_secs(600),
            log_file: Some(log),
        }
    }

    /// Starts the server of a model run from a file unless it runs (or is loading); a no-op
    /// for other models and outside a Tokio runtime. A server that failed is started again.
    pub fn start_file_model(&self, model_id: &str) {
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            return;
        };
        let Ok(Some(model)) = self
            .stored()
            .and_then(|s| Ok(s.store.model::<LlmModel>(model_id)?))
        else {
            return;
        };
        let Some(file) = model.file.clone() else {
            return;
        };
        let mut running = self
            .file_servers
            .running
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        // Running, loading or restarting on its own; or a file that is gone (its view says
        // so).
        let live = running
            .get(model_id)
            .is_some_and(|server| !server.watcher.is_finished());
        let path = PathBuf::from(&file.path);
        if live || !path.is_file() {
            return;
        }
        if let Some(old) = running.remove(model_id) {
            old.generation.end();
            old.stop.cancel();
        }
        let state = Arc::new(Mutex::new(FileState::Loading(None)));
        let spec = self.file_server_spec(&model, &file);
        let stop = CancellationToken::new();
        let generation = Generation::new(model_id, self.managed.clone());
        generation.set_starting(true);
        tracing::info!(model = %model_id, file = %path.display(), "starting the model file's server");
        let watcher = runtime.spawn(watch(
            model_id.to_string(),
            spec,
            path.clone(),
            state.clone(),
            generation.clone(),
            stop.clone(),
        ));
        running.insert(
            model_id.to_string(),
            Running {
                generation,
                state,
                stop,
                watcher,
            },
        );
    }

    /// Stops the server of a model run from a file (removed or changed); it starts again
    /// on next use.
    pub(crate) fn stop_file_model(&self, model_id: &str) {
        let server = self
            .file_servers
            .running
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .remove(model_id);
        if let Some(server) = server {
            server.generation.end();
            server.stop.cancel();
        }
        self.managed.set_url(model_id, None);
        self.managed.set_starting(model_id, false);
    }

    /// Starts the default model's server now when it is run from a file (at launch).
    pub fn start_default_file_model(&self) {
        if let Ok(model) = self.model_record::<LlmModel>(None)
            && model.file.is_some()
        {
            self.start_file_model(&model.id);
        }
    }

    /// Stops every file model's server and waits until each has ended (on exit).
    pub async fn stop_file_models(&self) {
        let servers: Vec<Running> = self
            .file_servers
            .running
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .drain()
            .map(|(_, server)| server)
            .collect();
        for server in servers {
            server.stop.cancel();
            let _ = server.watcher.await;
        }
    }

    /// What a file model's server is doing: loading (with its last log line), ready (at
    /// its URL), failed (why), or not started (it starts on first use).
    pub(crate) fn file_serving(&self, model_id: &str, file: &ModelFile) -> Serving {
        let state = self
            .file_servers
            .running
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .get(model_id)
            .map(|s| {
                s.state
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner)
                    .clone()
            });
        let (state, detail, url) = match state {
            Some(FileState::Failed(why)) => (ServingState::Failed, Some(why), None),
            _ if !Path::new(&file.path).is_file() => (
                ServingState::Failed,
                Some(format!(
                    "the model file {} is gone (moved or deleted)",
                    file.path
                )),
                None,
            ),
            Some(FileState::Loading(line)) => (ServingState::Starting, line, None),
            Some(FileState::Ready) => match self.managed_url(model_id) {
                Some(url) => (ServingState::Ready, None, Some(url)),
                None => (ServingState::Starting, None, None),
            },
            None => (
                ServingState::Stopped,
                Some("its server starts when the model is first used".into()),
                None,
            ),
        };
        Serving { state, detail, url }
    }

    /// The `.gguf` files of the models folders (the cache's `models` and the folder the
    /// `models.folder` setting names), each with what its header says or why it cannot
    /// be read, and the model that runs it already.
    pub fn model_files(&self) -> Result<Vec<FoundFile>, ServiceError> {
        let mut folders: Vec<PathBuf> = crate::local::cache_dir()
            .map(|cache| cache.join("models"))
            .into_iter()
            .collect();
        let store = &self.stored()?.store;
        if let Some(folder) = store
            .setting(FOLDER_SETTING)?
            .and_then(|v| v.as_str().map(str::to_string))
            .filter(|f| !f.trim().is_empty())
        {
            folders.push(PathBuf::from(folder));
        }
        let models = store.list_models::<LlmModel>()?;
        let mut found: Vec<FoundFile> = Vec::new();
        for folder in folders {
            let Ok(entries) = std::fs::read_dir(&folder) else {
                continue;
            };
            let mut paths: Vec<PathBuf> = entries
                .flatten()
                .map(|e| e.path())
                .filter(|p| {
                    p.extension()
                        .is_some_and(|e| e.eq_ignore_ascii_case("gguf"))
                })
                .collect();
            paths.sort();
            for path in paths {
                let canonical = std::fs::canonicalize(&path).unwrap_or_else(|_| path.clone());
                let shown = canonical.display().to_string();
                if found.iter().any(|f| f.path == shown) {
                    continue;
                }
                let (info, error) = match inspect(&canonical) {
                    Ok(info) => (Some(info), None),
                    Err(e) => (None, Some(e.message)),
                };
                found.push(FoundFile {
                    name: canonical
                        .file_name()
                        .map(|n| n.to_string_lossy().into_owned())
                        .unwrap_or_default(),
                    size_bytes: info.as_ref().map_or(0, |i| i.size_bytes),
                    architecture: info.as_ref().and_then(|i| i.architecture.clone()),
                    context_length: info.as_ref().and_then(|i| i.context_length),
                    chat_template: info.as_ref().is_some_and(|i| i.chat_template),
                    model_id: models
                        .iter()
                        .find(|m| m.file.as_ref().is_some_and(|f| f.path == shown))
                        .map(|m| m.id.clone()),
                    error,
                    path: shown,
                });
            }
        }
        Ok(found)
    }
}

/// A `.gguf` file found in a models folder.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct FoundFile {
    /// Its absolute path (what `file` of a new model takes).
    pub path: String,
    /// Its file name.
    pub name: String,
    /// Its size in bytes (0 when it cannot be read).
    pub size_bytes: u64,
    /// The architecture its header names (`llama`, `qwen2`, …).
    pub architecture: Option<String>,
    /// The context it was trained for, in tokens.
    pub context_length: Option<u64>,
    /// Whether it carries its own chat template.
    pub chat_template: bool,
    /// The model that runs it already, else `null`.
    pub model_id: Option<String>,
    /// Why it cannot be added (not GGUF, unreadable), else `null`.
    pub error: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A server stopped while the next one starts: what the stopped one reports on its
    /// way out (no URL, not starting) leaves the new one's state alone.
    #[test]
    fn a_stopped_start_cannot_clear_the_next_ones_state() {
        let managed = Arc::new(Managed::default());
        let old = Generation::new("m", managed.clone());
        old.set_url(Some("http://127.0.0.1:1/v1".into()));
        old.end();
        managed.set_url("m", None);
        let new = Generation::new("m", managed.clone());
        new.set_starting(true);
        old.set_url(None);
        old.set_starting(false);
        assert!(managed.is_starting("m"));
        new.set_url(Some("http://127.0.0.1:2/v1".into()));
        old.set_url(None);
        old.set_url(Some("http://127.0.0.1:1/v1".into()));
        assert_eq!(managed.url("m").as_deref(), Some("http://127.0.0.1:2/v1"));
        assert!(!managed.is_starting("m"));
    }
}
