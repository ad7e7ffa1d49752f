//! Each device's readiness, asked without using it (no sound, no notification, no frame),
//! and the device tools' self-checks built on it: a tool that changes something is never
//! run by the autotest, so its check is whether the device it needs is ready.

use deskmate_tools::SelfCheck;

use crate::DeviceError;
use crate::camera::Camera;
use crate::mixer::Mixer;

/// The output volume can be read.
pub fn mixer(mixer: &dyn Mixer) -> Result<String, DeviceError> {
    mixer
        .volume()
        .map(|v| format!("default output {} at {}%", v.device, v.percent))
}

/// A camera is connected.
pub fn camera(camera: &dyn Camera) -> Result<String, DeviceError> {
    let cameras = camera.list()?;
    match cameras.first() {
        Some(first) => Ok(format!(
            "{} camera(s); first: {}",
            cameras.len(),
            first.name
        )),
        None => Err(DeviceError::NotFound {
            what: "camera",
            detail: "no camera is connected".into(),
        }),
    }
}

/// What to do when a device is not ready, for the people who read the autotest.
pub fn next_step(device: &str) -> &'static str {
    match device {
        "Camera" => "connect a camera, or disable the camera tools in Tools",
        "Mixer" | "Speaker" => {
            "start the sound server (PulseAudio or PipeWire) with an output device, or disable the tools that use it"
        }
        "Microphone" => "connect a microphone and check the sound server's default input",
        "Notifications" => "run a notification server (the desktop's, or dunst)",
        _ => "check the device and its driver",
    }
}

/// A probe's failure with its next step.
pub fn explain(device: &str, error: &DeviceError) -> String {
    format!("{error} — {}", next_step(device))
}

/// The self-check of a tool that uses `device`: `probe` answers, the tool is not run.
pub(crate) fn self_check(
    device: &'static str,
    probe: impl FnOnce() -> Result<String, DeviceError> + Send + 'static,
) -> SelfCheck {
    SelfCheck::device(device, move || {
        probe()
            .map(|found| format!("{device}: {found}"))
            .map_err(|e| format!("{device}: {}", explain(device, &e)))
    })
}
