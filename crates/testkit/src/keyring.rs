//! A real Secret Service for tests: a private session D-Bus with `gnome-keyring-daemon`
//! unlocked by a test password (its login collection created on first use), and the same
//! bus without any keyring daemon for the fallback.

use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A private session bus, with or without an unlocked gnome-keyring on it; every process
/// is stopped on drop (the keyring daemon leaves with its bus).
#[derive(Debug)]
pub struct KeyringSession {
    bus: Child,
    runtime: tempfile::TempDir,
}

impl KeyringSession {
    /// A bus with gnome-keyring's Secret Service, unlocked with a test password.
    pub fn start() -> Self {
        let session = Self::bus_only();
        let data = session.runtime.path().join("data");
        std::fs::create_dir_all(&data).unwrap_or_else(|e| panic!("{e}"));
        let mut daemon = Command::new("gnome-keyring-daemon")
            .args(["--unlock", "--components=secrets"])
            .env("DBUS_SESSION_BUS_ADDRESS", session.bus_address())
            .env("XDG_DATA_HOME", &data)
            .env("XDG_RUNTIME_DIR", session.runtime.path())
            .env("HOME", session.runtime.path())
            // Without a display a prompt fails at once instead of waiting for a person.
            .env_remove("DISPLAY")
            .env_remove("WAYLAND_DISPLAY")
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| {
                panic!(
                    "gnome-keyring-daemon (apt install gnome-keyring; scripts/setup.sh does): {e}"
                )
            });
        if let Some(mut stdin) = daemon.stdin.take() {
            use std::io::Write;
            let _ = stdin.write_all(b"deskmate-test-password");
        }
        // `--unlock` forks the daemon and returns; it owns the name a moment later.
        let _ = daemon.wait();
        let started = Instant::now();
        while !session.has_owner("org.freedesktop.secrets") {
            assert!(
                started.elapsed() < Duration::from_secs(20),
                "gnome-keyring-daemon did not take org.freedesktop.secrets"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        session
    }

    /// A bus on which no Secret Service runs (nothing starts one: no service files).
    pub fn bus_only() -> Self {
        let runtime = tempfile::tempdir().unwrap_or_else(|e| panic!("runtime dir: {e}"));
        let path = runtime.path().join("bus");
        // A session bus configuration without the system's service directories, so that
        // nothing is started on demand (the fallback test needs a bus with no keyring).
        let config = runtime.path().join("session.conf");
        std::fs::write(
            &config,
            format!(
                "<!DOCTYPE busconfig PUBLIC \"-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN\" \
                 \"http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd\">\n\
                 <busconfig><type>session</type><listen>unix:path={}</listen>\
                 <policy context=\"default\"><allow send_destination=\"*\" eavesdrop=\"true\"/>\
                 <allow eavesdrop=\"true\"/><allow own=\"*\"/></policy></busconfig>\n",
                path.display()
            ),
        )
        .unwrap_or_else(|e| panic!("{e}"));
        let bus = Command::new("dbus-daemon")
            .arg(format!("--config-file={}", config.display()))
            .args(["--nofork", "--nopidfile"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("dbus-daemon (apt install dbus): {e}"));
        let started = Instant::now();
        while !path.exists() {
            assert!(
                started.elapsed() < Duration::from_secs(20),
                "dbus-daemon did not start"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
        Self { bus, runtime }
    }

    /// The value for `DBUS_SESSION_BUS_ADDRESS`.
    pub fn bus_address(&self) -> String {
        format!("unix:path={}", self.runtime.path().join("bus").display())
    }

    /// Whether a name has an owner on the bus.
    pub fn has_owner(&self, name: &str) -> bool {
        Command::new("dbus-send")
            .args([
                "--session",
                "--print-reply",
                "--dest=org.freedesktop.DBus",
                "/org/freedesktop/DBus",
                "org.freedesktop.DBus.NameHasOwner",
            ])
            .arg(format!("string:{name}"))
            .env("DBUS_SESSION_BUS_ADDRESS", self.bus_address())
            .output()
            .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).contains("boolean true"))
    }

    /// The Secret Service items whose attributes match (`service`, …): their object
    /// paths, found with `gdbus` (what another program on the desktop would see).
    pub fn items(&self, attributes: &[(&str, &str)]) -> Vec<String> {
        let wanted = attributes
            .iter()
            .map(|(k, v)| format!("'{k}': '{v}'"))
            .collect::<Vec<_>>()
            .join(", ");
        let output = Command::new("gdbus")
            .args([
                "call",
                "--session",
                "--dest",
                "org.freedesktop.secrets",
                "--object-path",
                "/org/freedesktop/secrets",
                "--method",
                "org.freedesktop.Secret.Service.SearchItems",
            ])
            .arg(format!("{{{wanted}}}"))
            .env("DBUS_SESSION_BUS_ADDRESS", self.bus_address())
            .output()
            .unwrap_or_else(|e| panic!("gdbus (apt install libglib2.0-bin): {e}"));
        String::from_utf8_lossy(&output.stdout)
            .split('\'')
            .filter(|part| part.starts_with("/org/freedesktop/secrets/collection/"))
            .map(str::to_string)
            .collect()
    }
}

impl Drop for KeyringSession {
    fn drop(&mut self) {
        let _ = self.bus.kill();
        let _ = self.bus.wait();
    }
}
