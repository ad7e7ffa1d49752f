//! `text_choice_prompt`: ask the person to pick one of 2–10 options and wait for the
//! answer — a dialog in the GUI, or `POST /api/v1/prompts/{id}/answer` when headless.

use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use deskmate_core::{Category, ErrorType, Localized, SideEffect, ToolError, ToolSpec};
use deskmate_tools::{Tool, ToolContext};
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

/// The parameters of a choice question, with `more` of a tool's own.
pub(crate) fn parameters(more: Value) -> Value {
    let mut schema = json!({
        "type": "object",
        "additionalProperties": false,
        "required": ["question", "options"],
        "properties": {
            "question": {"type": "string", "minLength": 1, "maxLength": 500,
                         "description": "The question, e.g. 'Continue the export?'",
                         "x-description-zh": "要问的问题，例如 'Continue the export?'"},
            "options": {"type": "array", "minItems": 2, "maxItems": 10, "uniqueItems": true,
                        "items": {"type": "string", "minLength": 1, "maxLength": 100},
                        "description": "2-10 distinct answers, e.g. [\"Yes\", \"No\"].",
                        "x-description-zh": "2 到 10 个互不相同的答案，例如 [\"Yes\", \"No\"]。"},
            "timeout_s": {"type": "integer", "minimum": 5, "maximum": 600, "default": 60,
                          "description": "Seconds to wait for the answer (default 60).",
                          "x-description-zh": "等待回答的秒数（默认 60）。"}
        }
    });
    if let (Some(all), Value::Object(more)) = (schema["properties"].as_object_mut(), more) {
        all.extend(more);
    }
    schema
}

/// A choice question as the guard let it through.
#[derive(Debug)]
pub(crate) struct Question {
    pub question: String,
    pub options: Vec<String>,
    pub seconds: u64,
}

impl Question {
    /// Reads the arguments; options must differ beyond case.
    pub(crate) fn read(args: &Value) -> Result<Self, ToolError> {
        let question = args
            .get("question")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string();
        let options: Vec<String> = args
            .get("options")
            .and_then(Value::as_array)
            .map(|o| {
                o.iter()
                    .filter_map(|v| v.as_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default();
        let seconds = args.get("timeout_s").and_then(Value::as_u64).unwrap_or(60);
        // A person cannot tell "Yes" from "yes": options must differ beyond case.
        let mut seen: Vec<String> = Vec::new();
        for option in &options {
            let folded = option.trim().to_lowercase();
            if seen.contains(&folded) {
                return Err(ToolError::validation(format!(
                    "options must be distinct: '{option}' appears twice (ignoring case)"
                ))
                .with_hint("give 2-10 different answers"));
            }
            seen.push(folded);
        }
        Ok(Self {
            question,
            options,
            seconds,
        })
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
        parameters: parameters(json!({})),
        side_effect: SideEffect::Read,
        idempotent: false,
        timeout_ms: 605_000,
        compensation: None,
    }
}

#[async_trait]
impl Tool for TextChoicePrompt {
    fn spec(&self) -> &ToolSpec {
        &self.spec
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

    async fn run(&self, args: Value, ctx: ToolContext) -> Result<Value, ToolError> {
        let asked = Question::read(&args)?;
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
            Some(index) if index < asked.options.len() => Ok(json!({
                "choice": asked.options[index],
                "index": index,
            })),
            _ => Err(asked.timed_out(&[])),
        }
    }
}
