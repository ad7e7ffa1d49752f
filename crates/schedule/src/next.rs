//! The next firing of a rule, and local wall times to instants.

use chrono::offset::LocalResult;
use chrono::{
    DateTime, Datelike, NaiveDateTime, NaiveTime, TimeDelta, TimeZone, Timelike, Utc, Weekday,
};
use chrono_tz::Tz;

use crate::Rule;

/// The instant of a local wall time: the instant itself when it exists once; the earlier of
/// the two (or the later, when `later`) in the fall-back hour; the first instant after the gap
/// when the wall time falls into the spring-forward gap. `None` only at the ends of time.
pub(crate) fn resolve(naive: NaiveDateTime, tz: Tz, later: bool) -> Option<DateTime<Utc>> {
    match tz.from_local_datetime(&naive) {
        LocalResult::Single(t) => Some(t.with_timezone(&Utc)),
        LocalResult::Ambiguous(a, b) => {
            let (a, b) = (a.with_timezone(&Utc), b.with_timezone(&Utc));
            Some(if later { a.max(b) } else { a.min(b) })
        }
        LocalResult::None => gap_end(naive, tz),
    }
}

/// The first instant whose local wall time is at or after `naive`, which lies in a gap: the
/// instant the gap ends (03:00 local for 02:30 on the spring-forward day in Europe/Berlin).
fn gap_end(naive: NaiveDateTime, tz: Tz) -> Option<DateTime<Utc>> {
    let minute = naive.with_second(0)?.with_nanosecond(0)?;
    // Gaps are at most a day long (Samoa skipped 2011-12-30); look two days ahead.
    for k in 1..=2 * 24 * 60 {
        let candidate = minute.checked_add_signed(TimeDelta::try_minutes(k)?)?;
        let Some(first) = tz.from_local_datetime(&candidate).earliest() else {
            continue;
        };
        // The gap may end within the minute before (old zones end gaps at odd seconds).
        let mut t = first.with_timezone(&Utc);
        for _ in 0..60 {
            let earlier = t.checked_sub_signed(TimeDelta::seconds(1))?;
            if earlier.with_timezone(&tz).naive_local() >= naive {
                t = earlier;
            } else {
                break;
            }
        }
        return Some(t);
    }
    None
}

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
