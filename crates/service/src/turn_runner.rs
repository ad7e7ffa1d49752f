//! How the service has a chat turn run without knowing the agent: whoever makes the agent
//! (`deskmate_agent::Agent::new`) sets it as the service's [`TurnRunner`], and a
//! schedule's prompt runs as a turn through it. The agent depends on the service, never
//! the reverse.

use async_trait::async_trait;

use crate::ServiceError;

/// What a turn run for the service came to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TurnReply {
    /// The conversation the turn was saved in (a new one when none was given).
    pub conversation_id: String,
    /// The reply shown to the person.
    pub reply: String,
}

/// Runs one chat turn for the service (a schedule's prompt).
#[async_trait]
pub trait TurnRunner: Send + Sync + std::fmt::Debug {
    /// Runs `message` as a turn of `conversation_id` (a new conversation when `None`)
    /// with the default model and every enabled tool; fails before the turn starts when
    /// the message, the model or the conversation is wrong.
    async fn run_turn(
        &self,
        message: String,
        conversation_id: Option<String>,
    ) -> Result<TurnReply, ServiceError>;
}
