//! Property tests: the guard's pure steps never panic, whatever JSON a model sends, and
//! what they accept really is valid.

use deskmate_core::{CapLimits, Category, Guard, Localized, SideEffect, ToolResult, ToolSpec, cap};
use proptest::prelude::*;
use serde_json::{Map, Value, json};

fn spec(id: &str, parameters: Value) -> ToolSpec {
    ToolSpec {
        id: id.into(),
        name: Localized::new("测试", "Test"),
        summary: None,
        description: "A test tool with a rich parameter schema.".into(),
        category: Category::Query,
        parameters,
        side_effect: SideEffect::Read,
        idempotent: true,
        timeout_ms: 1000,
        compensation: None,
    }
}

fn guard() -> Guard {
    let rich = json!({
        "type": "object", "additionalProperties": false, "required": ["dataset"],
        "properties": {
            "dataset": {"type": "string", "enum": ["adsl", "adae"], "x-strip-suffixes": [".csv"], "description": "d"},
            "subjects": {"type": "array", "items": {"type": "string"}, "uniqueItems": true, "x-all": "omit", "description": "d"},
            "checks": {"type": "array", "items": {"type": "string", "enum": ["a", "b"]}, "x-all": "enum", "description": "d"},
            "threshold": {"type": "number", "x-percent": true, "minimum": 0, "maximum": 100, "description": "d"},
            "step": {"type": "integer", "description": "d"},
            "flag": {"type": "boolean", "description": "d"},
            "pairs": {"type": "array", "items": {"type": "object", "properties": {"start": {"type": "string"}}, "required": ["start"]}, "description": "d"},
            "nested": {"type": "object", "properties": {"deep": {"type": "object", "properties": {"x": {"type": ["string", "null"]}}}}, "description": "d"}
        }
    });
    // A book_flight schema, nested four levels deep.
    let book_flight = json!({
        "type": "object",
        "properties": {
            "passenger": {"type": "object", "properties": {
                "name": {"type": "string"},
                "loyalty": {"type": "object", "properties": {
                    "tier": {"type": "string", "enum": ["silver", "gold", "platinum"]},
                    "points": {"type": "number"}}}}},
            "legs": {"type": "array", "items": {"type": "object", "properties": {
                "from": {"type": "string"}, "to": {"type": "string"}}}}
        }
    });
    Guard::new([spec("rich_tool", rich), spec("book_flight", book_flight)])
        .unwrap_or_else(|e| panic!("{e}"))
}

fn arb_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<f64>()
            .prop_map(|f| serde_json::Number::from_f64(f).map_or(Value::Null, Value::Number)),
        ".{0,12}".prop_map(Value::String),
        prop_oneof![
            Just("ADSL.csv"),
            Just("all"),
            Just("全部"),
            Just("70%"),
            Just("a,b;c"),
            Just("{\"x\":1}"),
            Just("[1,2]"),
            Just("true")
        ]
        .prop_map(|s| Value::String(s.into())),
    ];
    leaf.prop_recursive(4, 48, 6, |inner| {
        let keys = prop_oneof![
            Just("dataset".to_string()),
            Just("subjects".to_string()),
            Just("checks".to_string()),
            Just("threshold".to_string()),
            Just("step".to_string()),
            Just("flag".to_string()),
            Just("pairs".to_string()),
            Just("nested".to_string()),
            Just("deep".to_string()),
            Just("passenger".to_string()),
            Just("loyalty".to_string()),
            Just("legs".to_string()),
            Just("Dataset".to_string()),
            "[a-z]{1,6}",
        ];
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::btree_map(keys, inner, 0..6)
                .prop_map(|m| Value::Object(m.into_iter().collect::<Map<String, Value>>())),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn the_guard_never_panics_on_arbitrary_json(args in arb_json(), tool in prop_oneof![Just("rich_tool"), Just("book_flight"), Just("RICH-TOOL"), Just("nope")]) {
        let g = guard();
        match g.prepare(tool, args) {
            Ok(call) => {
                // What the guard accepts passes validation as the tool receives it.
                let again = g.prepare(&call.tool, call.arguments.clone());
                prop_assert!(again.is_ok(), "accepted arguments must stay valid: {:?}", call.arguments);
            }
            Err(rejection) => {
                let result: ToolResult = rejection.into();
                prop_assert!(!result.ok);
                prop_assert!(result.error_type.is_some());
                prop_assert!(result.error.is_some_and(|e| !e.is_empty()));
                prop_assert!(serde_json::to_string(&result.data).is_ok());
            }
        }
    }

    #[test]
    fn arguments_as_text_never_panic(text in ".{0,64}") {
        let g = guard();
        let _ = g.prepare("rich_tool", Value::String(text));
    }

    #[test]
    fn capping_always_fits(data in arb_json(), max_bytes in 64usize..4096) {
        let limits = CapLimits { max_rows: 5, max_string_chars: 50, max_bytes };
        let (out, _) = cap(data, limits);
        let size = serde_json::to_vec(&out).map(|v| v.len()).unwrap_or(usize::MAX);
        prop_assert!(size <= max_bytes, "{} > {}", size, max_bytes);
    }
}

#[test]
fn nested_violations_through_the_guard() {
    let g = guard();
    let rejection = g
        .prepare(
            "book_flight",
            json!({"passenger": {"name": "John", "loyalty": "gold"}, "legs": "SFO-JFK"}),
        )
        .err()
        .unwrap_or_else(|| panic!("the nested arguments must be rejected"));
    let result: ToolResult = rejection.into();
    let mut paths: Vec<String> = result.data["violations"]
        .as_array()
        .map(|v| {
            v.iter()
                .filter_map(|x| x["path"].as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default();
    paths.sort();
    assert_eq!(paths, ["/legs", "/passenger/loyalty"]);
    let message = result.error.unwrap_or_default();
    assert!(
        message.contains("/passenger/loyalty: expected object, got string"),
        "{message}"
    );
    assert!(
        message.contains("/legs: expected array, got string"),
        "{message}"
    );
}

#[test]
fn hallucinated_tool_names_are_not_found_with_options() {
    let g = guard();
    let result: ToolResult = g
        .prepare("delete_database_records", json!({}))
        .err()
        .map(Into::into)
        .unwrap_or_else(|| panic!("must fail"));
    assert_eq!(result.error_type, Some(deskmate_core::ErrorType::NotFound));
    assert_eq!(result.options.len(), 2);
}
