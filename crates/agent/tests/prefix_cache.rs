//! The prompt-prefix cache against a real llama-server (SmolLM2-135M, installed by
//! `scripts/setup-models.sh tests`): evaluated and saved once, then restored; a damaged
//! file is refused (or takes the server down once and is deleted), and the prefix is
//! evaluated and saved whole again instead of crashing on the same file at every start.

use std::path::Path;
use std::sync::Arc;

use deskmate_agent::warm::warm;
use deskmate_llm::sidecar::Sidecar;
use deskmate_service::local::LocalServer;

mod common;

const SMOLLM2: &str = "local-smollm2-135m";

/// The installed SmolLM2 server, saving its caches in `slots` instead of the shared
/// directory.
fn smollm2(slots: &Path) -> LocalServer {
    let mut server = common::installed_smollm2();
    let at = server
        .args
        .iter()
        .position(|a| a == "--slot-save-path")
        .unwrap_or_else(|| panic!("no --slot-save-path in {:?}", server.args));
    server.args[at + 1] = slots.display().to_string();
    server.slot_dir = Some(slots.to_path_buf());
    server
}

/// The files in `dir`.
fn files(dir: &Path) -> Vec<(String, u64)> {
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{e}"))
        .flatten()
        .map(|e| {
            let len = e.metadata().map(|m| m.len()).unwrap_or_default();
            (e.file_name().to_string_lossy().to_string(), len)
        })
        .collect();
    files.sort();
    files
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_damaged_prompt_cache_is_deleted_instead_of_crashing_the_server_again() {
    let slots = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let server = smollm2(slots.path());
    let sidecar = Sidecar::start(server.sidecar("llama-server", None), Arc::new(|_| {}));
    let prompt = "You are a careful desktop assistant. ".repeat(40);
    let warm_at = |url: String| {
        let prompt = prompt.clone();
        let dir = slots.path().to_path_buf();
        let model = server.model.clone();
        async move { warm(&url, &model, SMOLLM2, &prompt, Some(&dir)).await }
    };

    let url = common::sidecar_ready(&sidecar, 0).await;
    let how = warm_at(url.clone()).await;
    assert_eq!(how.as_deref().ok(), Some("evaluated and saved"), "{how:?}");
    // One finished file, no temporary file left.
    let saved = files(slots.path());
    assert_eq!(saved.len(), 1, "{saved:?}");
    let (file, len) = saved[0].clone();
    assert!(file.ends_with(".bin") && len > 0, "{saved:?}");
    let how = warm_at(url.clone()).await;
    assert_eq!(how.as_deref().ok(), Some("restored"), "{how:?}");

    // Cut short, as a server stopped while writing it would leave it: either the server
    // refuses the file and stays up (two slots over one KV pool, as the manifest runs it),
    // and the prefix is evaluated and saved whole again; or the restore takes the server
    // down, the file is deleted, and the restarted server evaluates and saves it.
    let cut = std::fs::File::options()
        .write(true)
        .open(slots.path().join(&file))
        .and_then(|f| f.set_len(len / 2));
    cut.unwrap_or_else(|e| panic!("{e}"));
    let url = match warm_at(url.clone()).await {
        Ok(how) => {
            assert_eq!(how, "evaluated and saved");
            url
        }
        Err(_) => {
            assert!(files(slots.path()).is_empty(), "{:?}", files(slots.path()));
            let url = common::sidecar_ready(&sidecar, 1).await;
            let how = warm_at(url.clone()).await;
            assert_eq!(how.as_deref().ok(), Some("evaluated and saved"), "{how:?}");
            url
        }
    };
    assert_eq!(files(slots.path()), [(file, len)]);
    let how = warm_at(url).await;
    assert_eq!(how.as_deref().ok(), Some("restored"), "{how:?}");
    sidecar.stop().await;
}
