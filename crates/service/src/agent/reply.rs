//! The reply the person reads after tools ran: the model's own when it agrees with the
//! results, else one built from them.
//!
//! A small model, after a correct result, sometimes apologizes for an error that did not
//! happen, refuses, writes its call out again as text, or echoes raw JSON. None of those
//! may reach the person as the answer: the results are what happened, so the reply is
//! then made of their one-line summaries, in the person's language.

use super::CallStatus;
use super::calls::Outcome;
use super::summary::line;

/// Why a model's reply cannot stand after the turn's calls; `None` when it can.
pub(crate) fn ungrounded(reply: &str, ran: &[Outcome], offered: &[String]) -> Option<&'static str> {
    if ran.is_empty() {
        return None;
    }
    // A failure the model fixed (a later call of the same tool succeeded) is not news
    // for the person: after it, a refusal contradicts what happened.
    let all_ok = ran
        .iter()
        .enumerate()
        .all(|(i, o)| succeeded(o) || recovered(ran, i));
    disagrees(reply, all_ok, offered)
}

/// Whether a reply is in the other language than the person's message (`zh`: it was
/// Chinese): mostly Chinese characters for an English message, or English words and no
/// Chinese for a Chinese one. A small model follows the conversation's earlier language.
pub(crate) fn in_other_language(reply: &str, zh: bool) -> bool {
    let cjk = reply.chars().filter(|&c| super::is_han(c)).count();
    let latin = reply.chars().filter(char::is_ascii_alphabetic).count();
    if zh {
        cjk == 0 && latin >= 8
    } else {
        cjk > latin
    }
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

/// Whether the call at `i` failed and a later call of the same tool succeeded.
fn recovered(ran: &[Outcome], i: usize) -> bool {
    !succeeded(&ran[i])
        && ran[i + 1..]
            .iter()
            .any(|later| later.tool == ran[i].tool && succeeded(later))
}

/// Why a reply after tool calls cannot stand (`all_ok`: every call succeeded); `None`
/// when it can. The evaluator judges final replies with the same rule.
pub fn disagrees(reply: &str, all_ok: bool, offered: &[String]) -> Option<&'static str> {
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
    if all_ok && refuses(text) {
        return Some("the reply refuses or apologizes after the tools succeeded");
    }
    None
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

/// An apology or refusal, in English or Chinese.
fn refuses(text: &str) -> bool {
    const EN: [&str; 10] = [
        "i apologize",
        "i'm sorry",
        "i am sorry",
        "i cannot",
        "i can't",
        "i can not",
        "i'm unable",
        "i am unable",
        "i'm not able",
        "as an ai",
    ];
    const ZH: [&str; 6] = ["抱歉", "对不起", "无法协助", "无法帮助", "不能帮", "我无法"];
    let lower = text.to_lowercase().replace('’', "'");
    EN.iter().any(|p| lower.contains(p)) || ZH.iter().any(|p| text.contains(p))
}

/// Whether `step` follows nothing but failed calls it corrects: every call before it
/// failed, and its tool succeeded in `step`. True for the first step (nothing before).
/// Only then can `step`'s results alone be the answer; after a success or a call left
/// failed, the model writes the reply.
pub(crate) fn corrects(before: &[Outcome], step: &[Outcome]) -> bool {
    before.iter().all(|earlier| {
        !succeeded(earlier) && step.iter().any(|o| o.tool == earlier.tool && succeeded(o))
    })
}

/// Whether a step's results are the answer, with no model request after them:
/// every call succeeded and each result's line says all there is to say (the sum, the
/// time, the new volume — a model would only rephrase it, and on the local model that
/// is a third of the turn), unless the message may ask for more than one call did
/// (`asks::may_ask_more`: a single call for a message that joins several requests, or
/// a choice a request may go on to act on: the model is asked, and calls the rest).
pub(crate) fn results_answer(outcomes: &[Outcome], message: &str) -> bool {
    lines_answer(outcomes) && !super::asks::may_ask_more(outcomes, message)
}

/// Whether every call of a step succeeded (or was a repeat of one that had) and each
/// result's line says all there is to say about it.
pub(crate) fn lines_answer(outcomes: &[Outcome]) -> bool {
    !outcomes.is_empty()
        && outcomes
            .iter()
            .all(|o| succeeded(o) && super::summary::answers(&o.tool, &o.result))
}

/// The lines of successful results that answer on their own (a time, a sum, a new
/// volume) and that `reply` leaves out: none of the line's figures is in it. A small
/// model wording a turn where one call failed and another worked may tell only the
/// failure; the person must still read what worked. A line without figures cannot be
/// judged and is never added.
pub(crate) fn missing_lines(reply: &str, ran: &[Outcome], zh: bool) -> Vec<String> {
    let mut missing: Vec<String> = Vec::new();
    for outcome in ran
        .iter()
        .filter(|o| o.status == CallStatus::Done && super::summary::answers(&o.tool, &o.result))
    {
        let said = line(&outcome.tool, outcome.status, &outcome.result, zh);
        let figures = figures(&said);
        if !figures.is_empty() && !figures.iter().any(|f| reply.contains(f.as_str())) {
            let said = sentence(said, zh);
            if !missing.contains(&said) {
                missing.push(said);
            }
        }
    }
    missing
}

/// The figures of a line: runs of digits, with the separators inside them (`397.8`,
/// `2026-12-02`, `01:20:22`), of at least two characters.
fn figures(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut current = String::new();
    let mut flush = |current: &mut String| {
        let figure = current.trim_end_matches(['.', ':', '-', ',']);
        if figure.chars().count() >= 2 {
            found.push(figure.to_string());
        }
        current.clear();
    };
    for c in text.chars() {
        if c.is_ascii_digit() || (!current.is_empty() && matches!(c, '.' | ':' | '-' | ',')) {
            current.push(c);
        } else {
            flush(&mut current);
        }
    }
    flush(&mut current);
    found
}

/// The reply made of the results: one line per distinct outcome, in the model's order.
pub(crate) fn from_results(ran: &[Outcome], zh: bool) -> String {
    let mut lines: Vec<String> = Vec::new();
    for (i, outcome) in ran.iter().enumerate() {
        if recovered(ran, i) {
            continue;
        }
        let line = match outcome.status {
            CallStatus::Skipped if zh => format!("{} 没有执行", outcome.tool),
            CallStatus::Skipped => format!("{} was not run", outcome.tool),
            CallStatus::Compensated if zh => format!("{} 已撤销", outcome.tool),
            CallStatus::Compensated => format!("{} was undone", outcome.tool),
            _ => line(&outcome.tool, outcome.status, &outcome.result, zh),
        };
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
    use deskmate_core::{ToolError, ToolResult};
    use serde_json::json;

    fn outcome(tool: &str, status: CallStatus, result: ToolResult) -> Outcome {
        Outcome::of(tool, "{}", status, result)
    }

    fn sum() -> Outcome {
        outcome(
            "calculator",
            CallStatus::Done,
            ToolResult::success(
                json!({"expression": "17% of 2,340", "result": 397.8, "text": "397.8"}),
            ),
        )
    }

    #[test]
    fn results_that_say_it_all_are_the_answer_unless_more_may_be_asked() {
        let table = outcome(
            "summarize_by_group",
            CallStatus::Done,
            ToolResult::success(json!({"dataset": "adsl"})),
        );
        let failed = outcome(
            "calculator",
            CallStatus::Failed,
            ToolResult::failure(ToolError::validation("bad expression")),
        );
        assert!(results_answer(&[sum()], "What is 17% of 2,340?"));
        assert!(results_answer(&[sum()], "17%乘以2340是多少"));
        assert!(results_answer(&[sum(), sum()], "12*7 and 2^10?"));
        assert!(!results_answer(
            &[sum()],
            "what is 12*7 and what time is it?"
        ));
        assert!(!results_answer(&[sum()], "算一下 12*7，然后告诉我现在几点"));
        assert!(!results_answer(&[table], "Summarize AGE by SEX"));
        // A joiner inside what the call carries joins nothing.
        let mut spoken = outcome(
            "voice_msg_prompt",
            CallStatus::Done,
            ToolResult::success(json!({"duration_ms": 900})),
        );
        spoken.call.function.arguments = r#"{"message":"大家好，欢迎光临"}"#.into();
        assert!(results_answer(
            std::slice::from_ref(&spoken),
            "大声说一句：大家好，欢迎光临"
        ));
        assert!(!results_answer(&[spoken], "说一句大家好，然后把音量调大"));
        // A choice answers, but a request may go on to act on it: the model is asked.
        let chosen = outcome(
            "text_choice_prompt",
            CallStatus::Done,
            ToolResult::success(json!({"choice": "Yes", "index": 0})),
        );
        assert!(lines_answer(std::slice::from_ref(&chosen)));
        assert!(!results_answer(&[chosen], "ask me whether to go on"));
        assert!(!results_answer(&[failed], "What is 1/0?"));
        assert!(!results_answer(&[], "hello"));
    }

    #[test]
    fn a_reply_that_leaves_out_what_worked_gets_its_line() {
        let failed = outcome(
            "increase_volume",
            CallStatus::Failed,
            ToolResult::failure(ToolError::transient("sound server not found")),
        );
        let ran = [failed, sum()];
        // Told only the failure: the sum's line is added.
        let missing = missing_lines(
            "I could not change the volume: no sound server.",
            &ran,
            false,
        );
        assert_eq!(missing.len(), 1, "{missing:?}");
        assert!(missing[0].contains("397.8"), "{missing:?}");
        // Told both: nothing is added, whatever the words.
        assert!(missing_lines("No sound server; 17% of 2,340 is 397.8.", &ran, false).is_empty());
        assert!(missing_lines("音量没调成；结果是 397.8。", &ran, true).is_empty());
        // A failure alone adds nothing.
        assert!(missing_lines("No sound server.", &ran[..1], false).is_empty());
        assert_eq!(
            figures("Etc/UTC 2026-12-02 01:20:22."),
            ["2026-12-02", "01:20:22"]
        );
        assert_eq!(figures("Volume 40% → 50%; step 5"), ["40", "50"]);
    }

    #[test]
    fn replies_that_disagree_with_a_success_are_caught() {
        let offered = vec!["calculator".to_string(), "decrease_volume".to_string()];
        let ran = [sum()];
        let bad = [
            "",
            "I apologize, but I cannot assist with that request.",
            "I’m sorry, I can't help with that.",
            "抱歉，我无法协助处理这个请求。",
            "{\"result\": 397.8}",
            "Here's how you can call it:\n```json\n{\"name\": \"calculator\"}\n```",
            "You can use `decrease_volume` for that.",
            "calculator(expression=\"17% of 2340\")",
        ];
        for reply in bad {
            assert!(ungrounded(reply, &ran, &offered).is_some(), "{reply:?}");
        }
        let good = [
            "17% of 2,340 is 397.8.",
            "2,340 的 17% 是 397.8。",
            "The calculator says 397.8.",
        ];
        for reply in good {
            assert_eq!(ungrounded(reply, &ran, &offered), None, "{reply:?}");
        }
        // Nothing ran: the model's answer is its own (an irrelevant request may be refused).
        assert_eq!(ungrounded("I can't tell jokes.", &[], &offered), None);
        // A call failed: explaining that it could not be done is right, not a refusal.
        let failed = [outcome(
            "calculator",
            CallStatus::Failed,
            ToolResult::failure(ToolError::validation("division by zero")),
        )];
        assert_eq!(
            ungrounded("Sorry, I can't divide by zero.", &failed, &offered),
            None
        );
        // The model fixed the failed call: a refusal now contradicts the result, and the
        // reply built instead tells only what happened in the end.
        let fixed = [failed[0].clone(), sum()];
        assert!(ungrounded("Sorry, I can't do that right now.", &fixed, &offered).is_some());
        assert_eq!(from_results(&fixed, false), "17% of 2,340 = 397.8.");
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
    fn a_reply_in_the_other_language_is_caught() {
        assert!(in_other_language(
            "现在是2026年12月2日01:38:03，东京时间。",
            false
        ));
        assert!(!in_other_language("It is 01:38 in Tokyo (东京).", false));
        assert!(in_other_language("The result is 345.", true));
        assert!(!in_other_language("15乘以23等于345。", true));
        assert!(!in_other_language("9801", true));
    }

    #[test]
    fn the_fallback_reply_is_made_of_the_results() {
        let volume = outcome(
            "decrease_volume",
            CallStatus::Done,
            ToolResult::success(json!({"before": 50, "after": 40})),
        );
        let twice = outcome("calculator", CallStatus::Repeated, sum().result);
        assert_eq!(
            from_results(&[sum(), volume.clone(), twice], false),
            "17% of 2,340 = 397.8.\nVolume 50% → 40%."
        );
        assert_eq!(from_results(&[volume], true), "音量 50% → 40%。");
    }
}
