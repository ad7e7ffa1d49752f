//! Rules in words, English and Chinese.

use chrono::{NaiveDateTime, NaiveTime, Timelike, Weekday};
use chrono_tz::Tz;

use crate::ical::{Freq, Spec, Until};
use crate::{Lang, Rule, Step};

pub(crate) fn describe(rule: &Rule, tz: Tz, lang: Lang) -> String {
    match (rule, lang) {
        (Rule::Once { at, .. }, Lang::En) => format!("once on {}", date_time(*at)),
        (Rule::Once { at, .. }, Lang::Zh) => format!("{}（一次）", date_time(*at)),
        (Rule::Daily { time }, Lang::En) => format!("every day at {}", clock(*time)),
        (Rule::Daily { time }, Lang::Zh) => format!("每天 {}", clock(*time)),
        (Rule::Weekdays { time }, Lang::En) => format!("weekdays at {}", clock(*time)),
        (Rule::Weekdays { time }, Lang::Zh) => format!("每个工作日 {}", clock(*time)),
        (Rule::Weekly { days, time }, Lang::En) => {
            let names: Vec<&str> = days.iter().map(|d| en_day(*d)).collect();
            format!("every {} at {}", en_list(&names), clock(*time))
        }
        (Rule::Weekly { days, time }, Lang::Zh) => {
            let names: Vec<&str> = days.iter().map(|d| zh_day(*d)).collect();
            format!("每{} {}", names.join("、"), clock(*time))
        }
        (Rule::Every { step, .. }, lang) => every(*step, lang),
        (Rule::RRule { rule, start }, lang) => match Spec::parse(rule) {
            Ok(spec) => rrule(&spec, *start, tz, lang),
            Err(_) => match lang {
                Lang::En => format!("by the rule {rule}"),
                Lang::Zh => format!("按规则 {rule}"),
            },
        },
    }
}

/// 09:00, or 09:00:30 with seconds.
fn clock(time: NaiveTime) -> String {
    if time.second() == 0 {
        time.format("%H:%M").to_string()
    } else {
        time.format("%H:%M:%S").to_string()
    }
}

fn date_time(at: NaiveDateTime) -> String {
    format!("{} {}", at.format("%Y-%m-%d"), clock(at.time()))
}

fn every(step: Step, lang: Lang) -> String {
    match (step, lang) {
        (Step::Minutes(1), Lang::En) => "every minute".into(),
        (Step::Minutes(n), Lang::En) => format!("every {n} minutes"),
        (Step::Hours(1), Lang::En) => "every hour".into(),
        (Step::Hours(n), Lang::En) => format!("every {n} hours"),
        (Step::Minutes(1), Lang::Zh) => "每分钟".into(),
        (Step::Minutes(n), Lang::Zh) => format!("每{n}分钟"),
        (Step::Hours(1), Lang::Zh) => "每小时".into(),
        (Step::Hours(n), Lang::Zh) => format!("每{n}小时"),
    }
}

fn en_day(day: Weekday) -> &'static str {
    match day {
        Weekday::Mon => "Monday",
        Weekday::Tue => "Tuesday",
        Weekday::Wed => "Wednesday",
        Weekday::Thu => "Thursday",
        Weekday::Fri => "Friday",
        Weekday::Sat => "Saturday",
        Weekday::Sun => "Sunday",
    }
}

fn zh_day(day: Weekday) -> &'static str {
    match day {
        Weekday::Mon => "周一",
        Weekday::Tue => "周二",
        Weekday::Wed => "周三",
        Weekday::Thu => "周四",
        Weekday::Fri => "周五",
        Weekday::Sat => "周六",
        Weekday::Sun => "周日",
    }
}

/// "a", "a and b", "a, b and c".
fn en_list<S: AsRef<str>>(items: &[S]) -> String {
    match items {
        [] => String::new(),
        [one] => one.as_ref().to_string(),
        [init @ .., last] => {
            let init: Vec<&str> = init.iter().map(AsRef::as_ref).collect();
            format!("{} and {}", init.join(", "), last.as_ref())
        }
    }
}

const EN_MONTHS: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];

fn numbers<T: std::str::FromStr>(value: Option<&str>) -> Vec<T> {
    value
        .map(|v| v.split(',').filter_map(|n| n.trim().parse().ok()).collect())
        .unwrap_or_default()
}

/// One BYDAY entry: an optional ordinal and a weekday ("MO", "1MO", "-1FR").
fn by_day(entry: &str) -> Option<(Option<i32>, Weekday)> {
    let split = entry.len().checked_sub(2)?;
    let (n, day) = (entry.get(..split)?, entry.get(split..)?);
    let day = match day {
        "MO" => Weekday::Mon,
        "TU" => Weekday::Tue,
        "WE" => Weekday::Wed,
        "TH" => Weekday::Thu,
        "FR" => Weekday::Fri,
        "SA" => Weekday::Sat,
        "SU" => Weekday::Sun,
        _ => return None,
    };
    let n = match n {
        "" => None,
        n => Some(n.trim_start_matches('+').parse().ok()?),
    };
    Some((n, day))
}

fn en_ordinal(n: i32) -> String {
    match n {
        -1 => "last".into(),
        n if n < 0 => format!("{}th to last", -n),
        n => {
            let suffix = match (n % 10, n % 100) {
                (1, r) if r != 11 => "st",
                (2, r) if r != 12 => "nd",
                (3, r) if r != 13 => "rd",
                _ => "th",
            };
            format!("{n}{suffix}")
        }
    }
}

/// An RRULE in words, e.g. "every month on day 1 at 09:00" / "每月1日 09:00".
fn rrule(spec: &Spec, start: NaiveDateTime, tz: Tz, lang: Lang) -> String {
    let n = spec.interval;
    let months: Vec<u32> = numbers(spec.get("BYMONTH"));
    let month_days: Vec<i32> = numbers(spec.get("BYMONTHDAY"));
    let days: Option<Vec<(Option<i32>, Weekday)>> = spec
        .get("BYDAY")
        .map(|v| v.split(',').map(|e| by_day(e.trim())).collect())
        .unwrap_or(Some(Vec::new()));
    let days = days.unwrap_or_default();
    // Times of day: the BY parts, or the start's.
    let hours: Vec<u32> = match spec.get("BYHOUR") {
        Some(v) => numbers(Some(v)),
        None if spec.freq >= Freq::Daily => vec![start.hour()],
        None => Vec::new(),
    };
    let minutes: Vec<u32> = match spec.get("BYMINUTE") {
        Some(v) => numbers(Some(v)),
        None if spec.freq >= Freq::Hourly => vec![start.minute()],
        None => Vec::new(),
    };
    let second = match spec.get("BYSECOND") {
        Some(v) => v.parse().unwrap_or(0),
        None => start.second(),
    };
    let mut times: Vec<String> = Vec::new();
    for h in &hours {
        for m in &minutes {
            if let Some(t) = NaiveTime::from_hms_opt(*h, *m, second) {
                times.push(clock(t));
            }
        }
    }
    let until = spec.until.map(|u| match u {
        Until::Floating(t) => date_time(t),
        Until::Instant(t) => date_time(t.with_timezone(&tz).naive_local()),
    });
    let other = spec.has_other_parts(&[
        "FREQ",
        "INTERVAL",
        "COUNT",
        "UNTIL",
        "BYMONTH",
        "BYMONTHDAY",
        "BYDAY",
        "BYHOUR",
        "BYMINUTE",
        "BYSECOND",
    ]);
    match lang {
        Lang::En => {
            let (one, many) = match spec.freq {
                Freq::Minutely => ("minute", "minutes"),
                Freq::Hourly => ("hour", "hours"),
                Freq::Daily => ("day", "days"),
                Freq::Weekly => ("week", "weeks"),
                Freq::Monthly => ("month", "months"),
                Freq::Yearly => ("year", "years"),
            };
            let mut out = if n == 1 {
                format!("every {one}")
            } else {
                format!("every {n} {many}")
            };
            if !months.is_empty() {
                let names: Vec<&str> = months
                    .iter()
                    .filter_map(|m| EN_MONTHS.get(usize::try_from(*m).ok()?.checked_sub(1)?))
                    .copied()
                    .collect();
                out.push_str(&format!(" in {}", en_list(&names)));
            }
            if !month_days.is_empty() {
                let list: Vec<String> = month_days
                    .iter()
                    .map(|d| match d {
                        -1 => "the last day".to_string(),
                        d => format!("day {d}"),
                    })
                    .collect();
                out.push_str(&format!(" on {}", en_list(&list)));
            }
            if !days.is_empty() {
                let list: Vec<String> = days
                    .iter()
                    .map(|(k, d)| match k {
                        None => en_day(*d).to_string(),
                        Some(k) => format!("the {} {}", en_ordinal(*k), en_day(*d)),
                    })
                    .collect();
                out.push_str(&format!(" on {}", en_list(&list)));
            }
            if spec.freq == Freq::Hourly && spec.get("BYHOUR").is_none() {
                let list: Vec<String> = minutes.iter().map(|m| format!(":{m:02}")).collect();
                out.push_str(&format!(" at {}", en_list(&list)));
            } else if !times.is_empty() {
                out.push_str(&format!(" at {}", en_list(&times)));
            }
            if let Some(count) = spec.count {
                out.push_str(&format!(", {count} times"));
            }
            if let Some(until) = until {
                out.push_str(&format!(", until {until}"));
            }
            if other {
                out.push_str(&format!(" (RRULE {})", spec.text()));
            }
            out
        }
        Lang::Zh => {
            let unit = match spec.freq {
                Freq::Minutely => "分钟",
                Freq::Hourly => "小时",
                Freq::Daily => "天",
                Freq::Weekly => "周",
                Freq::Monthly => "月",
                Freq::Yearly => "年",
            };
            let mut out = match (n, spec.freq) {
                // 每周一、周三; 每2周的周一
                (1, Freq::Weekly) if !days.is_empty() => "每".to_string(),
                (n, Freq::Weekly) if !days.is_empty() => format!("每{n}周的"),
                (1, _) => format!("每{unit}"),
                (n, Freq::Monthly) => format!("每{n}个月"),
                (n, _) => format!("每{n}{unit}"),
            };
            if !months.is_empty() {
                let list: Vec<String> = months.iter().map(|m| format!("{m}月")).collect();
                out.push_str(&list.join("、"));
            }
            if !month_days.is_empty() {
                let list: Vec<String> = month_days
                    .iter()
                    .map(|d| match d {
                        -1 => "最后一天".to_string(),
                        d if *d < 0 => format!("倒数第{}天", -d),
                        d => format!("{d}日"),
                    })
                    .collect();
                out.push_str(&list.join("、"));
            }
            if !days.is_empty() {
                let list: Vec<String> = days
                    .iter()
                    .map(|(k, d)| match k {
                        None => zh_day(*d).to_string(),
                        Some(-1) => format!("最后一个{}", zh_day(*d)),
                        Some(k) if *k < 0 => format!("倒数第{}个{}", -k, zh_day(*d)),
                        Some(k) => format!("第{k}个{}", zh_day(*d)),
                    })
                    .collect();
                out.push_str(&list.join("、"));
            }
            if spec.freq == Freq::Hourly && spec.get("BYHOUR").is_none() {
                let list: Vec<String> = minutes.iter().map(|m| format!("第{m}分")).collect();
                out.push_str(&format!(" {}", list.join("、")));
            } else if !times.is_empty() {
                out.push_str(&format!(" {}", times.join("、")));
            }
            if let Some(count) = spec.count {
                out.push_str(&format!("，共{count}次"));
            }
            if let Some(until) = until {
                out.push_str(&format!("，直到{until}"));
            }
            if other {
                out.push_str(&format!("（RRULE {}）", spec.text()));
            }
            out
        }
    }
}
