//! Figures in a reply that nothing the model read holds: a time, a sum, a level or a
//! dataset's count written in an answer given without any call has come from the model's
//! head, where a tool may exist to provide it. Told by the reply's digits alone — no words
//! of any language are looked for — against the digits of what the model was shown of the
//! conversation (the person's messages, earlier replies and results).

/// The runs of digits in `text` (full-width digits read as ASCII ones): "3:05 pm" holds
/// "3" and "05".
fn runs(text: &str) -> Vec<(usize, String)> {
    let mut runs: Vec<(usize, String)> = Vec::new();
    let mut open = false;
    for (at, c) in text.char_indices() {
        let digit = match c {
            '0'..='9' => Some(c),
            '０'..='９' => char::from_u32(u32::from(c) - u32::from('０') + u32::from('0')),
            _ => None,
        };
        match (digit, open) {
            (Some(d), true) => {
                if let Some((_, run)) = runs.last_mut() {
                    run.push(d);
                }
            }
            (Some(d), false) => {
                runs.push((at, d.to_string()));
                open = true;
            }
            (None, _) => open = false,
        }
    }
    runs
}

/// The figures of what the model read: each run of digits of `read`, worked out once for
/// a reply.
pub(crate) fn known(read: &[String]) -> Vec<String> {
    read.iter().flat_map(|t| runs(t)).map(|(_, r)| r).collect()
}

/// Where in `reply` (a byte offset) its first figure is that is not among `known`
/// ([`known`]): a run of digits that is no run of theirs. `None`: every figure of the reply
/// was read (or it has none).
pub(crate) fn first_new(reply: &str, known: &[String]) -> Option<usize> {
    runs(reply)
        .into_iter()
        .find(|(_, run)| !known.contains(run))
        .map(|(at, _)| at)
}

/// Where the sentence holding byte `at` of `text` starts: after the last sentence end
/// (`.` `!` `?` `。` `！` `？` or a line break) before it, or at 0.
pub(crate) fn sentence_start(text: &str, at: usize) -> usize {
    text[..at]
        .char_indices()
        .rev()
        .find(|(i, c)| {
            matches!(c, '。' | '！' | '？' | '!' | '?' | '\n')
                // A full stop ends a sentence when a space or the end follows it, not
                // inside "3.5".
                || (*c == '.' && text[i + 1..].starts_with(char::is_whitespace))
        })
        .map_or(0, |(i, c)| i + c.len_utf8())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn first_new(reply: &str, read: &[&str]) -> Option<usize> {
        let read: Vec<String> = read.iter().map(|t| t.to_string()).collect();
        super::first_new(reply, &known(&read))
    }

    #[test]
    fn a_figure_the_message_does_not_hold_is_found_where_it_starts() {
        let reply = "Sure. It is 3:00 PM in Rome.";
        assert_eq!(first_new(reply, &["what time is it in Rome?"]), Some(12));
        // The person's own figures are theirs to be said back.
        assert_eq!(first_new("Set to 40.", &["set the volume to 40"]), None);
        assert_eq!(first_new("Hello! How can I help?", &["hi"]), None);
        // One of several figures new is enough; a run is the whole run ("40" ≠ "4").
        assert_eq!(first_new("4 and 40", &["4"]), Some(6));
        // Full-width digits are digits.
        assert_eq!(first_new("现在是１５点", &["现在几点"]), Some(9));
        assert_eq!(first_new("１５", &["15"]), None);
        // What an earlier reply or result said was read.
        assert_eq!(first_new("It was 397.8", &["17% of 2340", "= 397.8"]), None);
    }

    #[test]
    fn a_sentence_starts_after_the_last_end_before_it() {
        let reply = "Sure. It is 3:00 PM in Rome.";
        assert_eq!(&reply[..sentence_start(reply, 12)], "Sure.");
        assert_eq!(sentence_start("It is 3.5 now", 8), 0);
        let zh = "好的。现在是15点";
        let at = zh.find("15").expect("figure");
        assert_eq!(&zh[sentence_start(zh, at)..], "现在是15点");
    }
}
