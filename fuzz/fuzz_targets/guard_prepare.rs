//! The guard's steps 1–4 (`Guard::prepare`) against the real built-in specs: the input's
//! first line is the tool name, the rest the argument bytes (JSON text or not). Any input
//! must give a prepared call or a rejection, never a panic; a prepared call's arguments
//! must be accepted again, and fit the argument type the tool reads them into.
#![no_main]

use std::sync::OnceLock;

use deskmate_tools::{Registry, ToolConfig};
use libfuzzer_sys::fuzz_target;
use serde_json::Value;

fn registry() -> &'static Registry {
    static REGISTRY: OnceLock<Registry> = OnceLock::new();
    REGISTRY.get_or_init(|| {
        let config = ToolConfig::for_data_dir(std::env::temp_dir().join("deskmate-fuzz-guard"));
        Registry::builtin(&config).expect("the built-in specs compile")
    })
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let (name, arguments) = text.split_once('\n').unwrap_or((&text, ""));
    let guard = registry().guard();
    if let Ok(call) = guard.prepare(name, Value::String(arguments.to_string())) {
        // What the guard lets through is valid by its own measure.
        if let Err(rejection) = guard.prepare(&call.tool, call.arguments.clone()) {
            panic!("{call:?} was prepared, then refused: {rejection:?}");
        }
        // The tool's schema is derived from its argument type: they agree on the call.
        if let Some(Err(error)) = registry().tool(&call.tool).map(|t| t.fits(&call.arguments)) {
            panic!("{call:?} was prepared but does not fit {}'s arguments: {error}", call.tool);
        }
    }
});
