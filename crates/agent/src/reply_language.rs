//! A reply in the language the person wants, decided by the model. A small model often
//! answers a Chinese message in English ("谢谢啦" → "You're welcome!", a joke, an apology
//! after a failed call), because the prompt and the tools' texts are English. The turn's
//! language ([`Language::of`]) is read from the message's script, which cannot know that
//! "用英文给我讲个笑话" asks for English; so a script mismatch alone does not decide.
//!
//! When the model's own words are plainly in the other of Chinese and English
//! ([`Language::written`]), two short constrained requests follow, on the same system
//! prompt (its cached prefix):
//! 1. told the language the message is written in (by its script), the model names the
//!    language the answer should be in — the one the message asks for, else that one —
//!    as `{"language":"Chinese"|"English"}`;
//! 2. when that is not the reply's, the model writes its reply again in it (the step's
//!    messages, its reply, and the request to answer in that language), as
//!    `{"answer":"…"}`. The new reply is taken when it is in that language.
//!
//! Nothing is decided from words: the first request is the model's reading of the
//! message, the second its own reply again. Only constrained requests (a grammar) do
//! this; a reply in another language, or a turn whose language is neither, is left alone.

use deskmate_llm::ChatClient;
use deskmate_llm::envelope;
use deskmate_llm::wire::{ChatRequest, Message};
use deskmate_service::language::Language;
use serde_json::Value;

/// The most tokens the rewritten reply may take.
const REWRITE_MAX_TOKENS: u32 = 200;

/// The language's name in the request and in the choice: Chinese or English only.
fn name(language: Language) -> Option<&'static str> {
    (!matches!(language, Language::Other { .. })).then(|| language.named())
}

/// Whether `text`, the model's own words of a turn in `language`, is plainly in the other
/// language: the turn then asks the model which one the person wants ([`mend`]).
pub(crate) fn off(text: &str, language: Language) -> bool {
    name(language).is_some() && Language::written(text).is_some_and(|w| w != language)
}

/// `sent` is the step's request that got `raw` (whose words are `text`); `message` the
/// person's message, written in `language`. Returns the reply in the language the model
/// says the person wants, or `None` to keep `text` (the model says its language is the one
/// wanted, the server has no grammar, a request failed, or the new reply is not in that
/// language either).
pub(crate) async fn mend(
    client: &ChatClient,
    sent: &ChatRequest,
    raw: &str,
    text: &str,
    message: &str,
    language: Language,
) -> Option<String> {
    let written = Language::written(text)?;
    let script = name(language)?;
    sent.grammar.as_ref()?;
    let system = sent.messages.first()?.clone();
    let mut ask = ChatRequest::new(
        sent.model.clone(),
        vec![
            system,
            // Measured on 17 messages: told the script it is written in, the model named
            // the language each asks for, else that one ("how do I say thank you in
            // Chinese?" → Chinese, arguably); asked to find the script too, it took
            // "帮我把桌面上那个 PDF 转成 Word" for English.
            Message::user(format!(
                "This message is written in {script}: {message:?}. Which language should the \
answer be in: the language the message asks for, or else {script}?"
            )),
        ],
    );
    ask.temperature = Some(0.0);
    ask.max_tokens = Some(12);
    ask.grammar = Some(r#"root ::= "{\"language\":\"" ("Chinese" | "English") "\"}""#.into());
    let chosen = client.complete(&ask, &mut |_| {}).await.ok()?;
    let chosen: Value = serde_json::from_str(&chosen.content).ok()?;
    let wanted = match chosen["language"].as_str()? {
        "Chinese" => Language::Chinese,
        "English" => Language::English,
        _ => return None,
    };
    tracing::debug!(
        ?written,
        ?wanted,
        "the reply's language was asked of the model"
    );
    if wanted == written {
        return None;
    }
    let named = name(wanted)?;
    let mut again = sent.clone();
    again
        .messages
        .push(Message::assistant(Some(raw.to_string()), Vec::new()));
    again.messages.push(Message::user(format!(
        "Reply to my message {message:?} in {named}, briefly."
    )));
    again.grammar = envelope::grammar_with(&[], envelope::Answer::Text, envelope::Plan::None);
    again.response_format = None;
    again.stream = false;
    again.max_tokens = Some(
        again
            .max_tokens
            .map_or(REWRITE_MAX_TOKENS, |m| m.min(REWRITE_MAX_TOKENS)),
    );
    let reply = client.complete(&again, &mut |_| {}).await.ok()?;
    let answer: Value = serde_json::from_str(&reply.content).ok()?;
    let answer = answer["answer"].as_str()?.trim().to_string();
    (Language::written(&answer) == Some(wanted)).then_some(answer)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_reply_plainly_in_the_other_language_is_off() {
        assert!(off("You're welcome! How can I help?", Language::Chinese));
        assert!(off("不客气！", Language::English));
        assert!(!off("不客气！", Language::Chinese));
        assert!(!off("99*99 = 9801。", Language::Chinese));
        assert!(!off("9801", Language::English));
        assert!(!off("You're welcome!", Language::Other { zh_lines: true }));
    }
}
