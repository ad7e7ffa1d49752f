//! `sas_round_rate`: SAS-style rounding (half away from zero) of a rate or percentage.

use deskmate_core::{JsonSchema, Localized, ToolError, ToolSpec, said, schema_for};
use serde::Deserialize;
use serde_json::{Value, json};

use crate::numfmt::{percent_text, round_half_away_text};
use crate::read_only::ReadOnly;
use crate::self_check::known_answer;
use crate::{Example, FnTool, SelfCheck, Teaches};

/// How a person asks for SAS rounding, in everyday words (beside a request near them): one
/// call per number, and a count out of a total as `numerator` and `denominator`.
const EXAMPLES: &[Example] = &[
    Example {
        teaches: Teaches::Wording,
        request: "round 4.5 and 5.5 to whole numbers the SAS way",
        parts: &["round 4.5", "round 5.5"],
        calls: &[
            ("sas_round_rate", r#"{"value":4.5,"decimals":0}"#),
            ("sas_round_rate", r#"{"value":5.5,"decimals":0}"#),
        ],
    },
    Example {
        teaches: Teaches::Wording,
        request: "percent for 3 responders out of 8, rounded like SAS does",
        parts: &[],
        calls: &[(
            "sas_round_rate",
            r#"{"numerator":3,"denominator":8,"scale":"percent"}"#,
        )],
    },
    Example {
        teaches: Teaches::Wording,
        request: "用 SAS 的方式把 0.45 和 1.55 保留一位小数",
        parts: &["0.45 保留一位小数", "1.55 保留一位小数"],
        calls: &[
            ("sas_round_rate", r#"{"value":0.45,"decimals":1}"#),
            ("sas_round_rate", r#"{"value":1.55,"decimals":1}"#),
        ],
    },
    Example {
        teaches: Teaches::Wording,
        request: "12 除以 35，按 SAS 规则算百分比",
        parts: &[],
        calls: &[(
            "sas_round_rate",
            r#"{"numerator":12,"denominator":35,"scale":"percent"}"#,
        )],
    },
];

/// The SAS rounding tool: runs inline.
pub fn tool() -> FnTool {
    FnTool::inline(spec(), round_rate)
        .with_examples(EXAMPLES)
        .with_self_check(|| SelfCheck::Sample {
            // 2/3 as a percent to one decimal; SAS ROUND gives 66.7.
            args: json!({"numerator": 2, "denominator": 3, "scale": "percent", "decimals": 1}),
            judge: |data| {
                let got = &data["text"];
                known_answer("66.7", got, got.as_str() == Some("66.7"))
            },
        })
}

fn spec() -> ToolSpec {
    ReadOnly {
        id: "sas_round_rate",
        name: Localized::new("SAS 口径舍入", "SAS-style rounding"),
        summary: Localized::new(
            "按 SAS 的方式（逢五向远离零的方向进位）对数值或比率进行舍入，例如把 2/3 记为 66.7%。",
            "Rounds a number or rate the way SAS does (half away from zero), such as 2 out of 3 as 66.7%.",
        ),
        description:
            "Rounds a number ('value') or a rate ('numerator' out of 'denominator', never both) \
            the way SAS's ROUND does: half away from zero (0.125 -> 0.13, 2.5 -> 3, -2.5 -> -3), \
            unlike Python's round-half-to-even. Scale 'percent' multiplies by 100 exactly before \
            rounding. Read-only.",
        timeout_ms: 1_000,
    }
    .spec(schema_for::<Args>())
}

// What the result is on (a doc comment here would join the schema of `scale`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
enum Scale {
    Rate,
    Percent,
}

/// The rounding tool's arguments: a value, or a numerator with its denominator.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(extend("oneOf" = [{"required": ["value"]}, {"required": ["numerator", "denominator"]}]))]
struct Args {
    #[schemars(
        description = "The number to round (use this or numerator/denominator).",
        extend("x-description-zh" = "要舍入的数值（使用此项，或使用 numerator/denominator）。")
    )]
    value: Option<f64>,
    #[schemars(
        description = "Count of events, e.g. 17 (with denominator).",
        extend("x-description-zh" = "事件数，例如 17（需与 denominator 一起使用）。")
    )]
    numerator: Option<f64>,
    #[schemars(
        description = "Total, e.g. 254 (with numerator); must not be 0.",
        extend("x-description-zh" = "总数，例如 254（需与 numerator 一起使用）；不能为 0。")
    )]
    denominator: Option<f64>,
    #[schemars(
        description = "'rate' keeps the value (default); 'percent' multiplies it by 100.",
        extend("x-description-zh" = "'rate' 保持原值（默认）；'percent' 将其乘以 100。")
    )]
    scale: Option<Scale>,
    #[schemars(
        range(min = 0, max = 10),
        description = "Decimal places to keep; default 2.",
        extend("x-description-zh" = "保留的小数位数；默认 2。")
    )]
    decimals: Option<u32>,
}

fn round_rate(args: Args) -> Result<Value, ToolError> {
    let raw = match (args.value, args.numerator, args.denominator) {
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
    let decimals = args.decimals.unwrap_or(2);
    let percent = args.scale == Some(Scale::Percent);

    let text = if percent {
        percent_text(raw, decimals)
    } else {
        round_half_away_text(raw, decimals)
    };
    let text = text.ok_or_else(|| {
        ToolError::validation("the number is too large to round (at most 1e15)")
            .with_hint("check the inputs")
    })?;
    let line = said!("四舍五入结果：{text}", "Rounded: {text}");
    let data = json!({
        "input": crate::numfmt::json_number(raw),
        "scale": if percent { "percent" } else { "rate" },
        "decimals": decimals,
        "value": text.parse::<f64>().map_or(Value::Null, Value::from),
        "text": text,
        "method": "round half away from zero (SAS ROUND)",
    });
    Ok(crate::said::with_line(data, line))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(args: &Value) -> Args {
        deskmate_core::read_args("sas_round_rate", args).unwrap_or_else(|e| panic!("{e}"))
    }

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
            let got = round_rate(read(&args)).ok().map(|v| v["text"].clone());
            assert_eq!(got, Some(json!(want)), "{args}");
        }
    }

    #[test]
    fn a_result_says_the_rounded_value() {
        let data = round_rate(read(
            &json!({"numerator": 2, "denominator": 3, "scale": "percent", "decimals": 1}),
        ))
        .unwrap_or_default();
        assert_eq!(crate::said::line(&data, false), Some("Rounded: 66.7"));
        assert_eq!(crate::said::line(&data, true), Some("四舍五入结果：66.7"));
    }

    #[test]
    fn errors() {
        for args in [
            json!({}),
            json!({"value": 1, "numerator": 1}),
            json!({"numerator": 1, "denominator": 0}),
            json!({"value": 1e300}),
        ] {
            assert!(round_rate(read(&args)).is_err(), "{args}");
        }
    }
}
