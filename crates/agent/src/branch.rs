//! Where a turn goes in its conversation's tree: after the head (the conversation goes
//! on), in place of an earlier message of the person (an edit: a new branch beside the
//! old one, which stays), or as a new reply to a message of the person (a regeneration:
//! a sibling of the reply it had). The history the model reads is the path to the place.

use deskmate_service::ServiceError;
use deskmate_service::error::FieldError;
use deskmate_store::Store;
use deskmate_store::conversation_tree::After;
use serde_json::Value;

/// A turn that does not simply go on from the head.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Branch {
    /// The person's message `seq`, sent again as this turn's message: a new branch after
    /// that message's parent.
    Edit(i64),
    /// A new reply to the person's message `seq` (its text is the turn's message).
    Regenerate(i64),
}

/// Where a turn's messages go and what it reads.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Place {
    /// Where its messages are appended.
    pub after: After,
    /// The end of the history it reads: the head (`None`), a message, or nothing before
    /// it (`Some(None)`: an edit of the first message).
    pub history_to: Option<Option<i64>>,
    /// The person's message, when it is already stored (a regeneration).
    pub stored_message: Option<String>,
}

impl Place {
    /// A turn that goes on from the head.
    pub(crate) fn head() -> Self {
        Self {
            after: After::Head,
            history_to: None,
            stored_message: None,
        }
    }
}

fn invalid(path: &str, message: String, hint: &str) -> ServiceError {
    ServiceError::Invalid(vec![FieldError {
        path: path.into(),
        message,
        hint: hint.into(),
    }])
}

/// Where `branch` puts a turn of `conversation_id`: the message it names must be one of
/// the person's in that conversation.
pub(crate) fn place(
    store: &Store,
    conversation_id: Option<&str>,
    branch: Option<Branch>,
) -> Result<Place, ServiceError> {
    let Some(branch) = branch else {
        return Ok(Place::head());
    };
    let (seq, path) = match branch {
        Branch::Edit(seq) => (seq, "/edit_of"),
        Branch::Regenerate(seq) => (seq, "/regenerate"),
    };
    let Some(conversation_id) = conversation_id else {
        return Err(invalid(
            "/conversation_id",
            "an edit or a regeneration names its conversation".into(),
            "send the conversation_id the message belongs to",
        ));
    };
    let found = store.tree_message(conversation_id, seq)?;
    let Some((node, message)) = found.filter(|(_, m)| m["role"] == "user") else {
        return Err(invalid(
            path,
            format!("message {seq} is not one of the person's messages in this conversation"),
            "use the seq of a message of yours from this conversation's entries",
        ));
    };
    Ok(match branch {
        Branch::Edit(_) => Place {
            after: After::Message(node.parent_seq),
            history_to: Some(node.parent_seq),
            stored_message: None,
        },
        Branch::Regenerate(_) => Place {
            after: After::Message(Some(node.seq)),
            history_to: Some(node.parent_seq),
            stored_message: Some(
                message["content"]
                    .as_str()
                    .map(str::to_string)
                    .unwrap_or_else(|| Value::to_string(&message["content"])),
            ),
        },
    })
}
