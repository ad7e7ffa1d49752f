//! `voice_msg_prompt`: speak a message on the default output, return once it was played.

use std::sync::Arc;

use deskmate_core::{Category, Localized, SideEffect, ToolError, ToolSpec};
use deskmate_tools::FnTool;
use serde_json::{Value, json};

use crate::speaker::{Language, Speaker, Speech};
use crate::volume::device_error;

/// What the tool does, as a person asks for it ([`deskmate_tools::Tool::subjects`]):
/// speaking, saying or reading something aloud.
pub const SUBJECTS: &[&str] = &[
    "say",
    "speak",
    "speech",
    "aloud",
    "out loud",
    "read",
    "voice",
    "announce",
    "pronounce",
    "说",
    "读",
    "念",
    "播",
    "语音",
    "朗读",
    "喊",
];

/// The tool on a speaker.
pub fn voice_msg_prompt(speaker: Arc<dyn Speaker>) -> FnTool {
    let checked = speaker.clone();
    FnTool::blocking(spec(), move |args| speak(speaker.as_ref(), args))
        .with_self_check(move || {
            let speaker = checked.clone();
            crate::readiness::self_check("Speaker", move || {
                crate::readiness::speaker(speaker.as_ref())
            })
        })
        .with_subjects(SUBJECTS)
}

fn spec() -> ToolSpec {
    ToolSpec {
        id: "voice_msg_prompt".into(),
        name: Localized::new("语音消息提示", "Voice message prompt"),
        summary: Some(Localized::new(
            "用电脑的扬声器把一段话朗读出来，支持中文和英文。",
            "Reads a message aloud through the computer's speakers, in Chinese or English.",
        )),
        description: "Speaks a message aloud through the speakers, only when the user asks to \
            hear it spoken (text to speech, Chinese or English voice). Plays on the computer's \
            default audio output and returns when it has been played, with its duration; a \
            joke, a story or an answer the user asked for goes in the chat reply instead."
            .into(),
        category: Category::System,
        parameters: json!({
            "type": "object",
            "additionalProperties": false,
            "required": ["message"],
            "properties": {
                "message": {"type": "string", "minLength": 1, "maxLength": 1000,
                            "description": "What to say.",
                            "x-description-zh": "要说的内容。"},
                "language": {"type": "string", "enum": ["zh", "en"],
                             "description": "Voice language; by default Chinese when the message has Chinese characters, else English.",
                             "x-description-zh": "语音的语言；默认情况下，消息含有汉字时用中文，否则用英文。"},
                "rate": {"type": "integer", "minimum": 80, "maximum": 300, "default": 160,
                         "description": "Speaking rate in words per minute (default 160).",
                         "x-description-zh": "语速，单位为每分钟词数（默认 160）。"}
            }
        }),
        side_effect: SideEffect::Write,
        idempotent: false,
        timeout_ms: 60_000,
        compensation: None,
    }
}

fn speak(speaker: &dyn Speaker, args: &Value) -> Result<Value, ToolError> {
    let text = args
        .get("message")
        .and_then(Value::as_str)
        .unwrap_or_default();
    let language = match args.get("language").and_then(Value::as_str) {
        Some("zh") => Language::Zh,
        Some("en") => Language::En,
        _ if text.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)) => Language::Zh,
        _ => Language::En,
    };
    let rate = args.get("rate").and_then(Value::as_u64).unwrap_or(160) as u32;
    let spoken = speaker
        .speak(&Speech {
            text: text.to_string(),
            language,
            rate,
        })
        .map_err(device_error)?;
    Ok(json!({
        "spoken": true,
        "duration_ms": spoken.duration_ms,
        "device": spoken.device,
        "voice": spoken.voice,
        "language": language,
    }))
}
