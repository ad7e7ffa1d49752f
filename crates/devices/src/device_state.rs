//! `get_volume` / `camera_status`: read a device's state without changing it, so "how
//! loud is it?" and "is the camera on?" are answered from the device, never from the
//! model's head. Both are reads (idempotent, nothing to undo) and share the readiness
//! checks of the tools that change the same devices.

use std::sync::Arc;

use deskmate_core::params::NoArguments;
use deskmate_core::{Category, Localized, SideEffect, ToolSpec, said, schema_for};
use deskmate_tools::FnTool;
use serde_json::{Value, json};

use crate::camera::Camera;
use crate::mixer::Mixer;
use crate::volume::device_error;

/// `get_volume` on this mixer.
pub fn get_volume(mixer: Arc<dyn Mixer>) -> FnTool {
    let checked = mixer.clone();
    FnTool::blocking(volume_spec(), move |NoArguments {}| {
        let state = mixer.volume().map_err(device_error)?;
        let percent = state.percent;
        let line = if state.muted {
            said!("音量 {percent}%，已静音", "Volume {percent}%, muted")
        } else {
            said!("音量 {percent}%", "Volume {percent}%")
        };
        let data = json!({
            "percent": percent,
            "muted": state.muted,
            "device": state.device,
        });
        Ok(deskmate_tools::said::with_line(data, line))
    })
    .with_self_check(move || {
        let mixer = checked.clone();
        crate::readiness::self_check("Mixer", move || crate::readiness::mixer(mixer.as_ref()))
    })
}

/// `camera_status` on this camera.
pub fn camera_status(camera: Arc<dyn Camera>) -> FnTool {
    let checked = camera.clone();
    FnTool::blocking(camera_spec(), move |NoArguments {}| {
        Ok(status(camera.as_ref()))
    })
    .with_self_check(move || {
        let camera = checked.clone();
        crate::readiness::self_check("Camera", move || crate::readiness::camera(camera.as_ref()))
    })
}

/// The camera's state as the tool answers it: on (which one) or off, and the cameras the
/// OS lists. A camera that cannot be listed is reported as none connected: the question
/// is still answered (it is off).
fn status(camera: &dyn Camera) -> Value {
    let cameras: Vec<Value> = camera
        .list()
        .map(|all| {
            all.into_iter()
                .map(|c| json!({"index": c.index, "name": c.name}))
                .collect()
        })
        .unwrap_or_default();
    match camera.state() {
        Some(on) => {
            let device = &on.device;
            let line = said!("摄像头开着（{device}）", "The camera is on ({device})");
            let data = json!({
                "on": true,
                "index": on.index,
                "device": on.device,
                "resolution": format!("{}x{}", on.width, on.height),
                "cameras": cameras,
            });
            deskmate_tools::said::with_line(data, line)
        }
        None => {
            let line = if cameras.is_empty() {
                Localized::new(
                    "摄像头关着（没有连接摄像头）",
                    "The camera is off (none is connected)",
                )
            } else {
                Localized::new("摄像头关着", "The camera is off")
            };
            let data = json!({"on": false, "index": null, "device": null, "cameras": cameras});
            deskmate_tools::said::with_line(data, line)
        }
    }
}

/// A spec of a tool that reads a device's state: no arguments, a read, idempotent.
fn read_spec(id: &str, name: Localized, summary: Localized, description: &str) -> ToolSpec {
    ToolSpec {
        id: id.into(),
        name,
        summary: Some(summary),
        description: description.into(),
        category: Category::System,
        parameters: schema_for::<NoArguments>(),
        side_effect: SideEffect::Read,
        idempotent: true,
        timeout_ms: 5_000,
        compensation: None,
    }
}

fn volume_spec() -> ToolSpec {
    read_spec(
        "get_volume",
        Localized::new("查看音量", "Get volume"),
        Localized::new(
            "告诉你电脑现在的音量是多少、是否静音，不做任何改动。",
            "Tells you the computer's volume now and whether it is muted, changing nothing.",
        ),
        "Reads the volume of the default audio output and whether it is muted, changing \
         nothing. Use it when the user asks how loud it is or whether the sound is muted; to \
         change the volume use increase_volume or decrease_volume. Returns the level in \
         percent, muted, and the device.",
    )
}

fn camera_spec() -> ToolSpec {
    read_spec(
        "camera_status",
        Localized::new("摄像头状态", "Camera status"),
        Localized::new(
            "告诉你摄像头现在是开着还是关着、是哪一个，不做任何改动。",
            "Tells you whether the camera is on or off, and which one, changing nothing.",
        ),
        "Reads whether the camera is on or off, which camera it is and the cameras connected, \
         changing nothing. Use it when the user asks whether the camera is on; to switch it use \
         turn_on_camera or turn_off_camera.",
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::camera::SimulatedCamera;
    use crate::mixer::SimulatedMixer;
    use deskmate_tools::said::line;
    use deskmate_tools::{Tool, ToolContext};

    async fn run(tool: &FnTool) -> Value {
        tool.run(json!({}), ToolContext::new("t"))
            .await
            .unwrap_or_else(|e| panic!("{e}"))
    }

    #[tokio::test]
    async fn the_volume_is_read_without_changing_it() {
        let mixer = Arc::new(SimulatedMixer::new(35));
        let tool = get_volume(mixer.clone());
        let read = run(&tool).await;
        assert_eq!(
            (read["percent"].clone(), read["muted"].clone()),
            (json!(35), json!(false))
        );
        assert_eq!(line(&read, false), Some("Volume 35%"));
        assert_eq!(line(&read, true), Some("音量 35%"));
        assert_eq!(
            mixer.volume().map(|v| v.percent).ok(),
            Some(35),
            "unchanged"
        );
        // Nothing to pass: the guard refuses any argument before the tool runs.
        let spec = tool.spec();
        let schema = deskmate_core::validate::CompiledSchema::compile(&spec.id, &spec.parameters)
            .unwrap_or_else(|e| panic!("{e}"));
        assert!(
            schema.validate(&json!({"step": 10})).is_err(),
            "no arguments"
        );
    }

    #[tokio::test]
    async fn the_camera_state_is_read_without_changing_it() {
        let camera: Arc<dyn Camera> = Arc::new(SimulatedCamera::default());
        let tool = camera_status(camera.clone());
        let off = run(&tool).await;
        assert_eq!(off["on"], false);
        assert_eq!(off["cameras"][0]["name"], "Simulated camera");
        assert_eq!(line(&off, false), Some("The camera is off"));
        assert_eq!(line(&off, true), Some("摄像头关着"));
        assert!(camera.state().is_none(), "reading it did not turn it on");
        camera.turn_on(None).unwrap_or_else(|e| panic!("{e}"));
        let on = run(&tool).await;
        assert_eq!(
            (on["on"].clone(), on["index"].clone()),
            (json!(true), json!(0))
        );
        assert_eq!(
            line(&on, false),
            Some("The camera is on (Simulated camera)")
        );
        assert!(camera.state().is_some(), "reading it did not turn it off");
    }

    #[test]
    fn specs_are_reads_that_pass_the_registry_lint() {
        for spec in [volume_spec(), camera_spec()] {
            assert!(
                deskmate_core::lint_spec(&spec).is_empty(),
                "{:?}",
                deskmate_core::lint_spec(&spec)
            );
            assert_eq!(spec.side_effect, SideEffect::Read);
            assert!(spec.idempotent && spec.compensation.is_none());
        }
    }
}
