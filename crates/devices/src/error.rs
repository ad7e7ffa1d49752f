//! Why a device could not do what was asked. A detail is said in both languages where
//! Deskmate words it, and as the OS said it otherwise.

use deskmate_core::Localized;

/// A device failure, mapped to the tool contract's error types by the tools.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum DeviceError {
    /// No such device (no camera, no sound server, no notification server).
    #[error("{what} not found: {detail}")]
    NotFound {
        /// Which device.
        what: &'static str,
        /// What the OS said and how to fix it.
        detail: Localized,
    },
    /// The device exists but is in use or not answering now.
    #[error("{what} is busy: {detail}")]
    Busy {
        /// Which device.
        what: &'static str,
        /// What the OS said.
        detail: Localized,
    },
    /// This backend has no implementation on this OS.
    #[error("{what} is unsupported on this OS ({os})")]
    Unsupported {
        /// Which device.
        what: &'static str,
        /// The OS.
        os: &'static str,
    },
    /// Anything else the OS reported.
    #[error("{what} failed: {detail}")]
    Failed {
        /// Which device.
        what: &'static str,
        /// What the OS said.
        detail: Localized,
    },
}

impl DeviceError {
    /// The failure in Chinese: what failed and how, then the detail (in Chinese where
    /// Deskmate words it, as the OS said it otherwise).
    pub fn zh(&self) -> String {
        let (what, kind, detail) = match self {
            Self::NotFound { what, detail } => (*what, "未找到", detail),
            Self::Busy { what, detail } => (*what, "正忙", detail),
            Self::Unsupported { what, os } => {
                return format!("{}在此系统（{os}）上不受支持", device_zh(what));
            }
            Self::Failed { what, detail } => (*what, "出错", detail),
        };
        if detail.zh == detail.en {
            // The OS's own words are quoted, as they are.
            format!("{}{kind}：“{}”", device_zh(what), detail.zh)
        } else {
            format!("{}{kind}：{}", device_zh(what), detail.zh)
        }
    }
}

/// A device's name in Chinese, as the errors name it.
fn device_zh(what: &str) -> &str {
    match what {
        "camera" => "摄像头",
        "camera stream" => "摄像头画面",
        "default output" | "audio output" => "音频输出",
        "microphone" => "麦克风",
        "speech recognition" => "语音识别",
        "text-to-speech" => "语音合成",
        "volume control" => "音量控制",
        "sound server" => "声音服务",
        "notification server" => "通知服务",
        other => other,
    }
}
