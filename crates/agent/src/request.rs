//! The request of each step: the conversation as the model reads it (a constrained model's
//! calls and answers as the JSON it wrote, each step's results as one message with what to
//! do next), the grammar or the tools it may use, and the names a native server accepts.

use std::collections::HashMap;

use deskmate_llm::envelope::{self, Part};
use deskmate_llm::wire::{ChatRequest, Message, ToolCall, ToolDef};
use deskmate_service::language::Language;
use serde_json::json;

use crate::protocol::Protocol;

/// What the model is told with the latest results.
#[derive(Debug, Clone)]
pub(crate) struct Followup {
    /// The language the person writes in.
    pub language: Language,
    /// A call of the latest step failed: the model should fix it or explain.
    pub failed: bool,
    /// Every failed call of the latest step failed for a passing reason
    /// (`Outcome::passing`): the model should call it again or explain.
    pub passing: bool,
    /// A call of the latest step failed in a way no other call can fix (the device is
    /// missing, the person refused): the model may only answer now.
    pub settled: bool,
    /// A call of the latest step was not run because the person did not ask for what its
    /// tool does: the model should answer their message itself.
    pub unasked: bool,
    /// A part the model listed this turn is one no tool does: its words are still owed,
    /// so the model is not offered to end the turn with the results alone.
    pub owed: bool,
    /// Words are owed and the latest step did what its tools can do (its calls did every
    /// part naming a tool, or only repeated calls that are done, or were not run because
    /// the person did not ask for what their tools do): the model is asked for the words
    /// alone, with no tool offered.
    pub words_only: bool,
    /// The parts (as the model listed them) the words are owed for: those no tool does and
    /// those whose calls were not run. Empty: the request as a whole.
    pub asks: Vec<String>,
    /// When the latest step failed nothing: the calls of earlier steps that failed and
    /// are not fixed yet, as `tool {arguments}` (a retry fixed one of two calls that
    /// failed the same way). The model is told which.
    pub open: Vec<String>,
    /// The model gave up on a call whose tool named the valid values: the next request
    /// admits only calls of this tool (its wrong argument held to those values), once.
    pub retry: Option<String>,
    /// The model answered without calls with a figure nothing it read holds: the next
    /// request, the same as the first, admits only calls, of every tool offered
    /// ([`crate::look_again`]).
    pub look: bool,
}

impl Followup {
    /// Before any result: nothing failed, nothing is settled.
    pub(crate) fn new(language: Language) -> Self {
        Self {
            language,
            failed: false,
            passing: false,
            settled: false,
            unasked: false,
            owed: false,
            words_only: false,
            asks: Vec::new(),
            open: Vec::new(),
            retry: None,
            look: false,
        }
    }

    /// The model may only answer now: no tool is offered.
    fn answer_only(&self) -> bool {
        self.settled || self.words_only
    }
}

/// The request for one step: `messages` is the conversation in the stored (OpenAI) form,
/// starting with the system prompt; `plans` the parts of the request the model listed
/// before each step's calls, by the step's first call id (shown to it again as it wrote
/// them); `near` the examples near the person's message (a constrained turn's), shown in
/// that message, before its words ([`with_examples`]).
///
/// The request has one system message, first, and the person's and the model's messages
/// in turn after it: chat templates strict about roles (Gemma's, Mistral's) reject
/// anything else.
pub(crate) fn request(
    protocol: Protocol,
    model: &str,
    messages: &[Message],
    tools: &[ToolDef],
    followup: &Followup,
    plans: &HashMap<String, Vec<Part>>,
    near: Option<&str>,
) -> ChatRequest {
    match protocol {
        Protocol::Native => {
            let mut messages = messages.to_vec();
            for call in messages.iter_mut().flat_map(|m| m.tool_calls.iter_mut()) {
                call.function.name = wire_name(&call.function.name);
            }
            let mut request = ChatRequest::new(model, messages);
            request.tools = tools
                .iter()
                .map(|t| {
                    let mut t = t.clone();
                    t.function.name = wire_name(&t.function.name);
                    t
                })
                .collect();
            let choice = if followup.answer_only() {
                "none"
            } else {
                "auto"
            };
            request.tool_choice = (!tools.is_empty()).then(|| json!(choice));
            request
        }
        Protocol::Constrained => {
            let mut request = ChatRequest::new(model, as_written(messages, followup, plans, near));
            let retried: Vec<ToolDef>;
            let allowed = if followup.answer_only() {
                &[][..]
            } else if let Some(tool) = &followup.retry {
                retried = tools
                    .iter()
                    .filter(|t| &t.function.name == tool)
                    .cloned()
                    .collect();
                &retried[..]
            } else {
                tools
            };
            // After results the model may say they are the answer (`done`), so a turn whose
            // results say it all costs a few generated tokens, not a sentence repeating them.
            let after_results = messages.last().is_some_and(|m| m.role == "tool");
            // Calls come after the model's list of what the person asked for (after
            // results: what is still open). The examples teach that form, so a grammar
            // without it would turn a model about to call into one that answers.
            let answer = match (after_results, followup.owed) {
                _ if followup.retry.is_some() || followup.look => envelope::Answer::Never,
                (false, _) => envelope::Answer::Text,
                (true, true) => envelope::Answer::Owed,
                (true, false) => envelope::Answer::TextOrDone,
            };
            let plan = envelope::Plan::Parts;
            request.grammar = envelope::grammar_with(allowed, answer, plan);
            if request.grammar.is_none() {
                request.response_format =
                    Some(envelope::response_format_with(allowed, answer, plan));
            }
            request
        }
    }
}

/// A tool's name as OpenAI's function-name rule (`^[a-zA-Z0-9_-]{1,64}$`, which some
/// servers enforce) takes it: an imported tool's `server.tool` is sent as `server-tool`.
/// The length is the same, and it reads back unambiguously ([`from_wire`]): Deskmate's
/// own ids and server names have no `-`, so the first `-` of a name is the dot.
fn wire_name(name: &str) -> String {
    name.replacen('.', "-", 1)
}

/// Native calls named as sent ([`wire_name`]) renamed back to the offered tools' ids.
pub(crate) fn from_wire(calls: &mut [ToolCall], tools: &[ToolDef]) {
    for call in calls {
        let sent = &call.function.name;
        if tools.iter().any(|t| &t.function.name == sent) {
            continue;
        }
        if let Some(tool) = tools.iter().find(|t| wire_name(&t.function.name) == *sent) {
            call.function.name = tool.function.name.clone();
        }
    }
}

/// The conversation as a constrained model writes and reads it: its calls and answers as
/// the JSON it produced (calls with the parts it listed before them, `plans`), each
/// step's results as one message.
fn as_written(
    messages: &[Message],
    followup: &Followup,
    plans: &HashMap<String, Vec<Part>>,
    near: Option<&str>,
) -> Vec<Message> {
    // The person's message of this turn: the last one of theirs (results are `tool`
    // messages here), where the examples near it go.
    let latest = messages.iter().rposition(|m| m.role == "user");
    let mut names: HashMap<&str, &str> = HashMap::new();
    let mut out: Vec<Message> = Vec::new();
    let mut results: Vec<String> = Vec::new();
    // The person's latest message: after a step's results the model is reminded of it,
    // so a request for several things is not answered after the first one is done.
    let request = messages
        .iter()
        .rev()
        .find(|m| m.role == "user")
        .and_then(|m| m.content.as_deref())
        .unwrap_or_default();
    let flush = |results: &mut Vec<String>, out: &mut Vec<Message>, last: bool| {
        if results.is_empty() {
            return;
        }
        let mut text = format!("Tool results:\n{}", results.join("\n"));
        if last {
            text.push('\n');
            text.push_str(&what_next(followup, request));
        }
        out.push(Message::user(text));
        results.clear();
    };
    for (i, message) in messages.iter().enumerate() {
        if message.role == "tool" {
            let id = message.tool_call_id.as_deref().unwrap_or_default();
            let name = names.get(id).copied().unwrap_or("tool");
            results.push(format!(
                "- {name}: {}",
                message.content.as_deref().unwrap_or_default()
            ));
            continue;
        }
        flush(&mut results, &mut out, false);
        match message.role.as_str() {
            "assistant" if !message.tool_calls.is_empty() => {
                for call in &message.tool_calls {
                    names.insert(&call.id, &call.function.name);
                }
                let parts = message
                    .tool_calls
                    .first()
                    .and_then(|c| plans.get(&c.id))
                    .map_or(&[][..], Vec::as_slice);
                out.push(Message::assistant(
                    Some(envelope::render_calls(parts, &message.tool_calls)),
                    Vec::new(),
                ));
            }
            "assistant" => out.push(Message::assistant(
                Some(envelope::render_answer(
                    message.content.as_deref().unwrap_or_default(),
                )),
                Vec::new(),
            )),
            "user" if Some(i) == latest && near.is_some() => {
                let text = message.content.as_deref().unwrap_or_default();
                out.push(Message::user(with_examples(near.unwrap_or_default(), text)));
            }
            _ => out.push(message.clone()),
        }
    }
    flush(&mut results, &mut out, true);
    out
}

/// The person's message with the examples near it shown before its words, which follow
/// as one more line of the examples' form (`User: …`), so where the examples end and the
/// request to answer begins is plain.
pub(crate) fn with_examples(examples: &str, message: &str) -> String {
    format!("{examples}\n\nUser: {message}")
}

/// Earlier turns as a strict chat template takes them: the person's and the assistant's
/// messages in turn, starting with the person's and ending with the assistant's. A
/// message of the person that got no reply (the turn was stopped, or its reply was only
/// calls) is left out, and so is a reply with no message of the person before it.
pub(crate) fn in_turns(history: impl IntoIterator<Item = Message>) -> Vec<Message> {
    let mut out: Vec<Message> = Vec::new();
    for message in history {
        let expected = if out.len().is_multiple_of(2) {
            "user"
        } else {
            "assistant"
        };
        if message.role == expected {
            out.push(message);
        } else if message.role == "user" {
            // A second message of the person: the one before it got no reply.
            out.pop();
            out.push(message);
        } else if message.role == "assistant" && !out.is_empty() {
            // A second reply to one message: the two are one answer.
            if let Some(last) = out.last_mut() {
                let joined = format!(
                    "{}\n{}",
                    last.content.as_deref().unwrap_or_default(),
                    message.content.as_deref().unwrap_or_default()
                );
                last.content = Some(joined);
            }
        }
    }
    if !out.len().is_multiple_of(2) {
        out.pop();
    }
    out
}

/// What the model is told to do after the latest results, from the state of the turn
/// (`request`: the person's latest message).
fn what_next(followup: &Followup, request: &str) -> String {
    let language = followup.language.named();
    if let Some(tool) = &followup.retry {
        format!(
            "Call {tool} again now, with the valid value the error named that is closest to \
what the user asked for."
        )
    } else if followup.words_only {
        // The parts owed, as the model wrote them, put as the person's question: measured
        // to get an answer instead of an echo of the part or a refusal.
        let owed = if followup.asks.is_empty() {
            format!("what the user's request {request:?} still asks")
        } else {
            let asks: Vec<String> = followup.asks.iter().map(|a| format!("{a:?}")).collect();
            format!("the user's question {}", asks.join(", "))
        };
        format!(
            "Now answer {owed} in {language} (or the language they ask for), briefly, with the \
results above."
        )
    } else if followup.unasked {
        format!(
            "These calls were not run: the user did not ask for them. Do not call tools now; \
reply to the user's message {request:?} itself, in {language} (or the language they ask for), \
briefly (if they asked for something no tool does, say so)."
        )
    } else if followup.settled {
        format!(
            "A call could not be done on this computer, was refused, or got no answer in time: \
do not call it again; tell the user in {language} (or the language they ask for), briefly, what \
was done and what was not."
        )
    } else if followup.failed && followup.passing {
        format!(
            "A call failed for a passing reason (busy, restarting, slow the first time): call it \
again as it was, or tell the user in {language} what is wrong."
        )
    } else if !followup.open.is_empty() {
        format!(
            "Not fixed yet: {}. Fix each with its error's hint and valid options and call it \
again, or tell the user in {language} what is wrong.",
            followup.open.join("; ")
        )
    } else if followup.failed {
        format!(
            "A call failed: fix it with the error's hint and valid options and call again, or \
tell the user in {language} what is wrong."
        )
    } else {
        // With a part no tool does listed, words are owed: "done" is not offered.
        let done = if followup.owed {
            String::new()
        } else {
            format!(
                " If the results answer all of it, reply {}.",
                envelope::DONE
            )
        };
        format!(
            "The user's request: {request:?}. If a part of it is not done yet, call tools for \
that part only (a result above may be an argument). If a part asks something these results do \
not say, answer it in {language} (or the language they ask for), briefly.{done} Never repeat a \
call that is done."
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::fixtures;
    use crate::protocol::fixtures::tool;

    /// The constrained request of a turn offering the calculator, in English.
    fn constrained(messages: &[Message], near: Option<&str>) -> ChatRequest {
        request(
            Protocol::Constrained,
            "m",
            messages,
            &[tool("calculator")],
            &Followup::new(Language::English),
            &HashMap::new(),
            near,
        )
    }
    use deskmate_llm::wire::FunctionCall;

    #[test]
    fn imported_tools_reach_a_native_server_under_openai_function_names() {
        let tools = [tool("files.read_file"), tool("calculator")];
        let call = |name: &str| ToolCall {
            id: "call_1".into(),
            kind: "function".into(),
            function: FunctionCall {
                name: name.into(),
                arguments: "{}".into(),
            },
        };
        let messages = [
            Message::system("s"),
            Message::assistant(None, vec![call("files.read_file")]),
        ];
        let sent = request(
            Protocol::Native,
            "m",
            &messages,
            &tools,
            &Followup::new(Language::English),
            &HashMap::new(),
            None,
        );
        let names: Vec<&str> = sent
            .tools
            .iter()
            .map(|t| t.function.name.as_str())
            .collect();
        assert_eq!(names, ["files-read_file", "calculator"]);
        assert_eq!(
            sent.messages[1].tool_calls[0].function.name,
            "files-read_file"
        );
        let mut calls = [call("files-read_file"), call("calculator"), call("nope-x")];
        from_wire(&mut calls, &tools);
        let back: Vec<&str> = calls.iter().map(|c| c.function.name.as_str()).collect();
        assert_eq!(back, ["files.read_file", "calculator", "nope-x"]);
    }

    #[test]
    fn earlier_calls_and_results_are_shown_as_the_model_writes_and_reads_them() {
        let call = fixtures::call("call_x", "calculator", r#"{"expression": "2+2"}"#);
        let messages = vec![
            Message::system("sys"),
            Message::user("2+2?"),
            Message::assistant(None, vec![call]),
            Message::tool("call_x", r#"{"result":4}"#),
        ];
        let written = as_written(
            &messages,
            &Followup::new(Language::Chinese),
            &HashMap::new(),
            None,
        );
        let roles: Vec<&str> = written.iter().map(|m| m.role.as_str()).collect();
        assert_eq!(roles, ["system", "user", "assistant", "user"]);
        assert_eq!(
            written[2].content.as_deref(),
            Some(r#"{"calls":[{"name":"calculator","arguments":{"expression":"2+2"}}]}"#)
        );
        let results = written[3].content.clone().unwrap_or_default();
        assert!(results.starts_with("Tool results:\n- calculator: {\"result\":4}"));
        assert!(results.contains("in Chinese"), "{results}");
        // Reminded of the request, so the rest of a request for several things is called.
        assert!(
            results.contains(r#"The user's request: "2+2?""#),
            "{results}"
        );
        assert!(results.contains(r#"reply {"done":true}"#), "{results}");
        // After results the grammar admits `done`; before them it does not.
        let grammar =
            |messages: &[Message]| constrained(messages, None).grammar.unwrap_or_default();
        assert!(grammar(&messages).contains(r#"{\"done\":true}"#));
        assert!(!grammar(&messages[..2]).contains("done"));
        assert!(written.iter().all(|m| m.tool_calls.is_empty()));
    }

    /// One system message, first, then the person's and the model's messages in turn —
    /// with the examples near the request in the person's message, and after results —
    /// while the reminder of the request quotes the person's own words.
    #[test]
    fn a_constrained_request_keeps_to_a_strict_templates_roles() {
        let call = fixtures::call("call_x", "calculator", r#"{"expression": "2+2"}"#);
        let earlier = in_turns([
            Message::user("hello"),
            Message::assistant(Some("Hi!".into()), Vec::new()),
            Message::user("stopped before any reply"),
            Message::user("what time is it?"),
            Message::assistant(Some("It is 9:00.".into()), Vec::new()),
            Message::user("stopped again"),
        ]);
        let mut messages = vec![Message::system("sys")];
        messages.extend(earlier);
        messages.push(Message::user("2+2?"));
        let examples = "Examples like this request:\nUser: 3+3 → {}";
        let roles = |sent: &ChatRequest| -> Vec<String> {
            sent.messages.iter().map(|m| m.role.clone()).collect()
        };
        let alternate = |roles: &[String]| {
            roles[0] == "system"
                && roles[1..]
                    .iter()
                    .enumerate()
                    .all(|(i, r)| r == if i % 2 == 0 { "user" } else { "assistant" })
        };
        let build = |messages: &[Message]| constrained(messages, Some(examples));
        let first = build(&messages);
        let first_roles = roles(&first);
        assert!(alternate(&first_roles), "{first_roles:?}");
        assert_eq!(first_roles.len(), 6, "{first_roles:?}");
        let asked = first.messages[5].content.clone().unwrap_or_default();
        assert!(
            asked.starts_with(examples) && asked.ends_with("\n\nUser: 2+2?"),
            "{asked}"
        );

        messages.push(Message::assistant(None, vec![call]));
        messages.push(Message::tool("call_x", r#"{"result":4}"#));
        let after = build(&messages);
        let after_roles = roles(&after);
        assert!(alternate(&after_roles), "{after_roles:?}");
        let results = after
            .messages
            .last()
            .and_then(|m| m.content.clone())
            .unwrap_or_default();
        assert!(
            results.contains(r#"The user's request: "2+2?""#),
            "{results}"
        );
    }

    #[test]
    fn earlier_turns_alternate_from_the_person_to_the_assistant() {
        let texts = |history: Vec<Message>| -> Vec<String> {
            in_turns(history)
                .into_iter()
                .map(|m| format!("{}:{}", m.role, m.content.unwrap_or_default()))
                .collect()
        };
        let reply = |t: &str| Message::assistant(Some(t.into()), Vec::new());
        assert_eq!(
            texts(vec![
                reply("orphan"),
                Message::user("a"),
                reply("A"),
                reply("A2")
            ]),
            ["user:a", "assistant:A\nA2"]
        );
        assert_eq!(
            texts(vec![
                Message::user("a"),
                Message::user("b"),
                reply("B"),
                Message::user("c")
            ]),
            ["user:b", "assistant:B"]
        );
        assert!(texts(vec![Message::user("only")]).is_empty());
    }
}
