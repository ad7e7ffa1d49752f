//! "Did you mean this?": a tool whose subject the person did not name may be a stand-in
//! for what they asked (the camera for the lights, the volume for the screen's brightness)
//! — or a real request in words no list has ("开大点"). The person decides: asked first,
//! the call goes on to the guard on a yes (where a tool that asks first still asks its own
//! question) and is not run on a no (or with nobody to ask).

use async_trait::async_trait;
use deskmate_core::{ErrorType, Localized, SideEffect, ToolError};
use deskmate_service::Deskmate;
use deskmate_service::hooks::{ConfirmRequest, Grant};
use serde_json::json;

use tokio_util::sync::CancellationToken;

use super::Inspector;
use crate::outcome::stopped_error;
use crate::plan::{Calls, Verdict};
use crate::types::CallStatus;

/// Puts calls of tools whose subject the person did not name to the person.
pub(crate) struct AskedFor<'a> {
    /// The service (the tools' subjects, and the person to ask).
    pub deskmate: &'a Deskmate,
    /// What the person asked: their message of this turn and the one before it (a
    /// follow-up such as "a bit more" names its subject in the earlier one).
    pub asked: &'a [String],
    /// Fires when the person stops the turn: the question is dropped, the call not run.
    pub cancel: &'a CancellationToken,
}

#[async_trait]
impl<'c> Inspector<Calls<'c>> for AskedFor<'_> {
    fn name(&self) -> &'static str {
        "asked_for"
    }

    async fn inspect(&self, calls: &mut Calls<'c>) {
        let registry = self.deskmate.registry();
        for i in 0..calls.planned.len() {
            if !calls.runs(i) {
                continue;
            }
            let p = &calls.planned[i];
            let Some(subjects) = registry.tool(&p.tool).map(|t| t.subjects()) else {
                continue;
            };
            if subjects.is_empty()
                || self
                    .asked
                    .iter()
                    .any(|m| deskmate_tools::words::mentions_any(m, subjects))
            {
                continue;
            }
            let named: Vec<&str> = subjects.iter().take(4).copied().collect();
            let call = &calls.calls[i];
            let question = self.deskmate.confirm_batch(ConfirmRequest {
                call_id: call.id.clone(),
                tool: p.tool.clone(),
                tool_name: p.spec.as_ref().map_or_else(
                    || Localized::new(p.tool.clone(), p.tool.clone()),
                    |s| s.name.clone(),
                ),
                arguments: serde_json::from_str(&call.function.arguments)
                    .unwrap_or_else(|_| json!({})),
                repairs: Vec::new(),
                reason: Localized::new(
                    format!(
                        "消息里没有提到 {} 作用的对象（{}）",
                        p.tool,
                        named.join("、")
                    ),
                    format!(
                        "the message does not mention what {} acts on ({})",
                        p.tool,
                        named.join(", ")
                    ),
                ),
                side_effect: p.spec.as_ref().map_or(SideEffect::Write, |s| s.side_effect),
                // About this message's words: a yes does not carry over.
                grants: vec![Grant::Once],
            });
            let approved = tokio::select! {
                approved = question => approved,
                () = self.cancel.cancelled() => {
                    calls.verdicts[i] = Verdict::Refused(CallStatus::Skipped, stopped_error());
                    return;
                }
            };
            // A yes says the person meant this tool — not that they accept what its own
            // policy asks about: the call still goes through the guard unconfirmed, and a
            // tool that asks first puts its own question, with its own reason.
            if !approved {
                let error = not_asked(&calls.planned[i].tool, subjects);
                calls.verdicts[i] = Verdict::Refused(CallStatus::NotAsked, error);
            }
        }
    }
}

/// Why a call of a tool whose subject the person did not name is not run.
fn not_asked(tool: &str, subjects: &[&str]) -> ToolError {
    let named: Vec<&str> = subjects.iter().take(4).copied().collect();
    ToolError::new(
        ErrorType::Denied,
        format!(
            "not run: the user did not ask for this. {tool} is only for requests about {}, \
             and the user's message mentions none of that",
            named.join(", ")
        ),
    )
    .with_hint(
        "do not call it; answer the user directly, and if no tool does what they asked, say so",
    )
}
