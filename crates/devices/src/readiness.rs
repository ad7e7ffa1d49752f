//! Each device's readiness, asked without using it (no sound, no notification, no frame),
//! and the device tools' self-checks built on it: a tool that changes something is never
//! run by the autotest, so its check is whether the device it needs is ready.

use deskmate_core::{Localized, said};
use deskmate_tools::SelfCheck;

use crate::DeviceError;
use crate::camera::Camera;
use crate::microphone::Microphone;
use crate::mixer::Mixer;
use crate::notify::Notifier;
use crate::speaker::Speaker;

/// The output volume can be read.
pub fn mixer(mixer: &dyn Mixer) -> Result<Localized, DeviceError> {
    mixer.volume().map(|v| {
        let (device, percent) = (v.device, v.percent);
        said!(
            "默认输出“{device}”，音量 {percent}%",
            "default output {device} at {percent}%"
        )
    })
}

/// A camera is connected.
pub fn camera(camera: &dyn Camera) -> Result<Localized, DeviceError> {
    let cameras = camera.list()?;
    match cameras.first() {
        Some(first) => {
            let (count, name) = (cameras.len(), &first.name);
            Ok(said!(
                "{count} 个摄像头；第一个：“{name}”",
                "{count} camera(s); first: {name}"
            ))
        }
        None => Err(DeviceError::NotFound {
            what: "camera",
            detail: said!("没有连接摄像头", "no camera is connected"),
        }),
    }
}

/// The speaker can speak: the speech engine and the output device.
pub fn speaker(speaker: &dyn Speaker) -> Result<Localized, DeviceError> {
    speaker
        .probe()
        .map(|found| said!("可以朗读：“{found}”", "can speak: {found}"))
}

/// The microphone can be opened: its name.
pub fn microphone(microphone: &dyn Microphone) -> Result<Localized, DeviceError> {
    microphone
        .probe()
        .map(|name| said!("默认输入：“{name}”", "default input: {name}"))
}

/// A notification server answers: its name.
pub fn notifications(notifier: &dyn Notifier) -> Result<Localized, DeviceError> {
    notifier
        .probe()
        .map(|name| said!("通知服务：“{name}”", "notification server: {name}"))
}

/// Choice questions can be answered here (a window or a server runs).
pub fn choice_dialogs() -> Localized {
    said!(
        "可以在应用中回答，或通过 POST /api/v1/prompts/{{id}}/answer 回答",
        "answered in the app or with POST /api/v1/prompts/{{id}}/answer"
    )
}

/// A device's name as the autotest shows it.
pub fn device_name(device: &str) -> Localized {
    let zh = match device {
        "Camera" => "摄像头",
        "Mixer" => "音量控制",
        "Speaker" => "扬声器",
        "Microphone" => "麦克风",
        "Notifications" => "通知",
        "Choice dialogs" => "选择对话框",
        other => other,
    };
    Localized::new(zh, device)
}

/// What to do when a device is not ready, for the people who read the autotest.
pub fn next_step(device: &str) -> Localized {
    match device {
        "Camera" => said!(
            "连接一个摄像头，或在“工具”页面停用摄像头工具",
            "connect a camera, or disable the camera tools in Tools"
        ),
        "Mixer" | "Speaker" => said!(
            "启动带输出设备的声音服务（PulseAudio 或 PipeWire），或停用用到它的工具",
            "start the sound server (PulseAudio or PipeWire) with an output device, or disable the tools that use it"
        ),
        "Microphone" => said!(
            "连接一个麦克风，并检查声音服务的默认输入",
            "connect a microphone and check the sound server's default input"
        ),
        "Notifications" => said!(
            "运行一个通知服务（桌面自带的，或 dunst）",
            "run a notification server (the desktop's, or dunst)"
        ),
        _ => said!("检查该设备及其驱动", "check the device and its driver"),
    }
}

/// A probe's failure with its next step.
pub fn explain(device: &str, error: &DeviceError) -> Localized {
    let next = next_step(device);
    let zh = error.zh();
    Localized::new(
        format!("{zh} — {}", next.zh),
        format!("{error} — {}", next.en),
    )
}

/// The self-check of a tool that uses `device`: `probe` answers, the tool is not run.
pub(crate) fn self_check(
    device: &'static str,
    probe: impl FnOnce() -> Result<Localized, DeviceError> + Send + 'static,
) -> SelfCheck {
    SelfCheck::device(device, move || {
        let name = device_name(device);
        let named = |text: Localized| Localized {
            zh: format!("{}：{}", name.zh, text.zh),
            en: format!("{}: {}", name.en, text.en),
        };
        probe().map(named).map_err(|e| named(explain(device, &e)))
    })
}
