//! A run compared with an earlier one: which checks changed status (new, gone, passed →
//! failed, …), what QA looks at first after "Run autotest".

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::{AutotestResult, CaseZh, Status};

/// One check whose status differs between two runs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct Change {
    /// The check.
    pub name: String,
    /// Its status in the earlier run (`None`: it was not in that run).
    pub before: Option<Status>,
    /// Its status in this run (`None`: it is no longer checked).
    pub after: Option<Status>,
    /// This run's message for it (the earlier run's when it is gone).
    pub message: String,
    /// The check's name and that message in Chinese, where the run kept them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub zh: Option<CaseZh>,
}

/// A run against an earlier one.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct Comparison {
    /// This run.
    pub run_id: String,
    /// The run it is compared with (`None`: there is no earlier run of its kind).
    pub previous_id: Option<String>,
    /// The checks whose status changed, in this run's order (gone ones last).
    pub changes: Vec<Change>,
    /// How many checks kept their status.
    pub unchanged: usize,
}

/// Compares `run` with `previous`.
pub fn compare(run: &AutotestResult, previous: Option<&AutotestResult>) -> Comparison {
    let Some(previous) = previous else {
        return Comparison {
            run_id: run.id.clone(),
            previous_id: None,
            changes: Vec::new(),
            unchanged: 0,
        };
    };
    let before = |name: &str| previous.tests.iter().find(|t| t.name == name);
    let mut changes = Vec::new();
    let mut unchanged = 0;
    for case in &run.tests {
        let was = before(&case.name).map(|t| t.status);
        if was == Some(case.status) {
            unchanged += 1;
        } else {
            changes.push(Change {
                name: case.name.clone(),
                before: was,
                after: Some(case.status),
                message: case.message.clone(),
                zh: case.zh.clone(),
            });
        }
    }
    for gone in previous
        .tests
        .iter()
        .filter(|t| !run.tests.iter().any(|c| c.name == t.name))
    {
        changes.push(Change {
            name: gone.name.clone(),
            before: Some(gone.status),
            after: None,
            message: gone.message.clone(),
            zh: gone.zh.clone(),
        });
    }
    Comparison {
        run_id: run.id.clone(),
        previous_id: Some(previous.id.clone()),
        changes,
        unchanged,
    }
}

impl AutotestResult {
    /// A stored result; runs stored before checks had a `status` get it from `passed`.
    pub fn from_stored(mut value: Value) -> Result<Self, serde_json::Error> {
        if let Some(tests) = value.get_mut("tests").and_then(Value::as_array_mut) {
            for test in tests {
                if test.get("status").is_none() {
                    let status = if test["passed"] == true {
                        "passed"
                    } else {
                        "failed"
                    };
                    test["status"] = Value::from(status);
                }
            }
        }
        serde_json::from_value(value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Scope, Summary, TestCase};

    fn run(id: &str, tests: &[(&str, Status)]) -> AutotestResult {
        AutotestResult {
            id: id.into(),
            started_at: 0.0,
            duration_ms: 0,
            scope: Scope::default(),
            tests: tests
                .iter()
                .map(|(name, status)| TestCase {
                    name: (*name).into(),
                    passed: *status == Status::Passed,
                    status: *status,
                    message: format!("{name} is {status:?}"),
                    duration_ms: 0,
                    zh: None,
                })
                .collect(),
            summary: Summary {
                passed: 0,
                failed: 0,
                skipped: 0,
                total: tests.len(),
            },
        }
    }

    #[test]
    fn changed_new_and_gone_checks_are_listed() {
        let before = run(
            "a",
            &[
                ("Tool: calculator", Status::Passed),
                ("Tool: weather", Status::Passed),
                ("Tool: old", Status::Failed),
                ("Device: Camera", Status::Failed),
            ],
        );
        let after = run(
            "b",
            &[
                ("Tool: calculator", Status::Passed),
                ("Tool: weather", Status::Failed),
                ("Tool: new", Status::Skipped),
                ("Device: Camera", Status::Failed),
            ],
        );
        let diff = compare(&after, Some(&before));
        assert_eq!(diff.previous_id.as_deref(), Some("a"));
        assert_eq!(diff.unchanged, 2);
        let changes: Vec<(&str, Option<Status>, Option<Status>)> = diff
            .changes
            .iter()
            .map(|c| (c.name.as_str(), c.before, c.after))
            .collect();
        assert_eq!(
            changes,
            [
                ("Tool: weather", Some(Status::Passed), Some(Status::Failed)),
                ("Tool: new", None, Some(Status::Skipped)),
                ("Tool: old", Some(Status::Failed), None),
            ]
        );
        assert_eq!(diff.changes[0].message, "Tool: weather is Failed");
        assert!(compare(&after, None).changes.is_empty());
    }

    #[test]
    fn runs_stored_before_statuses_existed_still_read() {
        let old = serde_json::json!({
            "id": "x", "started_at": 1.0, "duration_ms": 2,
            "tests": [{"name": "Tool: calculator", "passed": true, "message": "ok", "duration_ms": 0},
                      {"name": "Tool: weather", "passed": false, "message": "down", "duration_ms": 0}],
            "summary": {"passed": 1, "failed": 1, "total": 2}
        });
        let result = AutotestResult::from_stored(old).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(result.tests[0].status, Status::Passed);
        assert_eq!(result.tests[1].status, Status::Failed);
        assert_eq!(result.summary.skipped, 0);
    }
}
