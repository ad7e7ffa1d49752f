//! Helpers shared by the tests.
#![allow(dead_code)]

use chrono::{DateTime, NaiveDate, NaiveDateTime, NaiveTime, TimeZone, Utc};
use chrono_tz::Tz;
use deskmate_schedule::{Rule, RuleError};

pub const BERLIN: Tz = chrono_tz::Europe::Berlin;
pub const SHANGHAI: Tz = chrono_tz::Asia::Shanghai;
pub const NEW_YORK: Tz = chrono_tz::America::New_York;

pub fn utc(y: i32, mo: u32, d: u32, h: u32, mi: u32) -> DateTime<Utc> {
    Utc.with_ymd_and_hms(y, mo, d, h, mi, 0)
        .single()
        .expect("a valid UTC time")
}

/// An instant from an unambiguous local wall time.
pub fn local(tz: Tz, y: i32, mo: u32, d: u32, h: u32, mi: u32) -> DateTime<Utc> {
    tz.with_ymd_and_hms(y, mo, d, h, mi, 0)
        .single()
        .expect("an unambiguous local time")
        .with_timezone(&Utc)
}

pub fn naive(y: i32, mo: u32, d: u32, h: u32, mi: u32) -> NaiveDateTime {
    naive_s(y, mo, d, h, mi, 0)
}

pub fn naive_s(y: i32, mo: u32, d: u32, h: u32, mi: u32, s: u32) -> NaiveDateTime {
    NaiveDate::from_ymd_opt(y, mo, d)
        .and_then(|date| date.and_hms_opt(h, mi, s))
        .expect("a valid date and time")
}

pub fn hm(h: u32, m: u32) -> NaiveTime {
    NaiveTime::from_hms_opt(h, m, 0).expect("a valid time")
}

pub fn once(at: NaiveDateTime) -> Rule {
    Rule::Once { at, fold: false }
}

pub fn parse(expr: &str, now: DateTime<Utc>, tz: Tz) -> Rule {
    Rule::parse(expr, now, tz).unwrap_or_else(|e| panic!("'{expr}' did not parse: {e}"))
}

pub fn parse_err(expr: &str, now: DateTime<Utc>, tz: Tz) -> RuleError {
    match Rule::parse(expr, now, tz) {
        Ok(rule) => panic!("'{expr}' parsed to {rule:?}, expected an error"),
        Err(e) => e,
    }
}

/// The first `n` firings after `from`.
pub fn firings(rule: &Rule, from: DateTime<Utc>, tz: Tz, n: usize) -> Vec<DateTime<Utc>> {
    let mut out = Vec::new();
    let mut t = from;
    for _ in 0..n {
        match rule.next_after(t, tz) {
            Some(next) => {
                out.push(next);
                t = next;
            }
            None => break,
        }
    }
    out
}
