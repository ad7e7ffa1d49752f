//! The separate requests among the parts the model listed before its calls, and whether
//! the calls used the numbers those parts state ([`numbers_reached`]).
//!
//! The model's list is what the turn's decisions read (is anything owed in words, did the
//! calls do every part), and a small model pads it in two ways, both visible in the list's
//! own structure, whatever the language:
//!
//! - it writes the same words again as another part (the same ask under each tool of the
//!   catalog, or twice under one): that is one request;
//! - next to a part a tool does, it lists pieces of that part's own words as parts no tool
//!   does (the part "mean BMIBL by SEX in adsl" with "BMIBL" and "SEX" beside it): those
//!   are that call's arguments named again, not questions of their own. Taken as owed
//!   words they cost a step and invite made-up answers ("BMIBL: mean 74.38 …" beside a
//!   result that only held AGE).
//!
//! A part no tool does whose words are not inside a tool's part ("is it even?" beside
//! "12*7") stays a request of its own. The list as the model wrote it is kept for what it
//! is shown again ([`crate::protocol::saved_plans`]); only the decisions read this one.

use deskmate_llm::envelope::Part;

/// The parts of `parts` that are separate requests, in order: the first of parts with
/// the same words, without the parts no tool does whose words lie inside the words of a
/// part a tool does.
pub(crate) fn requests(parts: &[Part]) -> Vec<Part> {
    let words = |p: &Part| p.ask.trim().to_lowercase();
    let mut seen: Vec<String> = Vec::new();
    let mut out: Vec<Part> = Vec::new();
    for part in parts {
        let ask = words(part);
        if seen.contains(&ask) {
            continue;
        }
        seen.push(ask);
        out.push(part.clone());
    }
    let tools: Vec<String> = out.iter().filter(|p| p.tool.is_some()).map(words).collect();
    out.retain(|p| p.tool.is_some() || !tools.iter().any(|t| t.contains(&words(p))));
    out
}

/// Whether every number the person stated in `parts` a tool does reached the calls made
/// for them (`arguments`, as the model wrote them): each run of digits, counted with its
/// repeats ("2.5 and -2.5" states 2 and 5 twice), thousands separators dropped on both
/// sides ("1,250" is 1250). A number left over means a part holds more than its calls
/// did — "SAS-round 0.125 and 2.675" listed as one part with one call — so the results
/// are not taken as the whole answer and the model is asked again. Numbers written in
/// words are not counted: this can only send the model back once more, never skip it.
pub(crate) fn numbers_reached<'a>(
    parts: &[Part],
    arguments: impl IntoIterator<Item = &'a str>,
) -> bool {
    let mut given: Vec<String> = arguments.into_iter().flat_map(|a| digit_runs(a)).collect();
    parts
        .iter()
        .filter(|p| p.tool.is_some())
        .flat_map(|p| digit_runs(&p.ask))
        .all(|n| match given.iter().position(|g| *g == n) {
            Some(i) => {
                given.swap_remove(i);
                true
            }
            None => false,
        })
}

/// The runs of ASCII digits in `text`, leading zeros dropped ("06" is "6"), a comma
/// between a digit and exactly three digits read as a thousands separator.
fn digit_runs(text: &str) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    let mut runs: Vec<String> = Vec::new();
    let mut current = String::new();
    for (i, &c) in chars.iter().enumerate() {
        if c.is_ascii_digit() {
            current.push(c);
            continue;
        }
        let separator = c == ','
            && !current.is_empty()
            && chars.len() >= i + 4
            && chars[i + 1..i + 4].iter().all(char::is_ascii_digit)
            && chars.get(i + 4).is_none_or(|d| !d.is_ascii_digit());
        if !separator && !current.is_empty() {
            runs.push(std::mem::take(&mut current));
        }
    }
    if !current.is_empty() {
        runs.push(current);
    }
    runs.into_iter()
        .map(|r| {
            let trimmed = r.trim_start_matches('0');
            if trimmed.is_empty() { "0" } else { trimmed }.to_string()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_number_of_a_tools_part_must_reach_its_calls() {
        let one = [Part::new(
            "SAS-round 0.125 and 2.675 to 2 decimals",
            Some("sas_round_rate"),
        )];
        assert!(!numbers_reached(&one, [r#"{"value":0.125,"decimals":2}"#]));
        assert!(numbers_reached(
            &one,
            [
                r#"{"value":0.125,"decimals":2}"#,
                r#"{"value":2.675,"decimals":2}"#
            ]
        ));
        // Repeats count: one call for "2.5 and -2.5" leaves the second 2.5 over.
        let signs = [Part::new(
            "按 SAS 的规则把 2.5 和 -2.5 分别取整",
            Some("sas_round_rate"),
        )];
        assert!(!numbers_reached(&signs, [r#"{"value":2.5}"#]));
        assert!(numbers_reached(
            &signs,
            [r#"{"value":2.5}"#, r#"{"value":-2.5}"#]
        ));
        // Written another way in the call: thousands separators, leading zeros, an
        // expression holding the figures.
        let sum = [Part::new(
            "what's 3% of 1,250 on 2024-06-01?",
            Some("calculator"),
        )];
        assert!(numbers_reached(
            &sum,
            [r#"{"expression":"3% of 1250","day":"2024-6-1"}"#]
        ));
        let tip = [Part::new("an 18% tip on 64.50", Some("calculator"))];
        assert!(numbers_reached(&tip, [r#"{"expression":"64.50 * 0.18"}"#]));
        // Only the parts a tool does: the numbers of a question no tool answers are words.
        let words = [
            Part::new("12*7", Some("calculator")),
            Part::new("is 84 even?", None),
        ];
        assert!(numbers_reached(&words, [r#"{"expression":"12*7"}"#]));
        // Numbers in words are not counted.
        let spoken = [Part::new("turn it down by twenty", Some("decrease_volume"))];
        assert!(numbers_reached(&spoken, ["{}"]));
    }

    fn asks(parts: &[Part]) -> Vec<(&str, Option<&str>)> {
        parts
            .iter()
            .map(|p| (p.ask.as_str(), p.tool.as_deref()))
            .collect()
    }

    #[test]
    fn pieces_of_a_tools_part_are_not_requests_of_their_own() {
        let listed = [
            Part::new(
                "adsl 里按性别看一下 BMIBL 的均值",
                Some("summarize_by_group"),
            ),
            Part::new("BMIBL", None),
            Part::new(" 性别 ", None),
        ];
        assert_eq!(
            asks(&requests(&listed)),
            [(
                "adsl 里按性别看一下 BMIBL 的均值",
                Some("summarize_by_group")
            )]
        );
        // Case does not make a piece a question: "new york" lies in "New York".
        let listed = [
            Part::new(
                "what time is it in New York right now?",
                Some("current_time"),
            ),
            Part::new("new york", None),
        ];
        assert_eq!(requests(&listed).len(), 1);
    }

    #[test]
    fn a_part_no_tool_does_with_words_of_its_own_stays() {
        let listed = [
            Part::new("12*7", Some("calculator")),
            Part::new("is it even?", None),
        ];
        assert_eq!(asks(&requests(&listed)), asks(&listed));
        // A part no tool does that holds a tool's part is not a piece of it.
        let listed = [
            Part::new("what is 12*7, and is it even?", None),
            Part::new("12*7", Some("calculator")),
        ];
        assert_eq!(asks(&requests(&listed)), asks(&listed));
        // With no part a tool does, every part stays.
        let listed = [Part::new("hello", None), Part::new("tell me a joke", None)];
        assert_eq!(asks(&requests(&listed)), asks(&listed));
    }

    #[test]
    fn the_same_words_again_are_the_same_request() {
        let ask = "what time is it in Tokyo?";
        let listed = [
            Part::new(ask, Some("current_time")),
            Part::new(ask, Some("describe_dataset")),
            Part::new(ask, Some("knowledge")),
            Part::new("伦敦现在几点", Some("current_time")),
            Part::new("伦敦现在几点", Some("current_time")),
        ];
        assert_eq!(
            asks(&requests(&listed)),
            [
                (ask, Some("current_time")),
                ("伦敦现在几点", Some("current_time"))
            ]
        );
    }
}
