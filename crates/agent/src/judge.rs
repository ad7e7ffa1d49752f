//! "Can this tool do what this part asks?": the tool the model chose for one part of the
//! person's request, put to the model on its own — only that part's words and the tool's
//! one-line description, no history, no examples, no other tools — with the answer held
//! by the grammar to `yes` or `no`.
//!
//! The loop's choice is made with the whole conversation, the catalog and the examples
//! near the request in view, where a small model reaches for a nearby tool (the camera for
//! the lights, the clock for the weather); the part and the one tool alone are a second,
//! separate judgement, and a `no` is acted on (`inspect::asked_for`). Measured on the dev
//! cases, asking instead "which of these tools does it, or none?" made the 1.5B model name
//! a tool for nearly every request ("thanks!" → speak aloud), so the question verifies one
//! choice rather than making one. It asks whether the tool *can* do what is asked: asked
//! whether it does *exactly* that, the bundled model said no to 6 of 13 right calls (a
//! dataset's frequencies, a QC check), each a read that then did not run, and to 6 of 11
//! stand-ins; asked "can", no to 1 of 13 and to 4 of 11 (`scripts/judge-probe.py`,
//! docs/BENCHMARKS.md).
//!
//! The question's system message is the same for every call of every turn, so a server
//! with a second slot keeps it evaluated there, and a judgement costs the part's words,
//! the tool's line and one generated token (0.6–0.9 s on the bundled model here).

use std::collections::HashMap;
use std::sync::Mutex;

use deskmate_llm::ChatClient;
use deskmate_llm::envelope::first_sentence;
use deskmate_llm::wire::{ChatRequest, Message, ToolDef};
use serde_json::{Value, json};

/// Most tokens of a judgement (`yes`, `no`, or `{"answer":"no"}`).
const MAX_TOKENS: u32 = 16;

/// What the model is told, the same for every question.
const INSTRUCTIONS: &str = "You check whether a tool does what a user asks. A tool does only \
what its description says; a tool for something similar, related or on the same device does \
not count. Answer yes or no.";

/// Puts (part, tool) pairs of a turn to the model; each pair is judged once a turn.
pub(crate) struct Judge<'a> {
    client: &'a ChatClient,
    model: &'a str,
    tools: &'a [ToolDef],
    /// The server reads a GBNF grammar (llama.cpp); otherwise a JSON Schema holds the
    /// answer.
    grammar: bool,
    judged: Mutex<HashMap<(String, String), Option<bool>>>,
}

impl<'a> Judge<'a> {
    /// A judge over the tools a turn offers.
    pub(crate) fn new(
        client: &'a ChatClient,
        model: &'a str,
        tools: &'a [ToolDef],
        grammar: bool,
    ) -> Self {
        Self {
            client,
            model,
            tools,
            grammar,
            judged: Mutex::new(HashMap::new()),
        }
    }

    /// Whether `tool` does what `ask` asks; `None` when it cannot be told (a tool the turn
    /// did not offer, or no usable answer from the server): the call goes on as the model
    /// chose.
    pub(crate) async fn does(&self, ask: &str, tool: &str) -> Option<bool> {
        let ask = ask.trim();
        let def = self.tools.iter().find(|t| t.function.name == tool)?;
        if ask.is_empty() {
            return None;
        }
        let key = (ask.to_string(), tool.to_string());
        if let Some(known) = self.lock().get(&key) {
            return *known;
        }
        let request = self.request(ask, def);
        let judged = match self.client.complete(&request, &mut |_| {}).await {
            Ok(reply) => parse(&reply.content),
            Err(e) => {
                tracing::warn!(error = %e, "the call could not be judged");
                None
            }
        };
        tracing::debug!(ask, tool, ?judged, "a call's part judged on its own");
        self.lock().insert(key, judged);
        judged
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<(String, String), Option<bool>>> {
        self.judged
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// The question: the instructions (the cached prefix), then the part and the tool.
    fn request(&self, ask: &str, tool: &ToolDef) -> ChatRequest {
        let mut request = ChatRequest::new(
            self.model,
            vec![
                Message::system(INSTRUCTIONS),
                Message::user(question(ask, tool)),
            ],
        );
        request.temperature = Some(0.0);
        request.max_tokens = Some(MAX_TOKENS);
        request.stream = false;
        if self.grammar {
            request.grammar = Some(GRAMMAR.to_string());
        } else {
            request.response_format = Some(json!({
                "type": "json_schema",
                "json_schema": {
                    "name": "verdict",
                    "strict": true,
                    "schema": {
                        "type": "object",
                        "properties": {"answer": {"type": "string", "enum": ["yes", "no"]}},
                        "required": ["answer"],
                        "additionalProperties": false
                    }
                }
            }));
        }
        request
    }
}

/// `yes` or `no`.
const GRAMMAR: &str = "root ::= \"yes\" | \"no\"\n";

/// The part, the tool's line, and the question.
fn question(ask: &str, tool: &ToolDef) -> String {
    format!(
        "Request: {ask}\nTool {}: {}\nCan this tool do what the request asks?",
        tool.function.name,
        first_sentence(&tool.function.description)
    )
}

/// The judgement in a reply: `yes`/`no`, bare or as `{"answer": …}`.
fn parse(content: &str) -> Option<bool> {
    let text = content.trim();
    let word = match serde_json::from_str::<Value>(text) {
        Ok(value) => value["answer"].as_str()?.trim().to_lowercase(),
        Err(_) => text.trim_matches(['"', '.']).to_lowercase(),
    };
    match word.as_str() {
        "yes" => Some(true),
        "no" => Some(false),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::fixtures::tool;

    #[test]
    fn a_judgement_is_yes_or_no() {
        assert_eq!(parse("yes"), Some(true));
        assert_eq!(parse(" No. "), Some(false));
        assert_eq!(parse(r#"{"answer":"no"}"#), Some(false));
        assert_eq!(parse("maybe"), None);
        assert_eq!(parse(r#"{"tool":"calculator"}"#), None);
    }

    #[test]
    fn the_question_holds_the_part_and_one_tools_line_only() {
        let q = question("what is 2+2", &tool("calculator"));
        assert_eq!(
            q,
            "Request: what is 2+2\nTool calculator: Does a thing.\nCan this tool do what the \
             request asks?"
        );
    }
}
