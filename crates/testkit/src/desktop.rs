//! A private desktop session for notification and webview tests (PLATFORM.md's recipe): a session
//! D-Bus, Xvfb, and dunst as the notification server; `dunstctl history` is the oracle.

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

/// The running session; every process is killed on drop.
#[derive(Debug)]
pub struct DesktopSession {
    children: Vec<Child>,
    runtime: tempfile::TempDir,
    display: String,
}

fn spawn(command: &mut Command, what: &str) -> Child {
    command
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("{what} (apt install dbus xvfb dunst libnotify-bin): {e}"))
}

impl DesktopSession {
    /// Starts D-Bus, Xvfb (640×480) and dunst.
    pub fn start() -> Self {
        Self::start_sized(640, 480)
    }

    /// Starts D-Bus, Xvfb with a screen of this size, and dunst.
    pub fn start_sized(width: u32, height: u32) -> Self {
        let runtime = tempfile::tempdir().unwrap_or_else(|e| panic!("runtime dir: {e}"));
        let bus = runtime.path().join("bus");
        let mut children = vec![spawn(
            Command::new("dbus-daemon")
                .args(["--session", "--nofork", "--nopidfile"])
                .arg(format!("--address=unix:path={}", bus.display())),
            "dbus-daemon",
        )];
        let number = (90..190)
            .map(|n| n + std::process::id() % 50)
            .find(|n| {
                !Path::new(&format!("/tmp/.X11-unix/X{n}")).exists()
                    && !Path::new(&format!("/tmp/.X{n}-lock")).exists()
            })
            .unwrap_or(199);
        let display = format!(":{number}");
        let screen = format!("{width}x{height}x24");
        children.push(spawn(
            Command::new("Xvfb").args([
                display.as_str(),
                "-screen",
                "0",
                screen.as_str(),
                "-nolisten",
                "tcp",
            ]),
            "Xvfb",
        ));
        let mut session = Self {
            children,
            runtime,
            display,
        };
        session.wait_for(
            || Path::new(&format!("/tmp/.X11-unix/X{number}")).exists() && bus.exists(),
            "Xvfb and D-Bus",
        );
        let dunst = spawn(
            Command::new("dunst")
                .env("DISPLAY", &session.display)
                .env("DBUS_SESSION_BUS_ADDRESS", session.bus_address())
                .env("XDG_RUNTIME_DIR", session.runtime.path())
                .env("HOME", session.runtime.path()),
            "dunst",
        );
        session.children.push(dunst);
        session.wait_for(|| session.dunstctl(&["is-paused"]).is_some(), "dunst");
        session
    }

    fn wait_for(&self, ready: impl Fn() -> bool, what: &str) {
        let started = Instant::now();
        while !ready() {
            assert!(
                started.elapsed() < Duration::from_secs(20),
                "{what} did not start"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// The value for `DBUS_SESSION_BUS_ADDRESS`.
    pub fn bus_address(&self) -> String {
        format!("unix:path={}", self.runtime.path().join("bus").display())
    }

    /// The session's runtime dir (for `XDG_RUNTIME_DIR`).
    pub fn runtime_dir(&self) -> &Path {
        self.runtime.path()
    }

    /// The X display (`:93`).
    pub fn display(&self) -> &str {
        &self.display
    }

    /// Runs `dunstctl` in the session; its stdout when it succeeded.
    pub fn dunstctl(&self, args: &[&str]) -> Option<String> {
        let output = Command::new("dunstctl")
            .args(args)
            .env("DBUS_SESSION_BUS_ADDRESS", self.bus_address())
            .output()
            .ok()?;
        output
            .status
            .success()
            .then(|| String::from_utf8_lossy(&output.stdout).into_owned())
    }

    /// (summary, body) of every notification dunst received (it closes them first, so
    /// they move to its history).
    pub fn notifications(&self) -> Vec<(String, String)> {
        let _ = self.dunstctl(&["close-all"]);
        std::thread::sleep(Duration::from_millis(200));
        let history: Value = self
            .dunstctl(&["history"])
            .and_then(|text| serde_json::from_str(&text).ok())
            .unwrap_or(Value::Null);
        let field = |n: &Value, key: &str| n[key]["data"].as_str().unwrap_or_default().to_string();
        history["data"]
            .as_array()
            .and_then(|groups| groups.first())
            .and_then(Value::as_array)
            .map(|items| {
                items
                    .iter()
                    .map(|n| (field(n, "summary"), field(n, "body")))
                    .collect()
            })
            .unwrap_or_default()
    }
}

impl Drop for DesktopSession {
    fn drop(&mut self) {
        for child in self.children.iter_mut().rev() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}
