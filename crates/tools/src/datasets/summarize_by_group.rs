//! `summarize_by_group`: per group n, "Mean (SD)", Median, "Min, Max" of a numeric
//! variable, as in a clinical summary table (sample SD, ddof = 1).

use std::sync::Arc;

use deskmate_core::{Localized, ToolError, said};

use super::Query;
use serde_json::{Value, json};

use super::grouping::MAX_GROUPS;
use super::lines::{colon, counted, join, rows};
use super::{Column, DatasetDir, group_rows};
use crate::numfmt::round_half_away_text;
use crate::said::{field, text};
use crate::{Example, FnTool, Teaches, Verdict};

/// Up to this many groups of a summary are written out in its line.
const LINE_GROUPS: usize = 8;

dataset_args! {
    /// What to summarize, by what.
    struct Args {
        #[schemars(
            schema_with = "super::variable_schema",
            description = "The numeric variable to summarize, e.g. 'AGE'.",
            extend("x-description-zh" = "要汇总的数值变量，例如 'AGE'。")
        )]
        variable: String,
        #[serde(default)] // with `schema_with`, what makes the field optional in the schema
        #[schemars(
            schema_with = "super::variable_schema",
            description = format!("The grouping variable, with a few values (at most {MAX_GROUPS}), e.g. 'TRT01A' or 'SEX'; omit for one overall summary."),
            extend("x-description-zh" = format!("分组变量，取值不多（最多 {MAX_GROUPS} 个），例如 'TRT01A' 或 'SEX'；省略则给出一个总体汇总。"))
        )]
        group_by: Option<String>,
    } with subjects
}

/// How a person asks for summaries, in everyday words (beside a request near them): one
/// call per variable summarized.
const EXAMPLES: &[Example] = &[
    Example {
        teaches: Teaches::Wording,
        request: "for adsl, stats of HEIGHTBL split by SEX, and WEIGHTBL too",
        parts: &["stats of HEIGHTBL split by SEX", "WEIGHTBL too"],
        calls: &[
            (
                "summarize_by_group",
                r#"{"dataset":"adsl","variable":"HEIGHTBL","group_by":"SEX"}"#,
            ),
            (
                "summarize_by_group",
                r#"{"dataset":"adsl","variable":"WEIGHTBL","group_by":"SEX"}"#,
            ),
        ],
    },
    Example {
        teaches: Teaches::Wording,
        request: "adsl 里按 SEX 分别汇总 HEIGHTBL 和 WEIGHTBL",
        parts: &["按 SEX 汇总 HEIGHTBL", "按 SEX 汇总 WEIGHTBL"],
        calls: &[
            (
                "summarize_by_group",
                r#"{"dataset":"adsl","variable":"HEIGHTBL","group_by":"SEX"}"#,
            ),
            (
                "summarize_by_group",
                r#"{"dataset":"adsl","variable":"WEIGHTBL","group_by":"SEX"}"#,
            ),
        ],
    },
];

/// The `summarize_by_group` tool over a dataset folder.
pub fn tool(datasets: Arc<DatasetDir>) -> FnTool {
    Query {
        id: "summarize_by_group",
        name: Localized::new("分组描述统计", "Summarize by group"),
        summary: Localized::new(
            "按组计算某个数值变量的描述统计量（例数、均值、标准差、中位数、最小值和最大值），例如各治疗组的平均年龄。",
            "Summarizes a numeric variable per group (n, mean, SD, median, min and max), such as mean age by treatment arm.",
        ),
        description: "Descriptive statistics of one numeric variable per group of another variable, as in \
            a clinical summary table: n, 'Mean (SD)' (sample SD), Median and 'Min, Max', plus a Total row. \
            Use it for questions like 'mean age by treatment arm'. Check variable names with \
            describe_dataset first. Read-only.",
        timeout_ms: 10_000,
        run: summarize,
        line,
        sample,
        judge: |answer| {
        match answer["rows"].as_array() {
            Some(rows) if !rows.is_empty() => {
                let variable = answer["variable"].as_str().unwrap_or("?");
                let groups = rows.len();
                Ok(match answer["group_by"].as_str() {
                    Some(by) => said!(
                        "{variable} 按 {by} 分组：{groups} 组",
                        "{variable} by {by}: {groups} group(s)"
                    ),
                    None => said!(
                        "{variable}：{groups} 组",
                        "{variable} (all): {groups} group(s)"
                    ),
                })
            }
            _ => Err(said!("汇总结果为空", "an empty summary")),
        }
        },
    }
    .tool(datasets)
    .with_examples(EXAMPLES)
}

/// The self-check's call: the first numeric variable, by the first variable with a few
/// distinct values when there is one.
fn sample(data: &super::Dataset) -> Result<Value, Verdict> {
    let named = || data.columns.iter().filter(|c| !c.name.is_empty());
    let Some(variable) = named().find(|c| c.kind.is_numeric()) else {
        let name = &data.name;
        return Err(Verdict::Skipped(said!(
            "数据集“{name}”没有可以汇总的数值变量",
            "dataset '{name}' has no numeric variable to summarize"
        )));
    };
    let mut args = json!({"dataset": data.name, "variable": variable.name});
    if let Some(by) =
        named().find(|c| !c.kind.is_numeric() && (2..=20).contains(&super::distinct_values(c)))
    {
        args["group_by"] = json!(by.name);
    }
    Ok(args)
}

fn summarize(datasets: &DatasetDir, args: Args) -> Result<Value, ToolError> {
    let data = datasets.load(&args.dataset)?;
    let variable = data.numeric_column(&args.variable)?;
    let rows = data.subject_rows(args.subjects.as_deref())?;
    let mut table = Vec::new();
    let grouping = data.grouping("group_by", args.group_by.as_deref(), variable)?;
    let group_by = match grouping.column() {
        Some(by) => {
            for (group, members) in group_rows(by, &rows) {
                table.push(stats_row(&group, variable, &members));
            }
            Some(by.name.clone())
        }
        None => None,
    };
    table.push(stats_row("Total", variable, &rows));
    let missing = rows
        .iter()
        .filter(|&&r| variable.values[r].is_none())
        .count();
    let mut answer = json!({
        "dataset": data.name,
        "variable": variable.name,
        "group_by": group_by,
        "rows": table,
        "missing": missing,
    });
    if let Some(note) = grouping.note("group_by") {
        answer["note"] = Value::String(note);
    }
    Ok(answer)
}

/// Summary statistics of a sample.
#[derive(Debug, Clone, PartialEq)]
pub struct Stats {
    /// Count of present values.
    pub n: usize,
    /// Mean.
    pub mean: f64,
    /// Sample standard deviation (ddof = 1); `None` when n < 2.
    pub sd: Option<f64>,
    /// Median.
    pub median: f64,
    /// Minimum.
    pub min: f64,
    /// Maximum.
    pub max: f64,
}

/// Computes [`Stats`]; `None` for an empty sample.
pub fn stats(values: &[f64]) -> Option<Stats> {
    if values.is_empty() {
        return None;
    }
    let n = values.len();
    let mean = values.iter().sum::<f64>() / n as f64;
    let sd = (n > 1).then(|| {
        let ss: f64 = values.iter().map(|v| (v - mean).powi(2)).sum();
        (ss / (n - 1) as f64).sqrt()
    });
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    let median = if n % 2 == 1 {
        sorted[n / 2]
    } else {
        (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0
    };
    Some(Stats {
        n,
        mean,
        sd,
        median,
        min: sorted[0],
        max: sorted[n - 1],
    })
}

fn fixed(value: f64, decimals: u32) -> String {
    round_half_away_text(value, decimals).unwrap_or_else(|| format!("{value:e}"))
}

fn stats_row(group: &str, variable: &Column, members: &[usize]) -> Value {
    let values: Vec<f64> = members.iter().filter_map(|&r| variable.number(r)).collect();
    let missing = members.len() - values.len();
    match stats(&values) {
        None => {
            json!({"group": group, "n": 0, "Mean (SD)": "NA", "Median": null, "Min, Max": "NA", "missing": missing})
        }
        Some(s) => json!({
            "group": group,
            "n": s.n,
            "Mean (SD)": format!("{} ({})", fixed(s.mean, 2), s.sd.map_or("NA".to_string(), |sd| fixed(sd, 2))),
            "Median": fixed(s.median, 2).parse::<f64>().map_or(Value::Null, Value::from),
            "Min, Max": format!("{}, {}", fixed(s.min, 1), fixed(s.max, 1)),
            "missing": missing,
        }),
    }
}

/// A summary row's statistics after its group's name, keys in the line's language.
fn statistics(row: &serde_json::Map<String, Value>, zh: bool) -> String {
    let parts: Vec<String> = row
        .iter()
        .filter(|(key, value)| {
            key.as_str() != "group" && !(key.as_str() == "missing" && value.as_u64() == Some(0))
        })
        .filter_map(|(key, value)| {
            let value = text(value)?;
            let key = if zh { chinese_key(key) } else { key.as_str() };
            Some(format!("{key} {value}"))
        })
        .collect();
    join(&parts, zh, false)
}

/// The Chinese header of a summary statistic the tool writes in English.
fn chinese_key(key: &str) -> &str {
    match key {
        "Mean (SD)" => "均值 (SD)",
        "Mean" => "均值",
        "SD" => "标准差",
        "Median" => "中位数",
        "Min, Max" => "最小值, 最大值",
        "missing" => "缺失",
        other => other,
    }
}

/// The summary in a line: each group with its statistics when there are a few, else
/// the groups counted.
fn line(data: &Value, zh: bool) -> Option<(String, bool)> {
    let dataset = field(data, "dataset")?;
    let variable = field(data, "variable")?;
    let by = field(data, "group_by").or_else(|| field(data, "by"));
    let rows = rows(data);
    let head = match (&by, zh) {
        (Some(by), true) => format!("{dataset}：按 {by} 汇总 {variable}"),
        (Some(by), false) => format!("{dataset}: {variable} by {by}"),
        (None, true) => format!("{dataset}：{variable} 的汇总"),
        (None, false) => format!("{dataset}: {variable}"),
    };
    if rows.is_empty() || rows.len() > LINE_GROUPS {
        return Some(counted(head, rows.len(), zh));
    }
    let parts: Option<Vec<String>> = rows
        .iter()
        .map(|row| {
            let row = row.as_object()?;
            let group = row.get("group").and_then(text).unwrap_or_default();
            Some(colon(group, &statistics(row, zh), zh))
        })
        .collect();
    Some((colon(head, &join(&parts?, zh, true), zh), true))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_summary_lists_each_group_with_its_statistics() {
        let row = |group: &str, n: u32, mean: &str| {
            json!({"group": group, "n": n, "Mean (SD)": mean, "Median": 76.0,
                   "Min, Max": "52.0, 89.0", "missing": 0})
        };
        let data = json!({"dataset": "adsl", "variable": "AGE", "group_by": "TRT01P",
            "rows": [row("Placebo", 86, "75.21 (8.59)"), row("Total", 254, "75.09 (8.25)")],
            "missing": 0});
        let (en, whole) = line(&data, false).unwrap_or_default();
        assert!(whole);
        assert_eq!(
            en,
            "adsl: AGE by TRT01P: Placebo: n 86, Mean (SD) 75.21 (8.59), Median 76.0, \
             Min, Max 52.0, 89.0; Total: n 254, Mean (SD) 75.09 (8.25), Median 76.0, Min, Max 52.0, 89.0"
        );
        let (zh, _) = line(&data, true).unwrap_or_default();
        assert!(
            zh.starts_with(
                "adsl：按 TRT01P 汇总 AGE：Placebo：n 86，均值 (SD) 75.21 (8.59)，中位数 76.0"
            ),
            "{zh}"
        );
        let many: Vec<Value> = (0..9)
            .map(|i| row(&i.to_string(), 1, "1.00 (NA)"))
            .collect();
        let data =
            json!({"dataset": "adsl", "variable": "AGE", "group_by": "SITEID", "rows": many});
        assert_eq!(
            line(&data, false),
            Some(("adsl: AGE by SITEID, 9 rows".to_string(), false))
        );
    }

    #[test]
    fn known_statistics() {
        let s = stats(&[2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0]).unwrap_or_else(|| panic!("empty"));
        assert_eq!(
            (s.n, s.mean, s.median, s.min, s.max),
            (8, 5.0, 4.5, 2.0, 9.0)
        );
        // Sample SD (ddof = 1) of this textbook sample is sqrt(32 / 7).
        assert!((s.sd.unwrap_or_default() - (32.0f64 / 7.0).sqrt()).abs() < 1e-12);
        assert_eq!(stats(&[3.0]).map(|s| s.sd), Some(None));
        assert_eq!(stats(&[]), None);
    }
}
