//! Calls written in a model's text (bare JSON, `<tool_call>`, code fences,
//! `[TOOL_CALLS]`): any text gives calls or none, never a panic.
#![no_main]

use deskmate_llm::extract::extract_calls;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Some(found) = extract_calls(&text) {
        // Every call was cut from a piece of the text itself (one piece may hold several).
        assert!(found.sources.len() <= found.calls.len(), "{found:?}");
        for source in &found.sources {
            assert!(text.contains(source.as_str()), "{source:?} is not in the text");
        }
    }
});
