//! Next firings: each kind, DST in Europe/Berlin and America/New_York, leap days.

mod common;

use chrono::Weekday::{Mon, Wed};
use chrono::{TimeDelta, Timelike};
use common::*;
use deskmate_schedule::{Rule, Step};

#[test]
fn once_fires_once_strictly_after() {
    let rule = once(naive(2026, 3, 10, 18, 0));
    let at = local(BERLIN, 2026, 3, 10, 18, 0);
    assert_eq!(rule.next_after(utc(2026, 3, 10, 9, 0), BERLIN), Some(at));
    // Strictly after: not at the instant itself.
    assert_eq!(rule.next_after(at, BERLIN), None);
    assert_eq!(
        rule.next_after(at - TimeDelta::seconds(1), BERLIN),
        Some(at)
    );
    assert_eq!(rule.next_after(at + TimeDelta::days(1), BERLIN), None);
}

#[test]
fn after_a_duration() {
    let now = utc(2026, 3, 10, 9, 0);
    let rule = parse("in 10 minutes", now, BERLIN);
    let first = rule.next_after(now, BERLIN);
    assert_eq!(first, Some(now + TimeDelta::minutes(10)));
    assert_eq!(rule.next_after(now + TimeDelta::minutes(10), BERLIN), None);
    let rule = parse("10分钟后", now, SHANGHAI);
    assert_eq!(
        rule.next_after(now, SHANGHAI),
        Some(now + TimeDelta::minutes(10))
    );
}

#[test]
fn daily() {
    let rule = Rule::Daily { time: hm(9, 0) };
    // 10:00 local: tomorrow; 08:00 local: today.
    assert_eq!(
        firings(&rule, local(BERLIN, 2026, 3, 10, 10, 0), BERLIN, 2),
        vec![
            local(BERLIN, 2026, 3, 11, 9, 0),
            local(BERLIN, 2026, 3, 12, 9, 0)
        ]
    );
    assert_eq!(
        rule.next_after(local(BERLIN, 2026, 3, 10, 8, 0), BERLIN),
        Some(local(BERLIN, 2026, 3, 10, 9, 0))
    );
}

#[test]
fn weekdays_skip_the_weekend() {
    let rule = Rule::Weekdays { time: hm(9, 0) };
    // Friday 10:00 → Monday 09:00, Tuesday 09:00.
    assert_eq!(
        firings(&rule, local(SHANGHAI, 2026, 3, 13, 10, 0), SHANGHAI, 2),
        vec![
            local(SHANGHAI, 2026, 3, 16, 9, 0),
            local(SHANGHAI, 2026, 3, 17, 9, 0)
        ]
    );
}

#[test]
fn weekly_on_some_days() {
    let rule = Rule::Weekly {
        days: vec![Mon, Wed],
        time: hm(19, 0),
    };
    // Tuesday 2026-03-10 → Wed 11th, Mon 16th, Wed 18th.
    assert_eq!(
        firings(&rule, local(NEW_YORK, 2026, 3, 10, 10, 0), NEW_YORK, 3),
        vec![
            local(NEW_YORK, 2026, 3, 11, 19, 0),
            local(NEW_YORK, 2026, 3, 16, 19, 0),
            local(NEW_YORK, 2026, 3, 18, 19, 0)
        ]
    );
    // An empty list (only from storage) never fires.
    let empty = Rule::Weekly {
        days: vec![],
        time: hm(9, 0),
    };
    assert_eq!(empty.next_after(utc(2026, 3, 10, 0, 0), BERLIN), None);
}

#[test]
fn every_n_counts_from_its_anchor() {
    let from = utc(2026, 3, 10, 9, 0);
    let rule = Rule::Every {
        step: Step::Minutes(15),
        from,
    };
    assert_eq!(rule.next_after(from, BERLIN), Some(utc(2026, 3, 10, 9, 15)));
    assert_eq!(
        rule.next_after(utc(2026, 3, 10, 9, 20), BERLIN),
        Some(utc(2026, 3, 10, 9, 30))
    );
    assert_eq!(
        rule.next_after(utc(2026, 3, 10, 9, 30), BERLIN),
        Some(utc(2026, 3, 10, 9, 45))
    );
    // Before the anchor: one step after it.
    assert_eq!(
        rule.next_after(utc(2026, 3, 1, 0, 0), BERLIN),
        Some(utc(2026, 3, 10, 9, 15))
    );
    // Long after: still on the grid.
    assert_eq!(
        rule.next_after(utc(2027, 1, 1, 0, 7), BERLIN),
        Some(utc(2027, 1, 1, 0, 15))
    );
    let zero = Rule::Every {
        step: Step::Hours(0),
        from,
    };
    assert_eq!(zero.next_after(from, BERLIN), None);
}

#[test]
fn every_n_keeps_elapsed_time_across_dst() {
    // 2026-03-29 01:00 CET; the clocks jump from 02:00 to 03:00.
    let from = local(BERLIN, 2026, 3, 29, 1, 0);
    let rule = Rule::Every {
        step: Step::Hours(2),
        from,
    };
    let times = firings(&rule, from, BERLIN, 3);
    assert_eq!(
        times,
        vec![
            from + TimeDelta::hours(2),
            from + TimeDelta::hours(4),
            from + TimeDelta::hours(6)
        ]
    );
    // Elapsed time, not wall time: 01:00 → 04:00 on the wall.
    assert_eq!(times[0].with_timezone(&BERLIN).hour(), 4);
    // Fall back in New York (2026-11-01 02:00 EDT → 01:00 EST): 00:30 → 01:30 EDT → 01:30 EST.
    let from = local(NEW_YORK, 2026, 11, 1, 0, 30);
    let rule = Rule::Every {
        step: Step::Hours(1),
        from,
    };
    let times = firings(&rule, from, NEW_YORK, 2);
    assert_eq!(
        times,
        vec![utc(2026, 11, 1, 5, 30), utc(2026, 11, 1, 6, 30)]
    );
    assert_eq!(times[0].with_timezone(&NEW_YORK).hour(), 1);
    assert_eq!(times[1].with_timezone(&NEW_YORK).hour(), 1);
}

#[test]
fn rrule_monthly_and_count() {
    let now = utc(2026, 3, 10, 9, 0);
    let rule = parse(
        "RRULE:FREQ=MONTHLY;BYMONTHDAY=1;BYHOUR=9;BYMINUTE=0",
        now,
        BERLIN,
    );
    // 09:00 CEST is 07:00 UTC.
    assert_eq!(
        firings(&rule, now, BERLIN, 3),
        vec![
            utc(2026, 4, 1, 7, 0),
            utc(2026, 5, 1, 7, 0),
            utc(2026, 6, 1, 7, 0)
        ]
    );
    let rule = parse("RRULE:FREQ=DAILY;COUNT=2;BYHOUR=9;BYMINUTE=0", now, BERLIN);
    assert_eq!(
        firings(&rule, now, BERLIN, 5),
        vec![utc(2026, 3, 11, 8, 0), utc(2026, 3, 12, 8, 0)]
    );
    let rule = parse(
        "FREQ=WEEKLY;BYDAY=MO;BYHOUR=8;BYMINUTE=0;UNTIL=20260323T235959",
        now,
        BERLIN,
    );
    assert_eq!(
        firings(&rule, now, BERLIN, 5),
        vec![utc(2026, 3, 16, 7, 0), utc(2026, 3, 23, 7, 0)]
    );
}

#[test]
fn rrule_minutely_years_after_its_start_is_quick_and_on_the_grid() {
    let rule = Rule::RRule {
        rule: "FREQ=MINUTELY;INTERVAL=7".into(),
        start: naive(2026, 1, 1, 0, 0),
    };
    // 2030-01-01 00:00 is 2 103 840 minutes after the start, a multiple of 7 plus 4.
    let after = local(SHANGHAI, 2030, 1, 1, 0, 0);
    assert_eq!(
        rule.next_after(after, SHANGHAI),
        Some(local(SHANGHAI, 2030, 1, 1, 0, 3))
    );
}

#[test]
fn daily_nine_stays_nine_across_dst_in_berlin() {
    let rule = Rule::Daily { time: hm(9, 0) };
    // Spring forward on 2026-03-29: 08:00 UTC → 07:00 UTC.
    assert_eq!(
        firings(&rule, utc(2026, 3, 27, 0, 0), BERLIN, 4),
        vec![
            utc(2026, 3, 27, 8, 0),
            utc(2026, 3, 28, 8, 0),
            utc(2026, 3, 29, 7, 0),
            utc(2026, 3, 30, 7, 0)
        ]
    );
    // Fall back on 2026-10-25: 07:00 UTC → 08:00 UTC.
    assert_eq!(
        firings(&rule, utc(2026, 10, 23, 12, 0), BERLIN, 3),
        vec![
            utc(2026, 10, 24, 7, 0),
            utc(2026, 10, 25, 8, 0),
            utc(2026, 10, 26, 8, 0)
        ]
    );
}

#[test]
fn daily_nine_stays_nine_across_dst_in_new_york() {
    let rule = Rule::Daily { time: hm(9, 0) };
    // 2026-03-08: EST (UTC-5) → EDT (UTC-4).
    assert_eq!(
        firings(&rule, utc(2026, 3, 7, 0, 0), NEW_YORK, 3),
        vec![
            utc(2026, 3, 7, 14, 0),
            utc(2026, 3, 8, 13, 0),
            utc(2026, 3, 9, 13, 0)
        ]
    );
    // 2026-11-01: EDT → EST.
    assert_eq!(
        firings(&rule, utc(2026, 10, 31, 0, 0), NEW_YORK, 3),
        vec![
            utc(2026, 10, 31, 13, 0),
            utc(2026, 11, 1, 14, 0),
            utc(2026, 11, 2, 14, 0)
        ]
    );
    // The same through a weekdays rule and an RRULE.
    let rule = Rule::Weekdays { time: hm(9, 0) };
    assert_eq!(
        rule.next_after(utc(2026, 3, 7, 0, 0), NEW_YORK),
        Some(utc(2026, 3, 9, 13, 0))
    );
    let rule = Rule::RRule {
        rule: "FREQ=DAILY;BYHOUR=9;BYMINUTE=0".into(),
        start: naive(2026, 3, 1, 0, 0),
    };
    assert_eq!(
        firings(&rule, utc(2026, 3, 7, 0, 0), NEW_YORK, 2),
        vec![utc(2026, 3, 7, 14, 0), utc(2026, 3, 8, 13, 0)]
    );
}

#[test]
fn a_wall_time_in_the_spring_gap_fires_at_the_end_of_the_gap() {
    let rule = Rule::Daily { time: hm(2, 30) };
    // 2026-03-29 02:30 does not exist in Berlin: 03:00 CEST (01:00 UTC).
    assert_eq!(
        firings(&rule, utc(2026, 3, 27, 12, 0), BERLIN, 3),
        vec![
            utc(2026, 3, 28, 1, 30),
            utc(2026, 3, 29, 1, 0),
            utc(2026, 3, 30, 0, 30)
        ]
    );
    let fired = utc(2026, 3, 29, 1, 0).with_timezone(&BERLIN);
    assert_eq!((fired.hour(), fired.minute()), (3, 0));
    // Also for a one-time rule and an RRULE (several occurrences in the gap fire once).
    let rule = once(naive(2026, 3, 29, 2, 30));
    assert_eq!(
        rule.next_after(utc(2026, 3, 28, 0, 0), BERLIN),
        Some(utc(2026, 3, 29, 1, 0))
    );
    let rule = Rule::RRule {
        rule: "FREQ=MINUTELY;INTERVAL=20".into(),
        start: naive(2026, 3, 29, 1, 40),
    };
    assert_eq!(
        firings(&rule, utc(2026, 3, 29, 0, 0), BERLIN, 4),
        vec![
            utc(2026, 3, 29, 0, 40), // 01:40 CET
            utc(2026, 3, 29, 1, 0),  // 02:00, 02:20, 02:40 → 03:00 CEST, once
            utc(2026, 3, 29, 1, 20), // 03:20 CEST
            utc(2026, 3, 29, 1, 40),
        ]
    );
}

#[test]
fn a_wall_time_in_the_autumn_fold_fires_once_at_the_earlier_instant() {
    let rule = Rule::Daily { time: hm(2, 30) };
    // 2026-10-25 02:30 happens twice in Berlin (00:30 and 01:30 UTC): only the first.
    assert_eq!(
        firings(&rule, utc(2026, 10, 24, 12, 0), BERLIN, 2),
        vec![utc(2026, 10, 25, 0, 30), utc(2026, 10, 26, 1, 30)]
    );
    assert_eq!(
        rule.next_after(utc(2026, 10, 25, 0, 30), BERLIN),
        Some(utc(2026, 10, 26, 1, 30))
    );
    let rule = once(naive(2026, 10, 25, 2, 30));
    assert_eq!(
        rule.next_after(utc(2026, 10, 24, 0, 0), BERLIN),
        Some(utc(2026, 10, 25, 0, 30))
    );
}

#[test]
fn a_duration_into_the_second_pass_of_the_fold_keeps_its_instant() {
    // 02:55 CEST on 2026-10-25; ten minutes later it is 02:05 CET.
    let now = utc(2026, 10, 25, 0, 55);
    let rule = parse("in 10 minutes", now, BERLIN);
    assert_eq!(
        rule,
        Rule::Once {
            at: naive(2026, 10, 25, 2, 5),
            fold: true
        }
    );
    assert_eq!(rule.next_after(now, BERLIN), Some(utc(2026, 10, 25, 1, 5)));
}

#[test]
fn leap_days() {
    let now = utc(2026, 3, 10, 9, 0);
    let rule = parse("2028-02-29 09:00", now, BERLIN);
    assert_eq!(rule, once(naive(2028, 2, 29, 9, 0)));
    assert_eq!(rule.next_after(now, BERLIN), Some(utc(2028, 2, 29, 8, 0)));
    let rule = parse(
        "RRULE:FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29;BYHOUR=9;BYMINUTE=0",
        now,
        BERLIN,
    );
    assert_eq!(
        firings(&rule, now, BERLIN, 2),
        vec![utc(2028, 2, 29, 8, 0), utc(2032, 2, 29, 8, 0)]
    );
    // Without a year: the next Feb 29.
    assert_eq!(
        parse("2月29日9点", now, SHANGHAI),
        once(naive(2028, 2, 29, 9, 0))
    );
}

#[test]
fn bare_time_said_after_it_is_tomorrow() {
    let evening = local(BERLIN, 2026, 3, 10, 18, 0);
    let rule = parse("at 5pm", evening, BERLIN);
    assert_eq!(
        rule.next_after(evening, BERLIN),
        Some(local(BERLIN, 2026, 3, 11, 17, 0))
    );
}
