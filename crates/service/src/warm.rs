//! Keeping a local model's prompt prefix ready, so a new conversation does not pay for
//! the system prompt and tool catalog again.
//!
//! When a managed llama.cpp server becomes ready (and when the offered tools change),
//! the prefix the next chat turn will start with is put into the server's cache: restored
//! from a file saved earlier (`/slots/0?action=restore`, a second or so) or, when there is
//! none, evaluated once and saved. Files are named after the model and a hash of the
//! prefix and the model file, so a changed tool set or model never restores a stale
//! cache; older files of the same model are deleted when a new one is saved. All of it
//! runs in the background and only logs: a chat never waits for it.

use std::path::{Path, PathBuf};

use deskmate_llm::wire::{ChatRequest, Message};
use deskmate_llm::{ChatClient, Endpoint};

use crate::Deskmate;
use crate::agent::prefix_prompt;

/// FNV-1a, 64 bits: stable across builds and platforms (the file name must be).
fn fnv1a(parts: &[&str]) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for part in parts {
        for byte in part.bytes().chain([0]) {
            hash ^= u64::from(byte);
            hash = hash.wrapping_mul(0x0100_0000_01b3);
        }
    }
    hash
}

/// The file name of a model's saved prefix.
pub fn slot_file(model_id: &str, prompt: &str, model_path: &str) -> String {
    let safe: String = model_id
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect();
    format!("deskmate-{safe}-{:016x}.bin", fnv1a(&[prompt, model_path]))
}

/// Whether `name` is a saved prefix of the model (`deskmate-<model>-<16 hex>.bin`).
fn is_slot_file_of(name: &str, model_id: &str) -> bool {
    let Some(mine) = slot_file(model_id, "", "")
        .rsplit_once('-')
        .map(|(p, _)| format!("{p}-"))
    else {
        return false;
    };
    name.strip_prefix(&mine)
        .and_then(|rest| rest.strip_suffix(".bin"))
        .is_some_and(|hash| hash.len() == 16 && hash.bytes().all(|b| b.is_ascii_hexdigit()))
}

/// Deletes the model's other saved prefixes in `dir`.
fn drop_stale(dir: &Path, model_id: &str, keep: &str) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().to_string();
        if is_slot_file_of(&name, model_id) && name != keep {
            match std::fs::remove_file(entry.path()) {
                Ok(()) => tracing::info!(file = %name, "stale prompt cache deleted"),
                Err(e) => tracing::warn!(file = %name, error = %e, "stale prompt cache kept"),
            }
        }
    }
}

impl Deskmate {
    /// Puts the prefix of the next chat turn into a managed model's server cache, in the
    /// background (see the module docs). Does nothing outside a Tokio runtime or for a
    /// model whose server is not running.
    pub fn warm_prefix(&self, model_id: &str) {
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            return;
        };
        let Ok(model) = self.llm_model_record(Some(model_id)) else {
            return;
        };
        let Some(base_url) = self
            .managed_urls
            .read()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .get(model_id)
            .cloned()
        else {
            return;
        };
        let tools = self.chat_tools("");
        let prompt = prefix_prompt(&tools);
        let slot_dir = self.slot_dir(model_id);
        let model_id = model_id.to_string();
        runtime.spawn(async move {
            let started = std::time::Instant::now();
            match warm(
                &base_url,
                &model.model,
                &model_id,
                &prompt,
                slot_dir.as_deref(),
            )
            .await
            {
                Ok(how) => tracing::info!(
                    model = %model_id, how, ms = started.elapsed().as_millis() as u64,
                    "prompt prefix ready"
                ),
                Err(e) => tracing::warn!(model = %model_id, error = %e, "prompt prefix not warmed"),
            }
        });
    }

    /// Warms every running managed model (the offered tools changed).
    pub(crate) fn warm_all_prefixes(&self) {
        let ids: Vec<String> = self
            .managed_urls
            .read()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .keys()
            .cloned()
            .collect();
        for id in ids {
            if self.llm_model_record(Some(&id)).is_ok() {
                self.warm_prefix(&id);
            }
        }
    }

    fn slot_dir(&self, model_id: &str) -> Option<PathBuf> {
        self.slot_dirs
            .read()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .get(model_id)
            .cloned()
    }
}

/// Restores or evaluates and saves the prefix; says which.
async fn warm(
    base_url: &str,
    model: &str,
    model_id: &str,
    prompt: &str,
    slot_dir: Option<&Path>,
) -> Result<&'static str, deskmate_llm::LlmError> {
    let client = ChatClient::new(Endpoint::new(base_url, None)?)?;
    let Some(props) = client.llama_props().await else {
        return Ok("skipped: not a llama.cpp server");
    };
    let model_path = props["model_path"].as_str().unwrap_or_default();
    let file = slot_file(model_id, prompt, model_path);
    let saving = slot_dir.is_some();
    if saving && client.llama_slot("restore", &file).await? {
        return Ok("restored");
    }
    // The prefix is the system prompt plus the start of a user message: a one-token
    // answer to a short message caches it.
    let mut request = ChatRequest::new(model, vec![Message::system(prompt), Message::user("hi")]);
    request.max_tokens = Some(1);
    client.complete(&request, &mut |_| {}).await?;
    if let Some(dir) = slot_dir
        && client.llama_slot("save", &file).await?
    {
        drop_stale(dir, model_id, &file);
        return Ok("evaluated and saved");
    }
    Ok("evaluated")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn saved_prefixes_are_named_by_model_prompt_and_model_file() {
        let a = slot_file("local-qwen2.5", "prompt", "/m/q.gguf");
        assert_eq!(a, slot_file("local-qwen2.5", "prompt", "/m/q.gguf"));
        assert!(
            a.starts_with("deskmate-local-qwen2_5-") && a.ends_with(".bin"),
            "{a}"
        );
        assert_ne!(a, slot_file("local-qwen2.5", "prompt 2", "/m/q.gguf"));
        assert_ne!(a, slot_file("local-qwen2.5", "prompt", "/m/other.gguf"));
        assert_ne!(a, slot_file("other", "prompt", "/m/q.gguf"));
    }

    #[test]
    fn only_the_current_file_of_the_model_is_kept() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let keep = slot_file("m1", "new", "");
        let names = [
            keep.clone(),
            slot_file("m1", "old", ""),
            slot_file("m2", "x", ""),
            slot_file("m1-large", "x", ""),
            "notes.txt".into(),
        ];
        for name in &names {
            std::fs::write(dir.path().join(name), b"x").unwrap_or_else(|e| panic!("{e}"));
        }
        drop_stale(dir.path(), "m1", &keep);
        let mut left: Vec<String> = std::fs::read_dir(dir.path())
            .unwrap_or_else(|e| panic!("{e}"))
            .flatten()
            .map(|e| e.file_name().to_string_lossy().to_string())
            .collect();
        left.sort();
        let mut want = vec![
            keep,
            names[2].clone(),
            names[3].clone(),
            "notes.txt".to_string(),
        ];
        want.sort();
        assert_eq!(left, want);
    }
}
