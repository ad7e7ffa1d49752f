//! A question that lists its own options again. A choice dialog shows its options as
//! buttons (and a spoken one says them), so "Continue the export? Options: yes, no" with
//! the options `["yes", "no"]` shows them twice; a model asked "ask me: continue? yes or
//! no" often copies the whole line into the question. The normalizer's `x-drop-listed`
//! rule (see [`crate::normalize`]) cuts such a tail, read by structure alone:
//!
//! - the question has a question mark (`?` or `？`) with text after it;
//! - that text is an optional label ending in a colon, then every option in order (any
//!   case), with between and after them only punctuation, spaces or one short connecting
//!   word (at most three characters: "or", "/", "还是");
//! - the question up to and with its last question mark stays.
//!
//! Anything else — options named inside a sentence, a question with no question mark, a
//! tail with other words — is left as the model wrote it.

/// The longest word between two listed options: "or", "and", "还是".
const MAX_JOINER_CHARS: usize = 3;

/// `question` without a trailing list of `options` after its last question mark, or
/// `None` when it has none (see the module).
pub fn without_listed(question: &str, options: &[String]) -> Option<String> {
    if options.is_empty() {
        return None;
    }
    let (mark, c) = question
        .char_indices()
        .rfind(|(_, c)| matches!(c, '?' | '？'))?;
    let head = &question[..mark + c.len_utf8()];
    let tail = question[mark + c.len_utf8()..].to_lowercase();
    if tail.trim().is_empty() {
        return None;
    }
    let mut rest = tail.as_str();
    for (i, option) in options.iter().enumerate() {
        let option = option.trim().to_lowercase();
        if option.is_empty() {
            return None;
        }
        let at = rest.find(&option)?;
        let before = &rest[..at];
        let fits = if i == 0 {
            label(before)
        } else {
            joiner(before)
        };
        if !fits {
            return None;
        }
        rest = &rest[at + option.len()..];
    }
    joiner(rest).then(|| head.trim().to_string())
}

/// Text before the first option: nothing but punctuation, or a label ending in a colon.
fn label(text: &str) -> bool {
    let text = text.trim();
    text.chars().all(|c| !c.is_alphanumeric()) || text.ends_with([':', '：'])
}

/// Text between two options or after the last: punctuation and spaces, with at most one
/// short word.
fn joiner(text: &str) -> bool {
    let words: Vec<&str> = text
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect();
    match words.as_slice() {
        [] => true,
        [word] => word.chars().count() <= MAX_JOINER_CHARS,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cut(question: &str, options: &[&str]) -> Option<String> {
        let options: Vec<String> = options.iter().map(|o| (*o).to_string()).collect();
        without_listed(question, &options)
    }

    #[test]
    fn a_tail_that_lists_the_options_is_cut() {
        assert_eq!(
            cut("要继续导出吗？选项：是，否", &["是", "否"]).as_deref(),
            Some("要继续导出吗？")
        );
        assert_eq!(
            cut("Continue the export? Options: Yes, No", &["yes", "no"]).as_deref(),
            Some("Continue the export?")
        );
        assert_eq!(
            cut(
                "Pizza or sushi tonight? pizza / sushi.",
                &["pizza", "sushi"]
            )
            .as_deref(),
            Some("Pizza or sushi tonight?")
        );
        assert_eq!(
            cut("今晚吃什么？火锅还是烧烤", &["火锅", "烧烤"]).as_deref(),
            Some("今晚吃什么？")
        );
        assert_eq!(
            cut("Format? (CSV, Excel or PDF)", &["CSV", "Excel", "PDF"]).as_deref(),
            Some("Format?")
        );
    }

    #[test]
    fn anything_else_is_left_as_written() {
        // Nothing after the question mark, or no question mark.
        assert_eq!(cut("Pizza or sushi tonight?", &["pizza", "sushi"]), None);
        assert_eq!(cut("Pick one: yes, no", &["yes", "no"]), None);
        // The options inside a sentence, out of order, or not all of them.
        assert_eq!(
            cut(
                "Which one? The red one is cheaper than the blue one",
                &["red", "blue"]
            ),
            None
        );
        assert_eq!(cut("Continue? no, yes", &["yes", "no"]), None);
        assert_eq!(cut("Continue? yes", &["yes", "no"]), None);
        // Other words after the last option.
        assert_eq!(
            cut("Continue? yes or no, and tell me why", &["yes", "no"]),
            None
        );
        assert_eq!(cut("Continue? yes, no", &[]), None);
        assert_eq!(cut("Continue? yes, no", &["yes", " "]), None);
    }
}
