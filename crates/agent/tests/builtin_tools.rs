//! What the model and a person read of the built-in tools is a contract: every tool's
//! parameter schema (with the `x-` keywords the normalizer and the GUI read), the system
//! prompt a constrained turn starts with (what the local model's server keeps warm) and
//! the grammar its replies are decoded under. They are committed as
//! `testdata/builtin-tools.json`; this test fails when they change, so a change is made
//! on purpose (`DESKMATE_BLESS=1` rewrites the file) and never by a refactoring.

mod common;

use std::path::PathBuf;
use std::sync::Arc;

use deskmate_agent::Agent;
use deskmate_devices::Backends;
use deskmate_llm::envelope::{self, Answer, Plan};
use deskmate_service::Deskmate;
use deskmate_service::hooks::PreApproved;
use serde_json::{Map, Value, json};

/// A service on a data dir with ADSL, with every built-in tool (the device tools on
/// simulated devices) and the shipped HTTP templates.
fn every_tool() -> (tempfile::TempDir, Arc<Deskmate>) {
    let dir = common::data_dir_with_adsl();
    let backends = Backends::simulated();
    let deskmate = Deskmate::open_with_tools(
        dir.path(),
        Arc::new(PreApproved),
        deskmate_devices::system_tools(&backends),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    (dir, Arc::new(deskmate))
}

#[test]
fn the_built_in_tools_read_as_committed() {
    let (_dir, deskmate) = every_tool();
    let parameters: Map<String, Value> = deskmate
        .specs()
        .iter()
        .map(|s| (s.id.clone(), s.parameters.clone()))
        .collect();
    // 24 built-in tools and the 3 shipped HTTP templates.
    assert_eq!(parameters.len(), 27, "{:?}", parameters.keys());
    let agent = Agent::new(deskmate);
    let offered = agent.offered_tools(None);
    let document = json!({
        "parameters": parameters,
        "prompt": agent.prefix_prompt(&offered),
        "grammar": envelope::grammar_with(&offered, Answer::Text, Plan::Parts),
    });
    let text = serde_json::to_string_pretty(&document).unwrap_or_else(|e| panic!("{e}")) + "\n";
    let file = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../testdata/builtin-tools.json");
    if std::env::var_os("DESKMATE_BLESS").is_some() {
        std::fs::write(&file, &text).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        return;
    }
    let committed: Value = std::fs::read_to_string(&file)
        .ok()
        .and_then(|text| serde_json::from_str(&text).ok())
        .unwrap_or_default();
    let bless = "if the change is meant, run `DESKMATE_BLESS=1 cargo test -p deskmate-agent \
                 --test builtin_tools`";
    // A schema is compared as JSON (the order of an object's keys is no part of it; the
    // order of properties shows in the prompt and the grammar, which are compared as text).
    for (id, schema) in &parameters {
        assert!(
            committed["parameters"][id] == *schema,
            "{id}'s parameters are not as in testdata/builtin-tools.json: {}\n{bless}",
            serde_json::to_string_pretty(schema).unwrap_or_default()
        );
    }
    assert_eq!(
        committed["parameters"].as_object().map(Map::len),
        Some(parameters.len()),
        "{bless}"
    );
    for part in ["prompt", "grammar"] {
        assert!(
            committed[part] == document[part],
            "the {part} is not as in testdata/builtin-tools.json:\n{}\n{bless}",
            document[part].as_str().unwrap_or_default()
        );
    }
}

/// The prompt shows the worked examples of the tools it offers: a tool left out takes
/// its examples with it, and an example that calls two tools needs both.
#[test]
fn the_prompt_shows_the_examples_of_the_tools_it_offers() {
    let (_dir, deskmate) = every_tool();
    let agent = Agent::new(deskmate);
    let offered = agent.offered_tools(None);
    let without = |id: &str| -> Vec<_> {
        offered
            .iter()
            .filter(|t| t.function.name != id)
            .cloned()
            .collect()
    };
    let all = agent.prefix_prompt(&offered);
    for example in [
        "User: I need 3% of 1,250 → ",
        "User: 关掉摄像头，然后告诉我现在几点 → ",
    ] {
        assert!(all.contains(example), "{all}");
    }
    let prompt = agent.prefix_prompt(&without("calculator"));
    assert!(!prompt.contains("1,250"), "{prompt}");
    assert!(prompt.contains("关掉摄像头"), "{prompt}");
    let prompt = agent.prefix_prompt(&without("current_time"));
    assert!(!prompt.contains("关掉摄像头"), "{prompt}");
    assert!(prompt.contains("1,250"), "{prompt}");
}

/// What the chat loop must know of a tool is on the tool (its line about a result, its
/// worked examples, its subjects), so an HTTP or MCP tool can say it too: no built-in
/// tool's id is written as a string in the agent's code outside its tests.
#[test]
fn the_agent_names_no_built_in_tool() {
    let (_dir, deskmate) = every_tool();
    let ids: Vec<String> = deskmate.specs().into_iter().map(|s| s.id).collect();
    let source = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = vec![source];
    let mut named = Vec::new();
    while let Some(path) = files.pop() {
        if path.is_dir() {
            let entries = std::fs::read_dir(&path).unwrap_or_else(|e| panic!("{e}"));
            files.extend(entries.flatten().map(|e| e.path()));
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{e}"));
        let code = without_tests(&text);
        for id in &ids {
            if code.contains(&format!("\"{id}\"")) {
                named.push(format!("{}: {id}", path.display()));
            }
        }
    }
    assert!(named.is_empty(), "{named:#?}");
    // The check sees a name where there is one.
    assert!(without_tests("let t = \"calculator\";").contains("\"calculator\""));
}

/// Rust source without its `#[cfg(test)]` items: a test module (the rest of the file)
/// and any other item after the attribute, to the brace that closes it.
fn without_tests(source: &str) -> String {
    let source = source
        .split_once("#[cfg(test)]\nmod tests")
        .map_or(source, |(code, _)| code);
    let mut out = String::new();
    let mut rest = source;
    while let Some(at) = rest.find("#[cfg(test)]") {
        out.push_str(&rest[..at]);
        let item = &rest[at..];
        let mut depth = 0;
        let mut end = item.len();
        for (i, c) in item.char_indices() {
            match c {
                '{' => depth += 1,
                '}' if depth == 1 => {
                    end = i + 1;
                    break;
                }
                '}' => depth -= 1,
                _ => {}
            }
        }
        rest = &item[end..];
    }
    out.push_str(rest);
    out
}
