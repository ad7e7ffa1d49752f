//! Repeating rules from slots: every N minutes or hours, daily, weekdays, weekly, and RRULEs
//! for every few days, weeks, months or years.

use chrono::{NaiveDate, NaiveTime, Timelike, Weekday};

use super::build::{Ctx, MAX_SECONDS, first_minute_after, invalid_date, missing_time, time_of};
use super::grammar::{DayRef, Slots, WeekMode};
use super::lexer::{Mer, Unit};
use crate::error::{RuleError, RuleErrorKind};
use crate::ical::{self, Spec};
use crate::{Rule, Step};

/// A whole count of a unit, from 1 to `max`.
fn whole(value: f64, max: u32, s: &Slots, ctx: &Ctx<'_>) -> Result<u32, RuleError> {
    if value < 1.0 {
        return Err(RuleError::new(
            RuleErrorKind::IntervalTooShort,
            format!(
                "'every {}' never fires: the count must be at least 1 ('every 1 day at 9', \
                 'every 15 minutes')",
                s.step_text
            ),
        ));
    }
    if value.fract() != 0.0 || value > f64::from(max) {
        return Err(ctx.error(
            RuleErrorKind::OutOfRange,
            format!(
                "'every {}': give a whole number of days from 1 to 366, of weeks from 1 to 52, \
                 of months from 1 to 12 or of years from 1 to 10",
                s.step_text
            ),
        ));
    }
    // A whole number no larger than `max`.
    Ok(value as u32)
}

/// "every 15 minutes", "every 2 days at 9", "every 2 weeks on monday at 9", "每月1号9点".
pub(super) fn stepped(s: &Slots, value: f64, unit: Unit, ctx: &Ctx<'_>) -> Result<Rule, RuleError> {
    match unit {
        Unit::Second | Unit::Minute | Unit::Hour => {
            if s.has_day_or_time() {
                return Err(ctx.error(
                    RuleErrorKind::NotUnderstood,
                    format!(
                        "'every {}' repeats by elapsed time from now and takes no day or time \
                         of day; for a time of day say 'every day at 9' or 'every weekday at 9'",
                        s.step_text
                    ),
                ));
            }
            every_elapsed(s, value, unit, ctx)
        }
        Unit::Day => {
            let n = whole(value, 366, s, ctx)?;
            if n == 1 {
                return repeating(s, ctx);
            }
            no_week_or_month_days(s, ctx)?;
            let (time, _) = time_of(s, ctx)?.ok_or_else(|| missing_time(ctx))?;
            generated_rrule(&format!("FREQ=DAILY;INTERVAL={n};{}", by_time(time)), ctx)
        }
        Unit::Week => {
            let n = whole(value, 52, s, ctx)?;
            let days = week_days(s);
            if days.is_empty() {
                return Err(ctx.error(
                    RuleErrorKind::NotUnderstood,
                    format!(
                        "'{}' does not say which weekday; say e.g. 'every week on monday at 9' \
                         or '每周一9点'",
                        ctx.original
                    ),
                ));
            }
            if n == 1 {
                return repeating(s, ctx);
            }
            let (time, shift) = time_of(s, ctx)?.ok_or_else(|| missing_time(ctx))?;
            let days = shifted_days(&days, shift);
            let by_day: Vec<&str> = days.iter().map(|d| ical_day(*d)).collect();
            generated_rrule(
                &format!(
                    "FREQ=WEEKLY;INTERVAL={n};BYDAY={};{}",
                    by_day.join(","),
                    by_time(time)
                ),
                ctx,
            )
        }
        Unit::Month => {
            let n = whole(value, 12, s, ctx)?;
            if s.month_days.is_empty() {
                return Err(ctx.error(
                    RuleErrorKind::NotUnderstood,
                    format!(
                        "'{}' does not say which day of the month; say e.g. 'every month on \
                         the 1st at 9' or '每月1号9点'",
                        ctx.original
                    ),
                ));
            }
            monthly(s, n, ctx)
        }
        Unit::Year => {
            let n = whole(value, 10, s, ctx)?;
            let Some(DayRef::Date {
                year: None,
                month,
                day,
            }) = s.day
            else {
                return Err(ctx.error(
                    RuleErrorKind::NotUnderstood,
                    format!(
                        "'{}' needs a month and day without a year, e.g. 'every year on dec 24 \
                         at 9', or an RRULE like 'RRULE:FREQ=YEARLY;BYMONTH=12;BYMONTHDAY=24;\
                         BYHOUR=9;BYMINUTE=0'",
                        ctx.original
                    ),
                ));
            };
            if (1..=8).all(|y| NaiveDate::from_ymd_opt(2024 + y, month, day).is_none()) {
                return Err(invalid_date(None, month, day));
            }
            let (time, shift) = time_of(s, ctx)?.ok_or_else(|| missing_time(ctx))?;
            if shift {
                return Err(midnight_unsupported(ctx));
            }
            generated_rrule(
                &format!(
                    "FREQ=YEARLY;{}BYMONTH={month};BYMONTHDAY={day};{}",
                    interval(n),
                    by_time(time)
                ),
                ctx,
            )
        }
    }
}

fn every_elapsed(s: &Slots, value: f64, unit: Unit, ctx: &Ctx<'_>) -> Result<Rule, RuleError> {
    let seconds = value * unit.seconds().unwrap_or(0.0);
    if value <= 0.0 || seconds < 60.0 {
        return Err(RuleError::new(
            RuleErrorKind::IntervalTooShort,
            format!(
                "'every {}' is shorter than the shortest interval, 1 minute; say e.g. \
                 'every 1 minute' or 'every 15 minutes'",
                s.step_text
            ),
        ));
    }
    if seconds > MAX_SECONDS {
        return Err(RuleError::new(
            RuleErrorKind::OutOfRange,
            format!(
                "'every {}' is longer than 366 days, the longest interval",
                s.step_text
            ),
        ));
    }
    let minutes = seconds / 60.0;
    if (minutes - minutes.round()).abs() > 1e-9 {
        return Err(RuleError::new(
            RuleErrorKind::IntervalTooShort,
            format!(
                "'every {}' is not a whole number of minutes; intervals are whole minutes, \
                 e.g. 'every 2 minutes'",
                s.step_text
            ),
        ));
    }
    // At most 527 040 minutes.
    let minutes = minutes.round() as u32;
    let step = if unit == Unit::Hour && value.fract() == 0.0 {
        Step::Hours(minutes / 60)
    } else {
        Step::Minutes(minutes)
    };
    Ok(Rule::Every {
        step,
        from: ctx.now_seconds(),
    })
}

fn no_week_or_month_days(s: &Slots, ctx: &Ctx<'_>) -> Result<(), RuleError> {
    if !week_days(s).is_empty() || !s.month_days.is_empty() || s.day.is_some() {
        return Err(ctx.error(
            RuleErrorKind::NotUnderstood,
            format!(
                "'{}' gives both a repetition every few days and a day; say e.g. 'every 2 days \
                 at 9'",
                ctx.original
            ),
        ));
    }
    Ok(())
}

/// The weekdays of the slots: the list, weekdays, weekend.
fn week_days(s: &Slots) -> Vec<Weekday> {
    let mut days = s.weekdays_list.clone();
    if s.weekdays {
        days.extend([
            Weekday::Mon,
            Weekday::Tue,
            Weekday::Wed,
            Weekday::Thu,
            Weekday::Fri,
        ]);
    }
    if s.weekend {
        days.extend([Weekday::Sat, Weekday::Sun]);
    }
    days
}

/// Sorted from Monday, without duplicates, each a day later when the time is "midnight".
fn shifted_days(days: &[Weekday], shift: bool) -> Vec<Weekday> {
    let mut days: Vec<Weekday> = days
        .iter()
        .map(|d| if shift { d.succ() } else { *d })
        .collect();
    days.sort_by_key(|d| d.num_days_from_monday());
    days.dedup();
    days
}

/// "every day at 8", "weekdays at 9", "every mon, wed at 7pm", "每周末10点".
pub(super) fn repeating(s: &Slots, ctx: &Ctx<'_>) -> Result<Rule, RuleError> {
    if s.day.is_some() || s.offset.is_some() {
        return Err(ctx.error(
            RuleErrorKind::NotUnderstood,
            format!(
                "'{}' gives a repetition and a single day; say either 'every monday at 9' or \
                 'tomorrow 9:00'",
                ctx.original
            ),
        ));
    }
    if s.week_mode != WeekMode::Bare {
        return Err(ctx.error(
            RuleErrorKind::NotUnderstood,
            format!(
                "'next', 'this', '下' and '这' do not go with a repetition in '{}'",
                ctx.original
            ),
        ));
    }
    if !s.month_days.is_empty() {
        return monthly(s, 1, ctx);
    }
    let days = week_days(s);
    // "every morning at 8", "every evening at 7": a part of the day repeats daily.
    let part_of_day = s.every
        && s.step.is_none()
        && matches!(
            s.mer,
            Some(Mer::Morning | Mer::Dawn | Mer::Noon | Mer::Afternoon | Mer::Evening)
        );
    let daily = matches!(s.step, Some((_, Unit::Day))) || part_of_day;
    if days.is_empty() && !daily {
        return Err(ctx.error(
            RuleErrorKind::NotUnderstood,
            format!(
                "'{}' does not say what repeats; say e.g. 'every day at 8', 'every monday at 9' \
                 or 'every 15 minutes'",
                ctx.original
            ),
        ));
    }
    let (time, shift) = time_of(s, ctx)?.ok_or_else(|| missing_time(ctx))?;
    if days.is_empty() {
        return Ok(Rule::Daily { time });
    }
    Ok(weekly(shifted_days(&days, shift), time))
}

/// Weekly on some days, as the simplest kind: all seven → daily, Monday to Friday → weekdays.
fn weekly(days: Vec<Weekday>, time: NaiveTime) -> Rule {
    match days.len() {
        7 => Rule::Daily { time },
        5 if days.iter().all(|d| crate::next::is_weekday(*d)) => Rule::Weekdays { time },
        _ => Rule::Weekly { days, time },
    }
}

fn monthly(s: &Slots, n: u32, ctx: &Ctx<'_>) -> Result<Rule, RuleError> {
    if let Some(bad) = s.month_days.iter().find(|d| !(1..=31).contains(*d)) {
        return Err(RuleError::new(
            RuleErrorKind::InvalidDate,
            format!("day {bad} of the month does not exist; give a day from 1 to 31"),
        ));
    }
    let (time, shift) = time_of(s, ctx)?.ok_or_else(|| missing_time(ctx))?;
    if shift {
        return Err(midnight_unsupported(ctx));
    }
    let mut days = s.month_days.clone();
    days.sort_unstable();
    days.dedup();
    let days: Vec<String> = days.iter().map(u32::to_string).collect();
    generated_rrule(
        &format!(
            "FREQ=MONTHLY;{}BYMONTHDAY={};{}",
            interval(n),
            days.join(","),
            by_time(time)
        ),
        ctx,
    )
}

/// `INTERVAL=n;`, or nothing for 1.
fn interval(n: u32) -> String {
    if n > 1 {
        format!("INTERVAL={n};")
    } else {
        String::new()
    }
}

fn midnight_unsupported(ctx: &Ctx<'_>) -> RuleError {
    ctx.error(
        RuleErrorKind::NotUnderstood,
        format!(
            "midnight (晚上12点) with a day of the month or year in '{}' is ambiguous; give \
             00:00 of the next day instead",
            ctx.original
        ),
    )
}

fn by_time(time: NaiveTime) -> String {
    let mut text = format!("BYHOUR={};BYMINUTE={}", time.hour(), time.minute());
    if time.second() != 0 {
        text.push_str(&format!(";BYSECOND={}", time.second()));
    }
    text
}

pub(crate) fn ical_day(day: Weekday) -> &'static str {
    match day {
        Weekday::Mon => "MO",
        Weekday::Tue => "TU",
        Weekday::Wed => "WE",
        Weekday::Thu => "TH",
        Weekday::Fri => "FR",
        Weekday::Sat => "SA",
        Weekday::Sun => "SU",
    }
}

/// An RRULE made from words: it starts at its first occurrence (so "every 2 days at 9" said
/// at 10:00 first fires tomorrow, not in two days).
fn generated_rrule(text: &str, ctx: &Ctx<'_>) -> Result<Rule, RuleError> {
    let spec = Spec::parse(text).map_err(|m| RuleError::new(RuleErrorKind::InvalidRRule, m))?;
    let every_period: String = text
        .split(';')
        .filter(|part| !part.starts_with("INTERVAL="))
        .collect::<Vec<_>>()
        .join(";");
    let first_spec =
        Spec::parse(&every_period).map_err(|m| RuleError::new(RuleErrorKind::InvalidRRule, m))?;
    let never = || {
        RuleError::new(
            RuleErrorKind::NeverFires,
            format!("'{}' never fires after now", ctx.original),
        )
    };
    let (start, _) = ical::next_of_spec(&first_spec, first_minute_after(ctx), ctx.now, ctx.tz)
        .ok_or_else(never)?;
    ical::next_of_spec(&spec, start, ctx.now, ctx.tz).ok_or_else(never)?;
    Ok(Rule::RRule {
        rule: spec.text(),
        start,
    })
}
