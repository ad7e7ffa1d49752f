//! Time expressions found inside messages, as written.

use chrono::{TimeZone, Utc};
use deskmate_schedule::time_spans;

fn spans(text: &str) -> Vec<String> {
    let now = Utc
        .with_ymd_and_hms(2026, 3, 10, 9, 0, 0)
        .single()
        .unwrap_or_else(|| panic!("valid"));
    time_spans(text, now, chrono_tz::Europe::Berlin)
}

#[test]
fn the_longest_time_words_of_a_message_are_found_as_written() {
    let cases: [(&str, &[&str]); 10] = [
        ("remind me in 30 seconds to stretch", &["in 30 seconds"]),
        ("每天早上8点提醒我喝水", &["每天早上8点"]),
        ("每个工作日早上9点提醒我开会", &["每个工作日早上9点"]),
        (
            "every weekday at 9 tell me the time",
            &["every weekday at 9"],
        ),
        (
            "Remind me tomorrow at 8am to buy milk.",
            &["tomorrow at 8am"],
        ),
        ("明天下午3点提醒我给妈妈打电话", &["明天下午3点"]),
        (
            "every mon, wed, fri at 7:30 turn the volume down",
            &["every mon, wed, fri at 7:30"],
        ),
        ("10分钟后提醒我喝水", &["10分钟后"]),
        ("what time is it?", &[]),
        ("turn the volume up", &[]),
    ];
    for (text, want) in cases {
        assert_eq!(spans(text), want, "{text}");
    }
}

#[test]
fn long_and_odd_text_is_searched_without_panicking() {
    let long = "in 10 minutes ".repeat(200);
    assert!(!spans(&long).is_empty());
    for text in ["", "。。。", "::::", "a-b-c-d", "9:", "在 ", "\u{0}"] {
        let _ = spans(text);
    }
}
