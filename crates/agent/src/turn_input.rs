//! A turn checked before it starts: the message, the locale, the model, the conversation.

use deskmate_service::ServiceError;
use deskmate_service::error::FieldError;

use crate::agent::Agent;
use crate::types::{Branch, ChatTurn};

/// Longest message accepted.
const MAX_MESSAGE_CHARS: usize = 16_000;
/// Longest locale accepted (a BCP 47 tag, or a POSIX one such as `zh_CN.UTF-8`).
const MAX_LOCALE_CHARS: usize = 35;

impl Agent {
    /// Checks a turn before it starts: the message, the model, the conversation. Front
    /// ends that stream call it first so a bad turn gets a plain error, not a stream.
    pub fn check_turn(&self, turn: &ChatTurn) -> Result<(), ServiceError> {
        let length = turn.message.trim().chars().count();
        // A regeneration answers the stored message again; its own text is not used.
        let regenerates = matches!(turn.branch, Some(Branch::Regenerate(_)));
        if !regenerates && (length == 0 || length > MAX_MESSAGE_CHARS) {
            return Err(ServiceError::Invalid(vec![FieldError {
                path: "/message".into(),
                message: format!("message must have 1 to {MAX_MESSAGE_CHARS} characters"),
                hint: "type what you want Deskmate to do".into(),
            }]));
        }
        if let Some(locale) = &turn.locale
            && (locale.is_empty()
                || locale.len() > MAX_LOCALE_CHARS
                || !locale
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | '@')))
        {
            return Err(ServiceError::Invalid(vec![FieldError {
                path: "/locale".into(),
                message: format!(
                    "locale must be a language tag of 1 to {MAX_LOCALE_CHARS} letters, digits and '-'"
                ),
                hint: "send the window's language, e.g. \"zh-CN\" or \"en\", or leave it out"
                    .into(),
            }]));
        }
        self.deskmate
            .model_record::<deskmate_service::models::LlmModel>(turn.model_id.as_deref())?;
        if let Some(id) = &turn.conversation_id
            && self.store()?.conversation(id)?.is_none()
        {
            return Err(ServiceError::NotFound {
                what: "Conversation",
                id: id.clone(),
            });
        }
        Ok(())
    }
}
