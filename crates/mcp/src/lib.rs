//! Deskmate as a Model Context Protocol server: other agents (Claude Desktop, Goose, Jan,
//! Cursor…) list Deskmate's enabled tools and call them, and every call goes through
//! [`deskmate_service::Deskmate::call`] with origin `mcp` — the same guard, policy,
//! timeout, capping and audit as a call from the app.
//!
//! Both protocol eras are spoken on both transports (rmcp decides per message): the
//! 2025-11-25 handshake with sessions and server-to-client requests, and the stateless
//! 2026-07-28 revision (`server/discover`, `_meta` on every request, `input_required`
//! results instead of server-to-client requests).
//!
//! - [`convert`]: a tool spec as an MCP tool (title, annotations), a result as a
//!   `CallToolResult`.
//! - [`server`]: [`DeskmateMcp`], the handler: `tools/list`, `tools/call`, list-changed
//!   notifications, progress, cancellation, confirmation by elicitation.
//! - [`client`]: Deskmate as a client: the configured servers supervised, their tools
//!   imported as `<server>.<tool>`.
//! - [`bridge`]: `deskmate mcp` while the app runs: stdio forwarded to the app's `/mcp`.
//! - [`transport`]: stdio ([`serve_stdio`]) and the Streamable HTTP service the REST API
//!   mounts at `/mcp` ([`streamable_http`]).

pub mod bridge;
pub mod client;
pub mod convert;
pub mod language;
pub mod server;
pub mod transport;

pub use bridge::AppBridge;
pub use server::{Confirm, DeskmateMcp, Language};
pub use transport::{serve_stdio, streamable_http};
