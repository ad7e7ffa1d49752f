//! The dataset tools over a whitelisted folder of CSV files.
//!
//! The whitelist is the set of `.csv` files present in the folder; a dataset's name is
//! its lower-cased file stem. A name from a caller is only ever looked up in that map —
//! it is never joined into a path — and the resolved file must still lie inside the
//! folder after symlinks are followed.

/// Declares a dataset tool's `Args` around its own fields, with the parameters every
/// dataset tool spells alike: `dataset` first and, `with subjects`, the subjects to keep
/// last.
macro_rules! dataset_args {
    ($(#[$attr:meta])* struct Args { $($field:tt)* }) => {
        $(#[$attr])*
        #[derive(Debug, serde::Deserialize, deskmate_core::JsonSchema)]
        #[serde(deny_unknown_fields)]
        struct Args {
            #[schemars(schema_with = "super::dataset_schema")]
            dataset: String,
            $($field)*
        }
    };
    ($(#[$attr:meta])* struct Args { $($field:tt)* } with subjects) => {
        dataset_args! {
            $(#[$attr])*
            struct Args {
                $($field)*
                #[serde(default)] // with `schema_with`, what makes the field optional in the schema
                #[schemars(schema_with = "super::subjects_schema")]
                subjects: Option<Vec<String>>,
            }
        }
    };
}

mod concepts;
pub mod describe_dataset;
pub mod frequency;
mod grouping;
mod lines;
pub mod run_qc_checks;
pub mod summarize_by_group;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use deskmate_core::resolve::closest;
use deskmate_core::{JsonSchema, Localized, ToolError, said};
use schemars::{Schema, SchemaGenerator, json_schema};
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

use crate::FnTool;
use crate::read_only::ReadOnly;
use crate::self_check::{Judge, SelfCheck, Verdict};

/// A dataset tool: a read-only query over the dataset folder, run on the blocking pool
/// (it reads files), that checks itself with a sample call on the first dataset. Each
/// tool's file says only what differs: its words, what it computes, how it says its
/// answer in a line, its sample call and how its answer is judged.
struct Query<A> {
    id: &'static str,
    name: Localized,
    summary: Localized,
    /// For the model: what it does, when to call it.
    description: &'static str,
    timeout_ms: u64,
    run: fn(&DatasetDir, A) -> Result<Value, ToolError>,
    /// The answer in a line for a person (`said` in the answer).
    line: lines::Line,
    /// The self-check's arguments, picked from the first dataset.
    sample: fn(&Dataset) -> Result<Value, Verdict>,
    judge: Judge,
}

impl<A: DeserializeOwned + JsonSchema + 'static> Query<A> {
    fn tool(self, datasets: Arc<DatasetDir>) -> FnTool {
        let spec = ReadOnly {
            id: self.id,
            name: self.name,
            summary: self.summary,
            description: self.description,
            timeout_ms: self.timeout_ms,
        }
        .spec(datasets.schema_for::<A>());
        let (run, line, sample, judge) = (self.run, self.line, self.sample, self.judge);
        let checked = datasets.clone();
        FnTool::blocking(spec, move |args| {
            run(&datasets, args).map(|data| lines::with_line(data, line))
        })
        .with_self_check(move || check_on_first_dataset(checked.clone(), sample, judge))
    }
}

/// The self-check of a dataset tool: a sample call on the first dataset present, with
/// arguments `args` picks from the loaded data; skipped when there is no dataset, failed
/// when the first one cannot be read.
fn check_on_first_dataset(
    datasets: Arc<DatasetDir>,
    args: fn(&Dataset) -> Result<Value, Verdict>,
    judge: Judge,
) -> SelfCheck {
    SelfCheck::SampleFrom {
        args: Arc::new(move || {
            let name = datasets.names().into_iter().next().ok_or_else(|| {
                let root = datasets.root().display();
                Verdict::Skipped(said!(
                    "没有数据集：把 CSV 文件放进 {root}，才能用它检查这个工具",
                    "no dataset: put a CSV file in {root} to check this tool on it"
                ))
            })?;
            let data = datasets.load(&name).map_err(|e| {
                let hint = e.hint.map(|h| format!(" — {h}")).unwrap_or_default();
                let message = e.message;
                Verdict::Failed(said!(
                    "无法读取第一个数据集：{message}{hint}",
                    "the first dataset cannot be read: {message}{hint}"
                ))
            })?;
            args(&data)
        }),
        judge,
    }
}

/// How many different values a column holds (missing cells not counted).
fn distinct_values(column: &Column) -> usize {
    column
        .values
        .iter()
        .flatten()
        .collect::<std::collections::HashSet<_>>()
        .len()
}

/// Largest CSV file the tools read.
const MAX_FILE_BYTES: u64 = 256 * 1024 * 1024;

/// Cells read as missing: empty, `NA`, and SAS's `.`.
fn is_missing(cell: &str) -> bool {
    matches!(cell.trim(), "" | "NA" | ".")
}

/// The whitelisted datasets of one folder.
#[derive(Debug, Clone)]
pub struct DatasetDir {
    root: PathBuf,
    /// Name → file name inside `root` (taken from the directory listing, never from a caller).
    files: BTreeMap<String, String>,
}

impl DatasetDir {
    /// Lists the CSV files of `root`. A missing folder is an empty whitelist.
    pub fn scan(root: &Path) -> Self {
        let mut files = BTreeMap::new();
        let mut entries: Vec<(String, String)> = std::fs::read_dir(root)
            .into_iter()
            .flatten()
            .flatten()
            .filter_map(|entry| {
                let file_name = entry.file_name().into_string().ok()?;
                let path = Path::new(&file_name);
                let is_csv = path
                    .extension()
                    .is_some_and(|e| e.eq_ignore_ascii_case("csv"));
                let stem = path.file_stem()?.to_str()?.to_lowercase();
                (is_csv && !stem.is_empty() && !stem.starts_with('.')).then_some((stem, file_name))
            })
            .collect();
        entries.sort();
        for (name, file_name) in entries {
            if files.contains_key(&name) {
                tracing::warn!(dataset = %name, file = %file_name, "two CSV files share a dataset name; keeping the first");
                continue;
            }
            files.insert(name, file_name);
        }
        Self {
            root: root.to_path_buf(),
            files,
        }
    }

    /// The folder.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Dataset names, sorted.
    pub fn names(&self) -> Vec<String> {
        self.files.keys().cloned().collect()
    }

    /// The parameter schema of a dataset tool's argument type `T`, whose `dataset` field
    /// is a [`dataset_schema`]: the names present become its enum (the normalizer then
    /// folds case, trims and strips `.csv`/`.xpt`).
    pub fn schema_for<T: JsonSchema>(&self) -> Value {
        let mut schema = deskmate_core::schema_for::<T>();
        // With no files the enum would be empty and reject everything with no useful
        // options; the tool then answers not_found with the folder in the hint instead.
        if !self.files.is_empty() {
            schema["properties"]["dataset"]["enum"] = json!(self.names());
        }
        schema
    }

    /// Resolves a name to a file inside the folder.
    pub fn resolve(&self, name: &str) -> Result<PathBuf, ToolError> {
        let Some(file_name) = self.files.get(name) else {
            if self.files.is_empty() {
                return Err(ToolError::not_found(format!(
                    "no datasets are available (asked for '{name}')"
                ))
                .with_hint(format!(
                    "copy CSV files into the datasets folder {}",
                    self.root.display()
                )));
            }
            return Err(ToolError::not_found(format!("no dataset named '{name}'"))
                .with_hint("use one of the listed dataset names")
                .with_options(self.names()));
        };
        let root = self.root.canonicalize().map_err(|e| {
            ToolError::not_found(format!("the datasets folder cannot be read: {e}"))
        })?;
        let path = root
            .join(file_name)
            .canonicalize()
            .map_err(|e| ToolError::not_found(format!("dataset '{name}' cannot be opened: {e}")))?;
        // Belt and braces: a symlink in the folder must not lead outside it.
        if !path.starts_with(&root) {
            return Err(ToolError::permission(format!(
                "dataset '{name}' points outside the datasets folder"
            ))
            .with_hint("only files inside the datasets folder can be read"));
        }
        Ok(path)
    }

    /// Loads a dataset by name.
    pub fn load(&self, name: &str) -> Result<Dataset, ToolError> {
        let path = self.resolve(name)?;
        Dataset::read(name, &path)
    }
}

/// The inferred type of a column.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ColumnKind {
    /// Every present value is a whole number.
    Integer,
    /// Every present value is a number.
    Number,
    /// Every present value is an ISO date (`YYYY-MM-DD`).
    Date,
    /// Every present value is an ISO date-time.
    DateTime,
    /// Anything else.
    String,
    /// No value present.
    Empty,
}

impl ColumnKind {
    /// The name shown to callers.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Integer => "integer",
            Self::Number => "number",
            Self::Date => "date",
            Self::DateTime => "datetime",
            Self::String => "string",
            Self::Empty => "empty",
        }
    }

    /// Whether values are numbers.
    pub fn is_numeric(self) -> bool {
        matches!(self, Self::Integer | Self::Number)
    }

    /// Whether values are dates or date-times.
    pub fn is_temporal(self) -> bool {
        matches!(self, Self::Date | Self::DateTime)
    }
}

/// One column: its name, its cells (`None` when missing) and its inferred kind.
#[derive(Debug, Clone)]
pub struct Column {
    /// Header text.
    pub name: String,
    /// Cells, trimmed; `None` when missing.
    pub values: Vec<Option<String>>,
    /// Inferred type.
    pub kind: ColumnKind,
}

impl Column {
    /// Number of missing cells.
    pub fn missing(&self) -> usize {
        self.values.iter().filter(|v| v.is_none()).count()
    }

    /// The cell at `row` as a number, when present and numeric.
    pub fn number(&self, row: usize) -> Option<f64> {
        self.values.get(row)?.as_deref()?.parse().ok()
    }
}

/// A loaded CSV file.
#[derive(Debug, Clone)]
pub struct Dataset {
    /// Whitelisted name.
    pub name: String,
    /// Number of data rows.
    pub rows: usize,
    /// Columns in file order.
    pub columns: Vec<Column>,
}

impl Dataset {
    /// Reads a CSV file with a header row.
    pub fn read(name: &str, path: &Path) -> Result<Self, ToolError> {
        let size = std::fs::metadata(path).map(|m| m.len()).unwrap_or(0);
        if size > MAX_FILE_BYTES {
            return Err(ToolError::validation(format!(
                "dataset '{name}' is {size} bytes, more than the {MAX_FILE_BYTES} the tools read"
            )));
        }
        let mut reader = csv::ReaderBuilder::new()
            .flexible(false)
            .from_path(path)
            .map_err(|e| ToolError::internal(format!("dataset '{name}' cannot be opened: {e}")))?;
        let headers: Vec<String> = reader
            .headers()
            .map_err(|e| {
                ToolError::validation(format!("dataset '{name}' has no readable header row: {e}"))
            })?
            .iter()
            // Spreadsheet exports often start with a UTF-8 byte-order mark.
            .map(|h| h.trim_start_matches('\u{feff}').trim().to_string())
            .collect();
        let mut columns: Vec<Column> = headers
            .iter()
            .map(|h| Column {
                name: h.clone(),
                values: Vec::new(),
                kind: ColumnKind::Empty,
            })
            .collect();
        let mut rows = 0;
        for record in reader.records() {
            let record = record.map_err(|e| {
                ToolError::validation(format!("dataset '{name}' is not well-formed CSV: {e}"))
                    .with_hint(
                        "fix the file (every row needs the same number of fields as the header)",
                    )
            })?;
            for (column, cell) in columns.iter_mut().zip(record.iter()) {
                column
                    .values
                    .push((!is_missing(cell)).then(|| cell.trim().to_string()));
            }
            rows += 1;
        }
        for column in &mut columns {
            column.kind = infer_kind(&column.values);
        }
        Ok(Self {
            name: name.to_string(),
            rows,
            columns,
        })
    }

    /// Finds a column by name: exact, then ignoring case. Otherwise a `validation` error
    /// with the closest column names.
    pub fn column(&self, wanted: &str) -> Result<&Column, ToolError> {
        if let Some(column) = self.columns.iter().find(|c| c.name == wanted) {
            return Ok(column);
        }
        let matches: Vec<&Column> = self
            .columns
            .iter()
            .filter(|c| c.name.eq_ignore_ascii_case(wanted.trim()))
            .collect();
        if let [only] = matches.as_slice() {
            return Ok(only);
        }
        // An unnamed column (a CSV's index) cannot be named in a call: never an option.
        let names = self
            .columns
            .iter()
            .map(|c| c.name.as_str())
            .filter(|n| !n.is_empty());
        let meant = concepts::meant(wanted, names.clone());
        let hint = match meant.first() {
            // The options hold what the words mean first, then similar names; the hint
            // does not say so: the model copied that aside into its replies.
            Some(first) => {
                format!("'{wanted}' is not a column name; the column for it is probably '{first}'")
            }
            None => "use a variable name from the options or from describe_dataset".into(),
        };
        let mut options = meant;
        for name in closest(wanted, names, 8) {
            if options.len() < 8 && !options.contains(&name) {
                options.push(name);
            }
        }
        Err(ToolError::validation(format!(
            "dataset '{}' has no variable '{wanted}'",
            self.name
        ))
        .with_hint(hint)
        .with_options(options))
    }

    /// Finds a numeric column, or says which columns are numeric.
    pub fn numeric_column(&self, wanted: &str) -> Result<&Column, ToolError> {
        let column = self.column(wanted)?;
        if column.kind.is_numeric() {
            return Ok(column);
        }
        let numeric = self
            .columns
            .iter()
            .filter(|c| c.kind.is_numeric())
            .map(|c| c.name.as_str());
        Err(ToolError::validation(format!(
            "variable '{}' is {}, not numeric",
            column.name,
            column.kind.as_str()
        ))
        .with_hint("summaries need a numeric variable; use frequency for categorical ones")
        .with_options(closest(wanted, numeric, 8)))
    }

    /// Row indices to include: all rows, or the rows of the given subjects (by `USUBJID`).
    /// Unknown subject ids are a `validation` error naming them.
    pub fn subject_rows(&self, subjects: Option<&[String]>) -> Result<Vec<usize>, ToolError> {
        let wanted: Vec<&str> = subjects
            .unwrap_or_default()
            .iter()
            .map(String::as_str)
            .collect();
        if wanted.is_empty() {
            return Ok((0..self.rows).collect());
        }
        let ids = self.column("USUBJID").map_err(|_| {
            ToolError::validation(format!(
                "dataset '{}' has no USUBJID variable to filter subjects by",
                self.name
            ))
            .with_hint("omit 'subjects' for this dataset")
        })?;
        let unknown: Vec<&str> = wanted
            .iter()
            .copied()
            .filter(|w| !ids.values.iter().any(|v| v.as_deref() == Some(*w)))
            .collect();
        if !unknown.is_empty() {
            let present = ids.values.iter().flatten().map(String::as_str);
            return Err(ToolError::validation(format!(
                "unknown subject id{} in '{}': {}",
                if unknown.len() == 1 { "" } else { "s" },
                self.name,
                unknown.join(", ")
            ))
            .with_hint("use USUBJID values exactly as in the dataset, e.g. '01-701-1015'")
            .with_options(closest(unknown[0], present, 5)));
        }
        Ok((0..self.rows)
            .filter(|&row| {
                ids.values[row]
                    .as_deref()
                    .is_some_and(|v| wanted.contains(&v))
            })
            .collect())
    }
}

fn infer_kind(values: &[Option<String>]) -> ColumnKind {
    let present: Vec<&str> = values.iter().flatten().map(String::as_str).collect();
    if present.is_empty() {
        return ColumnKind::Empty;
    }
    if present.iter().all(|v| v.parse::<i64>().is_ok()) {
        return ColumnKind::Integer;
    }
    if present
        .iter()
        .all(|v| v.parse::<f64>().is_ok_and(f64::is_finite))
    {
        return ColumnKind::Number;
    }
    if present.iter().all(|v| is_iso_date(v)) {
        return ColumnKind::Date;
    }
    if present
        .iter()
        // `get`: byte 10 may fall inside a character (found by fuzzing: a slice there
        // panicked on text such as "U-B1S…\u{feff}#").
        .all(|v| v.get(..10).is_some_and(is_iso_date) && v.as_bytes().get(10) == Some(&b'T'))
    {
        return ColumnKind::DateTime;
    }
    ColumnKind::String
}

fn is_iso_date(value: &str) -> bool {
    chrono::NaiveDate::parse_from_str(value, "%Y-%m-%d").is_ok() && value.len() == 10
}

/// Groups `rows` by the value of `by` (missing values form the group `(missing)`), in
/// sorted order with `(missing)` last.
pub fn group_rows(by: &Column, rows: &[usize]) -> Vec<(String, Vec<usize>)> {
    let mut groups: BTreeMap<(bool, String), Vec<usize>> = BTreeMap::new();
    for &row in rows {
        let key = match &by.values[row] {
            Some(v) => (false, v.clone()),
            None => (true, MISSING_LABEL.to_string()),
        };
        groups.entry(key).or_default().push(row);
    }
    let mut out: Vec<(String, Vec<usize>)> = groups.into_iter().map(|((_, k), v)| (k, v)).collect();
    if by.kind.is_numeric() {
        out.sort_by(|a, b| {
            let num = |s: &str| s.parse::<f64>().unwrap_or(f64::INFINITY);
            num(&a.0).total_cmp(&num(&b.0))
        });
    }
    out
}

/// How a missing value is labelled in tables.
pub const MISSING_LABEL: &str = "(missing)";

/// The `dataset` parameter of every dataset tool, before [`DatasetDir::schema_for`] adds
/// the names present.
fn dataset_schema(_: &mut SchemaGenerator) -> Schema {
    json_schema!({
        "type": "string",
        "x-strip-suffixes": [".csv", ".xpt", ".sas7bdat"],
        "description": "Dataset name: the lower-case file name without extension, e.g. 'adsl'.",
        "x-description-zh": "数据集名称：小写的文件名，不带扩展名，例如 'adsl'。"
    })
}

/// The `subjects` parameter shared by the tools that can filter by subject.
fn subjects_schema(_: &mut SchemaGenerator) -> Schema {
    json_schema!({
        "type": "array",
        "items": {"type": "string", "minLength": 1},
        "uniqueItems": true,
        "maxItems": 10_000,
        "x-all": "omit",
        "description": "Only these subjects (USUBJID values such as '01-701-1015'); omit for all subjects.",
        "x-description-zh": "只包括这些受试者（USUBJID 值，例如 '01-701-1015'）；省略则包括全部受试者。"
    })
}

/// A variable (column) name parameter; each tool gives it its own description.
fn variable_schema(_: &mut SchemaGenerator) -> Schema {
    json_schema!({"type": "string", "minLength": 1, "maxLength": 64})
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dir_with(files: &[(&str, &str)]) -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        for (name, body) in files {
            std::fs::write(dir.path().join(name), body).unwrap_or_else(|e| panic!("{e}"));
        }
        dir
    }

    /// Each dataset tool says its answer in a line, in both languages, and whether the
    /// line holds all of it.
    #[tokio::test]
    async fn every_dataset_tool_says_its_answer() {
        use crate::{Tool, ToolContext};
        let dir = dir_with(&[("dm.csv", "USUBJID,SEX,AGE\n1,F,70\n2,M,64\n3,F,71\n")]);
        let datasets = Arc::new(DatasetDir::scan(dir.path()));
        let tools: [(FnTool, Value, &str); 4] = [
            (
                frequency::tool(datasets.clone()),
                json!({"dataset": "dm", "variable": "SEX"}),
                "dm: SEX (of 3): F 2 (66.7%), M 1 (33.3%)",
            ),
            (
                summarize_by_group::tool(datasets.clone()),
                json!({"dataset": "dm", "variable": "AGE", "group_by": "SEX"}),
                "dm: AGE by SEX: F: n 2, Mean (SD) 70.50 (0.71), Median 70.5, Min, Max 70.0, 71.0; \
                 M: n 1, Mean (SD) 64.00 (NA), Median 64.0, Min, Max 64.0, 64.0; \
                 Total: n 3, Mean (SD) 68.33 (3.79), Median 70.0, Min, Max 64.0, 71.0",
            ),
            (
                describe_dataset::tool(datasets.clone()),
                json!({"dataset": "dm", "variables": ["AGE"]}),
                "dm: 3 rows, 3 columns: AGE: integer, 0 missing, e.g. 70, 64, 71",
            ),
            (
                run_qc_checks::tool(datasets),
                json!({"dataset": "dm", "checks": ["key_unique"], "key": ["USUBJID"]}),
                "QC of dm: 0 errors, 0 warnings",
            ),
        ];
        for (tool, args, want) in tools {
            let data = tool
                .run(args, ToolContext::new("t"))
                .await
                .unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(crate::said::line(&data, false), Some(want), "{data}");
            assert!(crate::said::line(&data, true).is_some(), "{data}");
            assert_eq!(crate::said::whole(&data), Some(true), "{data}");
        }
    }

    #[test]
    fn whitelist_is_the_csv_files_present() {
        let dir = dir_with(&[
            ("ADSL.csv", "a\n1\n"),
            ("notes.txt", "x"),
            ("vs_bp.CSV", "a\n1\n"),
        ]);
        let datasets = DatasetDir::scan(dir.path());
        assert_eq!(datasets.names(), ["adsl", "vs_bp"]);
        assert!(datasets.resolve("adsl").is_ok());
        let err = datasets.resolve("../etc/passwd").err();
        assert_eq!(
            err.map(|e| e.options),
            Some(vec!["adsl".to_string(), "vs_bp".to_string()])
        );
    }

    #[cfg(unix)]
    #[test]
    fn a_symlink_out_of_the_folder_is_refused() {
        let outside = dir_with(&[("secret.csv", "a\n1\n")]);
        let dir = dir_with(&[]);
        std::os::unix::fs::symlink(
            outside.path().join("secret.csv"),
            dir.path().join("evil.csv"),
        )
        .unwrap_or_else(|e| panic!("{e}"));
        let datasets = DatasetDir::scan(dir.path());
        let err = datasets.resolve("evil").err().map(|e| e.error_type);
        assert_eq!(err, Some(deskmate_core::ErrorType::Permission));
    }

    #[test]
    fn a_missing_variable_is_answered_with_the_column_its_words_mean() {
        let dir = dir_with(&[("dm.csv", ",USUBJID,AGE,SEX,GENRE\n0,1,70,F,x\n")]);
        let data = DatasetDir::scan(dir.path())
            .load("dm")
            .unwrap_or_else(|e| panic!("{e}"));
        let err = data
            .column("gender")
            .err()
            .unwrap_or_else(|| panic!("found"));
        assert_eq!(err.options.first().map(String::as_str), Some("SEX"));
        assert!(
            err.options.iter().any(|o| o == "GENRE"),
            "{:?}",
            err.options
        );
        assert!(
            err.hint.as_deref().is_some_and(|h| h.contains("'SEX'")),
            "{err:?}"
        );
        let err = data
            .column("colour")
            .err()
            .unwrap_or_else(|| panic!("found"));
        assert!(!err.hint.as_deref().unwrap_or_default().contains("probably"));
        // The unnamed index column is never offered: a call cannot name it.
        assert!(
            !err.options.iter().any(String::is_empty),
            "{:?}",
            err.options
        );
    }

    #[test]
    fn kinds_are_inferred() {
        let dir = dir_with(&[(
            "t.csv",
            "i,n,d,dt,s,e\n1,1.5,2014-01-02,2014-01-02T10:00,a,\n2,NA,2014-01-03,2014-01-02T11:00,b,.\n",
        )]);
        let data = DatasetDir::scan(dir.path())
            .load("t")
            .unwrap_or_else(|e| panic!("{e}"));
        let kinds: Vec<&str> = data.columns.iter().map(|c| c.kind.as_str()).collect();
        assert_eq!(
            kinds,
            ["integer", "number", "date", "datetime", "string", "empty"]
        );
        assert_eq!(data.column("N").map(|c| c.missing()).ok(), Some(1));
    }

    /// Found by fuzzing (`fuzz/fuzz_targets/csv_dataset.rs`): a value longer than ten
    /// bytes whose tenth byte is inside a character panicked the date-time check.
    #[test]
    fn a_character_across_byte_ten_is_a_string_not_a_panic() {
        let dir = dir_with(&[(
            "u.csv",
            "a,b\nabcdefghié!,2014-01-0é1\n\u{feff}\u{feff}\u{feff}#,x\n",
        )]);
        let data = DatasetDir::scan(dir.path())
            .load("u")
            .unwrap_or_else(|e| panic!("{e}"));
        let kinds: Vec<&str> = data.columns.iter().map(|c| c.kind.as_str()).collect();
        assert_eq!(kinds, ["string", "string"]);
    }

    #[test]
    fn a_byte_order_mark_is_not_part_of_the_first_name() {
        let dir = dir_with(&[("bom.csv", "\u{feff}USUBJID,AGE\n01-701-1015,63\n")]);
        let data = DatasetDir::scan(dir.path())
            .load("bom")
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(data.columns[0].name, "USUBJID");
    }

    #[test]
    fn unreadable_files_are_errors_not_panics() {
        let dir = dir_with(&[("empty.csv", ""), ("latin1.csv", "")]);
        std::fs::write(dir.path().join("latin1.csv"), b"A,B\n\xe9,1\n")
            .unwrap_or_else(|e| panic!("{e}"));
        let datasets = DatasetDir::scan(dir.path());
        assert_eq!(
            datasets
                .load("empty")
                .map(|d| (d.rows, d.columns.len()))
                .ok(),
            Some((0, 0))
        );
        assert!(datasets.load("latin1").is_err());
    }

    #[test]
    fn ragged_csv_is_a_validation_error() {
        let dir = dir_with(&[("bad.csv", "a,b\n1,2\n3\n")]);
        let err = DatasetDir::scan(dir.path())
            .load("bad")
            .err()
            .map(|e| e.error_type);
        assert_eq!(err, Some(deskmate_core::ErrorType::Validation));
    }
}
