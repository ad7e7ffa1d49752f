//! Properties: next_after is strictly after its input and increasing, for random rules,
//! zones and instants; parse never panics.

mod common;

use chrono::{DateTime, NaiveDate, NaiveTime, TimeDelta, Utc, Weekday};
use chrono_tz::Tz;
use common::*;
use deskmate_schedule::{Lang, Rule, Step};
use proptest::prelude::*;

const ZONES: [Tz; 9] = [
    chrono_tz::Europe::Berlin,
    chrono_tz::America::New_York,
    chrono_tz::Asia::Shanghai,
    chrono_tz::Australia::Lord_Howe,
    chrono_tz::Pacific::Apia,
    chrono_tz::America::Sao_Paulo,
    chrono_tz::Asia::Kolkata,
    chrono_tz::America::St_Johns,
    chrono_tz::UTC,
];

fn zone() -> impl Strategy<Value = Tz> {
    (0..ZONES.len()).prop_map(|i| ZONES[i])
}

/// 2000 to 2040, to the second.
fn instant() -> impl Strategy<Value = DateTime<Utc>> {
    (946_684_800i64..2_208_988_800).prop_map(|s| DateTime::from_timestamp(s, 0).unwrap_or_default())
}

fn time() -> impl Strategy<Value = NaiveTime> {
    (0u32..24, 0u32..60, prop_oneof![Just(0u32), 0u32..60])
        .prop_map(|(h, m, s)| NaiveTime::from_hms_opt(h, m, s).unwrap_or_default())
}

fn wall() -> impl Strategy<Value = chrono::NaiveDateTime> {
    (instant(), time()).prop_map(|(t, time)| t.naive_utc().date().and_time(time))
}

const RRULES: [&str; 12] = [
    "FREQ=DAILY;BYHOUR={h};BYMINUTE={m}",
    "FREQ=DAILY;INTERVAL={n};BYHOUR={h};BYMINUTE={m}",
    "FREQ=WEEKLY;BYDAY=MO,TH;BYHOUR={h};BYMINUTE={m}",
    "FREQ=WEEKLY;INTERVAL={n};BYDAY=SU",
    "FREQ=MONTHLY;BYMONTHDAY={d};BYHOUR={h};BYMINUTE={m}",
    "FREQ=MONTHLY;BYDAY=-1FR;BYHOUR={h};BYMINUTE={m}",
    "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29;BYHOUR={h};BYMINUTE={m}",
    "FREQ=HOURLY;INTERVAL={n};BYMINUTE={m}",
    "FREQ=MINUTELY;INTERVAL={n}0",
    "FREQ=DAILY;COUNT={n}0;BYHOUR={h},{h2}",
    "FREQ=MONTHLY;INTERVAL={n};BYMONTHDAY=31;BYHOUR={h}",
    "FREQ=DAILY;BYHOUR={h};BYMINUTE={m};UNTIL=20300101T000000Z",
];

fn rrule() -> impl Strategy<Value = Rule> {
    (
        0..RRULES.len(),
        1u32..5,
        0u32..24,
        0u32..24,
        0u32..60,
        1u32..32,
        wall(),
    )
        .prop_map(|(i, n, h, h2, m, d, start)| Rule::RRule {
            rule: RRULES[i]
                .replace("{n}", &n.to_string())
                .replace("{h2}", &h2.to_string())
                .replace("{h}", &h.to_string())
                .replace("{m}", &m.to_string())
                .replace("{d}", &d.to_string()),
            start,
        })
}

fn rule() -> impl Strategy<Value = Rule> {
    prop_oneof![
        (wall(), any::<bool>()).prop_map(|(at, fold)| Rule::Once { at, fold }),
        time().prop_map(|time| Rule::Daily { time }),
        time().prop_map(|time| Rule::Weekdays { time }),
        (prop::collection::btree_set(0u8..7, 1..7), time()).prop_map(|(days, time)| {
            Rule::Weekly {
                days: days
                    .into_iter()
                    .map(|n| Weekday::try_from(n).unwrap_or(Weekday::Mon))
                    .collect(),
                time,
            }
        }),
        (1u32..2000, any::<bool>(), instant()).prop_map(|(n, hours, from)| Rule::Every {
            step: if hours {
                Step::Hours(n % 48 + 1)
            } else {
                Step::Minutes(n)
            },
            from,
        }),
        rrule(),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn next_after_is_strictly_after_and_increasing(
        rule in rule(),
        tz in zone(),
        start in instant(),
    ) {
        let mut t = start;
        for _ in 0..6 {
            let Some(next) = rule.next_after(t, tz) else { break };
            prop_assert!(next > t, "{rule:?} in {tz}: {next} is not after {t}");
            t = next;
        }
    }

    #[test]
    fn next_after_is_monotonic(
        rule in rule(),
        tz in zone(),
        a in instant(),
        gap in 0i64..(3 * 86_400),
    ) {
        let b = a + TimeDelta::seconds(gap);
        match (rule.next_after(a, tz), rule.next_after(b, tz)) {
            (Some(na), Some(nb)) => prop_assert!(na <= nb, "{rule:?} in {tz}: {na} > {nb}"),
            (None, Some(nb)) => prop_assert!(false, "{rule:?} in {tz}: none after {a}, {nb} after {b}"),
            _ => {}
        }
    }

    #[test]
    fn no_firing_is_skipped(rule in rule(), tz in zone(), a in instant()) {
        // The firing after `a` is also the firing after any instant between `a` and it.
        if let Some(next) = rule.next_after(a, tz) {
            let mid = a + (next - a) / 2;
            prop_assert_eq!(rule.next_after(mid, tz), Some(next));
            prop_assert_eq!(rule.next_after(next - TimeDelta::seconds(1), tz), Some(next));
        }
    }

    #[test]
    fn parse_never_panics_on_any_text(text in any::<String>(), now in instant(), tz in zone()) {
        let _ = Rule::parse(&text, now, tz);
    }

    #[test]
    fn parse_never_panics_on_near_misses(
        words in prop::collection::vec(prop::sample::select(VOCABULARY.to_vec()), 0..8),
        now in instant(),
        tz in zone(),
    ) {
        let text = words.join(" ");
        if let Ok(rule) = Rule::parse(&text, now, tz) {
            // Whatever parses fires after now, at least once.
            prop_assert!(rule.next_after(now, tz).is_some(), "'{text}' → {rule:?}");
        }
        let glued = words.concat();
        let _ = Rule::parse(&glued, now, tz);
    }
}

const RRULE_KEYS: [&str; 14] = [
    "FREQ",
    "INTERVAL",
    "COUNT",
    "UNTIL",
    "BYMONTH",
    "BYWEEKNO",
    "BYYEARDAY",
    "BYMONTHDAY",
    "BYDAY",
    "BYHOUR",
    "BYMINUTE",
    "BYSECOND",
    "BYSETPOS",
    "WKST",
];

const RRULE_VALUES: [&str; 24] = [
    "0",
    "1",
    "2",
    "-1",
    "7",
    "23",
    "31",
    "53",
    "59",
    "366",
    "-366",
    "65535",
    "99999999999",
    "MO",
    "1MO,-1FR",
    "-5SU",
    "MO,TU,WE,TH,FR",
    "20260101",
    "20300101T000000Z",
    "DAILY",
    "MINUTELY",
    "HOURLY",
    "YEARLY",
    "1,15,-1",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    #[test]
    fn rrule_text_never_panics(
        freq in prop::sample::select(vec!["DAILY", "WEEKLY", "MONTHLY", "YEARLY", "HOURLY", "MINUTELY"]),
        parts in prop::collection::vec(
            (prop::sample::select(RRULE_KEYS.to_vec()), prop::sample::select(RRULE_VALUES.to_vec())),
            0..5,
        ),
        now in instant(),
        tz in zone(),
    ) {
        let mut text = format!("RRULE:FREQ={freq}");
        for (k, v) in &parts {
            text.push_str(&format!(";{k}={v}"));
        }
        if let Ok(rule) = Rule::parse(&text, now, tz) {
            prop_assert!(rule.describe(tz, Lang::Zh).starts_with('每'));
            let first = rule.next_after(now, tz);
            prop_assert!(first.is_some(), "'{text}' parsed but never fires");
            let mut t = now;
            for _ in 0..3 {
                let Some(next) = rule.next_after(t, tz) else { break };
                prop_assert!(next > t);
                t = next;
            }
        }
    }
}

proptest! {
    #[test]
    fn any_rrule_text_never_panics(
        text in any::<String>(),
        now in instant(),
        start in wall(),
        tz in zone(),
    ) {
        let _ = Rule::parse(&format!("RRULE:{text}"), now, tz);
        let _ = Rule::parse(&format!("DTSTART:{text}"), now, tz);
        let stored = Rule::RRule { rule: text, start };
        let _ = stored.next_after(now, tz);
        let _ = stored.describe(tz, Lang::En);
    }
}

const VOCABULARY: [&str; 66] = [
    "in",
    "at",
    "on",
    "every",
    "each",
    "next",
    "this",
    "and",
    ",",
    "-",
    "to",
    "tomorrow",
    "today",
    "tonight",
    "noon",
    "midnight",
    "am",
    "pm",
    "a",
    "an",
    "half",
    "other",
    "0",
    "1",
    "2",
    "9",
    "12",
    "24",
    "30",
    "60",
    "99",
    "366",
    "1.5",
    "9:30",
    "25:00",
    "2026-02-29",
    "2028-02-29",
    "minutes",
    "hours",
    "days",
    "weeks",
    "months",
    "seconds",
    "monday",
    "fri",
    "weekdays",
    "weekend",
    "dec",
    "1st",
    "31st",
    "每",
    "每隔",
    "天",
    "周一",
    "、",
    "三",
    "点",
    "半",
    "下午",
    "晚上",
    "十二",
    "后",
    "下",
    "号",
    "月",
    "RRULE:FREQ=DAILY",
];

#[test]
fn a_few_fixed_rules_fire_in_each_zone() {
    for tz in ZONES {
        let now = utc(2026, 3, 10, 9, 0);
        for rule in [
            Rule::Daily { time: hm(2, 30) },
            Rule::Weekdays { time: hm(0, 0) },
            Rule::RRule {
                rule: "FREQ=DAILY;BYHOUR=2;BYMINUTE=30".into(),
                start: NaiveDate::from_ymd_opt(2026, 1, 1)
                    .and_then(|d| d.and_hms_opt(0, 0, 0))
                    .unwrap_or_default(),
            },
        ] {
            let times = firings(&rule, now, tz, 400);
            assert_eq!(times.len(), 400, "{rule:?} in {tz}");
            assert!(times.windows(2).all(|w| w[0] < w[1]));
        }
    }
}
