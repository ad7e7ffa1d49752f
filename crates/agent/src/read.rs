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
            // short are not run — not even the complete ones inside the cut reply, whose
            // list was not finished — and their JSON is not shown to the person either.
            None => {
                let partial = envelope::AnswerStream::new().feed(&reply.content);
                let cut = reply.finish_reason.as_deref() == Some("length");
                let head = reply.content.trim_start();
                let calls = head.starts_with("{\"calls\"") || head.starts_with("{\"parts\"");
                if !partial.is_empty() || cut || calls {
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

#[cfg(test)]
mod tests {
    use super::*;

    fn reply(content: &str, finish_reason: &str) -> Reply {
        Reply {
            content: content.into(),
            tool_calls: Vec::new(),
            finish_reason: Some(finish_reason.into()),
            usage: None,
            timings: None,
            model: None,
            chunks: 1,
        }
    }

    /// A constrained reply cut at the token limit runs nothing, not even the complete
    /// calls inside it: the model's list was not finished (the JSON-schema path writes the
    /// envelope with spaces, `{ "parts": …`).
    #[test]
    fn a_cut_constrained_reply_runs_no_call_found_inside_it() {
        let cut = r#"{ "parts": [{"ask": "1+1", "tool": "calculator"}, {"ask": "2+2", "tool": "calculator"}], "calls": [{"name": "calculator", "arguments": {"expression": "1+1"}}, {"name": "calculator", "argum"#;
        let read = read(Protocol::Constrained, reply(cut, "length"));
        assert!(read.calls.is_empty(), "{:?}", read.calls);
        assert!(read.extracted.is_none());
        assert!(!read.text.contains("calculator"), "{}", read.text);

        // A whole reply is read as ever.
        let whole = r#"{"parts":[{"ask":"1+1","tool":"calculator"}],"calls":[{"name":"calculator","arguments":{"expression":"1+1"}}]}"#;
        assert_eq!(read_calls(whole), 1);
    }

    fn read_calls(content: &str) -> usize {
        read(Protocol::Constrained, reply(content, "stop"))
            .calls
            .len()
    }
}
