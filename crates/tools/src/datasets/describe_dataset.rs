//! `describe_dataset`: rows, columns, and per-variable type, missing count and sample values.

use std::sync::Arc;

use deskmate_core::{JsonSchema, Localized, ToolError, said};

use super::Query;
use serde::Deserialize;
use serde_json::{Value, json};

use super::DatasetDir;
use crate::FnTool;
use crate::numfmt::percent_text;

/// What to describe.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct Args {
    #[schemars(schema_with = "super::dataset_schema")]
    dataset: String,
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
