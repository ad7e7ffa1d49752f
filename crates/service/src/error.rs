//! Errors in opening the service.

use std::path::PathBuf;

/// The service could not be opened.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The data dir could not be created or read.
    #[error("cannot use the data dir {path}: {source}")]
    DataDir {
        /// The data dir.
        path: PathBuf,
        /// The I/O failure.
        source: std::io::Error,
    },
    /// No data dir was given and the OS has no app-data dir for this user.
    #[error("no data dir: pass --data-dir or set DESKMATE_DATA_DIR")]
    NoDefaultDataDir,
    /// The database could not be opened or updated.
    #[error(transparent)]
    Store(#[from] deskmate_store::Error),
    /// The tool registry could not be built.
    #[error(transparent)]
    Registry(#[from] deskmate_tools::Error),
}
