//! The rule types: what a schedule is, stored as JSON (what a rule does is in the modules
//! that do it, wired to `Rule` at the crate root).

use chrono::{DateTime, NaiveDateTime, NaiveTime, Utc, Weekday};
use serde::{Deserialize, Serialize};

/// When a schedule fires. Stored as JSON, tagged by `"kind"`:
///
/// ```json
/// {"kind":"once","at":"2026-12-04T09:00:00"}
/// {"kind":"daily","time":"08:00:00"}
/// {"kind":"weekdays","time":"09:00:00"}
/// {"kind":"weekly","days":["Mon","Wed"],"time":"19:00:00"}
/// {"kind":"every","step":{"minutes":15},"from":"2026-03-10T09:00:00Z"}
/// {"kind":"rrule","rule":"FREQ=MONTHLY;BYMONTHDAY=1;BYHOUR=9;BYMINUTE=0","start":"2026-03-10T10:01:00"}
/// ```
///
/// Wall times (`at`, `time`, `start`) are local to the schedule's time zone, which is kept
/// next to the rule and passed to [`Rule::next_after`] and [`Rule::describe`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Rule {
    /// Once, at a local wall time.
    Once {
        /// The local wall time.
        at: NaiveDateTime,
        /// Only for a wall time the fall-back hour repeats: `true` takes the later of its two
        /// instants (the default, `false`, the earlier). [`Rule::parse`] sets it when a duration
        /// ("in 10 minutes") or an instant with an offset lands in the repeated hour's second
        /// pass. Left out of the JSON when `false`.
        #[serde(default, skip_serializing_if = "is_false")]
        fold: bool,
    },
    /// Every day at a local time.
    Daily {
        /// The local time of day.
        time: NaiveTime,
    },
    /// Monday to Friday at a local time.
    Weekdays {
        /// The local time of day.
        time: NaiveTime,
    },
    /// On some weekdays at a local time.
    Weekly {
        /// Sorted Monday first, no duplicates, not empty (an empty list never fires).
        days: Vec<Weekday>,
        /// The local time of day.
        time: NaiveTime,
    },
    /// Every `step` of elapsed time after `from` (the first firing is `from + step`). Elapsed
    /// time, not wall time: across a DST change the wall-clock times shift by the change.
    Every {
        /// The interval.
        step: Step,
        /// The anchor (when the rule was made).
        from: DateTime<Utc>,
    },
    /// An RFC 5545 recurrence rule, evaluated in local wall time from `start`.
    #[serde(rename = "rrule")]
    RRule {
        /// The rule's text without the `RRULE:` prefix, e.g. `FREQ=MONTHLY;BYMONTHDAY=1`.
        rule: String,
        /// The local wall time the rule starts at (RFC 5545 DTSTART); parts the rule leaves out
        /// (the time of day, the weekday, the day of the month) are taken from it.
        start: NaiveDateTime,
    },
}

fn is_false(value: &bool) -> bool {
    !*value
}

/// The interval of [`Rule::Every`]: at least one minute.
///
/// JSON: `{"minutes":15}` or `{"hours":2}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Step {
    /// N minutes (N >= 1).
    Minutes(u32),
    /// N hours (N >= 1).
    Hours(u32),
}

impl Step {
    /// The interval in seconds (0 for a zero step, which never fires).
    #[must_use]
    pub fn seconds(self) -> i64 {
        match self {
            Step::Minutes(n) => i64::from(n) * 60,
            Step::Hours(n) => i64::from(n) * 3600,
        }
    }
}

/// The language of [`Rule::describe`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Lang {
    /// English.
    #[default]
    En,
    /// Simplified Chinese.
    Zh,
}

impl Lang {
    /// The language of a locale or language tag: `zh`, `zh-CN`, `zh_Hans` → [`Lang::Zh`],
    /// anything else → [`Lang::En`].
    #[must_use]
    pub fn from_locale(locale: &str) -> Lang {
        let primary = locale
            .trim()
            .split(['-', '_', '.'])
            .next()
            .unwrap_or_default();
        if primary.eq_ignore_ascii_case("zh") {
            Lang::Zh
        } else {
            Lang::En
        }
    }
}

impl Rule {
    /// Whether the rule can fire more than once (all kinds but [`Rule::Once`]).
    #[must_use]
    pub fn is_recurring(&self) -> bool {
        !matches!(self, Rule::Once { .. })
    }
}
