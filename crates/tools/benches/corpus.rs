//! The benchmark corpus (`bench/guard_corpus.jsonl`) loaded against the built-in
//! registry over a temporary data dir holding the CDISC ADSL.

use std::path::Path;

use deskmate_core::{CapLimits, Guard, cap};
use deskmate_tools::{Registry, ToolConfig, ToolContext};
use serde_json::Value;

/// One call of the corpus and, when the guard accepts it, the tool's real (uncapped) answer.
#[derive(Debug)]
pub struct Case {
    pub tool: String,
    pub arguments: Value,
    pub answer: Option<Value>,
}

#[derive(Debug)]
pub struct Corpus {
    pub _dir: tempfile::TempDir,
    pub registry: Registry,
    pub cases: Vec<Case>,
}

pub fn load() -> Corpus {
    let root = Path::new(
        &std::env::var("CARGO_MANIFEST_DIR")
            .unwrap_or_else(|_| env!("CARGO_MANIFEST_DIR").to_string()),
    )
    .join("../..");
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let datasets = dir.path().join("datasets");
    std::fs::create_dir_all(&datasets).unwrap_or_else(|e| panic!("{e}"));
    std::fs::copy(
        root.join("testdata/cdisc/adsl.csv"),
        datasets.join("adsl.csv"),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let registry =
        Registry::builtin(&ToolConfig::for_data_dir(dir.path())).unwrap_or_else(|e| panic!("{e}"));
    let text = std::fs::read_to_string(root.join("bench/guard_corpus.jsonl"))
        .unwrap_or_else(|e| panic!("{e}"));
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap_or_else(|e| panic!("{e}"));
    let cases = text
        .lines()
        .map(|line| {
            let call: Value = serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}"));
            let tool = call["tool"].as_str().unwrap_or_default().to_string();
            let arguments = call["arguments"].clone();
            // Run each accepted call once, untimed, so capping works on real answers.
            let answer = registry
                .guard()
                .prepare(&tool, arguments.clone())
                .ok()
                .and_then(|prepared| {
                    let executor = registry.tool(&prepared.tool)?.clone();
                    runtime
                        .block_on(executor.run(prepared.arguments, ToolContext::new("bench")))
                        .ok()
                });
            Case {
                tool,
                arguments,
                answer,
            }
        })
        .collect();
    Corpus {
        _dir: dir,
        registry,
        cases,
    }
}

/// What one guarded call leaves behind: the prepared call and the capped answer, or the
/// rejection. Returned (not dropped) so the benchmark times the guard, not deallocation.
pub type Outcome = Result<(deskmate_core::PreparedCall, Value), deskmate_core::Rejection>;

/// The guard's per-call work: resolve + read + normalize + validate, then cap the answer.
#[inline]
pub fn guard_call(guard: &Guard, tool: &str, arguments: Value, answer: Option<Value>) -> Outcome {
    guard.prepare(tool, arguments).map(|prepared| {
        let (capped, _) = cap(answer.unwrap_or(Value::Null), CapLimits::default());
        (prepared, capped)
    })
}
