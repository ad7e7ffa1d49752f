//! Speech: espeak-ng synthesizes a WAV, cpal plays it on the default output (on Linux
//! through ALSA's default device, which is PulseAudio's when it runs); and a simulated
//! speaker for evaluations.

use std::process::Command;
use std::sync::Mutex;
use std::sync::atomic::AtomicBool;

use deskmate_core::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::error::DeviceError;

/// Which voice: Mandarin Chinese or English. (The variants carry no doc comments: in
/// the `voice_msg_prompt` schema derived from this type they would turn the plain enum
/// of names into a list of described constants.)
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Language {
    Zh,
    En,
}

impl Language {
    /// The espeak-ng voice (for Chinese, the one its characters are said with; Latin
    /// words in it are said in English, see [`crate::mandarin`]).
    pub fn voice(self) -> &'static str {
        match self {
            Self::En => "en-us",
            Self::Zh => crate::mandarin::Voice::Pinyin.name(),
        }
    }
}

/// What to say.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Speech {
    /// The text.
    pub text: String,
    /// The voice's language.
    pub language: Language,
    /// Words per minute (80–300).
    pub rate: u32,
}

/// What was played.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Spoken {
    /// How long the speech lasts.
    pub duration_ms: u64,
    /// The output device.
    pub device: String,
    /// The voice used.
    pub voice: String,
}

/// Speaks text on the default output and returns when it has been played.
pub trait Speaker: Send + Sync + std::fmt::Debug {
    /// Says it.
    fn speak(&self, speech: &Speech) -> Result<Spoken, DeviceError>;
    /// Says it, falling silent at once when `stop` is set (the person talks over it:
    /// barge-in). A speaker that cannot stop midway says it all.
    fn speak_until(&self, speech: &Speech, stop: &AtomicBool) -> Result<Spoken, DeviceError> {
        let _ = stop;
        self.speak(speech)
    }
    /// Whether it can speak here: the voice engine and the output device.
    fn probe(&self) -> Result<String, DeviceError>;
}

/// 16-bit mono PCM.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Wav {
    /// Samples per second.
    pub rate: u32,
    /// The samples.
    pub samples: Vec<i16>,
}

impl Wav {
    /// How long it lasts.
    pub fn duration_ms(&self) -> u64 {
        (self.samples.len() as u64 * 1000) / u64::from(self.rate.max(1))
    }
}

/// Reads a PCM WAV (16-bit; the first channel when there are several).
pub fn parse_wav(bytes: &[u8]) -> Option<Wav> {
    if bytes.len() < 12 || &bytes[..4] != b"RIFF" || &bytes[8..12] != b"WAVE" {
        return None;
    }
    let mut at = 12;
    let (mut rate, mut channels, mut bits) = (0u32, 0u16, 0u16);
    while at + 8 <= bytes.len() {
        let id = &bytes[at..at + 4];
        let size = u32::from_le_bytes(bytes[at + 4..at + 8].try_into().ok()?) as usize;
        let body = at + 8;
        // espeak-ng writes 0x7fffffff as the data size when it streams to stdout.
        let end = body.saturating_add(size).min(bytes.len());
        if id == b"fmt " && end >= body + 16 {
            channels = u16::from_le_bytes(bytes[body + 2..body + 4].try_into().ok()?);
            rate = u32::from_le_bytes(bytes[body + 4..body + 8].try_into().ok()?);
            bits = u16::from_le_bytes(bytes[body + 14..body + 16].try_into().ok()?);
        } else if id == b"data" {
            if bits != 16 || channels == 0 || rate == 0 {
                return None;
            }
            let step = 2 * usize::from(channels);
            let samples = bytes[body..end]
                .chunks_exact(step)
                .map(|frame| i16::from_le_bytes([frame[0], frame[1]]))
                .collect();
            return Some(Wav { rate, samples });
        }
        at = body + size + (size & 1);
    }
    None
}

/// Synthesizes speech with espeak-ng: English as written; Chinese as Mandarin, its
/// characters and numbers in pinyin for espeak-ng's pinyin voice and its Latin words in
/// English, one run after another (see [`crate::mandarin`]), at three quarters of the
/// rate asked (espeak-ng's Mandarin at an English pace runs its syllables together).
pub fn synthesize(speech: &Speech) -> Result<Wav, DeviceError> {
    let rate = speech.rate.clamp(80, 300);
    if speech.language == Language::En {
        return espeak(Language::En.voice(), rate, &speech.text);
    }
    let rate = (rate * 3 / 4).max(80);
    let mut whole: Option<Wav> = None;
    for run in crate::mandarin::runs(&speech.text) {
        let wav = espeak(run.voice.name(), rate, &run.text)?;
        match &mut whole {
            None => whole = Some(wav),
            Some(all) if all.rate == wav.rate => all.samples.extend(wav.samples),
            Some(all) => {
                return Err(DeviceError::Failed {
                    what: "text-to-speech",
                    detail: format!(
                        "espeak-ng's voices wrote {} Hz and {} Hz; they cannot be joined",
                        all.rate, wav.rate
                    )
                    .into(),
                });
            }
        }
    }
    // Nothing sayable (only signs): a moment of silence, as espeak-ng makes for nothing.
    whole.map_or_else(|| espeak(Language::Zh.voice(), rate, ""), Ok)
}

/// One espeak-ng voice saying `text` at `rate` words a minute.
fn espeak(voice: &str, rate: u32, text: &str) -> Result<Wav, DeviceError> {
    let output = Command::new("espeak-ng")
        .args(["-v", voice, "-s"])
        .arg(rate.to_string())
        .arg("--stdout")
        .arg("--")
        .arg(text)
        .output()
        .map_err(|e| DeviceError::NotFound {
            what: "text-to-speech",
            detail: format!("espeak-ng cannot run ({e}); install the espeak-ng package").into(),
        })?;
    if !output.status.success() {
        return Err(DeviceError::Failed {
            what: "text-to-speech",
            detail: String::from_utf8_lossy(&output.stderr)
                .trim()
                .to_string()
                .into(),
        });
    }
    parse_wav(&output.stdout).ok_or(DeviceError::Failed {
        what: "text-to-speech",
        detail: "espeak-ng wrote no 16-bit PCM WAV".into(),
    })
}

/// Speech is synthesized but not played; what was said is kept.
#[derive(Debug, Default)]
pub struct SimulatedSpeaker {
    said: Mutex<Vec<Speech>>,
}

impl SimulatedSpeaker {
    /// What was said so far.
    pub fn said(&self) -> Vec<Speech> {
        self.said
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clone()
    }
}

impl Speaker for SimulatedSpeaker {
    fn speak(&self, speech: &Speech) -> Result<Spoken, DeviceError> {
        self.said
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .push(speech.clone());
        // About 15 characters a second at 160 words a minute.
        let chars = speech.text.chars().count() as u64;
        Ok(Spoken {
            duration_ms: chars * 1000 * 160 / (15 * u64::from(speech.rate.max(1))),
            device: "simulated-output".into(),
            voice: speech.language.voice().into(),
        })
    }

    fn probe(&self) -> Result<String, DeviceError> {
        Ok("simulated speaker".into())
    }
}

/// espeak-ng, played with cpal on the default output device.
#[derive(Debug, Default)]
pub struct SystemSpeaker;

impl Speaker for SystemSpeaker {
    fn speak(&self, speech: &Speech) -> Result<Spoken, DeviceError> {
        self.speak_until(speech, &AtomicBool::new(false))
    }

    fn speak_until(&self, speech: &Speech, stop: &AtomicBool) -> Result<Spoken, DeviceError> {
        let wav = synthesize(speech)?;
        let device = playback::play(&wav, stop)?;
        Ok(Spoken {
            duration_ms: wav.duration_ms(),
            device,
            voice: speech.language.voice().into(),
        })
    }

    fn probe(&self) -> Result<String, DeviceError> {
        let version = Command::new("espeak-ng")
            .arg("--version")
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| {
                String::from_utf8_lossy(&o.stdout)
                    .split_whitespace()
                    .take(2)
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .ok_or(DeviceError::NotFound {
                what: "text-to-speech",
                detail: "espeak-ng is not installed".into(),
            })?;
        let output = playback::output_name()?;
        Ok(format!("{version} → {output}"))
    }
}

/// Plays 16-bit mono samples on the default output; returns when they were played.
pub fn play(wav: &Wav) -> Result<String, DeviceError> {
    playback::play(wav, &AtomicBool::new(false))
}

mod playback {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
    use std::time::{Duration, Instant};

    use cpal::traits::{DeviceTrait, HostTrait, StreamTrait};

    use super::Wav;
    use crate::error::DeviceError;

    const WHAT: &str = "audio output";

    fn failed(detail: impl std::fmt::Display) -> DeviceError {
        DeviceError::Failed {
            what: WHAT,
            detail: detail.to_string().into(),
        }
    }

    /// Linear resampling of mono 16-bit samples to `rate`, as f32 in [-1, 1].
    fn resample(wav: &Wav, rate: u32) -> Vec<f32> {
        let ratio = f64::from(wav.rate) / f64::from(rate.max(1));
        let frames = (wav.samples.len() as f64 / ratio) as usize;
        (0..frames)
            .map(|i| {
                let at = i as f64 * ratio;
                let j = at as usize;
                let frac = (at - j as f64) as f32;
                let a = f32::from(wav.samples.get(j).copied().unwrap_or(0));
                let b = f32::from(wav.samples.get(j + 1).copied().unwrap_or(0));
                (a + (b - a) * frac) / 32768.0
            })
            .collect()
    }

    /// The default output device's name, if it can play.
    pub(super) fn output_name() -> Result<String, DeviceError> {
        let device = cpal::default_host()
            .default_output_device()
            .ok_or(DeviceError::NotFound {
                what: WHAT,
                detail: "no default output device".into(),
            })?;
        device
            .default_output_config()
            .map_err(|e| DeviceError::NotFound {
                what: WHAT,
                detail: format!("{e}; is a sound server running?").into(),
            })?;
        Ok(device
            .description()
            .map(|d| d.name().to_string())
            .unwrap_or_else(|_| "default".into()))
    }

    /// Plays `wav`; returns when it has been played, or at once when `stop` is set.
    pub(super) fn play(wav: &Wav, stop: &AtomicBool) -> Result<String, DeviceError> {
        let host = cpal::default_host();
        let device = host.default_output_device().ok_or(DeviceError::NotFound {
            what: WHAT,
            detail: "no default output device".into(),
        })?;
        let name = device
            .description()
            .map(|d| d.name().to_string())
            .unwrap_or_else(|_| "default".into());
        let supported = device
            .default_output_config()
            .map_err(|e| DeviceError::NotFound {
                what: WHAT,
                detail: format!("{e}; is a sound server running?").into(),
            })?;
        let channels = usize::from(supported.channels().max(1));
        // The first few hundred milliseconds of a new stream can be lost (the sound server
        // is still starting it): lead with silence so that nothing said is lost.
        let lead = supported.sample_rate() as usize / 2;
        let mut padded = vec![0.0f32; lead];
        padded.extend(resample(wav, supported.sample_rate()));
        let samples = Arc::new(padded);
        let position = Arc::new(AtomicUsize::new(0));
        let finished = Arc::new(AtomicBool::new(false));
        let errors = Arc::new(AtomicUsize::new(0));
        let config = supported.config();
        // Bursts of ALSA "I/O error"s can come while the sound is still right: log once.
        let on_error = {
            let errors = errors.clone();
            move |e: cpal::Error| {
                if errors.fetch_add(1, Ordering::Relaxed) == 0 {
                    tracing::warn!(error = %e, "audio output reported an error");
                }
            }
        };
        let next = {
            let samples = samples.clone();
            let position = position.clone();
            let finished = finished.clone();
            move || -> f32 {
                let i = position.fetch_add(1, Ordering::Relaxed);
                match samples.get(i) {
                    Some(s) => *s,
                    None => {
                        finished.store(true, Ordering::Relaxed);
                        0.0
                    }
                }
            }
        };
        let stream = match supported.sample_format() {
            cpal::SampleFormat::F32 => device.build_output_stream::<f32, _, _>(
                config,
                move |out: &mut [f32], _| {
                    for frame in out.chunks_mut(channels) {
                        let s = next();
                        frame.fill(s);
                    }
                },
                on_error,
                None,
            ),
            cpal::SampleFormat::I16 => device.build_output_stream::<i16, _, _>(
                config,
                move |out: &mut [i16], _| {
                    for frame in out.chunks_mut(channels) {
                        let s = (next() * 32767.0) as i16;
                        frame.fill(s);
                    }
                },
                on_error,
                None,
            ),
            other => return Err(failed(format!("unsupported sample format {other}"))),
        }
        .map_err(|e| DeviceError::Busy {
            what: WHAT,
            detail: e.to_string().into(),
        })?;
        stream.play().map_err(failed)?;
        let length = Duration::from_millis(wav.duration_ms() + 500);
        // A sound server under load can hold a new stream back for several seconds before
        // it plays (seen here: over 5 s now and then); only a longer stall is "busy".
        let deadline = Instant::now() + length + Duration::from_secs(15);
        while !finished.load(Ordering::Relaxed) {
            if stop.load(Ordering::Relaxed) {
                // Silent at once: the stream goes with what is still buffered.
                drop(stream);
                return Ok(name);
            }
            if Instant::now() > deadline {
                return Err(DeviceError::Busy {
                    what: WHAT,
                    detail: "playback did not finish in time".into(),
                });
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        // What is still in the device's buffer plays out before the stream goes.
        std::thread::sleep(Duration::from_millis(300));
        drop(stream);
        Ok(name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wav_headers_are_read_and_garbage_refused() {
        let mut wav = b"RIFF\0\0\0\0WAVEfmt ".to_vec();
        wav.extend_from_slice(&16u32.to_le_bytes());
        wav.extend_from_slice(&1u16.to_le_bytes()); // PCM
        wav.extend_from_slice(&1u16.to_le_bytes()); // mono
        wav.extend_from_slice(&22_050u32.to_le_bytes());
        wav.extend_from_slice(&44_100u32.to_le_bytes());
        wav.extend_from_slice(&2u16.to_le_bytes());
        wav.extend_from_slice(&16u16.to_le_bytes());
        wav.extend_from_slice(b"data");
        wav.extend_from_slice(&0x7fff_ffffu32.to_le_bytes());
        for s in [0i16, 1000, -1000] {
            wav.extend_from_slice(&s.to_le_bytes());
        }
        assert_eq!(
            parse_wav(&wav),
            Some(Wav {
                rate: 22_050,
                samples: vec![0, 1000, -1000]
            })
        );
        assert_eq!(parse_wav(b"not a wav at all"), None);
    }

    #[test]
    fn espeak_says_both_languages() {
        for (text, language) in [
            ("turn the volume up", Language::En),
            ("音量调高", Language::Zh),
        ] {
            let wav = synthesize(&Speech {
                text: text.into(),
                language,
                rate: 160,
            })
            .unwrap_or_else(|e| panic!("{e}"));
            assert!(wav.duration_ms() > 300, "{text}: {} ms", wav.duration_ms());
            let loud = wav
                .samples
                .iter()
                .filter(|s| s.unsigned_abs() > 1000)
                .count();
            assert!(loud > 100, "{text} is silent");
        }
    }
}
