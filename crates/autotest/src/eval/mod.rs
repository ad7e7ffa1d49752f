//! The tool-call evaluator (docs/EVAL.md): a suite of cases run through
//! the real agent loop and guard on a registered model, judged by an AST checker, scored
//! with the evaluator's metrics and weights, and stored with the autotest history (kind
//! `eval`). See `docs/EVAL.md`.

pub mod check;
pub mod matcher;
pub mod near_copy;
pub mod report;
pub mod run;
pub mod suite;

use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use deskmate_service::{Deskmate, ServiceError};
use deskmate_store::autotest::AutotestRun;

pub use report::{EvalReport, Metrics};
pub use run::{CaseResult, EvalModel};
pub use suite::{
    Case, CaseCategory, DEV_SUITE, HELDOUT_SUITE, Split, Suite, SuiteError, bundled, parse_suite,
};

/// How to run a suite.
#[derive(Debug, Clone)]
pub struct EvalOptions {
    /// Longest turn per case.
    pub case_timeout: Duration,
    /// Only these categories (all when empty).
    pub categories: Vec<CaseCategory>,
    /// At most this many cases (after the category filter).
    pub limit: Option<usize>,
    /// At most this many tokens per model answer (the model's own limit when lower): a
    /// call or a short reply fits in far fewer, and a model that rambles costs minutes.
    pub max_tokens: i64,
    /// Offer every enabled tool in every case (the case's inline tools too), as a chat
    /// turn does, instead of the case's 2–3.
    pub every_tool: bool,
    /// Only the cases of these parts of the suite (all when empty).
    pub splits: Vec<Split>,
}

impl Default for EvalOptions {
    fn default() -> Self {
        Self {
            case_timeout: Duration::from_secs(180),
            categories: Vec::new(),
            limit: None,
            max_tokens: 256,
            every_tool: false,
            splits: Vec::new(),
        }
    }
}

/// The cases to run.
pub fn select<'a>(suite: &'a Suite, options: &EvalOptions) -> Vec<&'a Case> {
    suite
        .cases
        .iter()
        .filter(|c| options.categories.is_empty() || options.categories.contains(&c.category))
        .filter(|c| options.splits.is_empty() || options.splits.contains(&c.split))
        .take(options.limit.unwrap_or(usize::MAX))
        .collect()
}

/// Runs a suite on a model registered in `deskmate`, reporting each case as it finishes,
/// and stores the report (kind `eval`) when the service has a database.
pub async fn evaluate(
    deskmate: &Deskmate,
    model_id: &str,
    suite: &Suite,
    options: &EvalOptions,
    mut on_case: impl FnMut(&CaseResult, usize, usize),
) -> Result<EvalReport, ServiceError> {
    let mut model = EvalModel::from_service(deskmate, model_id)?;
    model.max_tokens = model.max_tokens.min(options.max_tokens.max(16));
    let cases = select(suite, options);
    let started_at = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs_f64())
        .unwrap_or(0.0);
    let started = Instant::now();
    let mut results = Vec::with_capacity(cases.len());
    for (i, case) in cases.iter().enumerate() {
        let result = run::run_case(&model, case, options.case_timeout, options.every_tool).await;
        tracing::info!(case = %result.id, passed = result.passed, latency_ms = result.latency_ms, "eval case");
        on_case(&result, i + 1, cases.len());
        results.push(result);
    }
    let report = EvalReport {
        id: uuid::Uuid::new_v4().simple().to_string(),
        metrics: report::metrics(&results),
        by_category: report::by_category(&results),
        by_split: report::by_split(&results),
        model,
        suite: suite.name.clone(),
        started_at,
        duration_ms: u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX),
        results,
    };
    if let Some(store) = deskmate.store() {
        let passed = report.results.iter().filter(|r| r.passed).count();
        let mut stored = serde_json::to_value(&report).unwrap_or_default();
        stored["markdown"] = serde_json::Value::String(report.markdown());
        store.insert_autotest_run(&AutotestRun {
            id: report.id.clone(),
            kind: "eval".into(),
            started_at,
            duration_ms: i64::try_from(report.duration_ms).unwrap_or(i64::MAX),
            passed: i64::try_from(passed).unwrap_or(0),
            failed: i64::try_from(report.results.len() - passed).unwrap_or(0),
            result: stored,
        })?;
    }
    Ok(report)
}
