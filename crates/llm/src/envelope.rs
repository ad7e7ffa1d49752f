//! Tool calling through one constrained JSON reply, for servers that can constrain
//! decoding to a JSON Schema (llama.cpp's `response_format`).
//!
//! The model answers with exactly one object: `{"calls": [{"name", "arguments"}, …]}` or
//! `{"answer": "…"}`. The schema sent with the request lists every offered tool as a
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
    /// Calls to run, in order (ids are left empty for the caller to give).
    Calls(Vec<ToolCall>),
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
    /// Only `{"answer":""}`: nothing more to do. For a question whose answer is already
    /// in hand (the results of a step), where the model only decides whether calls are
    /// left; an empty answer costs a handful of generated tokens instead of a sentence.
    Nothing,
}

/// The `response_format` of a request offering `tools`.
pub fn response_format(tools: &[ToolDef]) -> Value {
    response_format_with(tools, Answer::Text)
}

/// The `response_format` of a request offering `tools`, whose answer is `answer`.
pub fn response_format_with(tools: &[ToolDef], answer: Answer) -> Value {
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
    let answer_only = json!({
        "type": "object",
        "properties": {"answer": match answer {
            Answer::Text => json!({"type": "string"}),
            Answer::Nothing => json!({"const": ""}),
        }},
        "required": ["answer"],
        "additionalProperties": false,
    });
    let schema = if calls.is_empty() {
        answer_only
    } else {
        json!({"anyOf": [
            {
                "type": "object",
                "properties": {"calls": {"type": "array", "minItems": 1, "maxItems": MAX_CALLS,
                                         "items": {"anyOf": calls}}},
                "required": ["calls"],
                "additionalProperties": false,
            },
            answer_only,
        ]})
    };
    json!({"type": "json_schema", "json_schema": {"name": "reply", "schema": schema}})
}

/// The same constraint as [`response_format`] as a compact-JSON GBNF grammar (see
/// [`crate::grammar`]): no whitespace outside strings, so a call costs the fewest
/// generated tokens. With no tools the reply can only be an answer. `None` when a tool's
/// schema has a keyword the grammar cannot express; use [`response_format`] then.
pub fn grammar(tools: &[ToolDef]) -> Option<String> {
    grammar_with(tools, Answer::Text)
}

/// [`grammar`] whose answer is `answer`.
pub fn grammar_with(tools: &[ToolDef], answer: Answer) -> Option<String> {
    let mut g = Grammar::new();
    let answer = match answer {
        Answer::Text => g.rule(
            "answer",
            format!("{} string \"}}\"", literal("{\"answer\":")),
        ),
        Answer::Nothing => g.rule("answer", literal("{\"answer\":\"\"}")),
    };
    if tools.is_empty() {
        return Some(g.finish(&answer));
    }
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
    let list = g.rule(
        "calls",
        format!(
            "{} {call} (\",\" {call}){{0,{}}} \"]}}\"",
            literal("{\"calls\":["),
            MAX_CALLS - 1
        ),
    );
    Some(g.finish(&format!("{list} | {answer}")))
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
fn first_sentence(description: &str) -> &str {
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
    if let Some(answer) = value.get("answer").and_then(Value::as_str) {
        return Some(Parsed::Answer(answer.to_string()));
    }
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
    calls.filter(|c| !c.is_empty()).map(Parsed::Calls)
}

/// How an assistant's earlier calls are shown to it again: as it wrote them.
pub fn render_calls(calls: &[ToolCall]) -> String {
    let calls: Vec<Value> = calls
        .iter()
        .map(|c| {
            let arguments = serde_json::from_str::<Value>(&c.function.arguments)
                .unwrap_or_else(|_| Value::String(c.function.arguments.clone()));
            json!({"name": c.function.name, "arguments": arguments})
        })
        .collect();
    json!({ "calls": calls }).to_string()
}

/// How an assistant's earlier answer is shown to it again.
pub fn render_answer(text: &str) -> String {
    json!({ "answer": text }).to_string()
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
            let compact: String = self.seen.chars().filter(|c| !c.is_whitespace()).collect();
            const HEAD: &str = "{\"answer\":\"";
            if compact.len() < HEAD.len() {
                if !HEAD.starts_with(&compact) {
                    self.refused = true;
                }
                return String::new();
            }
            if !compact.starts_with(HEAD) {
                self.refused = true;
                return String::new();
            }
            // The content starts after the quote that follows the colon.
            let colon = self.seen.find(':').unwrap_or(0);
            let quote = self.seen[colon..].find('"').map_or(0, |q| colon + q + 1);
            self.start = Some(quote);
        }
        let start = self.start.unwrap_or(0);
        let body = &self.seen[start..];
        let mut out = String::new();
        let mut chars = body[self.done..].char_indices().peekable();
        while let Some((i, c)) = chars.next() {
            match c {
                '"' => {
                    self.closed = true;
                    self.done += i + 1;
                    return out;
                }
                '\\' => {
                    let Some(&(_, escaped)) = chars.peek() else {
                        // The escape is cut: wait for the next piece.
                        self.done += i;
                        return out;
                    };
                    if escaped == 'u' {
                        let rest = &body[self.done + i..];
                        if rest.len() < 6 {
                            self.done += i;
                            return out;
                        }
                        if let Some(ch) = u32::from_str_radix(&rest[2..6], 16)
                            .ok()
                            .and_then(char::from_u32)
                        {
                            out.push(ch);
                        }
                        for _ in 0..5 {
                            chars.next();
                        }
                        continue;
                    }
                    chars.next();
                    out.push(match escaped {
                        'n' => '\n',
                        't' => '\t',
                        'r' => '\r',
                        other => other,
                    });
                }
                other => out.push(other),
            }
        }
        self.done = body.len();
        out
    }
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
        let Some(Parsed::Calls(calls)) = parse(
            r#"{"calls": [{"name": "turn_off_camera", "arguments": {}}, {"name": "decrease_volume", "arguments": {"step": 10}}]}"#,
        ) else {
            panic!("calls expected");
        };
        assert_eq!(calls.len(), 2);
        assert_eq!(calls[1].function.arguments, r#"{"step":10}"#);
        assert_eq!(
            render_calls(&calls),
            r#"{"calls":[{"name":"turn_off_camera","arguments":{}},{"name":"decrease_volume","arguments":{"step":10}}]}"#
        );
        for bad in [
            r#"{"calls": []}"#,
            r#"{"answer": "cut"#,
            "plain text",
            r#"{"calls": [{"arguments": {}}]}"#,
        ] {
            assert_eq!(parse(bad), None, "{bad}");
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
    }
}
