//! Tool calling through one constrained JSON reply, for servers that can constrain
//! decoding to a JSON Schema (llama.cpp's `response_format`).
//!
//! The model answers with exactly one object: `{"calls": [{"name", "arguments"}, …]}`
//! (or `{"parts": [{"ask", "tool"}, …], "calls": […]}`: the things the person asked for,
//! in their words, each with the tool that does it, before the calls — [`Plan`]),
//! `{"answer": "…"}` (after parts no tool does, under [`Plan::Parts`]), or —
//! after tool results, where it is offered — `{"done":true}`: the results say all there
//! is to say and the caller builds the reply from them. The schema sent with the request
//! lists every offered tool as a
//! `const` name with its own argument schema, so a call names an offered tool and its
//! arguments have the schema's shape by construction; several actions come back as one
//! list (one group, one step); plain answers stay possible.
//!
//! The tools are described to the model by [`catalog`], one compact line each
//! (`name(arg: integer 1-50, opt?: integer = 10): first sentence`), which costs about a
//! quarter of the tokens of the JSON tool block a chat template renders.

use serde_json::{Map, Value, json};

use crate::grammar::{Grammar, alternatives, literal};
use crate::wire::{FunctionCall, ToolCall, ToolDef};

/// What a constrained reply says.
#[derive(Debug, Clone, PartialEq)]
pub enum Parsed {
    /// Text for the person.
    Answer(String),
    /// Calls to run, in order (ids are left empty for the caller to give), and the parts
    /// of the request the model listed before them (empty when it listed none).
    Calls {
        /// Each thing the person asked for ([`Plan::Parts`]).
        parts: Vec<Part>,
        /// The calls.
        calls: Vec<ToolCall>,
    },
    /// Nothing more to do or say: the results the model read are the answer.
    Done,
}

/// One thing the person asked for, as the model listed it before acting: the request's
/// words for it and the tool whose description says it does exactly that — `None` when
/// no offered tool does, so the part needs words (an answer, or that it cannot be done).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Part {
    /// The part, in the person's words.
    pub ask: String,
    /// The tool that does it; `None`: no tool does.
    pub tool: Option<String>,
}

/// How a part that no tool does names its tool (`"tool":"none"`). A string, not `null`,
/// so the model picks it among the tool names, measured better at saying no than `null`
/// (BENCHMARKS).
pub const NO_TOOL: &str = "none";

impl Part {
    /// A part done by `tool` (`None`: by no tool).
    pub fn new(ask: impl Into<String>, tool: Option<&str>) -> Self {
        Self {
            ask: ask.into(),
            tool: tool.map(str::to_string),
        }
    }

    /// The part as the model writes it: `{"ask":"…","tool":"<name>"|"none"}`.
    pub fn to_value(&self) -> Value {
        json!({"ask": self.ask, "tool": self.tool.as_deref().unwrap_or(NO_TOOL)})
    }

    /// A part as written: `{"ask", "tool"}` (a `null` or `"none"` tool is no tool), or a
    /// bare string (parts saved before they named tools), which names no tool.
    pub fn from_value(value: &Value) -> Option<Self> {
        if let Some(ask) = value.as_str() {
            return Some(Self::new(ask, None));
        }
        let ask = value.get("ask")?.as_str()?;
        let tool = match value.get("tool") {
            None | Some(Value::Null) => None,
            Some(tool) => Some(tool.as_str()?).filter(|t| *t != NO_TOOL),
        };
        Some(Self::new(ask, tool))
    }
}

/// Longest string or list bound kept in the constraint. Larger bounds add nothing a
/// model needs and make the server's grammar large; the guard still validates them.
const MAX_BOUND: u64 = 64;

/// Most calls in one reply.
const MAX_CALLS: usize = 8;

/// What a constrained reply may answer instead of calling tools.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Answer {
    /// Any text for the person.
    Text,
    /// Any text, or `{"done":true}`: for a reply after tool results, where the model
    /// decides whether calls are left, words are needed, or the results are the whole
    /// answer (a handful of generated tokens instead of a sentence that repeats them).
    TextOrDone,
    /// After tool results, when a part the model listed is one no tool does: its words
    /// are still owed, so the reply is more calls or an answer (plain, or after the
    /// parts), never `{"done":true}`. The model's own list says so, not the message's
    /// wording.
    Owed,
    /// No answer: only calls. One more try of a call whose tool named the valid values,
    /// after the model gave up on it (the grammar holds the wrong argument to those
    /// values). With no tool to call, the answer is text.
    Never,
}

/// Whether calls come after the model's plan of the request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Plan {
    /// `{"calls":[…]}`: the calls alone.
    None,
    /// `{"parts":[{"ask":"…","tool":"…"},…],"calls":[…]}`: first each thing the person
    /// asked for, in their words, with the tool that does it or `"none"`, then the calls.
    /// The model commits to the request's parts before it picks tools, so a second request
    /// is not lost behind the first one's call, and the caller can tell from the model's
    /// own list whether its calls cover the request. Whether to act at all is decided
    /// there, part by part, after the request is written out, instead of by the reply's
    /// first token: a first-step answer ([`Answer::Text`]) is
    /// `{"parts":[…],"answer":"…"}` with every part's tool `"none"`, and calls need at least
    /// one part with a tool.
    Parts,
}

/// The reply that says the results are the answer.
pub const DONE: &str = "{\"done\":true}";

/// The `response_format` of a request offering `tools`.
pub fn response_format(tools: &[ToolDef]) -> Value {
    response_format_with(tools, Answer::Text, Plan::None)
}

/// The `response_format` of a request offering `tools`, whose answer is `answer` and
/// whose calls come after `plan`.
pub fn response_format_with(tools: &[ToolDef], answer: Answer, plan: Plan) -> Value {
    let calls: Vec<Value> = tools
        .iter()
        .map(|t| {
            json!({
                "type": "object",
                "properties": {
                    "name": {"const": t.function.name},
                    "arguments": constraint(&t.function.parameters),
                },
                "required": ["name", "arguments"],
                "additionalProperties": false,
            })
        })
        .collect();
    let text = json!({
        "type": "object",
        "properties": {"answer": {"type": "string"}},
        "required": ["answer"],
        "additionalProperties": false,
    });
    let answer_only = match answer {
        Answer::Text | Answer::Owed | Answer::Never => text,
        Answer::TextOrDone => json!({"anyOf": [text, {
            "type": "object",
            "properties": {"done": {"const": true}},
            "required": ["done"],
            "additionalProperties": false,
        }]}),
    };
    let schema = if calls.is_empty() {
        answer_only
    } else if answer == Answer::Never {
        let calls = json!({"type": "array", "minItems": 1, "maxItems": MAX_CALLS,
                           "items": {"anyOf": calls}});
        let (properties, required) = match plan {
            Plan::None => (json!({"calls": calls}), json!(["calls"])),
            Plan::Parts => (
                json!({"parts": part_list(tools), "calls": calls}),
                json!(["parts", "calls"]),
            ),
        };
        json!({"type": "object", "properties": properties, "required": required,
               "additionalProperties": false})
    } else {
        let calls = json!({"type": "array", "minItems": 1, "maxItems": MAX_CALLS,
                           "items": {"anyOf": calls}});
        let reply = match plan {
            Plan::None => json!({
                "type": "object",
                "properties": {"calls": calls},
                "required": ["calls"],
                "additionalProperties": false,
            }),
            Plan::Parts => json!({
                "type": "object",
                "properties": {"parts": part_list(tools), "calls": calls},
                "required": ["parts", "calls"],
                "additionalProperties": false,
            }),
        };
        // A first answer lists the parts too (each one no tool does); after results the
        // parts may come before the answer.
        let planned = |required: Value| {
            json!({
                "type": "object",
                "properties": {"parts": part_list(tools), "answer": {"type": "string"}},
                "required": required,
                "additionalProperties": false,
            })
        };
        let answer_only = match (plan, answer) {
            (Plan::Parts, Answer::Text) => planned(json!(["parts", "answer"])),
            (Plan::Parts, Answer::TextOrDone | Answer::Owed) => {
                json!({"anyOf": [planned(json!(["answer"])), answer_only]})
            }
            _ => answer_only,
        };
        json!({"anyOf": [reply, answer_only]})
    };
    json!({"type": "json_schema", "json_schema": {"name": "reply", "schema": schema}})
}

/// The JSON Schema of a plan's parts: the words, and one of `tools` or `"none"`.
fn part_list(tools: &[ToolDef]) -> Value {
    let names: Vec<&str> = tools
        .iter()
        .map(|t| t.function.name.as_str())
        .chain([NO_TOOL])
        .collect();
    json!({"type": "array", "minItems": 1, "maxItems": MAX_CALLS, "items": {
        "type": "object",
        "properties": {"ask": {"type": "string"}, "tool": {"enum": names}},
        "required": ["ask", "tool"],
        "additionalProperties": false,
    }})
}

/// The same constraint as [`response_format`] as a compact-JSON GBNF grammar (see
/// [`crate::grammar`]): no whitespace outside strings, so a call costs the fewest
/// generated tokens. With no tools the reply can only be an answer. `None` when a tool's
/// schema has a keyword the grammar cannot express; use [`response_format`] then.
pub fn grammar(tools: &[ToolDef]) -> Option<String> {
    grammar_with(tools, Answer::Text, Plan::None)
}

/// [`grammar`] whose answer is `answer` and whose calls come after `plan`.
pub fn grammar_with(tools: &[ToolDef], answer: Answer, plan: Plan) -> Option<String> {
    let mut g = Grammar::new();
    let never = answer == Answer::Never;
    let text = format!("{} string \"}}\"", literal("{\"answer\":"));
    if tools.is_empty() {
        let answer = g.rule("answer", text);
        return Some(g.finish(&answer));
    }
    // The answer without parts: text, or text or done.
    let plain = match answer {
        Answer::Text | Answer::Owed | Answer::Never => text,
        Answer::TextOrDone => format!("{text} | {}", literal(DONE)),
    };
    let mut calls = Vec::new();
    for (i, t) in tools.iter().enumerate() {
        let name = &t.function.name;
        let arguments = g.schema(&format!("args-{i}"), &constraint(&t.function.parameters))?;
        let head = format!("{{\"name\":{},\"arguments\":", Value::from(name.as_str()));
        calls.push(g.rule(
            &format!("call-{i}"),
            format!("{} {arguments} \"}}\"", literal(&head)),
        ));
    }
    let call = g.rule("call", alternatives(calls));
    let more = MAX_CALLS - 1;
    let (head, answer) = match plan {
        Plan::None => (literal("{\"calls\":["), plain),
        Plan::Parts => {
            // A part no tool does, a part one of `tools` does, and either.
            let ask = literal("{\"ask\":");
            let none = g.rule(
                "part-none",
                format!(
                    "{ask} string {}",
                    literal(&format!(",\"tool\":\"{NO_TOOL}\"}}"))
                ),
            );
            let names = tools
                .iter()
                .map(|t| literal(&Value::from(t.function.name.as_str()).to_string()))
                .collect();
            let name = g.rule("tool-name", alternatives(names));
            let tool = g.rule(
                "part-tool",
                format!("{ask} string {} {name} \"}}\"", literal(",\"tool\":")),
            );
            let part = g.rule("part", format!("{none} | {tool}"));
            let parts = literal("{\"parts\":[");
            // Calls follow a list with at least one part a tool does; a first answer
            // follows a list of parts no tool does.
            let head = format!(
                "{parts} ({none} \",\"){{0,{more}}} {tool} (\",\" {part}){{0,{more}}} {}",
                literal("],\"calls\":[")
            );
            let answer = match answer {
                Answer::Text | Answer::Never => format!(
                    "{parts} {none} (\",\" {none}){{0,{more}}} {} string \"}}\"",
                    literal("],\"answer\":")
                ),
                // After results: the answer (or done, unless words are owed), or the
                // parts (what was asked, done or not) and then the answer.
                Answer::TextOrDone | Answer::Owed => format!(
                    "{plain} | {parts} {part} (\",\" {part}){{0,{more}}} {} string \"}}\"",
                    literal("],\"answer\":")
                ),
            };
            (head, answer)
        }
    };
    // Rules in this order: the committed grammar of the built-in tools reads the same.
    let answer = (!never).then(|| g.rule("answer", answer));
    let list = g.rule(
        "calls",
        format!("{head} {call} (\",\" {call}){{0,{more}}} \"]}}\""),
    );
    Some(match answer {
        Some(answer) => g.finish(&format!("{list} | {answer}")),
        None => g.finish(&list),
    })
}

/// A parameter schema as a decoding constraint: descriptions, defaults, patterns and
/// large bounds dropped (the guard checks them after decoding).
fn constraint(schema: &Value) -> Value {
    match schema {
        Value::Object(map) => {
            let mut out = Map::new();
            for (key, value) in map {
                match key.as_str() {
                    "description" | "default" | "examples" | "title" | "pattern" | "format"
                    | "uniqueItems" | "maxProperties" | "minProperties" => {}
                    "minLength" | "maxLength" | "minItems" | "maxItems" => {
                        if value.as_u64().is_some_and(|n| n <= MAX_BOUND) {
                            out.insert(key.clone(), value.clone());
                        }
                    }
                    "properties" => {
                        let props = value
                            .as_object()
                            .map(|p| {
                                p.iter()
                                    .map(|(name, s)| (name.clone(), constraint(s)))
                                    .collect::<Map<_, _>>()
                            })
                            .unwrap_or_default();
                        out.insert(key.clone(), Value::Object(props));
                    }
                    _ => {
                        out.insert(key.clone(), constraint(value));
                    }
                }
            }
            Value::Object(out)
        }
        Value::Array(items) => Value::Array(items.iter().map(constraint).collect()),
        other => other.clone(),
    }
}

/// One line per tool: its signature and the first sentence of its description.
pub fn catalog(tools: &[ToolDef]) -> String {
    tools
        .iter()
        .map(|t| {
            let params = &t.function.parameters;
            let required: Vec<&str> = params["required"]
                .as_array()
                .map(|r| r.iter().filter_map(Value::as_str).collect())
                .unwrap_or_default();
            let args: Vec<String> = params["properties"]
                .as_object()
                .map(|props| {
                    props
                        .iter()
                        .map(|(name, schema)| {
                            let optional = if required.contains(&name.as_str()) {
                                ""
                            } else {
                                "?"
                            };
                            match schema.get("default") {
                                // An optional number is shown with its default and not
                                // its range: a small model copies the range's lower end
                                // (a 5 s timeout nobody asked for) into the call.
                                Some(default)
                                    if !optional.is_empty()
                                        && matches!(
                                            schema["type"].as_str(),
                                            Some("integer" | "number")
                                        ) =>
                                {
                                    format!(
                                        "{name}?: {} = {default}",
                                        schema["type"].as_str().unwrap_or("number")
                                    )
                                }
                                Some(default) => {
                                    format!("{name}{optional}: {} = {default}", type_of(schema))
                                }
                                None => format!("{name}{optional}: {}", type_of(schema)),
                            }
                        })
                        .collect()
                })
                .unwrap_or_default();
            format!(
                "- {}({}): {}",
                t.function.name,
                args.join(", "),
                first_sentence(&t.function.description)
            )
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// `string`, `integer 1-50`, `"a"|"b"`, `string[]`, …
fn type_of(schema: &Value) -> String {
    if let Some(options) = schema["enum"].as_array() {
        return options
            .iter()
            .map(Value::to_string)
            .collect::<Vec<_>>()
            .join("|");
    }
    match schema["type"].as_str() {
        Some("array") => format!("{}[]", type_of(&schema["items"])),
        Some(kind @ ("integer" | "number")) => {
            match (schema.get("minimum"), schema.get("maximum")) {
                (Some(lo), Some(hi)) => format!("{kind} {lo}-{hi}"),
                _ => kind.to_string(),
            }
        }
        Some(kind) => kind.to_string(),
        None => "any".into(),
    }
}

/// The description up to the first full stop that ends a sentence (not "e.g." or "i.e.").
pub fn first_sentence(description: &str) -> &str {
    let text = description.trim();
    let mut from = 0;
    while let Some(at) = text[from..].find(['.', '。', '!', '?']).map(|i| i + from) {
        let end = at + text[at..].chars().next().map_or(1, char::len_utf8);
        let before = &text[..at];
        let abbreviation = ["e.g", "i.e", "etc", "vs"]
            .iter()
            .any(|a| before.to_lowercase().ends_with(a));
        let next = text[end..].chars().next();
        if !abbreviation && (next.is_none_or(char::is_whitespace) || text[at..].starts_with('。'))
        {
            return &text[..end];
        }
        from = end;
    }
    text
}

/// Reads a complete constrained reply; `None` when it is not one (cut short, or a server
/// that ignored the constraint).
pub fn parse(content: &str) -> Option<Parsed> {
    let value: Value = serde_json::from_str(content.trim()).ok()?;
    if value.get("done").and_then(Value::as_bool) == Some(true) {
        return Some(Parsed::Done);
    }
    if let Some(answer) = value.get("answer").and_then(Value::as_str) {
        return Some(Parsed::Answer(answer.to_string()));
    }
    let parts: Vec<Part> = match value.get("parts") {
        None => Vec::new(),
        Some(parts) => parts
            .as_array()?
            .iter()
            .map(Part::from_value)
            .collect::<Option<_>>()?,
    };
    let calls = value.get("calls")?.as_array()?;
    let calls: Option<Vec<ToolCall>> = calls
        .iter()
        .map(|c| {
            let name = c.get("name")?.as_str()?.to_string();
            let arguments = c.get("arguments").cloned().unwrap_or_else(|| json!({}));
            Some(ToolCall {
                id: String::new(),
                kind: "function".into(),
                function: FunctionCall {
                    name,
                    arguments: arguments.to_string(),
                },
            })
        })
        .collect();
    calls
        .filter(|c| !c.is_empty())
        .map(|calls| Parsed::Calls { parts, calls })
}

/// How an assistant's earlier calls are shown to it again, as it wrote them: with the
/// parts it listed before them ([`Plan::Parts`]), or the calls alone when it listed none.
pub fn render_calls(parts: &[Part], calls: &[ToolCall]) -> String {
    let calls: Vec<Value> = calls
        .iter()
        .map(|c| {
            let arguments = serde_json::from_str::<Value>(&c.function.arguments)
                .unwrap_or_else(|_| Value::String(c.function.arguments.clone()));
            json!({"name": c.function.name, "arguments": arguments})
        })
        .collect();
    if parts.is_empty() {
        json!({ "calls": calls }).to_string()
    } else {
        let parts: Vec<Value> = parts.iter().map(Part::to_value).collect();
        json!({ "parts": parts, "calls": calls }).to_string()
    }
}

/// How an assistant's earlier answer is shown to it again.
pub fn render_answer(text: &str) -> String {
    json!({ "answer": text }).to_string()
}

/// Reads the parts of a planned reply (`{"parts":[…],…}`) as they are generated: each
/// complete part as soon as its closing brace arrives, so the person can see the turn's
/// plan before its calls are written.
#[derive(Debug, Default)]
pub struct PartsStream {
    seen: String,
    /// Byte offset in `seen` of the next part (or of the list's end), once the list began.
    next: Option<usize>,
    parts: Vec<Part>,
    /// The list ended, or the reply is not a planned one.
    over: bool,
}

impl PartsStream {
    /// A new stream.
    pub fn new() -> Self {
        Self::default()
    }

    /// Takes the next piece of the reply; returns whether it completed a part.
    pub fn feed(&mut self, piece: &str) -> bool {
        self.seen.push_str(piece);
        if self.over {
            return false;
        }
        const HEAD: &str = "{\"parts\":[";
        let Some(mut at) = self.next else {
            let start = self.seen.trim_start();
            if start.len() < HEAD.len() {
                self.over = !HEAD.starts_with(start);
                return false;
            }
            if !start.starts_with(HEAD) {
                self.over = true;
                return false;
            }
            self.next = Some(self.seen.len() - start.len() + HEAD.len());
            return self.feed("");
        };
        let before = self.parts.len();
        loop {
            let rest = &self.seen[at..];
            let rest = rest.strip_prefix(',').unwrap_or(rest);
            if rest.starts_with(']') {
                self.over = true;
                break;
            }
            let mut values = serde_json::Deserializer::from_str(rest).into_iter::<Value>();
            match values.next() {
                Some(Ok(value)) => {
                    let used = values.byte_offset();
                    match Part::from_value(&value) {
                        Some(part) => self.parts.push(part),
                        None => {
                            self.over = true;
                            break;
                        }
                    }
                    at = self.seen.len() - rest.len() + used;
                    self.next = Some(at);
                }
                // Nothing more yet, or a part not complete yet.
                None => break,
                Some(Err(e)) if e.is_eof() => break,
                Some(Err(_)) => {
                    self.over = true;
                    break;
                }
            }
        }
        self.parts.len() > before
    }

    /// The parts complete so far.
    pub fn parts(&self) -> &[Part] {
        &self.parts
    }
}

/// Streams the text of an `{"answer": "…"}` reply as it is generated; a reply with calls
/// yields nothing.
#[derive(Debug, Default)]
pub struct AnswerStream {
    seen: String,
    /// Byte offset in `seen` where the answer's string content starts, once known.
    start: Option<usize>,
    /// Bytes of the content already decoded.
    done: usize,
    closed: bool,
    refused: bool,
}

impl AnswerStream {
    /// A new stream.
    pub fn new() -> Self {
        Self::default()
    }

    /// Takes the next piece of the reply and returns the answer text it completes.
    pub fn feed(&mut self, piece: &str) -> String {
        self.seen.push_str(piece);
        if self.closed || self.refused {
            return String::new();
        }
        if self.start.is_none() {
            match answer_start(&self.seen) {
                Head::Pending => return String::new(),
                Head::Other => {
                    self.refused = true;
                    return String::new();
                }
                Head::Answer(at) => self.start = Some(at),
            }
        }
        let start = self.start.unwrap_or(0);
        let body = &self.seen[start..];
        let mut out = String::new();
        let mut at = self.done;
        while let Some(c) = body[at..].chars().next() {
            match c {
                '"' => {
                    self.closed = true;
                    self.done = at + 1;
                    return out;
                }
                '\\' => match unescape(&body[at + 1..]) {
                    // The escape is cut: wait for the next piece.
                    None => break,
                    Some((decoded, used)) => {
                        out.extend(decoded);
                        at += 1 + used;
                    }
                },
                other => {
                    out.push(other);
                    at += other.len_utf8();
                }
            }
        }
        self.done = at;
        out
    }
}

/// Where a reply's answer text starts, as far as the reply is written.
enum Head {
    /// Not known yet: the object has not reached a key that decides.
    Pending,
    /// The reply is not an answer (calls, done, or not an object).
    Other,
    /// The answer's string content starts at this byte offset.
    Answer(usize),
}

/// Reads the top-level keys of the object written so far: the answer's text starts after
/// the quote that opens the value of `"answer"`, wherever the key comes (first, or after
/// the parts); any other key with a value that is not a list of parts (`calls`, `done`)
/// means the reply is not an answer. Strings are skipped with their escapes, so text
/// inside a part cannot pass for a key.
fn answer_start(seen: &str) -> Head {
    let mut chars = seen.char_indices().peekable();
    let mut depth = 0usize;
    // The last string closed at depth 1, while the next thing is its colon.
    let mut key: Option<String> = None;
    let mut string: Option<String> = None;
    let mut escaped = false;
    while let Some((_, c)) = chars.next() {
        if let Some(text) = string.as_mut() {
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == '"' {
                let text = string.take().unwrap_or_default();
                if depth == 1 {
                    key = Some(text);
                }
            } else {
                text.push(c);
            }
            continue;
        }
        match c {
            c if c.is_whitespace() => {}
            '{' if depth == 0 => depth = 1,
            _ if depth == 0 => return Head::Other,
            '"' => string = Some(String::new()),
            ':' if depth == 1 => match key.take().as_deref() {
                Some("answer") => {
                    // The value's opening quote, after any whitespace.
                    while let Some((_, w)) = chars.peek() {
                        if !w.is_whitespace() {
                            break;
                        }
                        chars.next();
                    }
                    return match chars.next() {
                        Some((q, '"')) => Head::Answer(q + 1),
                        Some(_) => Head::Other,
                        None => Head::Pending,
                    };
                }
                Some("parts") => {}
                _ => return Head::Other,
            },
            '[' | '{' => depth += 1,
            ']' | '}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    Head::Pending
}

/// The character a JSON escape stands for, given the text after its backslash, and the
/// bytes the escape takes after the backslash; `None` while the text ends inside it. A
/// `\u` escape of a surrogate pair is one character; a lone surrogate or a malformed
/// escape decodes to U+FFFD.
fn unescape(rest: &str) -> Option<(Option<char>, usize)> {
    let first = rest.chars().next()?;
    let simple = match first {
        'b' => '\u{8}',
        'f' => '\u{c}',
        'n' => '\n',
        'r' => '\r',
        't' => '\t',
        'u' => return unicode_escape(rest),
        other => return Some((Some(other), other.len_utf8())),
    };
    Some((Some(simple), 1))
}

/// A `\uXXXX` escape (`rest` starts at the `u`), with the low half of a surrogate pair
/// when one follows.
fn unicode_escape(rest: &str) -> Option<(Option<char>, usize)> {
    let high = match hex4(&rest[1..])? {
        Ok(unit) => unit,
        Err(used) => return Some((Some(char::REPLACEMENT_CHARACTER), 1 + used)),
    };
    if !(0xD800..0xDC00).contains(&high) {
        let c = char::from_u32(high).unwrap_or(char::REPLACEMENT_CHARACTER);
        return Some((Some(c), 5));
    }
    // A high surrogate: a low one must follow as `\uXXXX`.
    let after = &rest[5..];
    if "\\u".starts_with(after) && after.len() < 2 {
        return None;
    }
    let low = after
        .strip_prefix("\\u")
        .map(hex4)
        .map(|low| low.map(|l| l.ok().filter(|l| (0xDC00..0xE000).contains(l))));
    match low {
        None => Some((Some(char::REPLACEMENT_CHARACTER), 5)),
        Some(None) => None,
        Some(Some(None)) => Some((Some(char::REPLACEMENT_CHARACTER), 5)),
        Some(Some(Some(low))) => {
            let c = 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00);
            Some((char::from_u32(c), 11))
        }
    }
}

/// Four hex digits at the start of `text`: `Ok(value)`, `Err(bytes of the valid prefix)`
/// when a character that is not a hex digit comes first, `None` while the text ends
/// inside them.
fn hex4(text: &str) -> Option<Result<u32, usize>> {
    let mut value = 0;
    for (i, c) in text.chars().take(4).enumerate() {
        match c.to_digit(16) {
            Some(d) => value = value * 16 + d,
            None => return Some(Err(i)),
        }
    }
    if text.chars().take(4).count() < 4 {
        return None;
    }
    Some(Ok(value))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tools() -> Vec<ToolDef> {
        vec![
            ToolDef::function(
                "decrease_volume",
                "Lowers the volume by 'step' points, e.g. 10. Returns before and after.",
                json!({"type": "object", "additionalProperties": false,
                       "properties": {"step": {"type": "integer", "minimum": 1, "maximum": 50,
                                               "default": 10, "description": "points"}}}),
            ),
            ToolDef::function(
                "run_code",
                "Runs code.",
                json!({"type": "object", "additionalProperties": false, "required": ["code", "language"],
                       "properties": {"code": {"type": "string", "maxLength": 100000, "minLength": 1},
                                      "language": {"enum": ["python", "r"]},
                                      "tags": {"type": "array", "items": {"type": "string"}, "uniqueItems": true}}}),
            ),
        ]
    }

    #[test]
    fn the_catalog_has_one_compact_line_per_tool() {
        assert_eq!(
            catalog(&tools()),
            "- decrease_volume(step?: integer = 10): Lowers the volume by 'step' points, e.g. 10.\n\
             - run_code(code: string, language: \"python\"|\"r\", tags?: string[]): Runs code."
        );
        assert_eq!(first_sentence("现在几点。然后"), "现在几点。");
        assert_eq!(first_sentence("No full stop"), "No full stop");
    }

    #[test]
    fn the_constraint_names_each_tool_and_keeps_only_what_decoding_needs() {
        let format = response_format(&tools());
        let schema = &format["json_schema"]["schema"];
        let calls = &schema["anyOf"][0]["properties"]["calls"]["items"]["anyOf"];
        assert_eq!(
            calls[0]["properties"]["name"],
            json!({"const": "decrease_volume"})
        );
        let step = &calls[0]["properties"]["arguments"]["properties"]["step"];
        assert_eq!(
            step,
            &json!({"type": "integer", "minimum": 1, "maximum": 50})
        );
        let code = &calls[1]["properties"]["arguments"]["properties"];
        assert_eq!(code["code"], json!({"type": "string", "minLength": 1}));
        assert_eq!(
            code["tags"],
            json!({"type": "array", "items": {"type": "string"}})
        );
        assert_eq!(schema["anyOf"][1]["required"], json!(["answer"]));
        // No tools: only an answer is possible.
        let none = response_format(&[]);
        assert_eq!(none["json_schema"]["schema"]["required"], json!(["answer"]));
    }

    #[test]
    fn replies_parse_to_answers_or_calls() {
        assert_eq!(
            parse(r#" {"answer": "Hi"} "#),
            Some(Parsed::Answer("Hi".into()))
        );
        let Some(Parsed::Calls { parts, calls }) = parse(
            r#"{"calls": [{"name": "turn_off_camera", "arguments": {}}, {"name": "decrease_volume", "arguments": {"step": 10}}]}"#,
        ) else {
            panic!("calls expected");
        };
        assert_eq!(calls.len(), 2);
        assert!(parts.is_empty());
        assert_eq!(calls[1].function.arguments, r#"{"step":10}"#);
        assert_eq!(
            render_calls(&[], &calls),
            r#"{"calls":[{"name":"turn_off_camera","arguments":{}},{"name":"decrease_volume","arguments":{"step":10}}]}"#
        );
        for bad in [
            r#"{"calls": []}"#,
            r#"{"answer": "cut"#,
            "plain text",
            r#"{"calls": [{"arguments": {}}]}"#,
            r#"{"parts": [1], "calls": [{"name": "turn_off_camera", "arguments": {}}]}"#,
            r#"{"parts": "camera", "calls": [{"name": "turn_off_camera", "arguments": {}}]}"#,
        ] {
            assert_eq!(parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn a_planned_reply_lists_the_parts_before_the_calls_and_renders_back_as_written() {
        let written = r#"{"parts":[{"ask":"关掉摄像头","tool":"turn_off_camera"},{"ask":"讲个笑话","tool":"none"}],"calls":[{"name":"turn_off_camera","arguments":{}}]}"#;
        let Some(Parsed::Calls { parts, calls }) = parse(written) else {
            panic!("calls expected");
        };
        assert_eq!(
            parts,
            [
                Part::new("关掉摄像头", Some("turn_off_camera")),
                Part::new("讲个笑话", None)
            ]
        );
        assert_eq!(render_calls(&parts, &calls), written);
        // Parts saved before they named tools read as parts no tool does.
        let Some(Parsed::Calls { parts, .. }) =
            parse(r#"{"parts":["2+2"],"calls":[{"name":"run_code","arguments":{}}]}"#)
        else {
            panic!("calls expected");
        };
        assert_eq!(parts, [Part::new("2+2", None)]);
        // A first answer comes after parts too, and parses as the answer.
        assert_eq!(
            parse(r#"{"parts":[{"ask":"tell me a joke","tool":"none"}],"answer":"Knock knock."}"#),
            Some(Parsed::Answer("Knock knock.".into()))
        );
    }

    #[test]
    fn a_planned_grammar_lets_calls_follow_only_a_part_a_tool_does() {
        let planned = grammar_with(&tools(), Answer::Text, Plan::Parts).expect("grammar");
        let rule = |name: &str| {
            planned
                .lines()
                .find(|l| l.starts_with(&format!("{name} ::= ")))
                .unwrap_or_else(|| panic!("no rule {name} in {planned}"))
                .to_string()
        };
        // Calls need a part naming an offered tool; an answer only parts naming none.
        let calls = rule("calls");
        assert!(calls.contains("part-tool"), "{calls}");
        assert!(
            rule("tool-name").contains(r#""\"decrease_volume\"""#),
            "{planned}"
        );
        assert!(rule("part-none").contains(r#"\"none\""#), "{planned}");
        let answer = rule("answer");
        assert!(
            answer.contains("part-none") && !answer.contains("part-tool"),
            "{answer}"
        );
        // After results the answer is plain, or done.
        let after = grammar_with(&tools(), Answer::TextOrDone, Plan::Parts).expect("grammar");
        assert!(after.contains(r#"{\"done\":true}"#), "{after}");
        // Unless a listed part is one no tool does: then its words are owed.
        let owed = grammar_with(&tools(), Answer::Owed, Plan::Parts).expect("grammar");
        assert!(!owed.contains("done"), "{owed}");
        assert!(
            owed.contains("part-tool") && owed.contains(r#"\"answer\":"#),
            "{owed}"
        );
        let format = response_format_with(&tools(), Answer::Owed, Plan::Parts).to_string();
        assert!(
            !format.contains("done") && format.contains("answer"),
            "{format}"
        );
        let plain = grammar_with(&tools(), Answer::Text, Plan::None).expect("grammar");
        assert!(!plain.contains("parts"), "{plain}");
        let format = response_format_with(&tools(), Answer::Text, Plan::Parts);
        let schema = &format["json_schema"]["schema"];
        assert_eq!(schema["anyOf"][0]["required"], json!(["parts", "calls"]));
        assert_eq!(schema["anyOf"][1]["required"], json!(["parts", "answer"]));
        assert_eq!(
            schema["anyOf"][0]["properties"]["parts"]["items"]["properties"]["tool"]["enum"],
            json!(["decrease_volume", "run_code", "none"])
        );
    }

    #[test]
    fn a_grammar_that_never_answers_admits_only_calls() {
        for plan in [Plan::Parts, Plan::None] {
            let never = grammar_with(&tools(), Answer::Never, plan).expect("grammar");
            assert!(never.starts_with("root ::= calls\n"), "{never}");
            assert!(!never.contains(r#"\"answer\":"#), "{never}");
            let format = response_format_with(&tools(), Answer::Never, plan).to_string();
            assert!(
                !format.contains("answer") && format.contains("calls"),
                "{format}"
            );
        }
        // With no tool left to call, the answer is text.
        let none = grammar_with(&[], Answer::Never, Plan::Parts).expect("grammar");
        assert!(none.contains(r#"\"answer\":"#), "{none}");
    }

    #[test]
    fn parts_stream_one_by_one_at_any_split() {
        let reply = r#"{"parts":[{"ask":"12*7","tool":"calculator"},{"ask":"a joke \"now\" ]","tool":"none"}],"calls":[]}"#;
        for size in [1, 2, 3, 7, reply.len()] {
            let mut stream = PartsStream::new();
            let mut counts = Vec::new();
            let bytes = reply.as_bytes();
            for chunk in bytes.chunks(size) {
                if stream.feed(std::str::from_utf8(chunk).unwrap_or_default()) {
                    counts.push(stream.parts().len());
                }
            }
            assert_eq!(
                stream.parts(),
                [
                    Part::new("12*7", Some("calculator")),
                    Part::new("a joke \"now\" ]", None)
                ],
                "chunks of {size}"
            );
            // Each part arrives once, the first before the second.
            assert!(counts.windows(2).all(|w| w[0] < w[1]), "{counts:?}");
        }
        // A reply that is no plan, or an answer, has no parts.
        for other in [
            r#"{"answer":"hi"}"#,
            "Hello",
            r#"{"parts":"x"}"#,
            r#"{"parts":[1]}"#,
        ] {
            let mut stream = PartsStream::new();
            assert!(!stream.feed(other), "{other}");
            assert!(stream.parts().is_empty(), "{other}");
        }
    }

    #[test]
    fn an_answer_streams_decoded_at_any_split() {
        let reply = "{\n  \"answer\": \"Line 1\\nQuote \\\" \\u4f60好 done\"\n}";
        let want = "Line 1\nQuote \" 你好 done";
        for size in 1..8 {
            let mut stream = AnswerStream::new();
            let mut got = String::new();
            let chars: Vec<char> = reply.chars().collect();
            for piece in chars.chunks(size) {
                got.push_str(&stream.feed(&piece.iter().collect::<String>()));
            }
            assert_eq!(got, want, "pieces of {size}");
        }
        let mut calls = AnswerStream::new();
        assert_eq!(calls.feed("{\"calls\": [{\"name\": \"x\"}]}"), "");
        // After the parts: the answer streams; a part's text that looks like a key does
        // not start it, and calls after parts stream nothing.
        let planned =
            r#"{"parts":[{"ask":"say \"answer\":\"x\" ]}","tool":"none"}],"answer":"Hi \u4f60"}"#;
        for size in 1..6 {
            let mut stream = AnswerStream::new();
            let chars: Vec<char> = planned.chars().collect();
            let got: String = chars
                .chunks(size)
                .map(|p| stream.feed(&p.iter().collect::<String>()))
                .collect();
            assert_eq!(got, "Hi 你", "pieces of {size}");
        }
        let mut planned_calls = AnswerStream::new();
        assert_eq!(
            planned_calls.feed(r#"{"parts":[{"ask":"a","tool":"x"}],"calls":[{"name":"x"}]}"#),
            ""
        );
        assert_eq!(AnswerStream::new().feed("plain text"), "");
    }

    /// Escapes decode as JSON says at any split: `\b`/`\f` as control characters, a
    /// surrogate pair as one character; non-ASCII after `\u` or a lone surrogate never
    /// panics.
    #[test]
    fn every_json_escape_decodes_and_hostile_ones_do_not_panic() {
        let decode = |reply: &str, size: usize| -> String {
            let mut stream = AnswerStream::new();
            let chars: Vec<char> = reply.chars().collect();
            chars
                .chunks(size)
                .map(|piece| stream.feed(&piece.iter().collect::<String>()))
                .collect()
        };
        let reply = r#"{"answer":"a\bb\fc\/d \ud83d\ude00 e\ud83d f\ude00 g\u00e9"}"#;
        let want = "a\u{8}b\u{c}c/d \u{1F600} e\u{FFFD} f\u{FFFD} g\u{e9}";
        for size in 1..12 {
            assert_eq!(decode(reply, size), want, "pieces of {size}");
            assert_eq!(
                decode(r#"{"answer":"x\u你好好好好 y"}"#, size),
                "x\u{FFFD}你好好好好 y"
            );
            assert_eq!(decode(r#"{"answer":"x\u12"#, size), "x");
        }
        assert_eq!(
            serde_json::from_str::<String>(r#""a\bb\fc\/d \ud83d\ude00""#).ok(),
            Some("a\u{8}b\u{c}c/d \u{1F600}".to_string()),
            "the same as a JSON parser"
        );
    }
}
