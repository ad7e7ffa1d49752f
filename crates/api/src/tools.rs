//! The API contract's tool registry endpoints, and `POST /api/v1/tools/call`.

use axum::Json;
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use deskmate_service::CallRequest;
use serde::Deserialize;
use serde_json::{Map, Value, json};

use crate::AppState;
use crate::error::AppError;
use crate::extract::ApiJson;

fn entry(spec: &deskmate_core::ToolSpec) -> Value {
    json!({"name": spec.name.zh, "description": spec.description, "parameters": spec.parameters_for_model()})
}

/// `GET /api/v1/tools/list`: every enabled tool a model can call, built-in and user-defined.
#[utoipa::path(get, path = "/api/v1/tools/list", tag = "tools", responses((status = 200, description = "Every enabled tool: {\"tools\": {id: {name, description, parameters}}}", body = Object)))]
pub async fn list(State(state): State<AppState>) -> Response {
    let body = state.tool_list(|registry| {
        let tools: Map<String, Value> = registry
            .specs()
            .filter(|s| registry.guard().is_enabled(&s.id))
            .map(|s| (s.id.clone(), entry(s)))
            .collect();
        Bytes::from(json!({ "tools": tools }).to_string())
    });
    ([(header::CONTENT_TYPE, "application/json")], body).into_response()
}

/// `GET /api/v1/tools/list/{tool_id}`.
#[utoipa::path(get, path = "/api/v1/tools/list/{tool_id}", tag = "tools", params(("tool_id" = String, Path, description = "Tool id")), responses((status = 200, description = "{name, description, parameters}", body = Object), (status = 404, description = "{\"detail\": \"Tool not found\"}", body = Object)))]
pub async fn detail(
    State(state): State<AppState>,
    Path(tool_id): Path<String>,
) -> Result<Json<Value>, AppError> {
    let registry = state.deskmate.registry();
    let guard = registry.guard();
    guard
        .spec(&tool_id)
        .filter(|s| guard.is_enabled(&s.id))
        .map(|s| Json(entry(s)))
        .ok_or_else(|| AppError::NotFound("Tool not found".into()))
}

/// `GET /api/v1/tools/health` (no token needed).
#[utoipa::path(get, path = "/api/v1/tools/health", tag = "tools", security(()), responses((status = 200, description = "{status, timestamp, tools}", body = Object)))]
pub async fn health(State(state): State<AppState>) -> Json<Value> {
    let timestamp = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs_f64())
        .unwrap_or_default();
    let tools: Vec<String> = state
        .deskmate
        .enabled_specs()
        .into_iter()
        .map(|s| s.id)
        .collect();
    Json(json!({"status": "healthy", "timestamp": timestamp, "tools": tools}))
}

/// The body of `POST /api/v1/tools/call`.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CallBody {
    /// Tool id (close spellings resolve).
    pub tool: String,
    /// Object or JSON text.
    #[serde(default)]
    pub arguments: Value,
    /// Run at most once per key: 1 to 200 characters.
    #[schema(min_length = 1, max_length = 200)]
    pub idem_key: Option<String>,
    /// The conversation the call belongs to.
    pub conversation_id: Option<String>,
    /// Who asks, for the audit log: `gui` when the person tries a tool in the app's
    /// window, `api` (the default) for any other client.
    #[serde(default)]
    pub origin: CallOrigin,
}

/// Who made a call over the API, as the audit log records it.
#[derive(Debug, Default, Clone, Copy, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum CallOrigin {
    /// A program using the API.
    #[default]
    Api,
    /// The person, trying a tool in the app's window.
    Gui,
}

/// `POST /api/v1/tools/call`: one call through the guard; the answer is the result shape
/// (HTTP 200 whether or not the call succeeded — `ok` says which).
#[utoipa::path(post, path = "/api/v1/tools/call", tag = "tools", request_body = CallBody, responses((status = 200, description = "The result shape: ok, data, error, error_type, hint, options, repairs, truncated, call_id, duration_ms", body = Object)))]
pub async fn call(
    State(state): State<AppState>,
    ApiJson(body): ApiJson<CallBody>,
) -> Result<Json<Value>, AppError> {
    if body
        .idem_key
        .as_ref()
        .is_some_and(|k| k.is_empty() || k.chars().count() > 200)
    {
        return Err(AppError::BadRequest(
            "idem_key must have 1 to 200 characters".into(),
        ));
    }
    let request = CallRequest {
        tool: body.tool,
        arguments: body.arguments,
        idem_key: body.idem_key,
        conversation_id: body.conversation_id,
        turn_id: None,
        origin: match body.origin {
            CallOrigin::Api => "api",
            CallOrigin::Gui => "gui",
        }
        .into(),
        client: None,
        repairs: Vec::new(),
        confirmed: false,
        cancel: None,
    };
    let result = state.deskmate.call(request).await;
    serde_json::to_value(result)
        .map(Json)
        .map_err(|e| AppError::Internal(e.to_string()))
}
