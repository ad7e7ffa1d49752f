//! After results, the reply as the person should read it: a small model can loop until its
//! token limit, so the reply ends at the first sentence it says again, and when the limit
//! cut it, at its last complete sentence. A reply written before any tool ran is left as
//! it is.

use async_trait::async_trait;

use super::{Draft, Inspector};
use crate::outcome::Outcome;

/// Trims a looping or cut reply after results.
pub(crate) struct Tidy<'a> {
    /// The calls that ran in the turn.
    pub ran: &'a [Outcome],
    /// The token limit cut the reply.
    pub cut: bool,
}

#[async_trait]
impl Inspector<Draft> for Tidy<'_> {
    fn name(&self) -> &'static str {
        "tidy"
    }

    async fn inspect(&self, draft: &mut Draft) {
        if !self.ran.is_empty() && draft.own() {
            draft.text = tidy(&draft.text, self.cut);
        }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_looping_or_cut_reply_ends_at_its_last_new_complete_sentence() {
        let looping =
            "Placebo is oldest. High dose is next. Placebo is oldest. High dose is next. Plac";
        assert_eq!(tidy(looping, true), "Placebo is oldest. High dose is next.");
        assert_eq!(tidy("It is 3.5 kg. Done", false), "It is 3.5 kg. Done");
        assert_eq!(tidy("均值是 75。均值是 75。", false), "均值是 75。");
        assert_eq!(tidy("No full stop at all", true), "No full stop at all");
    }
}
