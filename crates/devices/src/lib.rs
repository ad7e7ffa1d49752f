//! Devices for Deskmate's system tools, each behind a trait with a real backend and a
//! simulated one: [`mixer::Mixer`] (PulseAudio on Linux). [`Backends`] bundles one of each;
//! [`system_tools`] builds the system tools on them, in the order they are listed.
//!
//! **Only this crate calls OS audio, camera and notification APIs.**

pub mod choice;
pub mod error;
pub mod message;
pub mod mixer;
pub mod notify;
pub mod speaker;
pub mod voice;
pub mod volume;

use std::sync::Arc;

use deskmate_tools::Tool;

pub use error::DeviceError;

/// The device backends the system tools use.
#[derive(Debug, Clone)]
pub struct Backends {
    /// The output volume.
    pub mixer: Arc<dyn mixer::Mixer>,
    /// Desktop notifications.
    pub notifier: Arc<dyn notify::Notifier>,
    /// Messages for the app's own window.
    pub in_app: tokio::sync::broadcast::Sender<message::InAppMessage>,
    /// Speech.
    pub speaker: Arc<dyn speaker::Speaker>,
    /// Who answers choice questions (none: a one-off command nobody watches).
    pub chooser: Option<Arc<dyn choice::Chooser>>,
}

impl Backends {
    /// This computer's devices.
    pub fn system() -> Self {
        Self {
            mixer: system_mixer(),
            notifier: Arc::new(notify::DesktopNotifier),
            in_app: tokio::sync::broadcast::channel(32).0,
            speaker: Arc::new(speaker::SystemSpeaker),
            chooser: None,
        }
    }

    /// In-memory devices: evaluations and tests never touch the real ones.
    pub fn simulated() -> Self {
        Self {
            mixer: Arc::new(mixer::SimulatedMixer::new(50)),
            notifier: Arc::new(notify::SimulatedNotifier::default()),
            in_app: tokio::sync::broadcast::channel(32).0,
            speaker: Arc::new(speaker::SimulatedSpeaker::default()),
            chooser: None,
        }
    }
}

#[cfg(target_os = "linux")]
fn system_mixer() -> Arc<dyn mixer::Mixer> {
    Arc::new(mixer::PulseMixer::new())
}

#[cfg(not(target_os = "linux"))]
fn system_mixer() -> Arc<dyn mixer::Mixer> {
    Arc::new(mixer::UnsupportedMixer)
}

/// The system tools on these backends.
pub fn system_tools(backends: &Backends) -> Vec<Arc<dyn Tool>> {
    vec![
        Arc::new(volume::increase_volume(backends.mixer.clone())),
        Arc::new(volume::decrease_volume(backends.mixer.clone())),
        Arc::new(voice::voice_msg_prompt(backends.speaker.clone())),
        Arc::new(message::text_msg_prompt(
            backends.notifier.clone(),
            backends.in_app.clone(),
        )),
        Arc::new(choice::text_choice_prompt(backends.chooser.clone())),
    ]
}
