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
