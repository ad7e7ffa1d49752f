//! Chinese words and numerals (Simplified, with the common Traditional forms).

use chrono::Weekday;

use super::lexer::{Mer, Tok, Token, Unit, not_understood};
use crate::error::RuleError;

/// Words, matched longest first.
const WORDS: &[(&str, &[Tok])] = &[
    ("大后天", &[Tok::Day(3)]),
    ("后天", &[Tok::Day(2)]),
    ("明天", &[Tok::Day(1)]),
    ("明日", &[Tok::Day(1)]),
    ("今天", &[Tok::Day(0)]),
    ("今日", &[Tok::Day(0)]),
    ("今晚", &[Tok::Day(0), Tok::Mer(Mer::Evening)]),
    ("今早", &[Tok::Day(0), Tok::Mer(Mer::Morning)]),
    ("明晚", &[Tok::Day(1), Tok::Mer(Mer::Evening)]),
    ("明早", &[Tok::Day(1), Tok::Mer(Mer::Morning)]),
    ("凌晨", &[Tok::Mer(Mer::Dawn)]),
    ("早上", &[Tok::Mer(Mer::Morning)]),
    ("早晨", &[Tok::Mer(Mer::Morning)]),
    ("清晨", &[Tok::Mer(Mer::Morning)]),
    ("上午", &[Tok::Mer(Mer::Morning)]),
    ("早", &[Tok::Mer(Mer::Morning)]),
    ("中午", &[Tok::Mer(Mer::Noon)]),
    ("下午", &[Tok::Mer(Mer::Afternoon)]),
    ("午后", &[Tok::Mer(Mer::Afternoon)]),
    ("傍晚", &[Tok::Mer(Mer::Afternoon)]),
    ("晚上", &[Tok::Mer(Mer::Evening)]),
    ("夜里", &[Tok::Mer(Mer::Evening)]),
    ("夜晚", &[Tok::Mer(Mer::Evening)]),
    ("晚间", &[Tok::Mer(Mer::Evening)]),
    ("晚", &[Tok::Mer(Mer::Evening)]),
    ("午夜", &[Tok::Midnight]),
    ("半夜", &[Tok::Midnight]),
    ("工作日", &[Tok::Weekdays]),
    ("周末", &[Tok::Weekend]),
    ("週末", &[Tok::Weekend]),
    ("星期", &[Tok::Unit(Unit::Week)]),
    ("礼拜", &[Tok::Unit(Unit::Week)]),
    ("禮拜", &[Tok::Unit(Unit::Week)]),
    ("周", &[Tok::Unit(Unit::Week)]),
    ("週", &[Tok::Unit(Unit::Week)]),
    ("每隔", &[Tok::Every]),
    ("每", &[Tok::Every]),
    ("下个", &[Tok::NextWeek]),
    ("下個", &[Tok::NextWeek]),
    ("下", &[Tok::NextWeek]),
    ("这个", &[Tok::This]),
    ("這個", &[Tok::This]),
    ("这", &[Tok::This]),
    ("這", &[Tok::This]),
    ("本", &[Tok::This]),
    ("以后", &[Tok::Later]),
    ("之后", &[Tok::Later]),
    ("以後", &[Tok::Later]),
    ("之後", &[Tok::Later]),
    ("后", &[Tok::Later]),
    ("後", &[Tok::Later]),
    ("过", &[Tok::In]),
    ("過", &[Tok::In]),
    ("秒钟", &[Tok::Unit(Unit::Second)]),
    ("秒鐘", &[Tok::Unit(Unit::Second)]),
    ("秒", &[Tok::Unit(Unit::Second)]),
    ("分钟", &[Tok::Unit(Unit::Minute)]),
    ("分鐘", &[Tok::Unit(Unit::Minute)]),
    ("分", &[Tok::MinMark]),
    ("小时", &[Tok::Unit(Unit::Hour)]),
    ("小時", &[Tok::Unit(Unit::Hour)]),
    ("钟头", &[Tok::Unit(Unit::Hour)]),
    ("鐘頭", &[Tok::Unit(Unit::Hour)]),
    ("天", &[Tok::Unit(Unit::Day)]),
    ("日", &[Tok::DayMark]),
    ("号", &[Tok::DayMark]),
    ("號", &[Tok::DayMark]),
    ("月", &[Tok::Unit(Unit::Month)]),
    ("年", &[Tok::YearMark]),
    ("点钟", &[Tok::HourMark]),
    ("點鐘", &[Tok::HourMark]),
    ("点", &[Tok::HourMark]),
    ("點", &[Tok::HourMark]),
    ("时", &[Tok::HourMark]),
    ("時", &[Tok::HourMark]),
    ("半", &[Tok::Half]),
    ("刻钟", &[Tok::Quarter]),
    ("刻鐘", &[Tok::Quarter]),
    ("刻", &[Tok::Quarter]),
    ("以及", &[Tok::And]),
    ("和", &[Tok::And]),
    ("与", &[Tok::And]),
    ("與", &[Tok::And]),
    ("及", &[Tok::And]),
    ("跟", &[Tok::And]),
    ("到", &[Tok::Range]),
    ("至", &[Tok::Range]),
    // Words that only join others.
    ("整", &[]),
    ("个", &[]),
    ("個", &[]),
    ("钟", &[]),
    ("鐘", &[]),
    ("在", &[]),
    ("于", &[]),
    ("再", &[]),
    ("的", &[]),
];

const WEEK_PREFIXES: [&str; 5] = ["星期", "礼拜", "禮拜", "周", "週"];

fn starts_with(chars: &[char], i: usize, word: &str) -> bool {
    (i..)
        .zip(word.chars())
        .all(|(k, w)| chars.get(k) == Some(&w))
}

/// The day of 周一 … 周日.
pub(crate) fn weekday_char(c: char) -> Option<Weekday> {
    Some(match c {
        '一' | '1' => Weekday::Mon,
        '二' | '2' => Weekday::Tue,
        '三' | '3' => Weekday::Wed,
        '四' | '4' => Weekday::Thu,
        '五' | '5' => Weekday::Fri,
        '六' | '6' => Weekday::Sat,
        '日' | '天' | '七' | '7' => Weekday::Sun,
        _ => return None,
    })
}

fn numeral_digit(c: char) -> Option<u32> {
    Some(match c {
        '零' | '〇' => 0,
        '一' => 1,
        '二' | '两' | '兩' => 2,
        '三' => 3,
        '四' => 4,
        '五' => 5,
        '六' => 6,
        '七' => 7,
        '八' => 8,
        '九' => 9,
        _ => return None,
    })
}

fn is_numeral(c: char) -> bool {
    numeral_digit(c).is_some() || matches!(c, '十' | '百' | '千')
}

/// 十 → 10, 二十三 → 23, 一百二十 → 120, 零五 → 5, 二〇二六 → 2026 (digit by digit).
pub(crate) fn numeral_value(s: &[char]) -> Option<u32> {
    if !s.iter().any(|c| matches!(c, '十' | '百' | '千')) {
        return s.iter().try_fold(0u32, |v, c| {
            v.checked_mul(10)?.checked_add(numeral_digit(*c)?)
        });
    }
    let mut total: u32 = 0;
    let mut digit: Option<u32> = None;
    for c in s {
        let scale = match c {
            '十' => 10,
            '百' => 100,
            '千' => 1000,
            _ => {
                let d = numeral_digit(*c)?;
                if d == 0 {
                    digit = None;
                } else if digit.is_some() {
                    return None;
                } else {
                    digit = Some(d);
                }
                continue;
            }
        };
        total = total.checked_add(digit.take().unwrap_or(1).checked_mul(scale)?)?;
    }
    total.checked_add(digit.unwrap_or(0))
}

/// Reads Chinese text at `i` into tokens.
pub(crate) fn lex_run(
    chars: &[char],
    i: usize,
    out: &mut Vec<Token>,
    original: &str,
) -> Result<usize, RuleError> {
    // 周一, 星期五, 礼拜天
    for prefix in WEEK_PREFIXES {
        if starts_with(chars, i, prefix) {
            let k = i + prefix.chars().count();
            if let Some(day) = chars.get(k).copied().and_then(weekday_char) {
                out.push(Token {
                    tok: Tok::Weekday(day),
                    text: chars[i..=k].iter().collect(),
                });
                return Ok(k + 1);
            }
        }
    }
    let best = WORDS
        .iter()
        .filter(|(w, _)| starts_with(chars, i, w))
        .max_by_key(|(w, _)| w.chars().count());
    if let Some((word, toks)) = best {
        out.extend(toks.iter().map(|t| Token {
            tok: t.clone(),
            text: (*word).to_string(),
        }));
        return Ok(i + word.chars().count());
    }
    if chars.get(i).copied().is_some_and(is_numeral) {
        let mut j = i;
        while chars.get(j).copied().is_some_and(is_numeral) {
            j += 1;
        }
        let text: String = chars[i..j].iter().collect();
        let Some(value) = numeral_value(&chars[i..j]) else {
            return Err(not_understood(&text, original));
        };
        out.push(Token {
            tok: Tok::Num(value),
            text,
        });
        return Ok(j);
    }
    let mut j = i + 1;
    while j < chars.len() && j < i + 4 && super::lexer::is_cjk(chars[j]) {
        j += 1;
    }
    let text: String = chars[i..j].iter().collect();
    Err(not_understood(&text, original))
}
