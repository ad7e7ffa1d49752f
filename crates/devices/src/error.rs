//! Why a device could not do what was asked.

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
        detail: String,
    },
    /// The device exists but is in use or not answering now.
    #[error("{what} is busy: {detail}")]
    Busy {
        /// Which device.
        what: &'static str,
        /// What the OS said.
        detail: String,
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
        detail: String,
    },
}
