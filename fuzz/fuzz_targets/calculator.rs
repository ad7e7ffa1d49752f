//! The calculator's own parser and evaluator on any text: a number or an error, never a
//! panic, a hang or a stack overflow (depth, length and magnitude are limited); a result
//! is finite.
#![no_main]

use deskmate_tools::calculator::evaluate;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Ok(value) = evaluate(&text) {
        assert!(value.is_finite(), "{text:?} gave {value}");
    }
});
