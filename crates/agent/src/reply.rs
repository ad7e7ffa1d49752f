//! The reply made of the results, from what the loop knows of each call — done, failed,
//! denied, skipped, undone — not from the words of a reply: when the model says the
//! results are the whole answer (`done`), the reply is their one-line summaries, in the
//! person's language. Which calls a later one fixed is decided here too. The checks on a
//! reply the model wrote are [`crate::inspect`]'s.

use serde_json::Value;

use crate::outcome::Outcome;
use crate::summary::line;
use crate::types::CallStatus;

fn succeeded(outcome: &Outcome) -> bool {
    matches!(outcome.status, CallStatus::Done | CallStatus::Repeated)
}

/// For each call of `ran`, whether it did not succeed and a later success of its tool
/// fixed it. Each later success fixes one earlier call of its tool, the one whose
/// arguments share the most values with it (the first of equals): two calls that failed
/// the same way are not both fixed by one retry ("AGE by treatment_group" and "BMIBL by
/// treatment_group" failed, "AGE by TRT01A" fixed the first only).
pub(crate) fn recovered(ran: &[Outcome]) -> Vec<bool> {
    let arguments = |o: &Outcome| -> Vec<(String, Value)> {
        match serde_json::from_str::<Value>(&o.call.function.arguments) {
            Ok(Value::Object(map)) => map.into_iter().collect(),
            _ => Vec::new(),
        }
    };
    let mut fixed = vec![false; ran.len()];
    for (j, later) in ran.iter().enumerate() {
        if later.status != CallStatus::Done {
            continue;
        }
        let theirs = arguments(later);
        let best = (0..j)
            .filter(|&i| !fixed[i] && !succeeded(&ran[i]) && ran[i].tool == later.tool)
            .max_by_key(|&i| {
                let shared = arguments(&ran[i])
                    .iter()
                    .filter(|pair| theirs.contains(pair))
                    .count();
                // The first of equals: ties go to the earlier call.
                (shared, std::cmp::Reverse(i))
            });
        if let Some(i) = best {
            fixed[i] = true;
        }
    }
    fixed
}

/// The calls of the turn that failed and that no later call fixed ([`recovered`]).
pub(crate) fn open_failures(ran: &[Outcome]) -> impl Iterator<Item = &Outcome> {
    ran.iter()
        .zip(recovered(ran))
        .filter(|(o, fixed)| o.status == CallStatus::Failed && !fixed)
        .map(|(o, _)| o)
}

/// What the person reads for one call.
pub(crate) fn outcome_line(outcome: &Outcome, zh: bool) -> String {
    match outcome.status {
        CallStatus::Skipped if zh => format!("{} 没有执行", outcome.tool),
        CallStatus::Skipped => format!("{} was not run", outcome.tool),
        CallStatus::Compensated if zh => format!("{} 已撤销", outcome.tool),
        CallStatus::Compensated => format!("{} was undone", outcome.tool),
        _ => line(&outcome.tool, outcome.status, &outcome.result, zh),
    }
}

/// The reply made of the results: one line per distinct outcome, in the model's order.
pub(crate) fn from_results(ran: &[Outcome], zh: bool) -> String {
    let mut lines: Vec<String> = Vec::new();
    let fixed = recovered(ran);
    for (i, outcome) in ran.iter().enumerate() {
        if fixed[i] {
            continue;
        }
        let line = outcome_line(outcome, zh);
        if !lines.contains(&line) {
            lines.push(line);
        }
    }
    lines
        .into_iter()
        .map(|l| sentence(l, zh))
        .collect::<Vec<_>>()
        .join("\n")
}

/// A line as a sentence: with its full stop.
pub(crate) fn sentence(line: String, zh: bool) -> String {
    if line.ends_with(['.', '。', '!', '！', '?', '？']) {
        line
    } else {
        format!("{line}{}", if zh { "。" } else { "." })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::outcome::fixtures::{outcome, sum};
    use deskmate_core::{ToolError, ToolResult};
    use serde_json::json;

    #[test]
    fn one_retry_fixes_the_one_failed_call_it_shares_most_arguments_with() {
        let call = |arguments: &str, status: CallStatus| {
            let result = if status == CallStatus::Done {
                ToolResult::success(json!({}))
            } else {
                ToolResult::failure(ToolError::validation("no variable 'treatment_group'"))
            };
            Outcome::of("summarize_by_group", arguments, status, result)
        };
        let open = |ran: &[Outcome]| open_failures(ran).next().is_some();
        let age = r#"{"variable":"AGE","group_by":"treatment_group"}"#;
        let bmi = r#"{"variable":"BMIBL","group_by":"treatment_group"}"#;
        let ran = [
            call(age, CallStatus::Failed),
            call(bmi, CallStatus::Failed),
            call(
                r#"{"variable":"BMIBL","group_by":"TRT01A"}"#,
                CallStatus::Done,
            ),
        ];
        assert_eq!(recovered(&ran), [false, true, false]);
        assert!(open(&ran));
        let mut ran = ran.to_vec();
        ran.push(call(
            r#"{"variable":"AGE","group_by":"TRT01A"}"#,
            CallStatus::Done,
        ));
        assert_eq!(recovered(&ran), [true, true, false, false]);
        assert!(!open(&ran));
        // Another tool's success fixes nothing; a call not run is not a failure left open.
        let other = [
            call(age, CallStatus::Failed),
            Outcome::of(
                "frequency",
                "{}",
                CallStatus::Done,
                ToolResult::success(json!({})),
            ),
        ];
        assert_eq!(recovered(&other), [false, false]);
        assert!(open(&other));
        let skipped = [call(age, CallStatus::Skipped)];
        assert!(!open(&skipped));
    }

    #[test]
    fn the_reply_from_results_is_made_of_their_lines() {
        let volume = outcome(
            "decrease_volume",
            CallStatus::Done,
            ToolResult::success(json!({"before": 50, "after": 40,
                "said": {"zh": "音量 50% → 40%", "en": "Volume 50% → 40%"}})),
        );
        let twice = outcome("calculator", CallStatus::Repeated, sum().result);
        assert_eq!(
            from_results(&[sum(), volume.clone(), twice], false),
            "17% of 2,340 = 397.8.\nVolume 50% → 40%."
        );
        assert_eq!(from_results(&[volume], true), "音量 50% → 40%。");
    }
}
