//! "Did you mean this?": a call whose part of the request, put to the model on its own
//! with only the tool's description ([`crate::judge`]), is judged not to be that tool's may
//! be a stand-in for what the person asked (the camera for "switch off the lights", the
//! clock for "will it rain?") — or a real request the judgement missed. What decides is the
//! judgement and the tool's kind, never a list of words:
//!
//! - a write (or irreversible call) is put to the person: on a yes it goes on to the guard
//!   (where a tool that asks first still asks its own question), on a no — or with nobody
//!   to ask — it is not run;
//! - a read is not run, and the model is told to say honestly what no tool does.
//!
//! A follow-up ("a bit more") says little by itself: a `no` is asked once more with the
//! person's message before it, and the call stands when either judgement is `yes`.

use async_trait::async_trait;
use deskmate_core::{ErrorType, Localized, SideEffect, ToolError};
use deskmate_llm::envelope::Part;
use deskmate_service::Deskmate;
use deskmate_service::hooks::{ConfirmRequest, Grant};
use serde_json::json;

use tokio_util::sync::CancellationToken;

use super::Inspector;
use crate::judge::Judge;
use crate::outcome::stopped_error;
use crate::plan::{Calls, Verdict};
use crate::types::CallStatus;

/// Puts calls whose part is judged not their tool's to the person (writes) or leaves them
/// out (reads).
pub(crate) struct AskedFor<'a> {
    /// The service (the person to ask).
    pub deskmate: &'a Deskmate,
    /// Judges a part on its own; absent: no check (the calls go on as the model chose).
    pub judge: Option<&'a Judge<'a>>,
    /// The separate requests the model listed with these calls.
    pub parts: &'a [Part],
    /// What the person asked: their message of this turn and the one before it.
    pub asked: &'a [String],
    /// The model made these calls only when asked to look again at an answer it gave
    /// without any: a write among them is put to the person even when judged its part's.
    pub doubted: bool,
    /// Fires when the person stops the turn: the question is dropped, the call not run.
    pub cancel: &'a CancellationToken,
}

/// The part of the request a call was judged not to do — or, for a call the model made
/// only when asked to look again, the part it is for.
pub(crate) struct Against {
    ask: String,
    /// The model first answered without calling: the call is a second thought.
    doubted: bool,
}

/// How one tool's call is judged against the parts of the request it is for.
pub(crate) enum Judged {
    /// Some part of it is the tool's.
    Does,
    /// None of its parts is; the first.
    DoesNot(String),
    /// It cannot be told (no part to judge, or no usable answer).
    Unknown,
}

/// The words a call of `tool` answers: its parts, or the person's message when the model
/// listed none for it and it is the step's only tool (a message asking for several
/// things is one judgement of one tool, no basis to judge each). `tools`: how many tools
/// the step calls.
fn asks_for(parts: &[Part], asked: &[String], tool: &str, tools: usize) -> Vec<String> {
    let listed: Vec<String> = parts
        .iter()
        .filter(|p| p.tool.as_deref() == Some(tool))
        .map(|p| p.ask.clone())
        .collect();
    if listed.is_empty() && tools == 1 {
        asked.first().cloned().into_iter().collect()
    } else {
        listed
    }
}

/// Judges a call of `tool` by the parts it is for (`asked`: the person's message and the
/// one before it, which a `no` is asked again with).
pub(crate) async fn judged(
    judge: &Judge<'_>,
    parts: &[Part],
    asked: &[String],
    tool: &str,
    tools: usize,
) -> Judged {
    let mut first = None;
    for ask in asks_for(parts, asked, tool, tools) {
        let Some(mut does) = judge.does(&ask, tool).await else {
            return Judged::Unknown;
        };
        if !does && let Some(before) = asked.get(1) {
            let with = format!("{ask}\n(The user's message before it: {before})");
            does = judge.does(&with, tool).await.unwrap_or(does);
        }
        if does {
            return Judged::Does;
        }
        first.get_or_insert(ask);
    }
    first.map_or(Judged::Unknown, Judged::DoesNot)
}

impl AskedFor<'_> {
    /// `None` when the call goes on as the model chose; otherwise why it is asked about or
    /// not run.
    async fn against(&self, judge: &Judge<'_>, tool: &str, tools: usize) -> Option<Against> {
        match judged(judge, self.parts, self.asked, tool, tools).await {
            Judged::DoesNot(ask) => Some(Against {
                ask,
                doubted: false,
            }),
            // A write the model thought of only when asked to look again is the person's
            // to confirm, however it is judged.
            _ if self.doubted => Some(Against {
                ask: asks_for(self.parts, self.asked, tool, tools)
                    .into_iter()
                    .next()
                    .or_else(|| self.asked.first().cloned())
                    .unwrap_or_default(),
                doubted: true,
            }),
            Judged::Does | Judged::Unknown => None,
        }
    }
}

#[async_trait]
impl<'c> Inspector<Calls<'c>> for AskedFor<'_> {
    fn name(&self) -> &'static str {
        "asked_for"
    }

    async fn inspect(&self, calls: &mut Calls<'c>) {
        let Some(judge) = self.judge else {
            return;
        };
        let mut tools: Vec<&str> = calls.planned.iter().map(|p| p.tool.as_str()).collect();
        tools.sort_unstable();
        tools.dedup();
        let tools = tools.len();
        for i in 0..calls.planned.len() {
            if !calls.runs(i) {
                continue;
            }
            let tool = calls.planned[i].tool.clone();
            let side_effect = calls.planned[i]
                .spec
                .as_ref()
                .map_or(SideEffect::Write, |s| s.side_effect);
            let against = tokio::select! {
                against = self.against(judge, &tool, tools) => against,
                () = self.cancel.cancelled() => {
                    calls.verdicts[i] = Verdict::Refused(CallStatus::Skipped, stopped_error());
                    return;
                }
            };
            let Some(against) = against else {
                continue;
            };
            if against.doubted && side_effect == SideEffect::Read {
                continue;
            }
            tracing::info!(%tool, ask = %against.ask, doubted = against.doubted, "a call put to the person or not run");
            if side_effect == SideEffect::Read {
                calls.verdicts[i] =
                    Verdict::Refused(CallStatus::NotAsked, not_asked(&tool, &against));
                continue;
            }
            let p = &calls.planned[i];
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
                reason: reason(&tool, &against),
                side_effect,
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
                calls.verdicts[i] =
                    Verdict::Refused(CallStatus::NotAsked, not_asked(&tool, &against));
            }
        }
    }
}

/// The person's question: what was asked, and that the call does not read as doing it.
fn reason(tool: &str, against: &Against) -> Localized {
    let ask = &against.ask;
    if against.doubted {
        return Localized::new(
            format!("“{ask}”：要用 {tool} 来做吗？"),
            format!("“{ask}”: shall {tool} do it?"),
        );
    }
    Localized::new(
        format!("“{ask}”看起来不是 {tool} 能做的事"),
        format!("“{ask}” does not read as something {tool} does"),
    )
}

/// Why a call judged not to do its part is not run, and what the model does instead.
fn not_asked(tool: &str, against: &Against) -> ToolError {
    ToolError::new(
        ErrorType::Denied,
        format!(
            "not run: the user did not ask for this. {tool} does not do {:?}",
            against.ask
        ),
    )
    .with_hint(
        "do not call it; answer the user directly, and if no tool does what they asked, say \
         so honestly",
    )
}
