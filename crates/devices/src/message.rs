//! `text_msg_prompt`: a desktop notification plus an in-app message event.

use std::sync::Arc;

use deskmate_core::{Category, JsonSchema, Localized, SideEffect, ToolError, ToolSpec, schema_for};
use deskmate_tools::{Example, FnTool, Teaches};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use tokio::sync::broadcast;

use crate::notify::{Notice, Notifier, Urgency};
use crate::volume::device_error;

/// A message for the app's own window (the GUI shows it; the API can stream it).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct InAppMessage {
    /// Title.
    pub title: String,
    /// Text.
    pub body: String,
    /// How urgent.
    pub urgency: Urgency,
}

/// What to show.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct Show {
    #[schemars(
        length(min = 1, max = 1000),
        description = "The text to show.",
        extend("x-description-zh" = "要显示的文字。")
    )]
    message: String,
    #[serde(default = "default_title")]
    #[schemars(
        length(min = 1, max = 100),
        description = "A short title (default 'Deskmate').",
        extend("x-description-zh" = "简短的标题（默认 'Deskmate'）。")
    )]
    title: String,
    #[serde(default)]
    #[schemars(
        description = "low, normal or critical (stays until dismissed).",
        extend("x-description-zh" = "low、normal 或 critical（critical 会一直显示，直到被关闭）。")
    )]
    urgency: Urgency,
}

fn default_title() -> String {
    "Deskmate".into()
}

/// How a person asks for a message on the screen, in everyday words (beside a request
/// near them).
const EXAMPLES: &[Example] = &[
    Example {
        teaches: Teaches::Wording,
        request: "display 'back in 5' for me",
        parts: &[],
        calls: &[("text_msg_prompt", r#"{"message":"back in 5"}"#)],
    },
    Example {
        teaches: Teaches::Wording,
        request: "notify me on screen that the kettle boiled",
        parts: &[],
        calls: &[("text_msg_prompt", r#"{"message":"The kettle boiled"}"#)],
    },
    Example {
        teaches: Teaches::Wording,
        request: "在屏幕上显示：文件已保存",
        parts: &[],
        calls: &[("text_msg_prompt", r#"{"message":"文件已保存"}"#)],
    },
    Example {
        teaches: Teaches::Wording,
        request: "弹一条消息：该休息了",
        parts: &[],
        calls: &[("text_msg_prompt", r#"{"message":"该休息了"}"#)],
    },
];

/// The tool on a notifier and the app's message channel.
pub fn text_msg_prompt(
    notifier: Arc<dyn Notifier>,
    in_app: broadcast::Sender<InAppMessage>,
) -> FnTool {
    let checked = notifier.clone();
    FnTool::blocking(spec(), move |args| show(notifier.as_ref(), &in_app, args))
        .with_examples(EXAMPLES)
        .with_self_check(move || {
            let notifier = checked.clone();
            crate::readiness::self_check("Notifications", move || {
                crate::readiness::notifications(notifier.as_ref())
            })
        })
}

fn spec() -> ToolSpec {
    ToolSpec {
        id: "text_msg_prompt".into(),
        name: Localized::new("文本消息提示", "Text message prompt"),
        summary: Some(Localized::new(
            "以桌面通知的形式显示一条简短的文字消息，同时显示在 Deskmate 窗口中。",
            "Shows a short text message as a desktop notification and in Deskmate's window.",
        )),
        description: "Shows a short text message to the user as a desktop notification and in \
            Deskmate's window. Use it when the user asks to be shown or reminded of something in \
            writing. Returns the notification id and where it was shown."
            .into(),
        category: Category::System,
        parameters: schema_for::<Show>(),
        side_effect: SideEffect::Write,
        idempotent: false,
        timeout_ms: 5_000,
        compensation: None,
    }
}

fn show(
    notifier: &dyn Notifier,
    in_app: &broadcast::Sender<InAppMessage>,
    Show {
        message,
        title,
        urgency,
    }: Show,
) -> Result<Value, ToolError> {
    let notice = Notice {
        title,
        body: message,
        urgency,
    };
    let in_window = in_app
        .send(InAppMessage {
            title: notice.title.clone(),
            body: notice.body.clone(),
            urgency,
        })
        .is_ok();
    // The line is what the person asked to be shown, not the title the model filled in.
    let shown_text = deskmate_tools::said::clip(&notice.body, 80);
    let line = deskmate_core::said!(
        "已显示消息“{shown_text}”",
        "Message shown: \"{shown_text}\""
    );
    let data = match notifier.notify(&notice) {
        Ok(shown) => json!({
            "id": shown.id,
            "server": shown.server,
            "title": notice.title,
            "urgency": urgency,
            "desktop": true,
            "in_app": in_window,
        }),
        // The app's window showed it: that is enough, and the result says so.
        Err(error) if in_window => json!({
            "title": notice.title,
            "urgency": urgency,
            "desktop": false,
            "in_app": true,
            "note": error.to_string(),
        }),
        Err(error) => return Err(device_error(error)),
    };
    Ok(deskmate_tools::said::with_line(data, line))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notify::SimulatedNotifier;

    #[test]
    fn a_message_says_its_title() {
        let (in_app, _window) = broadcast::channel(4);
        let args = || Show {
            message: "stand up".into(),
            title: "Break".into(),
            urgency: Urgency::Normal,
        };
        let shown =
            show(&SimulatedNotifier::default(), &in_app, args()).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            deskmate_tools::said::line(&shown, false),
            Some("Message shown: \"stand up\"")
        );
        assert_eq!(
            deskmate_tools::said::line(&shown, true),
            Some("已显示消息“stand up”")
        );
    }
}
