//! Finding a person's words in what they wrote: the dataset concepts ("gender" means
//! SEX) and the subjects a tool acts on ("louder" asks for the volume) read messages the
//! same way.

/// Whether lowercased `text` has `word`: a Chinese word anywhere, an English one (or
/// phrase) where a word starts — "arms" and "discontinued" count, "average" does not
/// mention "age", "louder" mentions "loud".
pub fn mentions(text: &str, word: &str) -> bool {
    if !word.is_ascii() {
        return text.contains(word);
    }
    text.match_indices(word).any(|(at, _)| {
        text[..at]
            .chars()
            .next_back()
            .is_none_or(|c| !c.is_alphanumeric() || !c.is_ascii())
    })
}

/// Whether `text` (any case) mentions one of `words` (lowercase).
pub fn mentions_any(text: &str, words: &[&str]) -> bool {
    let text = text.to_lowercase();
    words.iter().any(|w| mentions(&text, w))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn english_words_match_where_a_word_starts_chinese_anywhere() {
        assert!(mentions("make it louder", "loud"));
        assert!(!mentions("the average age", "age g"));
        assert!(!mentions("cloudy", "loud"));
        assert!(mentions("把音量调低", "音量"));
        assert!(mentions("音量", "音量"));
        assert!(mentions_any("Turn the VOLUME up", &["volume"]));
        assert!(!mentions_any("thanks!", &["volume", "sound"]));
    }
}
