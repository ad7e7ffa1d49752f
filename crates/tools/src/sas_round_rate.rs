//! `sas_round_rate`: SAS-style rounding (half away from zero) of a rate or percentage.

use deskmate_core::{Category, Localized, SideEffect, ToolError, ToolSpec, said};
use serde_json::{Value, json};

use crate::numfmt::{percent_text, round_half_away_text};
use crate::{FnTool, SelfCheck};

/// The SAS rounding tool: runs inline.
pub fn tool() -> FnTool {
    FnTool::inline(spec(), round_rate).with_self_check(|| SelfCheck::Sample {
        // 2/3 as a percent to one decimal; SAS ROUND gives 66.7.
        args: json!({"numerator": 2, "denominator": 3, "scale": "percent", "decimals": 1}),
        judge: |data| match data["text"].as_str() {
            Some("66.7") => Ok(Localized::same("66.7")),
            _ => {
                let got = &data["text"];
                Err(said!("应为 66.7，实际为 {got}", "expected 66.7, got {got}"))
            }
        },
    })
}

fn spec() -> ToolSpec {
    ToolSpec {
        id: "sas_round_rate".into(),
        name: Localized::new("SAS 口径舍入", "SAS-style rounding"),
        summary: Some(Localized::new(
            "按 SAS 的方式（逢五向远离零的方向进位）对数值或比率进行舍入，例如把 2/3 记为 66.7%。",
            "Rounds a number or rate the way SAS does (half away from zero), such as 2 out of 3 as 66.7%.",
        )),
        description:
            "Rounds a number ('value') or a rate ('numerator' out of 'denominator', never both) \
            the way SAS's ROUND does: half away from zero (0.125 -> 0.13, 2.5 -> 3, -2.5 -> -3), \
            unlike Python's round-half-to-even. Scale 'percent' multiplies by 100 exactly before \
            rounding. Read-only."
                .into(),
        category: Category::Query,
        parameters: json!({
            "type": "object",
            "additionalProperties": false,
            "properties": {
                "value": {"type": "number", "description": "The number to round (use this or numerator/denominator).", "x-description-zh": "要舍入的数值（使用此项，或使用 numerator/denominator）。"},
                "numerator": {"type": "number", "description": "Count of events, e.g. 17 (with denominator).", "x-description-zh": "事件数，例如 17（需与 denominator 一起使用）。"},
                "denominator": {"type": "number", "description": "Total, e.g. 254 (with numerator); must not be 0.", "x-description-zh": "总数，例如 254（需与 numerator 一起使用）；不能为 0。"},
                "scale": {"type": "string", "enum": ["rate", "percent"], "description": "'rate' keeps the value (default); 'percent' multiplies it by 100.", "x-description-zh": "'rate' 保持原值（默认）；'percent' 将其乘以 100。"},
                "decimals": {"type": "integer", "minimum": 0, "maximum": 10, "description": "Decimal places to keep; default 2.", "x-description-zh": "保留的小数位数；默认 2。"}
            },
            "oneOf": [{"required": ["value"]}, {"required": ["numerator", "denominator"]}]
        }),
        side_effect: SideEffect::Read,
        idempotent: true,
        timeout_ms: 1_000,
        compensation: None,
    }
}

fn round_rate(args: &Value) -> Result<Value, ToolError> {
    let value = args.get("value").and_then(Value::as_f64);
    let numerator = args.get("numerator").and_then(Value::as_f64);
    let denominator = args.get("denominator").and_then(Value::as_f64);
    let raw = match (value, numerator, denominator) {
        (Some(v), None, None) => v,
        (None, Some(n), Some(d)) => {
            if d == 0.0 {
                return Err(ToolError::validation("denominator is 0")
                    .with_hint("a rate needs a non-zero denominator"));
            }
            n / d
        }
        (Some(_), _, _) => {
            return Err(ToolError::validation(
                "give either value or numerator and denominator, not both",
            )
            .with_hint("drop 'value' or drop 'numerator'/'denominator'"));
        }
        _ => {
            return Err(ToolError::validation("nothing to round")
                .with_hint("give 'value', or both 'numerator' and 'denominator'"));
        }
    };
    let decimals = args.get("decimals").and_then(Value::as_u64).unwrap_or(2) as u32;
    let percent = args.get("scale").and_then(Value::as_str) == Some("percent");
    let text = if percent {
        percent_text(raw, decimals)
    } else {
        round_half_away_text(raw, decimals)
    };
    let text = text.ok_or_else(|| {
        ToolError::validation("the number is too large to round (at most 1e15)")
            .with_hint("check the inputs")
    })?;
    Ok(json!({
        "input": crate::numfmt::json_number(raw),
        "scale": if percent { "percent" } else { "rate" },
        "decimals": decimals,
        "value": text.parse::<f64>().map_or(Value::Null, Value::from),
        "text": text,
        "method": "round half away from zero (SAS ROUND)",
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table() {
        let cases = [
            (json!({"value": 0.125}), "0.13"),
            (json!({"value": 2.5, "decimals": 0}), "3"),
            (json!({"value": -2.5, "decimals": 0}), "-3"),
            (json!({"numerator": 1, "denominator": 8}), "0.13"),
            (
                json!({"numerator": 57, "denominator": 200, "scale": "percent", "decimals": 0}),
                "29",
            ),
            (
                json!({"numerator": 2, "denominator": 3, "scale": "percent", "decimals": 1}),
                "66.7",
            ),
        ];
        for (args, want) in cases {
            let got = round_rate(&args).ok().map(|v| v["text"].clone());
            assert_eq!(got, Some(json!(want)), "{args}");
        }
    }

    #[test]
    fn errors() {
        for args in [
            json!({}),
            json!({"value": 1, "numerator": 1}),
            json!({"numerator": 1, "denominator": 0}),
            json!({"value": 1e300}),
        ] {
            assert!(round_rate(&args).is_err(), "{args}");
        }
    }
}
