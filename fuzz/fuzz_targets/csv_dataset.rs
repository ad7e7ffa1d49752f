//! The CSV dataset loader on any file content: a dataset or a clear error, never a panic;
//! a loaded dataset's columns all hold one cell per row.
#![no_main]

use std::sync::OnceLock;

use deskmate_tools::datasets::Dataset;
use libfuzzer_sys::fuzz_target;

fn file() -> &'static std::path::PathBuf {
    static FILE: OnceLock<std::path::PathBuf> = OnceLock::new();
    FILE.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("deskmate-fuzz-csv-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a temporary folder");
        dir.join("fuzz.csv")
    })
}

fuzz_target!(|data: &[u8]| {
    let path = file();
    std::fs::write(path, data).expect("write the input");
    if let Ok(dataset) = Dataset::read("fuzz", path) {
        for column in &dataset.columns {
            assert_eq!(column.values.len(), dataset.rows, "column {}", column.name);
        }
    }
});
