//! Router tests with `tower::ServiceExt::oneshot`: every endpoint, every error, and
//! hostile requests that must answer 4xx JSON and write nothing.

use std::sync::Arc;

use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use deskmate_agent::Agent;
use deskmate_api::{AppState, app};
use deskmate_service::Deskmate;
use deskmate_service::prompts::PromptBroker;
use serde_json::{Value, json};
use tower::ServiceExt;

const TOKEN: &str = "test-token-123";

struct Fixture {
    _dir: tempfile::TempDir,
    app: Router,
    deskmate: Arc<Deskmate>,
    agent: Arc<Agent>,
}

fn fixture() -> Fixture {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let datasets = dir.path().join("datasets");
    std::fs::create_dir_all(&datasets).unwrap_or_else(|e| panic!("{e}"));
    let adsl = std::path::Path::new(
        &std::env::var("CARGO_MANIFEST_DIR")
            .unwrap_or_else(|_| env!("CARGO_MANIFEST_DIR").to_string()),
    )
    .join("../../testdata/cdisc/adsl.csv");
    std::fs::copy(adsl, datasets.join("adsl.csv")).unwrap_or_else(|e| panic!("{e}"));
    let prompts = PromptBroker::new(std::time::Duration::from_secs(5));
    let deskmate = Arc::new(
        Deskmate::open_with(dir.path(), prompts.clone()).unwrap_or_else(|e| panic!("{e}")),
    );
    let agent = Agent::new(deskmate.clone());
    let app = app(AppState::new(agent.clone(), TOKEN, prompts));
    Fixture {
        _dir: dir,
        app,
        deskmate,
        agent,
    }
}

fn request(method: &str, uri: &str, body: Option<Value>) -> axum::http::request::Builder {
    let mut builder = Request::builder()
        .method(method)
        .uri(uri)
        .header(header::HOST, "127.0.0.1:8765");
    builder = builder.header(header::AUTHORIZATION, format!("Bearer {TOKEN}"));
    if body.is_some() {
        builder = builder.header(header::CONTENT_TYPE, "application/json");
    }
    builder
}

async fn send(app: &Router, req: Request<Body>) -> (StatusCode, Value) {
    let response = app
        .clone()
        .oneshot(req)
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    let status = response.status();
    let bytes = axum::body::to_bytes(response.into_body(), 64 * 1024 * 1024)
        .await
        .unwrap_or_default();
    let body: Value = serde_json::from_slice(&bytes).unwrap_or_else(|_| {
        panic!(
            "{status}: body is not JSON: {}",
            String::from_utf8_lossy(&bytes)
        )
    });
    (status, body)
}

/// A GET whose answer is not JSON: status, content type, text.
async fn get_text(app: &Router, uri: &str) -> (StatusCode, String, String) {
    let req = request("GET", uri, None)
        .body(Body::empty())
        .unwrap_or_else(|e| panic!("{e}"));
    let response = app
        .clone()
        .oneshot(req)
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    let status = response.status();
    let kind = response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_string();
    let bytes = axum::body::to_bytes(response.into_body(), 1 << 20)
        .await
        .unwrap_or_default();
    (status, kind, String::from_utf8_lossy(&bytes).to_string())
}

async fn call(app: &Router, method: &str, uri: &str, body: Option<Value>) -> (StatusCode, Value) {
    let req = request(method, uri, body.clone())
        .body(body.map_or(Body::empty(), |b| Body::from(b.to_string())))
        .unwrap_or_else(|e| panic!("{e}"));
    send(app, req).await
}

fn user_tool() -> Value {
    json!({"name": "Orders", "category": "query", "http_url": "http://127.0.0.1:9/orders/{id}",
           "parameter_schema": {"type": "object", "properties": {"id": {"type": "string", "description": "order id"}}, "required": ["id"]}})
}

#[tokio::test]
async fn tool_registry_endpoints() {
    let f = fixture();
    let (status, body) = call(&f.app, "GET", "/api/v1/tools/list", None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(body["tools"]["calculator"]["name"], "计算器");
    assert_eq!(
        body["tools"]["calculator"]["parameters"]["required"],
        json!(["expression"])
    );
    let (status, body) = call(&f.app, "GET", "/api/v1/tools/list/calculator", None).await;
    assert_eq!(
        (status, body["name"].clone()),
        (StatusCode::OK, json!("计算器"))
    );
    let (status, body) = call(&f.app, "GET", "/api/v1/tools/list/nope", None).await;
    assert_eq!(
        (status, body),
        (StatusCode::NOT_FOUND, json!({"detail": "Tool not found"}))
    );

    // Health needs no token.
    let req = Request::builder()
        .uri("/api/v1/tools/health")
        .header(header::HOST, "localhost")
        .body(Body::empty())
        .unwrap_or_else(|e| panic!("{e}"));
    let (status, body) = send(&f.app, req).await;
    assert_eq!(
        (status, body["status"].clone()),
        (StatusCode::OK, json!("healthy"))
    );
    assert!(body["timestamp"].as_f64().is_some_and(|t| t > 1.7e9));
    assert!(
        body["tools"]
            .as_array()
            .is_some_and(|t| t.contains(&json!("frequency")))
    );
}

#[tokio::test]
async fn resources_crud_and_listing() {
    let f = fixture();
    let (status, body) = call(&f.app, "GET", "/api/v1/tools/resources", None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        (
            body["total"].clone(),
            body["page"].clone(),
            body["limit"].clone()
        ),
        (json!(17), json!(1), json!(100)),
        "14 built-in tools and 3 templates"
    );
    let first = &body["list"][0];
    for key in [
        "id",
        "user_id",
        "name",
        "description",
        "category",
        "icon",
        "http_method",
        "http_url",
        "http_headers",
        "http_timeout_ms",
        "parameter_schema",
        "parameter_defaults",
        "wait_for_response",
        "enabled",
        "is_system",
        "created_at",
        "updated_at",
        "side_effect",
        "policy",
    ] {
        assert!(first.get(key).is_some(), "missing {key}");
    }
    let (status, created) =
        call(&f.app, "POST", "/api/v1/tools/resources", Some(user_tool())).await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    assert_eq!(created["id"], "orders");
    let (_, listed) = call(&f.app, "GET", "/api/v1/tools/list", None).await;
    assert!(
        listed["tools"].get("orders").is_some(),
        "a created tool is offered at once"
    );
    // The shipped templates too; a tool someone adds has only its own words.
    let (_, weather) = call(&f.app, "GET", "/api/v1/tools/resources/weather", None).await;
    assert_eq!(
        weather["display"]["name"],
        json!({"zh": "天气查询", "en": "Weather"})
    );
}

#[tokio::test]
async fn invalid_resources_are_422_with_paths() {
    let f = fixture();
    let (status, body) = call(&f.app, "POST", "/api/v1/tools/resources",
        Some(json!({"name": "x", "category": "query", "http_url": "http://h/x", "http_timeout_ms": 5, "parameter_schema": {"type": "nope"}}))).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    let paths: Vec<&str> = body["errors"]
        .as_array()
        .map(|e| e.iter().filter_map(|x| x["path"].as_str()).collect())
        .unwrap_or_default();
    assert_eq!(paths, ["/http_timeout_ms", "/parameter_schema/type"]);
    assert!(
        body["errors"][1]["hint"]
            .as_str()
            .is_some_and(|h| h.contains("\"string\"") && h.contains("\"object\"")),
        "the allowed type names: {body}"
    );
    assert!(body["hint"].is_string());
    let (status, _) = call(
        &f.app,
        "GET",
        "/api/v1/tools/resources?category=weird",
        None,
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    let (status, _) = call(&f.app, "GET", "/api/v1/tools/resources?page=-1", None).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn calls_and_the_audit_log() {
    let f = fixture();
    let (status, result) = call(
        &f.app,
        "POST",
        "/api/v1/tools/call",
        Some(json!({"tool": "calculator", "arguments": "{\"expression\": \"2*21\"}"})),
    )
    .await;
    assert_eq!(
        (
            status,
            result["ok"].clone(),
            result["data"]["result"].clone()
        ),
        (StatusCode::OK, json!(true), json!(42))
    );
    let (_, result) = call(
        &f.app,
        "POST",
        "/api/v1/tools/call",
        Some(json!({"tool": "describe_dataset", "arguments": {"dataset": "../etc/passwd"}})),
    )
    .await;
    assert_eq!(
        (result["ok"].clone(), result["error_type"].clone()),
        (json!(false), json!("validation"))
    );
    let (_, result) = call(
        &f.app,
        "POST",
        "/api/v1/tools/call",
        Some(json!({"tool": "delete_everything"})),
    )
    .await;
    assert_eq!(result["error_type"], "not_found");
    // A conversation id that could not be named in a path again ("." is folded away by
    // clients) is refused before anything runs or is audited.
    for id in [".", "..", "a/b", "", &"x".repeat(65)] {
        let (status, refused) = call(
            &f.app,
            "POST",
            "/api/v1/tools/call",
            Some(json!({"tool": "calculator", "arguments": {"expression": "1+1"}, "conversation_id": id})),
        )
        .await;
        assert_eq!(
            (status, refused["errors"][0]["path"].clone()),
            (StatusCode::UNPROCESSABLE_ENTITY, json!("/conversation_id")),
            "{id:?}: {refused}"
        );
    }
    let (status, log) = call(&f.app, "GET", "/api/v1/audit", None).await;
    assert_eq!((status, log["total"].clone()), (StatusCode::OK, json!(3)));
    let (_, errors) = call(&f.app, "GET", "/api/v1/audit?outcome=error&limit=1", None).await;
    assert_eq!(
        (
            errors["total"].clone(),
            errors["list"].as_array().map(Vec::len)
        ),
        (json!(2), Some(1))
    );
    let (_, calc) = call(&f.app, "GET", "/api/v1/audit?tool=calculator", None).await;
    assert_eq!(calc["list"][0]["arguments"], json!({"expression": "2*21"}));
    let (_, future) = call(
        &f.app,
        "GET",
        "/api/v1/audit?since=2999-01-01T00:00:00Z",
        None,
    )
    .await;
    assert_eq!(future["total"], 0);
    let (status, _) = call(&f.app, "GET", "/api/v1/audit?outcome=maybe", None).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn hostile_requests_answer_4xx_json_and_write_nothing() {
    let f = fixture();
    let before = f
        .deskmate
        .list_resources(&Default::default())
        .map(|r| r.0)
        .unwrap_or_default();
    let raw = |method: &str, uri: &str| {
        Request::builder()
            .method(method)
            .uri(uri)
            .header(header::HOST, "127.0.0.1")
    };

    // No token, a wrong token.
    let (status, body) = send(
        &f.app,
        raw("GET", "/api/v1/tools/list")
            .body(Body::empty())
            .unwrap_or_else(|e| panic!("{e}")),
    )
    .await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    assert!(body["detail"].is_string());
    let wrong = raw("GET", "/api/v1/tools/list")
        .header(header::AUTHORIZATION, "Bearer nope")
        .body(Body::empty())
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(send(&f.app, wrong).await.0, StatusCode::UNAUTHORIZED);
    // Foreign Host (DNS rebinding) and cross-site Origin, even with the token.
    for host in [
        "evil.example",
        "evil.example:8765",
        "127.0.0.1.evil.example",
    ] {
        let req = Request::builder()
            .uri("/api/v1/tools/list")
            .header(header::HOST, host)
            .header(header::AUTHORIZATION, format!("Bearer {TOKEN}"))
            .body(Body::empty())
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(send(&f.app, req).await.0, StatusCode::FORBIDDEN, "{host}");
    }
    let two_hosts = request("GET", "/api/v1/tools/list", None)
        .header(header::HOST, "evil.example")
        .body(Body::empty())
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(send(&f.app, two_hosts).await.0, StatusCode::FORBIDDEN);
    for origin in ["https://evil.example", "null"] {
        let req = request("GET", "/api/v1/tools/list", None)
            .header(header::ORIGIN, origin)
            .body(Body::empty())
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(send(&f.app, req).await.0, StatusCode::FORBIDDEN, "{origin}");
    }
    let local = request("GET", "/api/v1/tools/list", None)
        .header(header::ORIGIN, "http://127.0.0.1:5173")
        .body(Body::empty())
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(send(&f.app, local).await.0, StatusCode::OK);
    // The desktop app's webview: a preflight without the token is answered, the request
    // itself carries CORS headers; another origin's preflight is refused.
    let preflight = raw("OPTIONS", "/api/v1/tools/call")
        .header(header::ORIGIN, "tauri://localhost")
        .header(header::ACCESS_CONTROL_REQUEST_METHOD, "POST")
        .header(
            header::ACCESS_CONTROL_REQUEST_HEADERS,
            "authorization,content-type",
        )
        .body(Body::empty())
        .unwrap_or_else(|e| panic!("{e}"));
    let answer = f
        .app
        .clone()
        .oneshot(preflight)
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(answer.status(), StatusCode::OK);
    let headers = answer.headers();
    assert_eq!(
        headers[header::ACCESS_CONTROL_ALLOW_ORIGIN],
        "tauri://localhost"
    );
    assert!(
        headers[header::ACCESS_CONTROL_ALLOW_METHODS]
            .to_str()
            .is_ok_and(|m| m.contains("POST"))
    );
    let from_app = request("GET", "/api/v1/tools/list", None)
        .header(header::ORIGIN, "tauri://localhost")
        .header("sec-fetch-site", "cross-site")
        .body(Body::empty())
        .unwrap_or_else(|e| panic!("{e}"));
    let answer = f
        .app
        .clone()
        .oneshot(from_app)
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(answer.status(), StatusCode::OK);
    assert_eq!(
        answer.headers()[header::ACCESS_CONTROL_ALLOW_ORIGIN],
        "tauri://localhost"
    );
    let foreign = raw("OPTIONS", "/api/v1/tools/call")
        .header(header::ORIGIN, "https://evil.example")
        .header(header::ACCESS_CONTROL_REQUEST_METHOD, "POST")
        .body(Body::empty())
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(send(&f.app, foreign).await.0, StatusCode::FORBIDDEN);
    let site = request("GET", "/api/v1/tools/list", None)
        .header("sec-fetch-site", "cross-site")
        .body(Body::empty())
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(send(&f.app, site).await.0, StatusCode::FORBIDDEN);
    // A 10 MB body, 10,000-deep JSON, invalid UTF-8, the wrong content type, a body that is not an object.
    let big = format!("{{\"name\": \"{}\"}}", "x".repeat(10 * 1024 * 1024));
    let deep = format!("{}{}", "[".repeat(10_000), "]".repeat(10_000));
    let post = |body: Vec<u8>, content_type: &str| {
        request("POST", "/api/v1/tools/resources", None)
            .header(header::CONTENT_TYPE, content_type)
            .body(Body::from(body))
            .unwrap_or_else(|e| panic!("{e}"))
    };
    assert_eq!(
        send(&f.app, post(big.into_bytes(), "application/json"))
            .await
            .0,
        StatusCode::PAYLOAD_TOO_LARGE
    );
    assert_eq!(
        send(&f.app, post(deep.clone().into_bytes(), "application/json"))
            .await
            .0,
        StatusCode::BAD_REQUEST
    );
    assert_eq!(
        send(
            &f.app,
            post(vec![b'{', 0xff, 0xfe, b'}'], "application/json")
        )
        .await
        .0,
        StatusCode::BAD_REQUEST
    );
    assert_eq!(
        send(
            &f.app,
            post(b"name=x".to_vec(), "application/x-www-form-urlencoded")
        )
        .await
        .0,
        StatusCode::UNSUPPORTED_MEDIA_TYPE
    );
    assert_eq!(
        send(&f.app, post(b"[1,2]".to_vec(), "application/json"))
            .await
            .0,
        StatusCode::UNPROCESSABLE_ENTITY
    );
    let deep_call = request("POST", "/api/v1/tools/call", None)
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from(format!(
            "{{\"tool\": \"calculator\", \"arguments\": {deep}}}"
        )))
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(send(&f.app, deep_call).await.0, StatusCode::BAD_REQUEST);
    // Path traversal in ids, unknown paths and methods.
    for uri in [
        "/api/v1/tools/resources/..%2F..%2Fetc%2Fpasswd",
        "/api/v1/tools/resources/%00",
        "/api/v1/tools/list/..%2Fresources",
        "/api/v1/nothing",
        "/etc/passwd",
    ] {
        let (status, _) = call(&f.app, "GET", uri, None).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{uri}");
    }
    let (status, _) = call(&f.app, "PATCH", "/api/v1/tools/list", None).await;
    assert_eq!(status, StatusCode::METHOD_NOT_ALLOWED);
    let (status, _) = call(
        &f.app,
        "PUT",
        "/api/v1/tools/resources/..%2Fcalculator",
        Some(json!({"enabled": false})),
    )
    .await;
    assert_eq!(status, StatusCode::NOT_FOUND);

    let after = f
        .deskmate
        .list_resources(&Default::default())
        .map(|r| r.0)
        .unwrap_or_default();
    assert_eq!(before, after, "nothing was written");
    let store = f
        .deskmate
        .store()
        .cloned()
        .unwrap_or_else(|| panic!("store"));
    assert_eq!(
        store.list_audit(&Default::default()).map(|r| r.0).ok(),
        Some(0),
        "no call ran"
    );
    let calc = store
        .resource("calculator")
        .ok()
        .flatten()
        .map(|r| r.enabled);
    assert_eq!(calc, Some(true));
}

#[tokio::test]
async fn calls_that_ask_wait_for_an_answer_through_the_api() {
    let f = fixture();
    let (status, _) = call(
        &f.app,
        "PUT",
        "/api/v1/tools/resources/calculator",
        Some(json!({"policy": "ask"})),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    for (answer, ok) in [
        (json!({"approve": true}), true),
        (json!({"approve": false}), false),
    ] {
        let app = f.app.clone();
        let waiting = tokio::spawn(async move {
            call(
                &app,
                "POST",
                "/api/v1/tools/call",
                Some(json!({"tool": "calculator", "arguments": {"expression": "1+1"}})),
            )
            .await
        });
        let mut id = None;
        for _ in 0..200 {
            let (_, prompts) = call(&f.app, "GET", "/api/v1/prompts", None).await;
            if let Some(p) = prompts["list"].as_array().and_then(|l| l.first()) {
                assert_eq!(p["kind"], "confirm");
                assert_eq!(p["call"]["tool"], "calculator");
                id = p["id"].as_str().map(str::to_string);
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(10)).await;
        }
        let id = id.unwrap_or_else(|| panic!("the prompt never appeared"));
        let (status, _) = call(
            &f.app,
            "POST",
            &format!("/api/v1/prompts/{id}/answer"),
            Some(json!({"index": 3})),
        )
        .await;
        assert_eq!(
            status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "a confirmation takes approve"
        );
        // A field of the wrong type is named by its path; the prompt still waits.
        let (status, wrong) = call(
            &f.app,
            "POST",
            &format!("/api/v1/prompts/{id}/answer"),
            Some(json!({"approve": "yes"})),
        )
        .await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{wrong}");
        assert_eq!(wrong["errors"][0]["path"], "/approve", "{wrong}");
        let (status, _) = call(
            &f.app,
            "POST",
            &format!("/api/v1/prompts/{id}/answer"),
            Some(answer),
        )
        .await;
        assert_eq!(status, StatusCode::OK);
        let (_, result) = waiting.await.unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(result["ok"], json!(ok), "{result}");
        if !ok {
            assert_eq!(result["error_type"], "denied");
        }
        let (status, _) = call(
            &f.app,
            "POST",
            &format!("/api/v1/prompts/{id}/answer"),
            Some(json!({"approve": true})),
        )
        .await;
        assert_eq!(status, StatusCode::NOT_FOUND, "answered once");
    }
}

#[tokio::test]
async fn knowledge_base_documents_import_search_and_the_tool() {
    let f = fixture();
    let (status, doc) = call(&f.app, "POST", "/api/v1/kb/documents",
        Some(json!({"kb_id": "handbook", "title": "摄像头", "body": "打开摄像头之前，请确认设备已连接。"}))).await;
    assert_eq!(status, StatusCode::CREATED, "{doc}");
    let folder = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    std::fs::write(
        folder.path().join("volume.md"),
        "# Volume\nSay 'turn the volume up' to raise it.",
    )
    .unwrap_or_else(|e| panic!("{e}"));
    std::fs::write(folder.path().join("photo.png"), [0u8, 1, 2]).unwrap_or_else(|e| panic!("{e}"));
    let (status, report) = call(
        &f.app,
        "POST",
        "/api/v1/kb/import",
        Some(json!({"kb_id": "handbook", "folder": folder.path()})),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{report}");
    assert_eq!(report["imported"][0]["title"], "Volume");
    assert_eq!(report["skipped"][0]["file"], "photo.png");
    let (_, listed) = call(&f.app, "GET", "/api/v1/kb/documents?kb_id=handbook", None).await;
    assert_eq!(listed["total"], 2);
    let (_, found) = call(
        &f.app,
        "GET",
        "/api/v1/kb/search?q=%E6%91%84%E5%83%8F%E5%A4%B4",
        None,
    )
    .await;
    assert_eq!(found["hits"][0]["title"], "摄像头");
    let (_, result) = call(&f.app, "POST", "/api/v1/tools/call",
        Some(json!({"tool": "knowledge", "arguments": {"query": "raise the volume", "kb_id": "handbook"}}))).await;
    assert_eq!(result["data"]["hits"][0]["title"], "Volume", "{result}");
    // A knowledge base the person does not have is a wrong call with the real ones as
    // options, not an empty search.
    let (_, result) = call(
        &f.app,
        "POST",
        "/api/v1/tools/call",
        Some(json!({"tool": "knowledge", "arguments": {"query": "volume", "kb_id": "notes"}})),
    )
    .await;
    assert_eq!(result["error_type"], "validation", "{result}");
    assert_eq!(result["options"], json!(["handbook"]), "{result}");
    let id = doc["id"].as_i64().unwrap_or_default();
    let (status, _) = call(
        &f.app,
        "DELETE",
        &format!("/api/v1/kb/documents/{id}"),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let (status, body) = call(&f.app, "GET", &format!("/api/v1/kb/documents/{id}"), None).await;
    assert_eq!(
        (status, body),
        (
            StatusCode::NOT_FOUND,
            json!({"detail": "Document not found"})
        )
    );
    let (status, _) = call(&f.app, "GET", "/api/v1/kb/documents/abc", None).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (status, body) = call(
        &f.app,
        "POST",
        "/api/v1/kb/documents",
        Some(json!({"kb_id": "bad id!", "title": "", "body": "x"})),
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(body["errors"].as_array().map(Vec::len), Some(2));
    let (status, _) = call(
        &f.app,
        "POST",
        "/api/v1/kb/import",
        Some(json!({"kb_id": "x", "folder": "/nonexistent/folder"})),
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
}

#[tokio::test]
async fn secrets_go_in_by_name_and_never_come_out() {
    let f = fixture();
    let (status, _) = call(
        &f.app,
        "PUT",
        "/api/v1/secrets/orders.key",
        Some(json!({"value": "sk-abc"})),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let (_, listed) = call(&f.app, "GET", "/api/v1/secrets", None).await;
    assert_eq!(listed["names"], json!(["orders.key"]));
    assert!(
        matches!(
            listed["store"]["backend"].as_str(),
            Some("keyring" | "file")
        ),
        "{listed}"
    );
    assert!(!listed.to_string().contains("sk-abc"));
    let (status, _) = call(
        &f.app,
        "PUT",
        "/api/v1/secrets/bad%20name",
        Some(json!({"value": "x"})),
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    let (status, _) = call(
        &f.app,
        "PUT",
        "/api/v1/secrets/k",
        Some(json!({"value": "a\r\nInjected: 1"})),
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    let (status, _) = call(&f.app, "DELETE", "/api/v1/secrets/orders.key", None).await;
    assert_eq!(status, StatusCode::OK);
    let (status, _) = call(&f.app, "DELETE", "/api/v1/secrets/orders.key", None).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn settings_are_listed_typed_and_applied() {
    let f = fixture();
    let (status, body) = call(&f.app, "GET", "/api/v1/settings", None).await;
    assert_eq!(status, StatusCode::OK);
    let weaker = &body["settings"][0];
    assert_eq!(weaker["key"], "sandbox.allow_weaker");
    assert_eq!(weaker["value"], false);
    assert_eq!(weaker["is_set"], false);
    assert!(
        weaker["description"]["zh"]
            .as_str()
            .is_some_and(|t| !t.is_empty())
    );

    let (status, body) = call(
        &f.app,
        "PUT",
        "/api/v1/settings/sandbox.allow_weaker",
        Some(json!({"value": "yes"})),
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    assert_eq!(body["errors"][0]["path"], "/value");
    let (status, body) = call(
        &f.app,
        "PUT",
        "/api/v1/settings/sandbox.allow_everything",
        Some(json!({"value": true})),
    )
    .await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{body}");
    assert_eq!(body["detail"], "Setting not found");
    let (status, _) = call(
        &f.app,
        "PUT",
        "/api/v1/settings/sandbox.allow_weaker",
        Some(json!({"value": true, "extra": 1})),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);

    let (status, body) = call(
        &f.app,
        "PUT",
        "/api/v1/settings/sandbox.allow_weaker",
        Some(json!({"value": true})),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["value"], true);
    let (_, body) = call(&f.app, "GET", "/api/v1/settings", None).await;
    assert_eq!(body["settings"][0]["value"], true);
    assert_eq!(body["settings"][0]["is_set"], true);
}

#[tokio::test]
async fn models_crud_keeps_keys_secret() {
    let f = fixture();
    let (status, created) = call(
        &f.app,
        "POST",
        "/api/v1/models/llm",
        Some(
            json!({"name": "Cloud", "base_url": "https://api.example.com/v1", "model": "gpt-x",
                    "api_key": "sk-very-secret", "temperature": 0.3, "is_default": true}),
        ),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    assert_eq!(created["api_key"], "••••");
    // A created model is shown as a listed one is, with what its server is doing.
    assert_eq!(
        (&created["state"], &created["state_detail"]),
        (&json!("remote"), &Value::Null)
    );
    let id = created["id"].as_str().unwrap_or_default().to_string();
    let (_, listed) = call(&f.app, "GET", "/api/v1/models/llm", None).await;
    assert_eq!(listed["total"], 1);
    assert_eq!(listed["list"][0], created);
    assert!(!listed.to_string().contains("sk-very-secret"));
    let secrets = f.deskmate.secrets().map(|s| s.names()).unwrap_or_default();
    assert_eq!(secrets, [format!("llm.{id}.api_key")]);

    let (status, updated) = call(
        &f.app,
        "PUT",
        &format!("/api/v1/models/llm/{id}"),
        Some(json!({"temperature": 1.1, "api_key": null})),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{updated}");
    assert_eq!(updated["api_key"], Value::Null);
    assert_eq!(updated["name"], "Cloud");
    assert!(
        f.deskmate
            .secrets()
            .map(|s| s.names())
            .unwrap_or_default()
            .is_empty()
    );

    let (status, errors) = call(
        &f.app,
        "POST",
        "/api/v1/models/llm",
        Some(json!({"name": "", "base_url": "file:///etc/passwd", "model": "m", "temperature": "hot"})),
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{errors}");
    assert_eq!(
        errors["errors"].as_array().map(Vec::len),
        Some(3),
        "{errors}"
    );
    let (_, listed) = call(&f.app, "GET", "/api/v1/models/llm", None).await;
    assert_eq!(listed["total"], 1, "nothing half-written");

    // An id that is used already: 409, at the field, and nothing changed.
    let (status, taken) = call(
        &f.app,
        "POST",
        "/api/v1/models/llm",
        Some(json!({"id": id, "name": "Other", "base_url": "http://127.0.0.1:1/v1", "model": "m"})),
    )
    .await;
    assert_eq!(status, StatusCode::CONFLICT, "{taken}");
    assert_eq!(taken["errors"][0]["path"], "/id", "{taken}");
    let (_, kept) = call(&f.app, "GET", &format!("/api/v1/models/llm/{id}"), None).await;
    assert_eq!(kept["name"], "Cloud");

    let (status, body) = call(&f.app, "GET", "/api/v1/models/llm/nope", None).await;
    assert_eq!(
        (status, body["detail"].clone()),
        (StatusCode::NOT_FOUND, json!("LLM Model not found"))
    );

    // An id of the longest allowed length keeps its API key (its secret's name is derived
    // to fit), for both kinds.
    for kind in ["llm", "asr"] {
        let long = "k".repeat(64);
        let (status, created) = call(
            &f.app,
            "POST",
            &format!("/api/v1/models/{kind}"),
            Some(
                json!({"id": long, "name": "Long", "base_url": "http://127.0.0.1:1/v1",
                        "model": "m", "api_key": "sk-long"}),
            ),
        )
        .await;
        assert_eq!(status, StatusCode::CREATED, "{kind}: {created}");
        assert_eq!(created["api_key"], "••••");
        let names = f.deskmate.secrets().map(|s| s.names()).unwrap_or_default();
        assert!(
            names
                .iter()
                .any(|n| n.starts_with(&format!("{kind}.kkk")) && n.len() <= 64),
            "{names:?}"
        );
    }

    let (status, asr) = call(
        &f.app,
        "POST",
        "/api/v1/models/asr",
        Some(
            json!({"id": "whisper", "name": "Whisper", "base_url": "http://127.0.0.1:9000/v1",
                    "model": "whisper-base", "language": "zh", "hotwords": ["Deskmate"]}),
        ),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{asr}");
    let (status, _) = call(
        &f.app,
        "POST",
        "/api/v1/models/asr",
        Some(json!({"id": "whisper", "name": "W", "base_url": "http://h/v1", "model": "m"})),
    )
    .await;
    assert_eq!(status, StatusCode::CONFLICT, "duplicate id");
    let (status, _) = call(&f.app, "DELETE", "/api/v1/models/asr/whisper", None).await;
    assert_eq!(status, StatusCode::OK);
    let (status, body) = call(&f.app, "DELETE", "/api/v1/models/asr/whisper", None).await;
    assert_eq!(
        (status, body["detail"].clone()),
        (StatusCode::NOT_FOUND, json!("ASR Model not found"))
    );
}

/// Fifty clients create one model id at once, each with its own name and key: one gets
/// 201, the others 409 naming `/id`, and the stored model — its key included — is the
/// winner's.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn concurrent_creates_of_one_model_id_store_the_winner_only() {
    let f = fixture();
    let answers = futures_util::future::join_all((0..50).map(|i| {
        let app = f.app.clone();
        async move {
            let body = json!({"id": "same", "name": format!("writer {i}"),
                              "base_url": "http://127.0.0.1:8080/v1", "model": "m",
                              "api_key": format!("sk-{i}")});
            (
                i,
                call(&app, "POST", "/api/v1/models/llm", Some(body)).await,
            )
        }
    }))
    .await;
    let winners: Vec<usize> = answers
        .iter()
        .filter(|(_, (status, _))| *status == StatusCode::CREATED)
        .map(|(i, _)| *i)
        .collect();
    assert_eq!(winners.len(), 1, "{answers:?}");
    for (_, (status, body)) in answers.iter().filter(|(i, _)| *i != winners[0]) {
        assert_eq!(*status, StatusCode::CONFLICT, "{body}");
        assert_eq!(body["errors"][0]["path"], "/id", "{body}");
    }
    let (_, stored) = call(&f.app, "GET", "/api/v1/models/llm/same", None).await;
    assert_eq!(stored["name"], format!("writer {}", winners[0]));
    let record = f
        .deskmate
        .model_record::<deskmate_service::models::LlmModel>(Some("same"))
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        f.deskmate.model_api_key(record.api_key_ref.as_deref()),
        Some(format!("sk-{}", winners[0]))
    );
}

/// Splits an SSE body into (event name, JSON data).
fn sse_events(body: &str) -> Vec<(String, Value)> {
    body.split("\n\n")
        .filter_map(|block| {
            let mut name = None;
            let mut data = String::new();
            for line in block.lines() {
                if let Some(n) = line.strip_prefix("event: ") {
                    name = Some(n.to_string());
                } else if let Some(d) = line.strip_prefix("data: ") {
                    data.push_str(d);
                }
            }
            Some((name?, serde_json::from_str(&data).ok()?))
        })
        .collect()
}

#[tokio::test]
async fn chat_streams_tokens_tool_calls_results_and_done() {
    let f = fixture();
    let (status, body) = call(
        &f.app,
        "POST",
        "/api/v1/chat",
        Some(json!({"message": "hi"})),
    )
    .await;
    assert_eq!(
        (status, body["detail"].clone()),
        (StatusCode::NOT_FOUND, json!("LLM Model not found"))
    );

    let server = deskmate_testkit::ScriptedServer::start(&["scripted"]).await;
    server
        .push(deskmate_testkit::Script::Json(
            deskmate_testkit::completion(None, &[("calculator", r#"{"expression": "6*7"}"#)]),
        ))
        .push(deskmate_testkit::Script::Json(
            deskmate_testkit::completion(Some("42."), &[]),
        ));
    let (status, _) = call(
        &f.app,
        "POST",
        "/api/v1/models/llm",
        Some(json!({"name": "S", "base_url": server.base_url(), "model": "scripted", "streaming": false})),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED);
    let (status, body) = call(
        &f.app,
        "POST",
        "/api/v1/chat",
        Some(json!({"message": "  "})),
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");

    let req = request("POST", "/api/v1/chat", Some(json!({})))
        // A question about the result, so the model answers after it (a bare product would
        // be answered by the result's own line).
        .body(Body::from(
            json!({"message": "what is 6*7, and is it even?"}).to_string(),
        ))
        .unwrap_or_else(|e| panic!("{e}"));
    let response = f
        .app
        .clone()
        .oneshot(req)
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(
        response.headers()[header::CONTENT_TYPE],
        "text/event-stream"
    );
    let bytes = axum::body::to_bytes(response.into_body(), 1 << 20)
        .await
        .unwrap_or_default();
    let events = sse_events(&String::from_utf8_lossy(&bytes));
    let names: Vec<&str> = events.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(
        names,
        ["tool_call", "tool_result", "token", "done"],
        "{events:?}"
    );
    assert_eq!(events[1].1["result"]["data"]["result"], json!(42));
    assert_eq!(events[1].1["status"], "done");
    assert_eq!(events[3].1["stop"], "answered");
    // The call is in the audit log, tied to the conversation, made by the model.
    let conversation = events[3].1["conversation_id"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    let (_, audit) = call(&f.app, "GET", "/api/v1/audit?tool=calculator", None).await;
    let row = &audit["list"][0];
    assert_eq!(
        (row["origin"].clone(), row["conversation_id"].clone()),
        (json!("llm"), json!(conversation))
    );

    // The conversation is listed and reads back as the chat showed it, card included.
    let (_, listed) = call(&f.app, "GET", "/api/v1/conversations", None).await;
    assert_eq!(listed["list"][0]["id"], json!(conversation), "{listed}");
    assert_eq!(listed["list"][0]["title"], "what is 6*7, and is it even?");
    let path = format!("/api/v1/conversations/{conversation}");
    let (status, detail) = call(&f.app, "GET", &path, None).await;
    assert_eq!(status, StatusCode::OK, "{detail}");
    let kinds: Vec<&str> = detail["entries"]
        .as_array()
        .map(|e| e.iter().filter_map(|e| e["kind"].as_str()).collect())
        .unwrap_or_default();
    assert_eq!(kinds, ["user", "tool", "assistant"], "{detail}");
    assert_eq!(detail["entries"][1]["status"], "done");
    assert_eq!(detail["entries"][1]["summary"], "6*7 = 42", "{detail}");
    assert_eq!(detail["entries"][1]["result"]["data"]["result"], json!(42));
    assert_eq!(detail["entries"][2]["text"], "42.");
    // Renamed (a blank title is a 422 that changes nothing), then deleted.
    let (status, body) = call(&f.app, "PATCH", &path, Some(json!({"title": "  "}))).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    let (status, body) = call(&f.app, "PATCH", &path, Some(json!({"title": "Arithmetic"}))).await;
    assert_eq!(
        (status, body["title"].clone()),
        (StatusCode::OK, json!("Arithmetic"))
    );
    let (status, _) = call(&f.app, "DELETE", &path, None).await;
    assert_eq!(status, StatusCode::OK);
    for method in ["GET", "DELETE"] {
        let (status, body) = call(&f.app, method, &path, None).await;
        assert_eq!(
            (status, body["detail"].clone()),
            (StatusCode::NOT_FOUND, json!("Conversation not found"))
        );
    }
    let (_, listed) = call(&f.app, "GET", "/api/v1/conversations", None).await;
    assert_eq!(listed["list"], json!([]));
}

/// The evaluator over HTTP: refusals before anything runs, a run answered as JSON and as
/// SSE, and the stored reports (JSON and markdown).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn eval_runs_a_suite_streams_cases_and_keeps_reports() {
    let f = fixture();
    let (status, body) = call(
        &f.app,
        "POST",
        "/api/v1/eval",
        Some(json!({"model_id": "nope"})),
    )
    .await;
    assert_eq!(
        (status, body["detail"].clone()),
        (StatusCode::NOT_FOUND, json!("LLM Model not found"))
    );

    let server = deskmate_testkit::ScriptedServer::start(&["scripted"]).await;
    let (_, model) = call(
        &f.app,
        "POST",
        "/api/v1/models/llm",
        Some(json!({"name": "S", "base_url": server.base_url(), "model": "scripted", "streaming": false})),
    )
    .await;
    let model_id = model["id"].as_str().unwrap_or_default().to_string();
    let suite = [
        json!({"id": "sum", "category": "simple", "lang": "en",
               "messages": [{"role": "user", "content": "what is 6*7?"}],
               "tools": ["calculator", "current_time"],
               "expect": [{"tool": "calculator", "args": {"expression": ["6*7"]}}]}),
        json!({"id": "thanks", "category": "irrelevance", "lang": "en",
               "messages": [{"role": "user", "content": "thanks!"}],
               "tools": ["calculator"], "expect": [], "reply_avoids": ["I can't"]}),
    ]
    .iter()
    .map(Value::to_string)
    .collect::<Vec<_>>()
    .join("\n");
    for (body, path) in [
        (
            json!({"model_id": model_id, "suite": "{not json"}),
            "/suite",
        ),
        (
            json!({"model_id": model_id, "suite": suite, "limit": 0}),
            "/limit",
        ),
        (
            json!({"model_id": model_id, "suite": suite, "max_tokens": 1}),
            "/max_tokens",
        ),
        (
            json!({"model_id": model_id, "suite": suite, "categories": ["atomicity"]}),
            "/categories",
        ),
    ] {
        let (status, answer) = call(&f.app, "POST", "/api/v1/eval", Some(body)).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{answer}");
        assert_eq!(answer["errors"][0]["path"], path, "{answer}");
    }
    let (status, answer) = call(
        &f.app,
        "POST",
        "/api/v1/eval",
        Some(json!({"model_id": model_id, "suite": suite, "categories": ["bogus"]})),
    )
    .await;
    assert!(status.is_client_error(), "{status} {answer}");

    let push_answers = || {
        server
            .push(deskmate_testkit::Script::Json(
                deskmate_testkit::completion(None, &[("calculator", r#"{"expression": "6*7"}"#)]),
            ))
            // After the result the model is asked again, and answers.
            .push(deskmate_testkit::Script::Json(
                deskmate_testkit::completion(Some("6*7 is 42."), &[]),
            ))
            .push(deskmate_testkit::Script::Json(
                deskmate_testkit::completion(Some("You're welcome."), &[]),
            ));
    };
    push_answers();
    let (status, report) = call(
        &f.app,
        "POST",
        "/api/v1/eval",
        Some(json!({"model_id": model_id, "suite": suite})),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{report}");
    assert_eq!(report["metrics"]["task_success"], json!(1.0), "{report}");
    assert_eq!(report["metrics"]["hallucination_rate"], json!(0.0));
    assert!(
        report["markdown"]
            .as_str()
            .is_some_and(|m| m.contains("| simple | 1/1 (100.0%), raw 1,"))
    );

    push_answers();
    let req = request("POST", "/api/v1/eval", Some(json!({})))
        .header(header::ACCEPT, "text/event-stream")
        .body(Body::from(
            json!({"model_id": model_id, "suite": suite}).to_string(),
        ))
        .unwrap_or_else(|e| panic!("{e}"));
    let response = f
        .app
        .clone()
        .oneshot(req)
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    let bytes = axum::body::to_bytes(response.into_body(), 1 << 22)
        .await
        .unwrap_or_default();
    let events = sse_events(&String::from_utf8_lossy(&bytes));
    let names: Vec<&str> = events.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["case", "case", "done"], "{events:?}");
    assert_eq!(
        (events[0].1["index"].clone(), events[0].1["total"].clone()),
        (json!(1), json!(2))
    );
    assert_eq!(events[1].1["result"]["id"], "thanks");

    let (_, runs) = call(&f.app, "GET", "/api/v1/eval/runs", None).await;
    assert_eq!(runs["total"], 2, "{runs}");
    assert_eq!(runs["list"][0]["kind"], "eval");
    assert_eq!(runs["list"][0]["metrics"]["task_success"], json!(1.0));
    let id = runs["list"][0]["id"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    let (_, autotests) = call(&f.app, "GET", "/api/v1/tools/autotest/runs", None).await;
    assert_eq!(autotests["total"], 0, "evaluations are not autotest runs");
    let (status, kind, text) =
        get_text(&f.app, &format!("/api/v1/eval/runs/{id}?format=markdown")).await;
    assert_eq!(status, StatusCode::OK);
    assert!(kind.starts_with("text/markdown"), "{kind}");
    assert!(text.contains("guard lift"));
    let (status, _) = call(
        &f.app,
        "GET",
        &format!("/api/v1/eval/runs/{id}?format=xml"),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    let (status, body) = call(&f.app, "GET", "/api/v1/eval/runs/nope", None).await;
    assert_eq!(
        (status, body["detail"].clone()),
        (StatusCode::NOT_FOUND, json!("Evaluation not found"))
    );
}

/// `/events` pushes new prompts and in-app messages to a window that listens.
#[tokio::test]
async fn events_stream_new_prompts_and_in_app_messages() {
    use futures_util::StreamExt;
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let prompts = PromptBroker::new(std::time::Duration::from_secs(5));
    let deskmate = Arc::new(
        Deskmate::open_with(dir.path(), prompts.clone()).unwrap_or_else(|e| panic!("{e}")),
    );
    let mut state = AppState::new(Agent::new(deskmate), TOKEN, prompts.clone());
    let messages = tokio::sync::broadcast::channel::<Value>(8).0;
    let feed = messages.clone();
    state.messages = Some(Arc::new(move || {
        futures_util::stream::unfold(feed.subscribe(), |mut rx| async move {
            rx.recv().await.ok().map(|m| (m, rx))
        })
        .boxed()
    }));
    let response = app(state)
        .oneshot(
            request("GET", "/api/v1/events", None)
                .body(Body::empty())
                .unwrap_or_else(|e| panic!("{e}")),
        )
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(response.status(), StatusCode::OK);
    let mut body = response.into_body().into_data_stream();

    let asked = {
        let prompts = prompts.clone();
        tokio::spawn(async move {
            prompts
                .choose(
                    "Tea or coffee?",
                    &["Tea".to_string(), "Coffee".to_string()],
                    std::time::Duration::from_secs(5),
                )
                .await
        })
    };
    let mut text = String::new();
    let mut events = Vec::new();
    let deadline = tokio::time::Instant::now() + std::time::Duration::from_secs(5);
    while events.len() < 2 {
        if events.len() == 1 && messages.receiver_count() > 0 {
            let _ = messages
                .send(json!({"title": "Reminder", "body": "Stand up", "urgency": "normal"}));
        }
        let chunk = tokio::time::timeout_at(deadline, body.next())
            .await
            .unwrap_or_else(|_| panic!("events so far: {events:?}"))
            .unwrap_or_else(|| panic!("the stream ended"))
            .unwrap_or_else(|e| panic!("{e}"));
        text.push_str(&String::from_utf8_lossy(&chunk));
        events = sse_events(&text);
    }
    assert_eq!(events[0].0, "prompt", "{events:?}");
    assert_eq!(events[0].1["question"], "Tea or coffee?");
    assert_eq!(events[1].0, "message", "{events:?}");
    assert_eq!(events[1].1["body"], "Stand up");
    let id = events[0].1["id"].as_str().unwrap_or_default().to_string();
    prompts
        .answer_body(
            &id,
            &deskmate_service::prompts::PromptAnswer {
                index: Some(1),
                ..Default::default()
            },
        )
        .unwrap_or_else(|e| panic!("{e:?}"));
    let chosen = asked.await.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(chosen.ok().map(|c| c.0), Some(1));
}

/// Push to talk as a front end provides it: recording in a state machine, levels pushed
/// on /events while it records.
struct FakeVoice {
    recording: std::sync::Mutex<bool>,
    levels: tokio::sync::broadcast::Sender<f32>,
}

#[async_trait::async_trait]
impl deskmate_api::voice::VoiceInput for FakeVoice {
    async fn start(&self) -> Result<(), deskmate_api::voice::VoiceError> {
        let mut recording = self.recording.lock().unwrap_or_else(|e| e.into_inner());
        if *recording {
            return Err(deskmate_api::voice::VoiceError::Conflict(
                "already recording".into(),
            ));
        }
        *recording = true;
        Ok(())
    }
    async fn stop(
        &self,
    ) -> Result<deskmate_api::voice::Transcript, deskmate_api::voice::VoiceError> {
        let mut recording = self.recording.lock().unwrap_or_else(|e| e.into_inner());
        if !*recording {
            return Err(deskmate_api::voice::VoiceError::Conflict(
                "not recording".into(),
            ));
        }
        *recording = false;
        Ok(deskmate_api::voice::Transcript {
            text: "turn the volume up".into(),
            seconds: 1.5,
        })
    }
    fn cancel(&self) {
        *self.recording.lock().unwrap_or_else(|e| e.into_inner()) = false;
    }
    fn levels(&self) -> futures_util::stream::BoxStream<'static, f32> {
        use futures_util::StreamExt;
        futures_util::stream::unfold(self.levels.subscribe(), |mut rx| async move {
            rx.recv().await.ok().map(|db| (db, rx))
        })
        .boxed()
    }
}

#[tokio::test]
async fn push_to_talk_records_streams_levels_and_answers_the_transcript() {
    use futures_util::StreamExt;
    let f = fixture();
    // Without a microphone in the app: 404 with a reason.
    let (status, body) = call(&f.app, "POST", "/api/v1/voice/start", None).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{body}");
    assert!(
        body["detail"]
            .as_str()
            .is_some_and(|d| d.contains("microphone"))
    );

    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let prompts = PromptBroker::new(std::time::Duration::from_secs(5));
    let deskmate = Arc::new(
        Deskmate::open_with(dir.path(), prompts.clone()).unwrap_or_else(|e| panic!("{e}")),
    );
    let mut state = AppState::new(Agent::new(deskmate), TOKEN, prompts);
    let voice = Arc::new(FakeVoice {
        recording: std::sync::Mutex::new(false),
        levels: tokio::sync::broadcast::channel(8).0,
    });
    state.voice = Some(voice.clone());
    let app = app(state);
    let (status, body) = call(&app, "POST", "/api/v1/voice/start", None).await;
    assert_eq!((status, body), (StatusCode::OK, json!({"recording": true})));
    let (status, body) = call(&app, "POST", "/api/v1/voice/start", None).await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");

    let response = app
        .clone()
        .oneshot(
            request("GET", "/api/v1/events", None)
                .body(Body::empty())
                .unwrap_or_else(|e| panic!("{e}")),
        )
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    let mut stream = response.into_body().into_data_stream();
    let mut text = String::new();
    let deadline = tokio::time::Instant::now() + std::time::Duration::from_secs(5);
    let events = loop {
        if voice.levels.receiver_count() > 0 {
            let _ = voice.levels.send(-12.5);
        }
        let chunk = tokio::time::timeout_at(deadline, stream.next())
            .await
            .unwrap_or_else(|_| panic!("no level event: {text}"))
            .unwrap_or_else(|| panic!("the stream ended"))
            .unwrap_or_else(|e| panic!("{e}"));
        text.push_str(&String::from_utf8_lossy(&chunk));
        let events = sse_events(&text);
        if !events.is_empty() {
            break events;
        }
    };
    assert_eq!(events[0], ("level".to_string(), json!({"db": -12.5})));

    let (status, body) = call(&app, "POST", "/api/v1/voice/stop", None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(body["text"], "turn the volume up");
    let (status, _) = call(&app, "POST", "/api/v1/voice/stop", None).await;
    assert_eq!(status, StatusCode::CONFLICT);
    let (status, body) = call(&app, "POST", "/api/v1/voice/cancel", None).await;
    assert_eq!(
        (status, body),
        (StatusCode::OK, json!({"recording": false}))
    );
}

#[tokio::test]
async fn autotest_streams_checks_keeps_history_and_sends_test_messages() {
    let f = fixture();
    let (status, body) = call(
        &f.app,
        "POST",
        "/api/v1/tools/test-message?llm_model_id=nope",
        None,
    )
    .await;
    assert_eq!(
        (status, body["detail"].clone()),
        (StatusCode::NOT_FOUND, json!("LLM Model not found"))
    );

    let server = deskmate_testkit::ScriptedServer::start(&["scripted"]).await;
    server.push(deskmate_testkit::Script::Json(
        deskmate_testkit::completion(Some("Hello from the model."), &[]),
    ));
    let (_, model) = call(
        &f.app,
        "POST",
        "/api/v1/models/llm",
        Some(json!({"id": "m1", "name": "S", "base_url": server.base_url(), "model": "scripted"})),
    )
    .await;
    assert_eq!(model["id"], "m1");
    let (status, reply) = call(
        &f.app,
        "POST",
        "/api/v1/tools/test-message?llm_model_id=m1",
        None,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{reply}");
    assert_eq!(reply["success"], true);
    assert_eq!(reply["reply"], "Hello from the model.");
    assert_eq!(reply["usage"]["total_tokens"], 15);
    assert_eq!(
        server.requests()[0]["messages"][0]["content"],
        "Hello, this is a test message."
    );

    // A full run without models, streamed: `plan` with the number of checks, one
    // `check` per check, then `done`.
    let req = request("POST", "/api/v1/tools/autotest?test_asr=false", None)
        .header(header::ACCEPT, "text/event-stream")
        .body(Body::empty())
        .unwrap_or_else(|e| panic!("{e}"));
    let response = f
        .app
        .clone()
        .oneshot(req)
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        response.headers()[header::CONTENT_TYPE],
        "text/event-stream"
    );
    let bytes = axum::body::to_bytes(response.into_body(), 1 << 20)
        .await
        .unwrap_or_default();
    let events = sse_events(&String::from_utf8_lossy(&bytes));
    let (first, events) = events.split_first().unwrap_or_else(|| panic!("no events"));
    assert_eq!(first.0, "plan");
    let (last, checks) = events.split_last().unwrap_or_else(|| panic!("no events"));
    assert_eq!(last.0, "done");
    assert!(checks.iter().all(|(name, _)| name == "check"));
    assert_eq!(first.1["total"], json!(checks.len()));
    assert_eq!(last.1["tests"].as_array().map(Vec::len), Some(checks.len()));
    assert_eq!(last.1["summary"]["total"], json!(checks.len()));
    // The LLM checks ran against the default model (m1, whose server has no more
    // answers: it fails with a message), the tools all pass.
    assert_eq!(last.1["tests"][0]["name"], "Model Existence");

    let (_, runs) = call(&f.app, "GET", "/api/v1/tools/autotest/runs", None).await;
    assert_eq!(runs["total"], 1);
    let id = runs["list"][0]["id"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    let (status, stored) = call(
        &f.app,
        "GET",
        &format!("/api/v1/tools/autotest/runs/{id}"),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(stored, last.1);
    assert_eq!(
        stored["scope"],
        json!({"llm": true, "asr": false, "tools": true, "devices": false})
    );
    assert_eq!(runs["list"][0]["scope"], stored["scope"]);
    let (status, _) = call(&f.app, "GET", "/api/v1/tools/autotest/runs/nope", None).await;
    assert_eq!(status, StatusCode::NOT_FOUND);

    // The same run as JUnit XML, for CI systems.
    let (status, kind, xml) = get_text(
        &f.app,
        &format!("/api/v1/tools/autotest/runs/{id}?format=junit"),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert!(kind.starts_with("application/xml"), "{kind}");
    assert!(xml.starts_with("<?xml"), "{xml}");
    assert_eq!(xml.matches("<testcase ").count(), checks.len(), "{xml}");
    assert!(
        xml.contains(&format!("failures=\"{}\"", stored["summary"]["failed"])),
        "{xml}"
    );
    assert!(
        xml.contains("<testcase classname=\"deskmate.tools\" name=\"calculator\""),
        "{xml}"
    );
    let (status, body) = call(
        &f.app,
        "GET",
        &format!("/api/v1/tools/autotest/runs/{id}?format=pdf"),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");

    // A second run with the same scope, after a tool broke: the comparison names it.
    let (_, broken) = call(
        &f.app,
        "POST",
        "/api/v1/tools/resources",
        Some(json!({"name": "Gone", "description": "Looks up an order by its id.", "category": "query", "http_url": "http://127.0.0.1:9/orders/{id}",
                    "parameter_schema": {"type": "object", "additionalProperties": false, "required": ["id"],
                                         "properties": {"id": {"type": "string", "description": "order id"}}}})),
    )
    .await;
    let broken_id = broken["id"].as_str().unwrap_or_default().to_string();
    assert!(!broken_id.is_empty(), "{broken}");
    let (status, second) = call(
        &f.app,
        "POST",
        "/api/v1/tools/autotest?test_asr=false",
        None,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{second}");
    let second_id = second["id"].as_str().unwrap_or_default();
    let (status, diff) = call(
        &f.app,
        "GET",
        &format!("/api/v1/tools/autotest/runs/{second_id}/compare"),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{diff}");
    assert_eq!(diff["previous_id"], json!(id));
    let change = diff["changes"]
        .as_array()
        .and_then(|c| c.iter().find(|c| c["name"] == format!("Tool: {broken_id}")))
        .cloned()
        .unwrap_or_default();
    assert_eq!(change["before"], Value::Null, "{diff}");
    assert_eq!(change["after"], "failed", "{diff}");
    assert!(
        change["message"]
            .as_str()
            .is_some_and(|m| m.contains("cannot connect")),
        "{diff}"
    );
    let (status, first_diff) = call(
        &f.app,
        "GET",
        &format!("/api/v1/tools/autotest/runs/{id}/compare"),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        first_diff["previous_id"],
        Value::Null,
        "the first run has nothing before it"
    );
    let (status, _) = call(
        &f.app,
        "GET",
        "/api/v1/tools/autotest/runs/nope/compare",
        None,
    )
    .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn the_openapi_document_matches_what_is_served() {
    let f = fixture();
    let (status, doc) = call(&f.app, "GET", "/api/v1/openapi.json", None).await;
    assert_eq!(status, StatusCode::OK);
    assert!(doc["openapi"].as_str().is_some_and(|v| v.starts_with("3.")));
    let paths = doc["paths"].as_object().cloned().unwrap_or_default();
    let mut operations = 0;
    for (path, item) in &paths {
        for (method, operation) in item.as_object().cloned().unwrap_or_default() {
            operations += 1;
            // Fill path parameters; a served route answers anything but the router's own
            // fallbacks ("Not found" for unknown paths, "method not allowed").
            let uri = path
                .replace("{tool_id}", "calculator")
                .replace("{id}", "999")
                .replace("{name}", "n")
                .replace("{tool}", "t");
            if uri == "/api/v1/events" {
                // A stream that never ends: its headers are the answer.
                let response = f
                    .app
                    .clone()
                    .oneshot(
                        request("GET", &uri, None)
                            .body(Body::empty())
                            .unwrap_or_else(|e| panic!("{e}")),
                    )
                    .await
                    .unwrap_or_else(|e| panic!("{e}"));
                assert_eq!(
                    response.headers()[header::CONTENT_TYPE],
                    "text/event-stream"
                );
                continue;
            }
            let body = matches!(method.as_str(), "post" | "put").then(|| json!({}));
            let (status, answer) = call(&f.app, &method.to_uppercase(), &uri, body).await;
            let detail = answer["detail"].as_str().unwrap_or_default();
            assert!(
                detail != "Not found" && detail != "method not allowed for this path",
                "{method} {path}: {status} {answer}"
            );
            // The status is one the document declares for the operation, and an error
            // answer has the declared error body.
            let declared = &operation["responses"][status.as_str()];
            assert!(
                declared.is_object(),
                "{method} {path} answered an undeclared {status}: {answer}"
            );
            if status.is_client_error() || status.is_server_error() {
                assert!(!detail.is_empty(), "{method} {path}: {status} {answer}");
                assert_eq!(
                    declared["content"]["application/json"]["schema"]["$ref"],
                    json!("#/components/schemas/ErrorBody"),
                    "{method} {path}: {status}"
                );
            }
        }
    }
    // Every reference resolves: a schema a parameter or body names is in the document.
    let text = doc.to_string();
    for name in text.split("#/components/schemas/").skip(1) {
        let name: String = name.chars().take_while(|c| *c != '"').collect();
        assert!(
            doc["components"]["schemas"][&name].is_object(),
            "#/components/schemas/{name} is referenced but not in the document"
        );
    }
    // Every operation has its own operationId (clients generate a function from it).
    let mut ids: Vec<&str> = paths
        .values()
        .flat_map(|item| item.as_object().into_iter().flat_map(|o| o.values()))
        .filter_map(|operation| operation["operationId"].as_str())
        .collect();
    let count = ids.len();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!((ids.len(), count), (operations, operations), "{ids:?}");
    // Every operation that takes a token says it answers 401 without one; every one
    // with a body, 422 with the problems.
    for (path, item) in &paths {
        for (method, operation) in item.as_object().cloned().unwrap_or_default() {
            let public = operation["security"] == json!([{}]);
            assert_eq!(
                operation["responses"]["401"].is_object(),
                !public,
                "{method} {path}"
            );
            if operation["requestBody"].is_object() {
                assert!(operation["responses"]["422"].is_object(), "{method} {path}");
            }
        }
    }
    assert!(doc["components"]["schemas"]["ErrorBody"].is_object());
    assert!(doc["components"]["schemas"]["FieldError"].is_object());
    assert_eq!(operations, 73, "every route of app() is documented");
    assert_eq!(
        doc["paths"]["/api/v1/tools/health"]["get"]["security"],
        json!([{}]),
        "health needs no token"
    );
    assert!(doc["components"]["securitySchemes"]["bearer"].is_object());
}

/// A path that exists answered with another method: 405 with the methods it takes in
/// `Allow` (it was a 400 without them).
#[tokio::test]
async fn a_wrong_method_is_405_with_allow() {
    let f = fixture();
    for (method, uri, allowed) in [
        ("PATCH", "/api/v1/tools/list", "GET"),
        ("DELETE", "/api/v1/tools/call", "POST"),
        ("POST", "/api/v1/tools/resources/calculator", "DELETE"),
    ] {
        let req = request(method, uri, None)
            .body(Body::empty())
            .unwrap_or_else(|e| panic!("{e}"));
        let response = f
            .app
            .clone()
            .oneshot(req)
            .await
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            response.status(),
            StatusCode::METHOD_NOT_ALLOWED,
            "{method} {uri}"
        );
        let allow = response
            .headers()
            .get(header::ALLOW)
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
            .to_string();
        assert!(allow.contains(allowed), "{method} {uri}: Allow: {allow:?}");
        assert!(!allow.contains(method), "{method} {uri}: Allow: {allow:?}");
    }
}

/// Schedules over the API: made, listed, read, turned off and on, given a new time and a
/// new action, deleted; every bad body is a 422 at its field and changes nothing.
#[tokio::test]
async fn schedules_are_made_changed_and_deleted_and_bad_input_changes_nothing() {
    let f = fixture();
    let (status, made) = call(
        &f.app,
        "POST",
        "/api/v1/schedules?origin=gui",
        Some(json!({"when": "every weekday at 9", "message": "stand up", "time_zone": "Europe/Berlin"})),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{made}");
    assert_eq!(made["created_by"], "gui");
    assert_eq!(made["rule_words"]["en"], "weekdays at 09:00");
    let id = made["id"].as_str().unwrap_or_default().to_string();
    let uri = format!("/api/v1/schedules/{id}");

    // Hostile and wrong bodies: 422 at the field, the schedule as it was.
    // A 1 MB message: under the 1 MiB body limit, far over the field's.
    let big = "x".repeat(1_000_000);
    for (body, path) in [
        (json!({"when": "every blue moon"}), "/when"),
        (json!({"when": "2020-01-01 09:00"}), "/when"),
        (json!({"message": big}), "/message"),
        (json!({"message": "a", "prompt": "b"}), "/prompt"),
        (json!({"tool": "no_such_tool", "arguments": {}}), "/tool"),
        (
            json!({"tool": "calculator", "arguments": {"expression": 7}}),
            "/arguments",
        ),
        (json!({"time_zone": "Mars/Olympus"}), "/time_zone"),
    ] {
        let (status, answer) = call(&f.app, "PUT", &uri, Some(body.clone())).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{path}: {answer}");
        let paths: Vec<&str> = answer["errors"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|e| e["path"].as_str())
            .collect();
        assert!(paths.contains(&path), "{path}: {answer}");
    }
    let (status, answer) = call(&f.app, "PUT", &uri, Some(json!({"colour": "red"}))).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{answer}");
    let (_, unchanged) = call(&f.app, "GET", &uri, None).await;
    assert_eq!(unchanged, made);

    // Off and on again.
    let (status, off) = call(&f.app, "PUT", &uri, Some(json!({"enabled": false}))).await;
    assert_eq!(
        (status, off["enabled"].clone()),
        (StatusCode::OK, json!(false))
    );
    let (_, on) = call(&f.app, "PUT", &uri, Some(json!({"enabled": true}))).await;
    assert_eq!(on["enabled"], true);

    // A new time keeps the action; a new action keeps the time.
    let (status, moved) = call(
        &f.app,
        "PUT",
        &uri,
        Some(json!({"when": "every day at 18:30"})),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{moved}");
    assert_eq!(moved["rule_words"]["en"], "every day at 18:30");
    assert_eq!(moved["action"], made["action"]);
    assert_eq!(
        (moved["id"].clone(), moved["created_by"].clone()),
        (json!(id), json!("gui"))
    );
    assert!(
        moved["next_at_local"]
            .as_str()
            .is_some_and(|t| t.contains("T18:30:00")),
        "{moved}"
    );
    let (status, acted) = call(
        &f.app,
        "PUT",
        &uri,
        Some(json!({"tool": "calculator", "arguments": {"expression": "6*7"}})),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{acted}");
    assert_eq!(acted["action"]["tool"], "calculator");
    assert_eq!(acted["action"].get("message"), None);
    assert_eq!(acted["rule_words"], moved["rule_words"]);
    assert_eq!(acted["next_at"], moved["next_at"]);

    let (status, _) = call(
        &f.app,
        "PUT",
        "/api/v1/schedules/sch-nope",
        Some(json!({"when": "in 5 minutes"})),
    )
    .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (status, page) = call(&f.app, "GET", "/api/v1/schedules?limit=10", None).await;
    assert_eq!((status, page["total"].clone()), (StatusCode::OK, json!(1)));
    let (status, runs) = call(&f.app, "GET", &format!("{uri}/runs"), None).await;
    assert_eq!((status, runs["total"].clone()), (StatusCode::OK, json!(0)));
    let (status, _) = call(&f.app, "DELETE", &uri, None).await;
    assert_eq!(status, StatusCode::OK);
    let (status, _) = call(&f.app, "GET", &uri, None).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (status, _) = call(&f.app, "GET", &format!("{uri}/runs"), None).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

/// The prompt of the call of `tool` now waiting, answered with `answer`; the call's
/// result.
/// The first question waiting for the person, polled for up to 3 s; `None` when none
/// came.
async fn first_prompt(f: &Fixture) -> Option<Value> {
    for _ in 0..300 {
        let (_, prompts) = call(&f.app, "GET", "/api/v1/prompts", None).await;
        if let Some(p) = prompts["list"].as_array().and_then(|l| l.first()) {
            return Some(p.clone());
        }
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    None
}

/// One chat turn over the API: its events, read to the end.
async fn chat_turn(app: &Router, body: Value) -> Vec<(String, Value)> {
    let req = request("POST", "/api/v1/chat", Some(json!({})))
        .body(Body::from(body.to_string()))
        .unwrap_or_else(|e| panic!("{e}"));
    let response = app
        .clone()
        .oneshot(req)
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(response.status(), StatusCode::OK);
    let bytes = axum::body::to_bytes(response.into_body(), 1 << 20)
        .await
        .unwrap_or_default();
    sse_events(&String::from_utf8_lossy(&bytes))
}

/// "Allow in this conversation", answered to the chat's question: the tool's next call in
/// that conversation runs without asking; in another conversation it asks again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn allow_in_this_conversation_reaches_that_conversation_only() {
    let f = fixture();
    let (status, _) = call(
        &f.app,
        "PUT",
        "/api/v1/tools/resources/calculator",
        Some(json!({"policy": "ask"})),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let server = deskmate_testkit::ScriptedServer::start(&["scripted"]).await;
    let (status, _) = call(
        &f.app,
        "POST",
        "/api/v1/models/llm",
        Some(json!({"name": "S", "base_url": server.base_url(), "model": "scripted", "streaming": false})),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED);
    // Each turn: the model calls the calculator, then says the result.
    let script = |expression: &str, said: &str| {
        server
            .push(deskmate_testkit::Script::Json(
                deskmate_testkit::completion(
                    None,
                    &[("calculator", &json!({"expression": expression}).to_string())],
                ),
            ))
            .push(deskmate_testkit::Script::Json(
                deskmate_testkit::completion(Some(said), &[]),
            ));
    };
    let result_of = |events: &[(String, Value)]| {
        events
            .iter()
            .find(|(name, _)| name == "tool_result")
            .map(|(_, e)| e["status"].clone())
            .unwrap_or_else(|| panic!("no result: {events:?}"))
    };

    // Asked in the first conversation; "in this conversation" is offered and chosen.
    script("2+2", "4.");
    let app = f.app.clone();
    let first =
        tokio::spawn(async move { chat_turn(&app, json!({"message": "what is 2+2?"})).await });
    let prompt = first_prompt(&f)
        .await
        .unwrap_or_else(|| panic!("no question"));
    assert_eq!(
        prompt["call"]["grants"],
        json!(["once", "conversation", "always"]),
        "{prompt}"
    );
    let id = prompt["id"].as_str().unwrap_or_default();
    let (status, _) = call(
        &f.app,
        "POST",
        &format!("/api/v1/prompts/{id}/answer"),
        Some(json!({"approve": true, "remember": "conversation"})),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let events = first.await.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(result_of(&events), "done");
    let conversation = events
        .last()
        .map(|(_, done)| done["conversation_id"].clone())
        .unwrap_or_default();
    let (_, listed) = call(&f.app, "GET", "/api/v1/approvals?tool=calculator", None).await;
    assert_eq!(
        (
            listed["list"][0]["scope"].clone(),
            listed["list"][0]["conversation_id"].clone()
        ),
        (json!("conversation"), conversation.clone()),
        "{listed}"
    );

    // The same conversation: no question.
    script("3+3", "6.");
    let events = tokio::time::timeout(
        std::time::Duration::from_secs(10),
        chat_turn(
            &f.app,
            json!({"message": "and 3+3?", "conversation_id": conversation}),
        ),
    )
    .await
    .unwrap_or_else(|_| panic!("the conversation's second call asked"));
    assert_eq!(result_of(&events), "done", "{events:?}");

    // Another conversation: asked again; a no there refuses the call.
    script("4+4", "8.");
    let app = f.app.clone();
    let other =
        tokio::spawn(async move { chat_turn(&app, json!({"message": "what is 4+4?"})).await });
    let prompt = first_prompt(&f)
        .await
        .unwrap_or_else(|| panic!("another conversation did not ask"));
    let id = prompt["id"].as_str().unwrap_or_default();
    let (status, _) = call(
        &f.app,
        "POST",
        &format!("/api/v1/prompts/{id}/answer"),
        Some(json!({"approve": false})),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let events = other.await.unwrap_or_else(|e| panic!("{e}"));
    assert_ne!(result_of(&events), "done", "{events:?}");
}

async fn asked_and_answered(
    f: &Fixture,
    tool: &str,
    arguments: Value,
    answer: Value,
) -> (Value, Value) {
    let app = f.app.clone();
    let body = json!({"tool": tool, "arguments": arguments});
    let waiting =
        tokio::spawn(async move { call(&app, "POST", "/api/v1/tools/call", Some(body)).await });
    let prompt = first_prompt(f)
        .await
        .unwrap_or_else(|| panic!("{tool} did not ask"));
    let id = prompt["id"].as_str().unwrap_or_default().to_string();
    let (status, answered) = call(
        &f.app,
        "POST",
        &format!("/api/v1/prompts/{id}/answer"),
        Some(answer),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{answered}");
    let (_, result) = waiting.await.unwrap_or_else(|e| panic!("{e}"));
    (prompt, result)
}

/// "Always allow" stops a tool's calls from asking until it is taken back; an edited
/// tool definition asks again; a yes reaches only as far as the question offers.
#[tokio::test]
async fn always_allow_holds_until_revoked_or_the_tool_changes() {
    let f = fixture();
    let (status, _) = call(&f.app, "POST", "/api/v1/tools/resources", Some(user_tool())).await;
    assert_eq!(status, StatusCode::CREATED);
    for tool in ["calculator", "orders"] {
        let (status, _) = call(
            &f.app,
            "PUT",
            &format!("/api/v1/tools/resources/{tool}"),
            Some(json!({"policy": "ask"})),
        )
        .await;
        assert_eq!(status, StatusCode::OK);
    }
    let sum = json!({"expression": "1+1"});
    let runs_without_asking = |tool: &'static str, arguments: Value| {
        let app = f.app.clone();
        async move {
            let body = json!({"tool": tool, "arguments": arguments});
            let (_, result) = tokio::time::timeout(
                std::time::Duration::from_secs(3),
                call(&app, "POST", "/api/v1/tools/call", Some(body)),
            )
            .await
            .unwrap_or_else(|_| panic!("{tool} asked"));
            assert_ne!(result["error_type"], "denied", "{result}");
            result
        }
    };

    // Asked: a call outside a conversation offers once and always, not the conversation.
    let app = f.app.clone();
    let (prompt, result) = {
        let f2 = &f;
        let first = tokio::spawn(async move {
            call(
                &app,
                "POST",
                "/api/v1/tools/call",
                Some(json!({"tool": "calculator", "arguments": {"expression": "2+2"}})),
            )
            .await
        });
        let prompt = first_prompt(f2).await.unwrap_or_default();
        let id = prompt["id"].as_str().unwrap_or_default().to_string();
        let (status, refused) = call(
            &f.app,
            "POST",
            &format!("/api/v1/prompts/{id}/answer"),
            Some(json!({"approve": true, "remember": "conversation"})),
        )
        .await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{refused}");
        let (status, _) = call(
            &f.app,
            "POST",
            &format!("/api/v1/prompts/{id}/answer"),
            Some(json!({"approve": true, "remember": "always"})),
        )
        .await;
        assert_eq!(status, StatusCode::OK);
        let (_, result) = first.await.unwrap_or_else(|e| panic!("{e}"));
        (prompt, result)
    };
    assert_eq!(
        prompt["call"]["grants"],
        json!(["once", "always"]),
        "{prompt}"
    );
    assert_eq!(prompt["call"]["side_effect"], "read", "{prompt}");
    assert_eq!(result["ok"], true, "{result}");
    let result = runs_without_asking("calculator", sum.clone()).await;
    assert_eq!(result["ok"], true, "{result}");

    let (_, listed) = call(&f.app, "GET", "/api/v1/approvals?tool=calculator", None).await;
    let approvals = listed["list"].as_array().cloned().unwrap_or_default();
    assert_eq!(approvals.len(), 1, "{listed}");
    assert_eq!(approvals[0]["scope"], "always");
    let id = approvals[0]["id"].as_str().unwrap_or_default().to_string();

    // Taken back: it asks again (and "once" keeps nothing).
    let (status, _) = call(&f.app, "DELETE", &format!("/api/v1/approvals/{id}"), None).await;
    assert_eq!(status, StatusCode::OK);
    let (status, _) = call(&f.app, "DELETE", &format!("/api/v1/approvals/{id}"), None).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (_, result) =
        asked_and_answered(&f, "calculator", sum.clone(), json!({"approve": true})).await;
    assert_eq!(result["ok"], true, "{result}");
    let (_, listed) = call(&f.app, "GET", "/api/v1/approvals", None).await;
    assert_eq!(listed["list"], json!([]), "{listed}");

    // An HTTP tool allowed always, then edited: the new definition asks again.
    let id_arg = json!({"id": "7"});
    asked_and_answered(
        &f,
        "orders",
        id_arg.clone(),
        json!({"approve": true, "remember": "always"}),
    )
    .await;
    runs_without_asking("orders", id_arg.clone()).await;
    let (status, _) = call(
        &f.app,
        "PUT",
        "/api/v1/tools/resources/orders",
        Some(json!({"description": "Looks up an order and its lines"})),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let (prompt, _) = asked_and_answered(&f, "orders", id_arg, json!({"approve": false})).await;
    assert_eq!(prompt["call"]["tool"], "orders");
    let (status, _) = call(&f.app, "GET", "/api/v1/approvals?tool=", None).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
}

/// `text` percent-encoded for a query string (every byte but ASCII letters and digits).
fn query_text(text: &str) -> String {
    text.bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() {
                char::from(b).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect()
}

/// Searching all conversations (`GET /conversations?q=`): a Chinese word inside a longer
/// phrase, English in any case, paging with the total, a hit's `seq` naming the entry of
/// the conversation; the listing without `q` as it was; hostile queries answered 4xx at
/// `q` or searched as text, never a 500.
#[tokio::test]
async fn conversations_are_searched_in_both_languages_and_hostile_queries_are_4xx_or_text() {
    let f = fixture();
    let store = f
        .deskmate
        .store()
        .cloned()
        .unwrap_or_else(|| panic!("no store"));
    for (id, title, messages) in [
        (
            "zh",
            "提醒",
            vec![
                json!({"role": "user", "content": "今天下午记得喝水和休息"}),
                json!({"role": "assistant", "content": "好的，下午三点提醒你喝水。"}),
            ],
        ),
        (
            "en",
            "Water",
            vec![json!({"role": "user", "content": "Remind me to DRINK water"})],
        ),
    ] {
        store
            .create_conversation(id, title, None)
            .unwrap_or_else(|e| panic!("{e}"));
        store
            .append_messages(id, None, &messages)
            .unwrap_or_else(|e| panic!("{e}"));
    }
    let search = |q: &str| format!("/api/v1/conversations?q={}", query_text(q));

    // Without `q`: the listing as before (no paging fields).
    let (status, listed) = call(&f.app, "GET", "/api/v1/conversations", None).await;
    assert_eq!(status, StatusCode::OK, "{listed}");
    assert_eq!(
        listed,
        json!({"list": listed["list"].clone()}),
        "only `list`"
    );
    assert_eq!(listed["list"][0]["id"], "en");
    let (_, second) = call(&f.app, "GET", "/api/v1/conversations?limit=1&page=2", None).await;
    assert_eq!(second["list"][0]["id"], "zh", "{second}");

    let (status, hits) = call(&f.app, "GET", &search("喝水"), None).await;
    assert_eq!(status, StatusCode::OK, "{hits}");
    assert_eq!(
        (
            hits["total"].clone(),
            hits["page"].clone(),
            hits["limit"].clone()
        ),
        (json!(2), json!(1), json!(50))
    );
    let first = &hits["list"][0];
    assert_eq!(
        (
            first["conversation_id"].clone(),
            first["title"].clone(),
            first["kind"].clone(),
            first["seq"].clone()
        ),
        (json!("zh"), json!("提醒"), json!("assistant"), json!(2))
    );
    assert_eq!(hits["list"][1]["snippet"], "今天下午记得喝水和休息");
    // The seq is the entry's in the conversation as the chat shows it.
    let (_, detail) = call(&f.app, "GET", "/api/v1/conversations/zh", None).await;
    assert_eq!(
        detail["entries"][0]["seq"], hits["list"][1]["seq"],
        "{detail}"
    );
    assert_eq!(detail["entries"][0]["kind"], "user");

    let (_, hits) = call(&f.app, "GET", &search("  下午记得 "), None).await;
    assert_eq!(hits["total"], json!(1), "{hits}");
    let (_, hits) = call(&f.app, "GET", &search("drink WATER"), None).await;
    assert_eq!(
        (hits["total"].clone(), hits["list"][0]["kind"].clone()),
        (json!(1), json!("user")),
        "{hits}"
    );
    let (_, hits) = call(&f.app, "GET", &search("water"), None).await;
    assert_eq!(hits["total"], json!(2), "the title and the message: {hits}");
    let (_, page) = call(
        &f.app,
        "GET",
        &format!("{}&limit=1&page=2", search("water")),
        None,
    )
    .await;
    assert_eq!(
        (
            page["total"].clone(),
            page["list"][0]["kind"].clone(),
            page["list"].as_array().map(Vec::len)
        ),
        (json!(2), json!("user"), Some(1)),
        "{page}"
    );

    // Renamed: found by its new words only; deleted: not found at all.
    let (status, _) = call(
        &f.app,
        "PATCH",
        "/api/v1/conversations/en",
        Some(json!({"title": "Hydration plan"})),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let (_, hits) = call(&f.app, "GET", &search("hydration"), None).await;
    assert_eq!(hits["list"][0]["kind"], "title", "{hits}");
    let (status, _) = call(&f.app, "DELETE", "/api/v1/conversations/zh", None).await;
    assert_eq!(status, StatusCode::OK);
    let (_, hits) = call(&f.app, "GET", &search("喝水"), None).await;
    assert_eq!(hits["total"], json!(0), "{hits}");

    // Empty, blank and far too long (10,000 characters; Chinese ones as long as a URI
    // may be): 422 at `q`.
    let long = "x".repeat(10_000);
    let long_zh = "喝".repeat(7_000);
    for q in ["", "   ", "\t\n", &long, &long_zh, &"a".repeat(201)] {
        let (status, body) = call(&f.app, "GET", &search(q), None).await;
        assert_eq!(
            (status, body["errors"][0]["path"].clone()),
            (StatusCode::UNPROCESSABLE_ENTITY, json!("/q")),
            "{q:?}: {body}"
        );
    }
    // FTS syntax is text: answered, never a 500.
    for q in [
        "\"",
        "\"water",
        "*",
        "wat*",
        "NEAR(",
        "NEAR(water plan)",
        "-plan",
        "title:water",
        ":",
        "a OR b",
        "'); DROP TABLE conversations; --",
        "%",
        "_",
        "\u{0}",
    ] {
        let (status, body) = call(&f.app, "GET", &search(q), None).await;
        assert_eq!(status, StatusCode::OK, "{q:?}: {body}");
        assert!(body["total"].is_u64(), "{q:?}: {body}");
    }
    let (_, hits) = call(&f.app, "GET", &search("plan\""), None).await;
    assert_eq!(hits["total"], json!(0), "{hits}");
    // Bytes that are not UTF-8 are read as U+FFFD (the query string is decoded lossily)
    // and searched as text; a wrong page or limit, an unknown or repeated parameter: 400.
    for (uri, expected) in [
        ("/api/v1/conversations?q=%FF%FE", StatusCode::OK),
        ("/api/v1/conversations?q=%C3", StatusCode::OK),
        (
            "/api/v1/conversations?q=water&page=0",
            StatusCode::BAD_REQUEST,
        ),
        (
            "/api/v1/conversations?q=water&limit=1001",
            StatusCode::BAD_REQUEST,
        ),
        (
            "/api/v1/conversations?q=water&page=x",
            StatusCode::BAD_REQUEST,
        ),
        ("/api/v1/conversations?query=water", StatusCode::BAD_REQUEST),
        (
            "/api/v1/conversations?q=water&q=plan",
            StatusCode::BAD_REQUEST,
        ),
    ] {
        let (status, body) = call(&f.app, "GET", uri, None).await;
        assert_eq!(status, expected, "{uri}: {body}");
        if status == StatusCode::OK {
            assert_eq!(body["total"], json!(0), "{uri}: {body}");
        } else {
            assert!(body["detail"].is_string(), "{uri}: {body}");
        }
    }
    // The store is intact.
    let (_, listed) = call(&f.app, "GET", "/api/v1/conversations", None).await;
    assert_eq!(listed["list"][0]["title"], "Hydration plan", "{listed}");
}

/// Branches over the API: a message of the conversation shows its branch; an unknown
/// conversation or message, a message of another conversation, a wrong body, and a chat
/// turn that is both an edit and a regeneration are 4xx, and nothing changes.
#[tokio::test]
async fn branches_are_shown_by_seq_and_wrong_ones_change_nothing() {
    use deskmate_store::conversation_tree::After;
    let f = fixture();
    let store = f.deskmate.store().unwrap_or_else(|| panic!("no store"));
    let say = |role: &str, text: &str| json!({"role": role, "content": text});
    for id in ["c1", "c2"] {
        store
            .create_conversation(id, id, None)
            .unwrap_or_else(|e| panic!("{e}"));
    }
    let first = store
        .append_after(
            "c1",
            None,
            After::Head,
            &[say("user", "2+2?"), say("assistant", "4")],
        )
        .ok()
        .flatten()
        .unwrap_or_default();
    let edited = store
        .append_after(
            "c1",
            None,
            After::Message(None),
            &[say("user", "3+3?"), say("assistant", "6")],
        )
        .ok()
        .flatten()
        .unwrap_or_default();
    let other = store
        .append_after("c2", None, After::Head, &[say("user", "hi")])
        .ok()
        .flatten()
        .unwrap_or_default();

    let (status, shown) = call(&f.app, "GET", "/api/v1/conversations/c1", None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(shown["entries"][0]["text"], "3+3?");
    assert_eq!(
        shown["branches"],
        json!([{"seq": edited[0], "index": 2, "count": 2, "siblings": [first[0], edited[0]]}])
    );
    let (status, back) = call(
        &f.app,
        "PUT",
        "/api/v1/conversations/c1/branch",
        Some(json!({"seq": first[0]})),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{back}");
    assert_eq!(back["entries"][1]["text"], "4");
    assert_eq!(back["branches"][0]["index"], 1);

    for (uri, body, expected) in [
        (
            "/api/v1/conversations/c1/branch",
            json!({"seq": other[0]}),
            StatusCode::NOT_FOUND,
        ),
        (
            "/api/v1/conversations/c1/branch",
            json!({"seq": 999_999}),
            StatusCode::NOT_FOUND,
        ),
        (
            "/api/v1/conversations/nope/branch",
            json!({"seq": first[0]}),
            StatusCode::NOT_FOUND,
        ),
    ] {
        let (status, answer) = call(&f.app, "PUT", uri, Some(body)).await;
        assert_eq!(status, expected, "{uri}: {answer}");
    }
    for body in [json!({"seq": "x"}), json!({}), json!({"seq": 1, "more": 2})] {
        let (status, answer) =
            call(&f.app, "PUT", "/api/v1/conversations/c1/branch", Some(body)).await;
        assert!(status.is_client_error(), "{answer}");
    }
    let (status, answer) = call(
        &f.app,
        "POST",
        "/api/v1/chat",
        Some(json!({"message": "x", "conversation_id": "c1", "edit_of": first[0], "regenerate": first[0]})),
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{answer}");
    let (_, after) = call(&f.app, "GET", "/api/v1/conversations/c1", None).await;
    assert_eq!(after, back, "nothing changed");
}

/// Export to Markdown and JSON (the branch shown or all of them) and import back; every
/// bad import (a cycle, a parent that is not there, a duplicate seq, a wrong format, a
/// message without a role, 10,001 messages, 10 MB, bytes that are not UTF-8) is a 4xx and
/// stores nothing; 10,000 entries export.
#[tokio::test]
async fn conversations_export_and_import_whole_or_not_at_all() {
    use deskmate_store::conversation_tree::After;
    let f = fixture();
    let store = f.deskmate.store().unwrap_or_else(|| panic!("no store"));
    store
        .create_conversation("c1", "Sums", None)
        .unwrap_or_else(|e| panic!("{e}"));
    let first = store
        .append_after(
            "c1",
            None,
            After::Head,
            &[
                json!({"role": "user", "content": "17% of 2340?"}),
                json!({"role": "assistant", "content": null, "tool_calls": [{"id": "k1", "type": "function",
                    "function": {"name": "calculator", "arguments": "{\"expression\":\"17% of 2340\"}"}}]}),
                json!({"role": "tool", "tool_call_id": "k1", "content": "{\"result\":397.8}",
                    "deskmate": {"status": "done", "summary": "17% of 2340 = 397.8"}}),
                json!({"role": "assistant", "content": "It is 397.8."}),
            ],
        )
        .ok()
        .flatten()
        .unwrap_or_default();
    store
        .append_after(
            "c1",
            None,
            After::Message(None),
            &[json!({"role": "user", "content": "and 18%?"})],
        )
        .unwrap_or_else(|e| panic!("{e}"));
    store
        .show_branch("c1", first[0])
        .unwrap_or_else(|e| panic!("{e}"));

    let (status, kind, markdown) = get_text(&f.app, "/api/v1/conversations/c1/export").await;
    assert_eq!(status, StatusCode::OK);
    assert!(kind.starts_with("text/markdown"), "{kind}");
    for line in [
        "# Sums",
        "**You:** 17% of 2340?",
        "> 🔧 Calculator · done · 17% of 2340 = 397.8",
        "\"expression\": \"17% of 2340\"",
        "**Deskmate:** It is 397.8.",
    ] {
        assert!(markdown.contains(line), "{line} in {markdown}");
    }
    assert!(!markdown.contains("and 18%?"), "the branch shown only");
    let (_, _, both) = get_text(
        &f.app,
        "/api/v1/conversations/c1/export?branches=all&lang=zh-CN",
    )
    .await;
    assert!(
        both.contains("## 分支 2") && both.contains("**你:** and 18%?"),
        "{both}"
    );

    let (status, exported) = call(
        &f.app,
        "GET",
        "/api/v1/conversations/c1/export?format=json&branches=all",
        None,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{exported}");
    assert_eq!(exported["messages"].as_array().map(Vec::len), Some(5));
    let (status, imported) = call(
        &f.app,
        "POST",
        "/api/v1/conversations/import",
        Some(exported.clone()),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{imported}");
    let (_, original) = call(&f.app, "GET", "/api/v1/conversations/c1", None).await;
    let texts = |detail: &Value| -> Vec<Value> {
        detail["entries"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|e| json!([e["kind"], e["text"], e["summary"]]))
            .collect()
    };
    assert_eq!(texts(&imported), texts(&original));
    assert_eq!(imported["branches"][0]["count"], 2, "{imported}");
    assert_ne!(imported["id"], "c1");

    let count = |f: &Fixture| {
        f.agent
            .list_conversations(1000, 0)
            .map(|l| l.len())
            .unwrap_or(0)
    };
    let before = count(&f);
    let with = |path: &str, value: Value| {
        let mut body = exported.clone();
        let pointer: Vec<&str> = path.trim_start_matches('/').split('/').collect();
        let mut at = &mut body;
        for key in &pointer[..pointer.len() - 1] {
            at = match key.parse::<usize>() {
                Ok(i) => &mut at[i],
                Err(_) => &mut at[*key],
            };
        }
        at[pointer[pointer.len() - 1]] = value;
        body
    };
    let last = exported["messages"][4]["seq"].clone();
    let many: Vec<Value> = (0..10_001)
        .map(|i| json!({"seq": i, "parent": null, "message": {"role": "user", "content": "x"}}))
        .collect();
    for (body, path) in [
        (
            with("/messages/0/parent", last.clone()),
            "/messages/0/parent",
        ),
        (
            with("/messages/1/seq", exported["messages"][0]["seq"].clone()),
            "/messages/1/seq",
        ),
        (with("/head", json!(987_654)), "/head"),
        (with("/format", json!("other")), "/format"),
        (
            with("/messages/2/message", json!({"content": "no role"})),
            "/messages/2/message/role",
        ),
        (with("/title", json!("")), "/title"),
        (with("/messages", json!(many)), "/messages"),
    ] {
        let (status, answer) =
            call(&f.app, "POST", "/api/v1/conversations/import", Some(body)).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{path}: {answer}");
        assert!(
            answer["errors"]
                .as_array()
                .into_iter()
                .flatten()
                .any(|e| e["path"] == path),
            "{path}: {answer}"
        );
    }
    let huge = json!({"format": "deskmate.conversation", "version": 1, "title": "big",
                      "messages": [{"seq": 1, "parent": null, "message": {"role": "user", "content": "x".repeat(10 << 20)}}]});
    let (status, _) = call(&f.app, "POST", "/api/v1/conversations/import", Some(huge)).await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE);
    let raw = request("POST", "/api/v1/conversations/import", Some(json!({})))
        .body(Body::from(vec![b'{', 0xff, 0xfe, b'}']))
        .unwrap_or_else(|e| panic!("{e}"));
    let (status, _) = send(&f.app, raw).await;
    assert!(status.is_client_error(), "{status}");
    assert_eq!(count(&f), before, "nothing half-stored");
    let (status, _) = call(&f.app, "GET", "/api/v1/conversations/nope/export", None).await;
    assert_eq!(status, StatusCode::NOT_FOUND);

    // 10,000 entries export.
    store
        .create_conversation("long", "Long", None)
        .unwrap_or_else(|e| panic!("{e}"));
    let turns: Vec<Value> = (0..10_000)
        .map(|i| json!({"role": if i % 2 == 0 { "user" } else { "assistant" }, "content": format!("line {i}")}))
        .collect();
    store
        .append_messages("long", None, &turns)
        .unwrap_or_else(|e| panic!("{e}"));
    let (status, long) = call(
        &f.app,
        "GET",
        "/api/v1/conversations/long/export?format=json",
        None,
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(long["messages"].as_array().map(Vec::len), Some(10_000));
    let (status, _, text) = get_text(&f.app, "/api/v1/conversations/long/export").await;
    assert_eq!(status, StatusCode::OK);
    assert!(text.contains("line 9999"));
}
