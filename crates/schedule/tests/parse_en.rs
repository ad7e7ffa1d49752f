//! English expressions parse to the expected rules.

mod common;

use chrono::Weekday::{Fri, Mon, Wed};
use common::*;
use deskmate_schedule::{Rule, Step};

/// Tuesday 2026-03-10, 10:00 in Berlin (CET, UTC+1).
fn now() -> chrono::DateTime<chrono::Utc> {
    utc(2026, 3, 10, 9, 0)
}

fn check(cases: &[(&str, Rule)]) {
    for (expr, expected) in cases {
        assert_eq!(&parse(expr, now(), BERLIN), expected, "{expr}");
    }
}

#[test]
fn durations_are_once_at_now_plus_the_duration() {
    check(&[
        ("in 10 minutes", once(naive(2026, 3, 10, 10, 10))),
        ("in 2 hours", once(naive(2026, 3, 10, 12, 0))),
        ("in 1 hour 30 minutes", once(naive(2026, 3, 10, 11, 30))),
        ("in 1 hour and 30 minutes", once(naive(2026, 3, 10, 11, 30))),
        ("in half an hour", once(naive(2026, 3, 10, 10, 30))),
        ("in an hour and a half", once(naive(2026, 3, 10, 11, 30))),
        ("in 1.5 hours", once(naive(2026, 3, 10, 11, 30))),
        ("in ten minutes", once(naive(2026, 3, 10, 10, 10))),
        (
            "twenty-five minutes from now",
            once(naive(2026, 3, 10, 10, 25)),
        ),
        ("in 2h30m", once(naive(2026, 3, 10, 12, 30))),
        ("in 2 weeks", once(naive(2026, 3, 24, 10, 0))),
        // Seconds are kept, not rounded to minutes.
        ("in 90 seconds", once(naive_s(2026, 3, 10, 10, 1, 30))),
        // A duration alone is from now.
        ("10 minutes", once(naive(2026, 3, 10, 10, 10))),
        ("2 hours", once(naive(2026, 3, 10, 12, 0))),
    ]);
}

#[test]
fn times_of_day_are_the_next_such_time() {
    check(&[
        ("at 5pm", once(naive(2026, 3, 10, 17, 0))),
        ("at 17:30", once(naive(2026, 3, 10, 17, 30))),
        ("5:30 pm", once(naive(2026, 3, 10, 17, 30))),
        ("5:30 p.m.", once(naive(2026, 3, 10, 17, 30))),
        ("at noon", once(naive(2026, 3, 10, 12, 0))),
        ("at 9 in the morning", once(naive(2026, 3, 11, 9, 0))),
        ("at 8 in the evening", once(naive(2026, 3, 10, 20, 0))),
        ("tonight at 8", once(naive(2026, 3, 10, 20, 0))),
        // Said at 10:00: 9:00 has passed today.
        ("at 9:00", once(naive(2026, 3, 11, 9, 0))),
    ]);
    // "at 5pm" said at 18:00 is tomorrow 17:00.
    let evening = local(BERLIN, 2026, 3, 10, 18, 0);
    assert_eq!(
        parse("at 5pm", evening, BERLIN),
        once(naive(2026, 3, 11, 17, 0))
    );
}

#[test]
fn days_and_dates() {
    check(&[
        ("tomorrow 9:00", once(naive(2026, 3, 11, 9, 0))),
        ("tomorrow at 9am", once(naive(2026, 3, 11, 9, 0))),
        ("9am tomorrow", once(naive(2026, 3, 11, 9, 0))),
        ("tomorrow morning at 9", once(naive(2026, 3, 11, 9, 0))),
        ("today at 18:00", once(naive(2026, 3, 10, 18, 0))),
        (
            "the day after tomorrow at 9",
            once(naive(2026, 3, 12, 9, 0)),
        ),
        ("tomorrow at midnight", once(naive(2026, 3, 12, 0, 0))),
        // Tuesday: the coming Friday.
        ("on friday at 10", once(naive(2026, 3, 13, 10, 0))),
        ("fri 10:00", once(naive(2026, 3, 13, 10, 0))),
        ("next monday 8:15", once(naive(2026, 3, 16, 8, 15))),
        ("this friday at 10", once(naive(2026, 3, 13, 10, 0))),
        // The same weekday later today, and next week once its time has passed.
        ("on tuesday at 11", once(naive(2026, 3, 10, 11, 0))),
        ("on tuesday at 9", once(naive(2026, 3, 17, 9, 0))),
        ("next tuesday at 11", once(naive(2026, 3, 17, 11, 0))),
        ("2026-12-24 18:00", once(naive(2026, 12, 24, 18, 0))),
        ("2026-12-24T18:00", once(naive(2026, 12, 24, 18, 0))),
        ("2026-12-24T18:00:00", once(naive(2026, 12, 24, 18, 0))),
        ("2026/12/24 18:00", once(naive(2026, 12, 24, 18, 0))),
        ("dec 24 at 18:00", once(naive(2026, 12, 24, 18, 0))),
        ("24 december 2027 at 6pm", once(naive(2027, 12, 24, 18, 0))),
        ("the 24th at 9", once(naive(2026, 3, 24, 9, 0))),
        // An offset gives an instant: 17:00 UTC is 18:00 in Berlin in winter.
        ("2026-12-24T17:00Z", once(naive(2026, 12, 24, 18, 0))),
        ("2026-12-24T18:00+01:00", once(naive(2026, 12, 24, 18, 0))),
        ("2026-12-24T12:00-05:00", once(naive(2026, 12, 24, 18, 0))),
    ]);
}

#[test]
fn repetitions() {
    check(&[
        ("every day at 8", Rule::Daily { time: hm(8, 0) }),
        ("daily at 8:00", Rule::Daily { time: hm(8, 0) }),
        ("everyday at 8am", Rule::Daily { time: hm(8, 0) }),
        ("every morning at 8", Rule::Daily { time: hm(8, 0) }),
        ("every evening at 7", Rule::Daily { time: hm(19, 0) }),
        ("every night at 10:30", Rule::Daily { time: hm(22, 30) }),
        ("every weekday at 9", Rule::Weekdays { time: hm(9, 0) }),
        ("weekdays at 9:00", Rule::Weekdays { time: hm(9, 0) }),
        (
            "every monday to friday at 9",
            Rule::Weekdays { time: hm(9, 0) },
        ),
        (
            "every monday and wednesday at 7pm",
            Rule::Weekly {
                days: vec![Mon, Wed],
                time: hm(19, 0),
            },
        ),
        (
            "every mon, wed, fri at 7:30",
            Rule::Weekly {
                days: vec![Mon, Wed, Fri],
                time: hm(7, 30),
            },
        ),
        (
            "every fri, mon and wed at 7:30",
            Rule::Weekly {
                days: vec![Mon, Wed, Fri],
                time: hm(7, 30),
            },
        ),
        (
            "mondays at 9",
            Rule::Weekly {
                days: vec![Mon],
                time: hm(9, 0),
            },
        ),
        (
            "every weekend at 10",
            Rule::Weekly {
                days: vec![chrono::Weekday::Sat, chrono::Weekday::Sun],
                time: hm(10, 0),
            },
        ),
        (
            "every 15 minutes",
            Rule::Every {
                step: Step::Minutes(15),
                from: now(),
            },
        ),
        (
            "every 2 hours",
            Rule::Every {
                step: Step::Hours(2),
                from: now(),
            },
        ),
        (
            "every 1 hour 30 minutes",
            Rule::Every {
                step: Step::Minutes(90),
                from: now(),
            },
        ),
        (
            "every minute",
            Rule::Every {
                step: Step::Minutes(1),
                from: now(),
            },
        ),
        (
            "hourly",
            Rule::Every {
                step: Step::Hours(1),
                from: now(),
            },
        ),
    ]);
}

#[test]
fn repetitions_by_days_weeks_months_years_become_rrules_from_their_first_firing() {
    check(&[
        (
            "every other day at 9",
            Rule::RRule {
                rule: "FREQ=DAILY;INTERVAL=2;BYHOUR=9;BYMINUTE=0".into(),
                start: naive(2026, 3, 11, 9, 0),
            },
        ),
        (
            "every 2 weeks on monday at 9",
            Rule::RRule {
                rule: "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO;BYHOUR=9;BYMINUTE=0".into(),
                start: naive(2026, 3, 16, 9, 0),
            },
        ),
        (
            "every month on the 1st and 15th at 9",
            Rule::RRule {
                rule: "FREQ=MONTHLY;BYMONTHDAY=1,15;BYHOUR=9;BYMINUTE=0".into(),
                start: naive(2026, 3, 15, 9, 0),
            },
        ),
        (
            "every year on dec 24 at 9",
            Rule::RRule {
                rule: "FREQ=YEARLY;BYMONTH=12;BYMONTHDAY=24;BYHOUR=9;BYMINUTE=0".into(),
                start: naive(2026, 12, 24, 9, 0),
            },
        ),
    ]);
}

#[test]
fn rrule_text_with_and_without_prefix() {
    let expected = Rule::RRule {
        rule: "FREQ=MONTHLY;BYMONTHDAY=1;BYHOUR=9;BYMINUTE=0".into(),
        // The first whole minute after now.
        start: naive(2026, 3, 10, 10, 1),
    };
    check(&[
        (
            "RRULE:FREQ=MONTHLY;BYMONTHDAY=1;BYHOUR=9;BYMINUTE=0",
            expected.clone(),
        ),
        (
            "FREQ=MONTHLY;BYMONTHDAY=1;BYHOUR=9;BYMINUTE=0",
            expected.clone(),
        ),
        (
            "rrule:freq=monthly;bymonthday=1;byhour=9;byminute=0;",
            expected,
        ),
        (
            "DTSTART:20260101T083000\nRRULE:FREQ=WEEKLY;BYDAY=MO",
            Rule::RRule {
                rule: "FREQ=WEEKLY;BYDAY=MO".into(),
                start: naive(2026, 1, 1, 8, 30),
            },
        ),
        (
            "DTSTART;TZID=America/New_York:20260101T083000 RRULE:FREQ=WEEKLY;BYDAY=MO",
            Rule::RRule {
                rule: "FREQ=WEEKLY;BYDAY=MO".into(),
                start: naive(2026, 1, 1, 14, 30),
            },
        ),
    ]);
}

#[test]
fn case_spaces_and_trailing_punctuation_do_not_matter() {
    check(&[
        ("  In 10 Minutes!  ", once(naive(2026, 3, 10, 10, 10))),
        ("IN   10   MINUTES.", once(naive(2026, 3, 10, 10, 10))),
        ("EVERY  Weekday AT 9.", Rule::Weekdays { time: hm(9, 0) }),
        ("Tomorrow at 9AM?", once(naive(2026, 3, 11, 9, 0))),
    ]);
}

#[test]
fn new_york_wall_times() {
    // Tuesday 2026-03-10, 10:00 EDT (UTC-4, two days after the change).
    let now = utc(2026, 3, 10, 14, 0);
    let rule = parse("tomorrow 9:00", now, NEW_YORK);
    assert_eq!(rule, once(naive(2026, 3, 11, 9, 0)));
    assert_eq!(
        rule.next_after(now, NEW_YORK),
        Some(utc(2026, 3, 11, 13, 0))
    );
    let rule = parse("every weekday at 9", now, NEW_YORK);
    assert_eq!(
        rule.next_after(now, NEW_YORK),
        Some(utc(2026, 3, 11, 13, 0))
    );
}

#[test]
fn tomorrow_is_the_next_calendar_day() {
    // Created at 23:59 local: the next day 09:00 (not the same day, not two days later).
    let late = local(BERLIN, 2026, 3, 10, 23, 59);
    assert_eq!(
        parse("tomorrow 9:00", late, BERLIN),
        once(naive(2026, 3, 11, 9, 0))
    );
    // Created at 00:01: tomorrow is the day after this one.
    let early = local(BERLIN, 2026, 3, 11, 0, 1);
    assert_eq!(
        parse("tomorrow 9:00", early, BERLIN),
        once(naive(2026, 3, 12, 9, 0))
    );
    assert_eq!(
        parse("明天9点", early, BERLIN),
        once(naive(2026, 3, 12, 9, 0))
    );
}
