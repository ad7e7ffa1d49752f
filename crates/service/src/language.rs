//! The language a turn answers in, read from the person: the main script of their message
//! (what they quote or name in another script does not count), then the window's locale
//! when the message does not tell (a sum, a single name). Deskmate's own lines (result
//! summaries, its messages) are in Chinese or English; the model is told to answer in the
//! language it is named here, or in another one the person asks for. The agent's turns
//! and the schedules' reminders read it; the classes of characters by script it counts
//! with ([`is_han`], [`is_kana`], [`is_latin`]) are the agent's tokenizer's too.

/// The language of a person's message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Language {
    /// Written mainly in Chinese characters, with no kana (that is Japanese).
    Chinese,
    /// Written mainly in Latin letters.
    English,
    /// Another script (Japanese, Korean, Cyrillic, …): the model answers in it;
    /// Deskmate's own lines follow the window's locale.
    Other {
        /// Deskmate's own lines in Chinese (the window's locale is Chinese).
        zh_lines: bool,
    },
}

impl Language {
    /// Reads `message`; `locale` (a BCP 47 tag such as `zh-CN` or `en`, from the window or
    /// the API) decides when the message does not.
    pub fn of(message: &str, locale: Option<&str>) -> Self {
        let zh_locale =
            locale.is_some_and(|l| l.get(..2).is_some_and(|p| p.eq_ignore_ascii_case("zh")));
        let counts = Counts::of(&unnamed(&unquoted(message)));
        if counts.kana > 0 || counts.other_words > counts.latin_words.max(counts.han) {
            return Self::Other {
                zh_lines: zh_locale,
            };
        }
        // A Chinese word is about two characters: "What time is it in 东京?" is English,
        // "用python算一下1到100的和" is Chinese.
        let han_words = counts.han.div_ceil(2);
        let latin = if counts.accented > 0 {
            // French, German, …: the model answers in it.
            Self::Other {
                zh_lines: zh_locale,
            }
        } else {
            Self::English
        };
        match han_words.cmp(&counts.latin_words) {
            std::cmp::Ordering::Greater => Self::Chinese,
            std::cmp::Ordering::Less => latin,
            std::cmp::Ordering::Equal if zh_locale => Self::Chinese,
            std::cmp::Ordering::Equal => latin,
        }
    }

    /// The language a reply is written in, when its letters say so plainly: Chinese when
    /// its Chinese words outnumber its Latin ones, English when it has at least two Latin
    /// words, no accented letter and no other script. `None` for a sum, a name, a mix the
    /// counts cannot call, or another language. What it quotes does not count.
    pub fn written(text: &str) -> Option<Self> {
        let counts = Counts::of(&unnamed(&unquoted(text)));
        if counts.kana > 0 || counts.other_words > 0 {
            return None;
        }
        if counts.han.div_ceil(2) > counts.latin_words {
            return Some(Self::Chinese);
        }
        (counts.han == 0 && counts.accented == 0 && counts.latin_words >= 2)
            .then_some(Self::English)
    }

    /// Whether Deskmate's own lines are in Chinese.
    pub fn zh(self) -> bool {
        match self {
            Self::Chinese => true,
            Self::English => false,
            Self::Other { zh_lines } => zh_lines,
        }
    }

    /// The language as the model is told to answer in it.
    pub fn named(self) -> &'static str {
        match self {
            Self::Chinese => "Chinese",
            Self::English => "English",
            Self::Other { .. } => "the language of the user's last message",
        }
    }
}

/// Letters of each script in a text.
#[derive(Debug, Default)]
struct Counts {
    /// Chinese characters (CJK ideographs, shared with Japanese kanji).
    han: usize,
    /// Hiragana and katakana: only Japanese has them.
    kana: usize,
    /// Words of Latin letters.
    latin_words: usize,
    /// Latin letters outside ASCII (é, ß, ñ): a language other than English.
    accented: usize,
    /// Words of other letters (Hangul, Cyrillic, Greek, Arabic, …).
    other_words: usize,
}

impl Counts {
    fn of(text: &str) -> Self {
        let mut counts = Self::default();
        // The script of the word being read, if any.
        let mut word: Option<bool> = None;
        for c in text.chars() {
            if is_han(c) {
                counts.han += 1;
                word = None;
            } else if is_kana(c) {
                counts.kana += 1;
                word = None;
            } else if c.is_alphabetic() {
                let latin = is_latin(c);
                if latin && !c.is_ascii() {
                    counts.accented += 1;
                }
                if word != Some(latin) {
                    if latin {
                        counts.latin_words += 1;
                    } else {
                        counts.other_words += 1;
                    }
                    word = Some(latin);
                }
            } else if c != '\'' && c != '’' {
                word = None;
            }
        }
        counts
    }
}

/// `text` with its names blanked out: runs of letters, digits, `_`, `.` and `-` that are
/// shaped like identifiers rather than words — with a `_`, an inner `.`, or digits and
/// letters together (`key_unique`, `ADSL.csv`, `TRT01A`), or two or more letters all
/// upper case (`AGE`, `PDF`). "对 ADSL.csv 跑质控，只查 key_unique" is a Chinese
/// message naming things, not an English one. By shape alone, in any language.
fn unnamed(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut token = String::new();
    let flush = |token: &mut String, out: &mut String| {
        if is_name(token) {
            out.extend(std::iter::repeat_n(' ', token.chars().count()));
        } else {
            out.push_str(token);
        }
        token.clear();
    };
    for c in text.chars() {
        if (c.is_alphanumeric() && !is_han(c) && !is_kana(c)) || matches!(c, '_' | '.' | '-') {
            token.push(c);
        } else {
            flush(&mut token, &mut out);
            out.push(c);
        }
    }
    flush(&mut token, &mut out);
    out
}

/// Whether a token (see [`unnamed`]) is shaped like a name.
fn is_name(token: &str) -> bool {
    let core = token.trim_matches(['.', '-']);
    let letters = core.chars().filter(|c| c.is_alphabetic()).count();
    core.contains(['_', '.'])
        || (letters > 0 && core.chars().any(|c| c.is_ascii_digit()))
        || (letters >= 2 && core.chars().all(|c| !c.is_lowercase()))
}

/// `text` without what it quotes: text between double quotes, CJK corner brackets or
/// backticks, and between single quotes that open after a space or at the start (an
/// apostrophe inside a word quotes nothing). What a person asks to be read aloud or
/// translated is not the language they write in.
fn unquoted(text: &str) -> String {
    let mut out = String::new();
    let mut closing: Option<char> = None;
    let mut previous: Option<char> = None;
    for c in text.chars() {
        match closing {
            Some(close) if c == close => closing = None,
            Some(_) => {}
            None => {
                let close = match c {
                    '"' => Some('"'),
                    '“' => Some('”'),
                    '「' => Some('」'),
                    '『' => Some('』'),
                    '《' => Some('》'),
                    '`' => Some('`'),
                    '\'' | '‘' if previous.is_none_or(|p| !p.is_alphanumeric()) => {
                        Some(if c == '\'' { '\'' } else { '’' })
                    }
                    _ => None,
                };
                match close {
                    Some(close) => closing = Some(close),
                    None => out.push(c),
                }
            }
        }
        previous = Some(c);
    }
    // An unclosed quote quoted nothing: read the whole text.
    if closing.is_some() {
        return text.to_string();
    }
    out
}

/// Whether `c` is a Chinese character (a CJK unified ideograph, extension A included).
pub fn is_han(c: char) -> bool {
    matches!(c, '\u{4e00}'..='\u{9fff}' | '\u{3400}'..='\u{4dbf}' | '\u{f900}'..='\u{faff}')
}

/// Whether `c` is hiragana or katakana (only Japanese has them).
pub fn is_kana(c: char) -> bool {
    matches!(c, '\u{3040}'..='\u{30ff}' | '\u{31f0}'..='\u{31ff}' | '\u{ff66}'..='\u{ff9d}')
}

/// Latin letters: ASCII and the accented ones of Western European languages.
pub fn is_latin(c: char) -> bool {
    c.is_ascii_alphabetic() || matches!(c, '\u{c0}'..='\u{24f}')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_main_script_outside_quotes_and_names_decides() {
        use Language::*;
        for (message, want) in [
            ("What time is it in 东京?", English),
            ("Read '你好' aloud", English),
            ("read “你好” out loud please", English),
            ("what does 谢谢 mean?", English),
            ("现在几点了？", Chinese),
            ("用python算一下1到100的和", Chinese),
            ("打开camera然后告诉我时间", Chinese),
            ("把这句话读出来：'good morning everyone'", Chinese),
            ("don't turn it up", English),
            ("今何時ですか", Other { zh_lines: false }),
            ("東京は今何時？", Other { zh_lines: false }),
            ("지금 몇 시야?", Other { zh_lines: false }),
            ("сколько времени?", Other { zh_lines: false }),
            ("Quelle heure est-il à Tokyo ?", Other { zh_lines: false }),
            // Names in another script do not count: their shape tells.
            ("对 ADSL.csv 跑质控，只查 key_unique；date_pairs", Chinese),
            ("adsl 里按 TRT01A 看 AGE 和 BMIBL", Chinese),
            ("describe AGE, SEX, RACE in adsl.csv", English),
            ("summarize AGE by TRT01A", English),
        ] {
            assert_eq!(Language::of(message, None), want, "{message}");
        }
    }

    #[test]
    fn the_windows_locale_decides_when_the_message_does_not() {
        assert_eq!(Language::of("12*7?", Some("zh-CN")), Language::Chinese);
        assert_eq!(Language::of("12*7?", Some("en")), Language::English);
        assert_eq!(Language::of("12*7?", None), Language::English);
        assert_eq!(Language::of("东京 weather", Some("zh")), Language::Chinese);
        assert_eq!(
            Language::of("东京 weather", Some("en-US")),
            Language::English
        );
        // The message decides over the locale.
        assert_eq!(
            Language::of("what time is it", Some("zh-CN")),
            Language::English
        );
        assert_eq!(Language::of("现在几点", Some("en")), Language::Chinese);
        assert!(Language::of("今何時ですか", Some("zh-CN")).zh());
    }

    #[test]
    fn a_reply_is_in_a_language_only_when_its_letters_say_so() {
        use Language::*;
        for (reply, want) in [
            ("You're welcome! How can I help you today?", Some(English)),
            ("不客气！还有什么需要帮忙的吗？", Some(Chinese)),
            ("抱歉，我不能将PDF转换为Word。", Some(Chinese)),
            ("谢谢 (xièxiè)", None),
            ("It means “谢谢”.", Some(English)),
            ("9801", None),
            ("99*99 = 9801。", None),
            ("OK", None),
            ("C'est 9801.", None),
            ("Il fait beau aujourd'hui à Paris.", None),
            ("今何時ですか", None),
            ("Hi 你好呀朋友", Some(Chinese)),
        ] {
            assert_eq!(Language::written(reply), want, "{reply}");
        }
    }

    #[test]
    fn characters_are_told_apart_by_script() {
        assert!(is_han('东') && !is_han('カ') && !is_han('a'));
        assert!(is_kana('カ') && is_kana('の') && !is_kana('东'));
        assert!(is_latin('é') && is_latin('Z') && !is_latin('ж') && !is_latin('1'));
    }
}
