//! Text to tokens, shared by English and Chinese: numbers, clock times, ISO dates and
//! punctuation here; words from [`super::en`] and [`super::zh`].

use chrono::Weekday;

use crate::error::{RuleError, RuleErrorKind};

/// A unit of a duration or interval.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Unit {
    Second,
    Minute,
    Hour,
    Day,
    Week,
    Month,
    Year,
}

impl Unit {
    pub(crate) fn seconds(self) -> Option<f64> {
        match self {
            Unit::Second => Some(1.0),
            Unit::Minute => Some(60.0),
            Unit::Hour => Some(3600.0),
            Unit::Day => Some(86_400.0),
            Unit::Week => Some(604_800.0),
            Unit::Month | Unit::Year => None,
        }
    }
}

/// A part of the day that shifts or checks the hour.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Mer {
    /// am: 12 → 0, 1–11 as is.
    Am,
    /// pm: 1–11 → +12, 12 as is.
    Pm,
    /// morning, 早上, 上午: 0–12 as is.
    Morning,
    /// 凌晨: 12 → 0, 0–11 as is.
    Dawn,
    /// 中午: 11 and 12 as is, 1–3 → +12.
    Noon,
    /// afternoon, 下午, 傍晚: 1–11 → +12.
    Afternoon,
    /// evening, night, 晚上: 1–11 → +12, 12 → 00:00 of the next day.
    Evening,
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Tok {
    /// A whole number.
    Num(u32),
    /// An English number word, before "twenty five" is joined.
    NumWord(u32),
    /// A decimal number ("1.5").
    Dec(f64),
    /// half, 半.
    Half,
    /// quarter, 刻.
    Quarter,
    /// a, an.
    Article,
    /// "other" in "every other day".
    Other,
    Unit(Unit),
    /// 点, 时, o'clock.
    HourMark,
    /// 分.
    MinMark,
    /// 日, 号 after a number.
    DayMark,
    /// 年 after a number.
    YearMark,
    /// 1st, 2nd, 15th.
    Ordinal(u32),
    /// hh:mm[:ss].
    Clock(u32, u32, u32),
    /// yyyy-mm-dd (not yet checked).
    IsoDate(i32, u32, u32),
    /// Z or ±hh:mm after an ISO date and time, in seconds east of UTC.
    Offset(i32),
    Mer(Mer),
    /// noon (12:00).
    NoonWord,
    /// midnight, 午夜 (00:00 of the next day).
    Midnight,
    /// today + n days.
    Day(u32),
    Weekday(Weekday),
    /// mondays: every monday.
    WeekdayPlural(Weekday),
    /// weekdays, 工作日.
    Weekdays,
    /// weekends, 周末.
    Weekend,
    /// january … december.
    MonthName(u32),
    /// every, each, 每, 每隔.
    Every,
    Daily,
    Hourly,
    Weekly,
    Monthly,
    /// in, 过.
    In,
    /// after.
    After,
    /// later, 后, 以后.
    Later,
    /// from (only in "from now").
    From,
    /// now (only in "from now").
    Now,
    /// next (English: the first such day after today).
    Next,
    /// 下 (Chinese: in next calendar week).
    NextWeek,
    /// this, 这, 本.
    This,
    /// at, @.
    At,
    /// and, comma, 和, 、.
    And,
    /// to, through, -, 到, 至.
    Range,
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Token {
    pub(crate) tok: Tok,
    /// The source text, for messages.
    pub(crate) text: String,
}

fn token(tok: Tok, text: impl Into<String>) -> Token {
    Token {
        tok,
        text: text.into(),
    }
}

/// Whether the text has Chinese characters.
pub(crate) fn is_cjk(c: char) -> bool {
    matches!(c, '\u{3400}'..='\u{9fff}' | '\u{f900}'..='\u{faff}' | '\u{3007}')
}

/// Full-width forms to ASCII, lower case.
pub(crate) fn normalize(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            '\u{ff01}'..='\u{ff5e}' => char::from_u32(u32::from(c) - 0xff01 + 0x21).unwrap_or(c),
            '\u{3000}' => ' ',
            _ => c,
        })
        .flat_map(char::to_lowercase)
        .collect()
}

pub(crate) fn not_understood(what: &str, original: &str) -> RuleError {
    RuleError::with_forms(
        RuleErrorKind::NotUnderstood,
        format!("could not understand '{what}' in '{original}'"),
    )
}

/// The tokens of a normalized expression; `original` is for messages.
pub(crate) fn lex(text: &str, original: &str) -> Result<Vec<Token>, RuleError> {
    let chars: Vec<char> = text.chars().collect();
    let mut out: Vec<Token> = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c.is_whitespace() {
            i += 1;
        } else if c.is_ascii_digit() {
            i = lex_number(&chars, i, &mut out, original)?;
        } else if c.is_ascii_alphabetic() {
            i = super::en::lex_word(&chars, i, &mut out, original)?;
        } else if is_cjk(c) {
            i = super::zh::lex_run(&chars, i, &mut out, original)?;
        } else {
            let tok = match c {
                ',' | ';' | '&' | '+' | '、' | '，' | '；' => Tok::And,
                '-' | '~' | '–' | '—' | '～' => Tok::Range,
                '@' => Tok::At,
                _ => return Err(not_understood(&c.to_string(), original)),
            };
            out.push(token(tok, c));
            i += 1;
        }
    }
    Ok(join_phrases(join_number_words(out)))
}

/// Reads digits from `i`; numbers longer than nine digits are refused.
fn digits(chars: &[char], i: usize) -> (String, usize) {
    let mut j = i;
    while j < chars.len() && chars[j].is_ascii_digit() {
        j += 1;
    }
    (chars[i..j].iter().collect(), j)
}

fn number(s: &str, original: &str) -> Result<u32, RuleError> {
    s.parse::<u32>().map_err(|_| {
        RuleError::new(
            RuleErrorKind::OutOfRange,
            format!("the number '{s}' in '{original}' is too large"),
        )
    })
}

fn lex_number(
    chars: &[char],
    i: usize,
    out: &mut Vec<Token>,
    original: &str,
) -> Result<usize, RuleError> {
    let (first, mut j) = digits(chars, i);
    let at = |k: usize| chars.get(k).copied();
    let digit_at = |k: usize| at(k).is_some_and(|c| c.is_ascii_digit());
    // yyyy-mm-dd or yyyy/mm/dd, then an optional T before the time.
    if first.len() == 4 && matches!(at(j), Some('-' | '/')) && digit_at(j + 1) {
        let sep = at(j);
        let (month, k) = digits(chars, j + 1);
        if at(k) == sep && digit_at(k + 1) {
            let (day, l) = digits(chars, k + 1);
            let text: String = chars[i..l].iter().collect();
            let year = i32::try_from(number(&first, original)?).unwrap_or(i32::MAX);
            out.push(token(
                Tok::IsoDate(year, number(&month, original)?, number(&day, original)?),
                text,
            ));
            j = l;
            if at(j) == Some('t') && digit_at(j + 1) {
                j += 1;
            }
            return Ok(j);
        }
    }
    // hh:mm[:ss]
    if at(j) == Some(':') && digit_at(j + 1) {
        let (minute, k) = digits(chars, j + 1);
        let (second, l) = if at(k) == Some(':') && digit_at(k + 1) {
            let (s, l) = digits(chars, k + 1);
            (number(&s, original)?, l)
        } else {
            (0, k)
        };
        let text: String = chars[i..l].iter().collect();
        out.push(token(
            Tok::Clock(
                number(&first, original)?,
                number(&minute, original)?,
                second,
            ),
            text,
        ));
        j = l;
        // An offset right after the time of an ISO date: Z, +hh:mm, -hh:mm, +hhmm, +hh.
        let after_iso = out.len() >= 2
            && matches!(
                out.get(out.len() - 2),
                Some(Token {
                    tok: Tok::IsoDate(..),
                    ..
                })
            );
        if after_iso {
            j = lex_offset(chars, j, out, original)?;
        }
        return Ok(j);
    }
    // A decimal: 1.5
    if at(j) == Some('.') && digit_at(j + 1) {
        let (_, k) = digits(chars, j + 1);
        let text: String = chars[i..k].iter().collect();
        let value = text
            .parse::<f64>()
            .map_err(|_| not_understood(&text, original))?;
        out.push(token(Tok::Dec(value), text));
        return Ok(k);
    }
    out.push(token(Tok::Num(number(&first, original)?), first));
    Ok(j)
}

fn lex_offset(
    chars: &[char],
    j: usize,
    out: &mut Vec<Token>,
    original: &str,
) -> Result<usize, RuleError> {
    let at = |k: usize| chars.get(k).copied();
    match at(j) {
        Some('z') => {
            out.push(token(Tok::Offset(0), "Z"));
            Ok(j + 1)
        }
        Some(sign @ ('+' | '-')) if at(j + 1).is_some_and(|c| c.is_ascii_digit()) => {
            let (hours, mut k) = digits(chars, j + 1);
            let (h, m) = if hours.len() == 4 {
                (
                    number(&hours[..2], original)?,
                    number(&hours[2..], original)?,
                )
            } else if at(k) == Some(':') && at(k + 1).is_some_and(|c| c.is_ascii_digit()) {
                let (minutes, l) = digits(chars, k + 1);
                k = l;
                (number(&hours, original)?, number(&minutes, original)?)
            } else {
                (number(&hours, original)?, 0)
            };
            let text: String = chars[j..k].iter().collect();
            if h > 14 || m > 59 {
                return Err(RuleError::new(
                    RuleErrorKind::InvalidTime,
                    format!("'{text}' in '{original}' is not a UTC offset (from -14:00 to +14:00)"),
                ));
            }
            let seconds = i32::try_from(h * 3600 + m * 60).unwrap_or(0);
            out.push(token(
                Tok::Offset(if sign == '-' { -seconds } else { seconds }),
                text,
            ));
            Ok(k)
        }
        _ => Ok(j),
    }
}

/// "twenty five", "twenty-five" → 25; then number words are numbers.
fn join_number_words(tokens: Vec<Token>) -> Vec<Token> {
    let mut out: Vec<Token> = Vec::with_capacity(tokens.len());
    let mut iter = tokens.into_iter().peekable();
    while let Some(t) = iter.next() {
        if let Tok::NumWord(tens) = t.tok
            && tens >= 20
            && tens % 10 == 0
        {
            // Look past one '-' for a digit word.
            let mut rest: Vec<Token> = Vec::new();
            if matches!(
                iter.peek(),
                Some(Token {
                    tok: Tok::Range,
                    ..
                })
            ) {
                rest.extend(iter.next());
            }
            if let Some(Token {
                tok: Tok::NumWord(ones @ 1..=9),
                text,
            }) = iter.peek().cloned()
            {
                iter.next();
                out.push(token(Tok::Num(tens + ones), format!("{} {text}", t.text)));
                continue;
            }
            out.push(token(Tok::Num(tens), t.text));
            out.extend(rest);
            continue;
        }
        match t.tok {
            Tok::NumWord(n) => out.push(token(Tok::Num(n), t.text)),
            _ => out.push(t),
        }
    }
    out
}

/// "day after tomorrow" → the day after tomorrow.
fn join_phrases(tokens: Vec<Token>) -> Vec<Token> {
    let mut out: Vec<Token> = Vec::with_capacity(tokens.len());
    for t in tokens {
        if t.tok == Tok::Day(1)
            && out.len() >= 2
            && out[out.len() - 1].tok == Tok::After
            && out[out.len() - 2].tok == Tok::Unit(Unit::Day)
        {
            out.truncate(out.len() - 2);
            out.push(token(Tok::Day(2), "day after tomorrow"));
        } else {
            out.push(t);
        }
    }
    out
}
