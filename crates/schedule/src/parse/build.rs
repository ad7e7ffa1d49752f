//! Slots to a rule, at `now` in a zone: the dispatch, durations, times of day.

use chrono::{DateTime, NaiveDate, NaiveDateTime, NaiveTime, TimeDelta, Timelike, Utc};
use chrono_tz::Tz;

use super::grammar::{SaidTime, Slots, WeekMode};
use super::lexer::Mer;
use super::once::once;
use super::repeat::{repeating, stepped};
use crate::Rule;
use crate::error::{RuleError, RuleErrorKind};
use crate::wall::resolve;

/// The longest duration or interval: 366 days.
pub(crate) const MAX_SECONDS: f64 = 366.0 * 86_400.0;

pub(crate) struct Ctx<'a> {
    pub(crate) now: DateTime<Utc>,
    pub(crate) tz: Tz,
    pub(crate) original: &'a str,
}

impl Ctx<'_> {
    pub(super) fn local_now(&self) -> NaiveDateTime {
        self.now.with_timezone(&self.tz).naive_local()
    }

    pub(super) fn today(&self) -> NaiveDate {
        self.local_now().date()
    }

    /// `now` without its fraction of a second.
    pub(super) fn now_seconds(&self) -> DateTime<Utc> {
        self.now.with_nanosecond(0).unwrap_or(self.now)
    }

    pub(super) fn error(&self, kind: RuleErrorKind, what: impl std::fmt::Display) -> RuleError {
        RuleError::with_forms(kind, what)
    }
}

/// The first whole minute after `now`, as a local wall time.
pub(crate) fn first_minute_after(ctx: &Ctx<'_>) -> NaiveDateTime {
    let local = ctx.local_now();
    local
        .with_second(0)
        .and_then(|t| t.with_nanosecond(0))
        .and_then(|t| t.checked_add_signed(TimeDelta::minutes(1)))
        .unwrap_or(local)
}

/// A one-time rule at an instant: its local wall time, with `fold` when the instant is the
/// later pass of a repeated hour.
pub(crate) fn once_at_instant(instant: DateTime<Utc>, tz: Tz) -> Rule {
    let at = instant.with_timezone(&tz).naive_local();
    let fold = resolve(at, tz, false) != Some(instant);
    Rule::Once { at, fold }
}

pub(crate) fn build(s: Slots, ctx: &Ctx<'_>) -> Result<Rule, RuleError> {
    if !s.durations.is_empty() {
        return duration(&s, ctx);
    }
    if s.dur_in || s.dur_later {
        return Err(ctx.error(
            RuleErrorKind::NotUnderstood,
            format!(
                "'{}' has 'in', 'after' or 'later' but no duration (say 'in 10 minutes' or \
                 '10分钟后')",
                ctx.original
            ),
        ));
    }
    if let Some((value, unit)) = s.step {
        return stepped(&s, value, unit, ctx);
    }
    // Several weekdays repeat even without "every" ("周一至周五9点", "mon and wed at 9").
    let several_days = s.weekdays_list.len() > 1 && s.week_mode == WeekMode::Bare;
    if s.every || s.plural || s.weekdays || s.weekend || several_days {
        return repeating(&s, ctx);
    }
    once(&s, ctx)
}

/// "in 10 minutes", "10分钟后".
fn duration(s: &Slots, ctx: &Ctx<'_>) -> Result<Rule, RuleError> {
    if s.every || s.has_day_or_time() {
        return Err(ctx.error(
            RuleErrorKind::NotUnderstood,
            format!(
                "'{}' mixes a duration ('{}') with a day, a time or a repetition; say either \
                 'in 10 minutes' or 'tomorrow 9:00'",
                ctx.original, s.duration_text
            ),
        ));
    }
    // A duration alone ("10 minutes", "10分钟") is from now: without "every" it never
    // repeats, and a reminder "10 minutes" away is what people (and models) mean by it.
    let mut seconds = 0.0;
    for (value, unit) in &s.durations {
        let Some(unit_seconds) = unit.seconds() else {
            return Err(ctx.error(
                RuleErrorKind::NotUnderstood,
                format!(
                    "months and years are not durations here ('{}'); give the date, e.g. \
                     '2026-12-24 18:00'",
                    s.duration_text
                ),
            ));
        };
        seconds += value * unit_seconds;
    }
    let seconds = seconds.round();
    if seconds < 1.0 {
        return Err(RuleError::new(
            RuleErrorKind::OutOfRange,
            format!(
                "the duration '{}' is shorter than 1 second; give a duration from 1 second to 366 days",
                s.duration_text
            ),
        ));
    }
    if seconds > MAX_SECONDS {
        return Err(RuleError::new(
            RuleErrorKind::OutOfRange,
            format!(
                "the duration '{}' is longer than 366 days; give at most 366 days or a date \
                 like '2027-12-24 18:00'",
                s.duration_text
            ),
        ));
    }
    // Exact to the second, `seconds` is at most 366 days.
    let delta = TimeDelta::try_seconds(seconds as i64).unwrap_or(TimeDelta::zero());
    let at = ctx
        .now_seconds()
        .checked_add_signed(delta)
        .ok_or_else(|| RuleError::new(RuleErrorKind::OutOfRange, "the time is out of range"))?;
    Ok(once_at_instant(at, ctx.tz))
}

pub(super) fn missing_time(ctx: &Ctx<'_>) -> RuleError {
    RuleError::new(
        RuleErrorKind::MissingTime,
        format!(
            "'{}' has no time of day; add one, e.g. 'tomorrow 9:00', 'every monday at 9', \
             '明天9点'",
            ctx.original
        ),
    )
}

/// The time of day, 24-hour, and whether it is 00:00 of the next day ("midnight", 晚上12点).
pub(super) fn time_of(s: &Slots, ctx: &Ctx<'_>) -> Result<Option<(NaiveTime, bool)>, RuleError> {
    let Some(said) = s.time else {
        // 中午 alone: noon.
        if s.mer == Some(Mer::Noon) {
            return Ok(Some((NaiveTime::MIN + TimeDelta::hours(12), false)));
        }
        return Ok(None);
    };
    let SaidTime {
        hour,
        minute,
        second,
        fixed,
    } = said;
    let bad = || {
        RuleError::new(
            RuleErrorKind::InvalidTime,
            format!(
                "'{}' in '{}' is not a time of day: hours are 0-23 (1-12 with am/pm), minutes \
                 and seconds 0-59, e.g. '17:30', '5:30 pm', '下午5点半'",
                s.time_text, ctx.original
            ),
        )
    };
    let mer = if fixed { None } else { s.mer };
    let (hour, shift) = match mer {
        None => (hour, false),
        Some(Mer::Am) => match hour {
            1..=11 => (hour, false),
            12 => (0, false),
            _ => return Err(bad()),
        },
        Some(Mer::Pm) => match hour {
            1..=11 => (hour + 12, false),
            12 => (12, false),
            _ => return Err(bad()),
        },
        Some(Mer::Morning) => match hour {
            0..=12 => (hour, false),
            _ => return Err(bad()),
        },
        Some(Mer::Dawn) => match hour {
            12 => (0, false),
            0..=11 => (hour, false),
            _ => return Err(bad()),
        },
        Some(Mer::Noon) => match hour {
            1..=3 => (hour + 12, false),
            11..=14 => (hour, false),
            _ => return Err(bad()),
        },
        Some(Mer::Afternoon) => match hour {
            1..=11 => (hour + 12, false),
            12..=23 => (hour, false),
            _ => return Err(bad()),
        },
        Some(Mer::Evening) => match hour {
            1..=11 => (hour + 12, false),
            13..=23 => (hour, false),
            0 | 12 | 24 => (24, false),
            _ => return Err(bad()),
        },
    };
    if minute > 59 || second > 59 {
        return Err(bad());
    }
    let (hour, shift) = match hour {
        24 if (minute == 0 && second == 0) || mer.is_some() => (0, true),
        0..=23 => (hour, shift),
        _ => return Err(bad()),
    };
    let time = NaiveTime::from_hms_opt(hour, minute, second).ok_or_else(bad)?;
    Ok(Some((time, shift)))
}

pub(super) fn invalid_date(year: Option<i32>, month: u32, day: u32) -> RuleError {
    let date = match year {
        Some(y) => format!("{y:04}-{month:02}-{day:02}"),
        None => format!("month {month}, day {day}"),
    };
    let leap = match year {
        Some(y) if month == 2 && day == 29 => format!(" ({y} is not a leap year)"),
        _ => String::new(),
    };
    RuleError::new(
        RuleErrorKind::InvalidDate,
        format!(
            "{date} is not a valid date{leap}; give a date that exists, e.g. '2028-02-29 09:00'"
        ),
    )
}
