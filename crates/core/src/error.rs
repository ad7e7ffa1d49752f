//! Errors in building the guard from tool specs.

/// A tool spec the guard cannot accept.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SpecError {
    /// The id is not `[a-z0-9_]{1,64}`.
    #[error("tool id '{id}' must match [a-z0-9_]{{1,64}}")]
    InvalidId {
        /// The offending id.
        id: String,
    },
    /// Two tools share an id.
    #[error("tool id '{id}' is registered twice")]
    DuplicateId {
        /// The repeated id.
        id: String,
    },
    /// The parameter schema is not a valid 2020-12 object schema.
    #[error("tool '{tool}' has an invalid parameter schema: {reason}")]
    InvalidSchema {
        /// The tool whose schema failed.
        tool: String,
        /// What is wrong with it.
        reason: String,
    },
}
