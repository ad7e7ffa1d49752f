//! Local wall times to instants: the one rule every kind of schedule (and an RRULE's
//! occurrences) resolves its wall times by, through gaps and folds.

use chrono::offset::LocalResult;
use chrono::{DateTime, NaiveDateTime, TimeDelta, TimeZone, Timelike, Utc};
use chrono_tz::Tz;

/// The instant of a local wall time: the instant itself when it exists once; the earlier of
/// the two (or the later, when `later`) in the fall-back hour; the first instant after the gap
/// when the wall time falls into the spring-forward gap. `None` only at the ends of time.
pub(crate) fn resolve(naive: NaiveDateTime, tz: Tz, later: bool) -> Option<DateTime<Utc>> {
    match tz.from_local_datetime(&naive) {
        LocalResult::Single(t) => Some(t.with_timezone(&Utc)),
        LocalResult::Ambiguous(a, b) => {
            let (a, b) = (a.with_timezone(&Utc), b.with_timezone(&Utc));
            Some(if later { a.max(b) } else { a.min(b) })
        }
        LocalResult::None => gap_end(naive, tz),
    }
}

/// The first instant whose local wall time is at or after `naive`, which lies in a gap: the
/// instant the gap ends (03:00 local for 02:30 on the spring-forward day in Europe/Berlin).
fn gap_end(naive: NaiveDateTime, tz: Tz) -> Option<DateTime<Utc>> {
    let minute = naive.with_second(0)?.with_nanosecond(0)?;
    // Gaps are at most a day long (Samoa skipped 2011-12-30); look two days ahead.
    for k in 1..=2 * 24 * 60 {
        let candidate = minute.checked_add_signed(TimeDelta::try_minutes(k)?)?;
        let Some(first) = tz.from_local_datetime(&candidate).earliest() else {
            continue;
        };
        // The gap may end within the minute before (old zones end gaps at odd seconds).
        let mut t = first.with_timezone(&Utc);
        for _ in 0..60 {
            let earlier = t.checked_sub_signed(TimeDelta::seconds(1))?;
            if earlier.with_timezone(&tz).naive_local() >= naive {
                t = earlier;
            } else {
                break;
            }
        }
        return Some(t);
    }
    None
}
