//! English words.

use chrono::Weekday;

use super::lexer::{Mer, Tok, Token, Unit, not_understood};
use crate::error::RuleError;

/// Reads the word at `i` (ASCII letters, an inner apostrophe, "a.m."/"p.m.") into tokens.
pub(crate) fn lex_word(
    chars: &[char],
    i: usize,
    out: &mut Vec<Token>,
    original: &str,
) -> Result<usize, RuleError> {
    let at = |k: usize| chars.get(k).copied();
    // a.m., p.m.
    if let Some(c @ ('a' | 'p')) = at(i)
        && at(i + 1) == Some('.')
        && at(i + 2) == Some('m')
        && !at(i + 3).is_some_and(|c| c.is_ascii_alphabetic())
    {
        let end = if at(i + 3) == Some('.') { i + 4 } else { i + 3 };
        let mer = if c == 'a' { Mer::Am } else { Mer::Pm };
        out.push(Token {
            tok: Tok::Mer(mer),
            text: chars[i..end].iter().collect(),
        });
        return Ok(end);
    }
    let mut j = i;
    while j < chars.len()
        && (chars[j].is_ascii_alphabetic()
            || (chars[j] == '\'' && at(j + 1).is_some_and(|c| c.is_ascii_alphabetic())))
    {
        j += 1;
    }
    let word: String = chars[i..j].iter().collect();
    // 1st, 2nd, 3rd, 24th right after the digits.
    if matches!(word.as_str(), "st" | "nd" | "rd" | "th")
        && i > 0
        && chars[i - 1].is_ascii_digit()
        && let Some(last) = out.last_mut()
        && let Tok::Num(n) = last.tok
    {
        last.tok = Tok::Ordinal(n);
        last.text.push_str(&word);
        return Ok(j);
    }
    let Some(toks) = word_tokens(&word) else {
        return Err(not_understood(&word, original));
    };
    out.extend(toks.into_iter().map(|tok| Token {
        tok,
        text: word.clone(),
    }));
    Ok(j)
}

/// The tokens of a word; an empty list for words that only join others ("on", "the").
fn word_tokens(word: &str) -> Option<Vec<Tok>> {
    use Tok::{
        After, And, Article, At, Daily, Day, Every, From, Half, HourMark, Hourly, In, Later,
        Midnight, MonthName, Monthly, Next, NoonWord, Now, NumWord, Other, Quarter, Range, This,
        Unit, Weekdays, Weekend, Weekly,
    };
    let one = |t: Tok| Some(vec![t]);
    match word {
        "on" | "the" | "of" => Some(vec![]),
        "in" => one(In),
        "after" => one(After),
        "later" => one(Later),
        "from" => one(From),
        "now" => one(Now),
        "every" | "each" => one(Every),
        "daily" | "everyday" => one(Daily),
        "hourly" => one(Hourly),
        "weekly" => one(Weekly),
        "monthly" => one(Monthly),
        "other" => one(Other),
        "next" => one(Next),
        "this" => one(This),
        "at" => one(At),
        "and" => one(And),
        "to" | "through" | "thru" | "till" | "until" => one(Range),
        "today" => one(Day(0)),
        "tomorrow" | "tmr" | "tmrw" => one(Day(1)),
        "tonight" => Some(vec![Day(0), Tok::Mer(Mer::Evening)]),
        "noon" | "midday" => one(NoonWord),
        "midnight" => one(Midnight),
        "am" => one(Tok::Mer(Mer::Am)),
        "pm" => one(Tok::Mer(Mer::Pm)),
        "morning" => one(Tok::Mer(Mer::Morning)),
        "afternoon" => one(Tok::Mer(Mer::Afternoon)),
        "evening" | "night" => one(Tok::Mer(Mer::Evening)),
        "oclock" | "o'clock" => one(HourMark),
        "half" => one(Half),
        "quarter" => one(Quarter),
        "a" | "an" => one(Article),
        "weekday" | "weekdays" | "workday" | "workdays" => one(Weekdays),
        "weekend" | "weekends" => one(Weekend),
        _ => unit(word)
            .map(Unit)
            .or_else(|| weekday(word))
            .or_else(|| month(word).map(MonthName))
            .or_else(|| number_word(word).map(NumWord))
            .map(|t| vec![t]),
    }
}

fn unit(word: &str) -> Option<Unit> {
    Some(match word {
        "second" | "seconds" | "sec" | "secs" | "s" => Unit::Second,
        "minute" | "minutes" | "min" | "mins" | "m" => Unit::Minute,
        "hour" | "hours" | "hr" | "hrs" | "h" => Unit::Hour,
        "day" | "days" | "d" => Unit::Day,
        "week" | "weeks" | "wk" | "wks" | "w" => Unit::Week,
        "month" | "months" => Unit::Month,
        "year" | "years" => Unit::Year,
        _ => return None,
    })
}

fn weekday(word: &str) -> Option<Tok> {
    let (day, plural) = match word {
        "monday" | "mon" => (Weekday::Mon, false),
        "tuesday" | "tue" | "tues" => (Weekday::Tue, false),
        "wednesday" | "wed" => (Weekday::Wed, false),
        "thursday" | "thu" | "thur" | "thurs" => (Weekday::Thu, false),
        "friday" | "fri" => (Weekday::Fri, false),
        "saturday" | "sat" => (Weekday::Sat, false),
        "sunday" | "sun" => (Weekday::Sun, false),
        "mondays" => (Weekday::Mon, true),
        "tuesdays" => (Weekday::Tue, true),
        "wednesdays" => (Weekday::Wed, true),
        "thursdays" => (Weekday::Thu, true),
        "fridays" => (Weekday::Fri, true),
        "saturdays" => (Weekday::Sat, true),
        "sundays" => (Weekday::Sun, true),
        _ => return None,
    };
    Some(if plural {
        Tok::WeekdayPlural(day)
    } else {
        Tok::Weekday(day)
    })
}

fn month(word: &str) -> Option<u32> {
    Some(match word {
        "january" | "jan" => 1,
        "february" | "feb" => 2,
        "march" | "mar" => 3,
        "april" | "apr" => 4,
        "may" => 5,
        "june" | "jun" => 6,
        "july" | "jul" => 7,
        "august" | "aug" => 8,
        "september" | "sep" | "sept" => 9,
        "october" | "oct" => 10,
        "november" | "nov" => 11,
        "december" | "dec" => 12,
        _ => return None,
    })
}

fn number_word(word: &str) -> Option<u32> {
    const ONES: [&str; 20] = [
        "zero",
        "one",
        "two",
        "three",
        "four",
        "five",
        "six",
        "seven",
        "eight",
        "nine",
        "ten",
        "eleven",
        "twelve",
        "thirteen",
        "fourteen",
        "fifteen",
        "sixteen",
        "seventeen",
        "eighteen",
        "nineteen",
    ];
    const TENS: [&str; 8] = [
        "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety",
    ];
    if let Some(n) = ONES.iter().position(|w| *w == word) {
        return u32::try_from(n).ok();
    }
    TENS.iter()
        .position(|w| *w == word)
        .and_then(|n| u32::try_from(n * 10 + 20).ok())
}
