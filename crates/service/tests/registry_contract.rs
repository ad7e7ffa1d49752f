//! Four groups of registry tests, rewritten against Deskmate's registry and run through the
//! full guard (the service), on the CDISC pilot ADSL.

mod common;

use deskmate_core::{ErrorType, lint_people_text, lint_spec};
use deskmate_service::{CallRequest, Deskmate};
use serde_json::{Value, json};

fn service() -> (tempfile::TempDir, Deskmate) {
    let dir = common::data_dir_with_adsl();
    let deskmate = Deskmate::open(dir.path()).unwrap_or_else(|e| panic!("open: {e}"));
    (dir, deskmate)
}

async fn call(deskmate: &Deskmate, tool: &str, args: Value) -> deskmate_core::ToolResult {
    deskmate.call(CallRequest::new(tool, args)).await
}

// ---- 1) Every schema is valid ----

#[test]
fn every_tool_has_a_valid_schema() {
    let (_dir, deskmate) = service();
    let specs = deskmate.specs();
    assert!(specs.len() >= 8, "{}", specs.len());
    let (_, resources) = deskmate
        .list_resources(&Default::default())
        .unwrap_or_else(|e| panic!("{e}"));
    let built_in: Vec<String> = resources
        .iter()
        .filter(|r| r.is_system)
        .map(|r| r.id.clone())
        .collect();
    assert_eq!(built_in.len(), 14, "{built_in:?}");
    for spec in &specs {
        let problems = lint_spec(spec);
        assert!(problems.is_empty(), "{problems:#?}");
        // A person reads a built-in tool's name, summary and parameters in either language.
        if built_in.contains(&spec.id) {
            let problems = lint_people_text(spec);
            assert!(problems.is_empty(), "{problems:#?}");
        }
        // The schema a model sees also passes the 2020-12 meta-schema.
        assert!(
            jsonschema::draft202012::meta::is_valid(&spec.parameters_for_model()),
            "{}",
            spec.id
        );
    }
}

// ---- 2) Normalization at the boundary ----

#[tokio::test]
async fn dataset_spellings_are_accepted() {
    let (_dir, deskmate) = service();
    for raw in ["ADSL", "adsl.csv", " adsl ", "Adsl.CSV"] {
        let result = call(&deskmate, "describe_dataset", json!({"dataset": raw})).await;
        assert!(result.ok, "{raw:?}: {result:?}");
        assert_eq!(result.data["dataset"], "adsl");
        assert_eq!(result.data["rows"], 254);
        assert!(
            !result.repairs.is_empty(),
            "{raw:?} needed a repair and must report it"
        );
    }
}

#[tokio::test]
async fn bad_dataset_names_are_rejected() {
    let (_dir, deskmate) = service();
    for raw in [
        json!("../etc/passwd"),
        json!("adls"),
        json!(""),
        json!("全部"),
        Value::Null,
        json!("/etc/passwd"),
        json!("adsl/../../x"),
    ] {
        let result = call(&deskmate, "describe_dataset", json!({"dataset": raw})).await;
        assert!(!result.ok, "{raw}");
        let kind = result.error_type.unwrap_or(ErrorType::Internal);
        assert!(
            matches!(
                kind,
                ErrorType::Validation | ErrorType::NotFound | ErrorType::Permission
            ),
            "{raw}: {kind}"
        );
    }
}

// ---- 3) Results are JSON-serializable ----

#[tokio::test]
async fn results_are_serializable() {
    let (_dir, deskmate) = service();
    for (tool, args) in [
        ("describe_dataset", json!({"dataset": "adsl"})),
        ("run_qc_checks", json!({"dataset": "adsl"})),
        ("frequency", json!({"dataset": "adsl", "variable": "SEX"})),
        (
            "summarize_by_group",
            json!({"dataset": "adsl", "variable": "AGE", "group_by": "TRT01A"}),
        ),
    ] {
        let result = call(&deskmate, tool, args).await;
        assert!(result.ok, "{tool}: {result:?}");
        let text = serde_json::to_string(&result).unwrap_or_default();
        let back: Value = serde_json::from_str(&text).unwrap_or(Value::Null);
        assert_eq!(back["ok"], true, "{tool}");
    }
}

// ---- 4) Errors are actionable ----

#[tokio::test]
async fn errors_carry_type_and_options() {
    let (_dir, deskmate) = service();
    let result = call(&deskmate, "describe_dataset", json!({"dataset": "nope"})).await;
    assert_eq!(result.error_type, Some(ErrorType::Validation));
    assert_eq!(result.options, ["adsl"]);
    assert!(result.hint.is_some());

    let result = call(
        &deskmate,
        "summarize_by_group",
        json!({"dataset": "adsl", "variable": "AGEE"}),
    )
    .await;
    assert_eq!(result.error_type, Some(ErrorType::Validation));
    assert!(
        result.options.contains(&"AGE".to_string()),
        "{:?}",
        result.options
    );

    let result = call(
        &deskmate,
        "summarize_by_group",
        json!({"dataset": "adsl", "variable": "SEX"}),
    )
    .await;
    assert_eq!(
        result.error_type,
        Some(ErrorType::Validation),
        "a string variable has no mean"
    );
    assert!(result.error.unwrap_or_default().contains("not numeric"));
}

#[tokio::test]
async fn hallucinated_tools_are_not_found_with_options() {
    let (_dir, deskmate) = service();
    for name in [
        "delete_database_records",
        "get_data",
        "describe",
        "calculate",
    ] {
        let result = call(&deskmate, name, json!({})).await;
        assert_eq!(result.error_type, Some(ErrorType::NotFound), "{name}");
        assert!(!result.options.is_empty(), "{name}");
    }
    let result = call(&deskmate, "calculate", json!({})).await;
    assert_eq!(
        result.options.first().map(String::as_str),
        Some("calculator")
    );
}

// ---- Known answers on the CDISC data ----

#[tokio::test]
async fn summary_matches_known_statistics() {
    let (_dir, deskmate) = service();
    let result = call(
        &deskmate,
        "summarize_by_group",
        json!({"dataset": "adsl", "variable": "AGE", "group_by": "TRT01A"}),
    )
    .await;
    // Reference values computed independently with Python's statistics module.
    let rows = &result.data["rows"];
    assert_eq!(rows[0]["group"], "Placebo");
    assert_eq!(rows[0]["n"], 86);
    assert_eq!(rows[0]["Mean (SD)"], "75.21 (8.59)");
    assert_eq!(rows[0]["Median"], 76.0);
    assert_eq!(rows[0]["Min, Max"], "52.0, 89.0");
    assert_eq!(rows[2]["Median"], 77.5);
    assert_eq!(rows[3]["group"], "Total");
    assert_eq!(rows[3]["Mean (SD)"], "75.09 (8.25)");
}

#[tokio::test]
async fn subjects_filter_uses_the_normalizer() {
    let (_dir, deskmate) = service();
    let result = call(
        &deskmate,
        "frequency",
        json!({"dataset": "adsl", "variable": "SEX", "subjects": "01-701-1015, 01-701-1023；01-701-1015"}),
    )
    .await;
    assert!(result.ok, "{result:?}");
    assert_eq!(result.data["total"], 2);
    let rules: Vec<String> = result
        .repairs
        .iter()
        .map(|r| format!("{:?}", r.rule))
        .collect();
    assert_eq!(rules, ["SplitList", "Dedupe"]);

    let all = call(
        &deskmate,
        "frequency",
        json!({"dataset": "adsl", "variable": "SEX", "subjects": "全部"}),
    )
    .await;
    assert_eq!(all.data["total"], 254);

    let unknown = call(
        &deskmate,
        "frequency",
        json!({"dataset": "adsl", "variable": "SEX", "subjects": ["01-701-9999"]}),
    )
    .await;
    assert_eq!(unknown.error_type, Some(ErrorType::Validation));
}

#[tokio::test]
async fn long_answers_are_capped_with_the_total() {
    let (_dir, deskmate) = service();
    let result = call(
        &deskmate,
        "frequency",
        json!({"dataset": "adsl", "variable": "USUBJID"}),
    )
    .await;
    assert!(result.ok);
    assert!(result.truncated);
    assert_eq!(result.data["rows"].as_array().map(Vec::len), Some(50));
    let hint = result.hint.unwrap_or_default();
    assert!(hint.contains("50 of 254"), "{hint}");
}

#[tokio::test]
async fn qc_checks_find_planted_problems() {
    let dir = common::data_dir_with_adsl();
    // A copy of ADSL with a duplicated subject, an end date before its start, and a bad SEX.
    let text = std::fs::read_to_string(common::adsl_source()).unwrap_or_default();
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    lines.push(lines[1].clone());
    lines[2] = lines[2].replacen("2012-08-05,2012-09-01", "2012-08-05,2012-07-01", 1);
    lines[3] = lines[3]
        .replacen(",\"M\",", ",\"X\",", 1)
        .replacen(",\"F\",", ",\"X\",", 1);
    std::fs::write(
        dir.path().join("datasets").join("bad.csv"),
        lines.join("\n"),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let deskmate = Deskmate::open(dir.path()).unwrap_or_else(|e| panic!("{e}"));

    let clean = call(
        &deskmate,
        "run_qc_checks",
        json!({"dataset": "adsl", "checks": ["key_unique", "date_pairs", "codelist"]}),
    )
    .await;
    assert_eq!(clean.data["summary"]["errors"], 0, "{:?}", clean.data);

    let bad = call(
        &deskmate,
        "run_qc_checks",
        json!({"dataset": "bad", "checks": "all"}),
    )
    .await;
    assert!(bad.ok, "{bad:?}");
    let findings = bad.data["findings"].as_array().cloned().unwrap_or_default();
    let has = |check: &str, severity: &str| {
        findings
            .iter()
            .any(|f| f["check"] == check && f["severity"] == severity)
    };
    assert!(has("key_unique", "error"), "{findings:#?}");
    assert!(has("date_pairs", "error"), "{findings:#?}");
    assert!(has("codelist", "warning"), "{findings:#?}");
    let date = findings
        .iter()
        .find(|f| f["check"] == "date_pairs")
        .cloned()
        .unwrap_or_default();
    assert!(
        date["examples"][0]
            .as_str()
            .unwrap_or_default()
            .starts_with("01-701-1023"),
        "{date}"
    );
    // Read-only: the file is unchanged.
    let after =
        std::fs::read_to_string(dir.path().join("datasets").join("bad.csv")).unwrap_or_default();
    assert_eq!(after, lines.join("\n"));
}

#[tokio::test]
async fn sas_round_rate_and_append_audit_through_the_guard() {
    let (dir, deskmate) = service();
    let r = call(&deskmate, "sas_round_rate", json!({"value": "0.125"})).await;
    assert_eq!(r.data["text"], "0.13");
    let r = call(
        &deskmate,
        "sas_round_rate",
        json!({"value": -2.5, "decimals": "0"}),
    )
    .await;
    assert_eq!(r.data["text"], "-3");
    let r = call(
        &deskmate,
        "sas_round_rate",
        json!({"numerator": 17, "denominator": 254, "scale": "Percent", "decimals": 1}),
    )
    .await;
    assert_eq!(r.data["text"], "6.7");

    let event = json!({"action": "ran QC", "dataset": "adsl", "idem_key": "qc-adsl-1"});
    let first = call(&deskmate, "append_audit", event.clone()).await;
    let second = call(&deskmate, "append_audit", event).await;
    assert_eq!(
        (
            first.data["recorded"].clone(),
            second.data["duplicate"].clone()
        ),
        (json!(true), json!(true))
    );
    let journal = std::fs::read_to_string(dir.path().join("audit").join("dataset_audit.jsonl"))
        .unwrap_or_default();
    assert_eq!(journal.lines().count(), 1);
}
