//! A built-in tool reads every call the guard lets through into its argument type: the
//! schema the guard checks and the type the tool reads come from one source. (What the
//! model and a person read of the tools — schemas, the warm prompt, the reply grammar —
//! is compared with `testdata/builtin-tools.json` by `deskmate-agent`'s
//! `tests/builtin_tools.rs`, since the prompt is the agent's.)

mod common;

use std::path::PathBuf;
use std::sync::Arc;

use deskmate_devices::Backends;
use deskmate_service::Deskmate;
use deskmate_service::hooks::PreApproved;
use serde_json::{Map, Value, json};

/// A service on a data dir with ADSL, with every built-in tool (the device tools on
/// simulated devices) and the shipped HTTP templates.
fn every_tool() -> (tempfile::TempDir, Deskmate) {
    let dir = common::data_dir_with_adsl();
    let backends = Backends::simulated();
    let deskmate = Deskmate::open_with_tools(
        dir.path(),
        Arc::new(PreApproved),
        deskmate_devices::system_tools(&backends),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    (dir, deskmate)
}

/// A value valid for `schema`: the smallest one (`full` = false: required properties
/// only) or one that gives every property (`full` = true). Covers the keywords the
/// built-in tools use.
fn valid_value(schema: &Value, full: bool) -> Value {
    if let Some(first) = schema["enum"].as_array().and_then(|e| e.first()) {
        return first.clone();
    }
    if let Some(default) = schema.get("default") {
        return default.clone();
    }
    match schema["type"].as_str().unwrap_or("object") {
        "string" => {
            let length = schema["minLength"].as_u64().unwrap_or(1).max(1);
            json!("x".repeat(usize::try_from(length).unwrap_or(1)))
        }
        "integer" => json!(schema["minimum"].as_i64().unwrap_or(1)),
        "number" => json!(schema["minimum"].as_f64().unwrap_or(1.0)),
        "boolean" => json!(true),
        "array" => {
            let count = schema["minItems"].as_u64().unwrap_or(1).max(1);
            let item = &schema["items"];
            let values: Vec<Value> = (0..count)
                .map(|i| match valid_value(item, full) {
                    // Distinct items where the schema asks for unique ones.
                    Value::String(s) if item.get("enum").is_none() => json!(format!("{s}{i}")),
                    other => other,
                })
                .collect();
            json!(values)
        }
        _ => {
            let mut required: Vec<&str> = schema["required"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
                .collect();
            // Of an either/or, the first way.
            if let Some(first) = schema["oneOf"].as_array().and_then(|o| o.first()) {
                required.extend(
                    first["required"]
                        .as_array()
                        .into_iter()
                        .flatten()
                        .filter_map(Value::as_str),
                );
            }
            let properties = schema["properties"]
                .as_object()
                .cloned()
                .unwrap_or_default();
            let object: Map<String, Value> = properties
                .iter()
                .filter(|(name, _)| {
                    required.contains(&name.as_str()) || (full && schema.get("oneOf").is_none())
                })
                .map(|(name, property)| (name.clone(), valid_value(property, full)))
                .collect();
            Value::Object(object)
        }
    }
}

/// Every integer in `value` written as a float (`5` → `5.0`).
fn integers_as_floats(value: &mut Value) {
    match value {
        Value::Number(n) if n.is_i64() || n.is_u64() => {
            *value = json!(n.as_f64().unwrap_or_default());
        }
        Value::Array(items) => items.iter_mut().for_each(integers_as_floats),
        Value::Object(map) => map.values_mut().for_each(integers_as_floats),
        _ => {}
    }
}

/// Every call the guard lets through fits the tool's argument type, which the tool reads
/// it into: the smallest and the fullest valid call of each built-in tool (the fullest also
/// with its whole numbers written as floats), every call of its worked examples, and every call
/// of the guard benchmark's corpus (valid, repairable and invalid ones, as models write
/// them) that the guard accepts.
#[test]
fn every_call_the_guard_accepts_fits_the_tools_argument_type() {
    let (_dir, deskmate) = every_tool();
    let registry = deskmate.registry();
    let mut calls: Vec<(String, Value)> = Vec::new();
    // The shipped HTTP templates are disabled: the guard refuses every call of them.
    for spec in registry
        .specs()
        .filter(|s| registry.guard().is_enabled(&s.id))
    {
        for full in [false, true] {
            calls.push((spec.id.clone(), valid_value(&spec.parameters, full)));
        }
        // Whole numbers as some clients write them (`20.0`): valid integers to JSON Schema.
        let mut floats = valid_value(&spec.parameters, true);
        integers_as_floats(&mut floats);
        calls.push((spec.id.clone(), floats));
        // Every call of the tool's worked examples for the model, whichever crate has the
        // tools it calls: each names a registered tool and must be valid.
        for example in registry.tool(&spec.id).map_or(&[][..], |t| t.examples()) {
            for (tool, arguments) in example.calls {
                assert!(registry.tool(tool).is_some(), "{}: {example:?}", spec.id);
                let arguments = serde_json::from_str(arguments)
                    .unwrap_or_else(|e| panic!("{tool} {arguments}: {e}"));
                calls.push(((*tool).to_string(), arguments));
            }
        }
    }
    let corpus = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../bench/guard_corpus.jsonl");
    let corpus = std::fs::read_to_string(&corpus).unwrap_or_else(|e| panic!("{e}"));
    let from_corpus = corpus.lines().count();
    for line in corpus.lines() {
        let entry: Value = serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}"));
        let tool = entry["tool"].as_str().unwrap_or_default().to_string();
        calls.push((tool, entry["arguments"].clone()));
    }
    let mut accepted = 0;
    for (index, (tool, arguments)) in calls.iter().enumerate() {
        let prepared = registry.guard().prepare(tool, arguments.clone());
        let Ok(prepared) = prepared else {
            // A call made from the schema itself must be valid; the corpus has invalid ones.
            assert!(
                index >= calls.len() - from_corpus,
                "{tool} {arguments}: {prepared:?}"
            );
            continue;
        };
        accepted += 1;
        let fits = registry
            .tool(&prepared.tool)
            .map(|t| t.fits(&prepared.arguments));
        assert!(
            matches!(fits, Some(Ok(()))),
            "{} {}: {fits:?}",
            prepared.tool,
            prepared.arguments
        );
    }
    assert!(accepted > 150, "{accepted} calls accepted");
}
