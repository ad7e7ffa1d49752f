//! What the model and a person read of the built-in tools is a contract: every tool's
//! parameter schema (with the `x-` keywords the normalizer and the GUI read), the system
//! prompt a constrained turn starts with (what the local model's server keeps warm) and
//! the grammar its replies are decoded under. They are committed as
//! `testdata/builtin-tools.json`; this test fails when they change, so a change is made
//! on purpose (`DESKMATE_BLESS=1` rewrites the file) and never by a refactoring.

mod common;

use std::path::PathBuf;
use std::sync::Arc;

use deskmate_devices::Backends;
use deskmate_llm::envelope::{self, Answer};
use deskmate_service::Deskmate;
use deskmate_service::agent::prefix_prompt;
use deskmate_service::hooks::PreApproved;
use serde_json::{Map, Value, json};

#[test]
fn the_built_in_tools_read_as_committed() {
    let dir = common::data_dir_with_adsl();
    let backends = Backends::simulated();
    let deskmate = Deskmate::open_with_tools(
        dir.path(),
        Arc::new(PreApproved),
        deskmate_devices::system_tools(&backends),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let parameters: Map<String, Value> = deskmate
        .specs()
        .iter()
        .map(|s| (s.id.clone(), s.parameters.clone()))
        .collect();
    // 18 built-in tools and the 3 shipped HTTP templates.
    assert_eq!(parameters.len(), 21, "{:?}", parameters.keys());
    let offered = deskmate.offered_tools(None);
    let document = json!({
        "parameters": parameters,
        "prompt": prefix_prompt(&offered),
        "grammar": envelope::grammar_with(&offered, Answer::Text),
    });
    let text = serde_json::to_string_pretty(&document).unwrap_or_else(|e| panic!("{e}")) + "\n";
    let file = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../testdata/builtin-tools.json");
    if std::env::var_os("DESKMATE_BLESS").is_some() {
        std::fs::write(&file, &text).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        return;
    }
    let committed = std::fs::read_to_string(&file).unwrap_or_default();
    assert!(
        committed == text,
        "the built-in tools no longer read as testdata/builtin-tools.json says; if the change \
         is meant, run `DESKMATE_BLESS=1 cargo test -p deskmate-service --test tool_contracts`"
    );
}
