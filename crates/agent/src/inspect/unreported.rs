//! What the reply must gain to tell the whole outcome, added from the calls' state: every
//! call that did not succeed (so a "Done." after a refused or failed call is never the
//! whole story) and every success whose figures the reply does not mention.

use async_trait::async_trait;

use super::{Draft, Inspector};
use crate::outcome::Outcome;
use crate::reply::{outcome_line, recovered, sentence};
use crate::types::CallStatus;

/// Adds the lines of what the reply leaves out.
pub(crate) struct Unreported<'a> {
    /// The calls that ran in the turn.
    pub ran: &'a [Outcome],
    /// The person writes Chinese.
    pub zh: bool,
}

#[async_trait]
impl Inspector<Draft> for Unreported<'_> {
    fn name(&self) -> &'static str {
        "unreported"
    }

    async fn inspect(&self, draft: &mut Draft) {
        if !draft.own() {
            return;
        }
        let missing = unreported(&draft.text, self.ran, self.zh);
        if !missing.is_empty() {
            tracing::info!(?missing, "results the reply left out were added");
            draft.text = format!("{}\n{}", draft.text.trim_end(), missing.join("\n"));
        }
    }
}

/// The lines `reply` must gain to tell the whole outcome: the line of every call that did
/// not succeed and was not fixed later (what happened to it is the loop's to say, in any
/// language the reply is in), and the line of every success whose figures the reply does
/// not mention (a small model wording a turn where one call failed may tell only the
/// failure). A success whose line has no figures cannot be judged and is not added.
pub(crate) fn unreported(reply: &str, ran: &[Outcome], zh: bool) -> Vec<String> {
    let mentioned = components(reply);
    let fixed = recovered(ran);
    let mut missing: Vec<String> = Vec::new();
    for (i, outcome) in ran.iter().enumerate() {
        // A call not run because the person did not ask for it is no news for them: the
        // model answers their message itself.
        if fixed[i] || matches!(outcome.status, CallStatus::Repeated | CallStatus::NotAsked) {
            continue;
        }
        let said = outcome_line(outcome, zh);
        let add = if outcome.status == CallStatus::Done {
            let own: Vec<String> = components(&said)
                .into_iter()
                .filter(|c| c.chars().count() >= 2)
                .collect();
            !own.is_empty() && !own.iter().any(|c| mentioned.contains(c))
        } else {
            true
        };
        let said = sentence(said, zh);
        if add && !missing.contains(&said) {
            missing.push(said);
        }
    }
    missing
}

/// The numbers a text states, each part apart: "14:05:09 on 2026-12-02" gives 14, 05, 09,
/// 2026, 12 and 02, so a reply that says "2:05 PM" mentions that time, and "397.8" gives
/// 397 and 8.
fn components(text: &str) -> Vec<String> {
    let mut found: Vec<String> = Vec::new();
    let mut current = String::new();
    for c in text.chars().chain(std::iter::once(' ')) {
        if c.is_ascii_digit() {
            current.push(c);
        } else if !current.is_empty() {
            found.push(std::mem::take(&mut current));
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::inspect::grounding::ungrounded;
    use crate::outcome::fixtures::{outcome, sum, time};
    use crate::reply::from_results;
    use deskmate_core::{ErrorType, ToolError, ToolResult};
    use serde_json::json;

    #[test]
    fn a_reply_that_leaves_out_what_worked_gets_its_line() {
        let failed = outcome(
            "increase_volume",
            CallStatus::Failed,
            ToolResult::failure(ToolError::transient("sound server not found")),
        );
        let ran = [failed, sum()];
        // Told only the failure: the sum's line is added (and the failure's, which is
        // the loop's to tell).
        let missing = unreported(
            "I could not change the volume: no sound server.",
            &ran,
            false,
        );
        assert_eq!(missing.len(), 2, "{missing:?}");
        assert!(missing[1].contains("397.8"), "{missing:?}");
        // Told the sum, whatever the words: only the failure's line.
        let missing = unreported("No sound server; 17% of 2,340 is 397.8.", &ran, false);
        assert_eq!(missing.len(), 1, "{missing:?}");
        assert!(missing[0].starts_with("increase_volume"), "{missing:?}");
        assert_eq!(
            unreported("结果是 397.8。", &ran[1..], true),
            Vec::<String>::new()
        );
        // A time said in other words ("2:05 PM" for 14:05:09) is said.
        assert!(unreported("It's 2:05 PM.", &[time()], false).is_empty());
        assert_eq!(unreported("It's afternoon.", &[time()], false).len(), 1);
        assert_eq!(
            components("Etc/UTC 2026-12-02 01:20:22."),
            ["2026", "12", "02", "01", "20", "22"]
        );
    }

    /// "Done." after a call that was refused or failed is caught from the call's state,
    /// in any language; an honest caveat after a success stays.
    #[test]
    fn a_reply_never_hides_a_call_that_did_not_succeed() {
        let denied = outcome(
            "increase_volume",
            CallStatus::Failed,
            ToolResult::failure(ToolError::new(ErrorType::Denied, "the user declined")),
        );
        for reply in ["Done.", "好了。", "Fertig."] {
            let added = unreported(reply, std::slice::from_ref(&denied), false);
            assert_eq!(added.len(), 1, "{reply}");
            assert!(added[0].contains("the user declined"), "{added:?}");
        }
        let skipped = outcome(
            "counter_add",
            CallStatus::Skipped,
            ToolResult::success(json!({})),
        );
        assert_eq!(
            unreported("Done.", &[skipped], true),
            ["counter_add 没有执行。"]
        );
        // A failure the model fixed is not news.
        let fixed = [
            outcome(
                "calculator",
                CallStatus::Failed,
                ToolResult::failure(ToolError::validation("bad expression")),
            ),
            sum(),
        ];
        assert!(unreported("It is 397.8.", &fixed, false).is_empty());
        assert_eq!(from_results(&fixed, false), "17% of 2,340 = 397.8.");
        // An honest caveat after a success is the model's to say.
        let offered = vec!["current_time".to_string()];
        let caveat = "It's 2:05 PM. I can't set alarms, though.";
        assert_eq!(ungrounded(caveat, &offered), None);
        assert!(unreported(caveat, &[time()], false).is_empty());
        assert_eq!(ungrounded("抱歉让你久等了，现在是 14:05。", &offered), None);
    }
}
