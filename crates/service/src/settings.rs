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

/// Voice mode's wake phrases (any of them starts a turn), separated by `;`.
pub const WAKE_SETTING: &str = "voice.wake_phrases";
/// How long voice mode listens for a follow-up without the wake phrase, in seconds.
pub const FOLLOW_UP_SETTING: &str = "voice.follow_up_seconds";
/// The language voice mode hears: `auto`, `zh` or `en`.
pub const VOICE_LANGUAGE_SETTING: &str = "voice.language";
/// How fast voice mode speaks its replies, in words a minute.
pub const VOICE_RATE_SETTING: &str = "voice.rate";

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
    Known {
        key: WAKE_SETTING,
        default: || Value::String("Deskmate; 你好桌面助手".into()),
        zh: "语音模式的唤醒词：说出其中任何一个就开始一轮对话，同一口气里紧跟在后面的话就是请求。多个唤醒词用分号隔开。",
        en: "Voice mode's wake phrases: saying any of them starts a turn, and what follows in the same breath is the request. Separate several with semicolons.",
    },
    Known {
        key: FOLLOW_UP_SETTING,
        default: || Value::from(8),
        zh: "语音模式回答之后，不说唤醒词也能接着提问的秒数（0–120；0 表示每次都要说唤醒词）。",
        en: "After a spoken reply, how many seconds voice mode keeps listening for a follow-up without the wake phrase (0–120; 0: the phrase every time).",
    },
    Known {
        key: VOICE_LANGUAGE_SETTING,
        default: || Value::String("auto".into()),
        zh: "语音模式听的语言：auto（自动识别；识别成中英文以外的语言时，按上一次请求的语言重听）、zh 或 en。",
        en: "The language voice mode hears: auto (detected; speech heard as neither Chinese nor English is heard again in the last request's language), zh or en.",
    },
    Known {
        key: VOICE_RATE_SETTING,
        default: || Value::from(160),
        zh: "语音模式朗读回答的语速（每分钟词数，80–300）。",
        en: "How fast voice mode speaks its replies, in words a minute (80–300).",
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
