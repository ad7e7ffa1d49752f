//! Expressions to rules: limits, RRULE text, and words through the lexer, the grammar and
//! the builder.

mod build;
mod en;
mod grammar;
mod lexer;
mod once;
mod repeat;
mod zh;

use chrono::{DateTime, NaiveDateTime, Utc};
use chrono_tz::Tz;

use crate::error::{RuleError, RuleErrorKind};
use crate::ical::{self, Spec};
use crate::wall::resolve;
use crate::{MAX_EXPR_CHARS, Rule};

pub(crate) fn parse(expr: &str, now: DateTime<Utc>, tz: Tz) -> Result<Rule, RuleError> {
    let length = expr.chars().count();
    if length > MAX_EXPR_CHARS {
        return Err(RuleError::new(
            RuleErrorKind::TooLong,
            format!(
                "the expression has {length} characters; at most {MAX_EXPR_CHARS} are accepted \
                 (e.g. 'every weekday at 9', 'RRULE:FREQ=WEEKLY;BYDAY=MO;BYHOUR=9;BYMINUTE=0')"
            ),
        ));
    }
    let text = trim(expr);
    if text.is_empty() {
        return Err(RuleError::with_forms(
            RuleErrorKind::Empty,
            "the time expression is empty",
        ));
    }
    let ctx = build::Ctx {
        now,
        tz,
        original: text,
    };
    if is_rrule(text) {
        return rrule(text, &ctx);
    }
    let normalized = lexer::normalize(text);
    let tokens = lexer::lex(&normalized, text)?;
    if tokens.is_empty() {
        return Err(lexer::not_understood(text, text));
    }
    let slots = grammar::read(&tokens, text)?;
    build::build(slots, &ctx)
}

/// Without surrounding spaces and trailing punctuation.
fn trim(expr: &str) -> &str {
    expr.trim_matches(|c: char| {
        c.is_whitespace()
            || matches!(
                c,
                '.' | '!' | '?' | '。' | '！' | '？' | ',' | '，' | ';' | '；' | '、'
            )
    })
}

fn is_rrule(text: &str) -> bool {
    let head: String = text
        .chars()
        .take(7)
        .collect::<String>()
        .to_ascii_uppercase();
    head.starts_with("RRULE:") || head.starts_with("FREQ=") || head.starts_with("DTSTART")
}

fn invalid(text: &str, why: &str) -> RuleError {
    RuleError::new(
        RuleErrorKind::InvalidRRule,
        format!(
            "invalid RRULE '{text}': {why}. Example: 'RRULE:FREQ=WEEKLY;BYDAY=MO,WE;BYHOUR=9;\
             BYMINUTE=0', optionally after 'DTSTART:20261201T090000' and a new line"
        ),
    )
}

/// "RRULE:FREQ=…", "FREQ=…", or "DTSTART[;TZID=Zone]:YYYYMMDDTHHMMSS[Z]" and a new line (or
/// space) before the rule. Without DTSTART the rule starts at the first whole minute after now.
fn rrule(text: &str, ctx: &build::Ctx<'_>) -> Result<Rule, RuleError> {
    let (start, body) =
        if text
            .get(..7)
            .is_some_and(|h| h.eq_ignore_ascii_case("DTSTART"))
        {
            let Some((line, rest)) = text.split_once(char::is_whitespace) else {
                return Err(invalid(
                    text,
                    "DTSTART must be followed by a new line and the RRULE",
                ));
            };
            (Some(dtstart(line, ctx.tz).ok_or_else(|| {
            invalid(
                text,
                "DTSTART is not 'DTSTART:YYYYMMDDTHHMMSS', with an optional Z or ';TZID=Zone'",
            )
        })?), rest.trim())
        } else {
            (None, text)
        };
    let spec = Spec::parse(body).map_err(|why| invalid(text, &why))?;
    let start = start.unwrap_or_else(|| build::first_minute_after(ctx));
    let ended = spec.until_instant(ctx.tz).is_some_and(|until| {
        until <= ctx.now || until < resolve(start, ctx.tz, false).unwrap_or(until)
    });
    if !ended {
        ical::validate(&spec, start, ctx.tz).map_err(|why| invalid(text, &why))?;
    }
    if ended || ical::next_of_spec(&spec, start, ctx.now, ctx.tz).is_none() {
        return Err(RuleError::new(
            RuleErrorKind::NeverFires,
            format!(
                "the RRULE '{text}' never fires after now ({} in {}); check COUNT, UNTIL and \
                 the BY parts (e.g. BYMONTH=2;BYMONTHDAY=30 never exists)",
                ctx.now.with_timezone(&ctx.tz).format("%Y-%m-%d %H:%M"),
                ctx.tz.name()
            ),
        ));
    }
    Ok(Rule::RRule {
        rule: spec.text(),
        start,
    })
}

/// The local wall time in `tz` of a DTSTART line.
fn dtstart(line: &str, tz: Tz) -> Option<NaiveDateTime> {
    let (head, value) = line.split_once(':')?;
    let value = value.trim().to_ascii_uppercase();
    let params = head.get(7..)?;
    if let Some(body) = value.strip_suffix('Z') {
        let t = ical::parse_ical_datetime(body)?.and_utc();
        return Some(t.with_timezone(&tz).naive_local());
    }
    let wall = ical::parse_ical_datetime(&value)?;
    match params.trim() {
        "" => Some(wall),
        p => {
            let zone = p.strip_prefix(';')?;
            let (key, name) = zone.split_once('=')?;
            if !key.eq_ignore_ascii_case("TZID") {
                return None;
            }
            let source: Tz = name.parse().ok()?;
            let instant = resolve(wall, source, false)?;
            Some(instant.with_timezone(&tz).naive_local())
        }
    }
}
