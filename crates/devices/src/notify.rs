//! Desktop notifications: a trait, the notify-rust backend (the freedesktop notification
//! server on Linux, the OS's own elsewhere) and a simulated one.

use std::sync::Mutex;

use deskmate_core::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::error::DeviceError;

/// How urgent a notice is: low, normal (the default) or critical (stays until dismissed
/// on most servers). (No doc comments on the variants: in the `text_msg_prompt` schema
/// derived from this type they would turn the enum of names into described constants.)
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Urgency {
    Low,
    #[default]
    Normal,
    Critical,
}

/// A notice to show.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Notice {
    /// Its title.
    pub title: String,
    /// Its text.
    pub body: String,
    /// How urgent.
    pub urgency: Urgency,
}

/// A shown notice.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Shown {
    /// The server's id for it.
    pub id: u32,
    /// The notification server's name.
    pub server: String,
}

/// Shows desktop notifications.
pub trait Notifier: Send + Sync + std::fmt::Debug {
    /// Shows one.
    fn notify(&self, notice: &Notice) -> Result<Shown, DeviceError>;
    /// The notification server's name, if one is running.
    fn probe(&self) -> Result<String, DeviceError>;
}

/// Notices kept in memory.
#[derive(Debug, Default)]
pub struct SimulatedNotifier {
    shown: Mutex<Vec<Notice>>,
}

impl SimulatedNotifier {
    /// What was shown so far.
    pub fn shown(&self) -> Vec<Notice> {
        self.shown
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clone()
    }
}

impl Notifier for SimulatedNotifier {
    fn notify(&self, notice: &Notice) -> Result<Shown, DeviceError> {
        let mut shown = self
            .shown
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        shown.push(notice.clone());
        Ok(Shown {
            id: u32::try_from(shown.len()).unwrap_or(u32::MAX),
            server: "simulated".into(),
        })
    }

    fn probe(&self) -> Result<String, DeviceError> {
        Ok("simulated".into())
    }
}

/// notify-rust: the session's notification server.
#[derive(Debug, Default)]
pub struct DesktopNotifier;

const WHAT: &str = "notification server";

#[cfg(all(unix, not(target_os = "macos")))]
impl Notifier for DesktopNotifier {
    fn notify(&self, notice: &Notice) -> Result<Shown, DeviceError> {
        // Ask first: sending to a bus where nobody serves notifications makes D-Bus try
        // to start a server, which fails slowly or crashes without a display.
        let server = self.probe()?;
        let urgency = match notice.urgency {
            Urgency::Low => notify_rust::Urgency::Low,
            Urgency::Normal => notify_rust::Urgency::Normal,
            Urgency::Critical => notify_rust::Urgency::Critical,
        };
        let handle = notify_rust::Notification::new()
            .appname("Deskmate")
            .summary(&notice.title)
            .body(&notice.body)
            .urgency(urgency)
            .show()
            .map_err(|e| DeviceError::Failed {
                what: WHAT,
                detail: e.to_string().into(),
            })?;
        Ok(Shown {
            id: handle.id(),
            server,
        })
    }

    fn probe(&self) -> Result<String, DeviceError> {
        if std::env::var_os("DBUS_SESSION_BUS_ADDRESS").is_none()
            && std::env::var_os("XDG_RUNTIME_DIR").is_none()
        {
            return Err(DeviceError::NotFound {
                what: WHAT,
                detail: "no D-Bus session (DBUS_SESSION_BUS_ADDRESS is not set)".into(),
            });
        }
        notify_rust::get_server_information()
            .map(|info| info.name)
            .map_err(|e| DeviceError::NotFound {
                what: WHAT,
                detail: format!("{e}; is a notification daemon (dunst, the desktop's) running?")
                    .into(),
            })
    }
}

#[cfg(any(windows, target_os = "macos"))]
impl Notifier for DesktopNotifier {
    fn notify(&self, notice: &Notice) -> Result<Shown, DeviceError> {
        notify_rust::Notification::new()
            .summary(&notice.title)
            .body(&notice.body)
            .show()
            .map_err(|e| DeviceError::Failed {
                what: WHAT,
                detail: e.to_string(),
            })?;
        Ok(Shown {
            id: 0,
            server: std::env::consts::OS.into(),
        })
    }

    fn probe(&self) -> Result<String, DeviceError> {
        Ok(std::env::consts::OS.into())
    }
}
