//! What the voice mode tests share: a `deskmate listen` child whose printed lines are
//! awaited, speech made by espeak-ng, and recordings of the output sink.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use deskmate_devices::microphone::wav_bytes;
use deskmate_devices::speaker::{Language, Speech, parse_wav, synthesize};
use deskmate_testkit::pulse::PulseServer;

/// A `deskmate listen` child and the lines it prints, each with when it came.
pub struct Listening {
    pub child: Child,
    lines: mpsc::Receiver<(Instant, String)>,
    pub seen: Vec<String>,
}

impl Listening {
    pub fn start(data: &Path, pulse: &PulseServer) -> Self {
        Self::start_with(data, pulse, "off")
    }

    /// With the local model servers (`DESKMATE_LOCAL`: `auto` or `off`).
    pub fn start_with(data: &Path, pulse: &PulseServer, local: &str) -> Self {
        let mut child = Command::new(env!("CARGO_BIN_EXE_deskmate"))
            .arg("--data-dir")
            .arg(data)
            .arg("listen")
            .env("PULSE_SERVER", pulse.server())
            .env("DESKMATE_LOCAL", local)
            .env("DESKMATE_LOG", "info,deskmate_host=debug")
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("deskmate listen: {e}"));
        let stderr = child.stderr.take().unwrap_or_else(|| panic!("no stderr"));
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                if tx.send((Instant::now(), line)).is_err() {
                    break;
                }
            }
        });
        Self {
            child,
            lines,
            seen: Vec::new(),
        }
    }

    /// The next line that `wanted` accepts, within `within`; panics with what was seen.
    pub fn wait_for(
        &mut self,
        within: Duration,
        wanted: impl Fn(&str) -> bool,
    ) -> (Instant, String) {
        let until = Instant::now() + within;
        loop {
            let left = until.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok((at, line)) => {
                    self.seen.push(line.clone());
                    if wanted(&line) {
                        return (at, line);
                    }
                }
                Err(_) => panic!("not printed in time; printed:\n{}", self.seen.join("\n")),
            }
        }
    }

    /// The lines printed within `within` (all of them, none awaited).
    pub fn drain(&mut self, within: Duration) -> Vec<String> {
        let until = Instant::now() + within;
        let mut out = Vec::new();
        while let Ok((_, line)) = self
            .lines
            .recv_timeout(until.saturating_duration_since(Instant::now()))
        {
            self.seen.push(line.clone());
            out.push(line);
        }
        out
    }

    pub fn stop(mut self) -> Option<i32> {
        let _ = nix::sys::signal::kill(
            nix::unistd::Pid::from_raw(i32::try_from(self.child.id()).unwrap_or(i32::MAX)),
            nix::sys::signal::Signal::SIGINT,
        );
        let until = Instant::now() + Duration::from_secs(10);
        while Instant::now() < until {
            if let Ok(Some(status)) = self.child.try_wait() {
                return status.code();
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        let _ = self.child.kill();
        None
    }
}

/// Speech made by espeak-ng, as a WAV file in `dir`.
pub fn spoken(dir: &Path, name: &str, text: &str, language: Language, rate: u32) -> PathBuf {
    let wav = synthesize(&Speech {
        text: text.into(),
        language,
        rate,
    })
    .unwrap_or_else(|e| panic!("{e}"));
    // A new stream's first few hundred milliseconds can be lost in the sound server: the
    // speech is led by half a second of silence, as the speaker's own is.
    let mut wav = wav;
    let lead = vec![0i16; wav.rate as usize / 2];
    wav.samples.splice(0..0, lead);
    let path = dir.join(format!("{name}.wav"));
    std::fs::write(&path, wav_bytes(&wav)).unwrap_or_else(|e| panic!("{e}"));
    path
}

/// `parec` on a source until stopped, its samples read as they come, so that when they
/// were played is known (the first piece's arrival; a new stream can start seconds late
/// on a loaded sound server, so a file's start says nothing about time).
pub struct Recorder {
    child: Child,
    reader: std::thread::JoinHandle<(Option<Instant>, Vec<i16>)>,
}

impl Recorder {
    /// What the output sink plays.
    pub fn start(pulse: &PulseServer) -> Self {
        Self::on(pulse, "ci_sink.monitor")
    }

    /// What a source (`mic_sink.monitor`: what the microphone hears) delivers.
    pub fn on(pulse: &PulseServer, source: &str) -> Self {
        let mut child = Command::new("parec")
            .arg(format!("--device={source}"))
            .args([
                "--format=s16le",
                "--rate=16000",
                "--channels=1",
                "--latency-msec=20",
            ])
            .env("PULSE_SERVER", pulse.server())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("parec: {e}"));
        let mut stdout = child.stdout.take().unwrap_or_else(|| panic!("no stdout"));
        let reader = std::thread::spawn(move || {
            use std::io::Read;
            let mut first = None;
            let mut samples = Vec::new();
            let mut buf = [0u8; 640];
            let mut odd: Option<u8> = None;
            while let Ok(n) = stdout.read(&mut buf) {
                if n == 0 {
                    break;
                }
                first.get_or_insert_with(Instant::now);
                let mut bytes: Vec<u8> = odd.take().into_iter().collect();
                bytes.extend_from_slice(&buf[..n]);
                if bytes.len() % 2 == 1 {
                    odd = bytes.pop();
                }
                samples.extend(
                    bytes
                        .chunks_exact(2)
                        .map(|b| i16::from_le_bytes([b[0], b[1]])),
                );
            }
            (first, samples)
        });
        Self { child, reader }
    }

    /// The samples, and when the first of them came.
    pub fn stop(mut self) -> (Instant, Vec<i16>) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let (first, samples) = self
            .reader
            .join()
            .unwrap_or_else(|_| panic!("the reader failed"));
        (
            first.unwrap_or_else(|| panic!("nothing was recorded")),
            samples,
        )
    }
}

/// Whether each 10 ms of 16 kHz samples is loud.
pub fn loud_windows(samples: &[i16]) -> Vec<bool> {
    samples
        .chunks(160)
        .map(|c| c.iter().map(|s| f64::from(*s).abs()).sum::<f64>() / c.len() as f64 > 300.0)
        .collect()
}

/// When the sound playing at `from` (from the recording's start) falls silent: the start
/// of the first 400 ms without sound after it (the reply's own pauses are shorter).
pub fn silent_after(samples: &[i16], from: Duration) -> Option<Duration> {
    let loud = loud_windows(samples);
    let first = (from.as_millis() / 10) as usize;
    let mut quiet = 0;
    for (i, l) in loud.iter().enumerate().skip(first) {
        quiet = if *l { 0 } else { quiet + 1 };
        if quiet == 40 {
            return Some(Duration::from_millis((i as u64 + 1 - 40) * 10));
        }
    }
    None
}

/// When speech starts in a WAV file's samples.
pub fn start_of_sound(samples: &[i16]) -> Duration {
    let first = loud_windows(samples).iter().position(|l| *l).unwrap_or(0);
    Duration::from_millis(first as u64 * 10)
}

/// When the recording's sound falls silent for good after `from` (an absolute time),
/// given when its first sample came.
pub fn silent_at(first: Instant, samples: &[i16], from: Instant) -> Option<Instant> {
    silent_after(samples, from.saturating_duration_since(first)).map(|d| first + d)
}

/// The loud part of a recording (with 300 ms either side) as a WAV file's bytes: what
/// is transcribed, since whisper makes words up out of long silences.
pub fn trimmed(samples: &[i16]) -> Vec<u8> {
    let loud = loud_windows(samples);
    let first = loud.iter().position(|l| *l).unwrap_or(0);
    let last = loud.iter().rposition(|l| *l).unwrap_or(loud.len());
    let from = first.saturating_sub(30) * 160;
    let to = ((last + 31) * 160).min(samples.len());
    deskmate_devices::microphone::wav_bytes(&deskmate_devices::speaker::Wav {
        rate: 16_000,
        samples: samples[from.min(to)..to].to_vec(),
    })
}

/// The microphone fed through one `pacat` stream kept open, with silence between what it
/// says: a stream opened on the sound server while a reply plays can stall the reply's
/// (cpal through ALSA's pulse plugin; seen here as an I/O error and silence), so speech
/// fed while a reply plays must not open one.
pub struct Feeder {
    child: Child,
    say: mpsc::Sender<(Vec<i16>, mpsc::Sender<Instant>)>,
}

impl Feeder {
    pub fn start(pulse: &PulseServer) -> Self {
        let mut child = Command::new("pacat")
            .args([
                "--playback",
                "--device=mic_sink",
                "--format=s16le",
                "--rate=16000",
                "--channels=1",
                "--latency-msec=50",
            ])
            .env("PULSE_SERVER", pulse.server())
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("pacat: {e}"));
        let mut stdin = child.stdin.take().unwrap_or_else(|| panic!("no stdin"));
        let (say, queue) = mpsc::channel::<(Vec<i16>, mpsc::Sender<Instant>)>();
        std::thread::spawn(move || {
            use std::io::Write;
            const PIECE: usize = 320; // 20 ms
            let started = Instant::now();
            let mut written = 0u64;
            let mut current: Option<(Vec<i16>, usize, mpsc::Sender<Instant>)> = None;
            let mut began = Instant::now();
            loop {
                if current.is_none() {
                    match queue.try_recv() {
                        Ok((samples, done)) => {
                            began = Instant::now();
                            current = Some((samples, 0, done));
                        }
                        Err(mpsc::TryRecvError::Disconnected) => return,
                        Err(mpsc::TryRecvError::Empty) => {}
                    }
                }
                let piece: Vec<i16> = match &mut current {
                    Some((samples, at, _)) => {
                        let end = (*at + PIECE).min(samples.len());
                        let piece = samples[*at..end].to_vec();
                        *at = end;
                        piece
                    }
                    None => vec![0; PIECE],
                };
                if current.as_ref().is_some_and(|(s, at, _)| *at >= s.len())
                    && let Some((_, _, done)) = current.take()
                {
                    let _ = done.send(began);
                }
                let bytes: Vec<u8> = piece.iter().flat_map(|s| s.to_le_bytes()).collect();
                if stdin.write_all(&bytes).is_err() {
                    return;
                }
                written += piece.len() as u64;
                let due = started + Duration::from_micros(written * 1_000_000 / 16_000);
                std::thread::sleep(due.saturating_duration_since(Instant::now()));
            }
        });
        Self { child, say }
    }

    /// Says a WAV file (mono, as [`spoken`] makes); returns, once it has been fed, when
    /// its first loud sample was.
    pub fn say(&self, wav: &Path) -> Instant {
        let wav = parse_wav(&std::fs::read(wav).unwrap_or_default())
            .unwrap_or_else(|| panic!("{} is not a WAV", wav.display()));
        // To 16 kHz (espeak-ng writes 22,050 Hz), nearest sample.
        let ratio = f64::from(wav.rate) / 16_000.0;
        let samples: Vec<i16> = (0..(wav.samples.len() as f64 / ratio) as usize)
            .map(|i| wav.samples[((i as f64 * ratio) as usize).min(wav.samples.len() - 1)])
            .collect();
        let lead = start_of_sound(&samples);
        let (done, fed) = mpsc::channel();
        self.say
            .send((samples, done))
            .unwrap_or_else(|_| panic!("the feeder stopped"));
        fed.recv().unwrap_or_else(|_| panic!("the feeder stopped")) + lead
    }
}

impl Drop for Feeder {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
