//! The wake phrase: whether a transcribed utterance starts with it ("Deskmate, what time
//! is it?", "你好桌面助手，把声音调小"), and what follows it in the same breath (the
//! request). Speech recognition writes a phrase it was never taught in many ways ("Desk
//! mate", "Deskmait", "你好，桌面助手", traditional characters), so both sides are compared
//! by sound: Chinese characters as their toneless pinyin, Latin words as their letters,
//! everything else dropped; a phrase matches a stretch of the utterance's first words whose
//! letters are within a quarter of the phrase's length in edits (Levenshtein).

use pinyin::ToPinyin;

/// The wake phrases in force (any of them starts a turn).
#[derive(Debug, Clone)]
pub struct WakePhrases {
    phrases: Vec<(String, String)>,
}

/// How far into the utterance a phrase may start, in sound units (a Latin word or a
/// character): "hey Deskmate", "OK 你好桌面助手".
const LEAD: usize = 2;
/// The edits allowed, as a share of the phrase's letters.
const TOLERANCE: f64 = 0.25;

/// One sound unit of a text: its letters and where it ends in the text (bytes).
#[derive(Debug)]
struct Unit {
    letters: String,
    end: usize,
}

/// The text's sound units in order.
fn units(text: &str) -> Vec<Unit> {
    let mut out: Vec<Unit> = Vec::new();
    let mut word = String::new();
    let mut word_end = 0;
    let flush = |word: &mut String, end: usize, out: &mut Vec<Unit>| {
        if !word.is_empty() {
            out.push(Unit {
                letters: std::mem::take(word),
                end,
            });
        }
    };
    for (at, c) in text.char_indices() {
        let end = at + c.len_utf8();
        if c.is_ascii_alphanumeric() {
            word.push(c.to_ascii_lowercase());
            word_end = end;
            continue;
        }
        flush(&mut word, word_end, &mut out);
        if let Some(p) = c.to_pinyin() {
            out.push(Unit {
                letters: p.plain().to_string(),
                end,
            });
        }
    }
    flush(&mut word, word_end, &mut out);
    out
}

/// The letters a phrase is compared by.
fn letters(text: &str) -> String {
    units(text).into_iter().map(|u| u.letters).collect()
}

/// A wake phrase found in an utterance.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Woken {
    /// The phrase (as it was set).
    pub phrase: String,
    /// What follows it, trimmed of the signs between (empty: the phrase alone).
    pub request: String,
}

impl WakePhrases {
    /// The phrases in `setting`, separated by `;`, `；`, `,`, `，` or new lines; blank ones
    /// and ones with nothing to compare (only signs) are left out.
    pub fn parse(setting: &str) -> Self {
        let phrases = setting
            .split([';', '；', ',', '，', '\n'])
            .map(str::trim)
            .filter(|p| !p.is_empty())
            .map(|p| (p.to_string(), letters(p)))
            .filter(|(_, l)| !l.is_empty())
            .collect();
        Self { phrases }
    }

    /// Whether there is any phrase at all.
    pub fn is_empty(&self) -> bool {
        self.phrases.is_empty()
    }

    /// The phrases as set.
    pub fn phrases(&self) -> Vec<&str> {
        self.phrases.iter().map(|(p, _)| p.as_str()).collect()
    }

    /// The phrase `heard` starts with, and the request after it; `None` when it starts
    /// with none of them.
    pub fn find(&self, heard: &str) -> Option<Woken> {
        let units = units(heard);
        let mut best: Option<(f64, &str, usize)> = None;
        for (phrase, wanted) in &self.phrases {
            let wanted_len = wanted.chars().count();
            for start in 0..=LEAD.min(units.len().saturating_sub(1)) {
                let mut joined = String::new();
                for unit in units.iter().skip(start) {
                    joined.push_str(&unit.letters);
                    let len = joined.chars().count();
                    if len * 2 < wanted_len {
                        continue;
                    }
                    let distance = strsim::levenshtein(&joined, wanted) as f64;
                    let share = distance / wanted_len as f64;
                    if share <= TOLERANCE && best.is_none_or(|(b, _, _)| share < b) {
                        best = Some((share, phrase, unit.end));
                    }
                    if len > wanted_len * 3 / 2 {
                        break;
                    }
                }
            }
        }
        best.map(|(_, phrase, end)| Woken {
            phrase: phrase.to_string(),
            request: heard[end..]
                .trim_start_matches(|c: char| !c.is_alphanumeric())
                .trim_end()
                .to_string(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn phrases() -> WakePhrases {
        WakePhrases::parse("Deskmate; 你好桌面助手")
    }

    #[test]
    fn the_phrase_is_found_however_it_was_written() {
        for (heard, request) in [
            ("Deskmate, what time is it?", "what time is it?"),
            ("Desk mate. Turn the volume up.", "Turn the volume up."),
            ("Hey Deskmait, mute a bit", "mute a bit"),
            ("deskmate", ""),
            ("你好桌面助手，现在几点？", "现在几点？"),
            ("你好，桌面助手。把声音调小一点", "把声音调小一点"),
            ("你好桌面助守把音量调大", "把音量调大"),
            ("你好,桌面助手", ""),
        ] {
            let woken = phrases()
                .find(heard)
                .unwrap_or_else(|| panic!("{heard}: not woken"));
            assert_eq!(woken.request, request, "{heard}");
        }
    }

    #[test]
    fn other_speech_does_not_wake() {
        for heard in [
            "what time is it?",
            "the desk is made of oak",
            "I met a friend at the market",
            "今天天气很好",
            "你好，我想问一下",
            "",
            "...",
            "mate, desk",
        ] {
            assert_eq!(phrases().find(heard), None, "{heard}");
        }
    }

    #[test]
    fn phrases_are_read_from_the_setting() {
        let set = WakePhrases::parse(" Computer ；; 小助手\n,!!");
        assert_eq!(set.phrases(), ["Computer", "小助手"]);
        assert!(WakePhrases::parse(" ; ").is_empty());
        let woken = set.find("小助手 打开摄像头");
        assert_eq!(woken.map(|w| w.request), Some("打开摄像头".to_string()));
    }
}
