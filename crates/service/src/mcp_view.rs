//! An MCP server as API clients see it: its entry with the values of `env` and `headers`
//! masked, its status now, the ids of its tools and the tools whose definitions changed.
//! The OpenAPI document's answer schema is derived from this type.

use std::collections::BTreeMap;

use deskmate_store::mcp_servers::McpServerRow;
use serde::Serialize;
use serde_json::Value;
use utoipa::ToSchema;

use crate::mcp_input::MASK;

/// An MCP server as the API shows it. A server started as a program has `command`,
/// `args` and `env`; one reached over HTTP has `url` and `headers`.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct McpServerView {
    /// Its name (the prefix of its tools' ids).
    pub name: String,
    /// Whether Deskmate connects to it.
    pub enabled: bool,
    /// RFC 3339.
    pub created_at: String,
    /// RFC 3339.
    pub updated_at: String,
    /// What it is doing now.
    pub status: McpStatus,
    /// The ids of its tools in the registry.
    pub tools: Vec<String>,
    /// Its tools whose definitions changed since they were accepted (disabled until
    /// approved).
    pub changed: Vec<ChangedTool>,
    /// The program started to speak MCP over stdio.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub command: Option<String>,
    /// The program's arguments.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub args: Option<Vec<String>>,
    /// The program's environment variables, each value read back as `••••`.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub env: Option<BTreeMap<String, String>>,
    /// The server's URL (Streamable HTTP).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub url: Option<String>,
    /// The HTTP headers sent to it, each value read back as `••••`.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub headers: Option<BTreeMap<String, String>>,
}

impl McpServerView {
    /// The view of a stored entry, with what the server does and the tools it gave.
    pub fn new(
        row: &McpServerRow,
        status: McpStatus,
        tools: Vec<String>,
        changed: Vec<ChangedTool>,
    ) -> Self {
        let masked = |names: &[String]| -> BTreeMap<String, String> {
            names
                .iter()
                .map(|n| (n.clone(), MASK.to_string()))
                .collect()
        };
        let program = row.command.is_some();
        let http = row.url.is_some();
        Self {
            name: row.name.clone(),
            enabled: row.enabled,
            created_at: row.created_at.clone(),
            updated_at: row.updated_at.clone(),
            status,
            tools,
            changed,
            command: row.command.clone(),
            args: program.then(|| row.args.clone()),
            env: program.then(|| masked(&row.env)),
            url: row.url.clone(),
            headers: http.then(|| masked(&row.headers)),
        }
    }
}

/// What a server is doing now.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(tag = "state", rename_all = "snake_case")]
pub enum McpStatus {
    /// Being started or connected to.
    Starting,
    /// Connected; its tools are in the registry.
    Running {
        /// How many tools it gave.
        tools: usize,
        /// The protocol revision spoken.
        protocol: String,
    },
    /// Not connected, and why (the client retries with backoff).
    Failed {
        /// What went wrong.
        reason: String,
    },
    /// Disabled by the person.
    Disabled,
}

/// An imported tool whose definition differs from the one accepted: it stays disabled
/// until the person approves the new one.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct ChangedTool {
    /// The tool's name on its server.
    pub tool: String,
    /// Its id in Deskmate.
    pub id: String,
    /// SHA-256 (hex) of the new definition.
    pub hash: String,
    /// The definition accepted before (an MCP tool definition, as the server gave it).
    #[schema(value_type = Object)]
    pub pinned: Value,
    /// The definition the server gives now.
    #[schema(value_type = Object)]
    pub now: Value,
}
