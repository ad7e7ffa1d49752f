//! `voice_msg_prompt`: speak a message on the default output, return once it was played.

use std::sync::Arc;

use deskmate_core::{Category, JsonSchema, Localized, SideEffect, ToolError, ToolSpec, schema_for};
use deskmate_tools::{Example, FnTool, Teaches};
use serde::Deserialize;
use serde_json::{Value, json};

use crate::speaker::{Language, Speaker, Speech};
use crate::volume::device_error;

/// What to say, and how.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct Say {
    #[schemars(
        length(min = 1, max = 1000),
        description = "What to say.",
        extend("x-description-zh" = "要说的内容。")
    )]
    message: String,
    #[schemars(
        description = "Voice language; by default Chinese when the message has Chinese characters, else English.",
        extend("x-description-zh" = "语音的语言；默认情况下，消息含有汉字时用中文，否则用英文。")
    )]
    language: Option<Language>,
    #[serde(default = "default_rate")]
    #[schemars(
        range(min = 80, max = 300),
        description = "Speaking rate in words per minute (default 160).",
        extend("x-description-zh" = "语速，单位为每分钟词数（默认 160）。")
    )]
    rate: u32,
}

fn default_rate() -> u32 {
    160
}

/// How a person asks for a message spoken, for the model: out loud, in so many words
/// (an answer is written, not read aloud, unless the person asks); the others in
/// everyday words, beside a request near them.
const EXAMPLES: &[Example] = &[
    Example {
        teaches: Teaches::AskedFor,
        request: "read 'the oven is hot' to me aloud",
        parts: &[],
        calls: &[("voice_msg_prompt", r#"{"message":"the oven is hot"}"#)],
    },
    Example {
        teaches: Teaches::Wording,
        request: "speak the words 'tea is ready'",
        parts: &[],
        calls: &[("voice_msg_prompt", r#"{"message":"tea is ready"}"#)],
    },
    Example {
        teaches: Teaches::Wording,
        request: "用语音播报：会议开始了",
        parts: &[],
        calls: &[("voice_msg_prompt", r#"{"message":"会议开始了"}"#)],
    },
];

/// The tool on a speaker.
pub fn voice_msg_prompt(speaker: Arc<dyn Speaker>) -> FnTool {
    let checked = speaker.clone();
    FnTool::blocking(spec(), move |args| speak(speaker.as_ref(), args))
        .with_examples(EXAMPLES)
        .with_self_check(move || {
            let speaker = checked.clone();
            crate::readiness::self_check("Speaker", move || {
                crate::readiness::speaker(speaker.as_ref())
            })
        })
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
        parameters: schema_for::<Say>(),
        side_effect: SideEffect::Write,
        idempotent: false,
        timeout_ms: 60_000,
        compensation: None,
    }
}

fn speak(speaker: &dyn Speaker, args: Say) -> Result<Value, ToolError> {
    let Say {
        message: text,
        language,
        rate,
    } = args;
    let language = language.unwrap_or(
        if text.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)) {
            Language::Zh
        } else {
            Language::En
        },
    );
    let spoken = speaker
        .speak(&Speech {
            text,
            language,
            rate,
        })
        .map_err(device_error)?;
    let seconds = format!("{:.1}", spoken.duration_ms as f64 / 1000.0);
    let line = deskmate_core::said!("已朗读消息（{seconds} 秒）", "Message spoken ({seconds} s)");
    let data = json!({
        "spoken": true,
        "duration_ms": spoken.duration_ms,
        "device": spoken.device,
        "voice": spoken.voice,
        "language": language,
    });
    Ok(deskmate_tools::said::with_line(data, line))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::speaker::SimulatedSpeaker;

    #[test]
    fn a_message_says_how_long_it_was_spoken() {
        let say = |text: &str| Say {
            message: text.into(),
            language: None,
            rate: 160,
        };
        let spoken = speak(&SimulatedSpeaker::default(), say("dinner is ready"))
            .unwrap_or_else(|e| panic!("{e}"));
        let line = |zh| deskmate_tools::said::line(&spoken, zh);
        assert_eq!(line(false), Some("Message spoken (1.0 s)"));
        assert_eq!(line(true), Some("已朗读消息（1.0 秒）"));
    }
}
