//! Metrics over case results (the evaluator's, with its weights; docs/EVAL.md) and the report: JSON and a
//! markdown table per category.

use serde::Serialize;

use std::collections::BTreeMap;

use super::run::{CaseResult, EvalModel};
use super::suite::{CaseCategory, Split};

/// A turn slower than this scores 0 on latency; faster ones score linearly toward 1.
pub const LATENCY_BUDGET_MS: f64 = 10_000.0;

/// The metrics.
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
pub struct Metrics {
    /// Calls to offered tools that were valid as emitted, of all such calls (`None`:
    /// no such call, so a model that never calls a tool does not score on it).
    pub schema_compliance: Option<f64>,
    /// Cases with a call to a tool not offered, or any call where none fits.
    pub hallucination_rate: f64,
    /// Median turn time.
    pub latency_p50_ms: u64,
    /// 95th percentile turn time.
    pub latency_p95_ms: u64,
    /// Error-recovery cases passed (`None`: no such case).
    pub error_recovery: Option<f64>,
    /// Atomicity cases whose failure hit a group of writes and left no partial state
    /// (`None`: no case got that far).
    pub parallel_atomicity: Option<f64>,
    /// The same for a raw executor (no compensation, no skipping).
    pub parallel_atomicity_raw: Option<f64>,
    /// Atomicity cases where the failure hit a group of writes.
    pub atomicity_measured: usize,
    /// The evaluator's weighted score (a missing metric counts as 0).
    pub overall: f64,
    /// Cases passed with the guard.
    pub task_success: f64,
    /// Cases that would have passed with raw execution (calls valid as emitted only).
    pub task_success_raw: f64,
    /// Cases a plain OpenAI-tools client would have passed: raw, and no call read
    /// from free text.
    pub task_success_plain: f64,
    /// Cases that name facts their reply must state (or claims it must not make).
    pub replies_judged: usize,
    /// Of those, the replies that stated every fact and made none of the claims.
    pub replies_stating_facts: usize,
    /// Cases that name claims their reply must not make (a value no result carried, a
    /// stand-in's "done").
    pub replies_with_avoids: usize,
    /// Of those, the replies that made one of the claims.
    pub replies_claiming_avoided: usize,
    /// Cases with other wordings (each counted once, with all its wordings run).
    pub wording_groups: usize,
    /// Of those, the ones whose every wording got the same tools (the same tools as many
    /// times, in any order).
    pub wording_groups_same_tools: usize,
    /// Calls the simulated person was asked to confirm and refused.
    pub refused_calls: usize,
    /// `task_success - task_success_raw`, in percentage points.
    pub guard_lift_points: f64,
    /// Calls the model made.
    pub calls: usize,
    /// Calls to tools not offered.
    pub hallucinated_calls: usize,
}

/// The nearest-rank percentile of sorted values.
fn percentile(sorted: &[u64], p: f64) -> u64 {
    if sorted.is_empty() {
        return 0;
    }
    let rank = ((p / 100.0) * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

fn ratio(part: usize, whole: usize) -> Option<f64> {
    (whole > 0).then(|| part as f64 / whole as f64)
}

/// The metrics of a set of results.
pub fn metrics(results: &[CaseResult]) -> Metrics {
    let calls: Vec<_> = results.iter().flat_map(|r| &r.calls).collect();
    let to_offered: Vec<_> = calls.iter().filter(|c| c.tool.is_some()).collect();
    let schema_compliance = ratio(
        to_offered.iter().filter(|c| c.valid_as_emitted).count(),
        to_offered.len(),
    );
    let hallucination_rate = ratio(
        results.iter().filter(|r| r.hallucinated).count(),
        results.len(),
    )
    .unwrap_or(0.0);
    let mut latencies: Vec<u64> = results.iter().map(|r| r.latency_ms).collect();
    latencies.sort_unstable();
    let of = |category: CaseCategory| results.iter().filter(move |r| r.category == category);
    let recovery: Vec<_> = of(CaseCategory::ErrorRecovery).collect();
    let error_recovery = ratio(recovery.iter().filter(|r| r.passed).count(), recovery.len());
    let measured: Vec<_> = of(CaseCategory::Atomicity)
        .filter(|r| r.atomic.is_some())
        .collect();
    let parallel_atomicity = ratio(
        measured.iter().filter(|r| r.atomic == Some(true)).count(),
        measured.len(),
    );
    let parallel_atomicity_raw = ratio(
        measured
            .iter()
            .filter(|r| r.atomic_raw == Some(true))
            .count(),
        measured.len(),
    );
    let latency_p95_ms = percentile(&latencies, 95.0);
    let latency_score = 1.0 - (latency_p95_ms as f64 / LATENCY_BUDGET_MS).min(1.0);
    let overall = schema_compliance.unwrap_or(0.0) * 0.25
        + (1.0 - hallucination_rate) * 0.25
        + error_recovery.unwrap_or(0.0) * 0.20
        + parallel_atomicity.unwrap_or(0.0) * 0.15
        + latency_score * 0.15;
    let task_success =
        ratio(results.iter().filter(|r| r.passed).count(), results.len()).unwrap_or(0.0);
    let task_success_raw = ratio(
        results.iter().filter(|r| r.passed_raw).count(),
        results.len(),
    )
    .unwrap_or(0.0);
    let wordings = same_tools_per_wording(results);
    let task_success_plain = ratio(
        results.iter().filter(|r| r.passed_plain).count(),
        results.len(),
    )
    .unwrap_or(0.0);
    Metrics {
        schema_compliance,
        hallucination_rate,
        latency_p50_ms: percentile(&latencies, 50.0),
        latency_p95_ms,
        error_recovery,
        parallel_atomicity,
        parallel_atomicity_raw,
        atomicity_measured: measured.len(),
        overall,
        task_success,
        task_success_raw,
        task_success_plain,
        replies_judged: results
            .iter()
            .filter(|r| r.reply_states_facts.is_some())
            .count(),
        replies_stating_facts: results
            .iter()
            .filter(|r| r.reply_states_facts == Some(true))
            .count(),
        replies_with_avoids: results
            .iter()
            .filter(|r| r.reply_claims_avoided.is_some())
            .count(),
        replies_claiming_avoided: results
            .iter()
            .filter(|r| r.reply_claims_avoided == Some(true))
            .count(),
        wording_groups: wordings.len(),
        wording_groups_same_tools: wordings.values().filter(|same| **same).count(),
        refused_calls: results.iter().map(|r| r.refused.len()).sum(),
        guard_lift_points: (task_success - task_success_raw) * 100.0,
        calls: calls.len(),
        hallucinated_calls: calls.iter().filter(|c| c.tool.is_none()).count(),
    }
}

/// The tools a case's calls named (as resolved among the offered ones), sorted: what
/// its wordings are compared by.
fn tools_called(result: &CaseResult) -> Vec<&str> {
    let mut tools: Vec<&str> = result
        .calls
        .iter()
        .map(|c| c.tool.as_deref().unwrap_or(c.name.as_str()))
        .collect();
    tools.sort_unstable();
    tools
}

/// For each case that has other wordings among the results: whether all of them got the
/// same tools.
fn same_tools_per_wording(results: &[CaseResult]) -> BTreeMap<&str, bool> {
    let mut groups: BTreeMap<&str, Vec<&CaseResult>> = BTreeMap::new();
    for result in results {
        groups
            .entry(result.wording_group.as_str())
            .or_default()
            .push(result);
    }
    groups
        .into_iter()
        .filter(|(_, members)| members.len() > 1)
        .map(|(group, members)| {
            let first = tools_called(members[0]);
            (group, members.iter().all(|m| tools_called(m) == first))
        })
        .collect()
}

/// The metrics and the category table of one part of the suite.
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
pub struct SplitReport {
    /// The part.
    pub split: Split,
    /// Its cases.
    pub cases: usize,
    /// Its metrics.
    pub metrics: Metrics,
    /// Its categories.
    pub by_category: Vec<CategoryRow>,
}

/// The report of each part of the suite that has cases among the results, dev first.
pub fn by_split(results: &[CaseResult]) -> Vec<SplitReport> {
    Split::ALL
        .iter()
        .filter_map(|&split| {
            let part: Vec<CaseResult> = results
                .iter()
                .filter(|r| r.split == split)
                .cloned()
                .collect();
            (!part.is_empty()).then(|| SplitReport {
                split,
                cases: part.len(),
                metrics: metrics(&part),
                by_category: by_category(&part),
            })
        })
        .collect()
}

/// One row of the per-category table.
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
pub struct CategoryRow {
    /// The category.
    pub category: CaseCategory,
    /// Cases.
    pub cases: usize,
    /// Passed with the guard.
    pub passed: usize,
    /// Would have passed raw.
    pub passed_raw: usize,
    /// Median turn time.
    pub latency_p50_ms: u64,
}

/// The per-category table (categories without cases left out).
pub fn by_category(results: &[CaseResult]) -> Vec<CategoryRow> {
    CaseCategory::ALL
        .iter()
        .filter_map(|&category| {
            let rows: Vec<_> = results.iter().filter(|r| r.category == category).collect();
            if rows.is_empty() {
                return None;
            }
            let mut latencies: Vec<u64> = rows.iter().map(|r| r.latency_ms).collect();
            latencies.sort_unstable();
            Some(CategoryRow {
                category,
                cases: rows.len(),
                passed: rows.iter().filter(|r| r.passed).count(),
                passed_raw: rows.iter().filter(|r| r.passed_raw).count(),
                latency_p50_ms: percentile(&latencies, 50.0),
            })
        })
        .collect()
}

/// A finished evaluation.
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
pub struct EvalReport {
    /// Run id.
    pub id: String,
    /// The model.
    pub model: EvalModel,
    /// The suite's name.
    pub suite: String,
    /// Unix seconds.
    pub started_at: f64,
    /// Total time.
    pub duration_ms: u64,
    /// The metrics.
    pub metrics: Metrics,
    /// Per category.
    pub by_category: Vec<CategoryRow>,
    /// The same per part of the suite (dev, heldout) that has cases: only heldout counts
    /// toward a target.
    pub by_split: Vec<SplitReport>,
    /// Every case.
    pub results: Vec<CaseResult>,
}

fn percent(value: f64) -> String {
    format!("{:.1}%", value * 100.0)
}

fn optional(value: Option<f64>) -> String {
    value.map_or_else(|| "n/a".to_string(), percent)
}

fn of(part: usize, whole: usize) -> String {
    format!("{part} of {whole}")
}

/// The metric rows of the report: a name and how to write it from the metrics.
type MetricRow = (&'static str, fn(&Metrics) -> String);

const METRIC_ROWS: [MetricRow; 16] = [
    ("overall (evaluator weights)", |m| {
        format!("{:.3}", m.overall)
    }),
    ("task success with the guard", |m| percent(m.task_success)),
    ("task success raw (valid as emitted)", |m| {
        percent(m.task_success_raw)
    }),
    (
        "task success, plain tools client (raw, no calls from text)",
        |m| percent(m.task_success_plain),
    ),
    ("guard lift", |m| {
        format!("{:+.1} points", m.guard_lift_points)
    }),
    ("schema_compliance", |m| optional(m.schema_compliance)),
    ("hallucination_rate", |m| percent(m.hallucination_rate)),
    ("latency_p50", |m| format!("{} ms", m.latency_p50_ms)),
    ("latency_p95", |m| format!("{} ms", m.latency_p95_ms)),
    ("error_recovery", |m| optional(m.error_recovery)),
    ("parallel_atomicity (guard / raw)", |m| {
        format!(
            "{} / {} (of {} cases where a write group failed)",
            optional(m.parallel_atomicity),
            optional(m.parallel_atomicity_raw),
            m.atomicity_measured
        )
    }),
    ("replies stating the facts their case names", |m| {
        of(m.replies_stating_facts, m.replies_judged)
    }),
    ("replies making a claim their case rules out", |m| {
        of(m.replies_claiming_avoided, m.replies_with_avoids)
    }),
    ("wordings of one request getting the same tools", |m| {
        of(m.wording_groups_same_tools, m.wording_groups)
    }),
    ("calls the person refused (wrong calls)", |m| {
        m.refused_calls.to_string()
    }),
    ("calls (to tools not offered)", |m| {
        format!("{} ({})", m.calls, m.hallucinated_calls)
    }),
];

impl EvalReport {
    /// The report as markdown: the metrics, then a table per category — with a column
    /// per part of the suite (dev, heldout) when the run had cases of both.
    pub fn markdown(&self) -> String {
        let mut out = format!(
            "## Tool-call evaluation: {} ({}), suite `{}`, {} cases\n\n",
            self.model.name,
            self.model.model,
            self.suite,
            self.results.len()
        );
        let columns: Vec<(String, &Metrics, &[CategoryRow])> = if self.by_split.len() > 1 {
            self.by_split
                .iter()
                .map(|part| {
                    (
                        format!("{} ({} cases)", part.split.as_str(), part.cases),
                        &part.metrics,
                        part.by_category.as_slice(),
                    )
                })
                .collect()
        } else {
            vec![("value".into(), &self.metrics, self.by_category.as_slice())]
        };
        let header = |first: &str| {
            let names: Vec<&str> = columns.iter().map(|(name, ..)| name.as_str()).collect();
            format!(
                "| {first} | {} |\n|---|{}\n",
                names.join(" | "),
                "---|".repeat(names.len())
            )
        };
        out.push_str(&header("metric"));
        for (name, write) in METRIC_ROWS {
            let values: Vec<String> = columns.iter().map(|(_, m, _)| write(m)).collect();
            out.push_str(&format!("| {name} | {} |\n", values.join(" | ")));
        }
        out.push_str("\npassed with the guard (raw), p50 latency:\n\n");
        out.push_str(&header("category"));
        for category in CaseCategory::ALL {
            let cells: Vec<String> = columns
                .iter()
                .map(|(_, _, rows)| {
                    rows.iter()
                        .find(|row| row.category == category)
                        .map_or_else(
                            || "—".into(),
                            |row| {
                                format!(
                                    "{}/{} ({}), raw {}, {} ms",
                                    row.passed,
                                    row.cases,
                                    percent(ratio(row.passed, row.cases).unwrap_or(0.0)),
                                    row.passed_raw,
                                    row.latency_p50_ms
                                )
                            },
                        )
                })
                .collect();
            if cells.iter().all(|c| c == "—") {
                continue;
            }
            out.push_str(&format!(
                "| {} | {} |\n",
                category.as_str(),
                cells.join(" | ")
            ));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::super::run::CallRecord;
    use super::*;
    use deskmate_agent::CallStatus;

    fn call(tool: Option<&str>, valid: bool) -> CallRecord {
        CallRecord {
            name: tool.unwrap_or("made_up").into(),
            arguments: "{}".into(),
            extracted: None,
            step: 1,
            status: Some(CallStatus::Done),
            error: None,
            error_type: None,
            tool: tool.map(str::to_string),
            normalized: None,
            repairs: Vec::new(),
            valid_as_emitted: valid,
            write: false,
        }
    }

    fn case(category: CaseCategory, passed: bool, raw: bool, latency_ms: u64) -> CaseResult {
        CaseResult {
            id: format!("{}-{latency_ms}", category.as_str()),
            category,
            lang: "en".into(),
            split: Split::Dev,
            wording_group: format!("{}-{latency_ms}", category.as_str()),
            passed,
            passed_raw: raw,
            passed_plain: raw,
            reply_states_facts: None,
            reply_missing: None,
            reply_claims_avoided: None,
            refused: Vec::new(),
            reason: None,
            calls: Vec::new(),
            reply: String::new(),
            latency_ms,
            hallucinated: false,
            failure_fired: false,
            atomic: None,
            atomic_raw: None,
        }
    }

    #[test]
    fn metrics_on_known_results() {
        let mut results = vec![
            case(CaseCategory::Simple, true, true, 1000),
            case(CaseCategory::Simple, true, false, 2000),
            case(CaseCategory::Irrelevance, false, false, 3000),
            case(CaseCategory::ErrorRecovery, true, true, 4000),
            case(CaseCategory::ErrorRecovery, false, false, 5000),
            case(CaseCategory::Atomicity, true, false, 6000),
            case(CaseCategory::Atomicity, false, false, 7000),
            case(CaseCategory::Atomicity, false, false, 8000),
        ];
        // Calls: 3 valid and 1 repaired to offered tools, 1 to a tool not offered.
        results[0].calls = vec![call(Some("calculator"), true)];
        results[1].calls = vec![call(Some("calculator"), false)];
        results[2].calls = vec![call(None, false)];
        results[2].hallucinated = true;
        results[3].calls = vec![call(Some("current_time"), true), call(Some("x"), true)];
        results[5].atomic = Some(true);
        results[5].atomic_raw = Some(false);
        results[6].atomic = Some(false);
        results[6].atomic_raw = Some(false);
        // results[7]: the failure never hit a group: not measured.
        let m = metrics(&results);
        assert_eq!(m.schema_compliance, Some(0.75));
        assert_eq!(m.hallucination_rate, 0.125);
        assert_eq!((m.latency_p50_ms, m.latency_p95_ms), (4000, 8000));
        assert_eq!(m.error_recovery, Some(0.5));
        assert_eq!(m.parallel_atomicity, Some(0.5));
        assert_eq!(m.parallel_atomicity_raw, Some(0.0));
        assert_eq!(m.atomicity_measured, 2);
        assert_eq!((m.task_success, m.task_success_raw), (0.5, 0.25));
        assert!((m.guard_lift_points - 25.0).abs() < 1e-9);
        assert_eq!((m.calls, m.hallucinated_calls), (5, 1));
        // 0.25*0.75 + 0.25*0.875 + 0.20*0.5 + 0.15*0.5 + 0.15*(1 - 8000/10000)
        let expected = 0.1875 + 0.21875 + 0.1 + 0.075 + 0.15 * 0.2;
        assert!((m.overall - expected).abs() < 1e-9, "{}", m.overall);

        let table = by_category(&results);
        let simple = &table[0];
        assert_eq!(
            (
                simple.category,
                simple.cases,
                simple.passed,
                simple.passed_raw
            ),
            (CaseCategory::Simple, 2, 2, 1)
        );
        assert_eq!(table.len(), 4, "empty categories are left out");
    }

    #[test]
    fn empty_and_edge_inputs() {
        let m = metrics(&[]);
        assert_eq!(m.schema_compliance, None, "no calls: not measured");
        assert_eq!((m.error_recovery, m.parallel_atomicity), (None, None));
        assert_eq!((m.latency_p50_ms, m.latency_p95_ms), (0, 0));
        // Slower than the budget scores 0 on latency; nothing else is measured.
        let slow = metrics(&[case(CaseCategory::Irrelevance, true, true, 60_000)]);
        assert!((slow.overall - 0.25).abs() < 1e-9, "{}", slow.overall);
        assert_eq!(percentile(&[5], 95.0), 5);
        assert_eq!(percentile(&[1, 2, 3, 4], 50.0), 2);
    }

    #[test]
    fn parts_of_the_suite_are_reported_apart_and_wordings_compared_by_tools() {
        let mut results = vec![
            case(CaseCategory::Simple, true, true, 1000),
            case(CaseCategory::Simple, false, false, 2000),
            case(CaseCategory::Simple, true, true, 3000),
            case(CaseCategory::Parallel, true, true, 4000),
            case(CaseCategory::Parallel, true, true, 5000),
            case(CaseCategory::Irrelevance, true, true, 6000),
        ];
        for r in &mut results[1..] {
            r.split = Split::Heldout;
        }
        // Heldout: one request in three wordings, two of which called the calculator and
        // one the clock; another in two wordings, each calling the clock twice.
        for r in &mut results[1..3] {
            r.wording_group = "a".into();
        }
        results[1].calls = vec![call(Some("calculator"), true)];
        results[2].calls = vec![call(Some("current_time"), true)];
        results[5].wording_group = "a".into();
        results[5].calls = vec![call(Some("calculator"), true)];
        for r in &mut results[3..5] {
            r.wording_group = "b".into();
            r.calls = vec![
                call(Some("current_time"), true),
                call(Some("current_time"), true),
            ];
        }
        results[5].reply_claims_avoided = Some(true);
        results[3].reply_claims_avoided = Some(false);
        results[4].refused = vec!["turn_on_camera".into()];
        let parts = by_split(&results);
        assert_eq!(
            parts.iter().map(|p| (p.split, p.cases)).collect::<Vec<_>>(),
            [(Split::Dev, 1), (Split::Heldout, 5)]
        );
        let heldout = &parts[1].metrics;
        assert_eq!(
            (heldout.wording_groups, heldout.wording_groups_same_tools),
            (2, 1)
        );
        assert_eq!(
            (
                heldout.replies_with_avoids,
                heldout.replies_claiming_avoided
            ),
            (2, 1)
        );
        assert_eq!(heldout.refused_calls, 1);
        assert!((heldout.task_success - 0.8).abs() < 1e-9);
        assert_eq!(parts[0].metrics.task_success, 1.0);
        assert_eq!(parts[0].metrics.wording_groups, 0);
    }
}
