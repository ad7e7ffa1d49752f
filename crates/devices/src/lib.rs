//! Devices for Deskmate's system tools, each behind a trait with a real backend and a
//! simulated one: [`mixer::Mixer`] (PulseAudio on Linux), [`speaker::Speaker`],
//! [`microphone::Microphone`], [`notify::Notifier`], [`camera::Camera`]. [`Backends`]
//! bundles one of each;
//! [`system_tools`] builds the system tools on them, in the order they are listed.
//!
//! **Only this crate calls OS audio, camera and notification APIs.**

pub mod answer;
pub mod camera;
pub mod camera_tools;
pub mod choice;
pub mod device_state;
pub mod error;
pub mod mandarin;
pub mod message;
pub mod microphone;
pub mod mixer;
pub mod notify;
pub mod push_to_talk;
pub mod readiness;
pub mod speaker;
pub mod voice;
pub mod voice_choice;
pub mod volume;
pub mod wake;

use std::sync::Arc;

use deskmate_core::Localized;
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
    /// The camera.
    pub camera: Arc<dyn camera::Camera>,
    /// Hears spoken answers.
    pub microphone: Arc<dyn microphone::Microphone>,
    /// Understands them (provided once the service that knows the ASR models is open).
    pub transcriber: microphone::TranscriberSlot,
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
            camera: Arc::new(camera::NokhwaCamera::default()),
            microphone: Arc::new(microphone::SystemMicrophone),
            transcriber: microphone::TranscriberSlot::default(),
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
            camera: Arc::new(camera::SimulatedCamera::default()),
            microphone: Arc::new(microphone::SimulatedMicrophone::default()),
            transcriber: microphone::TranscriberSlot::default(),
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

/// One device's readiness (the autotest shows one check per device).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Readiness {
    /// The device (`Mixer`, `Notifications`, …).
    pub device: String,
    /// Whether it can be used now.
    pub ready: bool,
    /// What was found, or what is missing and how to fix it.
    pub message: Localized,
}

impl Backends {
    /// The devices [`Backends::probe`] reports on, in its order.
    pub fn probed_devices(&self) -> Vec<String> {
        let mut devices: Vec<String> =
            ["Mixer", "Speaker", "Microphone", "Notifications", "Camera"]
                .into_iter()
                .map(String::from)
                .collect();
        if self.chooser.is_some() {
            devices.push("Choice dialogs".into());
        }
        devices
    }

    /// Asks every backend whether it works here and now (blocking: a few OS calls).
    pub fn probe(&self) -> Vec<Readiness> {
        let check = |device: &str, outcome: Result<Localized, DeviceError>| Readiness {
            device: device.into(),
            ready: outcome.is_ok(),
            message: outcome.unwrap_or_else(|e| readiness::explain(device, &e)),
        };
        let mut found = vec![
            check("Mixer", readiness::mixer(self.mixer.as_ref())),
            check("Speaker", readiness::speaker(self.speaker.as_ref())),
            check(
                "Microphone",
                readiness::microphone(self.microphone.as_ref()),
            ),
            check(
                "Notifications",
                readiness::notifications(self.notifier.as_ref()),
            ),
            check("Camera", readiness::camera(self.camera.as_ref())),
        ];
        // Only a process with a window or a server can answer choice questions at all.
        if self.chooser.is_some() {
            found.push(check("Choice dialogs", Ok(readiness::choice_dialogs())));
        }
        found
    }
}

/// The system tools on these backends.
pub fn system_tools(backends: &Backends) -> Vec<Arc<dyn Tool>> {
    vec![
        Arc::new(camera_tools::turn_on_camera(backends.camera.clone())),
        Arc::new(camera_tools::turn_off_camera(backends.camera.clone())),
        Arc::new(device_state::camera_status(backends.camera.clone())),
        Arc::new(volume::increase_volume(backends.mixer.clone())),
        Arc::new(volume::decrease_volume(backends.mixer.clone())),
        Arc::new(device_state::get_volume(backends.mixer.clone())),
        Arc::new(voice::voice_msg_prompt(backends.speaker.clone())),
        Arc::new(message::text_msg_prompt(
            backends.notifier.clone(),
            backends.in_app.clone(),
        )),
        Arc::new(choice::text_choice_prompt(backends.chooser.clone())),
        Arc::new(voice_choice::voice_choice_prompt(voice_choice::Ears {
            speaker: backends.speaker.clone(),
            microphone: backends.microphone.clone(),
            transcriber: backends.transcriber.clone(),
            chooser: backends.chooser.clone(),
        })),
    ]
}

#[cfg(test)]
mod tests {
    #[test]
    fn probed_devices_name_what_probe_reports() {
        let mut backends = Backends::simulated();
        for chooser in [false, true] {
            backends.chooser = chooser.then(|| {
                let chooser: Arc<dyn choice::Chooser> = Arc::new(choice::NoChooser);
                chooser
            });
            let probed: Vec<String> = backends.probe().into_iter().map(|r| r.device).collect();
            assert_eq!(probed, backends.probed_devices(), "chooser: {chooser}");
        }
    }

    use super::*;

    /// Every device tool keeps the contract and speaks to a person in both languages.
    #[test]
    fn device_tools_pass_the_lints() {
        let tools = system_tools(&Backends::simulated());
        assert!(tools.len() >= 8, "{}", tools.len());
        for tool in &tools {
            let spec = tool.spec();
            let mut problems = deskmate_core::lint_spec(spec);
            problems.extend(deskmate_core::lint_people_text(spec));
            assert!(problems.is_empty(), "{problems:#?}");
        }
    }

    /// A device tool's worked examples call it, and each call to a device tool is one
    /// its guard lets through as written (a call to another crate's tool is checked with
    /// every tool in the service's contract test).
    #[test]
    fn device_examples_call_their_tool_with_arguments_the_guard_accepts() {
        let tools = system_tools(&Backends::simulated());
        let guard = deskmate_core::Guard::new(tools.iter().map(|t| t.spec().clone()))
            .unwrap_or_else(|e| panic!("{e}"));
        let mut seen = 0;
        for tool in &tools {
            let id = &tool.spec().id;
            for example in tool.examples() {
                assert!(example.tools().any(|t| t == id), "{id}: {example:?}");
                for (called, arguments) in example.calls {
                    if guard.spec(called).is_none() {
                        continue;
                    }
                    let arguments: serde_json::Value = serde_json::from_str(arguments)
                        .unwrap_or_else(|e| panic!("{called} {arguments}: {e}"));
                    let prepared = guard
                        .prepare(called, arguments)
                        .unwrap_or_else(|e| panic!("{called}: {:?}", e.error));
                    // Written as the model should write it: nothing to fix, only defaults to fill.
                    let fixed: Vec<_> = prepared
                        .repairs
                        .iter()
                        .filter(|r| r.rule != deskmate_core::RepairRule::DefaultValue)
                        .collect();
                    assert!(fixed.is_empty(), "{called}: {fixed:?}");
                    seen += 1;
                }
            }
        }
        assert!(seen >= 3, "{seen} example calls");
    }

    #[test]
    fn simulated_devices_are_ready() {
        let probed = Backends::simulated().probe();
        assert_eq!(
            probed
                .iter()
                .map(|r| (r.device.as_str(), r.ready))
                .collect::<Vec<_>>(),
            [
                ("Mixer", true),
                ("Speaker", true),
                ("Microphone", true),
                ("Notifications", true),
                ("Camera", true)
            ]
        );
        assert_eq!(
            probed[0].message.en,
            "default output simulated-output at 50%"
        );
        assert_eq!(probed[0].message.zh, "默认输出“simulated-output”，音量 50%");
    }
}
