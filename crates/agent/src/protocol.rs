//! How the turn talks to its model: the request for each step and how a reply becomes
//! calls or an answer.
//!
//! Two ways, chosen per server:
//! - **constrained** (llama.cpp): the tools are one compact catalog in the system prompt,
//!   and the reply is decoded under a JSON Schema (`deskmate_llm::envelope`): a list of
//!   calls to offered tools with schema-shaped arguments, or an answer. Earlier calls and
//!   results are shown to the model the way it writes and reads them (its JSON, then the
//!   results as one message with the language to answer in).
//! - **native** (any other OpenAI-compatible server): the `tools` field, and calls as
//!   `tool_calls` or written in the text (extracted).
//!
//! In both, the system prompt depends only on the offered tools, so it is byte-identical
//! across turns and conversations and the server's prompt cache is reused.

use std::collections::HashMap;

use deskmate_llm::envelope::{self, Parsed, Part};
use deskmate_llm::extract::{Extracted, extract_calls};
use deskmate_llm::wire::{ChatRequest, FunctionCall, Message, ToolCall, ToolDef};
use deskmate_llm::{Reply, StreamEvent};
use deskmate_service::language::Language;
use deskmate_tools::Example;
use serde_json::json;
use tokio::sync::mpsc::UnboundedSender;

use crate::types::{AgentEvent, emit};

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

/// How a turn speaks to its model.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Protocol {
    /// JSON replies decoded under a schema of the offered tools.
    Constrained,
    /// The OpenAI `tools` field.
    Native,
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
/// them).
pub(crate) fn request(
    protocol: Protocol,
    model: &str,
    messages: &[Message],
    tools: &[ToolDef],
    followup: &Followup,
    plans: &HashMap<String, Vec<Part>>,
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
            let mut request = ChatRequest::new(model, as_written(messages, followup, plans));
            let allowed = if followup.answer_only() {
                &[][..]
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
) -> Vec<Message> {
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
    for message in messages {
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
            _ => out.push(message.clone()),
        }
    }
    flush(&mut results, &mut out, true);
    out
}

/// What the model is told to do after the latest results, from the state of the turn
/// (`request`: the person's latest message).
fn what_next(followup: &Followup, request: &str) -> String {
    let language = followup.language.named();
    if followup.words_only {
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

/// The key under which a saved assistant message keeps the parts the model listed before
/// its calls (in the message's `deskmate` object).
pub(crate) const PARTS: &str = "parts";

/// What a reply asks for: calls (with how they were found in text, if they were) and the
/// text meant for the person.
pub(crate) struct Read {
    pub calls: Vec<ToolCall>,
    pub text: String,
    pub extracted: Option<Extracted>,
    /// The model said the results it read are the whole answer.
    pub done: bool,
    /// The parts of the request the model listed before its calls (constrained, first
    /// step); empty otherwise.
    pub parts: Vec<Part>,
}

/// Reads a complete reply.
pub(crate) fn read(protocol: Protocol, reply: Reply) -> Read {
    if protocol == Protocol::Constrained {
        match envelope::parse(&reply.content) {
            Some(Parsed::Calls { parts, calls }) => {
                return Read {
                    calls,
                    text: String::new(),
                    extracted: None,
                    done: false,
                    parts,
                };
            }
            Some(Parsed::Answer(text)) => {
                return Read {
                    calls: Vec::new(),
                    text,
                    extracted: None,
                    done: false,
                    parts: Vec::new(),
                };
            }
            Some(Parsed::Done) => {
                return Read {
                    calls: Vec::new(),
                    text: String::new(),
                    extracted: None,
                    done: true,
                    parts: Vec::new(),
                };
            }
            // Cut short (the token limit): keep what the answer said so far. Calls cut
            // short are not run, and their JSON is not shown to the person either.
            None => {
                let partial = envelope::AnswerStream::new().feed(&reply.content);
                let head = reply.content.trim_start();
                let calls = head.starts_with("{\"calls\"") || head.starts_with("{\"parts\"");
                if !partial.is_empty() || calls {
                    return Read {
                        calls: Vec::new(),
                        text: partial,
                        extracted: None,
                        done: false,
                        parts: Vec::new(),
                    };
                }
            }
        }
    }
    if !reply.tool_calls.is_empty() {
        return Read {
            calls: reply.tool_calls,
            text: reply.content,
            extracted: None,
            done: false,
            parts: Vec::new(),
        };
    }
    match extract_calls(&reply.content) {
        Some(found) => Read {
            calls: found.calls.clone(),
            text: found.text.clone(),
            extracted: Some(found),
            done: false,
            parts: Vec::new(),
        },
        None => Read {
            calls: Vec::new(),
            text: reply.content,
            extracted: None,
            done: false,
            parts: Vec::new(),
        },
    }
}

/// Passes a reply's text to the person as it streams: a native reply unless it starts
/// like a call written as text, a constrained reply's answer decoded from its JSON. Holds
/// all of it when `hold` (the reply after tools ran is checked against their results
/// before it is shown).
pub(crate) struct TokenGate<'a> {
    events: &'a UnboundedSender<AgentEvent>,
    answer: Option<envelope::AnswerStream>,
    hold: bool,
    held: String,
    passing: Option<bool>,
    shown: bool,
    /// The turn's language: a constrained answer is held back until its first words
    /// show its language, and all of it when that is the other one (the turn may write
    /// it again, `reply_language`).
    language: Language,
    /// Whether a constrained answer's language is known to be the turn's (or cannot be
    /// told): what is held is shown and the rest streams.
    settled: bool,
}

impl<'a> TokenGate<'a> {
    pub(crate) fn new(
        events: &'a UnboundedSender<AgentEvent>,
        protocol: Protocol,
        hold: bool,
        language: Language,
    ) -> Self {
        Self {
            events,
            answer: (protocol == Protocol::Constrained).then(envelope::AnswerStream::new),
            hold,
            held: String::new(),
            passing: None,
            shown: false,
            language,
            settled: false,
        }
    }

    fn show(&mut self, text: String) {
        if !text.is_empty() {
            self.shown = true;
            emit(self.events, AgentEvent::Token { text });
        }
    }

    pub(crate) fn on(&mut self, event: StreamEvent) {
        let StreamEvent::Token(text) = event else {
            return;
        };
        if self.hold {
            return;
        }
        if let Some(answer) = &mut self.answer {
            let piece = answer.feed(&text);
            if self.settled {
                self.show(piece);
                return;
            }
            self.held.push_str(&piece);
            if crate::reply_language::off(&self.held, self.language) {
                // The other language: held whole; the reply shown is the one the turn
                // ends with.
                self.hold = true;
                return;
            }
            // Known to be the turn's language, or long enough that the start will not
            // tell: shown from here on.
            if Language::written(&self.held).is_some() || self.held.chars().count() > 32 {
                self.settled = true;
                let held = std::mem::take(&mut self.held);
                self.show(held);
            }
            return;
        }
        match self.passing {
            Some(true) => self.show(text),
            Some(false) => self.held.push_str(&text),
            None => {
                self.held.push_str(&text);
                let start = self.held.trim_start();
                if start.is_empty() {
                    return;
                }
                let pass = !start.starts_with(['{', '[', '<', '`']);
                self.passing = Some(pass);
                if pass {
                    let text = std::mem::take(&mut self.held);
                    self.show(text);
                }
            }
        }
    }

    /// The reply is complete: `text` is what the person should read of it; shown now
    /// unless it was streamed already.
    pub(crate) fn finish(mut self, text: &str) {
        if !self.shown && !text.trim().is_empty() {
            self.show(text.to_string());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use deskmate_tools::Teaches;

    fn tool(name: &str) -> ToolDef {
        ToolDef::function(
            name,
            "Does a thing. More words.",
            json!({"type": "object", "properties": {}}),
        )
    }

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
        );
        let grammar = sent.grammar.unwrap_or_default();
        assert!(
            grammar.contains("set_timer") && !grammar.contains("increase_volume"),
            "{grammar}"
        );
    }

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
        let call = ToolCall {
            id: "call_x".into(),
            kind: "function".into(),
            function: FunctionCall {
                name: "calculator".into(),
                arguments: r#"{"expression": "2+2"}"#.into(),
            },
        };
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
        let grammar = |messages: &[Message]| {
            request(
                Protocol::Constrained,
                "m",
                messages,
                &[tool("calculator")],
                &Followup::new(Language::English),
                &HashMap::new(),
            )
            .grammar
            .unwrap_or_default()
        };
        assert!(grammar(&messages).contains(r#"{\"done\":true}"#));
        assert!(!grammar(&messages[..2]).contains("done"));
        assert!(written.iter().all(|m| m.tool_calls.is_empty()));
    }
}
