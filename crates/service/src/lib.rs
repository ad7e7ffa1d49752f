//! The Deskmate service: the one object every front end (CLI, REST API, GUI, the agent
//! loop of `deskmate-agent`) calls. [`Deskmate::call`] runs a tool call through every
//! guard step:
//!
//! 1–4. resolve, read, normalize, validate ([`deskmate_core::Guard`]);
//! 5. plausibility ([`deskmate_tools::Tool::check`]);
//! 6. policy and confirmation ([`hooks::PolicySource`], [`hooks::Confirmer`]);
//! 7. idempotency ([`hooks::IdempotencyStore`]);
//! 8. execution with the tool's timeout, cancellation and panic isolation;
//! 9. capping ([`deskmate_core::cap`]);
//! 10. audit ([`hooks::AuditSink`]).
//!
//! ```no_run
//! # async fn demo() -> Result<(), deskmate_service::Error> {
//! use deskmate_service::{CallRequest, Deskmate};
//! let deskmate = Deskmate::open(std::path::Path::new("/tmp/deskmate-demo"))?;
//! let result = deskmate.call(CallRequest::new("calculator", serde_json::json!({"expression": "2+3"}))).await;
//! assert_eq!(result.data["result"], 5);
//! # Ok(()) }
//! ```

pub mod approvals;
pub mod body;
mod call;
pub mod conversation_history;
pub mod error;
pub mod hooks;
pub mod knowledge;
pub mod language;
pub mod local;
mod managed;
pub mod mcp_input;
pub mod mcp_servers;
pub mod mcp_view;
pub mod model_files;
pub mod model_input;
pub mod model_view;
pub mod models;
pub mod paths;
pub mod prompts;
pub mod resource_input;
pub mod resources;
pub mod schedules;
pub mod secrets;
pub mod settings;
pub mod stored;
pub mod turn_runner;

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, RwLock, Weak};

use deskmate_core::{CapLimits, ToolSpec};
use deskmate_store::Store;
use deskmate_store::kb::{KbDocument, KbHit};
use deskmate_store::resources::{ResourceFilter, ToolResource};
use deskmate_tools::{Registry, Tool, ToolConfig};
use serde_json::Value;

pub use call::CallRequest;
pub use error::{Error, ServiceError};
pub use managed::MANAGED_START_WAIT;
use secrets::Secrets;
use turn_runner::TurnRunner;

/// The database file in the data dir.
pub const DATABASE_FILE: &str = "deskmate.db";
pub use hooks::Hooks;

/// The service.
#[derive(Debug)]
pub struct Deskmate {
    data_dir: PathBuf,
    /// The registry in force (shared with the schedules, which check calls against it).
    registry: Arc<RwLock<Arc<Registry>>>,
    /// The servers Deskmate runs itself: where they listen, which are starting (shared
    /// with the callbacks of the model files' servers).
    managed: Arc<managed::Managed>,
    /// Where each local model's server saves prompt caches (`--slot-save-path`).
    slot_dirs: RwLock<std::collections::HashMap<String, PathBuf>>,
    /// The servers of the models run from a person's own files.
    file_servers: model_files::FileServers,
    /// Who runs a chat turn for a schedule's prompt (the agent), held weakly: it holds
    /// the service.
    turn_runner: RwLock<Option<Weak<dyn TurnRunner>>>,
    hooks: Hooks,
    limits: CapLimits,
    stored: Option<Stored>,
    /// Counts registry swaps: a watcher learns that the tool list changed.
    tools_changed: tokio::sync::watch::Sender<u64>,
    /// Counts MCP server configuration changes (the MCP client reconciles on each).
    mcp_changed: tokio::sync::watch::Sender<u64>,
    /// What each MCP server is doing now, as the MCP client reports it.
    mcp_statuses: RwLock<std::collections::HashMap<String, mcp_servers::McpStatus>>,
    /// Imported tools whose definitions changed since accepted, by server.
    mcp_changed_tools: RwLock<std::collections::HashMap<String, Vec<mcp_servers::ChangedTool>>>,
}

/// What a service opened on a data dir keeps beside its registry.
#[derive(Debug)]
struct Stored {
    store: Arc<Store>,
    secrets: Arc<Secrets>,
    policies: Arc<stored::ResourcePolicies>,
    config: ToolConfig,
    /// Tools the embedding app adds (devices, tests): part of every rebuild.
    extra: Vec<Arc<dyn Tool>>,
    /// Serializes resource changes so each rebuild sees the store it follows.
    changes: Mutex<()>,
    /// The ids of the built-in tools (system resources), as of the last full build.
    system_ids: RwLock<Arc<std::collections::HashSet<String>>>,
    /// The schedules (their tools are part of every rebuild).
    schedules: Arc<schedules::Schedules>,
    /// Tools imported from MCP servers, by server: part of every rebuild.
    imported: RwLock<std::collections::BTreeMap<String, Vec<Arc<dyn Tool>>>>,
    /// Imported tools kept disabled because their definitions changed.
    blocked: RwLock<std::collections::HashSet<String>>,
}

impl Deskmate {
    /// Opens the service on a data dir (created if missing, with its `datasets` folder
    /// and its database `deskmate.db`). Nobody can confirm calls that need a yes.
    pub fn open(data_dir: &Path) -> Result<Self, Error> {
        Self::open_with(data_dir, Arc::new(hooks::NoConfirmer))
    }

    /// Opens the service with the given confirmer: the built-in tools are registered as
    /// system resources, user resources become HTTP tools, the user's enabled flags and
    /// policies apply, and audit and idempotency are kept in the database.
    pub fn open_with(data_dir: &Path, confirmer: Arc<dyn hooks::Confirmer>) -> Result<Self, Error> {
        Self::open_with_tools(data_dir, confirmer, Vec::new())
    }

    /// Opens the service with extra tools beside the built-in ones (device tools bound to
    /// their backends, test tools); they are kept through every registry rebuild, and one
    /// with a built-in tool's id replaces it.
    pub fn open_with_tools(
        data_dir: &Path,
        confirmer: Arc<dyn hooks::Confirmer>,
        extra: Vec<Arc<dyn Tool>>,
    ) -> Result<Self, Error> {
        let config = ToolConfig::for_data_dir(data_dir);
        std::fs::create_dir_all(&config.datasets_dir).map_err(|source| Error::DataDir {
            path: config.datasets_dir.clone(),
            source,
        })?;
        let database = data_dir.join(DATABASE_FILE);
        let store = Arc::new(Store::open(&database)?);
        store.checkpoint_in_background(&database, std::time::Duration::from_millis(500))?;
        let policies = Arc::new(stored::ResourcePolicies::default());
        let hooks = Hooks {
            policies: policies.clone(),
            confirmer,
            idempotency: Arc::new(stored::StoreIdempotency::new(store.clone())),
            audit: Arc::new(stored::StoreAudit::new(store.clone())),
        };
        let schedules = Arc::new(schedules::Schedules::new(
            store.clone(),
            hooks.policies.clone(),
            hooks.confirmer.clone(),
        ));
        let stored = Stored {
            secrets: Arc::new(Secrets::open(data_dir)?),
            policies,
            store,
            config,
            extra,
            changes: Mutex::new(()),
            system_ids: RwLock::default(),
            schedules,
            imported: RwLock::default(),
            blocked: RwLock::default(),
        };
        stored.install_templates()?;
        let registry = stored.build_registry()?;
        let mut deskmate = Self::from_registry(data_dir, registry, hooks);
        stored.schedules.attach(deskmate.registry.clone());
        deskmate.stored = Some(stored);
        Ok(deskmate)
    }

    /// A service over an explicit registry (extra tools, tests).
    pub fn from_registry(data_dir: &Path, registry: Registry, hooks: Hooks) -> Self {
        Self {
            data_dir: data_dir.to_path_buf(),
            registry: Arc::new(RwLock::new(Arc::new(registry))),
            hooks,
            limits: CapLimits::default(),
            stored: None,
            managed: Arc::new(managed::Managed::default()),
            slot_dirs: RwLock::default(),
            file_servers: model_files::FileServers::default(),
            turn_runner: RwLock::default(),
            tools_changed: tokio::sync::watch::Sender::new(0),
            mcp_changed: tokio::sync::watch::Sender::new(0),
            mcp_statuses: RwLock::default(),
            mcp_changed_tools: RwLock::default(),
        }
    }

    /// Sets who runs a chat turn for the service (a schedule's prompt): the agent, which
    /// depends on the service (never the reverse) and sets itself when it is made. Held
    /// weakly, since the runner holds the service; a prompt that fires when there is none
    /// fails, visibly in the schedule's runs.
    pub fn set_turn_runner(&self, runner: Weak<dyn TurnRunner>) {
        *self
            .turn_runner
            .write()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = Some(runner);
    }

    /// Who runs a chat turn now, if anyone.
    pub(crate) fn turn_runner(&self) -> Option<Arc<dyn TurnRunner>> {
        self.turn_runner
            .read()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .as_ref()
            .and_then(Weak::upgrade)
    }

    /// The database, when the service was opened on a data dir.
    pub fn store(&self) -> Option<&Arc<Store>> {
        self.stored.as_ref().map(|s| &s.store)
    }

    /// The secrets, when the service was opened on a data dir.
    pub fn secrets(&self) -> Option<&Arc<Secrets>> {
        self.stored.as_ref().map(|s| &s.secrets)
    }

    /// The tools as they are now (a snapshot; resource changes swap in a new registry).
    pub fn registry(&self) -> Arc<Registry> {
        self.registry
            .read()
            .map(|r| r.clone())
            .unwrap_or_else(|poisoned| poisoned.into_inner().clone())
    }

    fn stored(&self) -> Result<&Stored, ServiceError> {
        self.stored.as_ref().ok_or(ServiceError::NoStore)
    }

    /// Rebuilds the whole registry from the store (a setting changed: every built-in
    /// tool may depend on it).
    fn reload(&self, stored: &Stored) -> Result<(), ServiceError> {
        let registry = stored.build_registry().map_err(|e| match e {
            Error::Store(e) => ServiceError::Store(e),
            other => ServiceError::Registry(other.to_string()),
        })?;
        self.swap_registry(registry);
        Ok(())
    }

    /// One resource was saved or deleted: a copy of the registry gets that one tool
    /// (re)built, enabled, disabled or removed, and is swapped in. Nothing else is
    /// rebuilt, so a change costs the same with ten tools or thousands.
    fn apply_change(&self, stored: &Stored, change: Change<'_>) -> Result<(), ServiceError> {
        let mut next = (*self.registry()).clone();
        match change {
            Change::Saved(resource) => {
                if !resource.is_system {
                    let secrets: Arc<dyn deskmate_tools::http_tool::SecretStore> =
                        stored.secrets.clone();
                    let tool = resources::http_tool(resource, secrets)
                        .map_err(|e| ServiceError::Registry(e.to_string()))?;
                    next.replace_or_push(tool)
                        .map_err(|e| ServiceError::Registry(e.to_string()))?;
                }
                next.guard_mut().set_enabled(&resource.id, resource.enabled);
                stored.policies.update(resource);
            }
            Change::Deleted(id) => {
                next.remove(id);
                stored.policies.remove(id);
            }
        }
        self.swap_registry(next);
        Ok(())
    }

    /// Puts a new registry in force; a call in flight keeps the one it started with.
    /// Whoever follows [`Deskmate::tool_changes`] learns it (MCP clients; the agent,
    /// which warms the local models' prompt prefix again when it changed).
    fn swap_registry(&self, registry: Registry) {
        let mut current = self
            .registry
            .write()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        *current = Arc::new(registry);
        drop(current);
        self.tools_changed
            .send_modify(|generation| *generation += 1);
    }

    /// Wakes when the tools change (a resource or setting change swapped the registry):
    /// what MCP clients are told as `notifications/tools/list_changed`, and when the agent
    /// looks whether its prompt prefix changed.
    pub fn tool_changes(&self) -> tokio::sync::watch::Receiver<u64> {
        self.tools_changed.subscribe()
    }

    /// Every known setting with its value in force.
    pub fn settings(&self) -> Result<Vec<settings::Setting>, ServiceError> {
        let store = &self.stored()?.store;
        settings::KNOWN
            .iter()
            .map(|known| Ok(settings::describe(known, store.setting(known.key)?)))
            .collect()
    }

    /// Sets a known setting (its type checked) and applies it to the tools at once.
    pub fn set_setting(&self, key: &str, value: Value) -> Result<settings::Setting, ServiceError> {
        let stored = self.stored()?;
        let known = settings::known(key).ok_or_else(|| ServiceError::NotFound {
            what: "setting",
            id: key.to_string(),
        })?;
        settings::check(known, &value).map_err(|e| ServiceError::Invalid(vec![e]))?;
        let _serial = stored
            .changes
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        stored.store.set_setting(key, &value)?;
        self.reload(stored)?;
        tracing::info!(key, %value, "setting changed");
        Ok(settings::describe(known, Some(value)))
    }

    /// Tool resources (the API contract's listing).
    pub fn list_resources(
        &self,
        filter: &ResourceFilter,
    ) -> Result<(u64, Vec<ToolResource>), ServiceError> {
        Ok(self.stored()?.store.list_resources(filter)?)
    }

    /// One tool resource.
    pub fn resource(&self, id: &str) -> Result<ToolResource, ServiceError> {
        self.stored()?
            .store
            .resource(id)?
            .ok_or_else(|| ServiceError::NotFound {
                what: "tool resource",
                id: id.to_string(),
            })
    }

    /// Creates a user tool resource from API input; literal secrets in sensitive headers
    /// move to the secret store. The tool can be called as soon as this returns.
    pub fn create_resource(
        &self,
        input: resource_input::ResourceInput,
    ) -> Result<ToolResource, ServiceError> {
        let stored = self.stored()?;
        let _change = stored
            .changes
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let taken = |id: &str| {
            self.registry().tool(id).is_some() || stored.store.resource(id).ok().flatten().is_some()
        };
        let mut resource =
            resources::validate(input, None, &taken).map_err(ServiceError::Invalid)?;
        for (name, value) in resources::extract_header_secrets(&mut resource) {
            stored.secrets.set(&name, &value)?;
        }
        let created = stored.store.insert_resource(&resource)?;
        self.apply_change(stored, Change::Saved(&created))?;
        Ok(created)
    }

    /// Updates a resource (a built-in one only in `enabled` and `policy`).
    pub fn update_resource(
        &self,
        id: &str,
        input: resource_input::ResourceInput,
    ) -> Result<ToolResource, ServiceError> {
        let stored = self.stored()?;
        let _change = stored
            .changes
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let existing = self.resource(id)?;
        let mut resource = resources::validate(input, Some(&existing), &|_| false)
            .map_err(ServiceError::Invalid)?;
        if !resource.is_system {
            for (name, value) in resources::extract_header_secrets(&mut resource) {
                stored.secrets.set(&name, &value)?;
            }
        }
        let updated =
            stored
                .store
                .update_resource(&resource)?
                .ok_or_else(|| ServiceError::NotFound {
                    what: "tool resource",
                    id: id.to_string(),
                })?;
        self.apply_change(stored, Change::Saved(&updated))?;
        Ok(updated)
    }

    /// Adds a document to the knowledge base (or replaces the one from the same source).
    pub fn add_document(
        &self,
        kb_id: &str,
        title: &str,
        body: &str,
        source: Option<&str>,
    ) -> Result<KbDocument, ServiceError> {
        knowledge::validate_document(kb_id, title, body)?;
        Ok(self
            .stored()?
            .store
            .add_document(kb_id, title, body, source)?)
    }

    /// Knowledge-base documents, newest first.
    pub fn list_documents(
        &self,
        kb_id: Option<&str>,
        page: u32,
        limit: u32,
    ) -> Result<(u64, Vec<KbDocument>), ServiceError> {
        Ok(self.stored()?.store.list_documents(kb_id, page, limit)?)
    }

    /// One knowledge-base document.
    pub fn document(&self, id: i64) -> Result<KbDocument, ServiceError> {
        self.stored()?
            .store
            .document(id)?
            .ok_or_else(|| ServiceError::NotFound {
                what: "document",
                id: id.to_string(),
            })
    }

    /// Deletes a knowledge-base document.
    pub fn delete_document(&self, id: i64) -> Result<(), ServiceError> {
        if self.stored()?.store.delete_document(id)? {
            Ok(())
        } else {
            Err(ServiceError::NotFound {
                what: "document",
                id: id.to_string(),
            })
        }
    }

    /// Searches the knowledge base.
    pub fn search_documents(
        &self,
        kb_id: Option<&str>,
        query: &str,
        limit: u32,
    ) -> Result<Vec<KbHit>, ServiceError> {
        Ok(self.stored()?.store.search_documents(kb_id, query, limit)?)
    }

    /// Imports the .md/.txt files of a folder into a knowledge base.
    pub fn import_documents(
        &self,
        kb_id: &str,
        folder: &Path,
    ) -> Result<knowledge::ImportReport, ServiceError> {
        knowledge::import_folder(&self.stored()?.store, kb_id, folder)
    }

    /// Deletes a user resource; built-in tools can only be disabled.
    pub fn delete_resource(&self, id: &str) -> Result<(), ServiceError> {
        let stored = self.stored()?;
        let _change = stored
            .changes
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let existing = self.resource(id)?;
        if existing.is_system {
            return Err(ServiceError::Forbidden(format!(
                "'{id}' is a built-in tool; it can be disabled, not deleted"
            )));
        }
        stored.store.delete_resource(id)?;
        self.apply_change(stored, Change::Deleted(id))?;
        Ok(())
    }

    /// The ids of the built-in tools; `None` without a store (then every tool is one).
    pub fn system_tool_ids(&self) -> Option<Arc<std::collections::HashSet<String>>> {
        self.stored.as_ref().map(|s| {
            s.system_ids
                .read()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .clone()
        })
    }

    /// The data dir.
    pub fn data_dir(&self) -> &Path {
        &self.data_dir
    }

    /// Every tool spec, in registration order.
    pub fn specs(&self) -> Vec<ToolSpec> {
        self.registry().specs().cloned().collect()
    }

    /// The specs of the tools a model may call now (enabled ones).
    pub fn enabled_specs(&self) -> Vec<ToolSpec> {
        let registry = self.registry();
        registry
            .specs()
            .filter(|s| registry.guard().is_enabled(&s.id))
            .cloned()
            .collect()
    }
}

impl Stored {
    /// The API contract's `search`, `weather` and `translate` arrive once, as disabled HTTP tools
    /// the user points at a service (and may delete: they do not come back).
    fn install_templates(&self) -> Result<(), Error> {
        const KEY: &str = "templates_installed";
        if self.store.setting(KEY)?.is_some() {
            return Ok(());
        }
        for template in resources::templates() {
            if self.store.resource(&template.id)?.is_none() {
                self.store.insert_resource(&template)?;
            }
        }
        self.store.set_setting(KEY, &serde_json::json!(true))?;
        Ok(())
    }

    /// The built-in tools plus one HTTP tool per user resource, with the user's enabled
    /// flags; system resources are synced and policies refreshed on the way.
    fn build_registry(&self) -> Result<Registry, Error> {
        let mut config = self.config.clone();
        config.sandbox_allow_weaker = self
            .store
            .setting(deskmate_tools::code_interpreter::ALLOW_WEAKER_SETTING)?
            .and_then(|v| v.as_bool())
            .unwrap_or(false);
        let mut registry = Registry::builtin(&config)?;
        registry.push(Arc::new(knowledge::KnowledgeTool::new(self.store.clone())))?;
        for tool in schedules::tools::tools(&self.schedules) {
            registry.push(tool)?;
        }
        // Extra tools come last and replace a built-in tool of the same id.
        for tool in &self.extra {
            registry.replace_or_push(tool.clone())?;
        }
        // After them: a chat offers it only from a conversation's second turn on, and
        // its line last in the catalog keeps the first turn's prompt a prefix of the
        // later turns' (the model server reuses what it evaluated).
        if registry.tool(conversation_history::ID).is_none() {
            registry.push(Arc::new(
                conversation_history::ConversationHistoryTool::new(self.store.clone()),
            ))?;
        }
        let system: Vec<_> = registry.specs().map(stored::system_resource).collect();
        self.store.sync_system_resources(&system)?;
        *self
            .system_ids
            .write()
            .unwrap_or_else(std::sync::PoisonError::into_inner) =
            Arc::new(system.iter().map(|r| r.id.clone()).collect());
        let all = self.store.all_resources()?;
        for resource in all.iter().filter(|r| !r.is_system) {
            // A stored resource that no longer builds is skipped, not fatal: the rest work.
            let secrets: Arc<dyn deskmate_tools::http_tool::SecretStore> = self.secrets.clone();
            let added = resources::http_tool(resource, secrets)
                .map_err(|e| e.to_string())
                .and_then(|tool| registry.push(tool).map_err(|e| e.to_string()));
            if let Err(error) = added {
                tracing::warn!(id = %resource.id, %error, "tool resource skipped");
            }
        }
        let imported = self
            .imported
            .read()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        for tool in imported.values().flatten() {
            if let Err(error) = registry.replace_or_push(tool.clone()) {
                tracing::warn!(id = %tool.spec().id, %error, "imported tool skipped");
            }
        }
        drop(imported);
        for id in self
            .blocked
            .read()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .iter()
        {
            registry.guard_mut().set_enabled(id, false);
        }
        for resource in all.iter().filter(|r| !r.enabled) {
            registry.guard_mut().set_enabled(&resource.id, false);
        }
        self.policies.replace_all(&all);
        Ok(registry)
    }
}

/// One resource change applied to the registry.
enum Change<'a> {
    /// Created or updated (as stored).
    Saved(&'a ToolResource),
    /// Deleted.
    Deleted(&'a str),
}

/// FNV-1a, 64 bits: a stable short hash of names and definitions (the same in every
/// version, no dependency).
pub(crate) fn fnv64(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
        (h ^ u64::from(*b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}
