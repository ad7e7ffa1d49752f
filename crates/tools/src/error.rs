//! Errors in assembling the tool registry.

use deskmate_core::SpecError;

/// The registry could not be built.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A tool's spec was refused by the guard.
    #[error(transparent)]
    Spec(#[from] SpecError),
}
