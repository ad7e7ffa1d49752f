//! RFC 5545 recurrence rules: checking the text, evaluating it in local wall time.
//!
//! The rule is evaluated by the `rrule` crate in a floating frame (UTC standing for the local
//! wall clock), and each occurrence's wall time is then resolved in the schedule's zone by
//! [`resolve`], so RRULE occurrences follow the same gap and fold rules as the other kinds.

use std::str::FromStr;

use chrono::{
    DateTime, Datelike, Months, NaiveDate, NaiveDateTime, NaiveTime, TimeDelta, TimeZone, Utc,
};
use chrono_tz::Tz;
use rrule::{RRule, RRuleSet, Unvalidated};

use crate::wall::resolve;

/// The parts a rule may have.
const KEYS: [&str; 14] = [
    "FREQ",
    "INTERVAL",
    "COUNT",
    "UNTIL",
    "BYMONTH",
    "BYWEEKNO",
    "BYYEARDAY",
    "BYMONTHDAY",
    "BYDAY",
    "BYHOUR",
    "BYMINUTE",
    "BYSECOND",
    "BYSETPOS",
    "WKST",
];

/// The largest COUNT: keeps every evaluation short.
pub(crate) const MAX_COUNT: u32 = 100_000;

/// Occurrences looked at by one evaluation before giving up (never reached by the rules
/// [`Spec::parse`] accepts within a few years of their start).
const MAX_STEPS: usize = 2_000_000;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Freq {
    Minutely,
    Hourly,
    Daily,
    Weekly,
    Monthly,
    Yearly,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Until {
    /// A local wall time (no `Z`); a date alone means the end of that day.
    Floating(NaiveDateTime),
    /// An instant (`Z`).
    Instant(DateTime<Utc>),
}

/// A checked rule: its parts in order, upper case, and the ones evaluation needs.
#[derive(Debug, Clone)]
pub(crate) struct Spec {
    parts: Vec<(String, String)>,
    pub(crate) freq: Freq,
    pub(crate) interval: u32,
    pub(crate) count: Option<u32>,
    pub(crate) until: Option<Until>,
}

impl Spec {
    /// Checks the text of a rule (with or without `RRULE:`); the error says what is wrong.
    pub(crate) fn parse(text: &str) -> Result<Spec, String> {
        let text = text.trim();
        let body = match text.get(..6) {
            Some(head) if head.eq_ignore_ascii_case("RRULE:") => text.get(6..).unwrap_or(""),
            _ => text,
        };
        let mut parts: Vec<(String, String)> = Vec::new();
        for raw in body.split(';') {
            let raw = raw.trim();
            if raw.is_empty() {
                continue;
            }
            let Some((key, value)) = raw.split_once('=') else {
                return Err(format!("'{raw}' is not KEY=VALUE"));
            };
            let key = key.trim().to_ascii_uppercase();
            let value = value.trim().to_ascii_uppercase();
            if !KEYS.contains(&key.as_str()) {
                return Err(format!("unknown part '{key}' (known: {})", KEYS.join(", ")));
            }
            if value.is_empty() {
                return Err(format!("{key} has no value"));
            }
            if parts.iter().any(|(k, _)| *k == key) {
                return Err(format!("{key} is given twice"));
            }
            parts.push((key, value));
        }
        let freq = match parts
            .iter()
            .find(|(k, _)| k == "FREQ")
            .map(|(_, v)| v.as_str())
        {
            None => return Err("FREQ is missing".into()),
            Some("MINUTELY") => Freq::Minutely,
            Some("HOURLY") => Freq::Hourly,
            Some("DAILY") => Freq::Daily,
            Some("WEEKLY") => Freq::Weekly,
            Some("MONTHLY") => Freq::Monthly,
            Some("YEARLY") => Freq::Yearly,
            Some("SECONDLY") => {
                return Err(
                    "FREQ=SECONDLY fires more than once a minute; the shortest is FREQ=MINUTELY"
                        .into(),
                );
            }
            Some(other) => {
                return Err(format!(
                    "FREQ={other} is not one of MINUTELY, HOURLY, DAILY, WEEKLY, MONTHLY, YEARLY"
                ));
            }
        };
        let mut spec = Spec {
            parts,
            freq,
            interval: 1,
            count: None,
            until: None,
        };
        if let Some(v) = spec.get("INTERVAL") {
            spec.interval = match v.parse::<u16>() {
                Ok(n) if n >= 1 => u32::from(n),
                _ => {
                    return Err(format!(
                        "INTERVAL={v} is not a whole number from 1 to 65535"
                    ));
                }
            };
        }
        if let Some(v) = spec.get("COUNT") {
            spec.count = match v.parse::<u32>() {
                Ok(n) if (1..=MAX_COUNT).contains(&n) => Some(n),
                _ => {
                    return Err(format!(
                        "COUNT={v} is not a whole number from 1 to {MAX_COUNT}"
                    ));
                }
            };
        }
        if let Some(v) = spec.get("UNTIL") {
            spec.until = Some(parse_until(v).ok_or_else(|| {
                format!("UNTIL={v} is not YYYYMMDD, YYYYMMDDTHHMMSS or YYYYMMDDTHHMMSSZ")
            })?);
        }
        if spec.count.is_some() && spec.until.is_some() {
            return Err("COUNT and UNTIL cannot both be given".into());
        }
        if let Some(v) = spec.get("BYDAY")
            && !matches!(spec.freq, Freq::Monthly | Freq::Yearly)
            && v.split(',').any(|d| d.trim().len() > 2)
        {
            return Err(format!(
                "BYDAY={v}: a numbered weekday (1MO, -1FR) needs FREQ=MONTHLY or FREQ=YEARLY"
            ));
        }
        if let Some(v) = spec.get("BYSECOND")
            && !matches!(v.parse::<u8>(), Ok(0..=59))
        {
            return Err(format!(
                "BYSECOND={v}: give one second from 0 to 59 (at most one firing a minute)"
            ));
        }
        Ok(spec)
    }

    /// The instant UNTIL stands for in `tz`.
    pub(crate) fn until_instant(&self, tz: Tz) -> Option<DateTime<Utc>> {
        match self.until? {
            Until::Instant(t) => Some(t),
            Until::Floating(t) => resolve(t, tz, false),
        }
    }

    /// The value of a part.
    pub(crate) fn get(&self, key: &str) -> Option<&str> {
        self.parts
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// Whether the rule has parts other than the given ones.
    pub(crate) fn has_other_parts(&self, known: &[&str]) -> bool {
        self.parts.iter().any(|(k, _)| !known.contains(&k.as_str()))
    }

    /// The normalized text, without `RRULE:`.
    pub(crate) fn text(&self) -> String {
        join(self.parts.iter())
    }

    /// The text the `rrule` crate gets: UNTIL is handled here (that crate reads the machine's
    /// zone for an UNTIL without `Z`).
    fn core_text(&self) -> String {
        join(self.parts.iter().filter(|(k, _)| k != "UNTIL"))
    }

    /// The `rrule` crate's rule from `start` (a wall time), with UNTIL as a wall time in `tz`.
    fn build(&self, start: NaiveDateTime, tz: Tz) -> Result<RRuleSet, String> {
        let mut rule =
            RRule::<Unvalidated>::from_str(&self.core_text()).map_err(|e| e.to_string())?;
        if let Some(until) = self.until {
            let wall = match until {
                Until::Floating(t) => t,
                Until::Instant(t) => t.with_timezone(&tz).naive_local(),
            };
            rule = rule.until(floating(wall));
        }
        let set = rule.build(floating(start)).map_err(|e| e.to_string())?;
        Ok(set.limit())
    }
}

fn join<'a>(parts: impl Iterator<Item = &'a (String, String)>) -> String {
    parts
        .map(|(k, v)| format!("{k}={v}"))
        .collect::<Vec<_>>()
        .join(";")
}

/// A wall time in the floating frame.
fn floating(t: NaiveDateTime) -> DateTime<rrule::Tz> {
    rrule::Tz::UTC.from_utc_datetime(&t)
}

fn parse_until(v: &str) -> Option<Until> {
    let (body, zulu) = match v.strip_suffix('Z') {
        Some(body) => (body, true),
        None => (v, false),
    };
    let t = parse_ical_datetime(body)?;
    if zulu {
        Some(Until::Instant(t.and_utc()))
    } else if body.len() == 8 {
        // A date alone: through the end of that day.
        Some(Until::Floating(t.date().and_hms_opt(23, 59, 59)?))
    } else {
        Some(Until::Floating(t))
    }
}

/// `YYYYMMDD` or `YYYYMMDDTHHMMSS`.
pub(crate) fn parse_ical_datetime(v: &str) -> Option<NaiveDateTime> {
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    let (date, time) = match v.split_once('T') {
        Some((d, t)) => (d, Some(t)),
        None => (v, None),
    };
    if date.len() != 8 || !digits(date) {
        return None;
    }
    let date = NaiveDate::from_ymd_opt(
        date.get(0..4)?.parse().ok()?,
        date.get(4..6)?.parse().ok()?,
        date.get(6..8)?.parse().ok()?,
    )?;
    let time = match time {
        None => NaiveTime::MIN,
        Some(t) if t.len() == 6 && digits(t) => NaiveTime::from_hms_opt(
            t.get(0..2)?.parse().ok()?,
            t.get(2..4)?.parse().ok()?,
            t.get(4..6)?.parse().ok()?,
        )?,
        Some(_) => return None,
    };
    Some(date.and_time(time))
}

/// Checks that the `rrule` crate takes the rule from `start`.
pub(crate) fn validate(spec: &Spec, start: NaiveDateTime, tz: Tz) -> Result<(), String> {
    spec.build(start, tz).map(|_| ())
}

/// The first occurrence whose instant is strictly after `after`: its wall time and instant.
pub(crate) fn next_occurrence(
    rule: &str,
    start: NaiveDateTime,
    after: DateTime<Utc>,
    tz: Tz,
) -> Option<(NaiveDateTime, DateTime<Utc>)> {
    let spec = Spec::parse(rule).ok()?;
    next_of_spec(&spec, start, after, tz)
}

pub(crate) fn next_of_spec(
    spec: &Spec,
    start: NaiveDateTime,
    after: DateTime<Utc>,
    tz: Tz,
) -> Option<(NaiveDateTime, DateTime<Utc>)> {
    let until = spec.until_instant(tz);
    if until.is_some_and(|u| u <= after) {
        return None;
    }
    let start = skip_ahead(spec, start, after.with_timezone(&tz).naive_local());
    let set = spec.build(start, tz).ok()?;
    for occurrence in set.into_iter().take(MAX_STEPS) {
        let wall = occurrence.naive_utc();
        let t = resolve(wall, tz, false)?;
        if until.is_some_and(|u| t > u) {
            return None;
        }
        if t > after {
            return Some((wall, t));
        }
    }
    None
}

/// A later start with the same occurrences from there on, close before `after` (two days or
/// more), so evaluation does not walk through years of minutes. Only for rules without COUNT
/// (which counts from the start), by whole periods (INTERVAL × FREQ), keeping the parts the
/// rule takes from the start (time of day, weekday, day of the month up to the 28th).
fn skip_ahead(spec: &Spec, start: NaiveDateTime, after: NaiveDateTime) -> NaiveDateTime {
    if spec.count.is_some() {
        return start;
    }
    let Some(target) = after.checked_sub_signed(TimeDelta::days(2)) else {
        return start;
    };
    if target <= start {
        return start;
    }
    let interval = i64::from(spec.interval);
    let unit = match spec.freq {
        Freq::Minutely => 60,
        Freq::Hourly => 3600,
        Freq::Daily => 86_400,
        Freq::Weekly => 7 * 86_400,
        Freq::Monthly | Freq::Yearly => {
            if start.day() > 28 {
                return start;
            }
            let per = if spec.freq == Freq::Yearly { 12 } else { 1 } * interval;
            let months = i64::from(target.year() - start.year()) * 12 + i64::from(target.month())
                - i64::from(start.month())
                - 1;
            if months < per {
                return start;
            }
            let shift = u32::try_from(months / per * per).unwrap_or(0);
            return start
                .checked_add_months(Months::new(shift))
                .unwrap_or(start);
        }
    };
    let period = unit * interval;
    let elapsed = target.signed_duration_since(start).num_seconds();
    TimeDelta::try_seconds(elapsed / period * period)
        .and_then(|d| start.checked_add_signed(d))
        .unwrap_or(start)
}
