//! The API contract's tool registry endpoints, and `POST /api/v1/tools/call`.

use axum::Json;
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use deskmate_core::ToolResult;
use deskmate_service::CallRequest;
use deskmate_service::error::FieldError;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::AppState;
use crate::error::AppError;
use crate::extract::ApiJson;

/// A tool as a model is offered it.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct ToolEntry {
    /// Its display name (Chinese).
    pub name: String,
    /// What it does and when to use it, as the model reads it.
    pub description: String,
    /// The JSON Schema of its arguments.
    pub parameters: Value,
}

fn entry(spec: &deskmate_core::ToolSpec) -> ToolEntry {
    ToolEntry {
        name: spec.name.zh.clone(),
        description: spec.description.clone(),
        parameters: spec.parameters_for_model(),
    }
}

/// Every enabled tool, by id.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct ToolList {
    /// The tools by id, in the registry's order.
    #[schema(value_type = std::collections::HashMap<String, ToolEntry>)]
    pub tools: Map<String, Value>,
}

/// Whether the API answers, and the ids of the tools it can call.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct Health {
    /// Always `healthy`.
    pub status: String,
    /// Unix seconds.
    pub timestamp: f64,
    /// The ids of the enabled tools.
    pub tools: Vec<String>,
}

/// `GET /api/v1/tools/list`: every enabled tool a model can call, built-in and user-defined.
#[utoipa::path(get, path = "/api/v1/tools/list", tag = "tools", responses((status = 200, description = "Every enabled tool: {\"tools\": {id: {name, description, parameters}}}", body = ToolList)))]
pub async fn list(State(state): State<AppState>) -> Response {
    let body = state.tool_list(|registry| {
        let tools: Map<String, Value> = registry
            .specs()
            .filter(|s| registry.guard().is_enabled(&s.id))
            .map(|s| {
                (
                    s.id.clone(),
                    serde_json::to_value(entry(s)).unwrap_or_default(),
                )
            })
            .collect();
        Bytes::from(serde_json::to_vec(&ToolList { tools }).unwrap_or_default())
    });
    ([(header::CONTENT_TYPE, "application/json")], body).into_response()
}

/// `GET /api/v1/tools/list/{tool_id}`.
#[utoipa::path(get, path = "/api/v1/tools/list/{tool_id}", tag = "tools", params(("tool_id" = String, Path, description = "Tool id")), responses((status = 200, description = "The tool as a model is offered it", body = ToolEntry), (status = 404, description = "{\"detail\": \"Tool not found\"}")))]
pub async fn detail(
    State(state): State<AppState>,
    Path(tool_id): Path<String>,
) -> Result<Json<ToolEntry>, AppError> {
    let registry = state.deskmate.registry();
    let guard = registry.guard();
    guard
        .spec(&tool_id)
        .filter(|s| guard.is_enabled(&s.id))
        .map(|s| Json(entry(s)))
        .ok_or_else(|| AppError::NotFound("Tool not found".into()))
}

/// `GET /api/v1/tools/health` (no token needed).
#[utoipa::path(get, path = "/api/v1/tools/health", tag = "tools", security(()), responses((status = 200, description = "The API answers", body = Health)))]
pub async fn health(State(state): State<AppState>) -> Json<Health> {
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
    Json(Health {
        status: "healthy".into(),
        timestamp,
        tools,
    })
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
    /// The conversation the call belongs to: an id as Deskmate makes them (letters,
    /// digits, `-`, `_`; at most 64), so it can be named in a path again.
    #[schema(pattern = "^[A-Za-z0-9_-]{1,64}$")]
    pub conversation_id: Option<String>,
    /// Who asks, for the audit log: `gui` when the person tries a tool in the app's
    /// window, `api` (the default) for any other client.
    #[serde(default)]
    pub origin: CallOrigin,
}

/// Whether `id` is shaped like the ids Deskmate gives conversations (the pattern
/// `CallBody.conversation_id` declares).
fn is_conversation_id(id: &str) -> bool {
    (1..=64).contains(&id.len())
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
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
#[utoipa::path(post, path = "/api/v1/tools/call", tag = "tools", request_body = CallBody, responses((status = 200, description = "The result shape: ok, data, error, error_type, hint, options, repairs, truncated, call_id, duration_ms", body = ToolResult)))]
pub async fn call(
    State(state): State<AppState>,
    ApiJson(body): ApiJson<CallBody>,
) -> Result<Json<ToolResult>, AppError> {
    if body
        .idem_key
        .as_ref()
        .is_some_and(|k| k.is_empty() || k.chars().count() > 200)
    {
        return Err(AppError::BadRequest(
            "idem_key must have 1 to 200 characters".into(),
        ));
    }
    if let Some(id) = &body.conversation_id
        && !is_conversation_id(id)
    {
        return Err(AppError::Invalid(vec![FieldError {
            path: "/conversation_id".into(),
            message: "a conversation id has 1 to 64 letters, digits, '-' or '_'".into(),
            hint: "send the id a conversation was given, or leave it out".into(),
        }]));
    }
    let request = CallRequest {
        tool: body.tool,
        arguments: body.arguments,
        idem_key: body.idem_key,
        conversation_id: body.conversation_id,
        turn_id: None,
        before: Default::default(),
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
    Ok(Json(state.deskmate.call(request).await))
}
