//! The user's settings: a fixed list of known keys, each with its type, default and a
//! description in zh-CN and en. Unknown keys and wrongly typed values are refused.

use deskmate_core::Localized;
use serde::Serialize;
use serde_json::Value;

use crate::error::FieldError;

/// The setting with the context size of a model whose server does not tell it (the
/// agent reads it; llama.cpp tells its own).
pub const CONTEXT_SETTING: &str = "chat.context_tokens";
/// Its default.
pub const DEFAULT_CONTEXT_TOKENS: i64 = 8192;

/// A setting Deskmate knows.
#[derive(Debug, Clone, Copy)]
pub struct Known {
    /// Its key.
    pub key: &'static str,
    /// Its default value (also gives its JSON type).
    pub default: fn() -> Value,
    /// What it does, zh-CN.
    pub zh: &'static str,
    /// What it does, en.
    pub en: &'static str,
}

/// Every setting.
pub const KNOWN: &[Known] = &[
    Known {
        key: deskmate_tools::code_interpreter::ALLOW_WEAKER_SETTING,
        default: || Value::Bool(false),
        zh: "允许代码解释器在缺少某项沙箱保护时仍然运行（每个结果都会注明缺少的保护）。默认关闭：缺少保护即拒绝运行。",
        en: "Let the code interpreter run when a sandbox protection is missing (every result says which). Off by default: it refuses to run.",
    },
    Known {
        key: crate::schedules::fire::GRACE_SETTING,
        default: || Value::from(crate::schedules::fire::DEFAULT_GRACE_MINUTES),
        zh: "提醒错过多少分钟以内（当时 Deskmate 没有运行），启动时仍然补发并注明原定时间（0–1440）；更早错过的提醒和定时操作只记为“已错过”，不会补做。",
        en: "How many minutes late a reminder missed while Deskmate was not running still fires at start, saying when it was due (0–1440); older reminders and scheduled actions are recorded as missed, never run late.",
    },
    Known {
        key: CONTEXT_SETTING,
        default: || Value::from(DEFAULT_CONTEXT_TOKENS),
        zh: "模型上下文的大小（token 数，512–2000000），用于不报告上下文大小的模型服务（llama.cpp 会自己报告）。对话装不下时，最早的几轮会由模型折叠成一段摘要。",
        en: "The model's context size in tokens (512–2,000,000), for model servers that do not tell it (llama.cpp does). When a conversation no longer fits, its oldest turns are folded into a summary the model writes.",
    },
    Known {
        key: crate::model_files::FOLDER_SETTING,
        default: || Value::String(String::new()),
        zh: "另一个存放 GGUF 模型文件的文件夹（绝对路径），其中的 .gguf 文件会出现在“模型”页上供添加。留空则只列出缓存目录的 models 文件夹。",
        en: "One more folder of GGUF model files (an absolute path): its .gguf files are offered on the Models page. Empty: only the cache's models folder is listed.",
    },
];

/// A setting with its current value.
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
pub struct Setting {
    /// Its key.
    pub key: String,
    /// The value in force (the default when never set).
    pub value: Value,
    /// The default.
    pub default: Value,
    /// Whether the user set it.
    pub is_set: bool,
    /// What it does.
    pub description: Localized,
}

/// The known setting with this key.
pub fn known(key: &str) -> Option<&'static Known> {
    KNOWN.iter().find(|k| k.key == key)
}

/// Checks a value against the setting's type.
pub fn check(known: &Known, value: &Value) -> Result<(), FieldError> {
    let default = (known.default)();
    let same_type = matches!(
        (&default, value),
        (Value::Bool(_), Value::Bool(_))
            | (Value::Number(_), Value::Number(_))
            | (Value::String(_), Value::String(_))
    );
    let relative_folder = known.key == crate::model_files::FOLDER_SETTING
        && value
            .as_str()
            .is_some_and(|v| !v.is_empty() && !v.starts_with('/'));
    if relative_folder {
        return Err(FieldError {
            path: "/value".into(),
            message: format!(
                "{} must be an absolute path (starting with /), or empty",
                known.key
            ),
            hint: "e.g. {\"value\": \"/home/me/models\"}".into(),
        });
    }
    if same_type {
        Ok(())
    } else {
        Err(FieldError {
            path: "/value".into(),
            message: format!("{} takes a {}, not {value}", known.key, type_name(&default)),
            hint: format!("send {{\"value\": {default}}} or the other value of that type"),
        })
    }
}

fn type_name(value: &Value) -> &'static str {
    match value {
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        _ => "value",
    }
}

pub(crate) fn describe(known: &Known, stored: Option<Value>) -> Setting {
    let default = (known.default)();
    Setting {
        key: known.key.to_string(),
        is_set: stored.is_some(),
        value: stored.unwrap_or_else(|| default.clone()),
        default,
        description: Localized::new(known.zh, known.en),
    }
}
