//! Shared fixtures: a temporary data dir holding the CDISC ADSL dataset.

#![allow(dead_code)]

use std::path::{Path, PathBuf};

/// The repository's copy of the CDISC pilot ADSL.
pub fn adsl_source() -> PathBuf {
    Path::new(
        &std::env::var("CARGO_MANIFEST_DIR")
            .unwrap_or_else(|_| env!("CARGO_MANIFEST_DIR").to_string()),
    )
    .join("../../testdata/cdisc/adsl.csv")
}

/// A fresh data dir with `datasets/adsl.csv`.
pub fn data_dir_with_adsl() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("tempdir: {e}"));
    let datasets = dir.path().join("datasets");
    std::fs::create_dir_all(&datasets).unwrap_or_else(|e| panic!("mkdir: {e}"));
    std::fs::copy(adsl_source(), datasets.join("adsl.csv"))
        .unwrap_or_else(|e| panic!("copy adsl: {e}"));
    dir
}

/// The sidecar's URL once it is ready after at least `restarts` restarts (within 180 s).
pub async fn sidecar_ready(sidecar: &deskmate_llm::sidecar::Sidecar, restarts: u32) -> String {
    use deskmate_llm::sidecar::SidecarState;
    let deadline = tokio::time::Instant::now() + std::time::Duration::from_secs(180);
    loop {
        let status = sidecar.status();
        if let SidecarState::Ready { url } = &status.state
            && status.restarts >= restarts
        {
            return url.clone();
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "not ready: {status:?}"
        );
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
}

/// The installed SmolLM2-135M server of the local models' manifest.
pub fn installed_smollm2() -> deskmate_service::local::LocalServer {
    use deskmate_service::local::{Found, default_manifest_path, load_manifest};
    let path = default_manifest_path().unwrap_or_else(|| panic!("no cache dir"));
    let Found::Ready(manifest) = load_manifest(&path) else {
        panic!("the local models are not installed: run scripts/setup-models.sh tests");
    };
    manifest
        .llm
        .into_iter()
        .find(|s| s.id == "local-smollm2-135m")
        .unwrap_or_else(|| panic!("SmolLM2 is not installed: run scripts/setup-models.sh tests"))
}
