//! Tool specs: what a tool is, what it takes, and what it may change.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// A display string in both user-facing languages.
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Localized {
    /// Simplified Chinese.
    pub zh: String,
    /// English.
    pub en: String,
}

impl Localized {
    /// Builds a localized string from its Chinese and English forms.
    pub fn new(zh: impl Into<String>, en: impl Into<String>) -> Self {
        Self {
            zh: zh.into(),
            en: en.into(),
        }
    }

    /// The same text in both (a name, a number, an outside program's own words).
    pub fn same(text: impl Into<String>) -> Self {
        let text = text.into();
        Self {
            zh: text.clone(),
            en: text,
        }
    }
}

/// Text that is the same in both languages: what an outside program said, a name.
impl From<String> for Localized {
    fn from(text: String) -> Self {
        Self::same(text)
    }
}

impl From<&str> for Localized {
    fn from(text: &str) -> Self {
        Self::same(text)
    }
}

/// The English form (logs, errors for a model).
impl std::fmt::Display for Localized {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.en)
    }
}

/// A [`Localized`] text from a Chinese and an English format string, each taking the
/// same arguments by name: `said!("找到模型：{name}", "Found model: {name}")`.
#[macro_export]
macro_rules! said {
    ($zh:literal, $en:literal $(,)?) => {
        $crate::Localized::new(format!($zh), format!($en))
    };
}

/// What a person reads about a tool in the GUI, in both languages: its name and what it
/// does in a sentence. A built-in tool's comes from its spec; an HTTP tool may carry one.
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ToolDisplay {
    /// The display name.
    pub name: Localized,
    /// What the tool does, in one sentence.
    pub description: Localized,
}

/// The API contract's two tool categories.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Category {
    /// Looks something up and answers; runs without touching devices.
    Query,
    /// Acts on the desktop: devices, prompts, notifications.
    System,
}

/// What running a tool may change in the world.
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SideEffect {
    /// Changes nothing; safe to run concurrently and to repeat.
    Read,
    /// Changes state that can be changed back.
    Write,
    /// Changes state that cannot be taken back (sending, deleting, paying).
    Irreversible,
}

/// How a write is undone when a later write of the same batch fails.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Compensation {
    /// The tool that undoes the change (often the same tool or its opposite).
    pub tool: String,
    /// A sentence saying what the compensation does, for people and models.
    pub description: String,
}

/// Everything the guard, the model and the GUI need to know about one tool.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolSpec {
    /// Stable identifier matching `[a-z0-9_]{1,64}`: the function name the model sees.
    pub id: String,
    /// Display name.
    pub name: Localized,
    /// What it does in one sentence for a person, in both languages (the GUI's text; the
    /// `description` is written for the model). Built-in tools all have one; a tool built
    /// from a resource or an MCP server has none and shows its `description`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub summary: Option<Localized>,
    /// What it does, when to use it, preconditions, and whether it is read-only.
    pub description: String,
    /// The API contract's category.
    pub category: Category,
    /// JSON Schema 2020-12 of the arguments: type object, `additionalProperties: false`.
    pub parameters: Value,
    /// What a call may change.
    pub side_effect: SideEffect,
    /// Whether running the same call twice has the effect of running it once.
    pub idempotent: bool,
    /// How long one call may run before it is cancelled.
    pub timeout_ms: u64,
    /// How to undo a successful call when a later write of its batch fails.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub compensation: Option<Compensation>,
}

impl ToolSpec {
    /// The parameter schema as the model should see it: the same schema with
    /// Deskmate's `x-` normalization hints removed, since they mean nothing to a model.
    pub fn parameters_for_model(&self) -> Value {
        strip_extensions(&self.parameters, &|_| false)
    }

    /// The parameter schema as a person's form shows it: as the model sees it, plus each
    /// property's Chinese description (`x-description-zh`) beside the English one.
    pub fn parameters_for_people(&self) -> Value {
        strip_extensions(&self.parameters, &|key| key == DESCRIPTION_ZH)
    }
}

/// Returns `id` if it is a valid tool id: `[a-z0-9_]{1,64}`.
pub fn is_valid_tool_id(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= 64
        && id
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_')
}

/// Returns whether `id` names a tool imported from an MCP server: `<server>.<tool>`,
/// the server part `[a-z0-9_]{1,}` (a Deskmate name), the tool part the server's own
/// name in MCP's characters `[A-Za-z0-9_-]{1,}`, at most 64 in all. The dot keeps
/// imported tools apart from Deskmate's own, whose ids never contain one.
pub fn is_valid_imported_tool_id(id: &str) -> bool {
    let Some((server, tool)) = id.split_once('.') else {
        return false;
    };
    id.len() <= 64
        && is_valid_tool_id(server)
        && !tool.is_empty()
        && tool
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

/// The schema keyword holding a property's description in Simplified Chinese (the
/// `description` is English, for the model).
pub const DESCRIPTION_ZH: &str = "x-description-zh";

fn strip_extensions(schema: &Value, keep: &dyn Fn(&str) -> bool) -> Value {
    match schema {
        Value::Object(map) => Value::Object(
            map.iter()
                .filter(|(key, _)| !key.starts_with("x-") || keep(key))
                .map(|(key, value)| {
                    // Property names are data, not keywords: keep them all.
                    let value = if key == "properties" {
                        match value {
                            Value::Object(props) => Value::Object(
                                props
                                    .iter()
                                    .map(|(k, v)| (k.clone(), strip_extensions(v, keep)))
                                    .collect(),
                            ),
                            other => other.clone(),
                        }
                    } else {
                        strip_extensions(value, keep)
                    };
                    (key.clone(), value)
                })
                .collect(),
        ),
        Value::Array(items) => {
            Value::Array(items.iter().map(|v| strip_extensions(v, keep)).collect())
        }
        other => other.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn people_see_the_chinese_descriptions_and_the_model_sees_no_extension() {
        let spec = ToolSpec {
            id: "t".into(),
            name: Localized::new("工具", "Tool"),
            summary: None,
            description: "A tool.".into(),
            category: Category::Query,
            parameters: json!({"type": "object", "properties": {
                "x-percent": {"type": "number", "description": "a property named like an extension",
                              "x-percent": true, "x-description-zh": "百分数"}}}),
            side_effect: SideEffect::Read,
            idempotent: true,
            timeout_ms: 1,
            compensation: None,
        };
        assert_eq!(
            spec.parameters_for_model(),
            json!({"type": "object", "properties": {
                "x-percent": {"type": "number", "description": "a property named like an extension"}}})
        );
        assert_eq!(
            spec.parameters_for_people(),
            json!({"type": "object", "properties": {
                "x-percent": {"type": "number", "description": "a property named like an extension",
                              "x-description-zh": "百分数"}}})
        );
    }

    #[test]
    fn tool_ids() {
        for ok in ["calculator", "a", "tool_2", &"x".repeat(64)] {
            assert!(is_valid_tool_id(ok), "{ok}");
        }
        for bad in ["", "Calc", "a-b", "a b", "工具", &"x".repeat(65)] {
            assert!(!is_valid_tool_id(bad), "{bad}");
        }
        for ok in ["everything.echo", "fs.write_file", "git.Git-Log"] {
            assert!(is_valid_imported_tool_id(ok), "{ok}");
            assert!(!is_valid_tool_id(ok), "{ok}");
        }
        for bad in [
            "echo",
            ".echo",
            "everything.",
            "a.b.c",
            "Srv.echo",
            "s.e cho",
        ] {
            assert!(!is_valid_imported_tool_id(bad), "{bad}");
        }
        assert!(!is_valid_imported_tool_id(&format!("s.{}", "x".repeat(63))));
    }

    #[test]
    fn model_schema_drops_hints_but_keeps_property_names() {
        let spec = ToolSpec {
            id: "t".into(),
            name: Localized::new("测试", "Test"),
            summary: None,
            description: "d".into(),
            category: Category::Query,
            parameters: json!({"type": "object", "properties": {
                "x-odd-name": {"type": "string", "description": "kept", "x-strip-suffixes": [".csv"]}
            }, "x-all": "omit"}),
            side_effect: SideEffect::Read,
            idempotent: true,
            timeout_ms: 1000,
            compensation: None,
        };
        assert_eq!(
            spec.parameters_for_model(),
            json!({"type": "object", "properties": {"x-odd-name": {"type": "string", "description": "kept"}}})
        );
    }
}
