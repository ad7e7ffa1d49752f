//! Expressions that are not rules: the kind and a message that says what is accepted.

mod common;

use common::*;
use deskmate_schedule::{MAX_EXPR_CHARS, RuleErrorKind};

fn now() -> chrono::DateTime<chrono::Utc> {
    utc(2026, 3, 10, 9, 0)
}

fn kind(expr: &str) -> RuleErrorKind {
    parse_err(expr, now(), BERLIN).kind()
}

#[test]
fn times_in_the_past() {
    for expr in [
        "today at 8:00",
        "2026-01-01 10:00",
        "2026-03-10T08:59:59Z",
        "今天早上8点",
        "这周一9点",
    ] {
        assert_eq!(kind(expr), RuleErrorKind::InPast, "{expr}");
    }
    let e = parse_err("today at 8:00", now(), BERLIN);
    assert!(e.message().contains("in the past"), "{e}");
    assert!(e.message().contains("2026-03-10 08:00"), "{e}");
    assert!(e.message().contains("Europe/Berlin"), "{e}");
}

#[test]
fn rrules_that_never_fire_or_are_invalid() {
    for expr in [
        "RRULE:FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30;BYHOUR=9;BYMINUTE=0",
        "RRULE:FREQ=DAILY;UNTIL=20260101T000000Z",
        "FREQ=DAILY;UNTIL=20260309",
        "DTSTART:20250101T090000\nRRULE:FREQ=DAILY;COUNT=3",
    ] {
        assert_eq!(kind(expr), RuleErrorKind::NeverFires, "{expr}");
    }
    let e = parse_err("RRULE:FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30", now(), BERLIN);
    assert!(e.message().contains("never fires"), "{e}");
    for expr in [
        "RRULE:FREQ=SECONDLY",
        "RRULE:FREQ=FORTNIGHTLY",
        "RRULE:BYHOUR=9",
        "RRULE:FREQ=DAILY;BYHOUR=25",
        "RRULE:FREQ=DAILY;BYSECOND=0,30",
        "RRULE:FREQ=DAILY;COUNT=2;UNTIL=20270101",
        "RRULE:FREQ=DAILY;FOO=1",
        "RRULE:FREQ=DAILY;INTERVAL=0",
        "RRULE:FREQ=WEEKLY;BYDAY=1MO",
        "DTSTART:2026\nRRULE:FREQ=DAILY",
    ] {
        assert_eq!(kind(expr), RuleErrorKind::InvalidRRule, "{expr}");
    }
    let e = parse_err("RRULE:FREQ=DAILY;FOO=1", now(), BERLIN);
    assert!(e.message().contains("FOO"), "{e}");
    assert!(e.message().contains("RRULE:FREQ=WEEKLY"), "{e}");
}

#[test]
fn garbage_names_what_was_not_understood_and_lists_forms() {
    let e = parse_err("remind me about the thing", now(), BERLIN);
    assert_eq!(e.kind(), RuleErrorKind::NotUnderstood);
    assert!(e.message().contains("'remind'"), "{e}");
    assert!(e.message().contains("every weekday at 9"), "{e}");
    assert!(e.message().contains("每天8点"), "{e}");
    let e = parse_err("明天吃饭", now(), BERLIN);
    assert_eq!(e.kind(), RuleErrorKind::NotUnderstood);
    assert!(e.message().contains("吃饭"), "{e}");
    for expr in [
        "9",
        "in",
        "every",
        "every day in 10 minutes",
        "next",
        "next 9:00",
        "tomorrow friday at 9",
        "at 9 at 10",
        "in 2 months",
        "every 2 hours at 9",
        "9:00 #",
    ] {
        assert_eq!(kind(expr), RuleErrorKind::NotUnderstood, "{expr}");
    }
}

#[test]
fn empty_and_too_long() {
    for expr in ["", "   ", "?!.", "。"] {
        assert_eq!(kind(expr), RuleErrorKind::Empty, "'{expr}'");
    }
    let long = format!("in 10 minutes{}", " ".repeat(MAX_EXPR_CHARS + 1 - 13));
    assert_eq!(long.chars().count(), 201);
    let e = parse_err(&long, now(), BERLIN);
    assert_eq!(e.kind(), RuleErrorKind::TooLong);
    assert!(e.message().contains("201"), "{e}");
    assert!(e.message().contains("200"), "{e}");
    // 200 characters are fine.
    let ok = format!("in 10 minutes{}", " ".repeat(MAX_EXPR_CHARS - 13));
    assert_eq!(parse(&ok, now(), BERLIN), once(naive(2026, 3, 10, 10, 10)));
    // Characters, not bytes.
    let chinese = "十".repeat(201);
    assert_eq!(kind(&chinese), RuleErrorKind::TooLong);
}

#[test]
fn limits_of_intervals_and_durations() {
    for expr in [
        "every 0 minutes",
        "every 30 seconds",
        "每0分钟",
        "every 90 seconds",
    ] {
        assert_eq!(kind(expr), RuleErrorKind::IntervalTooShort, "{expr}");
    }
    let e = parse_err("every 0 minutes", now(), BERLIN);
    assert!(e.message().contains("1 minute"), "{e}");
    for expr in [
        "in 400 days",
        "400天后",
        "in 0 minutes",
        "every 367 days at 9",
        "every 400 days",
        "in 99999999999 minutes",
    ] {
        assert_eq!(kind(expr), RuleErrorKind::OutOfRange, "{expr}");
    }
    let e = parse_err("in 400 days", now(), BERLIN);
    assert!(e.message().contains("366 days"), "{e}");
    // 366 days is the longest.
    assert_eq!(
        parse("in 366 days", now(), BERLIN),
        once(naive(2027, 3, 11, 10, 0))
    );
}

#[test]
fn invalid_dates_and_times() {
    let e = parse_err("2027-02-29 09:00", now(), BERLIN);
    assert_eq!(e.kind(), RuleErrorKind::InvalidDate);
    assert!(e.message().contains("not a leap year"), "{e}");
    for expr in [
        "2027-02-29",
        "2026-13-01 10:00",
        "2月30日9点",
        "the 32nd at 9",
    ] {
        assert_eq!(kind(expr), RuleErrorKind::InvalidDate, "{expr}");
    }
    for expr in [
        "at 25:00",
        "every day at 24:30",
        "at 13pm",
        "at 9:60",
        "上午13点",
    ] {
        assert_eq!(kind(expr), RuleErrorKind::InvalidTime, "{expr}");
    }
    for expr in ["tomorrow", "every monday", "每天", "2026-12-24", "下周一"] {
        assert_eq!(kind(expr), RuleErrorKind::MissingTime, "{expr}");
    }
}
