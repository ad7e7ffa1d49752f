//! `run_qc_checks`: standard data-quality checks with findings graded by severity.
//! Read-only: it reports, it never changes the data.

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

use deskmate_core::{JsonSchema, Localized, ToolError, said};

use super::Query;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

use super::lines::{colon, join};
use super::{Dataset, DatasetDir};
use crate::FnTool;
use crate::numfmt::percent_text;
use crate::said::field;

/// Up to this many findings are written out in the line.
const LINE_FINDINGS: usize = 8;

// A check the tool runs (a doc comment here would join the schema of the items of `checks`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
enum Check {
    RequiredVars,
    MissingRate,
    KeyUnique,
    DatePairs,
    Codelist,
}

/// Every check, in the order they run when a call names none.
const CHECKS: [Check; 5] = [
    Check::RequiredVars,
    Check::MissingRate,
    Check::KeyUnique,
    Check::DatePairs,
    Check::Codelist,
];

// Two date variables where the end must not precede the start.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct DatePair {
    #[schemars(
        length(min = 1),
        description = "Start date variable, e.g. 'TRTSDT'.",
        extend("x-description-zh" = "开始日期变量，例如 'TRTSDT'。")
    )]
    start: String,
    #[schemars(
        length(min = 1),
        description = "End date variable, e.g. 'TRTEDT'.",
        extend("x-description-zh" = "结束日期变量，例如 'TRTEDT'。")
    )]
    end: String,
}

dataset_args! {
    /// Which checks to run on which dataset, and their settings.
    struct Args {
        #[schemars(
            description = "Checks to run; omit to run all of them.",
            extend(
                "uniqueItems" = true,
                "x-all" = "omit",
                "x-description-zh" = "要运行的检查；省略则运行全部检查。"
            )
        )]
        checks: Option<Vec<Check>>,
        #[schemars(
            inner(length(min = 1)),
            description = "Variables that must exist and have no missing values; default STUDYID and USUBJID for CDISC data.",
            extend(
                "uniqueItems" = true,
                "x-description-zh" = "必须存在且不得有缺失值的变量；对 CDISC 数据默认为 STUDYID 和 USUBJID。"
            )
        )]
        required_vars: Option<Vec<String>>,
        #[schemars(
            inner(length(min = 1)),
            description = "Variables that together must be unique per row; default USUBJID when present.",
            extend(
                "uniqueItems" = true,
                "x-description-zh" = "组合起来必须在每行唯一的变量；存在 USUBJID 时默认为 USUBJID。"
            )
        )]
        key: Option<Vec<String>>,
        #[schemars(
            range(min = 0, max = 100),
            description = "Percent of missing values above which a variable is reported; default 10.",
            extend("x-percent" = true, "x-description-zh" = "缺失值百分比超过该值时报告该变量；默认 10。")
        )]
        missing_threshold: Option<f64>,
        #[schemars(
            description = "Pairs of date variables where end must not precede start; default: detected from names.",
            extend("x-description-zh" = "成对的日期变量，结束日期不得早于开始日期；默认根据变量名自动识别。")
        )]
        date_pairs: Option<Vec<DatePair>>,
        #[schemars(
            description = "Allowed values per variable, e.g. {\"SEX\": [\"M\", \"F\"]}; default: SEX and Y/N flags (*FL).",
            extend(
                "additionalProperties" = {"type": "array", "items": {"type": "string"}, "minItems": 1},
                "x-description-zh" = "每个变量允许的取值，例如 {\"SEX\": [\"M\", \"F\"]}；默认检查 SEX 和 Y/N 标志变量（*FL）。"
            )
        )]
        codelist: Option<BTreeMap<String, Vec<String>>>,
    }
}
/// Example values shown per finding.
const MAX_EXAMPLES: usize = 5;
/// CDISC identifiers every subject-level dataset carries.
const CDISC_IDS: [&str; 2] = ["STUDYID", "USUBJID"];

/// The `run_qc_checks` tool over a dataset folder.
pub fn tool(datasets: Arc<DatasetDir>) -> FnTool {
    Query {
        id: "run_qc_checks",
        name: Localized::new("数据质量检查", "Run QC checks"),
        summary: Localized::new(
            "对数据集做常规数据质量检查（必需变量、缺失率、键唯一性、日期先后、受控术语），并按严重程度列出发现的问题；不会修改数据。",
            "Runs standard data-quality checks on a dataset (required variables, missing rates, unique keys, date order, controlled terms) and lists the findings by severity, without changing the data.",
        ),
        description: "Runs standard data-quality checks on a dataset and returns findings graded by \
            severity (error, warning, info). Checks: required_vars (required variables present), \
            missing_rate (share of missing values per variable above a threshold), key_unique (key \
            variables identify each row once), date_pairs (end dates not before start dates), codelist \
            (values within controlled terms). Without options it uses CDISC defaults (STUDYID/USUBJID \
            required, USUBJID as key, *SDT/*EDT and *STDTC/*ENDTC date pairs, SEX and *FL flag codelists). \
            Call describe_dataset first to learn variable names. Read-only: it never changes data.",
        timeout_ms: 15_000,
        run: run_checks,
        line,
        sample: |data| Ok(json!({"dataset": data.name})),
        judge: |answer| match answer["checks_run"].as_array() {
            Some(checks) if !checks.is_empty() => {
                let ran = checks.len();
                let errors = &answer["summary"]["errors"];
                let warnings = &answer["summary"]["warnings"];
                Ok(said!(
                    "运行了 {ran} 项检查：{errors} 个错误，{warnings} 个警告",
                    "{ran} checks run: {errors} errors, {warnings} warnings"
                ))
            }
            _ => Err(said!("没有运行任何检查", "no check ran")),
        },
    }
    .tool(datasets)
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Severity {
    Error,
    Warning,
    Info,
}

impl Severity {
    fn as_str(self) -> &'static str {
        match self {
            Self::Error => "error",
            Self::Warning => "warning",
            Self::Info => "info",
        }
    }
}

struct Finding {
    check: &'static str,
    severity: Severity,
    variables: Vec<String>,
    message: String,
    count: usize,
    examples: Vec<String>,
}

impl Finding {
    fn to_json(&self) -> Value {
        json!({
            "check": self.check,
            "severity": self.severity.as_str(),
            "variables": self.variables,
            "message": self.message,
            "count": self.count,
            "examples": self.examples,
        })
    }
}

fn run_checks(datasets: &DatasetDir, args: Args) -> Result<Value, ToolError> {
    let data = datasets.load(&args.dataset)?;
    let checks = args.checks.unwrap_or_else(|| CHECKS.to_vec());
    let has = |name: &str| data.columns.iter().any(|c| c.name == name);
    let cdisc = CDISC_IDS.iter().any(|id| has(id));
    // Variables named in options must exist (except required_vars, whose absence is the finding).
    let mut named: Vec<&String> = args.key.iter().flatten().collect();
    for pair in args.date_pairs.iter().flatten() {
        named.extend([&pair.start, &pair.end]);
    }
    named.extend(args.codelist.iter().flat_map(BTreeMap::keys));
    for name in &named {
        data.column(name)?;
    }

    let mut findings = Vec::new();
    let required = args.required_vars.clone().unwrap_or_else(|| {
        if cdisc {
            CDISC_IDS.iter().map(|s| s.to_string()).collect()
        } else {
            Vec::new()
        }
    });
    for check in &checks {
        match check {
            Check::RequiredVars => required_vars(&data, &required, &mut findings),
            Check::MissingRate => {
                let threshold = args.missing_threshold.unwrap_or(10.0);
                missing_rate(&data, threshold, &required, &mut findings);
            }
            Check::KeyUnique => {
                let key = args.key.clone().unwrap_or_else(|| {
                    if has("USUBJID") {
                        vec!["USUBJID".to_string()]
                    } else {
                        Vec::new()
                    }
                });
                key_unique(&data, &key, &mut findings);
            }
            Check::DatePairs => {
                let pairs = match &args.date_pairs {
                    Some(pairs) => pairs
                        .iter()
                        .map(|p| (p.start.clone(), p.end.clone()))
                        .collect(),
                    None => detect_date_pairs(&data),
                };
                date_pairs(&data, &pairs, &mut findings)?;
            }
            Check::Codelist => {
                let lists = match &args.codelist {
                    Some(lists) => lists.clone(),
                    None => default_codelists(&data),
                };
                codelists(&data, &lists, &mut findings)?;
            }
        }
    }
    findings.sort_by_key(|f| f.severity);
    let tally = |s: Severity| findings.iter().filter(|f| f.severity == s).count();
    Ok(json!({
        "dataset": data.name,
        "rows": data.rows,
        "checks_run": checks,
        "summary": {
            "errors": tally(Severity::Error),
            "warnings": tally(Severity::Warning),
            "infos": tally(Severity::Info),
        },
        "findings": findings.iter().map(Finding::to_json).collect::<Vec<_>>(),
    }))
}

fn required_vars(data: &Dataset, required: &[String], findings: &mut Vec<Finding>) {
    if required.is_empty() {
        findings.push(Finding {
            check: "required_vars",
            severity: Severity::Info,
            variables: Vec::new(),
            message: "skipped: no required_vars given and the dataset has no CDISC identifiers"
                .into(),
            count: 0,
            examples: Vec::new(),
        });
        return;
    }
    let absent: Vec<String> = required
        .iter()
        .filter(|r| data.column(r).is_err())
        .cloned()
        .collect();
    if !absent.is_empty() {
        findings.push(Finding {
            check: "required_vars",
            severity: Severity::Error,
            message: format!(
                "required variable{} absent: {}",
                if absent.len() == 1 { " is" } else { "s are" },
                absent.join(", ")
            ),
            count: absent.len(),
            examples: Vec::new(),
            variables: absent,
        });
    }
}

fn missing_rate(data: &Dataset, threshold: f64, required: &[String], findings: &mut Vec<Finding>) {
    if data.rows == 0 {
        return;
    }
    for column in &data.columns {
        let missing = column.missing();
        let rate = missing as f64 / data.rows as f64;
        let is_required = required
            .iter()
            .any(|r| r.eq_ignore_ascii_case(&column.name));
        // A required variable may not miss a single value; others may up to the threshold.
        let over = if is_required {
            missing > 0
        } else {
            rate * 100.0 > threshold
        };
        if over {
            let pct = percent_text(rate, 1).unwrap_or_default();
            findings.push(Finding {
                check: "missing_rate",
                severity: if is_required {
                    Severity::Error
                } else {
                    Severity::Warning
                },
                variables: vec![column.name.clone()],
                message: if is_required {
                    format!(
                        "required variable {} has {missing} missing values ({pct}%)",
                        column.name
                    )
                } else {
                    format!(
                        "{} is missing in {missing} of {} rows ({pct}%), above {threshold}%",
                        column.name, data.rows
                    )
                },
                count: missing,
                examples: Vec::new(),
            });
        }
    }
}

fn key_unique(data: &Dataset, key: &[String], findings: &mut Vec<Finding>) {
    let columns: Vec<&super::Column> = key.iter().filter_map(|k| data.column(k).ok()).collect();
    if columns.is_empty() {
        findings.push(Finding {
            check: "key_unique",
            severity: Severity::Info,
            variables: Vec::new(),
            message: "skipped: no key given and the dataset has no USUBJID".into(),
            count: 0,
            examples: Vec::new(),
        });
        return;
    }
    let mut seen: HashMap<Vec<Option<&str>>, usize> = HashMap::new();
    for row in 0..data.rows {
        let value: Vec<Option<&str>> = columns.iter().map(|c| c.values[row].as_deref()).collect();
        *seen.entry(value).or_default() += 1;
    }
    let mut duplicates: Vec<(String, usize)> = seen
        .into_iter()
        .filter(|(_, n)| *n > 1)
        .map(|(k, n)| {
            (
                k.iter()
                    .map(|v| v.unwrap_or(""))
                    .collect::<Vec<_>>()
                    .join(" / "),
                n,
            )
        })
        .collect();
    duplicates.sort();
    if !duplicates.is_empty() {
        let rows: usize = duplicates.iter().map(|(_, n)| n).sum();
        findings.push(Finding {
            check: "key_unique",
            severity: Severity::Error,
            variables: columns.iter().map(|c| c.name.clone()).collect(),
            message: format!(
                "{} key value{} occur more than once ({rows} rows)",
                duplicates.len(),
                if duplicates.len() == 1 { "" } else { "s" }
            ),
            count: duplicates.len(),
            examples: duplicates
                .iter()
                .take(MAX_EXAMPLES)
                .map(|(k, n)| format!("{k} ×{n}"))
                .collect(),
        });
    }
}

/// Pairs like TRTSDT/TRTEDT, RFSTDTC/RFENDTC, ASTDT/AENDT among date columns.
fn detect_date_pairs(data: &Dataset) -> Vec<(String, String)> {
    let temporal: Vec<&str> = data
        .columns
        .iter()
        .filter(|c| c.kind.is_temporal())
        .map(|c| c.name.as_str())
        .collect();
    let mut pairs = Vec::new();
    for start in &temporal {
        for (from, to) in [
            ("SDT", "EDT"),
            ("STDTC", "ENDTC"),
            ("STDT", "ENDT"),
            ("SDTM", "EDTM"),
        ] {
            if let Some(prefix) = start.strip_suffix(from) {
                let end = format!("{prefix}{to}");
                if temporal.contains(&end.as_str())
                    && !pairs.iter().any(|(s, _): &(String, String)| s == start)
                {
                    pairs.push((start.to_string(), end));
                }
            }
        }
    }
    pairs
}

fn date_pairs(
    data: &Dataset,
    pairs: &[(String, String)],
    findings: &mut Vec<Finding>,
) -> Result<(), ToolError> {
    if pairs.is_empty() {
        findings.push(Finding {
            check: "date_pairs",
            severity: Severity::Info,
            variables: Vec::new(),
            message: "skipped: no date pairs given or detected".into(),
            count: 0,
            examples: Vec::new(),
        });
        return Ok(());
    }
    let ids = data.column("USUBJID").ok();
    for (start, end) in pairs {
        let (s, e) = (data.column(start)?, data.column(end)?);
        for c in [s, e] {
            if !c.kind.is_temporal() && c.kind != super::ColumnKind::Empty {
                return Err(ToolError::validation(format!(
                    "variable '{}' is {}, not a date",
                    c.name,
                    c.kind.as_str()
                ))
                .with_options(
                    data.columns
                        .iter()
                        .filter(|c| c.kind.is_temporal())
                        .map(|c| c.name.clone()),
                ));
            }
        }
        let mut bad = Vec::new();
        for row in 0..data.rows {
            if let (Some(a), Some(b)) = (&s.values[row], &e.values[row]) {
                // ISO dates and date-times compare correctly as text at their common precision.
                let n = a.len().min(b.len());
                if b[..n] < a[..n] {
                    let who = ids
                        .and_then(|c| c.values[row].clone())
                        .unwrap_or_else(|| format!("row {}", row + 1));
                    bad.push(format!("{who}: {end} {b} < {start} {a}"));
                }
            }
        }
        if !bad.is_empty() {
            findings.push(Finding {
                check: "date_pairs",
                severity: Severity::Error,
                variables: vec![s.name.clone(), e.name.clone()],
                message: format!("{} ends before {} in {} rows", e.name, s.name, bad.len()),
                count: bad.len(),
                examples: bad.into_iter().take(MAX_EXAMPLES).collect(),
            });
        }
    }
    Ok(())
}

fn default_codelists(data: &Dataset) -> BTreeMap<String, Vec<String>> {
    let mut lists = BTreeMap::new();
    for column in data
        .columns
        .iter()
        .filter(|c| c.kind == super::ColumnKind::String)
    {
        if column.name == "SEX" {
            lists.insert(
                column.name.clone(),
                ["M", "F", "U", "UNDIFFERENTIATED"]
                    .map(String::from)
                    .to_vec(),
            );
        } else if column.name.len() > 2 && column.name.ends_with("FL") {
            lists.insert(column.name.clone(), vec!["Y".to_string(), "N".to_string()]);
        }
    }
    lists
}

fn codelists(
    data: &Dataset,
    lists: &BTreeMap<String, Vec<String>>,
    findings: &mut Vec<Finding>,
) -> Result<(), ToolError> {
    if lists.is_empty() {
        findings.push(Finding {
            check: "codelist",
            severity: Severity::Info,
            variables: Vec::new(),
            message: "skipped: no codelists given or applicable".into(),
            count: 0,
            examples: Vec::new(),
        });
    }
    for (name, allowed) in lists {
        let column = data.column(name)?;
        let mut off: Map<String, Value> = Map::new();
        let mut count = 0;
        for value in column.values.iter().flatten() {
            if !allowed.contains(value) {
                count += 1;
                let n = off.entry(value.clone()).or_insert(json!(0));
                *n = json!(n.as_u64().unwrap_or(0) + 1);
            }
        }
        if count > 0 {
            findings.push(Finding {
                check: "codelist",
                severity: Severity::Warning,
                variables: vec![column.name.clone()],
                message: format!(
                    "{count} values of {} are outside the codelist [{}]",
                    column.name,
                    allowed.join(", ")
                ),
                count,
                examples: off
                    .iter()
                    .take(MAX_EXAMPLES)
                    .map(|(k, n)| format!("{k} ×{n}"))
                    .collect(),
            });
        }
    }
    Ok(())
}

/// The checks in a line: errors and warnings counted, then the findings when there are
/// a few.
fn line(data: &Value, zh: bool) -> Option<(String, bool)> {
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
    let complete = findings.len() <= LINE_FINDINGS;
    let shown: Vec<String> = findings.into_iter().take(LINE_FINDINGS).collect();
    Some((colon(head, &join(&shown, zh, true), zh), complete))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn qc_findings_are_written_out_up_to_a_few() {
        let finding =
            |m: &str| json!({"check": "missing_rate", "severity": "warning", "message": m});
        let data = json!({"dataset": "adsl", "summary": {"errors": 0, "warnings": 1},
            "findings": [finding("DTHFL is missing in 251 of 254 rows (98.8%), above 10%")]});
        assert_eq!(
            line(&data, false),
            Some((
                "QC of adsl: 0 errors, 1 warnings: DTHFL is missing in 251 of 254 rows (98.8%), above 10%"
                    .to_string(),
                true
            ))
        );
        let many: Vec<Value> = (0..20).map(|i| finding(&format!("finding {i}"))).collect();
        let data = json!({"dataset": "adsl", "summary": {"errors": 20, "warnings": 0},
            "findings": many});
        assert_eq!(line(&data, false).map(|(_, w)| w), Some(false));
        let clean =
            json!({"dataset": "adsl", "summary": {"errors": 0, "warnings": 0}, "findings": []});
        assert_eq!(
            line(&clean, true),
            Some(("adsl 质控：0 个错误，0 个警告".to_string(), true))
        );
    }
}
