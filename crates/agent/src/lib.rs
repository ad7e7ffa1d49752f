//! Deskmate's agent: a person's message becomes a turn of the chat loop — the model picks
//! tools, every call goes through the service's guard ([`Deskmate::call`]), the results
//! go back to the model until it answers — and the turn is kept as a conversation.
//!
//! [`Agent`] holds the service ([`deskmate_service::Deskmate`]): [`Agent::chat`] runs a
//! turn and streams its [`AgentEvent`]s (the loop is [`chat`]; one reply's calls, the
//! protocol per model server and the context that never overflows are modules beside
//! it); [`conversations`], [`conversation_branches`] and [`conversation_export`] read,
//! branch, export and import what turns saved; [`warm`] keeps a local model's prompt
//! prefix in its server's cache.
//!
//! The agent depends on the service, never the reverse. What the service needs of it, it
//! learns without naming it: [`Agent::new`] sets the agent as the service's
//! [`TurnRunner`] (a schedule's prompt runs as a turn) and follows two of its
//! subscriptions — [`Deskmate::tool_changes`] (a new tool set may be a new prompt prefix)
//! and [`Deskmate::managed_ready`] (a local model's server became ready) — to warm the
//! prefix.
//!
//! ```no_run
//! # async fn demo() -> Result<(), Box<dyn std::error::Error>> {
//! use std::sync::Arc;
//! use deskmate_agent::{Agent, ChatTurn};
//! use deskmate_service::Deskmate;
//! let deskmate = Arc::new(Deskmate::open(std::path::Path::new("/tmp/deskmate-demo"))?);
//! let agent = Agent::new(deskmate);
//! let turn = ChatTurn { message: "what's 17% of 2,340?".into(), ..ChatTurn::default() };
//! let (_events, outcome) = agent.chat_collected(turn).await?;
//! println!("{}", outcome.reply);
//! # Ok(()) }
//! ```

mod agent;
mod branch;
mod branch_points;
mod calls;
pub mod chat;
mod context;
pub mod conversation_branches;
pub mod conversation_export;
pub mod conversations;
mod figures;
mod fold;
mod gate;
mod inspect;
mod judge;
mod look_again;
mod near;
mod offer;
mod options;
mod outcome;
mod parts;
mod plan;
mod probe;
mod prompt;
mod protocol;
mod read;
mod reply;
mod reply_language;
mod request;
mod said;
mod select;
pub mod summary;
mod tokens;
mod turn_end;
mod turn_input;
mod types;
pub mod warm;
mod words;

pub use agent::Agent;
pub use chat::MAX_STEPS;
pub use conversations::{ChatEntry, ConversationDetail};
pub use probe::{ProbeRequest, ToolCallingProbe};
pub use types::{AgentEvent, Branch, CallStatus, ChatOutcome, ChatTurn, PlanPart, StopReason};
