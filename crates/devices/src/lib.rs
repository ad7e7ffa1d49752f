//! Devices for Deskmate's system tools, each behind a trait with a real backend and a
//! simulated one: [`mixer::Mixer`] (PulseAudio on Linux).
//!
//! **Only this crate calls OS audio, camera and notification APIs.**

pub mod error;
pub mod mixer;
pub mod volume;

pub use error::DeviceError;
