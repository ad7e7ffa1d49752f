//! The checks on one step of a turn, each a small [`Inspector`] in its own file, run in
//! the order stated here — the same order every turn:
//!
//! - **The calls a reply asks for**, before any of them runs ([`check_calls`]):
//!   1. [`offered`]: a tool the turn did not offer is not run;
//!   2. [`asked_for`]: a call whose part of the request, judged on its own, is not its
//!      tool's may be a stand-in for what was asked — a write is put to the person first
//!      ("did you mean this?"), a read no tool does is not run;
//!   3. [`repeats`]: a call whose result the turn already has is not run again;
//!   4. [`batch`]: an irreversible call among several — one confirmation for them all.
//! - **The reply the model wrote** ([`check_reply`]):
//!   1. [`tidy`]: after results, up to the first sentence it says again, and to its last
//!      complete sentence when the token limit cut it;
//!   2. [`language`]: words in the other language are written again in the person's;
//!   3. [`grounding`]: a reply that cannot be an answer (empty, raw JSON, a call written as
//!      text) is replaced by the results' lines;
//!   4. [`unreported`]: what did not succeed, and what worked that the reply leaves out,
//!      is added from the calls' state.
//!
//! An inspector sees what the ones before it decided: a call refused is not asked about,
//! a reply replaced is not added to.

pub(crate) mod asked_for;
pub(crate) mod batch;
pub(crate) mod grounding;
pub(crate) mod language;
pub(crate) mod offered;
pub(crate) mod repeats;
pub(crate) mod tidy;
pub(crate) mod unreported;

use async_trait::async_trait;
use deskmate_llm::ChatClient;
use deskmate_llm::envelope::Part;
use deskmate_llm::wire::ChatRequest;
use deskmate_service::Deskmate;
use deskmate_service::language::Language;
use tokio_util::sync::CancellationToken;

use crate::judge::Judge;
use crate::outcome::{Outcome, Succeeded};
use crate::plan::Calls;
use crate::types::StopReason;

/// One check on one step of a turn: looks at `S` (the calls a reply asks for, or the
/// reply) and changes it where the check says so.
#[async_trait]
pub(crate) trait Inspector<S: Send>: Send + Sync {
    /// Its name, in the log.
    fn name(&self) -> &'static str;
    /// Looks at `subject` and changes it.
    async fn inspect(&self, subject: &mut S);
}

/// Runs `inspectors` on `subject`, in order.
async fn run<S: Send>(inspectors: &[&dyn Inspector<S>], subject: &mut S) {
    for inspector in inspectors {
        tracing::trace!(inspector = inspector.name(), "inspecting");
        inspector.inspect(subject).await;
    }
}

/// What the checks on a reply's calls read of the turn.
pub(crate) struct CallChecks<'a> {
    /// The service (its registry, and the person to ask).
    pub deskmate: &'a Deskmate,
    /// Only these tools may run (every enabled tool when absent).
    pub offered: Option<&'a [String]>,
    /// What the person asked: their message of this turn and the one before it.
    pub asked: &'a [String],
    /// Judges a part of the request on its own (absent: the calls are not checked so).
    pub judge: Option<&'a Judge<'a>>,
    /// The separate requests the model listed with these calls.
    pub parts: &'a [Part],
    /// The calls are the model's second thought, after an answer without any
    /// ([`crate::look_again`]).
    pub doubted: bool,
    /// The results of the turn's calls that succeeded so far.
    pub succeeded: &'a Succeeded,
    /// Fires when the person stops the turn: a question still open is dropped.
    pub cancel: &'a CancellationToken,
}

/// The checks on a reply's calls, in their order (see the module's documentation).
pub(crate) async fn check_calls(calls: &mut Calls<'_>, turn: CallChecks<'_>) {
    let offered = offered::Offered {
        offered: turn.offered,
    };
    let asked_for = asked_for::AskedFor {
        deskmate: turn.deskmate,
        judge: turn.judge,
        parts: turn.parts,
        asked: turn.asked,
        doubted: turn.doubted,
        cancel: turn.cancel,
    };
    let repeats = repeats::Repeats {
        succeeded: turn.succeeded,
    };
    let batch = batch::Batch {
        deskmate: turn.deskmate,
        cancel: turn.cancel,
    };
    run(&[&offered, &asked_for, &repeats, &batch], calls).await;
}

/// A reply the model wrote, as the checks on it leave it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Draft {
    /// The text the person will read.
    pub text: String,
    /// How the turn ends with it: [`StopReason::Answered`], or
    /// [`StopReason::FromResults`] once it was replaced by the results' lines, or
    /// [`StopReason::Cancelled`] when the person stopped the turn meanwhile.
    pub stop: StopReason,
}

impl Draft {
    /// The model's reply, before any check.
    pub(crate) fn new(text: String) -> Self {
        Self {
            text,
            stop: StopReason::Answered,
        }
    }

    /// Whether the reply is still the model's own words (not replaced, not stopped).
    pub(crate) fn own(&self) -> bool {
        self.stop == StopReason::Answered
    }
}

/// What the checks on a reply read of the turn.
pub(crate) struct ReplyChecks<'a> {
    /// The calls that ran in the turn, in order (empty: the model answered without any).
    pub ran: &'a [Outcome],
    /// The tools the turn offered.
    pub offered: &'a [String],
    /// The token limit cut the reply.
    pub cut: bool,
    /// The language the person writes in.
    pub language: Language,
    /// The person's message.
    pub message: &'a str,
    /// The model's server, the request that got the reply, and the reply as it came.
    pub client: &'a ChatClient,
    pub request: &'a ChatRequest,
    pub raw: &'a str,
    /// Fires when the person stops the turn.
    pub cancel: &'a CancellationToken,
}

/// The checks on a reply, in their order (see the module's documentation).
pub(crate) async fn check_reply(draft: &mut Draft, turn: ReplyChecks<'_>) {
    let zh = turn.language.zh();
    let tidy = tidy::Tidy {
        ran: turn.ran,
        cut: turn.cut,
    };
    let language = language::Mend {
        client: turn.client,
        request: turn.request,
        raw: turn.raw,
        message: turn.message,
        language: turn.language,
        cancel: turn.cancel,
    };
    let grounding = grounding::Grounding {
        ran: turn.ran,
        offered: turn.offered,
        zh,
    };
    let unreported = unreported::Unreported { ran: turn.ran, zh };
    run(&[&tidy, &language, &grounding, &unreported], draft).await;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::outcome::fixtures::{sum, time};

    /// A later inspector sees what an earlier one decided: a reply replaced by the results
    /// is not added to, a reply that stands gets what it leaves out.
    #[tokio::test]
    async fn the_reply_checks_build_on_each_other() {
        let ran = [sum(), time()];
        let offered = ["calculator".to_string()];
        let grounding = grounding::Grounding {
            ran: &ran,
            offered: &offered,
            zh: false,
        };
        let unreported = unreported::Unreported {
            ran: &ran,
            zh: false,
        };

        let mut raw_json = Draft::new("{\"result\": 397.8}".into());
        run(&[&grounding, &unreported], &mut raw_json).await;
        assert_eq!(raw_json.stop, StopReason::FromResults);
        assert_eq!(raw_json.text, crate::reply::from_results(&ran, false));

        let mut partial = Draft::new("It is 397.8.".into());
        run(&[&grounding, &unreported], &mut partial).await;
        assert_eq!(partial.stop, StopReason::Answered);
        assert_eq!(
            partial.text,
            "It is 397.8.\nIt is 14:05:09 on 2026-12-02 (Etc/UTC)."
        );
    }
}
