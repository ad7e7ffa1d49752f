//! Finding a person's words in what they wrote: the dataset concepts ("gender" means
//! SEX) read messages this way.

/// Whether lowercased `text` has `word`: a Chinese word of two characters or more
/// anywhere (one character is part of too many words to name anything: 响 is in 影响), an
/// English one (or phrase) where a word starts — and, when shorter than four letters,
/// where that word ends too, or its plural ("cam" is not in "campaign", "arm" is in
/// "arms"; "loud" is in "louder", "discontinued" counts, "average" does not mention "age").
pub fn mentions(text: &str, word: &str) -> bool {
    if !word.is_ascii() {
        return word.chars().count() >= 2 && text.contains(word);
    }
    let in_word = |c: char| c.is_alphanumeric() && c.is_ascii();
    text.match_indices(word).any(|(at, _)| {
        let starts = text[..at].chars().next_back().is_none_or(|c| !in_word(c));
        let after = &text[at + word.len()..];
        let rest = &after[..after.find(|c: char| !in_word(c)).unwrap_or(after.len())];
        starts && (word.len() >= 4 || matches!(rest, "" | "s" | "es"))
    })
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
        // A short word is a whole word (or its plural), one Chinese character no word.
        assert!(!mentions("our campaign", "cam"));
        assert!(mentions("the cam, please", "cam"));
        assert!(mentions("by arms", "arm"));
        assert!(!mentions("这个结果影响大吗", "响"));
        assert!(!mentions("响", "响"));
    }
}
