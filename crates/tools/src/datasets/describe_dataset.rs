//! `describe_dataset`: rows, columns, and per-variable type, missing count and sample values.

use std::sync::Arc;

use deskmate_core::{Localized, ToolError, said};

use super::Query;
use serde_json::{Value, json};

use super::DatasetDir;
use super::lines::{colon, join};
use crate::FnTool;
use crate::numfmt::percent_text;
use crate::said::{clip, field, text};

/// Up to this many variables of a description are written out with their details.
const DETAILED_VARIABLES: usize = 6;
/// Up to this many variable names are listed in a description of every variable.
const LISTED_NAMES: usize = 80;

dataset_args! {
    /// What to describe.
    struct Args {
        #[schemars(
            inner(length(min = 1)),
            description = "Only describe these variables (names as in the file, e.g. 'AGE'); omit for all.",
            extend(
                "uniqueItems" = true,
                "x-all" = "omit",
                "x-description-zh" = "只描述这些变量（使用文件中的名称，例如 'AGE'）；省略则描述全部变量。"
            )
        )]
        variables: Option<Vec<String>>,
    }
}

/// The `describe_dataset` tool over a dataset folder.
pub fn tool(datasets: Arc<DatasetDir>) -> FnTool {
    Query {
        id: "describe_dataset",
        name: Localized::new("描述数据集", "Describe dataset"),
        summary: Localized::new(
            "介绍一个数据集的结构：有多少行和列，以及每个变量的类型、缺失数和示例值。",
            "Describes a dataset's structure: how many rows and columns, and each variable's type, missing count and sample values.",
        ),
        description: "Describes the structure of a local dataset: number of rows and columns and, per \
            variable, its type (integer, number, date, datetime, string), missing count and a few sample \
            values. Call it first to learn the variable names before summarize_by_group, frequency or \
            run_qc_checks. Read-only.",
        timeout_ms: 10_000,
        run: describe,
        line,
        sample: |data| Ok(json!({"dataset": data.name})),
        judge: |answer| match (answer["rows"].as_u64(), answer["columns"].as_u64()) {
            (Some(rows), Some(columns)) if rows > 0 && columns > 0 => Ok(said!(
                "{rows} 行，{columns} 列",
                "{rows} rows, {columns} columns"
            )),
            _ => {
                let (rows, columns) = (&answer["rows"], &answer["columns"]);
                Err(said!(
                    "数据集有 {rows} 行、{columns} 列：没有可处理的数据",
                    "the dataset has {rows} rows and {columns} columns: nothing to work on"
                ))
            }
        },
    }
    .tool(datasets)
}

fn describe(datasets: &DatasetDir, args: Args) -> Result<Value, ToolError> {
    let data = datasets.load(&args.dataset)?;
    let columns: Vec<&super::Column> = match &args.variables {
        Some(wanted) => wanted
            .iter()
            .map(|w| data.column(w))
            .collect::<Result<_, _>>()?,
        None => data.columns.iter().collect(),
    };
    let variables: Vec<Value> = columns
        .iter()
        .map(|column| {
            let missing = column.missing();
            let mut samples: Vec<&str> = Vec::new();
            for value in column.values.iter().flatten() {
                if samples.len() == 3 {
                    break;
                }
                if !samples.contains(&value.as_str()) {
                    samples.push(value);
                }
            }
            let missing_pct = if data.rows == 0 {
                Value::Null
            } else {
                percent_text(missing as f64 / data.rows as f64, 1)
                    .and_then(|t| t.parse::<f64>().ok())
                    .map_or(Value::Null, Value::from)
            };
            json!({
                "name": column.name,
                "type": column.kind.as_str(),
                "missing": missing,
                "missing_pct": missing_pct,
                "sample_values": samples,
            })
        })
        .collect();
    Ok(json!({
        "dataset": data.name,
        "rows": data.rows,
        "columns": data.columns.len(),
        "variables": variables,
    }))
}

/// The description in a line: the size, then the few variables asked for in detail, or
/// the names of all of them (up to [`LISTED_NAMES`]).
fn line(data: &Value, zh: bool) -> Option<(String, bool)> {
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
    if !all && variables.len() <= DETAILED_VARIABLES {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_description_lists_the_variables_or_details_the_few_asked_for() {
        let var = |name: &str| {
            json!({"name": name, "type": "string", "missing": 0, "missing_pct": 0.0,
                   "sample_values": ["F", "M"]})
        };
        let all = json!({"dataset": "dm", "rows": 3, "columns": 3,
            "variables": [var(""), var("SEX"), var("RACE")]});
        assert_eq!(
            line(&all, false),
            Some((
                "dm: 3 rows, 3 columns: variables SEX, RACE".to_string(),
                true
            ))
        );
        let few = json!({"dataset": "dm", "rows": 3, "columns": 3, "variables": [var("SEX")]});
        assert_eq!(
            line(&few, false).map(|(l, _)| l).as_deref(),
            Some("dm: 3 rows, 3 columns: SEX: string, 0 missing, e.g. F, M")
        );
        assert_eq!(
            line(&few, true).map(|(l, _)| l).as_deref(),
            Some("dm：3 行，3 列：SEX：string，缺失 0，例如 F、M")
        );
    }
}
