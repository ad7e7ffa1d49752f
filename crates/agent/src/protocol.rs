//! How the turn talks to its model, chosen per server; the prompt and its examples
//! ([`crate::prompt`]), the request of each step ([`crate::request`]), the reading of a
//! reply ([`crate::read`]) and what of it streams to the person ([`crate::gate`]) follow
//! the protocol chosen here.
//!
//! Two ways, chosen per server:
//! - **constrained** (llama.cpp): the tools are one compact catalog in the system prompt,
//!   and the reply is decoded under a JSON Schema (`deskmate_llm::envelope`): a list of
//!   calls to offered tools with schema-shaped arguments, or an answer. Earlier calls and
//!   results are shown to the model the way it writes and reads them (its JSON, then the
//!   results as one message with the language to answer in).
//! - **native** (any other OpenAI-compatible server): the `tools` field, and calls as
//!   `tool_calls` or written in the text (extracted).
//!
//! In both, the system prompt depends only on the offered tools, so it is byte-identical
//! across turns and conversations and the server's prompt cache is reused.

/// How a turn speaks to its model.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Protocol {
    /// JSON replies decoded under a schema of the offered tools.
    Constrained,
    /// The OpenAI `tools` field.
    Native,
}

/// A tool definition for the tests of the prompt and the request.
#[cfg(test)]
pub(crate) mod fixtures {
    use deskmate_llm::wire::ToolDef;
    use serde_json::json;

    /// A tool named `name` with no parameters.
    pub(crate) fn tool(name: &str) -> ToolDef {
        ToolDef::function(
            name,
            "Does a thing. More words.",
            json!({"type": "object", "properties": {}}),
        )
    }
}
