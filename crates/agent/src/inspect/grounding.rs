//! After results, a reply that cannot be an answer at all — empty, raw JSON, a call
//! written as text — is replaced by the results' lines. A reply the model wrote otherwise
//! stands, honest caveats and all.

use async_trait::async_trait;

use super::{Draft, Inspector};
use crate::outcome::Outcome;
use crate::reply;
use crate::types::StopReason;

/// Replaces a reply that is no answer by the results' lines.
pub(crate) struct Grounding<'a> {
    /// The calls that ran in the turn.
    pub ran: &'a [Outcome],
    /// The tools the turn offered (a reply naming one as code writes a call).
    pub offered: &'a [String],
    /// The person writes Chinese.
    pub zh: bool,
}

#[async_trait]
impl Inspector<Draft> for Grounding<'_> {
    fn name(&self) -> &'static str {
        "grounding"
    }

    async fn inspect(&self, draft: &mut Draft) {
        if self.ran.is_empty() || !draft.own() {
            return;
        }
        if let Some(why) = ungrounded(&draft.text, self.offered) {
            tracing::info!(why, reply = %draft.text, "the model's reply was replaced by the results");
            draft.text = reply::from_results(self.ran, self.zh);
            draft.stop = StopReason::FromResults;
        }
    }
}

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

#[cfg(test)]
mod tests {
    use super::*;

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
}
