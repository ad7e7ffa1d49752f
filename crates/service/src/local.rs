//! The local models `scripts/setup-models.sh` installs, described by its manifest
//! (`local-models.json` in the cache dir): how to start each server, and the model rows
//! Deskmate registers for them on first run (`managed`, so their URL is the one the
//! running sidecar has).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use deskmate_llm::sidecar::SidecarSpec;
use deskmate_store::models::{AsrModel, LlmModel};
use serde::Deserialize;

use crate::{Deskmate, ServiceError};

/// One local server and the model it serves.
#[derive(Debug, Clone, Deserialize)]
pub struct LocalServer {
    /// The model row's id.
    pub id: String,
    /// Display name.
    pub name: String,
    /// The model name requests carry.
    pub model: String,
    /// Registered as the default model (only when no default exists yet).
    #[serde(default)]
    pub default: bool,
    /// For ASR: the language (none detects it).
    #[serde(default)]
    pub language: Option<String>,
    /// The executable.
    pub program: PathBuf,
    /// Its arguments; `{port}` is replaced by the port chosen.
    pub args: Vec<String>,
    /// Extra environment.
    #[serde(default)]
    pub env: BTreeMap<String, String>,
    /// Answers 200 when ready.
    #[serde(default = "default_health")]
    pub health_path: String,
    /// OpenAI-style base path.
    #[serde(default = "default_api")]
    pub api_path: String,
    /// Longest load.
    #[serde(default = "default_ready")]
    pub ready_timeout_s: u64,
    /// Where the server saves prompt caches (its `--slot-save-path`), for llama.cpp.
    #[serde(default)]
    pub slot_dir: Option<PathBuf>,
}

fn default_health() -> String {
    "/health".into()
}

fn default_api() -> String {
    "/v1".into()
}

fn default_ready() -> u64 {
    180
}

/// The manifest.
#[derive(Debug, Clone, Deserialize)]
pub struct Manifest {
    /// Chat model servers.
    #[serde(default)]
    pub llm: Vec<LocalServer>,
    /// Transcription servers.
    #[serde(default)]
    pub asr: Vec<LocalServer>,
}

/// Deskmate's cache dir (the setup script's downloads and builds, the models folder):
/// `DESKMATE_CACHE`, else `~/.cache/deskmate`.
pub fn cache_dir() -> Option<PathBuf> {
    cache_dir_of(
        std::env::var_os("DESKMATE_CACHE").map(PathBuf::from),
        std::env::var_os("HOME").map(PathBuf::from),
    )
}

/// The cache dir given the value of `DESKMATE_CACHE` and the home dir.
pub fn cache_dir_of(cache: Option<PathBuf>, home: Option<PathBuf>) -> Option<PathBuf> {
    cache.or_else(|| home.map(|h| h.join(".cache").join("deskmate")))
}

/// Where the manifest is: `DESKMATE_LOCAL_MODELS`, else `local-models.json` in the cache
/// dir ([`cache_dir`]).
pub fn default_manifest_path() -> Option<PathBuf> {
    if let Some(path) = std::env::var_os("DESKMATE_LOCAL_MODELS") {
        return Some(PathBuf::from(path));
    }
    Some(cache_dir()?.join("local-models.json"))
}

/// What [`load_manifest`] found.
#[derive(Debug)]
pub enum Found {
    /// No manifest: no local model is installed.
    Missing(PathBuf),
    /// A manifest whose programs or model files are missing.
    Broken(PathBuf, String),
    /// Ready to start.
    Ready(Manifest),
}

/// Reads the manifest and checks that what it names exists.
pub fn load_manifest(path: &Path) -> Found {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(_) => return Found::Missing(path.to_path_buf()),
    };
    let manifest: Manifest = match serde_json::from_str(&text) {
        Ok(m) => m,
        Err(e) => return Found::Broken(path.to_path_buf(), format!("not a valid manifest: {e}")),
    };
    for server in manifest.llm.iter().chain(&manifest.asr) {
        if !server.program.is_file() {
            return Found::Broken(
                path.to_path_buf(),
                format!(
                    "{} is missing (re-run scripts/setup-models.sh)",
                    server.program.display()
                ),
            );
        }
    }
    Found::Ready(manifest)
}

impl LocalServer {
    /// How to run it; its output is appended to `<log_dir>/<id>.log`.
    pub fn sidecar(&self, kind: &str, log_dir: Option<&Path>) -> SidecarSpec {
        SidecarSpec {
            name: format!("{kind}:{}", self.id),
            program: self.program.clone(),
            args: self.args.clone(),
            env: self.env.clone().into_iter().collect(),
            health_path: self.health_path.clone(),
            api_path: self.api_path.clone(),
            ready_timeout: Duration::from_secs(self.ready_timeout_s),
            log_file: log_dir.map(|d| d.join(format!("{}.log", self.id))),
        }
    }
}

impl Deskmate {
    /// Registers the manifest's models on first sight (a model the user edited or
    /// deleted since is not touched again; a deleted one stays deleted until its id is
    /// reused). Returns the ids registered now.
    pub fn register_local_models(&self, manifest: &Manifest) -> Result<Vec<String>, ServiceError> {
        const KEY: &str = "local_models.registered";
        let store = &self.stored()?.store;
        let mut seen: Vec<String> = store
            .setting(KEY)?
            .and_then(|v| serde_json::from_value(v).ok())
            .unwrap_or_default();
        let has_llm_default = store
            .list_models::<LlmModel>()?
            .iter()
            .any(|m| m.is_default);
        let has_asr_default = store
            .list_models::<AsrModel>()?
            .iter()
            .any(|m| m.is_default);
        let mut added = Vec::new();
        {
            let mut dirs = self
                .slot_dirs
                .write()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            for server in &manifest.llm {
                if let Some(dir) = &server.slot_dir {
                    dirs.insert(server.id.clone(), dir.clone());
                }
            }
        }
        // The same llama-server runs the models a person adds from files.
        if let Some(server) = manifest.llm.first() {
            self.set_llama_server(server.program.clone());
        }
        for server in &manifest.llm {
            if seen.contains(&server.id) || store.model::<LlmModel>(&server.id)?.is_some() {
                continue;
            }
            let created = store.create_model(&LlmModel {
                id: server.id.clone(),
                name: server.name.clone(),
                base_url: "http://127.0.0.1/v1".into(),
                model: server.model.clone(),
                api_key_ref: None,
                // Greedy decoding: a small model calling tools should take its most
                // likely tool and argument, not sample another (measured on the bundled
                // suite: fewer wrong calls, no runaway replies, the same figures twice).
                temperature: 0.0,
                top_p: 0.9,
                max_tokens: 512,
                streaming: true,
                is_default: server.default && !has_llm_default,
                managed: Some("llama-server".into()),
                file: None,
                created_at: String::new(),
                updated_at: String::new(),
            });
            if registered(created)? {
                added.push(server.id.clone());
            }
        }
        for server in &manifest.asr {
            if seen.contains(&server.id) || store.model::<AsrModel>(&server.id)?.is_some() {
                continue;
            }
            let created = store.create_model(&AsrModel {
                id: server.id.clone(),
                name: server.name.clone(),
                base_url: "http://127.0.0.1/v1".into(),
                model: server.model.clone(),
                language: server.language.clone(),
                hotwords: Vec::new(),
                api_key_ref: None,
                is_default: server.default && !has_asr_default,
                managed: Some("faster-whisper-server".into()),
                created_at: String::new(),
                updated_at: String::new(),
            });
            if registered(created)? {
                added.push(server.id.clone());
            }
        }
        seen.extend(added.iter().cloned());
        store.set_setting(KEY, &serde_json::json!(seen))?;
        Ok(added)
    }
}

/// Whether a create stored the model: a process sharing the data dir may have registered
/// it first, which is as good.
fn registered<M>(created: Result<M, deskmate_store::Error>) -> Result<bool, ServiceError> {
    match created {
        Ok(_) => Ok(true),
        Err(deskmate_store::Error::Taken { .. }) => Ok(false),
        Err(e) => Err(e.into()),
    }
}
