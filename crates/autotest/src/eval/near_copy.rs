//! When is a text the model reads (a worked example, an answer example) a near-copy of a
//! case's message? A held-out case is worth something only while the model has not been
//! shown it: "what time is it in London?" as an example makes "what time is it in
//! Tokyo?" a recall test, not a judgement one.
//!
//! The rule: both texts lower-cased, with what varies between copies masked — quoted text
//! and what follows a colon (`say 'x' out loud`, `show: x`), numbers (`15%`, `2,340`) and
//! names (a word with a capital inside it, `WEIGHTBL`, `TRT01A`, or a capitalized word that
//! does not start a sentence, `Tokyo`) — then cut into terms: English words, Chinese as
//! character pairs (a lone character as itself), each mask as one term. Two texts are
//! near-copies when their term sets share at least [`NEAR_COPY`] of their union (Jaccard).

use std::collections::BTreeSet;

/// The least Jaccard similarity of two texts' terms that makes them near-copies. At 0.5,
/// "SAS-round 3 out of 8 as a percent" (0.89) and "ask me aloud: walk or bike?" (0.5) are
/// copies of "SAS-round 17 out of 254 as a percent, 1 decimal" and "ask me out loud:
/// pizza or sushi tonight?"; "turn the sound down" and "turn down the volume turn off the
/// camera" (0.43) are not.
pub const NEAR_COPY: f64 = 0.5;

const QUOTE: &str = "⟨q⟩";
const NUMBER: &str = "⟨n⟩";
const NAME: &str = "⟨x⟩";

fn is_han(c: char) -> bool {
    deskmate_service::language::is_han(c)
}

/// The closing mark of a quotation opened by `c`.
fn closing(c: char) -> Option<char> {
    Some(match c {
        '\'' => '\'',
        '"' => '"',
        '“' => '”',
        '‘' => '’',
        '「' => '」',
        '『' => '』',
        _ => return None,
    })
}

/// The text with quotations (an opening mark not inside a word, up to its closing mark
/// not followed by a letter) and whatever follows a colon replaced by a mask.
fn mask_quotes(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let in_number = i > 0
            && chars[i - 1].is_ascii_digit()
            && chars.get(i + 1).is_some_and(char::is_ascii_digit);
        if matches!(c, ':' | '：') && !in_number {
            out.push(' ');
            out.push_str(QUOTE);
            break;
        }
        let inside_word = i > 0 && chars[i - 1].is_alphanumeric();
        if let Some(close) = closing(c).filter(|_| !inside_word) {
            let end = (i + 1..chars.len()).find(|&j| {
                chars[j] == close && !chars.get(j + 1).is_some_and(|n| n.is_alphabetic())
            });
            if let Some(end) = end {
                out.push(' ');
                out.push_str(QUOTE);
                out.push(' ');
                i = end + 1;
                continue;
            }
        }
        out.push(c);
        i += 1;
    }
    out
}

/// The terms a text is compared by (see the module's rule).
pub fn terms(text: &str) -> BTreeSet<String> {
    let masked = mask_quotes(text);
    let mut terms = BTreeSet::new();
    // Words and numbers are runs of letters, digits and the marks inside them.
    let mut sentence_start = true;
    let mut word = String::new();
    let mut han = String::new();
    let flush_han = |han: &mut String, terms: &mut BTreeSet<String>| {
        let chars: Vec<char> = han.chars().collect();
        if chars.len() == 1 {
            terms.insert(han.clone());
        }
        for pair in chars.windows(2) {
            terms.insert(pair.iter().collect());
        }
        han.clear();
    };
    let flush_word = |word: &mut String, terms: &mut BTreeSet<String>, start: bool| {
        if let Some(term) = word_term(word, start) {
            terms.insert(term);
        }
        word.clear();
    };
    let mut chars = masked.chars().peekable();
    while let Some(c) = chars.next() {
        if is_han(c) {
            if !word.is_empty() {
                flush_word(&mut word, &mut terms, sentence_start);
                sentence_start = false;
            }
            han.push(c);
            continue;
        }
        if !han.is_empty() {
            flush_han(&mut han, &mut terms);
            sentence_start = false;
        }
        let joins = matches!(c, '\'' | '.' | ',' | '%' | '-' | '_')
            && !word.is_empty()
            && chars.peek().is_some_and(|n| n.is_alphanumeric());
        if c.is_alphanumeric() || "⟨⟩".contains(c) || joins || (c == '%' && !word.is_empty()) {
            word.push(c);
            continue;
        }
        if !word.is_empty() {
            flush_word(&mut word, &mut terms, sentence_start);
            sentence_start = false;
        }
        if matches!(c, '.' | '!' | '?' | '。' | '！' | '？') {
            sentence_start = true;
        }
    }
    if !word.is_empty() {
        flush_word(&mut word, &mut terms, sentence_start);
    }
    if !han.is_empty() {
        flush_han(&mut han, &mut terms);
    }
    terms
}

/// The term a word is: a mask for a quotation, a number or a name, else the word in
/// lower case (`None` for punctuation alone). `start`: the word starts a sentence, where a
/// capital says nothing.
fn word_term(word: &str, start: bool) -> Option<String> {
    let w = word.trim_matches(|c: char| matches!(c, '\'' | '.' | ',' | '-'));
    let first = w.chars().next()?;
    let name = w.chars().skip(1).any(char::is_uppercase)
        || (first.is_uppercase() && !start)
        || (first.is_alphabetic() && w.chars().any(|c| c.is_ascii_digit()));
    Some(if w.starts_with(QUOTE) {
        QUOTE.into()
    } else if first.is_ascii_digit() {
        NUMBER.into()
    } else if name {
        NAME.into()
    } else {
        w.to_lowercase()
    })
}

/// The Jaccard similarity of two texts' terms (0 when either has none).
pub fn similarity(a: &str, b: &str) -> f64 {
    let (a, b) = (terms(a), terms(b));
    if a.is_empty() || b.is_empty() {
        return 0.0;
    }
    let shared = a.intersection(&b).count();
    shared as f64 / (a.len() + b.len() - shared) as f64
}

/// Whether two texts are near-copies.
pub fn near_copy(a: &str, b: &str) -> bool {
    similarity(a, b) >= NEAR_COPY
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(terms: &[&str]) -> BTreeSet<String> {
        terms.iter().map(|t| (*t).to_string()).collect()
    }

    #[test]
    fn what_varies_between_copies_is_masked() {
        assert_eq!(terms("what's 17% of 2,340"), set(&["what's", NUMBER, "of"]));
        assert_eq!(
            terms("mean BMIBL by SEX in adsl"),
            set(&["mean", NAME, "by", "in", "adsl"])
        );
        assert_eq!(
            terms("What time is it in Tokyo?"),
            set(&["what", "time", "is", "it", "in", NAME])
        );
        assert_eq!(
            terms("say 'dinner is ready' out loud"),
            set(&["say", QUOTE, "out", "loud"])
        );
        assert_eq!(terms("don't say it"), set(&["don't", "say", "it"]));
        // A colon inside a time is not the start of a quotation.
        assert_eq!(
            terms("remind me at 16:30"),
            set(&["remind", "me", "at", NUMBER])
        );
        assert_eq!(
            terms("弹一条消息：该休息了"),
            set(&["弹一", "一条", "条消", "消息", QUOTE])
        );
        assert_eq!(
            terms("adsl 里 AGEGR1 各组多少人"),
            set(&["adsl", "里", NAME, "各组", "组多", "多少", "少人"])
        );
    }

    #[test]
    fn copies_with_a_name_or_number_swapped_are_near() {
        for (a, b) in [
            ("what time is it in London?", "what time is it in Tokyo?"),
            ("现在几点了", "现在几点了"),
            ("what's 15% of 80?", "what's 17% of 2340"),
            (
                "mean HEIGHTBL and WEIGHTBL by SEX in adsl",
                "mean BMIBL by SEX in adsl",
            ),
            (
                "SAS-round 3 out of 8 as a percent",
                "SAS-round 17 out of 254 as a percent, 1 decimal",
            ),
            (
                "ask me aloud: walk or bike?",
                "ask me out loud: pizza or sushi tonight?",
            ),
            (
                "adsl 里 SEX 和 RACE 各有多少人",
                "adsl 里 AGEGR1 各组多少人",
            ),
        ] {
            assert!(near_copy(a, b), "{a} ~ {b}: {}", similarity(a, b));
        }
    }

    #[test]
    fn different_requests_are_not() {
        for (a, b) in [
            (
                "turn the sound down",
                "turn down the volume turn off the camera",
            ),
            (
                "remind me in 10 minutes to check the oven",
                "remind me at 5pm to call mom",
            ),
            ("把摄像头打开一下", "关掉摄像头，然后告诉我现在几点"),
            ("how loud is it right now?", "turn it up a bit"),
            ("", "hello"),
        ] {
            assert!(!near_copy(a, b), "{a} ~ {b}: {}", similarity(a, b));
        }
    }
}
