//! The held-out cases measure judgement only while the model has not been shown them:
//! this test fails when a request the model may read as a worked example (any tool's, in
//! the prompt or beside a request, or an answer no tool gives) is a near-copy of a suite
//! case, or a held-out case of a dev case — naming each pair. The rule and its threshold
//! are `deskmate_autotest::eval::near_copy`'s.

use std::sync::Arc;

use deskmate_agent::Agent;
use deskmate_autotest::eval::near_copy::{NEAR_COPY, similarity};
use deskmate_autotest::eval::{Case, DEV_SUITE, HELDOUT_SUITE, parse_suite};
use deskmate_devices::Backends;
use deskmate_service::Deskmate;
use deskmate_service::hooks::NoConfirmer;

fn cases(text: &str) -> Vec<Case> {
    parse_suite("suite", text)
        .unwrap_or_else(|e| panic!("{e}"))
        .cases
}

/// Every pair of a text and a case whose message is a near-copy of it.
fn near_pairs<'a>(texts: &'a [String], cases: &'a [Case]) -> Vec<String> {
    let mut pairs = Vec::new();
    for text in texts {
        for case in cases {
            let score = similarity(text, case.message());
            if score >= NEAR_COPY {
                pairs.push(format!(
                    "{text:?} ~ {} {:?} ({score:.2})",
                    case.id,
                    case.message()
                ));
            }
        }
    }
    pairs
}

#[tokio::test]
async fn no_example_the_model_reads_is_a_near_copy_of_a_suite_case() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let tools = deskmate_devices::system_tools(&Backends::simulated());
    let deskmate = Deskmate::open_with_tools(dir.path(), Arc::new(NoConfirmer), tools)
        .unwrap_or_else(|e| panic!("{e}"));
    let agent = Agent::new(Arc::new(deskmate));
    let taught = agent.taught_requests();
    // The examples come from the tools themselves: the device tools and the built-in ones.
    assert!(taught.len() > 30, "{} taught requests", taught.len());

    let heldout = cases(HELDOUT_SUITE);
    let dev = cases(DEV_SUITE);
    let mut pairs = near_pairs(&taught, &heldout);
    pairs.extend(near_pairs(&taught, &dev));
    assert!(
        pairs.is_empty(),
        "examples the model reads that copy a suite case:\n{}",
        pairs.join("\n")
    );
}

#[test]
fn no_heldout_case_is_a_near_copy_of_a_dev_case() {
    let dev: Vec<String> = cases(DEV_SUITE)
        .iter()
        .map(|c| c.message().to_string())
        .collect();
    let pairs = near_pairs(&dev, &cases(HELDOUT_SUITE));
    assert!(
        pairs.is_empty(),
        "held-out cases that copy a dev case:\n{}",
        pairs.join("\n")
    );
}
