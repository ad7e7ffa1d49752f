//! Approvals that last: a yes to a call whose policy asks may reach further than the call
//! — the tool's calls in this conversation, or every call of the tool. Each is kept with
//! the fingerprint of the tool's definition it was given for, so a tool whose definition
//! changed (an edited HTTP tool, an MCP server's new schema) asks again. They are listed
//! and taken back on the Tools page.

use deskmate_core::ToolSpec;
pub use deskmate_store::approvals::{Approval, ApprovalScope};

use crate::hooks::{Confirmation, Grant};
use crate::{Deskmate, ServiceError};

/// A stable fingerprint of what a tool does and takes: a yes given for one definition
/// does not hold for another.
pub fn definition_fingerprint(spec: &ToolSpec) -> String {
    let text = deskmate_core::canonical_json(&serde_json::json!({
        "id": spec.id,
        "description": spec.description,
        "parameters": spec.parameters,
        "side_effect": spec.side_effect,
    }));
    format!("{:016x}", crate::fnv64(text.as_bytes()))
}

/// The yeses a question about one call of a tool offers.
pub(crate) fn grants_for(conversation_id: Option<&str>) -> Vec<Grant> {
    let mut grants = vec![Grant::Once];
    if conversation_id.is_some() {
        grants.push(Grant::Conversation);
    }
    grants.push(Grant::Always);
    grants
}

impl Deskmate {
    /// The approvals, of one tool or all, the newest first.
    pub fn approvals(&self, tool: Option<&str>) -> Result<Vec<Approval>, ServiceError> {
        Ok(self.stored()?.store.approvals(tool)?)
    }

    /// Takes an approval back: the tool asks again.
    pub fn revoke_approval(&self, id: &str) -> Result<Approval, ServiceError> {
        let store = &self.stored()?.store;
        let approval = store.approval(id)?.ok_or_else(|| ServiceError::NotFound {
            what: "Approval",
            id: id.to_string(),
        })?;
        if !store.revoke_approval(id)? {
            return Err(ServiceError::NotFound {
                what: "Approval",
                id: id.to_string(),
            });
        }
        tracing::info!(tool = %approval.tool, scope = ?approval.scope, "approval revoked");
        Ok(approval)
    }

    /// Keeps "always allow" for `tool` as it is defined now (a yes given over MCP
    /// elicitation); false when there is no such tool.
    pub fn allow_always(&self, tool: &str) -> bool {
        let registry = self.registry();
        let Some(spec) = registry.guard().spec(tool) else {
            return false;
        };
        self.remember_approval(spec, &Confirmation::ApprovedAlways, None);
        true
    }

    /// Whether an approval given before covers a call of `spec` in `conversation_id`.
    pub(crate) fn approved_before(&self, spec: &ToolSpec, conversation_id: Option<&str>) -> bool {
        let Ok(stored) = self.stored() else {
            return false;
        };
        stored
            .store
            .approved(&spec.id, &definition_fingerprint(spec), conversation_id)
            .unwrap_or_else(|error| {
                tracing::warn!(%error, "approvals could not be read; asking");
                false
            })
    }

    /// Keeps a yes that reaches further than the call it answered. A conversation's yes
    /// without a conversation (or one deleted meanwhile) holds for the call only.
    pub(crate) fn remember_approval(
        &self,
        spec: &ToolSpec,
        answer: &Confirmation,
        conversation_id: Option<&str>,
    ) {
        let (scope, conversation_id) = match (answer, conversation_id) {
            (Confirmation::ApprovedAlways, _) => (ApprovalScope::Always, None),
            (Confirmation::ApprovedInConversation, Some(id)) => {
                (ApprovalScope::Conversation, Some(id.to_string()))
            }
            _ => return,
        };
        let Ok(stored) = self.stored() else {
            return;
        };
        let approval = Approval {
            id: format!("apv-{}", &uuid::Uuid::new_v4().simple().to_string()[..12]),
            tool: spec.id.clone(),
            scope,
            conversation_id,
            fingerprint: definition_fingerprint(spec),
            created_at: String::new(),
        };
        match stored.store.grant_approval(&approval) {
            Ok(kept) => tracing::info!(tool = %kept.tool, scope = ?kept.scope, "approval kept"),
            Err(error) => tracing::warn!(%error, tool = %spec.id, "the approval could not be kept"),
        }
    }
}
