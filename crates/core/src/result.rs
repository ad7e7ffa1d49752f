//! The one result shape every surface (REST, GUI, CLI, LLM) sees, and its rendering for a model.

use std::fmt;

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Why a call did not succeed. The set is closed: a model and a GUI can act on each kind.
///
/// Decision (a design choice): `denied` and `timeout` are kept as their own
/// kinds rather than folded into `permission` and `transient`, because the right next
/// step differs — a denied call must not be retried without asking the person, a timed
/// out call may be retried with a smaller request.
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorType {
    /// The arguments are wrong; the hint and options say how to fix them.
    Validation,
    /// The tool, dataset, device or record does not exist.
    NotFound,
    /// The call is not allowed (outside a whitelist, a disabled tool, a missing protection).
    Permission,
    /// A passing failure (server down, device busy); the same call may work later.
    Transient,
    /// A bug or an unexpected failure inside Deskmate.
    Internal,
    /// A person or a policy refused the call.
    Denied,
    /// The call ran longer than the tool's timeout and was cancelled.
    Timeout,
}

impl ErrorType {
    /// The snake_case name used on the wire.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Validation => "validation",
            Self::NotFound => "not_found",
            Self::Permission => "permission",
            Self::Transient => "transient",
            Self::Internal => "internal",
            Self::Denied => "denied",
            Self::Timeout => "timeout",
        }
    }
}

impl fmt::Display for ErrorType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One change the guard made to a model's arguments, so nobody has to guess what ran.
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Repair {
    /// JSON pointer of the repaired value (`""` for the whole argument object).
    pub path: String,
    /// The value as the caller sent it.
    pub from: Value,
    /// The value the tool received.
    pub to: Value,
    /// Which normalization rule made the change.
    pub rule: RepairRule,
}

/// The normalizer's rules; each is table-tested in `normalize`.
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RepairRule {
    /// Arguments arrived as a JSON string and were parsed.
    ParseJsonString,
    /// Empty or null arguments were read as `{}`.
    EmptyArguments,
    /// A Markdown code fence around the JSON was removed.
    StripCodeFence,
    /// Trailing commas before `}` or `]` were removed.
    TrailingComma,
    /// Missing closing brackets at the very end were added.
    CloseBrackets,
    /// Surrounding whitespace was trimmed.
    Trim,
    /// A string was matched case-insensitively to an enum value.
    EnumCase,
    /// A declared file suffix (`.csv`, `.xpt`) was removed.
    StripSuffix,
    /// A single value was wrapped into a one-item list.
    ScalarToList,
    /// A one-item list was unwrapped where a single value is expected.
    ListToScalar,
    /// A delimited string (`"a,b; c"`, `"a，b"`) was split into a list.
    SplitList,
    /// Duplicate list items were removed, keeping the first of each.
    Dedupe,
    /// A numeric string was read as a number.
    NumberFromString,
    /// A percentage string (`"70%"`) was read as a number of percent.
    Percent,
    /// A yes/no string was read as a boolean.
    BoolFromString,
    /// A JSON string where an object or array is expected was parsed.
    ParseNestedJson,
    /// A natural-language "all" was replaced by what the parameter declares "all" means.
    AllKeyword,
    /// A `null` optional property was removed so its default applies.
    DropNull,
    /// A property name was matched case-insensitively to a declared property.
    KeyCase,
    /// An absent property took the default its schema declares.
    DefaultValue,
    /// A question's trailing list of its own options (which the dialog shows) was cut.
    ListedOptions,
    /// The model wrote the call into its text (bare JSON, `<tool_call>` tags, a code
    /// fence, `[TOOL_CALLS]`) instead of structured `tool_calls`; it was extracted.
    ExtractedFromContent,
}

/// The single result shape of a tool call.
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolResult {
    /// Whether the call succeeded.
    pub ok: bool,
    /// The tool's answer, small and structured; `null` on error.
    pub data: Value,
    /// What went wrong, in one sentence.
    pub error: Option<String>,
    /// The kind of failure.
    pub error_type: Option<ErrorType>,
    /// How to fix the call, or how to narrow a truncated answer.
    pub hint: Option<String>,
    /// Valid values where the set is known (tool ids, enum values, dataset names).
    pub options: Vec<String>,
    /// Every change the guard made to the arguments.
    pub repairs: Vec<Repair>,
    /// Whether `data` was cut to fit the limits (the hint then says what was cut).
    pub truncated: bool,
    /// Identifier of this call (also in the audit log).
    pub call_id: String,
    /// Wall-clock time of the whole call through the guard.
    pub duration_ms: u64,
}

impl ToolResult {
    /// A successful result.
    pub fn success(data: Value) -> Self {
        Self {
            ok: true,
            data,
            error: None,
            error_type: None,
            hint: None,
            options: Vec::new(),
            repairs: Vec::new(),
            truncated: false,
            call_id: String::new(),
            duration_ms: 0,
        }
    }

    /// A failed result built from a [`ToolError`].
    pub fn failure(error: ToolError) -> Self {
        Self {
            ok: false,
            data: Value::Null,
            error: Some(error.message),
            error_type: Some(error.error_type),
            hint: error.hint,
            options: error.options,
            repairs: Vec::new(),
            truncated: false,
            call_id: String::new(),
            duration_ms: 0,
        }
    }

    /// Attaches the repairs the guard made.
    #[must_use]
    pub fn with_repairs(mut self, repairs: Vec<Repair>) -> Self {
        self.repairs = repairs;
        self
    }

    /// The short text sent back to a model: the data on success; on failure the kind,
    /// the message, the valid options and the hint, each on its own line.
    pub fn to_llm_text(&self) -> String {
        let mut out = String::new();
        if self.ok {
            out.push_str(&serde_json::to_string(&self.data).unwrap_or_else(|_| "null".into()));
        } else {
            let kind = self.error_type.unwrap_or(ErrorType::Internal);
            out.push_str(&format!(
                "[{kind}] {}",
                self.error.as_deref().unwrap_or("the call failed")
            ));
            if !self.options.is_empty() {
                out.push_str("\nvalid options: ");
                out.push_str(&self.options.join(", "));
            }
        }
        if let Some(hint) = &self.hint {
            out.push_str(if self.truncated {
                "\ntruncated: "
            } else {
                "\nhint: "
            });
            out.push_str(hint);
        }
        let repairs: Vec<String> = self
            .repairs
            .iter()
            .map(|r| {
                let path = if r.path.is_empty() {
                    "arguments"
                } else {
                    &r.path
                };
                format!("{path} {} -> {}", short_json(&r.from), short_json(&r.to))
            })
            .collect();
        if !repairs.is_empty() {
            out.push_str("\nrepaired: ");
            out.push_str(&repairs.join("; "));
        }
        out
    }
}

fn short_json(value: &Value) -> String {
    let text = serde_json::to_string(value).unwrap_or_default();
    if text.chars().count() > 40 {
        let head: String = text.chars().take(37).collect();
        format!("{head}...")
    } else {
        text
    }
}

/// A call that could not be made or that ran and failed, as tools and the guard report it.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("[{error_type}] {message}")]
pub struct ToolError {
    /// The kind of failure.
    pub error_type: ErrorType,
    /// What went wrong, in one sentence.
    pub message: String,
    /// How to fix it.
    pub hint: Option<String>,
    /// Valid values, when known.
    pub options: Vec<String>,
}

impl ToolError {
    /// An error of the given kind.
    pub fn new(error_type: ErrorType, message: impl Into<String>) -> Self {
        Self {
            error_type,
            message: message.into(),
            hint: None,
            options: Vec::new(),
        }
    }

    /// Wrong arguments.
    pub fn validation(message: impl Into<String>) -> Self {
        Self::new(ErrorType::Validation, message)
    }

    /// Something named in the call does not exist.
    pub fn not_found(message: impl Into<String>) -> Self {
        Self::new(ErrorType::NotFound, message)
    }

    /// Not allowed.
    pub fn permission(message: impl Into<String>) -> Self {
        Self::new(ErrorType::Permission, message)
    }

    /// May work later.
    pub fn transient(message: impl Into<String>) -> Self {
        Self::new(ErrorType::Transient, message)
    }

    /// A failure inside Deskmate.
    pub fn internal(message: impl Into<String>) -> Self {
        Self::new(ErrorType::Internal, message)
    }

    /// Adds a hint.
    #[must_use]
    pub fn with_hint(mut self, hint: impl Into<String>) -> Self {
        self.hint = Some(hint.into());
        self
    }

    /// Adds the valid options.
    #[must_use]
    pub fn with_options<I, S>(mut self, options: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.options = options.into_iter().map(Into::into).collect();
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn every_field_is_always_serialized() {
        let value = serde_json::to_value(ToolResult::success(json!({"x": 1}))).unwrap_or_default();
        let keys: Vec<&str> = value
            .as_object()
            .map(|m| m.keys().map(String::as_str).collect())
            .unwrap_or_default();
        assert_eq!(
            keys,
            [
                "ok",
                "data",
                "error",
                "error_type",
                "hint",
                "options",
                "repairs",
                "truncated",
                "call_id",
                "duration_ms"
            ]
        );
    }

    #[test]
    fn error_text_for_a_model_names_kind_options_and_hint() {
        let result = ToolResult::failure(
            ToolError::validation("unknown dataset 'adls'")
                .with_hint("use one of the listed datasets")
                .with_options(["adsl", "adae"]),
        )
        .with_repairs(vec![Repair {
            path: "/dataset".into(),
            from: json!(" adls "),
            to: json!("adls"),
            rule: RepairRule::Trim,
        }]);
        assert_eq!(
            result.to_llm_text(),
            "[validation] unknown dataset 'adls'\nvalid options: adsl, adae\n\
             hint: use one of the listed datasets\nrepaired: /dataset \" adls \" -> \"adls\""
        );
    }

    #[test]
    fn success_text_is_compact_json() {
        assert_eq!(
            ToolResult::success(json!({"a": [1, 2]})).to_llm_text(),
            r#"{"a":[1,2]}"#
        );
    }

    #[test]
    fn error_types_serialize_snake_case() {
        assert_eq!(
            serde_json::to_value(ErrorType::NotFound).ok(),
            Some(json!("not_found"))
        );
        assert_eq!(ErrorType::Timeout.to_string(), "timeout");
    }
}
