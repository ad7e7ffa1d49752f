//! `current_time`: the local time, or the time in an IANA time zone.

use std::str::FromStr;

use chrono::{DateTime, Local, Offset, TimeZone, Utc};
use chrono_tz::Tz;
use deskmate_core::{JsonSchema, Localized, ToolError, ToolSpec, said, schema_for};
use serde::Deserialize;
use serde_json::{Value, json};

use crate::read_only::ReadOnly;
use crate::{Example, FnTool, SelfCheck, Teaches};

/// How a person asks for the time, in everyday words (beside a request near them).
const EXAMPLES: &[Example] = &[
    Example {
        teaches: Teaches::Wording,
        request: "clock check for Sydney please",
        parts: &[],
        calls: &[("current_time", r#"{"timezone":"Australia/Sydney"}"#)],
    },
    Example {
        teaches: Teaches::Wording,
        request: "看下当前时间",
        parts: &[],
        calls: &[("current_time", "{}")],
    },
];

/// The current-time tool: runs inline.
pub fn tool() -> FnTool {
    FnTool::inline(spec(), current_time)
        .with_examples(EXAMPLES)
        .with_self_check(|| SelfCheck::Sample {
            args: json!({"timezone": "UTC"}),
            judge: judge_utc_now,
        })
}

/// The self-check's answer must be a time that parses and lies within a minute of the clock.
fn judge_utc_now(data: &Value) -> Result<Localized, Localized> {
    let iso = data["iso"].as_str().unwrap_or_default();
    let time = DateTime::parse_from_rfc3339(iso).map_err(|e| {
        said!(
            "答案中的时间“{iso}”无法解析：{e}",
            "the answer's time '{iso}' does not parse: {e}"
        )
    })?;
    let off = (Utc::now() - time.with_timezone(&Utc)).num_seconds().abs();
    if off > 60 {
        return Err(said!(
            "{iso} 与本机时钟相差 {off} 秒",
            "{iso} is {off} s away from this computer's clock"
        ));
    }
    Ok(if off == 0 {
        said!(
            "{iso}（与本机时钟一致）",
            "{iso} (as this computer's clock)"
        )
    } else {
        said!(
            "{iso}（与本机时钟相差 {off} 秒）",
            "{iso} ({off} s from this computer's clock)"
        )
    })
}

fn spec() -> ToolSpec {
    ReadOnly {
        id: "current_time",
        name: Localized::new("当前时间", "Current time"),
        summary: Localized::new(
            "告诉你现在的日期和时间，可以是本机时间，也可以是任意时区的时间。",
            "Tells you the current date and time, here or in any time zone.",
        ),
        description:
            "Returns the current date and time: the computer's local time, or the time in \
            the given IANA time zone (e.g. 'Asia/Shanghai', 'Europe/Berlin', 'UTC'). Use it whenever \
            the user asks for the time, date or weekday, here or elsewhere. Read-only.",
        timeout_ms: 1_000,
    }
    .spec(schema_for::<Args>())
}

/// The current-time tool's arguments.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct Args {
    #[schemars(
        length(max = 64),
        description = "IANA time zone name such as 'Asia/Shanghai' or 'America/New_York'; omit for the computer's local time.",
        extend("x-description-zh" = "IANA 时区名，例如 'Asia/Shanghai' 或 'America/New_York'；省略则使用本机的本地时间。")
    )]
    timezone: Option<String>,
}

fn current_time(Args { timezone }: Args) -> Result<Value, ToolError> {
    let now = Utc::now();
    match timezone {
        Some(name) => {
            let zone = parse_zone(&name)?;

            Ok(describe(&now.with_timezone(&zone), zone.name(), false))
        }
        None => {
            // Prefer the named zone (it knows its abbreviation); fall back to the offset.
            match system_zone() {
                Some(zone) => Ok(describe(&now.with_timezone(&zone), zone.name(), true)),
                None => Ok(describe(&now.with_timezone(&Local), "local", true)),
            }
        }
    }
}

/// The computer's IANA time zone, when it has one chrono-tz knows.
pub fn system_zone() -> Option<Tz> {
    iana_time_zone::get_timezone()
        .ok()
        .and_then(|name| Tz::from_str(&name).ok())
}

/// Resolves an IANA zone name, ignoring case; an unknown name is a `validation` error
/// whose options are the closest zone names.
pub fn parse_zone(name: &str) -> Result<Tz, ToolError> {
    let trimmed = name.trim();
    if let Ok(zone) = Tz::from_str(trimmed) {
        return Ok(zone);
    }
    if let Ok(zone) = Tz::from_str_insensitive(trimmed) {
        return Ok(zone);
    }
    let options = closest_zones(trimmed);
    Err(
        ToolError::validation(format!("unknown time zone '{trimmed}'"))
            .with_hint(format!(
                "use an IANA zone name (Area/City), e.g. {}; omit timezone for local time",
                options.first().map_or("'Asia/Shanghai'", String::as_str)
            ))
            .with_options(options),
    )
}

/// Zone names closest to what was asked, matching on the city part too ("shanghai").
fn closest_zones(wanted: &str) -> Vec<String> {
    let folded = wanted.to_lowercase().replace(' ', "_");
    let names = chrono_tz::TZ_VARIANTS.iter().map(|z| z.name());
    let by_city: Vec<String> = names
        .clone()
        .filter(|n| {
            let city = n.rsplit('/').next().unwrap_or(n).to_lowercase();
            !folded.is_empty() && (city == folded || (folded.len() >= 4 && city.contains(&folded)))
        })
        .take(5)
        .map(str::to_string)
        .collect();
    if !by_city.is_empty() {
        return by_city;
    }
    deskmate_core::resolve::closest(&folded, names, 5)
}

fn describe<Z: TimeZone>(time: &DateTime<Z>, zone: &str, local: bool) -> Value
where
    Z::Offset: std::fmt::Display,
{
    let offset_seconds = time.offset().fix().local_minus_utc();
    let sign = if offset_seconds < 0 { '-' } else { '+' };
    let abs = offset_seconds.unsigned_abs();
    let (date, clock) = (
        time.format("%Y-%m-%d").to_string(),
        time.format("%H:%M:%S").to_string(),
    );
    let line = said!(
        "{zone} 现在是 {date} {clock}",
        "It is {clock} on {date} ({zone})"
    );
    let data = json!({
        "timezone": zone,
        "local": local,
        "iso": time.to_rfc3339_opts(chrono::SecondsFormat::Secs, false),
        "date": date,
        "time": clock,
        "weekday": time.format("%A").to_string(),
        "utc_offset": format!("{sign}{:02}:{:02}", abs / 3600, (abs % 3600) / 60),
        "unix": time.timestamp(),
    });
    crate::said::with_line(data, line)
}

#[cfg(test)]
mod tests {
    use super::*;
    use deskmate_core::ErrorType;

    #[test]
    fn zones_resolve_ignoring_case() {
        assert_eq!(parse_zone("Asia/Shanghai").ok(), Some(Tz::Asia__Shanghai));
        assert_eq!(parse_zone(" asia/shanghai ").ok(), Some(Tz::Asia__Shanghai));
        assert_eq!(parse_zone("UTC").ok(), Some(Tz::UTC));
    }

    #[test]
    fn unknown_zones_suggest_close_names() {
        let err = parse_zone("Shanghai").err();
        assert_eq!(
            err.as_ref().map(|e| e.error_type),
            Some(ErrorType::Validation)
        );
        assert_eq!(
            err.map(|e| e.options.first().cloned()),
            Some(Some("Asia/Shanghai".into()))
        );
        let err = parse_zone("Asia/Shangai")
            .err()
            .map(|e| e.options)
            .unwrap_or_default();
        assert!(err.contains(&"Asia/Shanghai".to_string()), "{err:?}");
        let err = parse_zone("Mars/Olympus")
            .err()
            .map(|e| e.options)
            .unwrap_or_default();
        assert_eq!(err.len(), 5);
    }

    #[test]
    fn fixed_instant_in_a_zone() {
        let instant = Utc.with_ymd_and_hms(2026, 11, 30, 10, 0, 0).single();
        let shown = instant.map(|t| {
            describe(
                &t.with_timezone(&Tz::Asia__Shanghai),
                "Asia/Shanghai",
                false,
            )
        });
        let shown = shown.unwrap_or_default();
        assert_eq!(shown["iso"], "2026-11-30T18:00:00+08:00");
        assert_eq!(shown["weekday"], "Monday");
        assert_eq!(shown["utc_offset"], "+08:00");
        assert_eq!(
            crate::said::line(&shown, false),
            Some("It is 18:00:00 on 2026-11-30 (Asia/Shanghai)")
        );
        assert_eq!(
            crate::said::line(&shown, true),
            Some("Asia/Shanghai 现在是 2026-11-30 18:00:00")
        );
    }
}
