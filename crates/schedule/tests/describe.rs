//! Rules in words, English and Chinese, for each kind.

mod common;

use chrono::Weekday::{Fri, Mon, Sat, Sun, Wed};
use common::*;
use deskmate_schedule::{Lang, Rule, Step};

fn both(rule: &Rule) -> (String, String) {
    (
        rule.describe(BERLIN, Lang::En),
        rule.describe(BERLIN, Lang::Zh),
    )
}

fn check(rule: Rule, en: &str, zh: &str) {
    assert_eq!(both(&rule), (en.to_string(), zh.to_string()), "{rule:?}");
}

#[test]
fn each_kind_in_both_languages() {
    check(
        once(naive(2026, 12, 4, 9, 0)),
        "once on 2026-12-04 09:00",
        "2026-12-04 09:00（一次）",
    );
    check(
        once(naive_s(2026, 3, 10, 10, 1, 30)),
        "once on 2026-03-10 10:01:30",
        "2026-03-10 10:01:30（一次）",
    );
    check(
        Rule::Daily { time: hm(8, 0) },
        "every day at 08:00",
        "每天 08:00",
    );
    check(
        Rule::Weekdays { time: hm(9, 0) },
        "weekdays at 09:00",
        "每个工作日 09:00",
    );
    check(
        Rule::Weekly {
            days: vec![Mon],
            time: hm(9, 0),
        },
        "every Monday at 09:00",
        "每周一 09:00",
    );
    check(
        Rule::Weekly {
            days: vec![Mon, Wed],
            time: hm(19, 0),
        },
        "every Monday and Wednesday at 19:00",
        "每周一、周三 19:00",
    );
    check(
        Rule::Weekly {
            days: vec![Mon, Wed, Fri],
            time: hm(7, 30),
        },
        "every Monday, Wednesday and Friday at 07:30",
        "每周一、周三、周五 07:30",
    );
    check(
        Rule::Weekly {
            days: vec![Sat, Sun],
            time: hm(10, 0),
        },
        "every Saturday and Sunday at 10:00",
        "每周六、周日 10:00",
    );
    let from = utc(2026, 3, 10, 9, 0);
    check(
        Rule::Every {
            step: Step::Minutes(15),
            from,
        },
        "every 15 minutes",
        "每15分钟",
    );
    check(
        Rule::Every {
            step: Step::Minutes(1),
            from,
        },
        "every minute",
        "每分钟",
    );
    check(
        Rule::Every {
            step: Step::Hours(1),
            from,
        },
        "every hour",
        "每小时",
    );
    check(
        Rule::Every {
            step: Step::Hours(2),
            from,
        },
        "every 2 hours",
        "每2小时",
    );
}

#[test]
fn rrules_in_words() {
    let start = naive(2026, 3, 10, 10, 1);
    let rrule = |rule: &str| Rule::RRule {
        rule: rule.into(),
        start,
    };
    check(
        rrule("FREQ=MONTHLY;BYMONTHDAY=1;BYHOUR=9;BYMINUTE=0"),
        "every month on day 1 at 09:00",
        "每月1日 09:00",
    );
    check(
        rrule("FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29;BYHOUR=9;BYMINUTE=0"),
        "every year in February on day 29 at 09:00",
        "每年2月29日 09:00",
    );
    check(
        rrule("FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,WE;BYHOUR=9;BYMINUTE=0"),
        "every 2 weeks on Monday and Wednesday at 09:00",
        "每2周的周一、周三 09:00",
    );
    check(
        rrule("FREQ=MONTHLY;BYDAY=-1FR;BYHOUR=17;BYMINUTE=0;COUNT=3"),
        "every month on the last Friday at 17:00, 3 times",
        "每月最后一个周五 17:00，共3次",
    );
    // Left-out times come from the start.
    check(rrule("FREQ=DAILY"), "every day at 10:01", "每天 10:01");
    check(
        rrule("FREQ=HOURLY;BYMINUTE=0,30"),
        "every hour at :00 and :30",
        "每小时 第0分、第30分",
    );
    check(
        rrule("FREQ=DAILY;BYHOUR=9;BYMINUTE=0;UNTIL=20261231T230000Z"),
        "every day at 09:00, until 2027-01-01 00:00",
        "每天 09:00，直到2027-01-01 00:00",
    );
    check(
        rrule("FREQ=YEARLY;BYWEEKNO=20;BYDAY=MO"),
        "every year on Monday at 10:01 (RRULE FREQ=YEARLY;BYWEEKNO=20;BYDAY=MO)",
        "每年周一 10:01（RRULE FREQ=YEARLY;BYWEEKNO=20;BYDAY=MO）",
    );
    // A broken rule from storage is shown as it is.
    check(rrule("nonsense"), "by the rule nonsense", "按规则 nonsense");
}

#[test]
fn parsed_expressions_read_back() {
    let now = utc(2026, 3, 10, 9, 0);
    for (expr, en, zh) in [
        (
            "every weekday at 9",
            "weekdays at 09:00",
            "每个工作日 09:00",
        ),
        (
            "每周一和周三晚上7点",
            "every Monday and Wednesday at 19:00",
            "每周一、周三 19:00",
        ),
        (
            "tomorrow 9:00",
            "once on 2026-03-11 09:00",
            "2026-03-11 09:00（一次）",
        ),
        ("每隔2小时", "every 2 hours", "每2小时"),
        (
            "every other day at 9",
            "every 2 days at 09:00",
            "每2天 09:00",
        ),
    ] {
        let rule = parse(expr, now, BERLIN);
        assert_eq!(both(&rule), (en.to_string(), zh.to_string()), "{expr}");
    }
}

#[test]
fn lang_from_locale() {
    assert_eq!(Lang::from_locale("zh-CN"), Lang::Zh);
    assert_eq!(Lang::from_locale("zh_Hans"), Lang::Zh);
    assert_eq!(Lang::from_locale("ZH"), Lang::Zh);
    assert_eq!(Lang::from_locale("en-US"), Lang::En);
    assert_eq!(Lang::from_locale(""), Lang::En);
}
