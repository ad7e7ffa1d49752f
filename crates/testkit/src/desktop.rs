//! A private desktop session for notification and webview tests : a session
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
        // Xvfb picks a free display number itself and writes it to its stdout once it
        // listens (`-displayfd`), so sessions started at the same moment — by tests of
        // one process or of several — never share a display.
        let screen = format!("{width}x{height}x24");
        let mut xvfb = Command::new("Xvfb")
            .args(["-displayfd", "1", "-screen", "0", screen.as_str()])
            .args(["-nolisten", "tcp"])
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("Xvfb (apt install xvfb): {e}"));
        let mut line = String::new();
        if let Some(stdout) = xvfb.stdout.take() {
            let _ = std::io::BufRead::read_line(&mut std::io::BufReader::new(stdout), &mut line);
        }
        children.push(xvfb);
        let Ok(number) = line.trim().parse::<u32>() else {
            for child in children.iter_mut().rev() {
                let _ = child.kill();
                let _ = child.wait();
            }
            panic!("Xvfb did not say its display: {line:?}");
        };
        let display = format!(":{number}");
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

    /// Saves the whole screen as a PNG (`xwd` from x11-apps, converted here). This is
    /// what the X server shows: the app's real window, as a person would see it.
    /// (WebKitWebDriver's own screenshot command hangs with these WebKitGTK builds.)
    pub fn screenshot(&self, path: &Path) -> std::io::Result<()> {
        let output = Command::new("xwd")
            .args(["-root", "-silent", "-display", &self.display])
            .output()
            .map_err(|e| std::io::Error::other(format!("xwd (apt install x11-apps): {e}")))?;
        if !output.status.success() {
            return Err(std::io::Error::other(format!(
                "xwd: {}",
                String::from_utf8_lossy(&output.stderr).trim()
            )));
        }
        let (width, height, rgba) = xwd_to_rgba(&output.stdout)?;
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)?;
        }
        let file = std::fs::File::create(path)
            .map_err(|e| std::io::Error::new(e.kind(), format!("{}: {e}", path.display())))?;
        let mut encoder = png::Encoder::new(std::io::BufWriter::new(file), width, height);
        encoder.set_color(png::ColorType::Rgba);
        encoder.set_depth(png::BitDepth::Eight);
        encoder
            .write_header()
            .and_then(|mut writer| writer.write_image_data(&rgba))
            .map_err(|e| std::io::Error::other(format!("{}: {e}", path.display())))
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

/// An XWD dump (ZPixmap, 24 or 32 bits per pixel, true colour) as RGBA pixels.
fn xwd_to_rgba(data: &[u8]) -> std::io::Result<(u32, u32, Vec<u8>)> {
    let field = |i: usize| -> std::io::Result<u32> {
        data.get(i * 4..i * 4 + 4)
            .map(|b| u32::from_be_bytes([b[0], b[1], b[2], b[3]]))
            .ok_or_else(|| std::io::Error::other("xwd: short header"))
    };
    let header_size = field(0)? as usize;
    let (format, width, height) = (field(2)?, field(4)?, field(5)?);
    let (byte_order, bits_per_pixel, bytes_per_line) = (field(7)?, field(11)?, field(12)? as usize);
    let masks = [field(14)?, field(15)?, field(16)?];
    let colors = field(19)? as usize;
    if format != 2 || !(bits_per_pixel == 32 || bits_per_pixel == 24) {
        return Err(std::io::Error::other(format!(
            "xwd: format {format} at {bits_per_pixel} bpp is not supported"
        )));
    }
    let start = header_size + colors * 12;
    let step = bits_per_pixel as usize / 8;
    let mut rgba = Vec::with_capacity(width as usize * height as usize * 4);
    for y in 0..height as usize {
        for x in 0..width as usize {
            let at = start + y * bytes_per_line + x * step;
            let bytes = data
                .get(at..at + step)
                .ok_or_else(|| std::io::Error::other("xwd: short image"))?;
            let mut word = [0u8; 4];
            word[..step].copy_from_slice(bytes);
            let pixel = if byte_order == 0 {
                u32::from_le_bytes(word)
            } else {
                u32::from_be_bytes(word) >> (32 - bits_per_pixel)
            };
            for mask in masks {
                let shift = mask.trailing_zeros();
                rgba.push(((pixel & mask) >> shift) as u8);
            }
            rgba.push(255);
        }
    }
    Ok((width, height, rgba))
}

#[cfg(test)]
mod tests {
    use super::xwd_to_rgba;

    #[test]
    fn xwd_pixels_become_rgba() {
        // A 2×1 ZPixmap, 32 bpp, LSB first, red and blue pixels, no colours.
        let mut dump = Vec::new();
        let header: [u32; 25] = [
            100, 7, 2, 24, 2, 1, 0, 0, 32, 0, 32, 32, 8, 4, 0xff0000, 0xff00, 0xff, 8, 256, 0, 2,
            1, 0, 0, 0,
        ];
        for field in header {
            dump.extend_from_slice(&field.to_be_bytes());
        }
        dump.extend_from_slice(&0x00ff_0000u32.to_le_bytes());
        dump.extend_from_slice(&0x0000_00ffu32.to_le_bytes());
        let (w, h, rgba) = xwd_to_rgba(&dump).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!((w, h), (2, 1));
        assert_eq!(rgba, [255, 0, 0, 255, 0, 0, 255, 255]);
        assert!(xwd_to_rgba(&dump[..50]).is_err());
    }
}
