//! The SSE parser fed arbitrary bytes in arbitrary pieces (the first byte picks the piece
//! size), and every event's `choices[0].delta.tool_calls` pushed into the tool-call
//! assembler: never a panic, whatever the stream.
#![no_main]

use deskmate_llm::assemble::ToolCallAssembler;
use deskmate_llm::sse::SseParser;
use deskmate_llm::wire::ToolCallDelta;
use libfuzzer_sys::fuzz_target;
use serde_json::Value;

fuzz_target!(|data: &[u8]| {
    let Some((&size, stream)) = data.split_first() else {
        return;
    };
    let size = usize::from(size).max(1);
    let mut parser = SseParser::new();
    let mut assembler = ToolCallAssembler::new();
    for piece in stream.chunks(size) {
        for event in parser.feed(piece) {
            let Ok(chunk) = serde_json::from_str::<Value>(&event.data) else {
                continue;
            };
            let deltas = chunk["choices"][0]["delta"]["tool_calls"].clone();
            if let Ok(deltas) = serde_json::from_value::<Vec<ToolCallDelta>>(deltas) {
                assembler.push(&deltas);
            }
        }
    }
    let _ = parser.has_partial();
    let _ = assembler.finish();
});
