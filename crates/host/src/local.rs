//! Starting the local model servers of the setup script's manifest as sidecars.

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use deskmate_llm::sidecar::Sidecar;
use deskmate_service::Deskmate;
use deskmate_service::local::{Found, Manifest, default_manifest_path, load_manifest};

/// What to do about local models: `auto` (the default manifest if installed), `off`, or
/// a manifest path.
pub fn manifest(choice: &str) -> Option<Manifest> {
    let path = match choice {
        "off" => return None,
        "auto" => default_manifest_path()?,
        path => path.into(),
    };
    match load_manifest(&path) {
        Found::Ready(manifest) => Some(manifest),
        Found::Missing(path) => {
            eprintln!(
                "deskmate: no local model installed ({} not found). Run scripts/setup-models.sh to install \
                 the local LLM and ASR, or add a model: POST /api/v1/models/llm",
                path.display()
            );
            None
        }
        Found::Broken(path, why) => {
            eprintln!(
                "deskmate: local models unusable ({}): {why}",
                path.display()
            );
            None
        }
    }
}

/// Registers the manifest's models (first run) and starts the servers of the given
/// model ids (all when `only` is `None`); their URLs go to the service as they change.
pub fn start(
    deskmate: &Arc<Deskmate>,
    manifest: &Manifest,
    only: Option<&[String]>,
    log_dir: &Path,
) -> Vec<(String, Sidecar)> {
    match deskmate.register_local_models(manifest) {
        Ok(added) if !added.is_empty() => {
            eprintln!("deskmate: registered local models: {}", added.join(", "))
        }
        Ok(_) => {}
        Err(e) => eprintln!("deskmate: cannot register the local models: {e}"),
    }
    let _ = std::fs::create_dir_all(log_dir);
    let servers = manifest
        .llm
        .iter()
        .map(|s| ("llama-server", s))
        .chain(manifest.asr.iter().map(|s| ("faster-whisper-server", s)));
    let mut started = Vec::new();
    for (kind, server) in servers {
        if only.is_some_and(|ids| !ids.contains(&server.id)) {
            continue;
        }
        deskmate.managed_starting(&server.id);
        let service = deskmate.clone();
        let id = server.id.clone();
        let sidecar = Sidecar::start(
            server.sidecar(kind, Some(log_dir)),
            Arc::new(move |url| service.set_managed_url(&id, url)),
        );
        started.push((server.id.clone(), sidecar));
    }
    started
}

/// Waits until every started server is ready (or says which is not).
pub async fn wait(sidecars: &[(String, Sidecar)], timeout: Duration) {
    for (id, sidecar) in sidecars {
        if let Err(e) = sidecar.wait_ready(timeout).await {
            eprintln!("deskmate: local model {id}: {e}");
        }
    }
}

/// Stops them.
pub async fn stop(sidecars: Vec<(String, Sidecar)>) {
    for (_, sidecar) in sidecars {
        sidecar.stop().await;
    }
}
