//! `increase_volume` / `decrease_volume`: change the default output's volume by a step,
//! clamped to 0–100, and say what it was before so the change can be undone.

use std::sync::Arc;

use deskmate_core::{
    Category, Compensation, ErrorType, JsonSchema, Localized, SideEffect, ToolError, ToolSpec,
    said, schema_for,
};
use deskmate_tools::{Example, FnTool, Teaches};
use serde::Deserialize;
use serde_json::{Value, json};

use crate::error::DeviceError;
use crate::mixer::Mixer;

/// Up or down.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Direction {
    Up,
    Down,
}

impl Direction {
    fn id(self) -> &'static str {
        match self {
            Self::Up => "increase_volume",
            Self::Down => "decrease_volume",
        }
    }

    fn opposite(self) -> Self {
        match self {
            Self::Up => Self::Down,
            Self::Down => Self::Up,
        }
    }
}

/// The largest step one call may take, percentage points.
const MAX_STEP: u32 = 50;
/// The step of a call that names none.
const DEFAULT_STEP: u32 = 10;

/// How far to change the volume: the arguments of both volume tools (the step is described
/// per direction by [`step_schema`]).
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct Step {
    #[serde(default = "default_step")]
    #[schemars(
        range(min = 1, max = MAX_STEP),
        extend("x-percent" = true)
    )]
    step: u32,
}

fn default_step() -> u32 {
    DEFAULT_STEP
}

/// `increase_volume` on this mixer.
pub fn increase_volume(mixer: Arc<dyn Mixer>) -> FnTool {
    tool(Direction::Up, mixer)
}

/// `decrease_volume` on this mixer.
pub fn decrease_volume(mixer: Arc<dyn Mixer>) -> FnTool {
    tool(Direction::Down, mixer)
}

/// How a person asks for more volume, for the model: in words that name no step, which
/// is left to its default (every prompt), and in other everyday words (beside a request
/// near them).
const UP_EXAMPLES: &[Example] = &[
    Example {
        teaches: Teaches::Defaults,
        request: "a little louder please",
        parts: &[],
        calls: &[("increase_volume", "{}")],
    },
    Example {
        teaches: Teaches::Wording,
        request: "crank the sound up 30",
        parts: &[],
        calls: &[("increase_volume", r#"{"step":30}"#)],
    },
    Example {
        teaches: Teaches::Wording,
        request: "音量往上调些",
        parts: &[],
        calls: &[("increase_volume", "{}")],
    },
];

/// How a person asks for less volume, in everyday words (beside a request near them).
const DOWN_EXAMPLES: &[Example] = &[
    Example {
        teaches: Teaches::Wording,
        request: "it's too loud in here, lower it",
        parts: &[],
        calls: &[("decrease_volume", "{}")],
    },
    Example {
        teaches: Teaches::Wording,
        request: "把音量降下来一些",
        parts: &[],
        calls: &[("decrease_volume", "{}")],
    },
];

fn tool(direction: Direction, mixer: Arc<dyn Mixer>) -> FnTool {
    let checked = mixer.clone();
    let examples = match direction {
        Direction::Up => UP_EXAMPLES,
        Direction::Down => DOWN_EXAMPLES,
    };
    FnTool::blocking(spec(direction), move |args| {
        change(mixer.as_ref(), direction, args)
    })
    .with_examples(examples)
    .with_self_check(move || {
        let mixer = checked.clone();
        crate::readiness::self_check("Mixer", move || crate::readiness::mixer(mixer.as_ref()))
    })
}

/// The arguments' schema, its step described for this direction: a step is a size, never
/// negative, and the other direction is the other tool (a model that wants the volume
/// lower and calls `increase_volume` with a negative step reads that in the error).
fn step_schema(direction: Direction) -> Value {
    let mut schema = schema_for::<Step>();
    // (this direction, the other) in English and in Chinese.
    let ((this, other), (this_zh, other_zh)) = match direction {
        Direction::Up => (("raise", "lower"), ("调高", "调低")),
        Direction::Down => (("lower", "raise"), ("调低", "调高")),
    };
    let tool = direction.opposite().id();
    let en = format!(
        "Percentage points to {this} the volume by, 1-{MAX_STEP} (default {DEFAULT_STEP}); to {other} it, call {tool}."
    );
    let zh = format!(
        "音量{this_zh}的百分点数，1-{MAX_STEP}（默认 {DEFAULT_STEP}）；要{other_zh}请调用 {tool}。"
    );
    if let Some(step) = schema.pointer_mut("/properties/step") {
        step["description"] = Value::String(en);
        step["x-description-zh"] = Value::String(zh);
    }
    schema
}

fn spec(direction: Direction) -> ToolSpec {
    let (name, summary, description) = match direction {
        Direction::Up => (
            Localized::new("调高音量", "Increase volume"),
            Localized::new(
                "把电脑的音量调高一些，默认调高 10 个百分点。",
                "Turns the computer's volume up, by 10 percentage points unless you say otherwise.",
            ),
            "Raises the volume of the default audio output by 'step' percentage points \
             (default 10), never above 100. Use it when the user asks for louder sound. \
             Returns the volume before and after, and the device.",
        ),
        Direction::Down => (
            Localized::new("调低音量", "Decrease volume"),
            Localized::new(
                "把电脑的音量调低一些，默认调低 10 个百分点。",
                "Turns the computer's volume down, by 10 percentage points unless you say otherwise.",
            ),
            "Lowers the volume of the default audio output by 'step' percentage points \
             (default 10), never below 0. Use it when the user asks for quieter sound. \
             Returns the volume before and after, and the device.",
        ),
    };
    ToolSpec {
        id: direction.id().into(),
        name,
        summary: Some(summary),
        description: description.into(),
        category: Category::System,
        parameters: step_schema(direction),
        side_effect: SideEffect::Write,
        idempotent: false,
        timeout_ms: 5_000,
        compensation: Some(Compensation {
            tool: direction.opposite().id().into(),
            description: "changes the volume back by the same amount (to 'before')".into(),
        }),
    }
}

fn change(
    mixer: &dyn Mixer,
    direction: Direction,
    Step { step }: Step,
) -> Result<Value, ToolError> {
    let before = mixer.volume().map_err(device_error)?;
    let target = match direction {
        Direction::Up => before
            .percent
            .saturating_add(step)
            .min(100)
            .max(before.percent.min(100)),
        Direction::Down => before.percent.min(100).saturating_sub(step),
    };
    let after = mixer.set_volume(target).map_err(device_error)?;
    let mut data = json!({
        "before": before.percent,
        "after": after.percent,
        "device": after.device,
    });
    let moved = after.percent.abs_diff(before.percent);
    let (from, to) = (before.percent, after.percent);
    let line = if moved > 0 {
        data["undo"] = json!({"step": moved});
        said!("音量 {from}% → {to}%", "Volume {from}% → {to}%")
    } else {
        let note = match direction {
            Direction::Up => "the volume is already at 100",
            Direction::Down => "the volume is already at 0",
        };
        data["note"] = json!(note);
        said!("音量已经是 {to}%，没有变化", "Volume unchanged: {note}")
    };
    if after.muted {
        data["muted"] = json!(true);
    }
    Ok(deskmate_tools::said::with_line(data, line))
}

/// A device failure as the tool contract reports it.
pub fn device_error(error: DeviceError) -> ToolError {
    let message = error.to_string();
    match error {
        DeviceError::NotFound { .. } => ToolError::not_found(message).with_hint(
            "the device or its service is not available on this computer; tell the user",
        ),
        DeviceError::Busy { .. } => {
            ToolError::transient(message).with_hint("try again in a moment")
        }
        DeviceError::Unsupported { .. } => ToolError::new(ErrorType::NotFound, message)
            .with_hint("this device is not supported on this operating system"),
        DeviceError::Failed { .. } => ToolError::transient(message),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mixer::SimulatedMixer;

    fn run(direction: Direction, mixer: &SimulatedMixer, step: Option<u64>) -> Value {
        let args = step.map_or(json!({}), |s| json!({"step": s}));
        let step =
            deskmate_core::read_args(direction.id(), &args).unwrap_or_else(|e| panic!("{e}"));
        change(mixer, direction, step).unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn steps_clamp_and_say_how_to_undo() {
        let mixer = SimulatedMixer::new(50);
        let up = run(Direction::Up, &mixer, None);
        assert_eq!(
            (
                up["before"].clone(),
                up["after"].clone(),
                up["undo"].clone()
            ),
            (json!(50), json!(60), json!({"step": 10}))
        );
        let up = run(Direction::Up, &mixer, Some(50));
        assert_eq!(
            (up["after"].clone(), up["undo"].clone()),
            (json!(100), json!({"step": 40}))
        );
        let same = run(Direction::Up, &mixer, Some(5));
        assert_eq!(same["after"], 100);
        assert!(same.get("undo").is_none() && same["note"].is_string());
        let down = run(Direction::Down, &SimulatedMixer::new(7), Some(20));
        assert_eq!(
            (down["after"].clone(), down["undo"].clone()),
            (json!(0), json!({"step": 7}))
        );
    }

    #[test]
    fn a_change_says_the_volume_before_and_after_and_a_no_op_says_why() {
        use deskmate_tools::said::line;
        let down = run(Direction::Down, &SimulatedMixer::new(50), None);
        assert_eq!(line(&down, true), Some("音量 50% → 40%"));
        let up = run(Direction::Up, &SimulatedMixer::new(40), None);
        assert_eq!(line(&up, false), Some("Volume 40% → 50%"));
        let full = run(Direction::Up, &SimulatedMixer::new(100), None);
        assert_eq!(
            line(&full, false),
            Some("Volume unchanged: the volume is already at 100")
        );
        assert_eq!(line(&full, true), Some("音量已经是 100%，没有变化"));
        let silent = run(Direction::Down, &SimulatedMixer::new(0), None);
        assert_eq!(
            line(&silent, false),
            Some("Volume unchanged: the volume is already at 0")
        );
    }

    #[test]
    fn a_negative_step_is_refused_with_the_tool_for_the_other_direction() {
        for (direction, other) in [
            (Direction::Up, "decrease_volume"),
            (Direction::Down, "increase_volume"),
        ] {
            let spec = spec(direction);
            let step = &spec.parameters["properties"]["step"];
            assert!(
                step["x-description-zh"]
                    .as_str()
                    .is_some_and(|d| d.contains(other))
            );
            let schema =
                deskmate_core::validate::CompiledSchema::compile(&spec.id, &spec.parameters)
                    .unwrap_or_else(|e| panic!("{e}"));
            let (error, _) = schema
                .validate(&json!({"step": -10}))
                .expect_err("a negative step is invalid");
            assert!(
                error.message.contains("-10") && error.message.contains(&format!("call {other}")),
                "{}",
                error.message
            );
        }
    }

    #[test]
    fn specs_pass_the_registry_lint_and_name_their_compensation() {
        for direction in [Direction::Up, Direction::Down] {
            let spec = spec(direction);
            assert!(
                deskmate_core::lint_spec(&spec).is_empty(),
                "{:?}",
                deskmate_core::lint_spec(&spec)
            );
            assert_eq!(
                spec.compensation.map(|c| c.tool),
                Some(direction.opposite().id().to_string())
            );
        }
    }
}
