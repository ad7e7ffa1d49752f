//! The real camera backend (nokhwa). These machines have no camera: the backend must say
//! so cleanly. With a camera, set DESKMATE_TEST_REAL_CAMERA=1 to run the opt-in check of
//! a real frame (listed, opened, a JPEG frame with varying pixels, released).

#![cfg(target_os = "linux")]

use std::sync::Arc;

use deskmate_devices::DeviceError;
use deskmate_devices::camera::{Camera, NokhwaCamera};
use deskmate_devices::camera_tools::turn_on_camera;
use deskmate_devices::device_state::camera_status;
use deskmate_tools::{Tool, ToolContext};
use serde_json::json;

fn has_camera() -> bool {
    std::fs::read_dir("/dev")
        .map(|d| {
            d.flatten()
                .any(|e| e.file_name().to_string_lossy().starts_with("video"))
        })
        .unwrap_or(false)
}

#[tokio::test]
async fn without_a_camera_turning_it_on_is_a_clear_not_found() {
    if has_camera() {
        // This machine has a camera: the opt-in test below is the one that applies.
        assert!(
            !NokhwaCamera::default()
                .list()
                .unwrap_or_default()
                .is_empty()
        );
        return;
    }
    let camera = Arc::new(NokhwaCamera::default());
    assert_eq!(camera.list(), Ok(Vec::new()));
    match camera.turn_on(None) {
        Err(DeviceError::NotFound { detail, .. }) => {
            assert_eq!(detail.en, "no camera is connected");
            assert_eq!(detail.zh, "没有连接摄像头");
        }
        other => panic!("expected not found, got {other:?}"),
    }
    assert!(camera.state().is_none());
    let tool = turn_on_camera(camera.clone());
    let error = tool
        .run(json!({}), ToolContext::new("t"))
        .await
        .expect_err("no camera");
    assert_eq!(error.error_type, deskmate_core::ErrorType::NotFound);
    assert!(error.hint.unwrap_or_default().contains("do not retry"));
    // Asked whether the camera is on, the answer is "off, none connected", not an error.
    let status = camera_status(camera.clone())
        .run(json!({}), ToolContext::new("s"))
        .await
        .expect("a status");
    assert_eq!(
        (status["on"].clone(), status["cameras"].clone()),
        (json!(false), json!([]))
    );
    assert_eq!(
        status["said"]["en"],
        "The camera is off (none is connected)"
    );
}

/// Opt-in: DESKMATE_TEST_REAL_CAMERA=1 on a machine with a camera.
#[test]
fn opt_in_real_camera_gives_a_real_frame() {
    if std::env::var_os("DESKMATE_TEST_REAL_CAMERA").is_none() {
        return;
    }
    let camera = NokhwaCamera::default();
    let cameras = camera.list().expect("list");
    assert!(!cameras.is_empty(), "no camera listed");
    let (on, already) = camera.turn_on(None).expect("turn on");
    assert!(!already && on.width > 0 && on.height > 0);
    let first = camera.frame_jpeg().expect("frame");
    let decoded = image::load_from_memory(&first).expect("jpeg").to_rgb8();
    let pixels = decoded.as_raw();
    assert!(pixels.iter().any(|p| *p != pixels[0]), "a flat frame");
    assert_eq!(
        camera.turn_off().expect("off").map(|c| c.index),
        Some(on.index)
    );
    assert!(camera.state().is_none());
}
