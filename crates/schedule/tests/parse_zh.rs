//! Chinese expressions parse to the expected rules.

mod common;

use chrono::Weekday::{Fri, Mon, Sat, Sun, Wed};
use common::*;
use deskmate_schedule::{Rule, Step};

/// Tuesday 2026-03-10, 10:00 in Shanghai (UTC+8).
fn now() -> chrono::DateTime<chrono::Utc> {
    utc(2026, 3, 10, 2, 0)
}

fn check(cases: &[(&str, Rule)]) {
    for (expr, expected) in cases {
        assert_eq!(&parse(expr, now(), SHANGHAI), expected, "{expr}");
    }
}

#[test]
fn durations() {
    check(&[
        ("10分钟后", once(naive(2026, 3, 10, 10, 10))),
        ("10分钟", once(naive(2026, 3, 10, 10, 10))),
        ("十分钟后", once(naive(2026, 3, 10, 10, 10))),
        ("两小时后", once(naive(2026, 3, 10, 12, 0))),
        ("1小时30分钟后", once(naive(2026, 3, 10, 11, 30))),
        ("一小时三十分后", once(naive(2026, 3, 10, 11, 30))),
        ("半小时后", once(naive(2026, 3, 10, 10, 30))),
        ("一个半小时后", once(naive(2026, 3, 10, 11, 30))),
        ("两个小时以后", once(naive(2026, 3, 10, 12, 0))),
        ("一刻钟后", once(naive(2026, 3, 10, 10, 15))),
        ("过10分钟", once(naive(2026, 3, 10, 10, 10))),
        ("３０秒后", once(naive_s(2026, 3, 10, 10, 0, 30))),
        ("二十五分钟后", once(naive(2026, 3, 10, 10, 25))),
    ]);
}

#[test]
fn days_and_times() {
    check(&[
        ("明天早上9点", once(naive(2026, 3, 11, 9, 0))),
        ("明天9:00", once(naive(2026, 3, 11, 9, 0))),
        ("明天９：００", once(naive(2026, 3, 11, 9, 0))),
        ("今天下午5点", once(naive(2026, 3, 10, 17, 0))),
        ("下午5点半", once(naive(2026, 3, 10, 17, 30))),
        ("晚上8点", once(naive(2026, 3, 10, 20, 0))),
        ("后天上午10点", once(naive(2026, 3, 12, 10, 0))),
        ("大后天上午10点", once(naive(2026, 3, 13, 10, 0))),
        ("周五10点", once(naive(2026, 3, 13, 10, 0))),
        ("星期五上午10点", once(naive(2026, 3, 13, 10, 0))),
        ("礼拜天上午10点", once(naive(2026, 3, 15, 10, 0))),
        ("下周一8点15分", once(naive(2026, 3, 16, 8, 15))),
        ("下个星期三下午3点", once(naive(2026, 3, 18, 15, 0))),
        ("这周五9点", once(naive(2026, 3, 13, 9, 0))),
        ("9点30分", once(naive(2026, 3, 11, 9, 30))),
        ("9点30", once(naive(2026, 3, 11, 9, 30))),
        ("十点一刻", once(naive(2026, 3, 10, 10, 15))),
        ("八点零五分", once(naive(2026, 3, 11, 8, 5))),
        ("明晚8点", once(naive(2026, 3, 11, 20, 0))),
        ("凌晨2点", once(naive(2026, 3, 11, 2, 0))),
        ("中午12点", once(naive(2026, 3, 10, 12, 0))),
        ("中午1点", once(naive(2026, 3, 10, 13, 0))),
        ("下午17点", once(naive(2026, 3, 10, 17, 0))),
        // 晚上12点 is 00:00 of the next day.
        ("晚上12点", once(naive(2026, 3, 11, 0, 0))),
        ("今天晚上12点", once(naive(2026, 3, 11, 0, 0))),
        ("明天晚上12点", once(naive(2026, 3, 12, 0, 0))),
        ("12月24日晚上6点", once(naive(2026, 12, 24, 18, 0))),
        ("2026年12月24日18:00", once(naive(2026, 12, 24, 18, 0))),
        ("24号9点", once(naive(2026, 3, 24, 9, 0))),
    ]);
}

#[test]
fn repetitions() {
    check(&[
        ("每天8点", Rule::Daily { time: hm(8, 0) }),
        ("每天早上8点", Rule::Daily { time: hm(8, 0) }),
        ("每天晚上9点半", Rule::Daily { time: hm(21, 30) }),
        ("每个工作日9点", Rule::Weekdays { time: hm(9, 0) }),
        ("工作日每天9点", Rule::Weekdays { time: hm(9, 0) }),
        ("周一至周五9点", Rule::Weekdays { time: hm(9, 0) }),
        ("每周一到五8点", Rule::Weekdays { time: hm(8, 0) }),
        (
            "每周一和周三晚上7点",
            Rule::Weekly {
                days: vec![Mon, Wed],
                time: hm(19, 0),
            },
        ),
        (
            "每周一、三、五 7:30",
            Rule::Weekly {
                days: vec![Mon, Wed, Fri],
                time: hm(7, 30),
            },
        ),
        (
            "每周六日10点",
            Rule::Weekly {
                days: vec![Sat, Sun],
                time: hm(10, 0),
            },
        ),
        (
            "每周末10点",
            Rule::Weekly {
                days: vec![Sat, Sun],
                time: hm(10, 0),
            },
        ),
        // Friday night at 12 is Saturday 00:00.
        (
            "每周五晚上12点",
            Rule::Weekly {
                days: vec![Sat],
                time: hm(0, 0),
            },
        ),
        (
            "每15分钟",
            Rule::Every {
                step: Step::Minutes(15),
                from: now(),
            },
        ),
        (
            "每隔2小时",
            Rule::Every {
                step: Step::Hours(2),
                from: now(),
            },
        ),
        (
            "每小时",
            Rule::Every {
                step: Step::Hours(1),
                from: now(),
            },
        ),
        (
            "每两个半小时",
            Rule::Every {
                step: Step::Minutes(150),
                from: now(),
            },
        ),
        (
            "每月1号9点",
            Rule::RRule {
                rule: "FREQ=MONTHLY;BYMONTHDAY=1;BYHOUR=9;BYMINUTE=0".into(),
                start: naive(2026, 4, 1, 9, 0),
            },
        ),
    ]);
}
