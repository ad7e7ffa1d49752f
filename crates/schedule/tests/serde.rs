//! The JSON of each kind is tagged, stable and round-trips.

mod common;

use chrono::Weekday::{Mon, Wed};
use common::*;
use deskmate_schedule::{Rule, Step};
use serde_json::json;

fn round_trip(rule: Rule, expected: serde_json::Value) {
    let value = serde_json::to_value(&rule).expect("serializes");
    assert_eq!(value, expected, "{rule:?}");
    let text = serde_json::to_string(&rule).expect("serializes");
    let back: Rule = serde_json::from_str(&text).expect("deserializes");
    assert_eq!(back, rule);
}

#[test]
fn every_kind_round_trips_with_a_stable_tagged_json() {
    round_trip(
        once(naive(2026, 12, 4, 9, 0)),
        json!({"kind": "once", "at": "2026-12-04T09:00:00"}),
    );
    round_trip(
        Rule::Once {
            at: naive(2026, 10, 25, 2, 5),
            fold: true,
        },
        json!({"kind": "once", "at": "2026-10-25T02:05:00", "fold": true}),
    );
    round_trip(
        Rule::Daily { time: hm(8, 0) },
        json!({"kind": "daily", "time": "08:00:00"}),
    );
    round_trip(
        Rule::Weekdays { time: hm(9, 30) },
        json!({"kind": "weekdays", "time": "09:30:00"}),
    );
    round_trip(
        Rule::Weekly {
            days: vec![Mon, Wed],
            time: hm(19, 0),
        },
        json!({"kind": "weekly", "days": ["Mon", "Wed"], "time": "19:00:00"}),
    );
    round_trip(
        Rule::Every {
            step: Step::Minutes(15),
            from: utc(2026, 3, 10, 9, 0),
        },
        json!({"kind": "every", "step": {"minutes": 15}, "from": "2026-03-10T09:00:00Z"}),
    );
    round_trip(
        Rule::Every {
            step: Step::Hours(2),
            from: utc(2026, 3, 10, 9, 0),
        },
        json!({"kind": "every", "step": {"hours": 2}, "from": "2026-03-10T09:00:00Z"}),
    );
    round_trip(
        Rule::RRule {
            rule: "FREQ=MONTHLY;BYMONTHDAY=1;BYHOUR=9;BYMINUTE=0".into(),
            start: naive(2026, 3, 10, 10, 1),
        },
        json!({
            "kind": "rrule",
            "rule": "FREQ=MONTHLY;BYMONTHDAY=1;BYHOUR=9;BYMINUTE=0",
            "start": "2026-03-10T10:01:00"
        }),
    );
}

#[test]
fn parsed_rules_round_trip() {
    let now = utc(2026, 3, 10, 9, 0);
    for expr in [
        "in 90 seconds",
        "every mon, wed, fri at 7:30",
        "每15分钟",
        "every other day at 9",
        "RRULE:FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29;BYHOUR=9;BYMINUTE=0",
    ] {
        let rule = parse(expr, now, SHANGHAI);
        let text = serde_json::to_string(&rule).expect("serializes");
        let back: Rule = serde_json::from_str(&text).expect("deserializes");
        assert_eq!(back, rule, "{expr}");
        assert_eq!(
            back.next_after(now, SHANGHAI),
            rule.next_after(now, SHANGHAI)
        );
    }
}

#[test]
fn unknown_kinds_and_steps_are_refused() {
    assert!(serde_json::from_str::<Rule>(r#"{"kind":"sometimes","time":"08:00:00"}"#).is_err());
    assert!(serde_json::from_str::<Rule>(r#"{"time":"08:00:00"}"#).is_err());
    assert!(
        serde_json::from_str::<Rule>(
            r#"{"kind":"every","step":{"seconds":5},"from":"2026-03-10T09:00:00Z"}"#
        )
        .is_err()
    );
}
