//! One reply's calls as the turn plans them: each call's request, spec and key, and the
//! verdict the inspectors ([`crate::inspect`]) give it before anything runs — run it,
//! refuse it (with the status and error the model reads), or reuse a result it already has.

use deskmate_core::{SideEffect, ToolError, ToolResult, ToolSpec};
use deskmate_llm::wire::ToolCall;
use deskmate_service::CallRequest;

use crate::outcome::reads;
use crate::types::CallStatus;

/// A call ready to run: the request, its spec (when the name resolves), its key.
pub(crate) struct Planned {
    /// The request the guard gets.
    pub request: CallRequest,
    /// The tool's spec, when the name resolves.
    pub spec: Option<ToolSpec>,
    /// The tool's id (the name as written when it resolves to none).
    pub tool: String,
    /// The call's key ([`crate::outcome::canonical`]).
    pub key: String,
}

impl Planned {
    /// Whether it only reads ([`reads`]).
    pub(crate) fn is_read(&self) -> bool {
        reads(self.spec.as_ref())
    }

    /// Whether running it again has no further effect: a read, or an idempotent tool.
    pub(crate) fn repeatable(&self) -> bool {
        self.spec
            .as_ref()
            .is_none_or(|s| s.idempotent || s.side_effect == SideEffect::Read)
    }
}

/// Where a call's result comes from when it is not run.
#[derive(Debug, Clone)]
pub(crate) enum Reuse {
    /// An earlier step of the turn.
    Earlier(ToolResult),
    /// An earlier call of the same reply.
    Twin(usize),
}

/// What becomes of one planned call.
#[derive(Debug, Clone)]
pub(crate) enum Verdict {
    /// It runs.
    Run,
    /// It is not run: it ends with this status and error.
    Refused(CallStatus, ToolError),
    /// It is not run: its result is one the turn already has.
    Reused(Reuse),
}

impl Verdict {
    /// Whether it was refused.
    pub(crate) fn refused(&self) -> bool {
        matches!(self, Self::Refused(..))
    }
}

/// One reply's calls with their plans and verdicts, as the inspectors see and judge them.
pub(crate) struct Calls<'a> {
    /// The calls as the model made them.
    pub calls: &'a [ToolCall],
    /// Each call's plan, in the model's order.
    pub planned: Vec<Planned>,
    /// Each call's verdict so far (all [`Verdict::Run`] before the first inspector).
    pub verdicts: Vec<Verdict>,
}

impl<'a> Calls<'a> {
    /// The calls of a reply, all to run.
    pub(crate) fn new(calls: &'a [ToolCall], planned: Vec<Planned>) -> Self {
        let verdicts = vec![Verdict::Run; planned.len()];
        Self {
            calls,
            planned,
            verdicts,
        }
    }

    /// Whether call `i` runs.
    pub(crate) fn runs(&self, i: usize) -> bool {
        matches!(self.verdicts[i], Verdict::Run)
    }
}

/// Planned calls for the tests of the checks on calls.
#[cfg(test)]
pub(crate) mod fixtures {
    use deskmate_core::{Category, Localized, SideEffect, ToolSpec};
    use deskmate_llm::wire::{FunctionCall, ToolCall};
    use deskmate_service::CallRequest;
    use serde_json::{Value, json};

    use super::Planned;
    use crate::outcome::canonical_arguments;

    /// A call of `tool` with `arguments` (JSON text), with the id `id`.
    pub(crate) fn call(id: &str, tool: &str, arguments: &str) -> ToolCall {
        ToolCall {
            id: id.into(),
            kind: "function".into(),
            function: FunctionCall {
                name: tool.into(),
                arguments: arguments.into(),
            },
        }
    }

    /// The plan of `call` for a tool with this side effect and idempotence.
    pub(crate) fn planned(call: &ToolCall, side_effect: SideEffect, idempotent: bool) -> Planned {
        let tool = call.function.name.clone();
        Planned {
            request: CallRequest::new(tool.clone(), Value::String(call.function.arguments.clone())),
            spec: Some(ToolSpec {
                id: tool.clone(),
                name: Localized::new(tool.clone(), tool.clone()),
                summary: None,
                description: "Does a thing.".into(),
                category: Category::System,
                parameters: json!({"type": "object"}),
                side_effect,
                idempotent,
                timeout_ms: 1000,
                compensation: None,
            }),
            key: format!("{tool}\n{}", canonical_arguments(&call.function.arguments)),
            tool,
        }
    }
}
