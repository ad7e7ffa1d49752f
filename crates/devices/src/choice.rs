//! `text_choice_prompt`: ask the person to pick one of 2–10 options and wait for the
//! answer — a dialog in the GUI, or `POST /api/v1/prompts/{id}/answer` when headless.

use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use deskmate_core::{
    Category, ErrorType, JsonSchema, Localized, SideEffect, ToolError, ToolSpec, read_args,
    schema_for,
};
use deskmate_tools::{Example, Teaches, Tool, ToolContext};
use serde::Deserialize;
use serde_json::{Value, json};

/// Asks a person to choose; `None` when nobody answered in time. Dropping the future
/// withdraws the question.
#[async_trait]
pub trait Chooser: Send + Sync + std::fmt::Debug {
    /// Asks and waits.
    async fn choose(&self, question: &str, options: &[String], timeout: Duration) -> Option<usize>;
}

/// Nobody to ask (a one-off command without a window or a server).
#[derive(Debug, Default)]
pub struct NoChooser;

#[async_trait]
impl Chooser for NoChooser {
    async fn choose(&self, _: &str, _: &[String], _: Duration) -> Option<usize> {
        None
    }
}

/// The tool.
#[derive(Debug)]
pub struct TextChoicePrompt {
    spec: ToolSpec,
    chooser: Option<Arc<dyn Chooser>>,
}

/// `text_choice_prompt` on a chooser; `None` when nobody can be asked here.
pub fn text_choice_prompt(chooser: Option<Arc<dyn Chooser>>) -> TextChoicePrompt {
    TextChoicePrompt {
        spec: spec(),
        chooser,
    }
}

/// A choice question: the arguments of `text_choice_prompt`, and the most of
/// `voice_choice_prompt`'s (flattened into its own).
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct Question {
    #[schemars(
        length(min = 1, max = 500),
        description = "The question, e.g. 'Continue the export?'",
        extend(
            "x-description-zh" = "要问的问题，例如 'Continue the export?'",
            "x-drop-listed" = "options"
        )
    )]
    pub question: String,
    #[schemars(
        length(min = 2, max = 10),
        inner(length(min = 1, max = 100)),
        description = "2-10 distinct answers, e.g. [\"Yes\", \"No\"].",
        extend("uniqueItems" = true, "x-description-zh" = "2 到 10 个互不相同的答案，例如 [\"Yes\", \"No\"]。")
    )]
    pub options: Vec<String>,
    #[serde(rename = "timeout_s", default = "default_seconds")]
    #[schemars(
        range(min = 5, max = 600),
        description = "Seconds to wait for the answer (default 60).",
        extend("x-description-zh" = "等待回答的秒数（默认 60）。")
    )]
    pub seconds: u64,
}

fn default_seconds() -> u64 {
    60
}

impl Question {
    /// Options must differ beyond case: a person cannot tell "Yes" from "yes".
    pub(crate) fn checked(self) -> Result<Self, ToolError> {
        let mut seen: Vec<String> = Vec::new();
        for option in &self.options {
            let folded = option.trim().to_lowercase();
            if seen.contains(&folded) {
                return Err(ToolError::validation(format!(
                    "options must be distinct: '{option}' appears twice (ignoring case)"
                ))
                .with_hint("give 2-10 different answers"));
            }
            seen.push(folded);
        }
        Ok(self)
    }

    /// The error when nobody chose in time.
    pub(crate) fn timed_out(&self, heard: &[String]) -> ToolError {
        let mut message = format!("nobody chose an option within {} s", self.seconds);
        if !heard.is_empty() {
            message.push_str(&format!(
                "; heard {} but it names no single option",
                heard
                    .iter()
                    .map(|h| format!("\"{h}\""))
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
        ToolError::new(ErrorType::Timeout, message)
            .with_hint("ask again later, or go on without the answer and say so")
    }
}

/// The error when the turn was cancelled while the question was open.
pub(crate) fn withdrawn() -> ToolError {
    ToolError::new(
        ErrorType::Timeout,
        "the question was withdrawn: the call was cancelled",
    )
}

fn spec() -> ToolSpec {
    ToolSpec {
        id: "text_choice_prompt".into(),
        name: Localized::new("文本选项提示", "Text choice prompt"),
        summary: Some(Localized::new(
            "弹出一个对话框，请你从 2 到 10 个选项中选一个，并等待你的回答。",
            "Asks you to pick one of 2 to 10 options in a dialog and waits for your answer.",
        )),
        description:
            "Shows the user a question with 2 to 10 distinct options in a dialog and waits \
            for their choice (or times out). Use it when you need the user to decide between \
            alternatives before going on. Returns the chosen option and its index (0-based)."
                .into(),
        category: Category::System,
        parameters: schema_for::<Question>(),
        side_effect: SideEffect::Read,
        idempotent: false,
        timeout_ms: 605_000,
        compensation: None,
    }
}

/// How a person asks to choose in a dialog, in everyday words (beside a request near
/// them).
const EXAMPLES: &[Example] = &[
    Example {
        teaches: Teaches::Wording,
        request: "dialog with choices red, green, blue for me to click",
        parts: &[],
        calls: &[(
            "text_choice_prompt",
            r#"{"question":"Red, green or blue?","options":["Red","Green","Blue"]}"#,
        )],
    },
    Example {
        teaches: Teaches::Wording,
        request: "弹个对话框问我：继续还是取消",
        parts: &[],
        calls: &[(
            "text_choice_prompt",
            r#"{"question":"继续还是取消？","options":["继续","取消"]}"#,
        )],
    },
];

#[async_trait]
impl Tool for TextChoicePrompt {
    fn spec(&self) -> &ToolSpec {
        &self.spec
    }

    fn examples(&self) -> &[Example] {
        EXAMPLES
    }

    /// Never run (it would ask the person): whether someone can be asked here.
    fn self_check(&self) -> deskmate_tools::SelfCheck {
        let answered = self.chooser.is_some();
        deskmate_tools::SelfCheck::Device(
            "Choice dialogs",
            Box::pin(async move {
                let name = crate::readiness::device_name("Choice dialogs");
                if answered {
                    let how = crate::readiness::choice_dialogs();
                    Ok(Localized::new(
                        format!("{}：{}", name.zh, how.zh),
                        format!("{}: {}", name.en, how.en),
                    ))
                } else {
                    Err(deskmate_core::said!(
                        "这里没有人可以回答：请运行 Deskmate 应用或 `deskmate serve`",
                        "nobody can be asked here: run Deskmate's app or `deskmate serve`"
                    ))
                }
            }),
        )
    }

    fn fits(&self, args: &Value) -> Result<(), ToolError> {
        read_args::<Question>(&self.spec.id, args).map(drop)
    }

    async fn run(&self, args: Value, ctx: ToolContext) -> Result<Value, ToolError> {
        let asked = read_args::<Question>(&self.spec.id, &args)?.checked()?;
        let Some(chooser) = &self.chooser else {
            return Err(ToolError::not_found("nobody can be asked here: no window and no server")
                .with_hint("run Deskmate's app or `deskmate serve` (answer with POST /api/v1/prompts/{id}/answer)"));
        };
        let answer = chooser.choose(
            &asked.question,
            &asked.options,
            Duration::from_secs(asked.seconds),
        );
        let answer = tokio::select! {
            answer = answer => answer,
            // The turn was cancelled: dropping the question withdraws it.
            () = ctx.cancel.cancelled() => return Err(withdrawn()),
        };
        match answer {
            Some(index) if index < asked.options.len() => Ok(chosen(
                json!({
                    "choice": asked.options[index],
                    "index": index,
                }),
                &asked.options[index],
            )),
            _ => Err(asked.timed_out(&[])),
        }
    }
}

/// A choice prompt's answer `data` with its line: the option chosen.
pub(crate) fn chosen(data: Value, choice: &str) -> Value {
    let line = deskmate_core::said!("选择了“{choice}”", "Chosen: \"{choice}\"");
    deskmate_tools::said::with_line(data, line)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_answer_says_the_option_chosen() {
        let data = chosen(json!({"choice": "Later", "index": 1}), "Later");
        assert_eq!(
            deskmate_tools::said::line(&data, false),
            Some("Chosen: \"Later\"")
        );
        assert_eq!(
            deskmate_tools::said::line(&data, true),
            Some("选择了“Later”")
        );
    }
}
