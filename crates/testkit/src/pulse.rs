//! A private PulseAudio daemon with a default null sink `ci_sink` ,
//! for tests that change or record real audio; `pactl` and `parecord` are the oracles.

use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A running daemon; killed on drop.
#[derive(Debug)]
pub struct PulseServer {
    child: Child,
    runtime: tempfile::TempDir,
}

impl PulseServer {
    /// Starts `pulseaudio` (apt: pulseaudio pulseaudio-utils) on a private runtime dir.
    pub fn start() -> Self {
        let runtime = tempfile::tempdir().unwrap_or_else(|e| panic!("runtime dir: {e}"));
        let config = runtime.path().join("ci.pa");
        std::fs::write(
            &config,
            "load-module module-native-protocol-unix\n\
             load-module module-null-sink sink_name=ci_sink\n\
             set-default-sink ci_sink\n",
        )
        .unwrap_or_else(|e| panic!("ci.pa: {e}"));
        let child = Command::new("pulseaudio")
            .args(["-n", "-F"])
            .arg(&config)
            .args(["--daemonize=no", "--exit-idle-time=-1", "--disallow-exit"])
            .env("XDG_RUNTIME_DIR", runtime.path())
            .env("HOME", runtime.path())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("pulseaudio (apt install pulseaudio): {e}"));
        let server = Self { child, runtime };
        let started = Instant::now();
        while server.pactl(&["info"]).is_none() {
            assert!(
                started.elapsed() < Duration::from_secs(15),
                "pulseaudio did not start"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
        server
    }

    /// Its socket.
    pub fn socket(&self) -> PathBuf {
        self.runtime.path().join("pulse").join("native")
    }

    /// The value for `PULSE_SERVER`.
    pub fn server(&self) -> String {
        format!("unix:{}", self.socket().display())
    }

    /// Runs `pactl` against it; its stdout when it succeeded.
    pub fn pactl(&self, args: &[&str]) -> Option<String> {
        let output = Command::new("pactl")
            .args(args)
            .env("PULSE_SERVER", self.server())
            .output()
            .ok()?;
        output
            .status
            .success()
            .then(|| String::from_utf8_lossy(&output.stdout).into_owned())
    }

    /// Adds a virtual microphone: a second null sink, `mic_sink`, whose monitor becomes
    /// the default source. What is played into it is what the microphone hears.
    pub fn add_microphone(&self) {
        self.pactl(&["load-module", "module-null-sink", "sink_name=mic_sink"])
            .unwrap_or_else(|| panic!("pactl: cannot load the microphone's null sink"));
        self.pactl(&["set-default-source", "mic_sink.monitor"])
            .unwrap_or_else(|| panic!("pactl: cannot make mic_sink.monitor the default source"));
    }

    /// Plays a WAV file into the virtual microphone (`paplay`); returns when it was played.
    pub fn say_into_microphone(&self, wav: &std::path::Path) -> bool {
        Command::new("paplay")
            .arg("--device=mic_sink")
            .arg(wav)
            .env("PULSE_SERVER", self.server())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    }

    /// The null sink's volume as `pactl` reports it, in percent.
    pub fn percent(&self) -> u32 {
        let text = self
            .pactl(&["get-sink-volume", "ci_sink"])
            .unwrap_or_default();
        text.split('/')
            .nth(1)
            .and_then(|p| p.trim().trim_end_matches('%').trim().parse().ok())
            .unwrap_or_else(|| panic!("no volume in {text:?}"))
    }
}

impl Drop for PulseServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
