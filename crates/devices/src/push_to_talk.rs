//! Push to talk: while a key or button is held, the microphone records; on release the
//! recording is transcribed with the default ASR model. The level of the sound is
//! broadcast while recording (for a level meter).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tokio::sync::{broadcast, oneshot};

use crate::error::DeviceError;
use crate::microphone::{Microphone, TranscriberSlot, level_dbfs, wav_bytes};
use crate::speaker::Wav;

/// The longest recording: a held key is cut after this.
pub const LONGEST: Duration = Duration::from_secs(60);

/// A recording quieter than this everywhere is silence and is not sent to the ASR
/// (speech recognizers invent words for silence).
const SILENCE_DBFS: f32 = -45.0;

/// How often the level is broadcast at most.
const LEVEL_EVERY: Duration = Duration::from_millis(50);

/// How long `start` waits for the microphone's first sound.
const READY_WITHIN: Duration = Duration::from_secs(5);

/// What was said.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Heard {
    /// The transcript (empty when nothing was said).
    pub text: String,
    /// How long the recording was.
    pub seconds: f32,
}

/// Why push to talk did not work.
#[derive(Debug, thiserror::Error)]
pub enum TalkError {
    /// `start` while recording.
    #[error("already recording: release the push-to-talk key first")]
    Recording,
    /// `stop` while not recording.
    #[error("not recording: hold the push-to-talk key first")]
    NotRecording,
    /// The microphone or the speech recognition failed.
    #[error(transparent)]
    Device(#[from] DeviceError),
}

struct Recording {
    stop: Arc<AtomicBool>,
    done: oneshot::Receiver<Result<Wav, DeviceError>>,
}

/// Records while held, transcribes on release.
pub struct PushToTalk {
    microphone: Arc<dyn Microphone>,
    transcriber: TranscriberSlot,
    recording: Mutex<Option<Recording>>,
    levels: broadcast::Sender<f32>,
}

impl std::fmt::Debug for PushToTalk {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PushToTalk")
            .field("microphone", &self.microphone)
            .field("recording", &self.is_recording())
            .finish_non_exhaustive()
    }
}

impl PushToTalk {
    /// Push to talk on this microphone, transcribed by the slot's transcriber.
    pub fn new(microphone: Arc<dyn Microphone>, transcriber: TranscriberSlot) -> Self {
        Self {
            microphone,
            transcriber,
            recording: Mutex::new(None),
            levels: broadcast::channel(64).0,
        }
    }

    fn slot(&self) -> std::sync::MutexGuard<'_, Option<Recording>> {
        self.recording
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Whether it is recording now.
    pub fn is_recording(&self) -> bool {
        self.slot().is_some()
    }

    /// The level of the sound in dBFS while recording, about every 50 ms.
    pub fn levels(&self) -> broadcast::Receiver<f32> {
        self.levels.subscribe()
    }

    /// Starts recording, and returns once the microphone delivers sound: a press
    /// answered earlier would lose the first words said after it. Fails when already
    /// recording, when there is no speech recognition to hear it with (before anything
    /// is recorded), or when the microphone cannot be opened or stays mute.
    pub async fn start(&self) -> Result<(), TalkError> {
        let ready = {
            let mut slot = self.slot();
            if slot.is_some() {
                return Err(TalkError::Recording);
            }
            if self.transcriber.get().is_none() {
                return Err(DeviceError::NotFound {
                    what: "speech recognition",
                    detail: "no ASR model is configured; add one under Models".into(),
                }
                .into());
            }
            let stop = Arc::new(AtomicBool::new(false));
            let (tx, done) = oneshot::channel();
            let (ready_tx, ready) = oneshot::channel();
            let microphone = self.microphone.clone();
            let levels = self.levels.clone();
            let stopping = stop.clone();
            std::thread::Builder::new()
                .name("push-to-talk".into())
                .spawn(move || {
                    let mut ready_tx = Some(ready_tx);
                    let mut last = Instant::now() - LEVEL_EVERY;
                    let mut on_level = |db: f32| {
                        if let Some(ready) = ready_tx.take() {
                            let _ = ready.send(());
                        }
                        if last.elapsed() >= LEVEL_EVERY {
                            last = Instant::now();
                            let _ = levels.send(db);
                        }
                    };
                    let _ = tx.send(microphone.record(&stopping, LONGEST, &mut on_level));
                })
                .map_err(|e| DeviceError::Failed {
                    what: "microphone",
                    detail: e.to_string().into(),
                })?;
            *slot = Some(Recording { stop, done });
            ready
        };
        if let Ok(Ok(())) = tokio::time::timeout(READY_WITHIN, ready).await {
            return Ok(());
        }
        // The recording ended before any sound came (it failed to open), or the device
        // stayed mute: say why, and leave nothing recording.
        let Some(recording) = self.slot().take() else {
            // Released meanwhile: that `stop` answered for this press.
            return Ok(());
        };
        recording.stop.store(true, Ordering::Relaxed);
        match recording.done.await {
            Ok(Err(e)) => Err(e.into()),
            _ => Err(DeviceError::Busy {
                what: "microphone",
                detail: "the input device delivered no sound".into(),
            }
            .into()),
        }
    }

    /// Stops recording and returns what was said.
    pub async fn stop(&self) -> Result<Heard, TalkError> {
        let recording = self.slot().take().ok_or(TalkError::NotRecording)?;
        recording.stop.store(true, Ordering::Relaxed);
        let wav = recording.done.await.map_err(|_| DeviceError::Failed {
            what: "microphone",
            detail: "the recording stopped unexpectedly".into(),
        })??;
        let seconds = wav.samples.len() as f32 / wav.rate.max(1) as f32;
        let floats: Vec<f32> = wav
            .samples
            .iter()
            .map(|s| f32::from(*s) / 32768.0)
            .collect();
        let loudest = floats
            .chunks((wav.rate as usize / 20).max(1))
            .map(level_dbfs)
            .fold(-100.0_f32, f32::max);
        if seconds < 0.3 || loudest < SILENCE_DBFS {
            return Ok(Heard {
                text: String::new(),
                seconds,
            });
        }
        let transcriber = self.transcriber.get().ok_or(DeviceError::NotFound {
            what: "speech recognition",
            detail: "no ASR model is configured; add one under Models".into(),
        })?;
        let text = transcriber.transcribe(wav_bytes(&wav), None, &[]).await?;
        Ok(Heard {
            text: text.trim().to_string(),
            seconds,
        })
    }

    /// Stops recording and throws it away.
    pub fn cancel(&self) {
        if let Some(recording) = self.slot().take() {
            recording.stop.store(true, Ordering::Relaxed);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::microphone::{SimulatedMicrophone, Transcriber};

    #[derive(Debug)]
    struct Echo;

    #[async_trait::async_trait]
    impl Transcriber for Echo {
        async fn transcribe(
            &self,
            wav: Vec<u8>,
            _language: Option<&str>,
            _hints: &[String],
        ) -> Result<String, DeviceError> {
            Ok(format!(" {} bytes ", wav.len()))
        }
    }

    fn tone(seconds: f32, amplitude: f32) -> Wav {
        let n = (16_000.0 * seconds) as usize;
        Wav {
            rate: 16_000,
            samples: (0..n)
                .map(|i| ((i as f32 * 0.2).sin() * amplitude * 32767.0) as i16)
                .collect(),
        }
    }

    fn talk(utterances: Vec<Wav>, transcriber: bool) -> PushToTalk {
        let slot = TranscriberSlot::default();
        if transcriber {
            slot.set(Arc::new(Echo));
        }
        PushToTalk::new(Arc::new(SimulatedMicrophone::hearing(utterances)), slot)
    }

    #[tokio::test]
    async fn records_until_stopped_and_transcribes() {
        let ptt = talk(vec![tone(1.0, 0.5)], true);
        let mut levels = ptt.levels();
        ptt.start().await.unwrap_or_else(|e| panic!("{e}"));
        assert!(ptt.is_recording());
        assert!(matches!(ptt.start().await, Err(TalkError::Recording)));
        let level = tokio::time::timeout(Duration::from_secs(2), levels.recv())
            .await
            .unwrap_or_else(|e| panic!("{e}"))
            .unwrap_or_else(|e| panic!("{e}"));
        // A sine at half scale: RMS 0.354, about -9 dBFS.
        assert!((-10.0..-8.0).contains(&level), "{level}");
        let heard = ptt.stop().await.unwrap_or_else(|e| panic!("{e}"));
        // 44-byte header + 2 bytes per sample, trimmed.
        assert_eq!(heard.text, "32044 bytes");
        assert!((heard.seconds - 1.0).abs() < 0.01, "{}", heard.seconds);
        assert!(!ptt.is_recording());
        assert!(matches!(ptt.stop().await, Err(TalkError::NotRecording)));
    }

    #[tokio::test]
    async fn silence_and_short_presses_are_not_transcribed() {
        let ptt = talk(vec![tone(1.0, 0.001), tone(0.1, 0.5)], true);
        for _ in 0..2 {
            ptt.start().await.unwrap_or_else(|e| panic!("{e}"));
            let heard = ptt.stop().await.unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(heard.text, "");
        }
    }

    #[tokio::test]
    async fn without_speech_recognition_nothing_is_recorded() {
        let ptt = talk(vec![tone(1.0, 0.5)], false);
        assert!(matches!(
            ptt.start().await,
            Err(TalkError::Device(DeviceError::NotFound { .. }))
        ));
        assert!(!ptt.is_recording());
    }

    /// A microphone that cannot be opened.
    #[derive(Debug)]
    struct Unplugged;

    impl Microphone for Unplugged {
        fn listen(
            &self,
            _: crate::microphone::Listen,
            _: &AtomicBool,
        ) -> Result<Option<Wav>, DeviceError> {
            Ok(None)
        }
        fn record(
            &self,
            _: &AtomicBool,
            _: Duration,
            _: &mut dyn FnMut(f32),
        ) -> Result<Wav, DeviceError> {
            Err(DeviceError::Busy {
                what: "microphone",
                detail: "the device is in use".into(),
            })
        }
        fn stream(&self, _: &AtomicBool, _: &mut dyn FnMut(&[f32])) -> Result<(), DeviceError> {
            Err(DeviceError::Busy {
                what: "microphone",
                detail: "the device is in use".into(),
            })
        }
        fn probe(&self) -> Result<String, DeviceError> {
            Ok("unplugged".into())
        }
    }

    #[tokio::test]
    async fn a_press_on_a_microphone_that_cannot_open_says_why() {
        let slot = TranscriberSlot::default();
        slot.set(Arc::new(Echo));
        let ptt = PushToTalk::new(Arc::new(Unplugged), slot);
        let failed = ptt.start().await;
        assert!(
            matches!(&failed, Err(TalkError::Device(DeviceError::Busy { detail, .. })) if detail.en.contains("in use")),
            "{failed:?}"
        );
        assert!(!ptt.is_recording());
    }

    #[tokio::test]
    async fn cancel_throws_the_recording_away() {
        let ptt = talk(vec![tone(1.0, 0.5)], true);
        ptt.start().await.unwrap_or_else(|e| panic!("{e}"));
        ptt.cancel();
        assert!(!ptt.is_recording());
        assert!(matches!(ptt.stop().await, Err(TalkError::NotRecording)));
    }
}
