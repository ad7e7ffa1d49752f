//! An irreversible call among several: one confirmation for the whole batch, asked before
//! anything runs, so a "no" leaves nothing half done — and refuses every call of it.

use async_trait::async_trait;
use deskmate_core::{ErrorType, Localized, SideEffect, ToolError};
use deskmate_service::Deskmate;
use deskmate_service::hooks::{ConfirmRequest, Grant};
use serde_json::{Value, json};

use tokio_util::sync::CancellationToken;

use super::Inspector;
use crate::outcome::stopped_error;
use crate::plan::{Calls, Verdict};
use crate::types::CallStatus;

/// Puts a batch holding an irreversible call to the person.
pub(crate) struct Batch<'a> {
    /// The service (the person to ask).
    pub deskmate: &'a Deskmate,
    /// Fires when the person stops the turn: the question is dropped, nothing runs.
    pub cancel: &'a CancellationToken,
}

#[async_trait]
impl<'c> Inspector<Calls<'c>> for Batch<'_> {
    fn name(&self) -> &'static str {
        "batch"
    }

    async fn inspect(&self, calls: &mut Calls<'c>) {
        let irreversible = (0..calls.planned.len()).find(|&i| {
            calls.runs(i)
                && calls.planned[i]
                    .spec
                    .as_ref()
                    .is_some_and(|s| s.side_effect == SideEffect::Irreversible)
        });
        let (Some(i), true) = (irreversible, calls.calls.len() > 1) else {
            return;
        };
        let tool = calls.planned[i].tool.clone();
        let count = calls.calls.len();
        let listed: Vec<Value> = calls
            .calls
            .iter()
            .map(|c| json!({"tool": c.function.name, "arguments": c.function.arguments}))
            .collect();
        let question = self.deskmate.confirm_batch(ConfirmRequest {
            call_id: format!("batch-{}", uuid::Uuid::new_v4().simple()),
            tool: "batch".into(),
            tool_name: Localized::new(format!("{count} 个调用"), format!("{count} calls")),
            arguments: Value::Array(listed),
            repairs: Vec::new(),
            reason: Localized::new(
                format!("这 {count} 个调用一起执行，而 {tool} 无法撤销"),
                format!("these {count} calls run together and {tool} cannot be undone"),
            ),
            side_effect: SideEffect::Irreversible,
            grants: vec![Grant::Once],
        });
        let approved = tokio::select! {
            approved = question => approved,
            () = self.cancel.cancelled() => {
                for verdict in &mut calls.verdicts {
                    *verdict = Verdict::Refused(CallStatus::Skipped, stopped_error());
                }
                return;
            }
        };
        if approved {
            for p in &mut calls.planned {
                p.request.confirmed = true;
            }
            return;
        }
        // Refused, not merely not reached: the model may only answer now, and the person
        // is not asked again.
        let error = ToolError::new(
            ErrorType::Denied,
            "the user did not confirm this batch of calls",
        )
        .with_hint("do not retry unless the user asks again");
        for verdict in &mut calls.verdicts {
            *verdict = Verdict::Refused(CallStatus::Failed, error.clone());
        }
    }
}
