//! Overhead of one trivial sandboxed run (`1+1`) end to end through the runner, against
//! the same interpreter started bare with the same flags. Alternates the two so machine
//! noise hits both alike; prints medians, p95 and the difference as JSON.
//!
//! `cargo bench -p deskmate-sandbox --bench trivial_run` (or `scripts/bench-sandbox.sh`).

use std::process::{Command, Stdio};
use std::time::Instant;

use deskmate_sandbox::Runner;

const ROUNDS: usize = 60;

fn percentile(sorted: &[f64], p: f64) -> f64 {
    let index = ((sorted.len() - 1) as f64 * p).round() as usize;
    sorted[index]
}

fn main() {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("runtime");
    let runner = Runner::new()
        .expect("python")
        .with_helper(env!("CARGO_BIN_EXE_deskmate-sandbox"));
    let python = std::env::var("DESKMATE_PYTHON").unwrap_or_else(|_| "/usr/bin/python3".into());
    // Warm-up: the interpreter's paths are probed once, file caches fill.
    for _ in 0..3 {
        let out = runtime.block_on(runner.run("1+1")).expect("run");
        assert_eq!(out.result.as_deref(), Some("2"));
    }
    let (mut sandboxed, mut bare) = (Vec::new(), Vec::new());
    for _ in 0..ROUNDS {
        let started = Instant::now();
        let out = runtime.block_on(runner.run("1+1")).expect("run");
        sandboxed.push(started.elapsed().as_secs_f64() * 1000.0);
        assert_eq!(out.result.as_deref(), Some("2"));

        let started = Instant::now();
        let status = Command::new(&python)
            .args(["-I", "-B", "-u", "-X", "utf8", "-c", "1+1"])
            .stdin(Stdio::null())
            .status()
            .expect("python");
        bare.push(started.elapsed().as_secs_f64() * 1000.0);
        assert!(status.success());
    }
    sandboxed.sort_by(f64::total_cmp);
    bare.sort_by(f64::total_cmp);
    let (s50, b50) = (percentile(&sandboxed, 0.5), percentile(&bare, 0.5));
    println!(
        "{}",
        serde_json::json!({
            "rounds": ROUNDS,
            "sandboxed_ms": {"median": s50, "p95": percentile(&sandboxed, 0.95)},
            "bare_python_ms": {"median": b50, "p95": percentile(&bare, 0.95)},
            "overhead_ms_median": s50 - b50,
            "ratio": s50 / b50,
        })
    );
}
