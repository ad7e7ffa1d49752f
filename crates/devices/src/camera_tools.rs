//! `turn_on_camera` / `turn_off_camera`: open the camera and keep its stream running until
//! it is turned off; both idempotent; each undoes the other.

use std::sync::Arc;

use deskmate_core::params::NoArguments;
use deskmate_core::{
    Category, Compensation, JsonSchema, Localized, SideEffect, ToolSpec, said, schema_for,
};
use deskmate_tools::{Example, FnTool, Teaches};
use serde::Deserialize;
use serde_json::json;

use crate::camera::Camera;
use crate::volume::device_error;

/// Which camera to turn on.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct Which {
    #[schemars(
        range(min = 0, max = 63),
        description = "Which camera (default: the first one).",
        extend("x-description-zh" = "使用哪个摄像头（默认：第一个）。")
    )]
    index: Option<u32>,
}

/// `turn_on_camera` on this camera.
pub fn turn_on_camera(camera: Arc<dyn Camera>) -> FnTool {
    let checked = camera.clone();
    FnTool::blocking(on_spec(), move |Which { index }| {
        let (on, already) = camera.turn_on(index).map_err(|e| {
            let error = device_error(e);
            if error.error_type == deskmate_core::ErrorType::NotFound {
                error.with_hint("no camera is available here: tell the user; do not retry")
            } else {
                error
            }
        })?;
        let device = &on.device;
        let line = said!("摄像头已打开（{device}）", "Camera on ({device})");
        let data = json!({
            "on": true,
            "already_on": already,
            "device": on.device,
            "index": on.index,
            "resolution": format!("{}x{}", on.width, on.height),
            "width": on.width,
            "height": on.height,
            "preview": "GET /api/v1/devices/camera/frame",
            "undo": {},
        });
        Ok(deskmate_tools::said::with_line(data, line))
    })
    .with_examples(ON_EXAMPLES)
    .with_self_check(move || camera_check(checked.clone()))
}

/// Both camera tools are checked by asking whether a camera is connected.
fn camera_check(camera: Arc<dyn Camera>) -> deskmate_tools::SelfCheck {
    crate::readiness::self_check("Camera", move || crate::readiness::camera(camera.as_ref()))
}

/// How a person asks for two things at once, for the model: the camera off and the
/// time, two tools in one list (shown when both are offered); and how they ask for the
/// camera off in everyday words (beside a request near them).
const OFF_EXAMPLES: &[Example] = &[
    Example {
        teaches: Teaches::SeveralTools,
        request: "关掉摄像头，然后告诉我现在几点",
        parts: &["关掉摄像头", "告诉我现在几点"],
        calls: &[("turn_off_camera", "{}"), ("current_time", "{}")],
    },
    Example {
        teaches: Teaches::Wording,
        request: "kill the webcam",
        parts: &[],
        calls: &[("turn_off_camera", "{}")],
    },
    Example {
        teaches: Teaches::Wording,
        request: "摄像头不用了，关了它",
        parts: &[],
        calls: &[("turn_off_camera", "{}")],
    },
];

/// How a person asks to turn the camera on, in everyday words (beside a request near
/// them).
const ON_EXAMPLES: &[Example] = &[
    Example {
        teaches: Teaches::Wording,
        request: "fire up the webcam",
        parts: &[],
        calls: &[("turn_on_camera", "{}")],
    },
    Example {
        teaches: Teaches::Wording,
        request: "我要视频，把摄像头开开",
        parts: &[],
        calls: &[("turn_on_camera", "{}")],
    },
];

/// `turn_off_camera` on this camera.
pub fn turn_off_camera(camera: Arc<dyn Camera>) -> FnTool {
    let checked = camera.clone();
    FnTool::blocking(off_spec(), move |NoArguments {}| {
        let was = camera.turn_off().map_err(device_error)?;
        Ok(match was {
            Some(on) => deskmate_tools::said::with_line(
                json!({"on": false, "was_on": true, "device": on.device, "undo": {"index": on.index}}),
                Localized::new("摄像头已关闭", "Camera off"),
            ),
            // Nothing to turn off: said so, not "Camera off" as if it had been on.
            None => deskmate_tools::said::with_line(
                json!({"on": false, "was_on": false}),
                Localized::new("摄像头本来就是关着的", "The camera was already off"),
            ),
        })
    })
    .with_examples(OFF_EXAMPLES)
    .with_self_check(move || camera_check(checked.clone()))
}

fn on_spec() -> ToolSpec {
    ToolSpec {
        id: "turn_on_camera".into(),
        name: Localized::new("打开摄像头", "Turn on camera"),
        summary: Some(Localized::new(
            "打开摄像头并保持画面开启，直到把它关掉。",
            "Turns the camera on and keeps it running until it is turned off.",
        )),
        description: "Turns the camera on and keeps it streaming until turn_off_camera (a preview \
            frame is at GET /api/v1/devices/camera/frame). Use it when the user asks to open or \
            start the camera. Turning on a camera that is on changes nothing. Returns the device \
            and its resolution."
            .into(),
        category: Category::System,
        parameters: schema_for::<Which>(),
        side_effect: SideEffect::Write,
        idempotent: true,
        timeout_ms: 10_000,
        compensation: Some(Compensation {
            tool: "turn_off_camera".into(),
            description: "turns the camera off again".into(),
        }),
    }
}

fn off_spec() -> ToolSpec {
    ToolSpec {
        id: "turn_off_camera".into(),
        name: Localized::new("关闭摄像头", "Turn off camera"),
        summary: Some(Localized::new(
            "关闭摄像头并释放它。",
            "Turns the camera off and releases it.",
        )),
        description: "Turns the camera off and releases it. Use it when the user asks to close or \
            stop the camera. Turning off a camera that is off changes nothing."
            .into(),
        category: Category::System,
        parameters: schema_for::<NoArguments>(),
        side_effect: SideEffect::Write,
        idempotent: true,
        timeout_ms: 10_000,
        compensation: Some(Compensation {
            tool: "turn_on_camera".into(),
            description: "turns the same camera on again".into(),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::camera::SimulatedCamera;
    use deskmate_tools::said::line;
    use deskmate_tools::{Tool, ToolContext};
    use serde_json::Value;

    #[tokio::test]
    async fn the_camera_state_machine_is_idempotent_both_ways() {
        let camera: Arc<dyn Camera> = Arc::new(SimulatedCamera::default());
        let (on, off) = (
            turn_on_camera(camera.clone()),
            turn_off_camera(camera.clone()),
        );
        async fn run(tool: &FnTool, args: Value) -> Result<Value, deskmate_core::ToolError> {
            tool.run(args, ToolContext::new("t")).await
        }
        assert!(camera.frame_jpeg().is_err(), "no frame while off");
        let first = run(&on, json!({})).await.unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            (first["already_on"].clone(), first["resolution"].clone()),
            (json!(false), json!("320x240"))
        );
        let device = first["device"].as_str().unwrap_or_default();
        assert_eq!(line(&first, false), Some(&*format!("Camera on ({device})")));
        assert_eq!(
            line(&first, true),
            Some(&*format!("摄像头已打开（{device}）"))
        );
        let again = run(&on, json!({})).await.unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(again["already_on"], true);
        let a = camera.frame_jpeg().unwrap_or_default();
        let b = camera.frame_jpeg().unwrap_or_default();
        assert!(
            a.starts_with(&[0xFF, 0xD8, 0xFF]) && a != b,
            "frames are JPEG and they change"
        );
        let closed = run(&off, json!({})).await.unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            (closed["was_on"].clone(), closed["undo"].clone()),
            (json!(true), json!({"index": 0}))
        );
        assert_eq!(line(&closed, false), Some("Camera off"));
        assert_eq!(line(&closed, true), Some("摄像头已关闭"));
        let closed = run(&off, json!({})).await.unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(closed["was_on"], false);
        assert_eq!(line(&closed, false), Some("The camera was already off"));
        assert_eq!(line(&closed, true), Some("摄像头本来就是关着的"));
        assert!(camera.state().is_none());
        let missing = run(&on, json!({"index": 3}))
            .await
            .err()
            .map(|e| e.error_type);
        assert_eq!(missing, Some(deskmate_core::ErrorType::NotFound));
    }
}
