//! A complete reply read as calls or an answer: a constrained reply's JSON, a native
//! reply's `tool_calls`, or calls written in its text.

use deskmate_llm::Reply;
use deskmate_llm::envelope::{self, Parsed, Part};
use deskmate_llm::extract::{Extracted, extract_calls};
use deskmate_llm::wire::ToolCall;

use crate::protocol::Protocol;

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
