//! The microphone: listens for one utterance (speech that starts, then stops) and hands it
//! over as a 16 kHz mono WAV, for speech recognition. [`Transcriber`] turns it into text;
//! the service provides one on its default ASR model once it is open ([`TranscriberSlot`]).

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use async_trait::async_trait;

use crate::error::DeviceError;
use crate::speaker::Wav;

/// The sample rate utterances are handed over in (what speech recognizers use).
pub const RATE: u32 = 16_000;

/// How long to listen.
#[derive(Debug, Clone, Copy)]
pub struct Listen {
    /// How long to wait for speech to start.
    pub wait: Duration,
    /// The longest utterance.
    pub longest: Duration,
    /// The pause that ends an utterance.
    pub pause: Duration,
}

impl Default for Listen {
    fn default() -> Self {
        Self {
            wait: Duration::from_secs(10),
            longest: Duration::from_secs(8),
            pause: Duration::from_millis(700),
        }
    }
}

/// Records speech.
pub trait Microphone: Send + Sync + std::fmt::Debug {
    /// Waits for speech and records it until a pause (blocking). `None`: nothing was said
    /// within `listen.wait`, or `stop` was set.
    fn listen(&self, listen: Listen, stop: &AtomicBool) -> Result<Option<Wav>, DeviceError>;
    /// Records everything from now until `stop` is set or `longest` has passed (push to
    /// talk), calling `on_level` with the level in dBFS of each piece as it comes.
    fn record(
        &self,
        stop: &AtomicBool,
        longest: Duration,
        on_level: &mut dyn FnMut(f32),
    ) -> Result<Wav, DeviceError>;
    /// Hears everything from now until `stop` is set (voice mode), handing `on_sound`
    /// each piece as 16 kHz mono samples in [-1, 1] as it comes. One input stream stays
    /// open throughout, so nothing said between two utterances is lost.
    fn stream(
        &self,
        stop: &AtomicBool,
        on_sound: &mut dyn FnMut(&[f32]),
    ) -> Result<(), DeviceError>;
    /// Whether it can record here: the default input device.
    fn probe(&self) -> Result<String, DeviceError>;
}

/// Turns speech into text.
#[async_trait]
pub trait Transcriber: Send + Sync + std::fmt::Debug {
    /// The text of a WAV; `language` an ISO-639-1 code or none to detect it; `hints` words
    /// the speaker is likely to use.
    async fn transcribe(
        &self,
        wav: Vec<u8>,
        language: Option<&str>,
        hints: &[String],
    ) -> Result<String, DeviceError>;
}

/// A transcriber provided later: the device tools are built before the service that
/// knows the ASR models is open.
#[derive(Debug, Clone, Default)]
pub struct TranscriberSlot(Arc<OnceLock<Arc<dyn Transcriber>>>);

impl TranscriberSlot {
    /// Provides the transcriber (once; later calls are ignored).
    pub fn set(&self, transcriber: Arc<dyn Transcriber>) {
        if self.0.set(transcriber).is_err() {
            tracing::debug!("the transcriber was already provided");
        }
    }

    /// The transcriber, when provided.
    pub fn get(&self) -> Option<Arc<dyn Transcriber>> {
        self.0.get().cloned()
    }
}

/// Encodes 16-bit mono PCM as a WAV file.
pub fn wav_bytes(wav: &Wav) -> Vec<u8> {
    let data = u32::try_from(wav.samples.len() * 2).unwrap_or(u32::MAX);
    let mut out = Vec::with_capacity(44 + wav.samples.len() * 2);
    out.extend_from_slice(b"RIFF");
    out.extend_from_slice(&data.saturating_add(36).to_le_bytes());
    out.extend_from_slice(b"WAVEfmt ");
    out.extend_from_slice(&16u32.to_le_bytes());
    out.extend_from_slice(&1u16.to_le_bytes()); // PCM
    out.extend_from_slice(&1u16.to_le_bytes()); // mono
    out.extend_from_slice(&wav.rate.to_le_bytes());
    out.extend_from_slice(&(wav.rate * 2).to_le_bytes());
    out.extend_from_slice(&2u16.to_le_bytes());
    out.extend_from_slice(&16u16.to_le_bytes());
    out.extend_from_slice(b"data");
    out.extend_from_slice(&data.to_le_bytes());
    for s in &wav.samples {
        out.extend_from_slice(&s.to_le_bytes());
    }
    out
}

/// 16 kHz samples in [-1, 1] as a WAV.
fn to_wav(samples: &[f32]) -> Wav {
    Wav {
        rate: RATE,
        samples: samples
            .iter()
            .map(|s| (s.clamp(-1.0, 1.0) * 32767.0) as i16)
            .collect(),
    }
}

/// The level of a piece of sound in dBFS (RMS; -100 for silence or nothing).
pub fn level_dbfs(samples: &[f32]) -> f32 {
    if samples.is_empty() {
        return -100.0;
    }
    let rms = (samples.iter().map(|s| s * s).sum::<f32>() / samples.len() as f32).sqrt();
    if rms <= 1e-5 {
        -100.0
    } else {
        20.0 * rms.log10()
    }
}

/// Finds one utterance in a stream of 16 kHz samples fed in pieces: speech starts when a
/// few 30 ms frames in a row are clearly louder than the room, ends at a pause.
#[derive(Debug)]
pub struct Utterances {
    listen: Listen,
    /// Samples not yet looked at (less than a frame).
    pending: Vec<f32>,
    /// Recent quiet frames kept before speech starts (so its onset is not cut).
    before: VecDeque<Vec<f32>>,
    /// The utterance so far.
    speech: Vec<f32>,
    /// Frames seen while waiting, and the room's level measured on them.
    waited: usize,
    floor: f32,
    loud_run: usize,
    quiet_run: usize,
    started: bool,
}

/// One analysis frame: 30 ms at 16 kHz.
const FRAME: usize = 480;
/// Frames kept before the onset (300 ms).
const PREROLL: usize = 10;
/// Loud frames in a row that start speech (90 ms).
const ONSET: usize = 3;
/// Frames that measure the room before speech can start (150 ms).
const CALIBRATION: usize = 5;
/// The quietest level counted as speech (about -40 dBFS).
const MIN_LEVEL: f32 = 0.01;

/// What [`Utterances::feed`] found.
#[derive(Debug, PartialEq)]
pub enum Heard {
    /// Keep listening.
    Listening,
    /// Nothing was said within the wait.
    Silence,
    /// An utterance.
    Speech(Wav),
}

impl Utterances {
    /// Starts listening.
    pub fn new(listen: Listen) -> Self {
        Self {
            listen,
            pending: Vec::new(),
            before: VecDeque::new(),
            speech: Vec::new(),
            waited: 0,
            floor: 0.0,
            loud_run: 0,
            quiet_run: 0,
            started: false,
        }
    }

    fn frames(duration: Duration) -> usize {
        (duration.as_millis() as usize * RATE as usize / 1000).div_ceil(FRAME)
    }

    /// Whether an utterance has started and not yet ended.
    pub fn speaking(&self) -> bool {
        self.started
    }

    /// Listens for the next utterance of the same stream: the room's level measured so
    /// far is kept (so speech that follows at once is not taken for the room).
    pub fn again(&mut self) {
        self.pending.clear();
        self.before.clear();
        self.speech.clear();
        self.waited = self.waited.min(CALIBRATION);
        self.loud_run = 0;
        self.quiet_run = 0;
        self.started = false;
    }

    fn finish(&mut self) -> Heard {
        Heard::Speech(to_wav(&std::mem::take(&mut self.speech)))
    }

    /// Takes more samples (16 kHz mono, in [-1, 1]).
    pub fn feed(&mut self, samples: &[f32]) -> Heard {
        self.pending.extend_from_slice(samples);
        while self.pending.len() >= FRAME {
            let frame: Vec<f32> = self.pending.drain(..FRAME).collect();
            let level = (frame.iter().map(|s| s * s).sum::<f32>() / FRAME as f32).sqrt();
            let threshold = MIN_LEVEL.max(self.floor * 4.0);
            // The first frames measure the room; speech cannot start in them.
            let loud = level > threshold && (self.started || self.waited >= CALIBRATION);
            if self.started {
                self.speech.extend_from_slice(&frame);
                self.quiet_run = if loud { 0 } else { self.quiet_run + 1 };
                let frames = self.speech.len() / FRAME;
                if self.quiet_run >= Self::frames(self.listen.pause)
                    || frames >= Self::frames(self.listen.longest)
                {
                    return self.finish();
                }
                continue;
            }
            self.waited += 1;
            if loud {
                self.loud_run += 1;
            } else {
                self.loud_run = 0;
                // The room's level: the mean of the first frames, then a slow average of
                // the quiet ones; a quieter frame lowers it at once (speech heard while
                // the first frames were measured is not the room).
                self.floor = if self.waited <= CALIBRATION {
                    self.floor + (level - self.floor) / self.waited as f32
                } else if level < self.floor {
                    level
                } else {
                    self.floor * 0.9 + level * 0.1
                };
            }
            self.before.push_back(frame);
            if self.before.len() > PREROLL + ONSET {
                self.before.pop_front();
            }
            if self.loud_run >= ONSET {
                self.started = true;
                self.speech = self.before.drain(..).flatten().collect();
            } else if self.waited >= Self::frames(self.listen.wait) {
                return Heard::Silence;
            }
        }
        Heard::Listening
    }
}

/// Plays back prepared utterances in turn; then hears nothing.
#[derive(Debug, Default)]
pub struct SimulatedMicrophone {
    queue: Mutex<VecDeque<Wav>>,
}

impl SimulatedMicrophone {
    /// A microphone that will hear these, one per `listen`.
    pub fn hearing(utterances: impl IntoIterator<Item = Wav>) -> Self {
        Self {
            queue: Mutex::new(utterances.into_iter().collect()),
        }
    }
}

impl SimulatedMicrophone {
    /// The next prepared utterance, if any is left.
    fn next(&self) -> Option<Wav> {
        self.queue
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .pop_front()
    }
}

impl Microphone for SimulatedMicrophone {
    fn listen(&self, listen: Listen, stop: &AtomicBool) -> Result<Option<Wav>, DeviceError> {
        let next = self.next();
        if next.is_none() {
            // Nobody speaks: wait as a real microphone would, unless stopped.
            let until = std::time::Instant::now() + listen.wait;
            while std::time::Instant::now() < until && !stop.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(10));
            }
        }
        Ok(next)
    }

    /// The next prepared utterance, its levels reported in 50 ms pieces, once `stop` is
    /// set (silence, reported as one piece, when none is left).
    fn record(
        &self,
        stop: &AtomicBool,
        longest: Duration,
        on_level: &mut dyn FnMut(f32),
    ) -> Result<Wav, DeviceError> {
        let next = self.next().unwrap_or(Wav {
            rate: RATE,
            samples: Vec::new(),
        });
        let piece = (next.rate as usize / 20).max(1);
        if next.samples.is_empty() {
            // A quiet room: the device delivers silence.
            on_level(level_dbfs(&[]));
        }
        for chunk in next.samples.chunks(piece) {
            let floats: Vec<f32> = chunk.iter().map(|s| f32::from(*s) / 32768.0).collect();
            on_level(level_dbfs(&floats));
        }
        let until = std::time::Instant::now() + longest;
        while !stop.load(Ordering::Relaxed) && std::time::Instant::now() < until {
            std::thread::sleep(Duration::from_millis(10));
        }
        Ok(next)
    }

    /// The prepared utterances one after another, each followed by a second of a quiet
    /// room, in 50 ms pieces at the pace they would be heard; then the quiet room until
    /// `stop` is set.
    fn stream(
        &self,
        stop: &AtomicBool,
        on_sound: &mut dyn FnMut(&[f32]),
    ) -> Result<(), DeviceError> {
        const PIECE: usize = RATE as usize / 20;
        let quiet = vec![0.0f32; PIECE];
        let mut heard: VecDeque<f32> = VecDeque::new();
        while !stop.load(Ordering::Relaxed) {
            if heard.is_empty()
                && let Some(next) = self.next()
            {
                heard.extend(next.samples.iter().map(|s| f32::from(*s) / 32768.0));
                heard.extend(std::iter::repeat_n(0.0, RATE as usize));
            }
            let piece: Vec<f32> = heard.drain(..PIECE.min(heard.len())).collect();
            on_sound(if piece.is_empty() { &quiet } else { &piece });
            std::thread::sleep(Duration::from_millis(50));
        }
        Ok(())
    }

    fn probe(&self) -> Result<String, DeviceError> {
        Ok("simulated microphone".into())
    }
}

/// The default input device through cpal (on Linux: ALSA, and PulseAudio/PipeWire
/// through ALSA's pulse plugin).
#[derive(Debug, Default)]
pub struct SystemMicrophone;

impl Microphone for SystemMicrophone {
    fn listen(&self, listen: Listen, stop: &AtomicBool) -> Result<Option<Wav>, DeviceError> {
        capture::listen(listen, stop)
    }

    fn record(
        &self,
        stop: &AtomicBool,
        longest: Duration,
        on_level: &mut dyn FnMut(f32),
    ) -> Result<Wav, DeviceError> {
        capture::record(stop, longest, on_level)
    }

    fn stream(
        &self,
        stop: &AtomicBool,
        on_sound: &mut dyn FnMut(&[f32]),
    ) -> Result<(), DeviceError> {
        capture::stream(stop, on_sound)
    }

    fn probe(&self) -> Result<String, DeviceError> {
        capture::input_name()
    }
}

mod capture {
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::mpsc;
    use std::time::{Duration, Instant};

    use cpal::traits::{DeviceTrait, HostTrait, StreamTrait};

    use super::{Heard, Listen, RATE, Utterances};
    use crate::error::DeviceError;
    use crate::speaker::Wav;

    const WHAT: &str = "microphone";

    fn device() -> Result<(cpal::Device, cpal::SupportedStreamConfig), DeviceError> {
        let device = cpal::default_host()
            .default_input_device()
            .ok_or(DeviceError::NotFound {
                what: WHAT,
                detail: "no default input device".into(),
            })?;
        let config = device
            .default_input_config()
            .map_err(|e| DeviceError::NotFound {
                what: WHAT,
                detail: format!("{e}; is a microphone connected and a sound server running?")
                    .into(),
            })?;
        Ok((device, config))
    }

    /// A device that delivers nothing.
    fn silent() -> DeviceError {
        DeviceError::Busy {
            what: WHAT,
            detail: "the input device delivered no sound".into(),
        }
    }

    /// A stream that ended under us.
    fn stopped() -> DeviceError {
        DeviceError::Failed {
            what: WHAT,
            detail: "the input stream stopped".into(),
        }
    }

    pub(super) fn input_name() -> Result<String, DeviceError> {
        let (device, config) = device()?;
        let name = device
            .description()
            .map(|d| d.name().to_string())
            .unwrap_or_else(|_| "default".into());
        Ok(format!(
            "{name} ({} Hz, {} channel(s))",
            config.sample_rate(),
            config.channels()
        ))
    }

    /// Mono at the device's rate → mono at 16 kHz (linear interpolation; `carry` holds
    /// the fractional position between calls).
    struct Resampler {
        step: f64,
        at: f64,
        last: f32,
    }

    impl Resampler {
        fn new(from: u32) -> Self {
            Self {
                step: f64::from(from) / f64::from(RATE),
                at: 0.0,
                last: 0.0,
            }
        }

        fn push(&mut self, input: &[f32], out: &mut Vec<f32>) {
            // Positions are relative to `last` (index -1) followed by `input`.
            let sample = |i: isize| -> f32 { if i < 0 { self.last } else { input[i as usize] } };
            while self.at < input.len() as f64 - 1.0 {
                let i = self.at.floor() as isize;
                let frac = (self.at - i as f64) as f32;
                let (a, b) = (sample(i), sample(i + 1));
                out.push(a + (b - a) * frac);
                self.at += self.step;
            }
            self.at -= input.len() as f64;
            if let Some(last) = input.last() {
                self.last = *last;
            }
        }
    }

    /// Starts capturing the default input: mono pieces at the device's rate.
    fn open() -> Result<(cpal::Stream, u32, mpsc::Receiver<Vec<f32>>), DeviceError> {
        let (device, supported) = device()?;
        let channels = usize::from(supported.channels().max(1));
        let (tx, rx) = mpsc::channel::<Vec<f32>>();
        let on_error = |e: cpal::Error| tracing::warn!(error = %e, "microphone reported an error");
        let config = supported.config();
        let stream = match supported.sample_format() {
            cpal::SampleFormat::F32 => device.build_input_stream::<f32, _, _>(
                config,
                move |data: &[f32], _| {
                    let mono = data
                        .chunks(channels)
                        .map(|f| f.iter().sum::<f32>() / f.len() as f32)
                        .collect();
                    let _ = tx.send(mono);
                },
                on_error,
                None,
            ),
            cpal::SampleFormat::I16 => device.build_input_stream::<i16, _, _>(
                config,
                move |data: &[i16], _| {
                    let mono = data
                        .chunks(channels)
                        .map(|f| {
                            f.iter().map(|s| f32::from(*s) / 32768.0).sum::<f32>() / f.len() as f32
                        })
                        .collect();
                    let _ = tx.send(mono);
                },
                on_error,
                None,
            ),
            other => {
                return Err(DeviceError::Failed {
                    what: WHAT,
                    detail: format!("unsupported sample format {other}").into(),
                });
            }
        }
        .map_err(|e| DeviceError::Busy {
            what: WHAT,
            detail: e.to_string().into(),
        })?;
        stream.play().map_err(|e| DeviceError::Busy {
            what: WHAT,
            detail: e.to_string().into(),
        })?;
        Ok((stream, supported.sample_rate(), rx))
    }

    pub(super) fn listen(listen: Listen, stop: &AtomicBool) -> Result<Option<Wav>, DeviceError> {
        let (_stream, rate, rx) = open()?;
        let mut resampler = Resampler::new(rate);
        let mut utterances = Utterances::new(listen);
        let mut resampled = Vec::new();
        // A device that delivers nothing at all must not hang the call.
        let give_up = Instant::now() + listen.wait + listen.longest + Duration::from_secs(5);
        loop {
            if stop.load(Ordering::Relaxed) {
                return Ok(None);
            }
            match rx.recv_timeout(Duration::from_millis(50)) {
                Ok(piece) => {
                    resampled.clear();
                    resampler.push(&piece, &mut resampled);
                    match utterances.feed(&resampled) {
                        Heard::Listening => {}
                        Heard::Silence => return Ok(None),
                        Heard::Speech(wav) => return Ok(Some(wav)),
                    }
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {}
                Err(mpsc::RecvTimeoutError::Disconnected) => {
                    return Err(stopped());
                }
            }
            if Instant::now() > give_up {
                return Err(silent());
            }
        }
    }

    /// Hands over every piece, resampled to 16 kHz, until `stop` is set.
    pub(super) fn stream(
        stop: &AtomicBool,
        on_sound: &mut dyn FnMut(&[f32]),
    ) -> Result<(), DeviceError> {
        let (_stream, rate, rx) = open()?;
        let mut resampler = Resampler::new(rate);
        let mut resampled = Vec::new();
        let mut last_piece = Instant::now();
        while !stop.load(Ordering::Relaxed) {
            match rx.recv_timeout(Duration::from_millis(50)) {
                Ok(piece) => {
                    last_piece = Instant::now();
                    resampled.clear();
                    resampler.push(&piece, &mut resampled);
                    on_sound(&resampled);
                }
                // A device that stops delivering (unplugged, the sound server gone) is an
                // error, not a quiet room.
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    if last_piece.elapsed() > Duration::from_secs(3) {
                        return Err(silent());
                    }
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => {
                    return Err(stopped());
                }
            }
        }
        Ok(())
    }

    /// Records from now until `stop` is set or `longest` has passed, reporting the level
    /// of every piece.
    pub(super) fn record(
        stop: &AtomicBool,
        longest: Duration,
        on_level: &mut dyn FnMut(f32),
    ) -> Result<Wav, DeviceError> {
        let (_stream, rate, rx) = open()?;
        let mut resampler = Resampler::new(rate);
        let mut recorded = Vec::new();
        let mut piece_out = Vec::new();
        let started = Instant::now();
        let mut heard_any = false;
        while !stop.load(Ordering::Relaxed) && started.elapsed() < longest {
            match rx.recv_timeout(Duration::from_millis(50)) {
                Ok(piece) => {
                    heard_any = true;
                    piece_out.clear();
                    resampler.push(&piece, &mut piece_out);
                    on_level(super::level_dbfs(&piece_out));
                    recorded.extend_from_slice(&piece_out);
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    if !heard_any && started.elapsed() > Duration::from_secs(3) {
                        return Err(silent());
                    }
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => {
                    return Err(stopped());
                }
            }
        }
        Ok(super::to_wav(&recorded))
    }

    #[cfg(test)]
    mod tests {
        use super::*;

        #[test]
        fn resampling_keeps_a_tone_in_pieces_of_any_size() {
            // 1 s of a 440 Hz tone at 48 kHz, fed in uneven pieces.
            let tone: Vec<f32> = (0..48_000)
                .map(|i| (i as f32 * 440.0 * std::f32::consts::TAU / 48_000.0).sin())
                .collect();
            let mut resampler = Resampler::new(48_000);
            let mut out = Vec::new();
            let mut at = 0;
            for size in [1usize, 7, 480, 1023, 3].iter().cycle() {
                if at >= tone.len() {
                    break;
                }
                let end = (at + size).min(tone.len());
                resampler.push(&tone[at..end], &mut out);
                at = end;
            }
            assert!((15_990..=16_000).contains(&out.len()), "{}", out.len());
            for (i, s) in out.iter().enumerate() {
                let expected = (i as f32 * 440.0 * std::f32::consts::TAU / 16_000.0).sin();
                assert!((s - expected).abs() < 0.02, "sample {i}: {s} vs {expected}");
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tone(ms: usize, level: f32) -> Vec<f32> {
        (0..ms * 16)
            .map(|i| level * (i as f32 * 0.3).sin())
            .collect()
    }

    fn feed_all(utterances: &mut Utterances, samples: &[f32]) -> Heard {
        for piece in samples.chunks(333) {
            match utterances.feed(piece) {
                Heard::Listening => {}
                done => return done,
            }
        }
        Heard::Listening
    }

    #[test]
    fn an_utterance_starts_loud_and_ends_at_a_pause() {
        let listen = Listen {
            wait: Duration::from_secs(3),
            longest: Duration::from_secs(5),
            pause: Duration::from_millis(600),
        };
        let mut input = tone(500, 0.002); // a quiet room
        input.extend(tone(1000, 0.3)); // speech
        input.extend(tone(1000, 0.002)); // the pause, and more
        let Heard::Speech(wav) = feed_all(&mut Utterances::new(listen), &input) else {
            panic!("no utterance found");
        };
        // 300 ms before the onset, the second of speech, the 600 ms pause (±2 frames).
        let ms = wav.duration_ms();
        assert!((1850..=2000).contains(&ms), "{ms} ms");
        assert_eq!(wav.rate, RATE);
    }

    #[test]
    fn silence_ends_after_the_wait_and_long_speech_is_cut() {
        let listen = Listen {
            wait: Duration::from_secs(1),
            longest: Duration::from_secs(2),
            pause: Duration::from_millis(600),
        };
        assert_eq!(
            feed_all(&mut Utterances::new(listen), &tone(1500, 0.003)),
            Heard::Silence
        );
        // A steady hum is the room, not speech, however long it lasts.
        assert_eq!(
            feed_all(&mut Utterances::new(listen), &tone(900, 0.05)),
            Heard::Listening
        );
        let mut talk = tone(200, 0.001);
        talk.extend(tone(5000, 0.4));
        let Heard::Speech(wav) = feed_all(&mut Utterances::new(listen), &talk) else {
            panic!("no utterance found");
        };
        assert!(wav.duration_ms() <= 2030, "{} ms", wav.duration_ms());
    }

    #[test]
    fn speech_while_the_room_is_measured_does_not_deafen_it() {
        let listen = Listen {
            wait: Duration::from_secs(3600),
            longest: Duration::from_secs(5),
            pause: Duration::from_millis(600),
        };
        // Talk from the first moment, a breath, and more talk.
        let mut input = tone(1000, 0.3);
        input.extend(tone(90, 0.0));
        input.extend(tone(700, 0.3));
        input.extend(tone(800, 0.0));
        assert!(matches!(
            feed_all(&mut Utterances::new(listen), &input),
            Heard::Speech(_)
        ));
    }

    #[test]
    fn one_stream_gives_utterance_after_utterance() {
        let listen = Listen {
            wait: Duration::from_secs(3600),
            longest: Duration::from_secs(5),
            pause: Duration::from_millis(600),
        };
        let mut input = tone(300, 0.002);
        for _ in 0..3 {
            input.extend(tone(700, 0.3));
            input.extend(tone(700, 0.002));
        }
        let mut utterances = Utterances::new(listen);
        let mut found = Vec::new();
        let mut onsets = 0;
        let mut was = false;
        for piece in input.chunks(333) {
            let heard = utterances.feed(piece);
            if utterances.speaking() && !was {
                onsets += 1;
            }
            was = utterances.speaking();
            if let Heard::Speech(wav) = heard {
                found.push(wav.duration_ms());
                utterances.again();
                was = false;
            }
        }
        // Each: its 0.7 s of speech and the 0.6 s pause, with what came before its onset
        // (up to 300 ms, less when the last utterance's pause was still running).
        assert_eq!(found.len(), 3, "{found:?}");
        assert_eq!(onsets, 3);
        for ms in found {
            assert!((1250..=1650).contains(&ms), "{ms} ms");
        }
    }

    #[test]
    fn wav_bytes_read_back() {
        let wav = Wav {
            rate: RATE,
            samples: vec![0, 1, -1, i16::MAX, i16::MIN],
        };
        assert_eq!(crate::speaker::parse_wav(&wav_bytes(&wav)), Some(wav));
    }
}
