//! Confirmations in voice mode: the question is said aloud in the language of the
//! person's last request, and a spoken "yes"/"no" ("好的"/"不要") answers it, read as the
//! spoken choice dialog reads an option (`answer::option_named`). Nothing heard that names
//! either before the time is up is a "no" (timed out), as in the window's dialog.

use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use async_trait::async_trait;
use deskmate_devices::answer::option_named;
use deskmate_devices::microphone::{Listen, Microphone, TranscriberSlot, wav_bytes};
use deskmate_devices::speaker::{Language, Speaker, Speech};
use deskmate_service::hooks::{ConfirmRequest, Confirmation, Confirmer};

/// The language the person last spoke in (voice mode sets it before each turn).
#[derive(Debug, Clone)]
pub struct SpokenLanguage(Arc<Mutex<Language>>);

impl Default for SpokenLanguage {
    fn default() -> Self {
        Self(Arc::new(Mutex::new(Language::En)))
    }
}

impl SpokenLanguage {
    /// The language now.
    pub fn get(&self) -> Language {
        *self
            .0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Sets it.
    pub fn set(&self, language: Language) {
        *self
            .0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = language;
    }
}

/// How long an answer is waited for.
const ANSWER_WAIT: Duration = Duration::from_secs(20);

/// Asks aloud and listens for the answer.
#[derive(Debug, Clone)]
pub struct VoiceConfirmer {
    /// Says the question.
    pub speaker: Arc<dyn Speaker>,
    /// Hears the answer.
    pub microphone: Arc<dyn Microphone>,
    /// Understands it.
    pub transcriber: TranscriberSlot,
    /// The language to ask in.
    pub language: SpokenLanguage,
}

/// The words that answer, in a language: yes first.
fn answers(language: Language) -> [String; 2] {
    match language {
        Language::Zh => ["好的".into(), "不要".into()],
        Language::En => ["yes".into(), "no".into()],
    }
}

/// The question as it is said.
fn question(request: &ConfirmRequest, language: Language) -> String {
    match language {
        Language::Zh => format!(
            "{}：{}。要继续吗？请说好的或者不要。",
            request.tool_name.zh,
            request.reason.zh.trim_end_matches(['。', '.'])
        ),
        Language::En => format!(
            "{}: {}. Shall I go ahead? Say yes or no.",
            request.tool_name.en,
            request.reason.en.trim_end_matches('.')
        ),
    }
}

/// Which answer a transcription gives: `Some(true)` yes, `Some(false)` no (in the
/// language asked, then the other one).
fn answer_in(heard: &str, language: Language) -> Option<bool> {
    let other = match language {
        Language::Zh => Language::En,
        Language::En => Language::Zh,
    };
    [language, other]
        .into_iter()
        .find_map(|l| option_named(heard, &answers(l)))
        .map(|index| index == 0)
}

#[async_trait]
impl Confirmer for VoiceConfirmer {
    async fn confirm(&self, request: ConfirmRequest) -> Confirmation {
        let language = self.language.get();
        let speech = Speech {
            text: question(&request, language),
            language,
            rate: 150,
        };
        let speaker = self.speaker.clone();
        match tokio::task::spawn_blocking(move || speaker.speak(&speech)).await {
            Ok(Ok(_)) => {}
            Ok(Err(e)) => {
                tracing::warn!(error = %e, tool = %request.tool, "the confirmation could not be said; denied");
                return Confirmation::Denied;
            }
            Err(e) => {
                tracing::warn!(error = %e, "the speaker's thread failed; denied");
                return Confirmation::Denied;
            }
        }
        let Some(transcriber) = self.transcriber.get() else {
            tracing::warn!(tool = %request.tool, "no speech recognition to hear the answer; denied");
            return Confirmation::Denied;
        };
        let code = match language {
            Language::Zh => "zh",
            Language::En => "en",
        };
        let deadline = Instant::now() + ANSWER_WAIT;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            if left < Duration::from_millis(300) {
                tracing::info!(tool = %request.tool, "no spoken answer in time");
                return Confirmation::TimedOut;
            }
            let microphone = self.microphone.clone();
            let listen = Listen {
                wait: left,
                ..Listen::default()
            };
            let heard = tokio::task::spawn_blocking(move || {
                microphone.listen(listen, &AtomicBool::new(false))
            })
            .await;
            let wav = match heard {
                Ok(Ok(Some(wav))) => wav,
                Ok(Ok(None)) => continue,
                Ok(Err(e)) => {
                    tracing::warn!(error = %e, "the answer could not be heard; denied");
                    return Confirmation::Denied;
                }
                Err(e) => {
                    tracing::warn!(error = %e, "the microphone's thread failed; denied");
                    return Confirmation::Denied;
                }
            };
            let hints = answers(language).to_vec();
            let text = match transcriber
                .transcribe(wav_bytes(&wav), Some(code), &hints)
                .await
            {
                Ok(text) => text,
                Err(e) => {
                    tracing::warn!(error = %e, "the answer could not be transcribed; denied");
                    return Confirmation::Denied;
                }
            };
            tracing::info!(heard = %text.trim(), tool = %request.tool, "spoken answer to a confirmation");
            match answer_in(&text, language) {
                Some(true) => return Confirmation::Approved,
                Some(false) => return Confirmation::Denied,
                None => {}
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn yes_and_no_are_heard_in_either_language() {
        assert_eq!(answer_in("Yes.", Language::En), Some(true));
        assert_eq!(answer_in("No, don't.", Language::En), Some(false));
        assert_eq!(answer_in("好的。", Language::Zh), Some(true));
        assert_eq!(answer_in("不要", Language::Zh), Some(false));
        assert_eq!(answer_in("好的", Language::En), Some(true));
        assert_eq!(answer_in("what was that?", Language::En), None);
    }
}
