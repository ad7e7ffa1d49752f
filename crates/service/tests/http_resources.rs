//! A power user's journey through the service: create an HTTP tool pointing at a real
//! loopback server, call it through the guard, see it audited, disable, restart, delete.

mod common;

use std::collections::BTreeMap;

use axum::extract::{Path, Query};
use axum::http::HeaderMap;
use axum::routing::get;
use axum::{Json, Router};
use deskmate_core::ErrorType;
use deskmate_service::{CallRequest, Deskmate, ServiceError};
use deskmate_store::audit::AuditFilter;
use serde_json::{Value, json};

/// A typed request body from JSON, as the API reads it.
fn body<T: deskmate_service::body::Body>(json: serde_json::Value) -> T {
    T::read(&json).unwrap_or_else(|e| panic!("{e:?}"))
}

async fn weather_server() -> String {
    let app = Router::new().route(
        "/weather/{city}",
        get(|Path(city): Path<String>, Query(q): Query<BTreeMap<String, String>>, headers: HeaderMap| async move {
            let key = headers.get("x-api-key").and_then(|v| v.to_str().ok()).unwrap_or("").to_string();
            if key != "sk-weather" {
                return Json(json!({"error": "bad key"}));
            }
            Json(json!({"city": city, "units": q.get("units"), "days": q.get("days"), "temp_c": 21}))
        }),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    let addr = listener.local_addr().unwrap_or_else(|e| panic!("{e}"));
    tokio::spawn(async move { axum::serve(listener, app).await });
    format!("http://{addr}")
}

fn weather_tool(base: &str) -> Value {
    json!({
        "name": "City weather",
        "description": "Current weather and forecast for a city.",
        "category": "query",
        "http_method": "GET",
        "http_url": format!("{base}/weather/{{city}}"),
        "http_headers": {"X-Api-Key": "sk-weather"},
        "http_timeout_ms": 3000,
        "parameter_schema": {"type": "object", "additionalProperties": false, "required": ["city"], "properties": {
            "city": {"type": "string", "description": "City name"},
            "units": {"type": "string", "enum": ["metric", "imperial"], "description": "Units"},
            "days": {"type": "integer", "minimum": 1, "maximum": 7, "description": "Forecast days"}
        }},
        "parameter_defaults": {"units": "metric"}
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn create_call_audit_disable_restart_delete() {
    let dir = common::data_dir_with_adsl();
    let base = weather_server().await;
    let deskmate = Deskmate::open(dir.path()).unwrap_or_else(|e| panic!("{e}"));
    let created = deskmate
        .create_resource(body(weather_tool(&base)))
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(created.id, "city_weather");
    assert_eq!(
        created.http_headers["X-Api-Key"], "{secret:city_weather.x_api_key}",
        "the key moved to the secret store"
    );
    let secrets = std::fs::read_to_string(dir.path().join("secrets.json")).unwrap_or_default();
    assert!(secrets.contains("sk-weather"));
    let db = std::fs::read(dir.path().join("deskmate.db")).unwrap_or_default();
    assert!(
        !String::from_utf8_lossy(&db).contains("sk-weather"),
        "no secret in the database"
    );

    let result = deskmate
        .call(CallRequest::new(
            "city_weather",
            json!({"city": "上海/浦东", "days": "3", "Units": "IMPERIAL"}),
        ))
        .await;
    assert!(result.ok, "{result:?}");
    assert_eq!(
        result.data["body"],
        json!({"city": "上海/浦东", "units": "imperial", "days": "3", "temp_c": 21})
    );
    let rules: Vec<String> = result
        .repairs
        .iter()
        .map(|r| format!("{:?}", r.rule))
        .collect();
    assert_eq!(rules, ["KeyCase", "NumberFromString", "EnumCase"]);
    let defaulted = deskmate
        .call(CallRequest::new("city_weather", json!({"city": "Paris"})))
        .await;
    assert_eq!(
        defaulted.data["body"]["units"], "metric",
        "parameter_defaults apply"
    );
    let invalid = deskmate
        .call(CallRequest::new(
            "city_weather",
            json!({"city": "Paris", "days": 30}),
        ))
        .await;
    assert_eq!(invalid.error_type, Some(ErrorType::Validation));

    let store = deskmate.store().cloned().unwrap_or_else(|| panic!("store"));
    let (total, rows) = store
        .list_audit(&AuditFilter {
            tool: Some("city_weather".into()),
            limit: 10,
            ..AuditFilter::default()
        })
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(total, 3);
    assert!(
        !serde_json::to_string(&rows)
            .unwrap_or_default()
            .contains("sk-weather")
    );

    // Disabled: refused. Survives a restart. Deleted: gone.
    deskmate
        .update_resource("city_weather", body(json!({"enabled": false})))
        .unwrap_or_else(|e| panic!("{e}"));
    let refused = deskmate
        .call(CallRequest::new("city_weather", json!({"city": "Paris"})))
        .await;
    assert_eq!(refused.error_type, Some(ErrorType::Permission));
    drop(deskmate);
    let deskmate = Deskmate::open(dir.path()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        deskmate
            .call(CallRequest::new("city_weather", json!({"city": "Paris"})))
            .await
            .error_type,
        Some(ErrorType::Permission)
    );
    deskmate
        .update_resource("city_weather", body(json!({"enabled": true})))
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(
        deskmate
            .call(CallRequest::new("city_weather", json!({"city": "Paris"})))
            .await
            .ok
    );
    deskmate
        .delete_resource("city_weather")
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        deskmate
            .call(CallRequest::new("city_weather", json!({"city": "Paris"})))
            .await
            .error_type,
        Some(ErrorType::NotFound)
    );
    assert!(matches!(
        deskmate.delete_resource("city_weather"),
        Err(ServiceError::NotFound { .. })
    ));
}

#[tokio::test]
async fn invalid_input_and_built_in_tools() {
    let dir = common::data_dir_with_adsl();
    let deskmate = Deskmate::open(dir.path()).unwrap_or_else(|e| panic!("{e}"));
    match deskmate.create_resource(body(
        json!({"name": "", "category": "query", "http_url": "file:///etc/passwd"}),
    )) {
        Err(ServiceError::Invalid(errors)) => {
            let paths: Vec<&str> = errors.iter().map(|e| e.path.as_str()).collect();
            assert_eq!(paths, ["/name", "/http_url"]);
        }
        other => panic!("{other:?}"),
    }
    assert!(matches!(
        deskmate.delete_resource("calculator"),
        Err(ServiceError::Forbidden(_))
    ));
    assert!(matches!(
        deskmate.update_resource("calculator", body(json!({"http_url": "http://x/y"}))),
        Err(ServiceError::Invalid(_))
    ));
    assert!(matches!(
        deskmate.create_resource(body(
            json!({"id": "calculator", "name": "x", "category": "query", "http_url": "http://h/x"})
        )),
        Err(ServiceError::Invalid(_))
    ));
    assert_eq!(
        deskmate
            .list_resources(&Default::default())
            .map(|r| r.0)
            .ok(),
        Some(17),
        "nothing was written"
    );
}

/// Every stored resource becomes a tool, not only the first page of 1,000 (the registry
/// once loaded them through the paged list and dropped the rest silently).
#[test]
fn every_stored_resource_is_loaded_past_the_first_thousand() {
    let dir = common::data_dir_with_adsl();
    let deskmate = Deskmate::open(dir.path()).unwrap_or_else(|e| panic!("{e}"));
    let first = deskmate
        .create_resource(body(weather_tool("http://127.0.0.1:9")))
        .unwrap_or_else(|e| panic!("{e}"));
    let store = deskmate
        .store()
        .cloned()
        .unwrap_or_else(|| panic!("no store"));
    drop(deskmate);
    for i in 0..1_005 {
        let mut copy = first.clone();
        copy.id = format!("weather_{i:04}");
        store
            .insert_resource(&copy)
            .unwrap_or_else(|e| panic!("{e}"));
    }
    drop(store);
    let deskmate = Deskmate::open(dir.path()).unwrap_or_else(|e| panic!("{e}"));
    let registry = deskmate.registry();
    for id in [
        "city_weather",
        "weather_0000",
        "weather_0999",
        "weather_1004",
    ] {
        assert!(registry.tool(id).is_some(), "{id} was not loaded");
    }
    let user_tools = registry
        .specs()
        .filter(|s| s.id.starts_with("weather_") || s.id == "city_weather")
        .count();
    assert_eq!(user_tools, 1_006);
}

/// A change to one resource updates the registry in place (no rebuild); what it holds
/// afterwards is exactly what a full rebuild from the store holds: the same tools in the
/// same order, the same enabled flags, the same policies.
#[test]
fn incremental_changes_match_a_full_rebuild() {
    let dir = common::data_dir_with_adsl();
    let deskmate = Deskmate::open(dir.path()).unwrap_or_else(|e| panic!("{e}"));
    let mut ids = Vec::new();
    for name in ["Alpha lookup", "Beta lookup", "Gamma lookup"] {
        let mut tool = weather_tool("http://127.0.0.1:9");
        tool["name"] = json!(name);
        ids.push(
            deskmate
                .create_resource(body(tool))
                .unwrap_or_else(|e| panic!("{e}"))
                .id,
        );
    }
    deskmate
        .update_resource(&ids[0], body(json!({"enabled": false})))
        .unwrap_or_else(|e| panic!("{e}"));
    deskmate
        .update_resource(
            &ids[2],
            body(json!({"policy": "never", "http_method": "DELETE"})),
        )
        .unwrap_or_else(|e| panic!("{e}"));
    deskmate
        .update_resource("calculator", body(json!({"enabled": false})))
        .unwrap_or_else(|e| panic!("{e}"));
    deskmate
        .delete_resource(&ids[1])
        .unwrap_or_else(|e| panic!("{e}"));

    let seen = |d: &Deskmate| {
        let registry = d.registry();
        registry
            .specs()
            .map(|s| {
                (
                    s.id.clone(),
                    registry.guard().is_enabled(&s.id),
                    format!("{:?}", s.side_effect),
                )
            })
            .collect::<Vec<_>>()
    };
    let incremental = seen(&deskmate);
    let policy = |d: &Deskmate, id: &str| d.resource(id).map(|r| r.policy).unwrap_or_default();
    assert_eq!(policy(&deskmate, &ids[2]).as_deref(), Some("never"));
    let refused = tokio::runtime::Runtime::new()
        .unwrap_or_else(|e| panic!("{e}"))
        .block_on(deskmate.call(CallRequest::new(&ids[2], json!({"city": "Oslo"}))));
    assert_eq!(refused.error_type, Some(ErrorType::Denied), "{refused:?}");
    drop(deskmate);
    let rebuilt = Deskmate::open(dir.path()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(incremental, seen(&rebuilt));
    assert!(
        incremental.iter().all(|(id, _, _)| id != &ids[1]),
        "deleted"
    );
    assert!(incremental.contains(&(ids[0].clone(), false, "Read".into())));
    assert!(incremental.contains(&("calculator".into(), false, "Read".into())));
    assert!(incremental.contains(&(ids[2].clone(), true, "Write".into())));
}
