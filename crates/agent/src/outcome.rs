//! What one call of a reply came to, and the keys and kinds the turn judges calls by: two
//! spellings of one call have one key; a read may be repeated, a write may not.

use std::collections::HashMap;

use deskmate_core::{ErrorType, SideEffect, ToolError, ToolResult, ToolSpec};
use deskmate_llm::wire::ToolCall;
use serde_json::Value;

use crate::types::CallStatus;

/// What one call of a reply came to.
#[derive(Debug, Clone)]
pub(crate) struct Outcome {
    /// The call as the model made it (with the id the turn gave it).
    pub call: ToolCall,
    /// The tool it resolved to (the name as written when it resolved to none).
    pub tool: String,
    /// How it ended.
    pub status: CallStatus,
    /// Its result (for a repeated call, the earlier one's).
    pub result: ToolResult,
    /// The tool and its arguments as the guard normalized them (as written when the
    /// guard refused them): two spellings of one call have one key.
    pub key: String,
}

impl Outcome {
    /// A failure no other call can fix in this turn: the device or service is not there
    /// (not found, with no valid values to choose from instead), a person or a policy
    /// refused the call, or a call that may not simply be made again (`retriable` false:
    /// a question the person did not answer, a write that may have happened) timed out.
    /// After one, the model may only answer.
    pub(crate) fn settles(&self, retriable: bool) -> bool {
        self.status == CallStatus::NotAsked
            || self.status == CallStatus::Failed
                && match self.result.error_type {
                    Some(ErrorType::Denied) => true,
                    Some(ErrorType::NotFound) => self.result.options.is_empty(),
                    Some(ErrorType::Timeout) => !retriable,
                    _ => false,
                }
    }

    /// An outcome of `tool` called with `arguments` (JSON text), for tests.
    #[cfg(test)]
    pub(crate) fn of(tool: &str, arguments: &str, status: CallStatus, result: ToolResult) -> Self {
        Self {
            call: ToolCall {
                id: "c".into(),
                kind: "function".into(),
                function: deskmate_llm::wire::FunctionCall {
                    name: tool.into(),
                    arguments: arguments.into(),
                },
            },
            tool: tool.into(),
            status,
            result,
            key: format!("{tool}\n{}", canonical_arguments(arguments)),
        }
    }

    /// A failure that calling again as it was may get past: the tool said it was
    /// passing (busy, restarting), or a call that may be made again (`retriable`) timed
    /// out. A write that timed out may have happened, and a question that timed out was
    /// put to a person who did not answer: neither is made again unasked.
    pub(crate) fn passing(&self, retriable: bool) -> bool {
        self.status == CallStatus::Failed
            && match self.result.error_type {
                Some(ErrorType::Transient) => true,
                Some(ErrorType::Timeout) => retriable,
                _ => false,
            }
    }
}

/// The results of the calls that succeeded so far in a turn, by call key, each with
/// whether it was a read (a read's result is stale once a write ran after it).
pub(crate) type Succeeded = HashMap<String, (ToolResult, bool)>;

/// Object keys sorted at every level, so two spellings of the same arguments compare equal.
pub(crate) fn canonical(value: &Value) -> String {
    fn sorted(value: &Value) -> Value {
        match value {
            Value::Object(map) => {
                let mut keys: Vec<&String> = map.keys().collect();
                keys.sort();
                Value::Object(
                    keys.into_iter()
                        .map(|k| (k.clone(), sorted(&map[k])))
                        .collect(),
                )
            }
            Value::Array(items) => Value::Array(items.iter().map(sorted).collect()),
            other => other.clone(),
        }
    }
    sorted(value).to_string()
}

/// The raw arguments, canonical when they are JSON.
pub(crate) fn canonical_arguments(arguments: &str) -> String {
    serde_json::from_str::<Value>(arguments)
        .map(|v| canonical(&v))
        .unwrap_or_else(|_| arguments.trim().to_string())
}

/// Whether a call of the tool with `spec` only reads; one whose name resolves to no tool
/// runs nothing, so it counts as a read.
pub(crate) fn reads(spec: Option<&ToolSpec>) -> bool {
    spec.is_none_or(|s| s.side_effect == SideEffect::Read)
}

/// Whether a call of the tool with `spec` may simply be made again after a timeout: it
/// only reads and a second call has no effect of its own. A question put to the person
/// reads, but is not idempotent: asking again puts it to them again.
pub(crate) fn retriable(spec: Option<&ToolSpec>) -> bool {
    spec.is_none_or(|s| s.side_effect == SideEffect::Read && s.idempotent)
}

/// Why a call was not run: the person stopped the turn.
pub(crate) fn stopped_error() -> ToolError {
    ToolError::new(ErrorType::Denied, "not run: the user stopped the turn")
        .with_hint("do not call it again unless the user asks again")
}

/// The result of a call not run because the person stopped the turn.
pub(crate) fn stopped() -> ToolResult {
    ToolResult::failure(stopped_error())
}

#[cfg(test)]
mod tests {
    use super::*;
    use deskmate_core::ToolError;
    use serde_json::json;

    #[test]
    fn a_passing_failure_is_one_the_tool_says_passes_or_a_read_that_timed_out() {
        let failed = |error: ToolError| {
            Outcome::of("t", "{}", CallStatus::Failed, ToolResult::failure(error))
        };
        assert!(failed(ToolError::transient("busy")).passing(false));
        let timed_out = failed(ToolError::new(ErrorType::Timeout, "slow"));
        assert!(timed_out.passing(true));
        assert!(
            !timed_out.passing(false),
            "a write that timed out may have happened"
        );
        assert!(!failed(ToolError::validation("bad")).passing(true));
    }

    #[test]
    fn a_question_nobody_answered_is_not_asked_again_unasked() {
        let spec = |side_effect, idempotent| ToolSpec {
            id: "ask".into(),
            name: deskmate_core::Localized::new("问", "Ask"),
            summary: None,
            description: "Asks the person.".into(),
            category: deskmate_core::Category::System,
            parameters: json!({"type": "object", "additionalProperties": false}),
            side_effect,
            idempotent,
            timeout_ms: 1000,
            compensation: None,
        };
        let nobody_chose = Outcome::of(
            "ask",
            "{}",
            CallStatus::Failed,
            ToolResult::failure(ToolError::new(ErrorType::Timeout, "nobody chose")),
        );
        // A question (reads, not idempotent), a lookup (reads, idempotent), a write.
        assert!(!nobody_chose.passing(retriable(Some(&spec(SideEffect::Read, false)))));
        assert!(nobody_chose.passing(retriable(Some(&spec(SideEffect::Read, true)))));
        assert!(!nobody_chose.passing(retriable(Some(&spec(SideEffect::Write, true)))));
        // And what may not be made again ends the model's calls: it may only answer.
        assert!(nobody_chose.settles(retriable(Some(&spec(SideEffect::Read, false)))));
        assert!(nobody_chose.settles(retriable(Some(&spec(SideEffect::Write, true)))));
        assert!(!nobody_chose.settles(retriable(Some(&spec(SideEffect::Read, true)))));
    }

    #[test]
    fn the_same_arguments_in_another_order_have_one_key() {
        assert_eq!(
            canonical_arguments(r#"{"b": 1, "a": {"y": [1, {"d": 2, "c": 3}], "x": 0}}"#),
            canonical_arguments(r#"{"a":{"x":0,"y":[1,{"c":3,"d":2}]},"b":1}"#)
        );
        assert_ne!(
            canonical_arguments(r#"{"a": [1, 2]}"#),
            canonical_arguments(r#"{"a": [2, 1]}"#)
        );
        assert_eq!(canonical_arguments(" not json "), "not json");
    }
}

/// Outcomes the tests of the reply's checks share.
#[cfg(test)]
pub(crate) mod fixtures {
    use deskmate_core::ToolResult;
    use serde_json::json;

    use super::Outcome;
    use crate::types::CallStatus;

    /// An outcome of `tool` called with no arguments.
    pub(crate) fn outcome(tool: &str, status: CallStatus, result: ToolResult) -> Outcome {
        Outcome::of(tool, "{}", status, result)
    }

    /// A calculator's success, with its line.
    pub(crate) fn sum() -> Outcome {
        outcome(
            "calculator",
            CallStatus::Done,
            ToolResult::success(json!({"expression": "17% of 2,340", "result": 397.8,
                "text": "397.8", "said": {"zh": "17% of 2,340 = 397.8", "en": "17% of 2,340 = 397.8"}})),
        )
    }

    /// The clock's success, with its line.
    pub(crate) fn time() -> Outcome {
        outcome(
            "current_time",
            CallStatus::Done,
            ToolResult::success(json!({"date": "2026-12-02", "time": "14:05:09",
                "timezone": "Etc/UTC", "weekday": "Wednesday",
                "said": {"zh": "Etc/UTC 现在是 2026-12-02 14:05:09",
                         "en": "It is 14:05:09 on 2026-12-02 (Etc/UTC)"}})),
        )
    }
}
