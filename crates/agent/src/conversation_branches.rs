//! The branches of a conversation as the chat shows them: where the path shown has
//! siblings (an edited message, a regenerated reply), which of them is shown ("‹ 2/3 ›"),
//! and switching to another.

use deskmate_service::ServiceError;

use crate::agent::Agent;
use crate::conversations::ConversationDetail;

pub use crate::branch_points::BranchPoint;

impl Agent {
    /// Shows the branch through message `seq` (its latest continuation) and answers the
    /// conversation as the chat now shows it.
    ///
    /// # Errors
    /// `NotFound` when the conversation or its message `seq` is not there (a message of
    /// another conversation is not).
    pub fn show_branch(&self, id: &str, seq: i64) -> Result<ConversationDetail, ServiceError> {
        let store = self.store()?;
        if store.conversation(id)?.is_none() {
            return Err(ServiceError::NotFound {
                what: "Conversation",
                id: id.to_string(),
            });
        }
        if store.show_branch(id, seq)?.is_none() {
            return Err(ServiceError::NotFound {
                what: "Message",
                id: seq.to_string(),
            });
        }
        self.conversation(id)
    }
}
