//! The spec of a read-only query, which most built-in tools are: only their words differ.

use deskmate_core::{Category, Localized, SideEffect, ToolSpec};
use serde_json::Value;

/// What a read-only query tool says of itself; [`ReadOnly::spec`] adds what every such
/// tool shares: a query, read-only, idempotent, with nothing to undo.
pub(crate) struct ReadOnly {
    pub id: &'static str,
    pub name: Localized,
    pub summary: Localized,
    /// For the model: what it does, when to call it.
    pub description: &'static str,
    pub timeout_ms: u64,
}

impl ReadOnly {
    /// The tool's spec, its arguments' schema `parameters`.
    pub(crate) fn spec(self, parameters: Value) -> ToolSpec {
        ToolSpec {
            id: self.id.into(),
            name: self.name,
            summary: Some(self.summary),
            description: self.description.into(),
            category: Category::Query,
            parameters,
            side_effect: SideEffect::Read,
            idempotent: true,
            timeout_ms: self.timeout_ms,
            compensation: None,
        }
    }
}
