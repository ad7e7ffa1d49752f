//! The constrained prompt and its worked examples: the instructions, the offered tools'
//! own examples and the answers no tool gives, then the catalog; the examples a request
//! may be shown beside it; the catalog a turn limited to some tools shows. The prompt
//! depends only on the offered tools, so it is byte-identical across turns and
//! conversations and the server's prompt cache is reused.

use deskmate_llm::envelope::{self, Part};
use deskmate_llm::wire::{FunctionCall, ToolCall, ToolDef};
use deskmate_tools::Example;
use serde_json::json;

use crate::protocol::Protocol;

/// The system prompt of a native turn.
const NATIVE_PROMPT: &str = "You are Deskmate, a desktop assistant. Call a tool only when the \
user's request needs it, and never call a tool the user did not ask for. Give every argument \
its schema's type. When a tool answers with an error, read its hint and options and fix the \
call, or explain the problem to the user. Answer briefly, in the user's language.";

/// The worked examples that need no tool, for the constrained prompt: requests no tool
/// serves, answered directly, in either language, including things the computer cannot do
/// (the request, the answer). The model writes them as [`example_answer`] shows. The
/// examples with calls are the offered tools' own
/// ([`Tool::examples`](deskmate_tools::Tool::examples)). The refusals say what cannot be
/// done in plain words: written as "none of my tools controls …" the small model copied the
/// form onto requests a tool does ("none of my tools controls camera controls") and onto
/// questions it could answer ("who wrote Hamlet?").
const ANSWERS: [(&str, &str); 5] = [
    ("hello", "Hello! What can I do for you?"),
    ("share a fun fact", "Octopuses have three hearts."),
    ("写一句生日祝福", "祝你生日快乐，天天开心！"),
    ("lock the front door", "Sorry, I can't lock doors."),
    ("帮我给老板发一封邮件", "抱歉，我发不了邮件。"),
];

/// More answers no tool gives, shown only beside a request near them ([`crate::near`]):
/// questions about the state of something no tool reads, answered without a call.
const NEAR_ANSWERS: [(&str, &str); 2] = [
    (
        "is the printer out of paper?",
        "Sorry, I can't check the printer.",
    ),
    ("现在屏幕亮度是多少", "抱歉，我查不到屏幕亮度。"),
];

/// The requests of the answers no tool gives, in the prompt and beside a request.
pub(crate) fn answer_requests() -> impl Iterator<Item = &'static str> {
    ANSWERS
        .iter()
        .chain(&NEAR_ANSWERS)
        .map(|(request, _)| *request)
}

/// The examples a request may be shown beside it ([`crate::near`]): the
/// [`Teaches::Wording`](deskmate_tools::Teaches) examples of the tools in `catalog` (`of`
/// gives a tool's own) whose every call names a tool of the catalog, and the answers no
/// tool gives; with what each catalog tool is (`named`) and all its texts (`about`), in
/// both languages.
pub(crate) fn near_pool(
    catalog: &[ToolDef],
    of: impl Fn(&str) -> Vec<Example>,
    named: impl Fn(&str) -> Option<String>,
    about: impl Fn(&str) -> Option<String>,
) -> crate::near::Pool {
    let offered = |id: &str| catalog.iter().any(|t| t.function.name == id);
    let mut pool = crate::near::Pool::default();
    for tool in catalog {
        let id = &tool.function.name;
        pool.tools.insert(
            id.clone(),
            named(id).unwrap_or_else(|| tool.function.description.clone()),
        );
        pool.texts
            .push(about(id).unwrap_or_else(|| tool.function.description.clone()));
        for example in of(id) {
            if !example.teaches.always_shown() && example.tools().all(offered) {
                pool.examples.push(crate::near::Candidate {
                    request: example.request.into(),
                    reply: example_calls(&example),
                    tool: example.tools().next().map(Into::into),
                });
            }
        }
    }
    for (request, answer) in ANSWERS.iter().chain(&NEAR_ANSWERS) {
        pool.examples.push(crate::near::Candidate {
            request: (*request).into(),
            reply: example_answer(request, answer),
            tool: None,
        });
    }
    pool
}

/// An answer example as the model writes it: the request as its one part, which no tool
/// does, then the answer.
fn example_answer(request: &str, answer: &str) -> String {
    json!({"parts": [Part::new(request, None).to_value()], "answer": answer}).to_string()
}

/// The worked examples of the tools in `catalog` (`of` gives a tool's own), as the prompt
/// shows them: only those whose every call names a tool of the catalog, each once, in the
/// order of what they teach and, within that, the catalog's.
pub(crate) fn examples_for(catalog: &[ToolDef], of: impl Fn(&str) -> Vec<Example>) -> Vec<Example> {
    let offered = |id: &str| catalog.iter().any(|t| t.function.name == id);
    let mut examples: Vec<Example> = Vec::new();
    for tool in catalog {
        for example in of(&tool.function.name) {
            if example.teaches.always_shown()
                && example.tools().all(offered)
                && !examples.contains(&example)
            {
                examples.push(example);
            }
        }
    }
    examples.sort_by_key(|e| e.teaches);
    examples
}

/// An example as the model writes its calls: `{"parts":[…],"calls":[…]}`.
fn example_calls(example: &Example) -> String {
    let calls: Vec<ToolCall> = example
        .calls
        .iter()
        .map(|(name, arguments)| ToolCall {
            id: String::new(),
            kind: "function".into(),
            function: FunctionCall {
                name: (*name).into(),
                arguments: (*arguments).into(),
            },
        })
        .collect();
    envelope::render_calls(&example_parts(example), &calls)
}

/// An example's parts as the model lists them: the `i`-th done by the `i`-th call's tool
/// (the last call's when there are fewer calls than parts).
fn example_parts(example: &Example) -> Vec<Part> {
    example
        .parts()
        .into_iter()
        .enumerate()
        .map(|(i, ask)| {
            let tool = example.calls.get(i).or(example.calls.last());
            Part::new(ask, tool.map(|(name, _)| *name))
        })
        .collect()
}

/// The system prompt for a turn whose model may call `callable`, describing `shown`,
/// with the worked `examples` of the tools of the catalog ([`examples_for`]).
///
/// `shown` is the catalog the model reads and `callable` the tools the reply's grammar
/// admits ([`request`]). A turn limited to some tools shows the catalog every turn shows
/// (the tools are masked, not removed) and its examples: the prompt then starts with the
/// same bytes as every other turn's, so the server's cached prefix serves it, and only the
/// line naming what can be called now is new. Removing the others from the catalog would
/// make each tool subset a new prefix to evaluate (100–150 tokens, several seconds on a
/// CPU).
pub(crate) fn system_prompt(
    protocol: Protocol,
    shown: &[ToolDef],
    callable: &[ToolDef],
    examples: &[Example],
) -> String {
    if protocol == Protocol::Native || callable.is_empty() {
        return NATIVE_PROMPT.to_string();
    }
    // The catalog's tools' examples, then the answers that need no tool (in that order a
    // small model said "none" for fewer requests a tool does: BENCHMARKS). Only the
    // built-in tools give examples, so tool sets that differ in other tools (HTTP and
    // imported ones, those chosen per message) share all but their catalogs in the
    // server's cache; the grammar lets the model name only the callable tools, so an
    // example of a masked tool cannot become a call.
    let examples: Vec<String> = examples
        .iter()
        .map(|e| format!("User: {} → {}", e.request, example_calls(e)))
        .chain(
            ANSWERS
                .iter()
                .map(|(user, answer)| format!("User: {user} → {}", example_answer(user, answer))),
        )
        .collect();
    // The fixed instructions come first and the tool-dependent part last, so prompts for
    // different tool sets still share their longest possible prefix in the server cache.
    let mut prompt = format!(
        "You are Deskmate, a desktop assistant. You act on the user's computer only through \
the tools listed at the end. You cannot see the time, the volume, the camera, files, data or \
the result of arithmetic yourself: when a tool can do what the user asks, call it. A tool \
does only what its description says: never use one as a stand-in for something similar it \
does not do. Answer directly when no tool fits (greetings, jokes, general knowledge, things \
no tool can do), and never claim you did something without a tool result.\n\n\
Reply with one JSON object. First \"parts\": every part of the request (each thing the user \
asked for, in their words) as \"ask\", with \"tool\": the tool whose description says it does \
exactly that, or \"none\" when no tool does (a tool for something similar is not it). Then \
either\n\
\"calls\":[{{\"name\":\"<tool>\",\"arguments\":{{<arguments>}}}}] — the calls of the parts' \
tools: one call per action the user asked for, all in one list (the same tool several times \
when asked for several things; after tool results the parts still to do and their calls), or\n\
\"answer\":\"<text>\" — when every part's tool is \"none\": a brief answer in the user's \
language, using the tool results when there are any, or\n\
{{\"done\":true}} — only after tool results, when they answer everything the user asked \
(the user sees them).\n\
Give only the arguments the request supplies: leave out optional ones (marked ?) the user \
did not ask for, their defaults apply. When a result is an error, fix the call with its hint \
and valid options and call again, or explain the problem.\n\n\
Examples:\n{examples}\n\n\
Tools:\n{catalog}",
        catalog = envelope::catalog(shown),
        examples = examples.join("\n"),
    );
    let names = |tools: &[ToolDef]| -> Vec<String> {
        tools.iter().map(|t| t.function.name.clone()).collect()
    };
    if names(shown) != names(callable) {
        prompt.push_str(&format!(
            "\n\nOnly these tools can be called now: {}. If none fits, answer directly.",
            names(callable).join(", ")
        ));
    }
    prompt
}

/// The catalog a turn limited to `callable` shows: `every_turn`'s (the one the cached
/// prefix holds), then the callable tools it lacks.
pub(crate) fn masked_catalog(every_turn: Vec<ToolDef>, callable: &[ToolDef]) -> Vec<ToolDef> {
    let mut shown = every_turn;
    let missing: Vec<ToolDef> = callable
        .iter()
        .filter(|c| !shown.iter().any(|s| s.function.name == c.function.name))
        .cloned()
        .collect();
    shown.extend(missing);
    shown
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::fixtures::tool;
    use std::collections::HashMap;

    use deskmate_llm::wire::Message;
    use deskmate_service::language::Language;

    use crate::request::*;
    use deskmate_tools::Teaches;

    /// Examples as tools give them: one tool with an argument, two tools, one tool with
    /// its defaults.
    const SUM: Example = Example {
        teaches: Teaches::StatedValue,
        request: "what's 2+2?",
        parts: &[],
        calls: &[("sum", r#"{"expression":"2+2"}"#)],
    };
    const BOTH: Example = Example {
        teaches: Teaches::SeveralTools,
        request: "sum 1+1 and tell the time",
        parts: &["sum 1+1", "tell the time"],
        calls: &[("sum", r#"{"expression":"1+1"}"#), ("clock", "{}")],
    };
    const LOUDER: Example = Example {
        teaches: Teaches::Defaults,
        request: "louder",
        parts: &[],
        calls: &[("louder", "{}")],
    };

    fn examples_of(id: &str) -> Vec<Example> {
        match id {
            "sum" => vec![SUM],
            "clock" => vec![BOTH],
            "louder" => vec![LOUDER],
            _ => Vec::new(),
        }
    }

    #[test]
    fn examples_of_everyday_words_are_shown_only_beside_a_request_near_them() {
        const QUIETER: Example = Example {
            teaches: Teaches::Wording,
            request: "turn the sound down",
            parts: &[],
            calls: &[("louder", "{}")],
        };
        const QUIETER_AND_TIME: Example = Example {
            teaches: Teaches::Wording,
            request: "quieter, and the time",
            parts: &["quieter", "the time"],
            calls: &[("louder", "{}"), ("clock", "{}")],
        };
        let catalog = [tool("sum"), tool("louder")];
        let of = |id: &str| match id {
            "louder" => vec![LOUDER, QUIETER, QUIETER_AND_TIME],
            other => examples_of(other),
        };
        // Not in every prompt.
        assert_eq!(examples_for(&catalog, of), [LOUDER, SUM]);
        // In the pool: the tool's everyday-words example whose tools are all offered,
        // written as the model writes its calls, and the answers no tool gives.
        let pool = near_pool(
            &catalog,
            of,
            |id| (id == "sum").then(|| "Adds. 加法。".into()),
            |id| (id == "sum").then(|| "Adds. 加法。 expression: what to add".into()),
        );
        let requests: Vec<&str> = pool.examples.iter().map(|e| e.request.as_str()).collect();
        assert_eq!(requests[0], "turn the sound down");
        assert_eq!(
            requests.len(),
            1 + ANSWERS.len() + NEAR_ANSWERS.len(),
            "{requests:?}"
        );
        assert_eq!(
            pool.examples[0].reply,
            r#"{"parts":[{"ask":"turn the sound down","tool":"louder"}],"calls":[{"name":"louder","arguments":{}}]}"#
        );
        assert_eq!(pool.examples[0].tool.as_deref(), Some("louder"));
        assert!(
            pool.examples[1..]
                .iter()
                .all(|e| e.tool.is_none() && e.reply.contains(r#""answer":"#))
        );
        // Each offered tool's texts: its own, or its description.
        assert_eq!(pool.tools["sum"], "Adds. 加法。");
        assert_eq!(pool.tools["louder"], "Does a thing. More words.");
        assert_eq!(
            pool.texts,
            [
                "Adds. 加法。 expression: what to add",
                "Does a thing. More words."
            ]
        );
    }

    #[test]
    fn a_catalog_shows_the_examples_of_its_tools_in_the_order_of_what_they_teach() {
        let catalog = [tool("sum"), tool("clock"), tool("louder")];
        // The catalog's order is sum, clock, louder; what the examples teach puts the
        // call with defaults first. An example of two tools is shown once.
        let of_both = |id: &str| match id {
            "sum" => vec![SUM, BOTH],
            other => examples_of(other),
        };
        assert_eq!(examples_for(&catalog, of_both), [LOUDER, SUM, BOTH]);
        // An example that calls a tool the catalog lacks is not shown.
        assert_eq!(examples_for(&catalog[..1], examples_of), [SUM]);
        assert_eq!(examples_for(&catalog[1..], examples_of), [LOUDER]);
        let prompt = system_prompt(
            Protocol::Constrained,
            &catalog,
            &catalog,
            &examples_for(&catalog, examples_of),
        );
        let (_, shown) = prompt.split_once("Examples:\n").unwrap_or_default();
        let (shown, _) = shown.split_once("\n\nTools:").unwrap_or_default();
        let lines: Vec<&str> = shown.lines().collect();
        // The tools' examples as the model writes its calls, each part with its tool,
        // then the answers that need no tool, each part with none.
        assert_eq!(lines.len(), ANSWERS.len() + 3, "{shown}");
        assert_eq!(
            lines[3],
            r#"User: hello → {"parts":[{"ask":"hello","tool":"none"}],"answer":"Hello! What can I do for you?"}"#
        );
        assert_eq!(
            &lines[..3],
            [
                r#"User: louder → {"parts":[{"ask":"louder","tool":"louder"}],"calls":[{"name":"louder","arguments":{}}]}"#,
                r#"User: what's 2+2? → {"parts":[{"ask":"what's 2+2?","tool":"sum"}],"calls":[{"name":"sum","arguments":{"expression":"2+2"}}]}"#,
                r#"User: sum 1+1 and tell the time → {"parts":[{"ask":"sum 1+1","tool":"sum"},{"ask":"tell the time","tool":"clock"}],"calls":[{"name":"sum","arguments":{"expression":"1+1"}},{"name":"clock","arguments":{}}]}"#,
            ]
        );
    }

    #[test]
    fn tool_sets_without_examples_differ_only_in_their_catalog() {
        let tools = [tool("files.read_file"), tool("weather")];
        let a = system_prompt(Protocol::Constrained, &tools, &tools, &[]);
        assert_eq!(a, system_prompt(Protocol::Constrained, &tools, &tools, &[]));
        assert!(a.contains("- weather(): Does a thing."), "{a}");
        let other = [tool("lights")];
        let b = system_prompt(Protocol::Constrained, &other, &other, &[]);
        let (head, _) = a.split_once("Tools:\n").unwrap_or_default();
        assert!(b.starts_with(&format!("{head}Tools:\n")), "{b}");
        assert!(b.ends_with("- lights(): Does a thing."), "{b}");
    }

    #[test]
    fn a_turn_limited_to_some_tools_starts_with_the_prompt_of_every_turn() {
        let every_turn = vec![
            tool("calculator"),
            tool("current_time"),
            tool("increase_volume"),
        ];
        // The examples are the catalog every turn shows, whatever a turn may call.
        let examples = [SUM, LOUDER];
        let full = system_prompt(Protocol::Constrained, &every_turn, &every_turn, &examples);
        assert!(!full.contains("Only these tools"), "{full}");
        // A subset of the catalog: the same prompt, then the line naming what can be called.
        let callable = [tool("current_time")];
        let shown = masked_catalog(every_turn.clone(), &callable);
        assert_eq!(shown.len(), 3);
        let limited = system_prompt(Protocol::Constrained, &shown, &callable, &examples);
        let rest = limited
            .strip_prefix(&full)
            .unwrap_or_else(|| panic!("{limited}"));
        assert!(
            rest.starts_with("\n\nOnly these tools can be called now: current_time."),
            "{rest}"
        );
        // A tool the catalog lacks (a case's own tool) is added after it.
        let callable = [tool("set_timer"), tool("calculator")];
        let shown = masked_catalog(every_turn.clone(), &callable);
        let names: Vec<&str> = shown.iter().map(|t| t.function.name.as_str()).collect();
        assert_eq!(
            names,
            ["calculator", "current_time", "increase_volume", "set_timer"]
        );
        let limited = system_prompt(Protocol::Constrained, &shown, &callable, &examples);
        let (head, _) = full.split_once("- calculator()").unwrap_or_default();
        assert!(limited.starts_with(head), "{limited}");
        assert!(
            limited.ends_with("Only these tools can be called now: set_timer, calculator. If none fits, answer directly."),
            "{limited}"
        );
        // The grammar still admits only the callable tools.
        let sent = request(
            Protocol::Constrained,
            "m",
            &[Message::system(limited), Message::user("hi")],
            &callable,
            &Followup::new(Language::English),
            &HashMap::new(),
            None,
        );
        let grammar = sent.grammar.unwrap_or_default();
        assert!(
            grammar.contains("set_timer") && !grammar.contains("increase_volume"),
            "{grammar}"
        );
    }
}
