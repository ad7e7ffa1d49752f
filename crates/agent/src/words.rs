//! How the agent reads words, in one place: the one tokenizer of the crate ([`terms`]:
//! lower-case words, and Chinese as character pairs), which the tool selection matches
//! messages and tool texts with. It tells Chinese characters by the service's classes of
//! characters ([`deskmate_service::language`], which the language rule counts the letters
//! of each script with).

use std::collections::HashSet;

use deskmate_service::language::is_han;

/// Words too common to tell tools apart.
const STOP: [&str; 40] = [
    "a", "an", "and", "are", "as", "at", "be", "by", "can", "do", "for", "from", "get", "give",
    "how", "i", "in", "is", "it", "me", "my", "of", "on", "or", "please", "show", "that", "the",
    "this", "to", "tool", "use", "what", "when", "which", "with", "you", "your", "returns", "now",
];

/// Whether a message has any word to choose tools by (an empty one chooses none: the
/// built-in tools alone).
pub(crate) fn has_terms(message: &str) -> bool {
    !terms(message).is_empty()
}

/// Lower-case words (split at anything not a letter or digit, so `read_file` is two; a
/// plural `s` dropped), without stop words; Chinese as overlapping character pairs (a
/// character alone as itself).
pub(crate) fn terms(text: &str) -> HashSet<String> {
    let mut out = HashSet::new();
    let mut word = String::new();
    let mut han: Vec<char> = Vec::new();
    let flush_word = |word: &mut String, out: &mut HashSet<String>| {
        let mut w = std::mem::take(word).to_lowercase();
        if w.len() > 3 && w.ends_with('s') && !w.ends_with("ss") {
            w.pop();
        }
        if w.len() > 1 && !STOP.contains(&w.as_str()) {
            out.insert(w);
        }
    };
    let flush_han = |han: &mut Vec<char>, out: &mut HashSet<String>| {
        if han.len() == 1 {
            out.insert(han[0].to_string());
        }
        for pair in han.windows(2) {
            out.insert(pair.iter().collect());
        }
        han.clear();
    };
    for c in text.chars() {
        if is_han(c) {
            flush_word(&mut word, &mut out);
            han.push(c);
        } else if c.is_alphanumeric() {
            flush_han(&mut han, &mut out);
            word.push(c);
        } else {
            flush_word(&mut word, &mut out);
            flush_han(&mut han, &mut out);
        }
    }
    flush_word(&mut word, &mut out);
    flush_han(&mut han, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_are_split_and_singular() {
        let t = terms("read_file Files 读取文件");
        for w in ["read", "file", "读取", "取文", "文件"] {
            assert!(t.contains(w), "{w} in {t:?}");
        }
        assert!(!t.contains("the"));
        assert_eq!(terms("开"), HashSet::from(["开".to_string()]));
        assert!(!has_terms("the, and: a!"));
    }
}
