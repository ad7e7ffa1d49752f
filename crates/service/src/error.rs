//! Errors of the service: opening it, and what is wrong with a request's field.

use std::path::PathBuf;

use serde::Serialize;

// Every module that checks input reports with it, and it depends on nothing of theirs.
/// One problem with a resource, at a JSON pointer into the request body.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct FieldError {
    /// Where (`/http_url`, `/parameter_defaults/days`).
    pub path: String,
    /// What is wrong.
    pub message: String,
    /// How to fix it.
    pub hint: String,
}

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
    /// The secrets file could not be read.
    #[error(transparent)]
    Secrets(#[from] crate::secrets::SecretsError),
    /// The tool registry could not be built.
    #[error(transparent)]
    Registry(#[from] deskmate_tools::Error),
}

/// Why a request to the service (other than a tool call) failed. Front ends map each
/// variant to their own status (REST: 404, 422, 409, 403, 503, 500).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ServiceError {
    /// The thing asked for does not exist.
    #[error("{what} '{id}' not found")]
    NotFound {
        /// What kind of thing.
        what: &'static str,
        /// Its id.
        id: String,
    },
    /// The input breaks the rules; one entry per field.
    #[error("invalid input: {}", .0.iter().map(|e| format!("{}: {}", e.path, e.message)).collect::<Vec<_>>().join("; "))]
    Invalid(Vec<FieldError>),
    /// The id or name asked for is already used; one entry per field.
    #[error("already used: {}", .0.iter().map(|e| format!("{}: {}", e.path, e.message)).collect::<Vec<_>>().join("; "))]
    Taken(Vec<FieldError>),
    /// The change is never allowed (deleting a built-in tool).
    #[error("{0}")]
    Forbidden(String),
    /// The tool registry could not be rebuilt after a change.
    #[error("the tools could not be reloaded: {0}")]
    Registry(String),
    /// The service was opened without a data dir.
    #[error("this service has no database")]
    NoStore,
    /// The database failed.
    #[error(transparent)]
    Store(#[from] deskmate_store::Error),
    /// The secret store (the OS keyring or the file) failed.
    #[error(transparent)]
    Secrets(#[from] crate::secrets::SecretsError),
    /// A model server could not be reached or answered badly.
    #[error(transparent)]
    Model(#[from] deskmate_llm::LlmError),
}
