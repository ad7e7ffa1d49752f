//! Chinese text as espeak-ng can say it in Mandarin. Its `cmn` voice turns characters into
//! pinyin with tone digits and then reads the digits aloud in English ("ni three…"), which
//! no listener understands; its `cmn-latn-pinyin` voice reads pinyin with tone digits as
//! Mandarin syllables. So a Chinese text is spoken as runs: characters as pinyin with tone
//! digits (`ni3 hao3`), numbers as their Mandarin reading (`15` → `shi2 wu3`, `70%` →
//! `bai3 fen1 zhi1 qi1 shi2`, `15:30` → `shi2 wu3 dian3 san1 shi2 fen1`, a year digit by
//! digit), for the pinyin voice; Latin words (`Deskmate`) for the English voice.

use pinyin::ToPinyin;

/// Which espeak-ng voice says a run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Voice {
    /// `cmn-latn-pinyin`: pinyin with tone digits.
    Pinyin,
    /// `en-us`: a Latin word as written.
    English,
}

impl Voice {
    /// The espeak-ng voice's name.
    pub fn name(self) -> &'static str {
        match self {
            Self::Pinyin => "cmn-latn-pinyin",
            Self::English => "en-us",
        }
    }
}

/// A stretch of text one voice says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Run {
    /// The voice.
    pub voice: Voice,
    /// What it says.
    pub text: String,
}

const DIGITS: [&str; 10] = [
    "ling2", "yi1", "er4", "san1", "si4", "wu3", "liu4", "qi1", "ba1", "jiu3",
];

/// A whole number under 10,000 as its Mandarin reading; `after_higher`: a higher group (万,
/// 亿) was read before it, so a leading zero is said (一万零五).
fn group(n: u64, after_higher: bool, out: &mut Vec<&'static str>) {
    const UNITS: [&str; 4] = ["", "shi2", "bai3", "qian1"];
    let digits = [n / 1000 % 10, n / 100 % 10, n / 10 % 10, n % 10];
    let mut zero = after_higher && n < 1000;
    let mut said = false;
    for (i, d) in digits.iter().enumerate() {
        let unit = UNITS[3 - i];
        if *d == 0 {
            zero = zero || said;
            continue;
        }
        if zero {
            out.push("ling2");
            zero = false;
        }
        out.push(DIGITS[*d as usize]);
        if !unit.is_empty() {
            out.push(unit);
        }
        said = true;
    }
}

/// A whole number as its Mandarin reading in pinyin syllables (up to 10¹²; longer ones
/// digit by digit).
fn whole(digits: &str) -> Vec<&'static str> {
    let Ok(n) = digits.parse::<u64>() else {
        return one_by_one(digits);
    };
    if digits.len() > 12 {
        return one_by_one(digits);
    }
    if n == 0 {
        return vec!["ling2"];
    }
    let mut out = Vec::new();
    let (yi, wan, rest) = (n / 100_000_000, n / 10_000 % 10_000, n % 10_000);
    if yi > 0 {
        group(yi, false, &mut out);
        out.push("yi4");
    }
    if wan > 0 {
        group(wan, yi > 0, &mut out);
        out.push("wan4");
    } else if yi > 0 && rest > 0 {
        out.push("ling2");
    }
    if rest > 0 {
        group(rest, (yi > 0 || wan > 0) && wan != 0, &mut out);
    }
    // 10–19 are read 十, 十一 …, not 一十.
    if (10..20).contains(&n) {
        out.remove(0);
    }
    out
}

fn one_by_one(digits: &str) -> Vec<&'static str> {
    digits
        .bytes()
        .filter(u8::is_ascii_digit)
        .map(|b| DIGITS[usize::from(b - b'0')])
        .collect()
}

/// Reads a number written in digits at the start of `chars` (`15`, `3.5`, `70%`,
/// `15:30`; a year before 年 digit by digit): its syllables and how many characters it
/// took.
fn number(chars: &[char]) -> (Vec<&'static str>, usize) {
    let run = |from: usize| {
        chars[from..]
            .iter()
            .take_while(|c| c.is_ascii_digit())
            .count()
    };
    let digits = |from: usize, len: usize| chars[from..from + len].iter().collect::<String>();
    let first = run(0);
    let int = digits(0, first);
    let mut at = first;
    // 15:30 — a time of day.
    if chars.get(at) == Some(&':') && run(at + 1) == 2 {
        let minutes = digits(at + 1, 2);
        let mut out = whole(&int);
        out.push("dian3");
        if minutes == "00" {
            out.push("zheng3");
        } else {
            if minutes.starts_with('0') {
                out.push("ling2");
            }
            out.extend(whole(&minutes));
            out.push("fen1");
        }
        return (out, at + 3);
    }
    if chars.get(at) == Some(&'年') {
        return (one_by_one(&int), at);
    }
    let mut out = whole(&int);
    if chars.get(at) == Some(&'.') && run(at + 1) > 0 {
        let decimals = run(at + 1);
        out.push("dian3");
        out.extend(one_by_one(&digits(at + 1, decimals)));
        at += 1 + decimals;
    }
    if matches!(chars.get(at), Some('%' | '％')) {
        let mut percent = vec!["bai3", "fen1", "zhi1"];
        percent.extend(out);
        return (percent, at + 1);
    }
    (out, at)
}

/// `words` said by `voice` after `runs`: one more run, or the last one's continuation.
fn push(runs: &mut Vec<Run>, voice: Voice, words: &str) {
    match runs.last_mut() {
        Some(last) if last.voice == voice => {
            last.text.push(' ');
            last.text.push_str(words);
        }
        _ => runs.push(Run {
            voice,
            text: words.to_string(),
        }),
    }
}

/// The runs that say `text` in Mandarin (see the module's overview).
pub fn runs(text: &str) -> Vec<Run> {
    let chars: Vec<char> = text.chars().collect();
    let mut runs: Vec<Run> = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c.is_ascii_digit() {
            let (syllables, used) = number(&chars[i..]);
            push(&mut runs, Voice::Pinyin, &syllables.join(" "));
            i += used.max(1);
        } else if c.is_ascii_alphabetic() {
            let len = chars[i..]
                .iter()
                .take_while(|c| c.is_ascii_alphanumeric() || matches!(c, '\'' | '-'))
                .count();
            push(
                &mut runs,
                Voice::English,
                &chars[i..i + len].iter().collect::<String>(),
            );
            i += len;
        } else if let Some(p) = c.to_pinyin() {
            push(&mut runs, Voice::Pinyin, p.with_tone_num_end());
            i += 1;
        } else {
            // A pause where the text has one; other signs are not said.
            let pause = match c {
                '，' | ',' | '、' | '；' | ';' | '：' | ':' => Some(","),
                '。' | '.' | '！' | '!' | '？' | '?' => Some("."),
                _ => None,
            };
            if let Some(pause) = pause
                && let Some(last) = runs.last_mut()
            {
                last.text.push_str(pause);
            }
            i += 1;
        }
    }
    runs
}

/// The toneless pinyin syllables of `text`'s characters and numbers (Latin words left
/// out): what a listener's transcription is compared by, whichever characters (simplified
/// or traditional, digits or numerals) it was written in.
pub fn syllables(text: &str) -> Vec<String> {
    runs(text)
        .into_iter()
        .filter(|r| r.voice == Voice::Pinyin)
        .flat_map(|r| {
            r.text
                .split([' ', ',', '.'])
                .filter(|s| !s.is_empty())
                .map(|s| s.trim_end_matches(|c: char| c.is_ascii_digit()).to_string())
                .collect::<Vec<_>>()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn said(text: &str) -> Vec<(Voice, String)> {
        runs(text).into_iter().map(|r| (r.voice, r.text)).collect()
    }

    #[test]
    fn characters_are_pinyin_with_tone_digits_and_latin_words_english() {
        assert_eq!(
            said("你好，Deskmate 已经打开摄像头。"),
            [
                (Voice::Pinyin, "ni3 hao3,".to_string()),
                (Voice::English, "Deskmate".to_string()),
                (
                    Voice::Pinyin,
                    "yi3 jing1 da3 kai1 she4 xiang4 tou2.".to_string()
                ),
            ]
        );
    }

    #[test]
    fn numbers_are_read_in_mandarin() {
        for (text, reading) in [
            ("0", "ling2"),
            ("7", "qi1"),
            ("10", "shi2"),
            ("15", "shi2 wu3"),
            ("20", "er4 shi2"),
            ("105", "yi1 bai3 ling2 wu3"),
            ("1000", "yi1 qian1"),
            ("1010", "yi1 qian1 ling2 yi1 shi2"),
            ("10005", "yi1 wan4 ling2 wu3"),
            ("23000", "er4 wan4 san1 qian1"),
            ("100000000", "yi1 yi4"),
            ("3.14", "san1 dian3 yi1 si4"),
            ("70%", "bai3 fen1 zhi1 qi1 shi2"),
            ("15:30", "shi2 wu3 dian3 san1 shi2 fen1"),
            ("9:05", "jiu3 dian3 ling2 wu3 fen1"),
            ("8:00", "ba1 dian3 zheng3"),
            (
                "1234567890123",
                "yi1 er4 san1 si4 wu3 liu4 qi1 ba1 jiu3 ling2 yi1 er4 san1",
            ),
        ] {
            assert_eq!(said(text), [(Voice::Pinyin, reading.to_string())], "{text}");
        }
        assert_eq!(
            said("2026年"),
            [(Voice::Pinyin, "er4 ling2 er4 liu4 nian2".to_string())]
        );
    }

    #[test]
    fn a_transcription_compares_by_toneless_syllables() {
        assert_eq!(syllables("把音量調大一點"), syllables("把音量调大一点"));
        assert_eq!(syllables("十五点"), syllables("15点"));
        assert_eq!(syllables("OK，好的"), ["hao", "de"]);
    }
}
