//! `frequency`: n and % per value of a variable, optionally within groups of another.

use std::collections::BTreeMap;
use std::sync::Arc;

use deskmate_core::{Localized, ToolError, said};

use super::Query;
use serde_json::{Value, json};

use super::grouping::MAX_GROUPS;
use super::lines::{colon, counted, join, rows};
use super::{Column, DatasetDir, MISSING_LABEL, group_rows};
use crate::numfmt::percent_text;
use crate::said::field;
use crate::{Example, FnTool, Teaches, Verdict};

/// Up to this many rows of a frequency table are written out in its line.
const LINE_ROWS: usize = 12;

dataset_args! {
    /// What to count.
    struct Args {
        #[schemars(
            schema_with = "super::variable_schema",
            description = "The variable to count, e.g. 'SEX' or 'RACE'.",
            extend("x-description-zh" = "要计数的变量，例如 'SEX' 或 'RACE'。")
        )]
        variable: String,
        #[serde(default)] // with `schema_with`, what makes the field optional in the schema
        #[schemars(
            schema_with = "super::variable_schema",
            description = format!("Optional grouping variable with a few values (at most {MAX_GROUPS}), e.g. 'TRT01A'; percentages are then within each group. Leave it out for counts over all rows."),
            extend("x-description-zh" = format!("可选的分组变量，取值不多（最多 {MAX_GROUPS} 个），例如 'TRT01A'；此时百分比按各组分别计算。省略则对所有行计数。"))
        )]
        by: Option<String>,
    } with subjects
}

/// How a person asks for counts, in everyday words (beside a request near them): one call
/// per variable asked for.
const EXAMPLES: &[Example] = &[
    Example {
        teaches: Teaches::Wording,
        request: "how are RACE and ETHNIC distributed in adsl",
        parts: &["how RACE is distributed", "how ETHNIC is distributed"],
        calls: &[
            ("frequency", r#"{"dataset":"adsl","variable":"RACE"}"#),
            ("frequency", r#"{"dataset":"adsl","variable":"ETHNIC"}"#),
        ],
    },
    Example {
        teaches: Teaches::Wording,
        request: "adsl 分别统计一下 SEX、RACE 的人数",
        parts: &["统计 SEX 的人数", "统计 RACE 的人数"],
        calls: &[
            ("frequency", r#"{"dataset":"adsl","variable":"SEX"}"#),
            ("frequency", r#"{"dataset":"adsl","variable":"RACE"}"#),
        ],
    },
];

/// The `frequency` tool over a dataset folder.
pub fn tool(datasets: Arc<DatasetDir>) -> FnTool {
    Query {
        id: "frequency",
        name: Localized::new("频数分布", "Frequency"),
        summary: Localized::new(
            "统计某个分类变量每个取值的例数和百分比，也可以按组统计，例如各治疗组的性别分布。",
            "Counts each value of a categorical variable with its percentage, optionally per group, such as sex by treatment arm.",
        ),
        description: "Frequency table of one categorical variable: for each value its count n and percent \
            of the (group) total, written 'n (%)'; missing values are counted as '(missing)'. Optionally \
            within the groups of a second variable (e.g. SEX by TRT01A). Check variable names with \
            describe_dataset first. Read-only.",
        timeout_ms: 10_000,
        run: frequency,
        line,
        sample: |data| {
            // A named variable with a few distinct values makes a readable table.
            let named = || data.columns.iter().filter(|c| !c.name.is_empty());
            let column = named()
                .find(|c| (2..=20).contains(&super::distinct_values(c)))
                .or_else(|| named().next())
                .ok_or_else(|| {
                    let name = &data.name;
                    Verdict::Failed(said!(
                        "数据集“{name}”没有变量",
                        "dataset '{name}' has no variables"
                    ))
                })?;
            Ok(json!({"dataset": data.name, "variable": column.name}))
        },
        judge: |answer| match answer["rows"].as_array() {
            Some(rows) if !rows.is_empty() => {
                let variable = answer["variable"].as_str().unwrap_or("?");
                let values = rows.len();
                let total = &answer["total"];
                Ok(said!(
                    "{variable}：{total} 行中有 {values} 个不同的值",
                    "{variable}: {values} value(s) over {total} rows"
                ))
            }
            _ => Err(said!("频数表为空", "an empty frequency table")),
        },
    }
    .tool(datasets)
    .with_examples(EXAMPLES)
}

fn frequency(datasets: &DatasetDir, args: Args) -> Result<Value, ToolError> {
    let data = datasets.load(&args.dataset)?;
    let variable = data.column(&args.variable)?;
    let rows = data.subject_rows(args.subjects.as_deref())?;
    let grouping = data.grouping("by", args.by.as_deref(), variable)?;
    let (by, table) = match grouping.column() {
        Some(by) => {
            let mut table = Vec::new();
            for (group, members) in group_rows(by, &rows) {
                for mut row in count(variable, &members) {
                    row["group"] = Value::String(group.clone());
                    table.push(row);
                }
            }
            (Some(by.name.clone()), table)
        }
        None => (None, count(variable, &rows)),
    };
    let mut answer = json!({
        "dataset": data.name,
        "variable": variable.name,
        "by": by,
        "total": rows.len(),
        "rows": table,
    });
    if let Some(note) = grouping.note("by") {
        answer["note"] = Value::String(note);
    }
    Ok(answer)
}

/// Counts the values of `column` over `rows`: sorted by value (numerically for numeric
/// columns), `(missing)` last; percent of `rows.len()` to one decimal, SAS rounding.
fn count(column: &Column, rows: &[usize]) -> Vec<Value> {
    let mut counts: BTreeMap<String, usize> = BTreeMap::new();
    let mut missing = 0;
    for &row in rows {
        match &column.values[row] {
            Some(v) => *counts.entry(v.clone()).or_default() += 1,
            None => missing += 1,
        }
    }
    let mut entries: Vec<(String, usize)> = counts.into_iter().collect();
    if column.kind.is_numeric() {
        entries.sort_by(|a, b| {
            let num = |s: &str| s.parse::<f64>().unwrap_or(f64::INFINITY);
            num(&a.0).total_cmp(&num(&b.0))
        });
    }
    if missing > 0 {
        entries.push((MISSING_LABEL.to_string(), missing));
    }
    let total = rows.len();
    entries
        .into_iter()
        .map(|(value, n)| {
            let pct = if total == 0 {
                "0.0".to_string()
            } else {
                percent_text(n as f64 / total as f64, 1).unwrap_or_else(|| "NA".into())
            };
            json!({
                "value": value,
                "n": n,
                "pct": pct.parse::<f64>().map_or(Value::Null, Value::from),
                "n (%)": format!("{n} ({pct})"),
            })
        })
        .collect()
}

/// "F 143 (56.3%)".
fn count_text(row: &Value, zh: bool) -> Option<String> {
    let value = field(row, "value")?;
    let n = field(row, "n")?;
    Some(match (field(row, "pct"), zh) {
        (Some(pct), true) => format!("{value} {n}（{pct}%）"),
        (Some(pct), false) => format!("{value} {n} ({pct}%)"),
        (None, _) => format!("{value} {n}"),
    })
}

/// The table in a line: each value's count and percent (per group), written out when
/// there are a few ("adsl: SEX (of 254): F 143 (56.3%), M 111 (43.7%)"), else counted.
fn line(data: &Value, zh: bool) -> Option<(String, bool)> {
    let dataset = field(data, "dataset")?;
    let variable = field(data, "variable")?;
    let by = field(data, "by");
    let rows = rows(data);
    let head = match (&by, zh) {
        (Some(by), true) => format!("{dataset} 按 {by} 的 {variable} 频数"),
        (Some(by), false) => format!("{dataset}: {variable} by {by}"),
        (None, true) => format!("{dataset} 的 {variable} 频数"),
        (None, false) => format!("{dataset}: {variable}"),
    };
    let head = match (field(data, "total"), zh) {
        (Some(total), true) => format!("{head}（共 {total}）"),
        (Some(total), false) => format!("{head} (of {total})"),
        (None, _) => head,
    };
    if rows.is_empty() || rows.len() > LINE_ROWS {
        return Some(counted(head, rows.len(), zh));
    }
    let body = if by.is_some() {
        // Rows come grouped: one part per group, its counts after it.
        let mut groups: Vec<(String, Vec<String>)> = Vec::new();
        for row in rows {
            let group = field(row, "group").unwrap_or_default();
            let count = count_text(row, zh)?;
            match groups.last_mut() {
                Some((name, counts)) if *name == group => counts.push(count),
                _ => groups.push((group, vec![count])),
            }
        }
        let parts: Vec<String> = groups
            .into_iter()
            .map(|(group, counts)| colon(group, &join(&counts, zh, false), zh))
            .collect();
        join(&parts, zh, true)
    } else {
        let counts: Option<Vec<String>> = rows.iter().map(|r| count_text(r, zh)).collect();
        join(&counts?, zh, false)
    };
    Some((colon(head, &body, zh), true))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn count(value: &str, n: u32, pct: f64, group: Option<&str>) -> Value {
        let mut row = json!({"value": value, "n": n, "pct": pct, "n (%)": format!("{n} ({pct})")});
        if let Some(group) = group {
            row["group"] = json!(group);
        }
        row
    }

    #[test]
    fn a_small_frequency_table_is_written_out_and_answers() {
        let data = json!({"dataset": "adsl", "variable": "SEX", "by": null, "total": 254,
            "rows": [count("F", 143, 56.3, None), count("M", 111, 43.7, None)]});
        assert_eq!(
            line(&data, false),
            Some((
                "adsl: SEX (of 254): F 143 (56.3%), M 111 (43.7%)".to_string(),
                true
            ))
        );
        let data = json!({"dataset": "adsl", "variable": "SEX", "by": "TRT01P", "total": 170,
            "rows": [count("F", 53, 61.6, Some("Placebo")), count("M", 33, 38.4, Some("Placebo")),
                     count("F", 40, 47.6, Some("High")), count("M", 44, 52.4, Some("High"))]});
        assert_eq!(
            line(&data, true).map(|(l, _)| l).as_deref(),
            Some(
                "adsl 按 TRT01P 的 SEX 频数（共 170）：Placebo：F 53（61.6%），M 33（38.4%）；\
                 High：F 40（47.6%），M 44（52.4%）"
            )
        );
    }

    #[test]
    fn a_large_table_is_counted_and_left_to_the_model() {
        let rows: Vec<Value> = (0..40)
            .map(|i| count(&i.to_string(), 1, 2.5, None))
            .collect();
        let data =
            json!({"dataset": "adsl", "variable": "AGE", "by": null, "total": 40, "rows": rows});
        assert_eq!(
            line(&data, false),
            Some(("adsl: AGE (of 40), 40 rows".to_string(), false))
        );
    }

    #[test]
    fn odd_data_has_no_line() {
        assert_eq!(line(&json!({"rows": []}), false), None);
    }
}
