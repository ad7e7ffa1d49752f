//! The next firing of a rule.

use chrono::{DateTime, Datelike, NaiveTime, TimeDelta, Utc, Weekday};
use chrono_tz::Tz;

use crate::Rule;
use crate::wall::resolve;

pub(crate) fn next_after(rule: &Rule, after: DateTime<Utc>, tz: Tz) -> Option<DateTime<Utc>> {
    match rule {
        Rule::Once { at, fold } => resolve(*at, tz, *fold).filter(|t| *t > after),
        Rule::Daily { time } => next_on_days(after, tz, *time, |_| true),
        Rule::Weekdays { time } => next_on_days(after, tz, *time, is_weekday),
        Rule::Weekly { days, time } => next_on_days(after, tz, *time, |d| days.contains(&d)),
        Rule::Every { step, from } => next_every(step.seconds(), *from, after),
        Rule::RRule { rule, start } => {
            crate::ical::next_occurrence(rule, *start, after, tz).map(|(_, t)| t)
        }
    }
}

pub(crate) fn is_weekday(day: Weekday) -> bool {
    !matches!(day, Weekday::Sat | Weekday::Sun)
}

/// The first day, from the day before `after`'s local day on, whose weekday passes `pred` and
/// whose `time` falls strictly after `after`.
fn next_on_days(
    after: DateTime<Utc>,
    tz: Tz,
    time: NaiveTime,
    pred: impl Fn(Weekday) -> bool,
) -> Option<DateTime<Utc>> {
    let today = after.with_timezone(&tz).date_naive();
    // A day before: a wall time moved forward out of a gap may land on the next day.
    let mut day = today.pred_opt()?;
    for _ in 0..16 {
        if pred(day.weekday())
            && let Some(t) = resolve(day.and_time(time), tz, false)
            && t > after
        {
            return Some(t);
        }
        day = day.succ_opt()?;
    }
    None
}

/// `from + k * step` for the least `k >= 1` that is after `after`.
fn next_every(step: i64, from: DateTime<Utc>, after: DateTime<Utc>) -> Option<DateTime<Utc>> {
    if step <= 0 {
        return None;
    }
    let elapsed = after.signed_duration_since(from).num_seconds();
    let k = elapsed.div_euclid(step).checked_add(1)?.max(1);
    let offset = TimeDelta::try_seconds(k.checked_mul(step)?)?;
    // `num_seconds` truncates, yet `k * step >= elapsed + 1` whole seconds: strictly after.
    from.checked_add_signed(offset)
}
