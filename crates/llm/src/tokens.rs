//! How many tokens a text is when the server cannot tell ([`estimate`]), for servers
//! without llama.cpp's `POST /tokenize` ([`crate::ChatClient::tokenize`]).
//!
//! The rule, meant to count a little more than real tokenizers do (BPE vocabularies of
//! current models take about four characters of English or code per token, and one or
//! two Chinese characters): a CJK character (Han, kana, Hangul, CJK punctuation and full
//! width forms) is one token; any other character, spaces included, a third of one; the
//! sum is rounded up.

/// The estimated number of tokens of `text` (see the module's rule).
pub fn estimate(text: &str) -> usize {
    let (cjk, other) = text.chars().fold((0usize, 0usize), |(cjk, other), c| {
        if is_cjk(c) {
            (cjk + 1, other)
        } else {
            (cjk, other + 1)
        }
    });
    cjk + other.div_ceil(3)
}

/// Whether a character is one the estimate counts as a whole token.
fn is_cjk(c: char) -> bool {
    matches!(u32::from(c),
        0x2E80..=0x2FDF     // CJK radicals
        | 0x3000..=0x303F   // CJK symbols and punctuation
        | 0x3040..=0x30FF   // kana
        | 0x3100..=0x31FF   // bopomofo, Hangul compatibility jamo, kana extensions
        | 0x3400..=0x4DBF   // Han extension A
        | 0x4E00..=0x9FFF   // Han
        | 0xAC00..=0xD7AF   // Hangul syllables
        | 0xF900..=0xFAFF   // Han compatibility
        | 0xFF00..=0xFFEF   // full-width forms
        | 0x20000..=0x3FFFF // Han extensions B and later
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn latin_counts_a_third_cjk_one_each() {
        assert_eq!(estimate(""), 0);
        assert_eq!(estimate("abc"), 1);
        assert_eq!(estimate("abcd"), 2, "rounded up");
        assert_eq!(estimate("hello world"), 4);
        assert_eq!(estimate("你好"), 2);
        assert_eq!(estimate("喝水 ok"), 3);
        assert_eq!(estimate("こんにちは"), 5);
        assert_eq!(estimate("，。"), 2);
    }
}
