//! Streamed tool calls, assembled by `index` from fragments of any size and parsed once,
//! when the stream says they are complete.

use std::collections::BTreeMap;

use crate::wire::{FunctionCall, ToolCall, ToolCallDelta};

#[derive(Debug, Default, Clone)]
struct Partial {
    id: Option<String>,
    name: String,
    arguments: String,
}

/// Collects tool-call fragments.
#[derive(Debug, Default)]
pub struct ToolCallAssembler {
    calls: BTreeMap<usize, Partial>,
    /// The index the last fragment went to (for servers that omit `index`).
    last: Option<usize>,
}

impl ToolCallAssembler {
    /// An empty assembler.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds one chunk's fragments. A fragment without `index` continues the previous
    /// call, unless it carries a new id or a name (then it starts the next one).
    pub fn push(&mut self, fragments: &[ToolCallDelta]) {
        for (position, fragment) in fragments.iter().enumerate() {
            let index = match fragment.index {
                Some(index) => index,
                None => {
                    let starts_new = fragment.id.as_deref().is_some_and(|id| {
                        self.last
                            .and_then(|l| self.calls.get(&l))
                            .is_none_or(|p| p.id.as_deref() != Some(id))
                    }) || (fragment.id.is_none()
                        && fragment
                            .function
                            .as_ref()
                            .and_then(|f| f.name.as_deref())
                            .is_some_and(|n| !n.is_empty())
                        && self
                            .last
                            .and_then(|l| self.calls.get(&l))
                            .is_some_and(|p| !p.name.is_empty()));
                    match self.last {
                        Some(last) if !starts_new => last,
                        Some(last) => last + 1,
                        None => position,
                    }
                }
            };
            let call = self.calls.entry(index).or_default();
            if let Some(id) = fragment.id.as_deref().filter(|id| !id.is_empty())
                && call.id.is_none()
            {
                call.id = Some(id.to_string());
            }
            if let Some(function) = &fragment.function {
                if let Some(name) = &function.name {
                    call.name.push_str(name);
                }
                if let Some(arguments) = &function.arguments {
                    call.arguments.push_str(arguments);
                }
            }
            self.last = Some(index);
        }
    }

    /// Whether any fragment arrived.
    pub fn is_empty(&self) -> bool {
        self.calls.is_empty()
    }

    /// The complete calls in index order; a call without an id gets `call_<index>`.
    pub fn finish(self) -> Vec<ToolCall> {
        self.calls
            .into_iter()
            .filter(|(_, p)| !p.name.is_empty() || !p.arguments.is_empty())
            .map(|(index, p)| ToolCall {
                id: p.id.unwrap_or_else(|| format!("call_{index}")),
                kind: "function".into(),
                function: FunctionCall {
                    name: p.name,
                    arguments: p.arguments,
                },
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wire::FunctionDelta;

    fn frag(
        index: Option<usize>,
        id: Option<&str>,
        name: Option<&str>,
        args: &str,
    ) -> ToolCallDelta {
        ToolCallDelta {
            index,
            id: id.map(str::to_string),
            function: Some(FunctionDelta {
                name: name.map(str::to_string),
                arguments: Some(args.to_string()),
            }),
        }
    }

    #[test]
    fn llama_server_shape_assembles_by_index() {
        let mut a = ToolCallAssembler::new();
        a.push(&[frag(Some(0), Some("abc"), Some("set_volume"), "{")]);
        for piece in ["\"", "level", "\":", " 7", "0", "}"] {
            a.push(&[frag(Some(0), None, None, piece)]);
        }
        let calls = a.finish();
        assert_eq!(calls.len(), 1);
        assert_eq!(calls[0].id, "abc");
        assert_eq!(calls[0].function.name, "set_volume");
        assert_eq!(calls[0].function.arguments, "{\"level\": 70}");
    }

    #[test]
    fn interleaved_calls_missing_ids_and_missing_indexes() {
        let mut a = ToolCallAssembler::new();
        a.push(&[frag(Some(1), None, Some("b"), "{\"y\"")]);
        a.push(&[frag(Some(0), Some("x0"), Some("a"), "{}")]);
        a.push(&[frag(Some(1), None, None, ": 2}")]);
        let calls = a.finish();
        assert_eq!(
            calls
                .iter()
                .map(|c| (
                    c.id.as_str(),
                    c.function.name.as_str(),
                    c.function.arguments.as_str()
                ))
                .collect::<Vec<_>>(),
            [("x0", "a", "{}"), ("call_1", "b", "{\"y\": 2}")]
        );

        // No index at all: a new id or a new name starts the next call.
        let mut a = ToolCallAssembler::new();
        a.push(&[frag(None, Some("p"), Some("first"), "{\"a\":")]);
        a.push(&[frag(None, None, None, " 1}")]);
        a.push(&[frag(None, Some("q"), Some("second"), "{}")]);
        let calls = a.finish();
        assert_eq!(calls.len(), 2);
        assert_eq!(calls[0].function.arguments, "{\"a\": 1}");
        assert_eq!(calls[1].function.name, "second");
    }
}
