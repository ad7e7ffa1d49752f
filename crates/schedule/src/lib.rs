//! Time rules of schedules: when a reminder or a scheduled call fires.
//!
//! A [`Rule`] is parsed from a short time expression ([`Rule::parse`]), gives its next firing
//! strictly after an instant in an IANA zone ([`Rule::next_after`]) and says itself in words
//! ([`Rule::describe`]). Nothing here reads the clock or does I/O: "now" is always passed in.
//!
//! ```
//! use chrono::{TimeZone, Utc};
//! use deskmate_schedule::{Lang, Rule};
//!
//! let tz = chrono_tz::Europe::Berlin;
//! let now = Utc.with_ymd_and_hms(2026, 3, 10, 9, 0, 0).unwrap(); // 10:00 in Berlin
//! let rule = Rule::parse("every weekday at 9", now, tz).unwrap();
//! assert_eq!(rule.describe(tz, Lang::En), "weekdays at 09:00");
//! assert_eq!(rule.describe(tz, Lang::Zh), "每个工作日 09:00");
//! // Tomorrow 09:00 in Berlin is 08:00 UTC.
//! assert_eq!(rule.next_after(now, tz), Some(Utc.with_ymd_and_hms(2026, 3, 11, 8, 0, 0).unwrap()));
//! ```
//!
//! # Time in a zone
//!
//! Rules with a time of day ([`Rule::Once`], [`Rule::Daily`], [`Rule::Weekdays`],
//! [`Rule::Weekly`], [`Rule::RRule`]) keep **local wall time** in the schedule's zone, never a
//! fixed UTC offset: a daily 09:00 in Europe/Berlin fires at 08:00 UTC in winter and 07:00 UTC
//! in summer.
//!
//! - **Gap** (spring forward): a wall time that does not exist that day, such as 02:30 on
//!   2026-03-29 in Europe/Berlin, fires at the **first valid instant after the gap** (03:00
//!   local, 01:00 UTC).
//! - **Fold** (fall back): a wall time that exists twice, such as 02:30 on 2026-10-25 in
//!   Europe/Berlin, fires **once, at the earlier instant** (02:30 CEST, 00:30 UTC). The one
//!   exception is a one-time rule made from a duration or an instant that lands in the second
//!   pass of the repeated hour: it keeps that instant (`fold: true`).
//! - **Every N minutes/hours** ([`Rule::Every`]) counts **elapsed time** from its anchor, not
//!   wall time: "every 2 hours" keeps exactly 2 hours between firings across a DST change, so
//!   its wall-clock times shift by an hour there. The first firing is one step after the anchor
//!   (the moment the rule was parsed).
//! - **RRULE** is evaluated in local wall time from its `start` (RFC 5545 "floating" time), and
//!   each occurrence then follows the gap and fold rules above (several occurrences in one gap
//!   fire once, at its end). An `UNTIL` ending in `Z` is an instant, without `Z` a wall time
//!   (a date alone: through the end of that day). Parts the rule leaves out (time of day,
//!   weekday, day of the month) come from `start`: the `DTSTART` given before the rule, else the
//!   first whole minute after the rule was parsed. Limits: `FREQ=SECONDLY` and more than one
//!   `BYSECOND` are refused (at most one firing a minute), `COUNT` is at most 100 000, and an
//!   evaluation gives up (no further firing) after 100 000 consecutive periods without an
//!   occurrence (the `rrule` crate's limit) or after looking at 2 000 000 occurrences. Rules
//!   without COUNT are evaluated from a start moved forward by whole periods to just before the
//!   asked instant, so evaluation stays quick years after the start.
//!
//! # Expressions
//!
//! Case does not matter; extra spaces, full-width digits and punctuation and trailing
//! punctuation (`.`, `!`, `。`) are fine; at most [`MAX_EXPR_CHARS`] characters. The grammar is
//! built from tokens, so the pieces combine (the lists below are examples, not whole phrases):
//!
//! - **Numbers**: `10`, `1.5`, `ten`, `twenty-five`, `a`/`an` (one), `half`, Chinese `十`,
//!   `二十五`, `两`, `半`, `一刻` (15 minutes).
//! - **Times of day**: `9` (after "at", a day or a repetition), `9:30`, `17:30`, `5pm`,
//!   `5:30 pm`, `9 o'clock`, `noon`, `midnight`, `9点`, `9点半`, `9点30分`, `9点一刻`, with parts
//!   of the day `morning`/`afternoon`/`evening`/`tonight`, `早上`/`上午`/`凌晨`/`中午`/`下午`/
//!   `傍晚`/`晚上`. Hours without am/pm are 24-hour. 下午/晚上 with an hour under 12 add 12;
//!   中午12点 is 12:00, 中午1点 13:00; **晚上12点 and "midnight" are 00:00 of the next day**
//!   (the end of the day named: 今天晚上12点 is tomorrow 00:00, 每周五晚上12点 fires on
//!   Saturdays at 00:00).
//! - **Durations** (once, `now` + the duration, exact to the second): `in 10 minutes`,
//!   `in 2 hours`, `in 1 hour 30 minutes`, `in an hour and a half`, `in half an hour`,
//!   `in 90 seconds`, `10 minutes from now`, `10分钟后`, `十分钟后`, `两小时后`, `1小时30分钟后`,
//!   `半小时后`, `一个半小时后`, `过10分钟`, and a duration alone (`10 minutes`, `10分钟`: from
//!   now, as only "every" makes one repeat). Seconds are kept as given (`in 90 seconds` is 90
//!   seconds, not rounded to minutes). From 1 second to 366 days.
//! - **One time**: a time of day alone is **the next such time** ("at 5pm" said at 18:00 is
//!   tomorrow 17:00); with a day it must lie after now, else the error says it is in the past.
//!   Days: `today`, `tomorrow`, `day after tomorrow`, `tonight`, `今天`, `明天`, `后天`, `大后天`,
//!   `今晚`, `明早`; weekdays `friday`/`fri`, `周五`, `星期五`, `礼拜五` (the next such day and
//!   time, today included), `next monday` (the first Monday after today), `this friday` /
//!   `这周五` (this Monday-to-Sunday week), `下周一` (Monday of next week); dates `2026-12-24`,
//!   `2026/12/24`, `dec 24`, `24 december 2026`, `12月24日`, `2026年12月24日` (without a year:
//!   the next such date), `the 24th`, `24号` (the next such day of a month); ISO 8601
//!   `2026-12-24T18:00`, also with `Z` or an offset (`+01:00`), which gives an instant.
//! - **Repeating**: `every day at 8`, `daily at 8:00`, `every weekday at 9`, `weekdays at 9:00`,
//!   `every monday and wednesday at 7pm`, `every mon, wed, fri at 7:30`, `mondays at 9`,
//!   `every monday to friday at 9`, `every weekend at 10`, `every 15 minutes`, `every 2 hours`,
//!   `every 1 hour 30 minutes`, `hourly`, `every other day at 9`, `every 2 weeks on monday at 9`,
//!   `every month on the 1st at 9`, `every year on dec 24 at 9`, `每天8点`, `每天早上8点`,
//!   `每个工作日9点`, `工作日每天9点`, `每周一和周三晚上7点`, `每周一、三、五 7:30`, `周一至周五9点`,
//!   `每周末10点`, `每15分钟`, `每隔2小时`, `每小时`, `每月1号9点`. `每隔N` means the same as
//!   `每N` (每隔2小时 = every 2 hours). Weekday sets are normalized: Monday to Friday is
//!   [`Rule::Weekdays`], all seven days [`Rule::Daily`]. Repetitions by days, weeks, months or
//!   years other than daily/weekly become an RRULE that starts at its first occurrence. Every-N
//!   intervals are whole minutes from 1 minute to 366 days.
//! - **RFC 5545**: `RRULE:FREQ=MONTHLY;BYMONTHDAY=1;BYHOUR=9;BYMINUTE=0`, the same without
//!   `RRULE:`, or `DTSTART:20261201T090000` (optionally `;TZID=Zone` or `Z`) and a new line
//!   before it. It must fire at least once after now.
//!
//! Anything else is a [`RuleError`] whose message names the part not understood and lists
//! the accepted forms briefly, so that a model can correct its call.

mod describe;
mod error;
mod ical;
mod next;
mod parse;
mod rule;
mod spans;
mod wall;

use chrono::{DateTime, Utc};
use chrono_tz::Tz;

pub use error::{RuleError, RuleErrorKind};
pub use rule::{Lang, Rule, Step};
pub use spans::time_spans;

/// The longest expression [`Rule::parse`] accepts, in characters.
pub const MAX_EXPR_CHARS: usize = 200;

// What a rule does, each in the module that does it: the rule itself is a plain type
// (`rule.rs`) those modules read.
impl Rule {
    /// Parses a time expression said at `now` in the zone `tz`: English or Simplified Chinese
    /// words ("in 10 minutes", "every weekday at 9", "明天早上9点", "每周一、三 7:30"), an ISO 8601
    /// date and time ("2026-12-24 18:00") or an RFC 5545 rule ("RRULE:FREQ=MONTHLY;BYMONTHDAY=1;
    /// BYHOUR=9;BYMINUTE=0"). See the crate documentation for the grammar and its decisions.
    ///
    /// # Errors
    ///
    /// A [`RuleError`] whose message names what was not accepted and the accepted forms: empty
    /// or longer than 200 characters, not understood, an invalid date or time, a time in the
    /// past, an interval under a minute, a duration over 366 days, an RRULE that is invalid or
    /// never fires after `now`.
    pub fn parse(expr: &str, now: DateTime<Utc>, tz: Tz) -> Result<Rule, RuleError> {
        parse::parse(expr, now, tz)
    }

    /// The first firing strictly after `after`, in the zone `tz`; `None` when the rule never
    /// fires again. Never panics, also not for a rule read from storage that [`Rule::parse`]
    /// would not have made (an empty weekday list, a zero step or a broken RRULE give `None`).
    #[must_use]
    pub fn next_after(&self, after: DateTime<Utc>, tz: Tz) -> Option<DateTime<Utc>> {
        next::next_after(self, after, tz)
    }

    /// The rule in words, e.g. "weekdays at 09:00" / "每个工作日 09:00".
    #[must_use]
    pub fn describe(&self, tz: Tz, lang: Lang) -> String {
        describe::describe(self, tz, lang)
    }
}
