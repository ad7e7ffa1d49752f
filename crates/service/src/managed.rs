//! The managed local models' lifecycle as the service sees it: which are starting, the URL
//! each serves on once ready (announced to whoever follows `managed_ready`), how long a
//! call waits for one still starting, and where its prompt cache is kept.

use std::collections::{HashMap, HashSet};
use std::path::PathBuf;
use std::sync::RwLock;
use std::time::Duration;

use crate::Deskmate;

/// How long a call to a managed model waits for its server to finish starting.
pub const MANAGED_START_WAIT: Duration = Duration::from_secs(120);

/// How many managed-ready notices a slow listener may fall behind before it is told it
/// lagged.
const MANAGED_READY_BACKLOG: usize = 16;

/// Where the servers Deskmate runs listen, and which are starting: shared (behind an
/// `Arc`) with the callbacks of the servers it starts itself.
#[derive(Debug)]
pub(crate) struct Managed {
    /// Where each managed model's server listens now.
    urls: RwLock<HashMap<String, String>>,
    /// Managed models whose server is starting (their calls wait for it).
    starting: RwLock<HashSet<String>>,
    /// Woken when a managed server's URL changes.
    changed: tokio::sync::Notify,
    /// Told the id of each managed model whose server became ready (the agent warms its
    /// prompt prefix there).
    ready: tokio::sync::broadcast::Sender<String>,
}

impl Default for Managed {
    fn default() -> Self {
        Self {
            urls: RwLock::default(),
            starting: RwLock::default(),
            changed: tokio::sync::Notify::new(),
            ready: tokio::sync::broadcast::channel(MANAGED_READY_BACKLOG).0,
        }
    }
}

impl Managed {
    /// Records where the server of a managed model listens now, or that it is down.
    pub(crate) fn set_url(&self, model_id: &str, base_url: Option<String>) {
        let mut urls = self
            .urls
            .write()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let ready = base_url.is_some();
        match base_url {
            Some(url) => urls.insert(model_id.to_string(), url),
            None => urls.remove(model_id),
        };
        drop(urls);
        if ready {
            self.set_starting(model_id, false);
            // Nobody listening (no agent in this process) is no error.
            let _ = self.ready.send(model_id.to_string());
        }
        self.changed.notify_waiters();
    }

    /// Records that a managed model's server is starting, or no longer is.
    pub(crate) fn set_starting(&self, model_id: &str, starting: bool) {
        let mut set = self
            .starting
            .write()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if starting {
            set.insert(model_id.to_string());
        } else {
            set.remove(model_id);
        }
        drop(set);
        if !starting {
            self.changed.notify_waiters();
        }
    }

    pub(crate) fn is_starting(&self, model_id: &str) -> bool {
        self.starting
            .read()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .contains(model_id)
    }

    pub(crate) fn url(&self, model_id: &str) -> Option<String> {
        self.urls
            .read()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .get(model_id)
            .cloned()
    }
}

impl Deskmate {
    /// Records where the server of a managed model listens now, or that it is down.
    pub fn set_managed_url(&self, model_id: &str, base_url: Option<String>) {
        self.managed.set_url(model_id, base_url);
    }

    /// Wakes with a managed model's id each time its server becomes ready (its URL is
    /// set): the agent keeps the model's prompt prefix warm from it. A receiver that
    /// falls behind by more than 16 learns it (`Lagged`) and should treat every running
    /// model as ready.
    pub fn managed_ready(&self) -> tokio::sync::broadcast::Receiver<String> {
        self.managed.ready.subscribe()
    }

    /// The managed models whose server runs now.
    pub fn managed_models(&self) -> Vec<String> {
        self.managed
            .urls
            .read()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .keys()
            .cloned()
            .collect()
    }

    /// Where a local model's server saves prompt caches (its `--slot-save-path`), as
    /// the manifest of local servers says, or as Deskmate chose for a model file.
    pub fn slot_dir(&self, model_id: &str) -> Option<PathBuf> {
        self.slot_dirs
            .read()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .get(model_id)
            .cloned()
    }

    /// Records that a managed model's server is starting: calls to the model wait for it
    /// (see [`Deskmate::wait_managed`]) instead of failing to connect.
    pub fn managed_starting(&self, model_id: &str) {
        self.managed.set_starting(model_id, true);
    }

    /// Waits, up to `timeout`, until a managed model whose server is starting is ready;
    /// returns at once for other models. A model run from a file whose server is not
    /// running is started first (its server starts on first use). Whether it became
    /// ready shows in [`Deskmate::base_url_for`] (a connection error names the model's
    /// URL otherwise).
    pub async fn wait_managed(&self, model_id: &str, managed: Option<&str>, timeout: Duration) {
        if managed.is_none() {
            return;
        }
        if self.managed.url(model_id).is_none() && !self.is_starting(model_id) {
            self.start_file_model(model_id);
        }
        let deadline = tokio::time::Instant::now() + timeout;
        loop {
            let changed = self.managed.changed.notified();
            if !self.is_starting(model_id) {
                return;
            }
            if tokio::time::timeout_at(deadline, changed).await.is_err() {
                return;
            }
        }
    }

    /// Whether a managed model's server is starting (loading its model).
    pub fn is_starting(&self, model_id: &str) -> bool {
        self.managed.is_starting(model_id)
    }

    /// Where a managed model's server listens now; `None` when it is not running.
    pub fn managed_url(&self, model_id: &str) -> Option<String> {
        self.managed.url(model_id)
    }

    /// The base URL to use for a model: for a managed model, where its server listens
    /// now (its stored URL when the server is down, which then fails to connect).
    pub fn base_url_for(&self, model_id: &str, base_url: &str, managed: Option<&str>) -> String {
        managed
            .and_then(|_| self.managed_url(model_id))
            .unwrap_or_else(|| base_url.to_string())
    }
}
