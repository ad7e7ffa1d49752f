//! Voice mode: a hands-free conversation. The microphone stays open; an energy detector
//! (`microphone::Utterances`, with its pause as the hangover) cuts the sound into
//! utterances, so nothing heavier than a level runs on silence. An utterance is
//! transcribed by the default ASR model; one that starts with a wake phrase
//! (`wake::WakePhrases`) starts a turn, and what follows the phrase is the request (the
//! phrase alone: the next utterance is). The request runs as an ordinary chat turn of the
//! open conversation, and the reply is spoken in its language. Speech while the reply
//! plays stops it at once (barge-in) and is heard as the next request. After a reply, a
//! follow-up needs no wake phrase for a while (`voice.follow_up_seconds`); then the
//! phrase is needed again.
//!
//! What happens is told as [`VoiceEvent`]s: the CLI's `deskmate listen` prints them, a
//! window shows them.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use deskmate_agent::{Agent, AgentEvent, ChatTurn};
use deskmate_devices::microphone::{Heard, Listen, Microphone, Utterances, level_dbfs, wav_bytes};
use deskmate_devices::speaker::{Language, Speaker, Speech, Wav};
use deskmate_devices::wake::WakePhrases;
use deskmate_service::Deskmate;
use deskmate_service::settings::{
    FOLLOW_UP_SETTING, VOICE_LANGUAGE_SETTING, VOICE_RATE_SETTING, WAKE_SETTING,
};
use serde::Serialize;
use tokio::sync::mpsc::{UnboundedReceiver, UnboundedSender, unbounded_channel};
use tokio_util::sync::CancellationToken;

/// What voice mode is doing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum VoiceState {
    /// Waiting for the wake phrase.
    Waiting,
    /// Listening for a request (after the phrase, a reply or a barge-in).
    Listening,
    /// The turn runs.
    Thinking,
    /// The reply is spoken.
    Speaking,
}

/// What voice mode tells the window (or the terminal).
#[derive(Debug, Clone, Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum VoiceEvent {
    /// The state changed.
    State {
        /// The new state.
        state: VoiceState,
    },
    /// The input's level, a few times a second (dBFS).
    Level {
        /// RMS level in dBFS.
        dbfs: f32,
    },
    /// An utterance was transcribed.
    Heard {
        /// Its words.
        text: String,
        /// Whether it started with a wake phrase.
        woke: bool,
    },
    /// A request runs as a chat turn.
    Request {
        /// Its words.
        text: String,
    },
    /// An event of the chat turn (tool calls, results, confirmations…).
    Turn {
        /// The agent's event.
        turn: Box<AgentEvent>,
    },
    /// The reply is spoken.
    Reply {
        /// Its words.
        text: String,
        /// The voice's language.
        language: Language,
    },
    /// The person spoke over the reply; it stopped.
    Interrupted,
    /// Something failed; voice mode goes on waiting (unless the microphone failed).
    Error {
        /// What failed, for the person.
        message: String,
    },
}

/// Voice mode's settings, read when it starts.
#[derive(Debug, Clone)]
pub struct VoiceSettings {
    /// The wake phrases.
    pub wake: WakePhrases,
    /// How long a follow-up needs no wake phrase.
    pub follow_up: Duration,
    /// Words a minute for the replies.
    pub rate: u32,
    /// The language heard, when it is set (not detected).
    pub language: Option<Language>,
}

impl VoiceSettings {
    /// The settings in force in `deskmate` (their defaults when unset or out of range).
    pub fn read(deskmate: &Deskmate) -> Result<Self, deskmate_service::ServiceError> {
        let all = deskmate.settings()?;
        let value = |key: &str| {
            all.iter()
                .find(|s| s.key == key)
                .map(|s| s.value.clone())
                .unwrap_or_default()
        };
        let wake = WakePhrases::parse(value(WAKE_SETTING).as_str().unwrap_or_default());
        let follow_up = value(FOLLOW_UP_SETTING)
            .as_f64()
            .unwrap_or(8.0)
            .clamp(0.0, 120.0);
        let rate = value(VOICE_RATE_SETTING)
            .as_f64()
            .unwrap_or(160.0)
            .clamp(80.0, 300.0);
        let language = match value(VOICE_LANGUAGE_SETTING).as_str() {
            Some("zh") => Some(Language::Zh),
            Some("en") => Some(Language::En),
            _ => None,
        };
        Ok(Self {
            wake,
            follow_up: Duration::from_secs_f64(follow_up),
            rate: rate as u32,
            language,
        })
    }
}

/// The devices and the assistant voice mode uses.
#[derive(Debug, Clone)]
pub struct VoiceMode {
    /// Runs the turns.
    pub agent: Arc<Agent>,
    /// Transcribes (its default ASR model).
    pub deskmate: Arc<Deskmate>,
    /// Hears the person.
    pub microphone: Arc<dyn Microphone>,
    /// Says the replies.
    pub speaker: Arc<dyn Speaker>,
    /// The language of the last request (confirmations are asked in it).
    pub language: crate::voice_confirm::SpokenLanguage,
}

/// What the microphone's thread hands over.
enum Sound {
    /// The microphone delivers sound: listening has begun.
    Opened,
    Level(f32),
    /// Speech started (barge-in, while a reply plays).
    Onset,
    Utterance(Wav),
    Failed(deskmate_devices::DeviceError),
}

/// The longest request, and the pause that ends one.
const UTTERANCE: Listen = Listen {
    wait: Duration::from_secs(24 * 3600),
    longest: Duration::from_secs(15),
    pause: Duration::from_millis(800),
};

/// How often the level is told.
const LEVEL_EVERY: Duration = Duration::from_millis(150);

/// Listens on the microphone until `stop` is set, handing over levels, onsets and
/// utterances.
fn hear(microphone: &dyn Microphone, stop: &AtomicBool, sounds: &UnboundedSender<Sound>) {
    let mut utterances = Utterances::new(UTTERANCE);
    let mut last_level = Instant::now();
    let mut loudest = -100.0f32;
    let mut was_speaking = false;
    let mut opened = false;
    tracing::debug!("voice mode opens the microphone");
    let result = microphone.stream(stop, &mut |samples| {
        if !opened {
            opened = true;
            let _ = sounds.send(Sound::Opened);
        }
        loudest = loudest.max(level_dbfs(samples));
        if last_level.elapsed() >= LEVEL_EVERY {
            tracing::trace!(dbfs = loudest, "input level");
            let _ = sounds.send(Sound::Level(loudest));
            loudest = -100.0;
            last_level = Instant::now();
        }
        let heard = utterances.feed(samples);
        if utterances.speaking() && !was_speaking {
            let _ = sounds.send(Sound::Onset);
        }
        was_speaking = utterances.speaking();
        if let Heard::Speech(wav) = heard {
            tracing::debug!(ms = wav.duration_ms(), "voice mode heard an utterance");
            let _ = sounds.send(Sound::Utterance(wav));
            utterances.again();
            was_speaking = false;
        }
    });
    if let Err(e) = result {
        let _ = sounds.send(Sound::Failed(e));
    }
}

fn code(language: Language) -> &'static str {
    match language {
        Language::Zh => "zh",
        Language::En => "en",
    }
}

/// Whether a transcription reads as Chinese or English: detection can take espeak-ng's or
/// a person's Mandarin for another language and write it in Latin letters with accents.
fn zh_or_en(text: &str) -> bool {
    language_of(text) == Language::Zh || text.chars().all(|c| c.is_ascii() || !c.is_alphabetic())
}

/// Whether a text is Chinese (has Han characters).
fn language_of(text: &str) -> Language {
    if text.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)) {
        Language::Zh
    } else {
        Language::En
    }
}

/// The reply as it is said: marks of emphasis and code are not read out.
fn sayable(reply: &str) -> String {
    reply
        .chars()
        .filter(|c| !matches!(c, '*' | '`' | '#' | '_' | '|' | '>'))
        .collect::<String>()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// What a turn's task reports when it is over.
struct TurnDone {
    conversation_id: Option<String>,
    /// Whether its reply was spoken to the end (not interrupted, not failed).
    spoken: bool,
}

impl VoiceMode {
    /// Runs voice mode until `cancel`: the microphone is released when it returns. An
    /// error: the microphone cannot be opened or stopped delivering sound.
    pub async fn run(
        &self,
        settings: VoiceSettings,
        events: UnboundedSender<VoiceEvent>,
        cancel: CancellationToken,
    ) -> Result<(), deskmate_devices::DeviceError> {
        let stop = Arc::new(AtomicBool::new(false));
        let (sounds, mut heard) = unbounded_channel();
        let microphone = self.microphone.clone();
        let listening = {
            let stop = stop.clone();
            std::thread::Builder::new()
                .name("voice-mode-microphone".into())
                .spawn(move || hear(microphone.as_ref(), &stop, &sounds))
                .map_err(|e| deskmate_devices::DeviceError::Failed {
                    what: "microphone",
                    detail: e.to_string().into(),
                })?
        };
        let result = self.converse(&settings, &events, &cancel, &mut heard).await;
        stop.store(true, Ordering::Relaxed);
        let _ = tokio::task::spawn_blocking(move || listening.join()).await;
        result
    }

    async fn converse(
        &self,
        settings: &VoiceSettings,
        events: &UnboundedSender<VoiceEvent>,
        cancel: &CancellationToken,
        heard: &mut UnboundedReceiver<Sound>,
    ) -> Result<(), deskmate_devices::DeviceError> {
        let tell = |event: VoiceEvent| {
            let _ = events.send(event);
        };
        let mut state = VoiceState::Waiting;
        let set = |state: &mut VoiceState, new: VoiceState| {
            if *state != new {
                *state = new;
                tell(VoiceEvent::State { state: new });
            }
        };
        let mut conversation_id: Option<String> = None;
        // While listening without the phrase: until when.
        let mut listen_until: Option<Instant> = None;
        // The running turn: its barge-in flag, whether it is speaking, and its end.
        let mut turn: Option<(
            Arc<AtomicBool>,
            Arc<AtomicBool>,
            tokio::task::JoinHandle<TurnDone>,
        )> = None;
        // The Latin wake phrases as hints (a made-up name is otherwise written "Merckmate",
        // "Next mate"); not the Chinese ones: given those, whisper writes them where they
        // were not said (a Chinese request heard as the phrase twice).
        let hints: Vec<String> = settings
            .wake
            .phrases()
            .iter()
            .filter(|p| language_of(p) == Language::En)
            .map(|p| p.to_string())
            .collect();
        loop {
            let deadline = listen_until.map(tokio::time::Instant::from_std);
            let timeout = async {
                match deadline {
                    Some(at) => tokio::time::sleep_until(at).await,
                    None => std::future::pending().await,
                }
            };
            let done = async {
                match &mut turn {
                    Some((_, _, task)) => task.await.ok(),
                    None => std::future::pending().await,
                }
            };
            tokio::select! {
                () = cancel.cancelled() => {
                    if let Some((barge, _, task)) = turn.take() {
                        barge.store(true, Ordering::Relaxed);
                        task.abort();
                    }
                    return Ok(());
                }
                () = timeout => {
                    listen_until = None;
                    if turn.is_none() {
                        set(&mut state, VoiceState::Waiting);
                    }
                }
                ended = done => {
                    turn = None;
                    let ended = ended.unwrap_or(TurnDone { conversation_id: None, spoken: false });
                    if ended.conversation_id.is_some() {
                        conversation_id = ended.conversation_id;
                    }
                    // After a barge-in the state is already listening, with its window.
                    if state != VoiceState::Listening {
                        if ended.spoken && !settings.follow_up.is_zero() {
                            listen_until = Some(Instant::now() + settings.follow_up);
                            set(&mut state, VoiceState::Listening);
                        } else {
                            set(&mut state, VoiceState::Waiting);
                        }
                    }
                }
                sound = heard.recv() => {
                    let Some(sound) = sound else { return Ok(()) };
                    match sound {
                        Sound::Opened => tell(VoiceEvent::State { state }),
                        Sound::Level(dbfs) => tell(VoiceEvent::Level { dbfs }),
                        Sound::Failed(e) => {
                            tell(VoiceEvent::Error { message: e.to_string() });
                            return Err(e);
                        }
                        Sound::Onset => {
                            if let Some((barge, speaking, _)) = &turn
                                && speaking.load(Ordering::Relaxed)
                                && !barge.swap(true, Ordering::Relaxed)
                            {
                                tracing::info!("the person spoke over the reply: it stops");
                                tell(VoiceEvent::Interrupted);
                                listen_until = Some(Instant::now() + settings.follow_up.max(Duration::from_secs(5)));
                                set(&mut state, VoiceState::Listening);
                            }
                        }
                        Sound::Utterance(wav) => {
                            // A turn still running (thinking, or a reply playing that was not
                            // spoken over) does not take requests.
                            if turn.as_ref().is_some_and(|(barge, _, _)| !barge.load(Ordering::Relaxed)) {
                                continue;
                            }
                            let text = match self.hear_words(&wav, settings.language, &hints).await {
                                Ok(text) => text,
                                Err(e) => {
                                    tracing::warn!(error = %e, "voice mode could not transcribe an utterance");
                                    tell(VoiceEvent::Error { message: format!("speech recognition failed: {e}") });
                                    continue;
                                }
                            };
                            let woken = settings.wake.find(&text);
                            tell(VoiceEvent::Heard { text: text.clone(), woke: woken.is_some() });
                            let request = match (state, woken) {
                                (_, Some(woken)) if woken.request.is_empty() => {
                                    // The phrase alone: the next utterance is the request.
                                    listen_until = Some(Instant::now() + settings.follow_up.max(Duration::from_secs(8)));
                                    set(&mut state, VoiceState::Listening);
                                    continue;
                                }
                                (_, Some(woken)) => woken.request,
                                (VoiceState::Listening, None) if !text.is_empty() => text,
                                _ => continue,
                            };
                            listen_until = None;
                            if let Some((_, _, old)) = turn.take() {
                                // The interrupted reply's turn is over: it only had speech left.
                                let _ = old.await;
                            }
                            tell(VoiceEvent::Request { text: request.clone() });
                            set(&mut state, VoiceState::Thinking);
                            turn = Some(self.start_turn(request, conversation_id.clone(), settings.rate, events.clone()));
                        }
                    }
                }
            }
        }
    }

    /// The words of an utterance: in the set language; else detected, and heard again in
    /// the last request's language when detection gave neither Chinese nor English.
    async fn hear_words(
        &self,
        wav: &Wav,
        language: Option<Language>,
        hints: &[String],
    ) -> Result<String, deskmate_service::ServiceError> {
        let bytes = wav_bytes(wav);
        let text = self
            .deskmate
            .transcribe(bytes.clone(), language.map(code), hints)
            .await?;
        if language.is_some() || zh_or_en(&text) {
            return Ok(text.trim().to_string());
        }
        let last = self.language.get();
        tracing::debug!(heard = %text, again = code(last), "heard as neither Chinese nor English");
        Ok(self
            .deskmate
            .transcribe(bytes, Some(code(last)), hints)
            .await?
            .trim()
            .to_string())
    }

    /// Runs one request as a chat turn, then speaks its reply; the returned flags are the
    /// barge-in (set to stop the speech) and whether it is speaking now.
    fn start_turn(
        &self,
        request: String,
        conversation_id: Option<String>,
        rate: u32,
        events: UnboundedSender<VoiceEvent>,
    ) -> (
        Arc<AtomicBool>,
        Arc<AtomicBool>,
        tokio::task::JoinHandle<TurnDone>,
    ) {
        let barge = Arc::new(AtomicBool::new(false));
        let speaking = Arc::new(AtomicBool::new(false));
        let agent = self.agent.clone();
        let speaker = self.speaker.clone();
        self.language.set(language_of(&request));
        let task = {
            let (barge, speaking) = (barge.clone(), speaking.clone());
            tokio::spawn(async move {
                let language = language_of(&request);
                let turn = ChatTurn {
                    message: request,
                    model_id: None,
                    conversation_id,
                    tools: None,
                    locale: Some(match language {
                        Language::Zh => "zh-CN".into(),
                        Language::En => "en".into(),
                    }),
                    branch: None,
                };
                let (tx, mut rx) = unbounded_channel::<AgentEvent>();
                let forward = {
                    let events = events.clone();
                    tokio::spawn(async move {
                        let mut done = None;
                        while let Some(event) = rx.recv().await {
                            if let AgentEvent::Done {
                                conversation_id,
                                reply,
                                ..
                            } = &event
                            {
                                done = Some((conversation_id.clone(), reply.clone()));
                            }
                            let _ = events.send(VoiceEvent::Turn {
                                turn: Box::new(event),
                            });
                        }
                        done
                    })
                };
                let outcome = agent.chat(turn, &tx, &CancellationToken::new()).await;
                drop(tx);
                let done = forward.await.ok().flatten();
                if let Err(e) = outcome {
                    tracing::warn!(error = %e, "a voice turn failed");
                    let _ = events.send(VoiceEvent::Error {
                        message: e.to_string(),
                    });
                }
                let Some((conversation_id, reply)) = done else {
                    return TurnDone {
                        conversation_id: None,
                        spoken: false,
                    };
                };
                let text = sayable(&reply);
                if text.is_empty() || barge.load(Ordering::Relaxed) {
                    return TurnDone {
                        conversation_id: Some(conversation_id),
                        spoken: false,
                    };
                }
                let language = language_of(&text);
                let _ = events.send(VoiceEvent::State {
                    state: VoiceState::Speaking,
                });
                let _ = events.send(VoiceEvent::Reply {
                    text: text.clone(),
                    language,
                });
                speaking.store(true, Ordering::Relaxed);
                let speech = Speech {
                    text,
                    language,
                    rate,
                };
                let flag = barge.clone();
                let said =
                    tokio::task::spawn_blocking(move || speaker.speak_until(&speech, &flag)).await;
                speaking.store(false, Ordering::Relaxed);
                let spoken = match said {
                    Ok(Ok(_)) => !barge.load(Ordering::Relaxed),
                    Ok(Err(e)) => {
                        tracing::warn!(error = %e, "voice mode could not speak the reply");
                        let _ = events.send(VoiceEvent::Error {
                            message: format!("the reply could not be spoken: {e}"),
                        });
                        false
                    }
                    Err(e) => {
                        let _ = events.send(VoiceEvent::Error {
                            message: format!("the speaker's thread failed: {e}"),
                        });
                        false
                    }
                };
                TurnDone {
                    conversation_id: Some(conversation_id),
                    spoken,
                }
            })
        };
        (barge, speaking, task)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replies_are_said_without_marks_in_their_language() {
        assert!(zh_or_en("What time is it?") && zh_or_en("现在几点？"));
        assert!(!zh_or_en("Féarche, ni vous fée"));
        assert_eq!(sayable("It is **12:05** `now`"), "It is 12:05 now");
        assert_eq!(language_of("现在是 12:05"), Language::Zh);
        assert_eq!(language_of("It is 12:05"), Language::En);
    }
}
