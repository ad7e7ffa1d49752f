//! The HTTP tool executor against a real HTTP server on loopback: placeholders, query and
//! body, secrets in headers, status mapping, timeouts, a slow drip, redirect loops, a
//! 50 MB answer, and a closed port.

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::extract::{Path, Query};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Redirect};
use axum::routing::{get, post};
use axum::{Json, Router};
use deskmate_core::{Category, ErrorType, Localized, SideEffect, ToolSpec};
use deskmate_tools::http_tool::{HttpTool, HttpToolConfig, SecretStore};
use deskmate_tools::{Tool, ToolContext};
use serde_json::{Value, json};
use tokio::io::AsyncWriteExt;

#[derive(Debug)]
struct Secrets;

impl SecretStore for Secrets {
    fn secret(&self, name: &str) -> Option<String> {
        (name == "ORDERS_KEY").then(|| "sk-live-123".to_string())
    }
}

async fn server() -> SocketAddr {
    let app = Router::new()
        .route(
            "/orders/{id}",
            get(
                |Path(id): Path<String>,
                 Query(q): Query<BTreeMap<String, String>>,
                 headers: HeaderMap| async move {
                    let auth = headers
                        .get("authorization")
                        .and_then(|v| v.to_str().ok())
                        .unwrap_or("")
                        .to_string();
                    Json(json!({"id": id, "query": q, "authorization": auth}))
                },
            ),
        )
        .route(
            "/echo",
            post(|Json(body): Json<Value>| async move { Json(json!({"received": body})) }),
        )
        .route(
            "/status/{code}",
            get(|Path(code): Path<u16>| async move {
                (
                    StatusCode::from_u16(code).unwrap_or(StatusCode::IM_A_TEAPOT),
                    format!("status {code}: details here"),
                )
            }),
        )
        .route(
            "/slow",
            get(|| async {
                tokio::time::sleep(Duration::from_secs(10)).await;
                "late"
            }),
        )
        .route("/loop", get(|| async { Redirect::temporary("/loop") }))
        .route(
            "/hop/{n}",
            get(|Path(n): Path<u32>| async move {
                if n == 0 {
                    Json(json!({"arrived": true})).into_response()
                } else {
                    Redirect::temporary(&format!("/hop/{}", n - 1)).into_response()
                }
            }),
        )
        .route("/big", get(|| async { vec![b'x'; 50 * 1024 * 1024] }))
        .route("/text", get(|| async { "plain words" }));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    let addr = listener.local_addr().unwrap_or_else(|e| panic!("{e}"));
    tokio::spawn(async move { axum::serve(listener, app).await });
    addr
}

/// A server that promises 1,000 bytes and sends one every 100 ms.
async fn drip_server() -> SocketAddr {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    let addr = listener.local_addr().unwrap_or_else(|e| panic!("{e}"));
    tokio::spawn(async move {
        while let Ok((mut socket, _)) = listener.accept().await {
            tokio::spawn(async move {
                let _ = socket
                    .write_all(b"HTTP/1.1 200 OK\r\ncontent-length: 1000\r\n\r\n")
                    .await;
                for _ in 0..1000 {
                    if socket.write_all(b"x").await.is_err() {
                        return;
                    }
                    tokio::time::sleep(Duration::from_millis(100)).await;
                }
            });
        }
    });
    addr
}

fn tool(
    url: String,
    method: reqwest::Method,
    headers: &[(&str, &str)],
    timeout_ms: u64,
) -> HttpTool {
    let spec = ToolSpec {
        id: "orders".into(),
        name: Localized::new("订单", "Orders"),
        summary: None,
        description: "Looks up orders on the test server.".into(),
        category: Category::Query,
        parameters: json!({"type": "object"}),
        side_effect: SideEffect::Read,
        idempotent: true,
        timeout_ms: timeout_ms + 1000,
        compensation: None,
    };
    let config = HttpToolConfig {
        method,
        url,
        headers: headers
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect(),
        timeout: Duration::from_millis(timeout_ms),
        max_response_bytes: 2 * 1024 * 1024,
    };
    HttpTool::new(spec, config, Arc::new(Secrets)).unwrap_or_else(|e| panic!("{e}"))
}

async fn run(tool: &HttpTool, args: Value) -> Result<Value, deskmate_core::ToolError> {
    tool.run(args, ToolContext::new("test")).await
}

#[tokio::test]
async fn get_fills_the_path_sends_the_query_and_resolves_secrets() {
    let addr = server().await;
    let t = tool(
        format!("http://{addr}/orders/{{order_id}}"),
        reqwest::Method::GET,
        &[("Authorization", "Bearer {secret:ORDERS_KEY}")],
        5_000,
    );
    let out = run(
        &t,
        json!({"order_id": "A/1 2", "expand": "items", "tags": ["x", "y"]}),
    )
    .await
    .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(out["status"], 200);
    assert_eq!(
        out["body"]["id"], "A/1 2",
        "decoded by the server as one segment"
    );
    assert_eq!(out["body"]["query"]["expand"], "items");
    assert_eq!(out["body"]["authorization"], "Bearer sk-live-123");
}

#[tokio::test]
async fn post_sends_a_json_body_and_text_answers_stay_text() {
    let addr = server().await;
    let t = tool(
        format!("http://{addr}/echo"),
        reqwest::Method::POST,
        &[],
        5_000,
    );
    let out = run(&t, json!({"text": "你好", "n": 2}))
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(out["body"]["received"], json!({"text": "你好", "n": 2}));
    let t = tool(
        format!("http://{addr}/text"),
        reqwest::Method::GET,
        &[],
        5_000,
    );
    assert_eq!(
        run(&t, json!({})).await.map(|o| o["body"].clone()).ok(),
        Some(json!("plain words"))
    );
}

#[tokio::test]
async fn statuses_map_to_error_types() {
    let addr = server().await;
    for (code, kind) in [
        (400, ErrorType::Validation),
        (404, ErrorType::Validation),
        (422, ErrorType::Validation),
        (500, ErrorType::Transient),
        (503, ErrorType::Transient),
    ] {
        let t = tool(
            format!("http://{addr}/status/{code}"),
            reqwest::Method::GET,
            &[],
            5_000,
        );
        let err = run(&t, json!({}))
            .await
            .err()
            .unwrap_or_else(|| panic!("{code} must fail"));
        assert_eq!(err.error_type, kind, "{code}");
        assert!(
            err.message.contains(&code.to_string()) && err.message.contains("details here"),
            "{}",
            err.message
        );
    }
}

#[tokio::test]
async fn timeouts_drips_redirects_size_and_closed_ports() {
    let addr = server().await;
    let started = Instant::now();
    let slow = run(
        &tool(
            format!("http://{addr}/slow"),
            reqwest::Method::GET,
            &[],
            500,
        ),
        json!({}),
    )
    .await
    .err();
    assert_eq!(slow.map(|e| e.error_type), Some(ErrorType::Transient));
    let drip = drip_server().await;
    let dripped = run(
        &tool(format!("http://{drip}/"), reqwest::Method::GET, &[], 800),
        json!({}),
    )
    .await
    .err();
    assert_eq!(dripped.map(|e| e.error_type), Some(ErrorType::Transient));
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "{:?}",
        started.elapsed()
    );

    let looped = run(
        &tool(
            format!("http://{addr}/loop"),
            reqwest::Method::GET,
            &[],
            5_000,
        ),
        json!({}),
    )
    .await
    .err();
    assert!(
        looped.is_some_and(
            |e| e.error_type == ErrorType::Transient && e.message.contains("redirected")
        )
    );
    let three = run(
        &tool(
            format!("http://{addr}/hop/3"),
            reqwest::Method::GET,
            &[],
            5_000,
        ),
        json!({}),
    )
    .await;
    assert_eq!(
        three.map(|o| o["body"]["arrived"].clone()).ok(),
        Some(json!(true))
    );
    let four = run(
        &tool(
            format!("http://{addr}/hop/4"),
            reqwest::Method::GET,
            &[],
            5_000,
        ),
        json!({}),
    )
    .await;
    assert!(four.is_err(), "at most 3 redirects");

    let big = run(
        &tool(
            format!("http://{addr}/big"),
            reqwest::Method::GET,
            &[],
            10_000,
        ),
        json!({}),
    )
    .await
    .err();
    assert!(
        big.is_some_and(
            |e| e.error_type == ErrorType::Validation && e.message.contains("more than")
        )
    );

    let closed = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap_or_else(|e| panic!("{e}"));
        listener.local_addr().unwrap_or_else(|e| panic!("{e}"))
    };
    let refused = run(
        &tool(
            format!("http://{closed}/x"),
            reqwest::Method::GET,
            &[],
            2_000,
        ),
        json!({}),
    )
    .await
    .err();
    assert_eq!(refused.map(|e| e.error_type), Some(ErrorType::Transient));
}

#[tokio::test]
async fn a_missing_secret_is_a_permission_error_and_nothing_is_sent() {
    let addr = server().await;
    let t = tool(
        format!("http://{addr}/orders/1"),
        reqwest::Method::GET,
        &[("X-Api-Key", "{secret:MISSING}")],
        5_000,
    );
    let err = run(&t, json!({})).await.err();
    assert_eq!(err.map(|e| e.error_type), Some(ErrorType::Permission));
}
