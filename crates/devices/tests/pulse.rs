//! The PulseAudio mixer and the volume tools against a real PulseAudio daemon with a null
//! sink, started by this test ; `pactl` is the oracle.

#![cfg(target_os = "linux")]

use std::sync::Arc;
use std::time::{Duration, Instant};

use deskmate_devices::mixer::{Mixer, PulseMixer};
use deskmate_devices::{DeviceError, device_state, volume};
use deskmate_testkit::pulse::PulseServer as Pulse;
use deskmate_tools::{Tool, ToolContext};
use serde_json::json;

#[test]
fn the_mixer_reads_and_sets_the_default_sink_as_pactl_sees_it() {
    let pulse = Pulse::start();
    let mixer = PulseMixer::with_server(pulse.server());
    let now = mixer.volume().expect("volume");
    assert_eq!(now.device, "ci_sink");
    assert_eq!(now.percent, pulse.percent());
    let set = mixer.set_volume(37).expect("set");
    assert_eq!(set.percent, 37);
    assert_eq!(pulse.percent(), 37);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_volume_tools_change_the_real_sink_and_say_how_to_undo() {
    let pulse = Pulse::start();
    let mixer: Arc<dyn Mixer> = Arc::new(PulseMixer::with_server(pulse.server()));
    mixer.set_volume(50).expect("set");
    let up = volume::increase_volume(mixer.clone());
    let result = up
        .run(json!({"step": 15}), ToolContext::new("t1"))
        .await
        .expect("increase");
    assert_eq!(result["before"], 50);
    assert_eq!(result["after"], 65);
    assert_eq!(result["device"], "ci_sink");
    assert_eq!(pulse.percent(), 65);
    // The compensation the spec declares, with the arguments the result gives, restores it.
    let down = volume::decrease_volume(mixer.clone());
    assert_eq!(
        up.spec().compensation.as_ref().map(|c| c.tool.as_str()),
        Some("decrease_volume")
    );
    down.run(result["undo"].clone(), ToolContext::new("t2"))
        .await
        .expect("undo");
    assert_eq!(pulse.percent(), 50);
    // Clamped at 100.
    let first = up
        .run(json!({"step": 50}), ToolContext::new("t3"))
        .await
        .expect("up");
    assert_eq!(first["after"], 100);
    let result = up
        .run(json!({"step": 50}), ToolContext::new("t4"))
        .await
        .expect("up");
    assert_eq!(
        (result["before"].clone(), result["after"].clone()),
        (json!(100), json!(100))
    );
    assert_eq!(pulse.percent(), 100);
}

/// `get_volume` reads the real sink's level and mute as `pactl` sets them, and changes
/// neither.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn get_volume_reads_the_real_sink_level_and_mute() {
    let pulse = Pulse::start();
    let mixer: Arc<dyn Mixer> = Arc::new(PulseMixer::with_server(pulse.server()));
    let read = device_state::get_volume(mixer);
    pulse
        .pactl(&["set-sink-volume", "ci_sink", "42%"])
        .expect("pactl set-sink-volume");
    let result = read
        .run(json!({}), ToolContext::new("r1"))
        .await
        .expect("read");
    assert_eq!(
        (
            result["percent"].clone(),
            result["muted"].clone(),
            result["device"].clone()
        ),
        (json!(42), json!(false), json!("ci_sink"))
    );
    pulse
        .pactl(&["set-sink-mute", "ci_sink", "1"])
        .expect("pactl set-sink-mute");
    let result = read
        .run(json!({}), ToolContext::new("r2"))
        .await
        .expect("read");
    assert_eq!(result["muted"], true);
    assert_eq!(result["said"]["en"], "Volume 42%, muted");
    assert_eq!(pulse.percent(), 42, "reading changed nothing");
    assert_eq!(
        pulse
            .pactl(&["get-sink-mute", "ci_sink"])
            .map(|s| s.contains("yes")),
        Some(true)
    );
}

#[test]
fn no_sound_server_is_a_clear_not_found() {
    let dir = tempfile::tempdir().expect("dir");
    let mixer = PulseMixer::with_server(format!("unix:{}/nothing", dir.path().display()));
    let started = Instant::now();
    match mixer.volume() {
        Err(DeviceError::NotFound { detail, .. }) => {
            assert!(detail.en.contains("running"), "{detail}")
        }
        other => panic!("expected not found, got {other:?}"),
    }
    assert!(started.elapsed() < Duration::from_secs(5));
    let error = volume::device_error(mixer.set_volume(10).expect_err("error"));
    assert_eq!(error.error_type, deskmate_core::ErrorType::NotFound);
}
