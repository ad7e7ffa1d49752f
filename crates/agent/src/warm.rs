//! Keeping a local model's prompt prefix ready, so a new conversation does not pay for
//! the system prompt and tool catalog again.
//!
//! When a managed llama.cpp server becomes ready (and when the offered tools change; the
//! agent follows both, see [`crate::Agent::new`]), the prefix the next chat turn will
//! start with is put into the server's cache: restored from a file saved earlier
//! (`/slots/0?action=restore`, a second or so) or, when there is none, evaluated once and
//! saved. Files are named after the model and a hash of the
//! prefix and of what the cache's layout depends on (the model file, the server's build
//! and its context size), so a changed tool set, model or server never restores a stale
//! cache; older files of the same model are deleted when a new one is saved. All of it
//! runs in the background and only logs: a chat never waits for it.
//!
//! llama-server run with one slot aborts on a cache file it cannot read (one cut short,
//! for instance; run as the manifest runs it, two slots over one KV pool, it refuses the
//! file and the prefix is evaluated and saved again), so
//! a file must never be left half-written under its name: the server saves to a
//! temporary name and the file is renamed once the save has answered. Should a restore
//! still take the server down, the file is deleted, so the restarted server evaluates
//! the prefix instead of crashing on the same file again.

use std::path::Path;

use deskmate_llm::wire::{ChatRequest, Message};
use deskmate_llm::{ChatClient, Endpoint};
use deskmate_service::models::LlmModel;

use crate::agent::Agent;

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

/// How long a temporary file of an unfinished save is left alone (another server of
/// the same model may still be writing it); older ones were left by a server that was
/// stopped while saving, and are deleted.
const PARTIAL_AGE: std::time::Duration = std::time::Duration::from_secs(600);

/// What a saved cache's layout depends on besides the prompt, from llama-server's
/// `/props`: the model file, the server's build and its context size.
fn cache_layout(props: &serde_json::Value) -> String {
    format!(
        "{}\n{}\n{}",
        props["model_path"].as_str().unwrap_or_default(),
        props["build_info"].as_str().unwrap_or_default(),
        props["default_generation_settings"]["n_ctx"]
    )
}

/// The file name of a model's saved prefix; `layout` is what the cache's layout depends
/// on besides the prompt (see [`cache_layout`]).
pub fn slot_file(model_id: &str, prompt: &str, layout: &str) -> String {
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
    format!("deskmate-{safe}-{:016x}.bin", fnv1a(&[prompt, layout]))
}

/// The temporary name a save of `file` is written under before it is renamed.
fn partial_name(file: &str) -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.subsec_nanos())
        .unwrap_or_default();
    format!("{file}.{}-{nanos}.part", std::process::id())
}

/// Whether `name` is a saved prefix of the model (`deskmate-<model>-<16 hex>.bin`), or
/// the temporary file of a save of one (`….bin.<tag>.part`).
fn is_slot_file_of(name: &str, model_id: &str) -> bool {
    let Some(mine) = slot_file(model_id, "", "")
        .rsplit_once('-')
        .map(|(p, _)| format!("{p}-"))
    else {
        return false;
    };
    let name = match name.strip_suffix(".part") {
        Some(partial) => partial.rsplit_once('.').map_or(partial, |(file, _)| file),
        None => name,
    };
    name.strip_prefix(&mine)
        .and_then(|rest| rest.strip_suffix(".bin"))
        .is_some_and(|hash| hash.len() == 16 && hash.bytes().all(|b| b.is_ascii_hexdigit()))
}

/// Deletes the model's other saved prefixes in `dir`, and the temporary files of saves
/// that were never finished.
fn drop_stale(dir: &Path, model_id: &str, keep: &str) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().to_string();
        let unfinished = name.ends_with(".part")
            && entry
                .metadata()
                .and_then(|m| m.modified())
                .ok()
                .and_then(|t| t.elapsed().ok())
                .is_none_or(|age| age > PARTIAL_AGE);
        let stale = !name.ends_with(".part") && name != keep;
        if is_slot_file_of(&name, model_id) && (stale || unfinished) {
            match std::fs::remove_file(entry.path()) {
                Ok(()) => tracing::info!(file = %name, "stale prompt cache deleted"),
                Err(e) => tracing::warn!(file = %name, error = %e, "stale prompt cache kept"),
            }
        }
    }
}

impl Agent {
    /// Puts the prefix of the next chat turn into a managed model's server cache, in the
    /// background (see the module docs). Does nothing outside a Tokio runtime or for a
    /// model whose server is not running.
    pub fn warm_prefix(&self, model_id: &str) {
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            return;
        };
        let Ok(model) = self.deskmate.model_record::<LlmModel>(Some(model_id)) else {
            return;
        };
        let Some(base_url) = self.deskmate.managed_url(model_id) else {
            return;
        };
        let tools = self.chat_tools("");
        let prompt = self.prefix_prompt(&tools);
        let slot_dir = self.deskmate.slot_dir(model_id);
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
    pub fn warm_all_prefixes(&self) {
        for id in self.deskmate.managed_models() {
            if self.deskmate.model_record::<LlmModel>(Some(&id)).is_ok() {
                self.warm_prefix(&id);
            }
        }
    }
}

/// Puts `prompt` into the cache of the llama.cpp server at `base_url`: restored from
/// the model's file in `slot_dir` (the server's `--slot-save-path`), or evaluated and,
/// with a `slot_dir`, saved there. Says which. See the module docs for why a file is
/// saved under a temporary name and deleted when its restore takes the server down.
pub async fn warm(
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
    let file = slot_file(model_id, prompt, &cache_layout(&props));
    if let Some(dir) = slot_dir {
        match client.llama_slot("restore", &file).await {
            Ok(true) => return Ok("restored"),
            Ok(false) => {}
            Err(e) => {
                // No answer: the server went down reading the file (or was stopped).
                let path = dir.join(&file);
                if path.exists() {
                    match std::fs::remove_file(&path) {
                        Ok(()) => tracing::warn!(
                            file = %file, error = %e,
                            "prompt cache deleted: the server stopped while restoring it"
                        ),
                        Err(e) => tracing::warn!(file = %file, error = %e, "prompt cache kept"),
                    }
                }
                return Err(e);
            }
        }
    }
    // The prefix is the system prompt plus the start of a user message: a one-token
    // answer to a short message caches it.
    let mut request = ChatRequest::new(model, vec![Message::system(prompt), Message::user("hi")]);
    request.max_tokens = Some(1);
    client.complete(&request, &mut |_| {}).await?;
    if let Some(dir) = slot_dir {
        let partial = partial_name(&file);
        if client.llama_slot("save", &partial).await? {
            if let Err(e) = std::fs::rename(dir.join(&partial), dir.join(&file)) {
                tracing::warn!(file = %partial, error = %e, "prompt cache not kept");
                let _ = std::fs::remove_file(dir.join(&partial));
                return Ok("evaluated");
            }
            drop_stale(dir, model_id, &file);
            return Ok("evaluated and saved");
        }
    }
    Ok("evaluated")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn saved_prefixes_are_named_by_model_prompt_and_cache_layout() {
        let props = |path: &str, build: &str, n_ctx: u32| {
            cache_layout(&serde_json::json!({
                "model_path": path,
                "build_info": build,
                "default_generation_settings": {"n_ctx": n_ctx}
            }))
        };
        let layout = props("/m/q.gguf", "b1", 8192);
        let a = slot_file("local-qwen2.5", "prompt", &layout);
        assert_eq!(a, slot_file("local-qwen2.5", "prompt", &layout));
        assert!(
            a.starts_with("deskmate-local-qwen2_5-") && a.ends_with(".bin"),
            "{a}"
        );
        for other in [
            slot_file("local-qwen2.5", "prompt 2", &layout),
            slot_file(
                "local-qwen2.5",
                "prompt",
                &props("/m/other.gguf", "b1", 8192),
            ),
            slot_file("local-qwen2.5", "prompt", &props("/m/q.gguf", "b2", 8192)),
            slot_file("local-qwen2.5", "prompt", &props("/m/q.gguf", "b1", 4096)),
            slot_file("other", "prompt", &layout),
        ] {
            assert_ne!(a, other);
        }
        // A temporary name is never taken for a finished file, but is the model's.
        let partial = partial_name(&a);
        assert!(partial.ends_with(".part") && partial != a, "{partial}");
        assert!(is_slot_file_of(&partial, "local-qwen2.5"), "{partial}");
        assert!(!is_slot_file_of(&partial, "other"), "{partial}");
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
            // A save under way (kept), one a stopped server left (deleted), and one of
            // another model (kept).
            partial_name(&slot_file("m1", "newer", "")),
            partial_name(&slot_file("m1", "older", "")),
            partial_name(&slot_file("m2", "older", "")),
        ];
        for name in &names {
            std::fs::write(dir.path().join(name), b"x").unwrap_or_else(|e| panic!("{e}"));
        }
        let long_ago = std::time::SystemTime::now() - 2 * PARTIAL_AGE;
        for old in &names[6..] {
            std::fs::File::options()
                .write(true)
                .open(dir.path().join(old))
                .and_then(|f| f.set_modified(long_ago))
                .unwrap_or_else(|e| panic!("{e}"));
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
            names[5].clone(),
            names[7].clone(),
        ];
        want.sort();
        assert_eq!(left, want);
    }
}
