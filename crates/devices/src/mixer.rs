//! The output volume: a trait, the PulseAudio backend (works with PipeWire's pulse server
//! too) and a simulated one for tests and evaluations.

use std::sync::Mutex;

use serde::Serialize;

use crate::error::DeviceError;

/// The default output's volume.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct VolumeState {
    /// Percent of normal (100 = unamplified).
    pub percent: u32,
    /// The output device's name.
    pub device: String,
    /// Whether it is muted.
    pub muted: bool,
}

/// Reads and sets the default output's volume.
pub trait Mixer: Send + Sync + std::fmt::Debug {
    /// The volume now.
    fn volume(&self) -> Result<VolumeState, DeviceError>;
    /// Sets every channel to `percent`; returns the volume as the server now reports it.
    fn set_volume(&self, percent: u32) -> Result<VolumeState, DeviceError>;
}

/// A mixer in memory.
#[derive(Debug)]
pub struct SimulatedMixer {
    state: Mutex<VolumeState>,
}

impl SimulatedMixer {
    /// A simulated output at `percent`.
    pub fn new(percent: u32) -> Self {
        Self {
            state: Mutex::new(VolumeState {
                percent,
                device: "simulated-output".into(),
                muted: false,
            }),
        }
    }
}

impl Mixer for SimulatedMixer {
    fn volume(&self) -> Result<VolumeState, DeviceError> {
        Ok(self
            .state
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clone())
    }

    fn set_volume(&self, percent: u32) -> Result<VolumeState, DeviceError> {
        let mut state = self
            .state
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        state.percent = percent;
        Ok(state.clone())
    }
}

/// A mixer for an OS without a backend: every call says so.
#[derive(Debug, Default)]
pub struct UnsupportedMixer;

impl Mixer for UnsupportedMixer {
    fn volume(&self) -> Result<VolumeState, DeviceError> {
        Err(DeviceError::Unsupported {
            what: "volume control",
            os: std::env::consts::OS,
        })
    }

    fn set_volume(&self, _percent: u32) -> Result<VolumeState, DeviceError> {
        self.volume()
    }
}

#[cfg(target_os = "linux")]
pub use pulse::PulseMixer;

#[cfg(target_os = "linux")]
mod pulse {
    use std::sync::{Arc, Mutex};
    use std::time::{Duration, Instant};

    use libpulse_binding as pa;
    use pa::context::introspect::SinkInfo;
    use pa::context::{Context, FlagSet, State};
    use pa::mainloop::threaded::Mainloop;
    use pa::operation::{Operation, State as OpState};
    use pa::volume::{ChannelVolumes, Volume};

    use super::{Mixer, VolumeState};
    use crate::error::DeviceError;

    const WHAT: &str = "sound server";
    const TIMEOUT: Duration = Duration::from_secs(3);

    /// The PulseAudio mixer of the default sink: of the user's session (or
    /// `PULSE_SERVER`), or of the server given.
    #[derive(Debug, Default, Clone)]
    pub struct PulseMixer {
        server: Option<String>,
    }

    impl PulseMixer {
        /// The session's server.
        pub fn new() -> Self {
            Self::default()
        }

        /// A given server (`unix:/run/user/1000/pulse/native`).
        pub fn with_server(server: impl Into<String>) -> Self {
            Self {
                server: Some(server.into()),
            }
        }
    }

    fn failed(detail: impl Into<deskmate_core::Localized>) -> DeviceError {
        DeviceError::Failed {
            what: WHAT,
            detail: detail.into(),
        }
    }

    /// A connected context on a running threaded mainloop; disconnects on drop.
    struct Session {
        mainloop: Mainloop,
        context: Context,
    }

    impl Session {
        fn connect(server: Option<&str>) -> Result<Self, DeviceError> {
            let mut mainloop = Mainloop::new().ok_or_else(|| failed("cannot create a mainloop"))?;
            let mut context = Context::new(&mainloop, "deskmate")
                .ok_or_else(|| failed("cannot create a context"))?;
            context
                .connect(server, FlagSet::NOAUTOSPAWN, None)
                .map_err(|e| DeviceError::NotFound {
                    what: WHAT,
                    detail: format!("{e}; is PulseAudio (or PipeWire's pulse server) running?")
                        .into(),
                })?;
            mainloop.start().map_err(|e| {
                failed(
                    e.to_string()
                        .unwrap_or_else(|| "cannot start the mainloop".into()),
                )
            })?;
            let mut session = Self { mainloop, context };
            let started = Instant::now();
            loop {
                session.mainloop.lock();
                let state = session.context.get_state();
                session.mainloop.unlock();
                match state {
                    State::Ready => return Ok(session),
                    State::Failed | State::Terminated => {
                        return Err(DeviceError::NotFound {
                            what: WHAT,
                            detail: "no PulseAudio server answered; is it running?".into(),
                        });
                    }
                    _ if started.elapsed() > TIMEOUT => {
                        return Err(DeviceError::Busy {
                            what: WHAT,
                            detail: "the server did not answer in 3 s".into(),
                        });
                    }
                    _ => std::thread::sleep(Duration::from_millis(2)),
                }
            }
        }

        fn wait<T: ?Sized>(&mut self, op: Operation<T>) -> Result<(), DeviceError> {
            let started = Instant::now();
            loop {
                self.mainloop.lock();
                let state = op.get_state();
                self.mainloop.unlock();
                match state {
                    OpState::Done => return Ok(()),
                    OpState::Cancelled => return Err(failed("the operation was cancelled")),
                    OpState::Running if started.elapsed() > TIMEOUT => {
                        return Err(DeviceError::Busy {
                            what: WHAT,
                            detail: "no answer in 3 s".into(),
                        });
                    }
                    OpState::Running => std::thread::sleep(Duration::from_millis(1)),
                }
            }
        }

        fn default_sink(&mut self) -> Result<String, DeviceError> {
            let name: Arc<Mutex<Option<String>>> = Arc::default();
            let found = name.clone();
            self.mainloop.lock();
            let op = self.context.introspect().get_server_info(move |info| {
                *found.lock().unwrap_or_else(|e| e.into_inner()) =
                    info.default_sink_name.as_ref().map(|n| n.to_string());
            });
            self.mainloop.unlock();
            self.wait(op)?;
            let name = name.lock().unwrap_or_else(|e| e.into_inner()).clone();
            name.filter(|n| !n.is_empty()).ok_or(DeviceError::NotFound {
                what: "default output",
                detail: "the sound server has no default sink".into(),
            })
        }

        fn sink(&mut self, name: &str) -> Result<(ChannelVolumes, bool, String), DeviceError> {
            let info: Arc<Mutex<Option<(ChannelVolumes, bool, String)>>> = Arc::default();
            let found = info.clone();
            self.mainloop.lock();
            let op = self
                .context
                .introspect()
                .get_sink_info_by_name(name, move |item| {
                    if let pa::callbacks::ListResult::Item(sink) = item {
                        let sink: &SinkInfo = sink;
                        *found.lock().unwrap_or_else(|e| e.into_inner()) = Some((
                            sink.volume,
                            sink.mute,
                            sink.name
                                .as_ref()
                                .map(|n| n.to_string())
                                .unwrap_or_default(),
                        ));
                    }
                });
            self.mainloop.unlock();
            self.wait(op)?;
            let info = info.lock().unwrap_or_else(|e| e.into_inner()).take();
            info.ok_or_else(|| DeviceError::NotFound {
                what: "default output",
                detail: format!("sink '{name}' disappeared").into(),
            })
        }

        fn state(&mut self) -> Result<(String, VolumeState, ChannelVolumes), DeviceError> {
            let name = self.default_sink()?;
            let (volumes, muted, device) = self.sink(&name)?;
            Ok((
                name,
                VolumeState {
                    percent: percent_of(volumes.avg()),
                    device,
                    muted,
                },
                volumes,
            ))
        }
    }

    impl Drop for Session {
        fn drop(&mut self) {
            self.mainloop.lock();
            self.context.disconnect();
            self.mainloop.unlock();
            self.mainloop.stop();
        }
    }

    fn percent_of(volume: Volume) -> u32 {
        let normal = f64::from(Volume::NORMAL.0);
        (f64::from(volume.0) * 100.0 / normal).round() as u32
    }

    impl Mixer for PulseMixer {
        fn volume(&self) -> Result<VolumeState, DeviceError> {
            Ok(Session::connect(self.server.as_deref())?.state()?.1)
        }

        fn set_volume(&self, percent: u32) -> Result<VolumeState, DeviceError> {
            let mut session = Session::connect(self.server.as_deref())?;
            let (name, _, mut volumes) = session.state()?;
            let raw = (u64::from(Volume::NORMAL.0) * u64::from(percent) / 100) as u32;
            let channels = volumes.len();
            volumes.set(channels, Volume(raw));
            let ok: Arc<Mutex<bool>> = Arc::default();
            let done = ok.clone();
            session.mainloop.lock();
            let op = session.context.introspect().set_sink_volume_by_name(
                &name,
                &volumes,
                Some(Box::new(move |success| {
                    *done.lock().unwrap_or_else(|e| e.into_inner()) = success;
                })),
            );
            session.mainloop.unlock();
            session.wait(op)?;
            if !*ok.lock().unwrap_or_else(|e| e.into_inner()) {
                return Err(failed(format!(
                    "the server refused to set {name} to {percent}%"
                )));
            }
            Ok(session.state()?.1)
        }
    }
}
