//! The separate requests among the parts the model listed before its calls.
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
//! is shown again within the turn and saved with it; only the decisions read this one.

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

#[cfg(test)]
mod tests {
    use super::*;

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
