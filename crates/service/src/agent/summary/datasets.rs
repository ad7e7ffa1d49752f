//! The lines of the dataset tools. A small table reads in one line with its values
//! ("adsl SEX (254): F 143 (56.3%), M 111 (43.7%)"), and then the line is the whole
//! answer; a large one is only counted, and the card's table is where it is read.

use serde_json::{Map, Value};

use super::{clip, field, text};

/// Up to this many rows of a frequency table are written out in its line.
const FREQUENCY_ROWS: usize = 12;
/// Up to this many groups of a summary are written out in its line.
const SUMMARY_GROUPS: usize = 8;
/// Up to this many variables of a description are written out with their details.
const DESCRIBED_VARIABLES: usize = 6;
/// Up to this many variable names are listed in a description of every variable.
const LISTED_NAMES: usize = 80;
/// Up to this many QC findings are written out in its line.
const QC_FINDINGS: usize = 8;

/// A dataset tool's line, and whether it holds the whole result; `None` for another
/// tool or when the data lacks what the line needs.
pub(super) fn line(tool: &str, data: &Value, zh: bool) -> Option<(String, bool)> {
    match tool {
        "frequency" => frequency(data, zh),
        "summarize_by_group" => summary(data, zh),
        "describe_dataset" => description(data, zh),
        "run_qc_checks" => qc(data, zh),
        _ => None,
    }
}

fn rows(data: &Value) -> &[Value] {
    data.get("rows")
        .and_then(Value::as_array)
        .map_or(&[], Vec::as_slice)
}

/// Joins the parts of a line: "，" and "；" in Chinese, ", " and "; " otherwise.
fn join(parts: &[String], zh: bool, strong: bool) -> String {
    let separator = match (zh, strong) {
        (true, true) => "；",
        (true, false) => "，",
        (false, true) => "; ",
        (false, false) => ", ",
    };
    parts.join(separator)
}

/// "F 143 (56.3%)".
fn count(row: &Value, zh: bool) -> Option<String> {
    let value = field(row, "value")?;
    let n = field(row, "n")?;
    Some(match (field(row, "pct"), zh) {
        (Some(pct), true) => format!("{value} {n}（{pct}%）"),
        (Some(pct), false) => format!("{value} {n} ({pct}%)"),
        (None, _) => format!("{value} {n}"),
    })
}

fn frequency(data: &Value, zh: bool) -> Option<(String, bool)> {
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
    if rows.is_empty() || rows.len() > FREQUENCY_ROWS {
        return Some(counted(head, rows.len(), zh));
    }
    let body = if by.is_some() {
        // Rows come grouped: one part per group, its counts after it.
        let mut groups: Vec<(String, Vec<String>)> = Vec::new();
        for row in rows {
            let group = field(row, "group").unwrap_or_default();
            let count = count(row, zh)?;
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
        let counts: Option<Vec<String>> = rows.iter().map(|r| count(r, zh)).collect();
        join(&counts?, zh, false)
    };
    Some((colon(head, &body, zh), true))
}

/// A summary row's statistics after its group's name, keys in the line's language.
fn statistics(row: &Map<String, Value>, zh: bool) -> String {
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

/// The Chinese header of a summary statistic the dataset tools write in English.
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

fn summary(data: &Value, zh: bool) -> Option<(String, bool)> {
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
    if rows.is_empty() || rows.len() > SUMMARY_GROUPS {
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

fn description(data: &Value, zh: bool) -> Option<(String, bool)> {
    let dataset = field(data, "dataset")?;
    let rows = field(data, "rows")?;
    let columns = field(data, "columns")?;
    let head = if zh {
        format!("{dataset}：{rows} 行，{columns} 列")
    } else {
        format!("{dataset}: {rows} rows, {columns} columns")
    };
    let variables = data.get("variables").and_then(Value::as_array);
    let Some(variables) = variables.filter(|v| !v.is_empty()) else {
        return Some((head, true));
    };
    let all = columns.parse::<usize>().ok() == Some(variables.len());
    if !all && variables.len() <= DESCRIBED_VARIABLES {
        let parts: Vec<String> = variables.iter().filter_map(|v| variable(v, zh)).collect();
        return Some((colon(head, &join(&parts, zh, true), zh), true));
    }
    let names: Vec<String> = variables
        .iter()
        .filter_map(|v| field(v, "name"))
        .filter(|name| !name.is_empty())
        .collect();
    let complete = names.len() <= LISTED_NAMES;
    let listed: Vec<String> = names.into_iter().take(LISTED_NAMES).collect();
    let label = if zh { "变量" } else { "variables" };
    let body = format!("{label} {}", join(&listed, zh, false));
    Some((colon(head, &body, zh), complete))
}

/// "AGE: integer, 0 missing, e.g. 63, 64, 71".
fn variable(v: &Value, zh: bool) -> Option<String> {
    let name = field(v, "name")?;
    let kind = field(v, "type").unwrap_or_default();
    let missing = field(v, "missing").unwrap_or_else(|| "0".into());
    let samples: Vec<String> = v
        .get("sample_values")
        .and_then(Value::as_array)
        .map(|s| s.iter().filter_map(text).map(|s| clip(&s, 20)).collect())
        .unwrap_or_default();
    Some(match zh {
        true => format!(
            "{name}：{kind}，缺失 {missing}，例如 {}",
            samples.join("、")
        ),
        false => format!(
            "{name}: {kind}, {missing} missing, e.g. {}",
            samples.join(", ")
        ),
    })
}

fn qc(data: &Value, zh: bool) -> Option<(String, bool)> {
    let dataset = field(data, "dataset")?;
    let errors = field(&data["summary"], "errors")?;
    let warnings = field(&data["summary"], "warnings")?;
    let head = if zh {
        format!("{dataset} 质控：{errors} 个错误，{warnings} 个警告")
    } else {
        format!("QC of {dataset}: {errors} errors, {warnings} warnings")
    };
    let findings: Vec<String> = data
        .get("findings")
        .and_then(Value::as_array)
        .map(|f| f.iter().filter_map(|f| field(f, "message")).collect())
        .unwrap_or_default();
    if findings.is_empty() {
        return Some((head, true));
    }
    let complete = findings.len() <= QC_FINDINGS;
    let shown: Vec<String> = findings.into_iter().take(QC_FINDINGS).collect();
    Some((colon(head, &join(&shown, zh, true), zh), complete))
}

/// "head: body" ("head：body" in Chinese).
fn colon(head: String, body: &str, zh: bool) -> String {
    if zh {
        format!("{head}：{body}")
    } else {
        format!("{head}: {body}")
    }
}

/// The line of a table too large to write out: how many rows it has.
fn counted(head: String, rows: usize, zh: bool) -> (String, bool) {
    let line = if zh {
        format!("{head}，{rows} 行")
    } else {
        format!("{head}, {rows} rows")
    };
    (line, false)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

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
            line("frequency", &data, false),
            Some((
                "adsl: SEX (of 254): F 143 (56.3%), M 111 (43.7%)".to_string(),
                true
            ))
        );
        let data = json!({"dataset": "adsl", "variable": "SEX", "by": "TRT01P", "total": 170,
            "rows": [count("F", 53, 61.6, Some("Placebo")), count("M", 33, 38.4, Some("Placebo")),
                     count("F", 40, 47.6, Some("High")), count("M", 44, 52.4, Some("High"))]});
        assert_eq!(
            line("frequency", &data, true).map(|(l, _)| l).as_deref(),
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
            line("frequency", &data, false),
            Some(("adsl: AGE (of 40), 40 rows".to_string(), false))
        );
    }

    #[test]
    fn a_summary_lists_each_group_with_its_statistics() {
        let row = |group: &str, n: u32, mean: &str| {
            json!({"group": group, "n": n, "Mean (SD)": mean, "Median": 76.0,
                   "Min, Max": "52.0, 89.0", "missing": 0})
        };
        let data = json!({"dataset": "adsl", "variable": "AGE", "group_by": "TRT01P",
            "rows": [row("Placebo", 86, "75.21 (8.59)"), row("Total", 254, "75.09 (8.25)")],
            "missing": 0});
        let (en, whole) = line("summarize_by_group", &data, false).unwrap_or_default();
        assert!(whole);
        assert_eq!(
            en,
            "adsl: AGE by TRT01P: Placebo: n 86, Mean (SD) 75.21 (8.59), Median 76.0, \
             Min, Max 52.0, 89.0; Total: n 254, Mean (SD) 75.09 (8.25), Median 76.0, Min, Max 52.0, 89.0"
        );
        let (zh, _) = line("summarize_by_group", &data, true).unwrap_or_default();
        assert!(
            zh.starts_with(
                "adsl：按 TRT01P 汇总 AGE：Placebo：n 86，均值 (SD) 75.21 (8.59)，中位数 76.0"
            ),
            "{zh}"
        );
    }

    #[test]
    fn a_description_lists_the_variables_or_details_the_few_asked_for() {
        let var = |name: &str| {
            json!({"name": name, "type": "string", "missing": 0, "missing_pct": 0.0,
                   "sample_values": ["F", "M"]})
        };
        let all = json!({"dataset": "dm", "rows": 3, "columns": 3,
            "variables": [var(""), var("SEX"), var("RACE")]});
        assert_eq!(
            line("describe_dataset", &all, false),
            Some((
                "dm: 3 rows, 3 columns: variables SEX, RACE".to_string(),
                true
            ))
        );
        let few = json!({"dataset": "dm", "rows": 3, "columns": 3, "variables": [var("SEX")]});
        assert_eq!(
            line("describe_dataset", &few, false)
                .map(|(l, _)| l)
                .as_deref(),
            Some("dm: 3 rows, 3 columns: SEX: string, 0 missing, e.g. F, M")
        );
    }

    #[test]
    fn qc_findings_are_written_out_up_to_a_few() {
        let finding =
            |m: &str| json!({"check": "missing_rate", "severity": "warning", "message": m});
        let data = json!({"dataset": "adsl", "summary": {"errors": 0, "warnings": 1},
            "findings": [finding("DTHFL is missing in 251 of 254 rows (98.8%), above 10%")]});
        assert_eq!(
            line("run_qc_checks", &data, false),
            Some((
                "QC of adsl: 0 errors, 1 warnings: DTHFL is missing in 251 of 254 rows (98.8%), above 10%"
                    .to_string(),
                true
            ))
        );
        let many: Vec<Value> = (0..20).map(|i| finding(&format!("finding {i}"))).collect();
        let data = json!({"dataset": "adsl", "summary": {"errors": 20, "warnings": 0},
            "findings": many});
        assert_eq!(
            line("run_qc_checks", &data, false).map(|(_, w)| w),
            Some(false)
        );
    }

    #[test]
    fn other_tools_and_odd_data_have_no_dataset_line() {
        assert_eq!(line("calculator", &json!({"dataset": "x"}), false), None);
        assert_eq!(line("frequency", &json!({"rows": []}), false), None);
    }
}
