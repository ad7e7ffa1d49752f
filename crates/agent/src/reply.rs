//! The reply the person reads after tools ran, grounded in what the loop knows of each
//! call — done, failed, denied, skipped, undone — not in the words of the reply.
//!
//! The model writes the reply, or says the results are the whole answer (`done`), and the
//! reply is then made of their one-line summaries, in the person's language. A reply the
//! model wrote stands, honest caveats and all, unless it cannot be an answer at all
//! (empty, raw JSON, a call written as text); what it leaves out is added from the state:
//! every call that did not succeed, so a "Done." after a refused or failed call is never
//! the whole story, and every success whose figures it does not mention.

use serde_json::Value;

use crate::calls::Outcome;
use crate::summary::line;
use crate::types::CallStatus;

/// Why a model's reply after the turn's calls cannot be an answer; `None` when it can.
pub(crate) fn ungrounded(reply: &str, offered: &[String]) -> Option<&'static str> {
    let text = reply.trim();
    if text.is_empty() {
        return Some("the reply is empty");
    }
    if text.starts_with(['{', '[']) {
        return Some("the reply is raw JSON");
    }
    if writes_a_call(text, offered) {
        return Some("the reply writes a tool call instead of answering");
    }
    None
}

/// The reply as the person should read it: up to the first sentence it says again (a
/// small model can loop until its token limit), and when the limit cut it (`cut`), up to
/// its last complete sentence. Unchanged when nothing of it would be left.
pub(crate) fn tidy(reply: &str, cut: bool) -> String {
    let mut sentences: Vec<&str> = Vec::new();
    let mut start = 0;
    let mut chars = reply.char_indices().peekable();
    while let Some((at, c)) = chars.next() {
        let end = at + c.len_utf8();
        let boundary = match c {
            '。' | '！' | '？' => true,
            '.' | '!' | '?' => chars.peek().is_none_or(|(_, next)| next.is_whitespace()),
            _ => false,
        };
        if boundary {
            sentences.push(&reply[start..end]);
            start = end;
        }
    }
    let tail = &reply[start..];
    if !cut && !tail.trim().is_empty() {
        sentences.push(tail);
    }
    let mut seen: Vec<&str> = Vec::new();
    let mut kept = String::new();
    for sentence in sentences {
        let said = sentence.trim();
        if !said.is_empty() && seen.contains(&said) {
            break;
        }
        seen.push(said);
        kept.push_str(sentence);
    }
    if kept.trim().is_empty() {
        reply.trim().to_string()
    } else {
        kept.trim().to_string()
    }
}

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

/// A tool name used as code: `name(`, `` `name` ``, `"name"`, or any code fence that names
/// an offered tool.
fn writes_a_call(text: &str, offered: &[String]) -> bool {
    let fenced = text.contains("```");
    offered.iter().any(|id| {
        if id.len() < 3 {
            return false;
        }
        text.match_indices(id.as_str()).any(|(at, _)| {
            let before = text[..at].chars().next_back();
            let after = text[at + id.len()..].chars().next();
            fenced
                || matches!(before, Some('`' | '"' | '\''))
                || matches!(after, Some('(' | '`' | '"' | '\''))
        })
    })
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

/// What the person reads for one call.
fn outcome_line(outcome: &Outcome, zh: bool) -> String {
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
fn sentence(line: String, zh: bool) -> String {
    if line.ends_with(['.', '。', '!', '！', '?', '？']) {
        line
    } else {
        format!("{line}{}", if zh { "。" } else { "." })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use deskmate_core::{ErrorType, ToolError, ToolResult};
    use serde_json::json;

    fn outcome(tool: &str, status: CallStatus, result: ToolResult) -> Outcome {
        Outcome::of(tool, "{}", status, result)
    }

    fn sum() -> Outcome {
        outcome(
            "calculator",
            CallStatus::Done,
            ToolResult::success(json!({"expression": "17% of 2,340", "result": 397.8,
                "text": "397.8", "said": {"zh": "17% of 2,340 = 397.8", "en": "17% of 2,340 = 397.8"}})),
        )
    }

    fn time() -> Outcome {
        outcome(
            "current_time",
            CallStatus::Done,
            ToolResult::success(json!({"date": "2026-12-02", "time": "14:05:09",
                "timezone": "Etc/UTC", "weekday": "Wednesday",
                "said": {"zh": "Etc/UTC 现在是 2026-12-02 14:05:09",
                         "en": "It is 14:05:09 on 2026-12-02 (Etc/UTC)"}})),
        )
    }

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

    #[test]
    fn replies_that_are_no_answer_are_caught() {
        let offered = vec!["calculator".to_string(), "decrease_volume".to_string()];
        let bad = [
            "",
            "{\"result\": 397.8}",
            "Here's how you can call it:\n```json\n{\"name\": \"calculator\"}\n```",
            "You can use `decrease_volume` for that.",
            "calculator(expression=\"17% of 2340\")",
        ];
        for reply in bad {
            assert!(ungrounded(reply, &offered).is_some(), "{reply:?}");
        }
        for reply in [
            "17% of 2,340 is 397.8.",
            "2,340 的 17% 是 397.8。",
            "The calculator says 397.8.",
            "I can't tell jokes.",
        ] {
            assert_eq!(ungrounded(reply, &offered), None, "{reply:?}");
        }
    }

    #[test]
    fn a_looping_or_cut_reply_ends_at_its_last_new_complete_sentence() {
        let looping =
            "Placebo is oldest. High dose is next. Placebo is oldest. High dose is next. Plac";
        assert_eq!(tidy(looping, true), "Placebo is oldest. High dose is next.");
        assert_eq!(tidy("It is 3.5 kg. Done", false), "It is 3.5 kg. Done");
        assert_eq!(tidy("均值是 75。均值是 75。", false), "均值是 75。");
        assert_eq!(tidy("No full stop at all", true), "No full stop at all");
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
