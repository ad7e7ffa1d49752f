//! The OpenAPI document is committed as `ui/openapi.json`, where the UI's types are
//! generated from it (`ui/api-types.mjs`): this test fails when that file is not the
//! document the API serves, so a change of the API reaches the UI's types or the build
//! fails. `DESKMATE_BLESS=1` rewrites the file.

use std::path::PathBuf;

use utoipa::OpenApi;

#[test]
fn the_committed_document_is_the_served_one() {
    let served = deskmate_api::openapi::ApiDoc::openapi()
        .to_pretty_json()
        .unwrap_or_else(|e| panic!("{e}"))
        + "\n";
    let file = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../ui/openapi.json");
    if std::env::var_os("DESKMATE_BLESS").is_some() {
        std::fs::write(&file, &served).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        return;
    }
    let committed = std::fs::read_to_string(&file).unwrap_or_default();
    assert!(
        committed == served,
        "ui/openapi.json is not the served document: run `DESKMATE_BLESS=1 cargo test -p \
         deskmate-api --test openapi_file`, then `npm run api-types` in ui/"
    );
}
