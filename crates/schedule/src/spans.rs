//! The time expressions inside a longer text, such as a person's message ("remind me in
//! 10 minutes to stretch" holds "in 10 minutes"; "每天早上8点提醒我喝水" holds "每天早上8点"):
//! the longest spans [`Rule::parse`] accepts, as they are written. A model filling a
//! schedule's time from the message can then be held to the person's own words.

use chrono::{DateTime, Utc};
use chrono_tz::Tz;

use crate::Rule;

/// Most units (words, CJK characters, punctuation) a span holds.
const MAX_UNITS: usize = 16;
/// Units of a text looked at; the rest is not searched.
const MAX_TEXT_UNITS: usize = 400;

/// A unit of text: a run of letters and digits (with `:`, `.`, `-`, `/` inside it, so
/// `9:30`, `2026-12-24`, `p.m.` stay whole), one CJK character, or one punctuation mark.
#[derive(Debug, Clone, Copy)]
struct Unit {
    start: usize,
    end: usize,
    /// A mark a span neither starts nor ends with.
    punctuation: bool,
}

fn word_char(c: char) -> bool {
    c.is_alphanumeric() && !is_cjk(c)
}

fn is_cjk(c: char) -> bool {
    matches!(c as u32, 0x3400..=0x4DBF | 0x4E00..=0x9FFF | 0xF900..=0xFAFF | 0x20000..=0x2FA1F)
}

fn units(text: &str) -> Vec<Unit> {
    let mut out: Vec<Unit> = Vec::new();
    let mut chars = text.char_indices().peekable();
    while let Some((start, c)) = chars.next() {
        if c.is_whitespace() {
            continue;
        }
        let mut end = start + c.len_utf8();
        if word_char(c) {
            while let Some(&(i, next)) = chars.peek() {
                let inner = matches!(next, ':' | '.' | '-' | '/' | '\'')
                    && text[i + next.len_utf8()..]
                        .chars()
                        .next()
                        .is_some_and(word_char);
                if word_char(next) || inner {
                    end = i + next.len_utf8();
                    chars.next();
                } else {
                    break;
                }
            }
        }
        out.push(Unit {
            start,
            end,
            punctuation: !word_char(c) && !is_cjk(c),
        });
        if out.len() == MAX_TEXT_UNITS {
            break;
        }
    }
    out
}

/// The time expressions of `text` said at `now` in `tz`: every span that parses as a rule
/// and lies inside no longer such span, in the order they appear, each as written.
pub fn time_spans(text: &str, now: DateTime<Utc>, tz: Tz) -> Vec<String> {
    let units = units(text);
    let mut found: Vec<(usize, usize)> = Vec::new();
    for first in 0..units.len() {
        if units[first].punctuation {
            continue;
        }
        // The longest span from here that parses; shorter ones inside it are not kept.
        let last = (first..units.len().min(first + MAX_UNITS))
            .rev()
            .filter(|&last| !units[last].punctuation)
            .find(|&last| {
                let span = &text[units[first].start..units[last].end];
                Rule::parse(span, now, tz).is_ok()
            });
        if let Some(last) = last {
            found.push((units[first].start, units[last].end));
        }
    }
    let kept: Vec<(usize, usize)> = found
        .iter()
        .filter(|&&(s, e)| {
            !found
                .iter()
                .any(|&(s2, e2)| (s2, e2) != (s, e) && s2 <= s && e <= e2)
        })
        .copied()
        .collect();
    let mut spans: Vec<String> = Vec::new();
    for (s, e) in kept {
        let span = text[s..e].to_string();
        if !spans.contains(&span) {
            spans.push(span);
        }
    }
    spans
}
