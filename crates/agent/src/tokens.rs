//! The model's context size and how many of its tokens a text is.
//!
//! llama.cpp tells both: `GET /props` (`default_generation_settings.n_ctx`, the context of
//! one slot) and `POST /tokenize`. Another server tells neither: its context size is the
//! `chat.context_tokens` setting, and a text's tokens are estimated
//! ([`deskmate_llm::tokens::estimate`]). Counts are kept per server, model and text (a
//! turn's text is counted once, not at every later turn); context sizes for a minute (a
//! restarted server may have another).

use std::collections::HashMap;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

use deskmate_llm::ChatClient;
use deskmate_service::settings::{CONTEXT_SETTING, DEFAULT_CONTEXT_TOKENS};

use crate::agent::Agent;

/// The smallest and largest context size the setting takes.
const CONTEXT_RANGE: (i64, i64) = (512, 2_000_000);
/// How long a server's context size is believed.
const CONTEXT_FOR: Duration = Duration::from_secs(60);
/// Counts kept before the cache starts over.
const MOST_COUNTS: usize = 50_000;

/// Token counts by (server and model, text) hash.
fn counts() -> &'static Mutex<HashMap<u64, u32>> {
    static COUNTS: OnceLock<Mutex<HashMap<u64, u32>>> = OnceLock::new();
    COUNTS.get_or_init(|| Mutex::new(HashMap::new()))
}

/// Context sizes by server, with when they were read.
fn sizes() -> &'static Mutex<HashMap<String, (u32, Instant)>> {
    static SIZES: OnceLock<Mutex<HashMap<String, (u32, Instant)>>> = OnceLock::new();
    SIZES.get_or_init(|| Mutex::new(HashMap::new()))
}

/// Counts the tokens of texts for one model on one server.
pub(crate) struct Counter<'a> {
    client: &'a ChatClient,
    /// Whether the server tokenizes (llama.cpp).
    exact: bool,
    /// What the cache keys start with: the server and the model.
    key: String,
}

impl<'a> Counter<'a> {
    /// A counter for `model` on `client`'s server; `llama_cpp` says whether it answers
    /// `POST /tokenize`.
    pub(crate) fn new(client: &'a ChatClient, model: &str, llama_cpp: bool) -> Self {
        Self {
            client,
            exact: llama_cpp,
            key: format!("{}\n{model}", client.endpoint().base()),
        }
    }

    /// Whether the counts are the server's own (not estimates).
    pub(crate) fn exact(&self) -> bool {
        self.exact
    }

    /// The tokens of `text`.
    pub(crate) async fn count(&self, text: &str) -> u32 {
        if !self.exact {
            return clamp(deskmate_llm::tokens::estimate(text));
        }
        let mut hasher = DefaultHasher::new();
        (&self.key, text).hash(&mut hasher);
        let key = hasher.finish();
        let cached = counts()
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .get(&key)
            .copied();
        if let Some(count) = cached {
            return count;
        }
        match self.client.tokenize(text).await {
            Ok(Some(count)) => {
                let count = clamp(count);
                let mut counts = counts()
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner);
                if counts.len() >= MOST_COUNTS {
                    counts.clear();
                }
                counts.insert(key, count);
                count
            }
            outcome => {
                if let Err(error) = outcome {
                    tracing::debug!(%error, "tokenize failed; the count is estimated");
                }
                clamp(deskmate_llm::tokens::estimate(text))
            }
        }
    }
}

fn clamp(count: usize) -> u32 {
    u32::try_from(count).unwrap_or(u32::MAX)
}

impl Agent {
    /// The context size of the model on `client`'s server: llama.cpp's `n_ctx` when it is
    /// llama.cpp and tells, else the `chat.context_tokens` setting.
    pub(crate) async fn context_size(&self, client: &ChatClient, llama_cpp: bool) -> u32 {
        if llama_cpp {
            let base = client.endpoint().base().to_string();
            let known = sizes()
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .get(&base)
                .filter(|(_, at)| at.elapsed() < CONTEXT_FOR)
                .map(|(n, _)| *n);
            if let Some(n) = known {
                return n;
            }
            if let Some(n) = client.llama_context_size().await {
                sizes()
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner)
                    .insert(base, (n, Instant::now()));
                return n;
            }
        }
        let set = self
            .store()
            .ok()
            .and_then(|s| s.setting(CONTEXT_SETTING).ok().flatten())
            .and_then(|v| v.as_i64())
            .unwrap_or(DEFAULT_CONTEXT_TOKENS)
            .clamp(CONTEXT_RANGE.0, CONTEXT_RANGE.1);
        u32::try_from(set).unwrap_or(u32::MAX)
    }
}
