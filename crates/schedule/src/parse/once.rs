//! One-time rules from slots: a day (or none) and a time of day.

use chrono::{Datelike, Days, FixedOffset, NaiveDate, NaiveDateTime, TimeZone, Utc};

use super::build::{Ctx, invalid_date, missing_time, once_at_instant, time_of};
use super::grammar::{DayRef, Slots, WeekMode};
use crate::Rule;
use crate::error::{RuleError, RuleErrorKind};
use crate::wall::resolve;

/// A one-time rule from a day and a time.
pub(super) fn once(s: &Slots, ctx: &Ctx<'_>) -> Result<Rule, RuleError> {
    if let Some(DayRef::Date {
        year: Some(year),
        month,
        day,
    }) = s.day
        && NaiveDate::from_ymd_opt(year, month, day).is_none()
    {
        return Err(invalid_date(Some(year), month, day));
    }
    let Some((time, shift)) = time_of(s, ctx)? else {
        if s.has_day_or_time() {
            return Err(missing_time(ctx));
        }
        return Err(ctx.error(
            RuleErrorKind::NotUnderstood,
            format!("'{}' names no time", ctx.original),
        ));
    };
    let tz = ctx.tz;
    let after_now = |d: NaiveDate| -> Option<NaiveDateTime> {
        let d = if shift { d.succ_opt()? } else { d };
        let at = d.and_time(time);
        resolve(at, tz, false).filter(|t| *t > ctx.now).map(|_| at)
    };
    let past = |d: NaiveDate| -> RuleError {
        let d = if shift { d.succ_opt().unwrap_or(d) } else { d };
        in_past(d.and_time(time), ctx)
    };
    let today = ctx.today();
    let one_day = |d: NaiveDate, k: u64| d.checked_add_days(Days::new(k));
    let day_count = usize::from(s.day.is_some())
        + usize::from(!s.weekdays_list.is_empty())
        + usize::from(!s.month_days.is_empty());
    if day_count > 1 {
        return Err(ctx.error(
            RuleErrorKind::NotUnderstood,
            format!("'{}' names more than one day", ctx.original),
        ));
    }
    if let Some(offset) = s.offset {
        let Some(DayRef::Date {
            year: Some(year),
            month,
            day,
        }) = s.day
        else {
            return Err(ctx.error(
                RuleErrorKind::NotUnderstood,
                format!(
                    "a UTC offset needs an ISO date and time in '{}', e.g. '2026-12-24T18:00+01:00'",
                    ctx.original
                ),
            ));
        };
        let date = NaiveDate::from_ymd_opt(year, month, day)
            .ok_or_else(|| invalid_date(Some(year), month, day))?;
        let date = if shift {
            date.succ_opt().unwrap_or(date)
        } else {
            date
        };
        let instant = FixedOffset::east_opt(offset)
            .and_then(|o| o.from_local_datetime(&date.and_time(time)).single())
            .map(|t| t.with_timezone(&Utc))
            .ok_or_else(|| {
                RuleError::new(RuleErrorKind::InvalidTime, "the time is out of range")
            })?;
        if instant <= ctx.now {
            return Err(in_past(instant.with_timezone(&tz).naive_local(), ctx));
        }
        return Ok(once_at_instant(instant, tz));
    }
    let at = match s.day {
        Some(DayRef::Rel(n)) => {
            let d = one_day(today, u64::from(n)).ok_or_else(|| past(today))?;
            after_now(d).ok_or_else(|| past(d))?
        }
        Some(DayRef::Date {
            year: Some(year),
            month,
            day,
        }) => {
            let d = NaiveDate::from_ymd_opt(year, month, day)
                .ok_or_else(|| invalid_date(Some(year), month, day))?;
            after_now(d).ok_or_else(|| past(d))?
        }
        Some(DayRef::Date {
            year: None,
            month,
            day,
        }) => {
            // The next such date: this year, or a later one (Feb 29: the next leap year).
            (0..=8)
                .filter_map(|k| NaiveDate::from_ymd_opt(today.year() + k, month, day))
                .find_map(after_now)
                .ok_or_else(|| invalid_date(None, month, day))?
        }
        None if !s.weekdays_list.is_empty() => {
            let [weekday] = s.weekdays_list[..] else {
                return Err(ctx.error(
                    RuleErrorKind::NotUnderstood,
                    format!(
                        "'{}' names several weekdays for one time; to repeat, say 'every mon, \
                         wed at 9' or '每周一、三9点'",
                        ctx.original
                    ),
                ));
            };
            let monday = today
                .checked_sub_days(Days::new(u64::from(today.weekday().num_days_from_monday())))
                .unwrap_or(today);
            let in_week =
                |week: u64| one_day(monday, week * 7 + u64::from(weekday.num_days_from_monday()));
            match s.week_mode {
                WeekMode::Bare => (0..=7)
                    .filter_map(|k| one_day(today, k))
                    .filter(|d| d.weekday() == weekday)
                    .find_map(after_now)
                    .ok_or_else(|| past(today))?,
                WeekMode::Next => {
                    let d = (1..=7)
                        .filter_map(|k| one_day(today, k))
                        .find(|d| d.weekday() == weekday)
                        .ok_or_else(|| past(today))?;
                    after_now(d).ok_or_else(|| past(d))?
                }
                WeekMode::NextWeek => {
                    let d = in_week(1).ok_or_else(|| past(today))?;
                    after_now(d).ok_or_else(|| past(d))?
                }
                WeekMode::This => {
                    let d = in_week(0).ok_or_else(|| past(today))?;
                    after_now(d).ok_or_else(|| past(d))?
                }
            }
        }
        None if !s.month_days.is_empty() => {
            let [day] = s.month_days[..] else {
                return Err(ctx.error(
                    RuleErrorKind::NotUnderstood,
                    format!(
                        "'{}' names several days of the month for one time; to repeat, say \
                         'every month on the 1st and 15th at 9'",
                        ctx.original
                    ),
                ));
            };
            if !(1..=31).contains(&day) {
                return Err(invalid_date(None, today.month(), day));
            }
            // This month or a later one that has the day.
            let first = today.with_day(1).unwrap_or(today);
            (0..=13)
                .filter_map(|k| first.checked_add_months(chrono::Months::new(k)))
                .filter_map(|m| m.with_day(day))
                .find_map(after_now)
                .ok_or_else(|| invalid_date(None, today.month(), day))?
        }
        None => {
            // A bare time: the next such time, today or tomorrow.
            let bare = |d: NaiveDate| {
                let at = d.and_time(time);
                resolve(at, tz, false).filter(|t| *t > ctx.now).map(|_| at)
            };
            (0..=2)
                .filter_map(|k| one_day(today, k))
                .find_map(bare)
                .ok_or_else(|| past(today))?
        }
    };
    Ok(Rule::Once { at, fold: false })
}

fn in_past(at: NaiveDateTime, ctx: &Ctx<'_>) -> RuleError {
    RuleError::new(
        RuleErrorKind::InPast,
        format!(
            "the time {} ({}) is in the past: it is now {} there; give a future time, e.g. \
             'tomorrow {}' or 'in 10 minutes'",
            at.format("%Y-%m-%d %H:%M"),
            ctx.tz.name(),
            ctx.local_now().format("%Y-%m-%d %H:%M"),
            at.format("%H:%M"),
        ),
    )
}
