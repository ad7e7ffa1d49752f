//! The GGUF header reader on the model files `scripts/setup-models.sh tests` installs (the
//! README's test command runs it first): each installed LLM's file, found through the
//! manifest's `-m` argument, reads as GGUF with its architecture, the context it was
//! trained for and a KV size per token; a copy cut short does not.

use std::path::PathBuf;

use deskmate_llm::gguf::{GgufError, read_info};
use deskmate_service::local::{Found, default_manifest_path, load_manifest};

fn installed_files() -> Vec<(String, PathBuf)> {
    let path = default_manifest_path().unwrap_or_else(|| panic!("no cache dir"));
    let Found::Ready(manifest) = load_manifest(&path) else {
        panic!("the local models are not installed: run scripts/setup-models.sh tests");
    };
    manifest
        .llm
        .iter()
        .filter_map(|server| {
            let at = server.args.iter().position(|a| a == "-m")?;
            Some((server.id.clone(), PathBuf::from(server.args.get(at + 1)?)))
        })
        .collect()
}

#[test]
fn the_installed_model_files_read_as_gguf_and_a_cut_copy_does_not() {
    let files = installed_files();
    assert!(
        files.iter().any(|(id, _)| id == "local-smollm2-135m"),
        "SmolLM2 is not installed: {files:?}"
    );
    for (id, file) in &files {
        let info = read_info(file).unwrap_or_else(|e| panic!("{id} {}: {e}", file.display()));
        assert!(info.architecture.is_some(), "{id}: {info:?}");
        assert!(
            info.context_length.is_some_and(|n| n >= 2048),
            "{id}: {info:?}"
        );
        assert!(
            info.kv_bytes_per_token().is_some_and(|n| n > 0),
            "{id}: {info:?}"
        );
        assert!(info.size_bytes > 50_000_000, "{id}: {info:?}");
    }
    let (_, smol) = files
        .iter()
        .find(|(id, _)| id == "local-smollm2-135m")
        .unwrap_or_else(|| panic!("no SmolLM2"));
    let info = read_info(smol).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(info.architecture.as_deref(), Some("llama"));

    // The first 64 KiB of it, in a folder with a space and non-ASCII letters: the header
    // does not fit, and the reader says so.
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let folder = dir.path().join("my models 模型");
    std::fs::create_dir(&folder).unwrap_or_else(|e| panic!("{e}"));
    let bytes = std::fs::read(smol).unwrap_or_else(|e| panic!("{e}"));
    let cut = folder.join("cut short.gguf");
    std::fs::write(&cut, &bytes[..65_536]).unwrap_or_else(|e| panic!("{e}"));
    assert!(
        matches!(read_info(&cut), Err(GgufError::Damaged(_))),
        "{:?}",
        read_info(&cut)
    );
    let renamed = folder.join("notes.gguf");
    std::fs::write(&renamed, "these are my notes, not a model").unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(read_info(&renamed), Err(GgufError::NotGguf));
}
