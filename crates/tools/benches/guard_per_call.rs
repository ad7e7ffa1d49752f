//! Median time per guard call over the corpus, measured the same way as
//! `bench/python_jsonschema.py` measures Python's jsonschema: each call is repeated
//! `REPS` times, its time is the mean of those repetitions, best of `ROUNDS` rounds over
//! the whole corpus, and the figure is the median over calls. Prints one JSON object.
//!
//! Run: `cargo bench -p deskmate-tools --bench guard_per_call`

use std::time::{Duration, Instant};

mod corpus;

const REPS: usize = 200;
const ROUNDS: usize = 7;

fn main() {
    // `cargo bench` passes `--bench`; nothing else is accepted.
    let corpus = corpus::load();
    let guard = corpus.registry.guard();
    let mut per_call_ns: Vec<f64> = Vec::with_capacity(corpus.cases.len());
    let mut by_kind: std::collections::BTreeMap<&str, Vec<f64>> = Default::default();
    let kinds = kinds();
    // Rounds go over the whole corpus, and each call keeps its best round: a busy moment
    // on the shared machine then spoils one round of a call, not all of them.
    let mut best = vec![f64::INFINITY; corpus.cases.len()];
    for _ in 0..ROUNDS {
        for (i, case) in corpus.cases.iter().enumerate() {
            // Each repetition's inputs are cloned just before it and its outcome dropped
            // after it, outside the timed span: the figure is the guard's work alone, on an
            // answer as fresh in the cache as a tool's just-built answer would be.
            let mut total = Duration::ZERO;
            for _ in 0..REPS {
                let (arguments, answer) = (case.arguments.clone(), case.answer.clone());
                let start = Instant::now();
                let outcome = corpus::guard_call(guard, &case.tool, arguments, answer);
                total += start.elapsed();
                drop(std::hint::black_box(outcome));
            }
            best[i] = best[i].min(total.as_nanos() as f64 / REPS as f64);
        }
    }
    for (i, &ns) in best.iter().enumerate() {
        per_call_ns.push(ns);
        by_kind
            .entry(kinds.get(i).map_or("?", String::as_str))
            .or_default()
            .push(ns);
    }
    let median = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        let n = v.len();
        if n % 2 == 1 {
            v[n / 2]
        } else {
            (v[n / 2 - 1] + v[n / 2]) / 2.0
        }
    };
    let mut all = per_call_ns.clone();
    let kinds_json: serde_json::Map<String, serde_json::Value> = by_kind
        .iter_mut()
        .map(|(k, v)| {
            (
                k.to_string(),
                serde_json::json!({"calls": v.len(), "median_us": median(v) / 1000.0}),
            )
        })
        .collect();
    let p95 = {
        let mut v = per_call_ns.clone();
        v.sort_by(f64::total_cmp);
        v[(v.len() * 95 / 100).min(v.len() - 1)]
    };
    println!(
        "{}",
        serde_json::json!({
            "calls": corpus.cases.len(),
            "reps_per_call": REPS,
            "median_us": median(&mut all) / 1000.0,
            "p95_us": p95 / 1000.0,
            "mean_us": per_call_ns.iter().sum::<f64>() / per_call_ns.len() as f64 / 1000.0,
            "by_kind": kinds_json,
            "per_call_ns": per_call_ns,
        })
    );
}

fn kinds() -> Vec<String> {
    let path = std::path::Path::new(
        &std::env::var("CARGO_MANIFEST_DIR")
            .unwrap_or_else(|_| env!("CARGO_MANIFEST_DIR").to_string()),
    )
    .join("../../bench/guard_corpus.jsonl");
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .map(|l| {
            serde_json::from_str::<serde_json::Value>(l)
                .ok()
                .and_then(|v| v["kind"].as_str().map(str::to_string))
                .unwrap_or_default()
        })
        .collect()
}
