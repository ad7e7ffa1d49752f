//! The body of the HTTP-tool endpoints as API clients see them. It declares each field's
//! type and the values the server takes, but not the rules between fields a JSON Schema
//! cannot state (every `{name}` placeholder of `http_url` is a required or defaulted
//! parameter of `parameter_schema`, the defaults satisfy that schema, a `{secret:NAME}`
//! names a stored secret): `resources.rs` checks those and answers 422 with the field.
//! A field sent as `null` is a field not sent, but for `policy` and `display` (`null`
//! removes them). The category, side effect, policy and method are read as text and
//! checked by `resources::validate`, which says what is wrong with a value in words (and
//! takes a built-in tool's own values sent back unchanged, such as category `system`).

use serde::Deserialize;
use serde_json::Value;
use utoipa::ToSchema;

/// What a call does to the world: reads, changes something, or changes it for good.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum SideEffect {
    Read,
    Write,
    Irreversible,
}

/// When a call is confirmed: `always` runs, `ask` asks the person, `never` refuses.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Policy {
    Always,
    Ask,
    Never,
}

/// Which kind of tool a person may add: an HTTP query (the built-in tools are `system`).
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Category {
    Query,
}

/// An HTTP tool to add or change. On a change the fields left out keep their values; on
/// create `name`, `category` and `http_url` are needed.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ResourceInput {
    /// The function name the model sees: 1–64 of a-z, 0-9 and `_`; made from the name
    /// when left out. It cannot change.
    pub id: Option<String>,
    /// A short display name, at most 100 characters.
    pub name: Option<String>,
    /// What the tool does, for the model and the person.
    pub description: Option<String>,
    #[schema(value_type = Option<Category>)]
    pub category: Option<String>,
    /// An icon name for the GUI.
    pub icon: Option<String>,
    /// GET, POST, PUT, PATCH or DELETE (any case; default GET).
    pub http_method: Option<String>,
    /// An absolute http(s) URL; `{name}` placeholders in its path are filled from the
    /// arguments.
    pub http_url: Option<String>,
    /// Header names and one-line values; `{secret:NAME}` inserts a stored secret.
    #[schema(value_type = Option<std::collections::HashMap<String, String>>)]
    pub http_headers: Option<serde_json::Map<String, Value>>,
    /// 100 to 120000 (default 10000).
    pub http_timeout_ms: Option<i64>,
    /// A JSON Schema 2020-12 object schema of the arguments.
    #[schema(value_type = Option<Object>)]
    pub parameter_schema: Option<Value>,
    /// Values for arguments the model leaves out.
    #[schema(value_type = Option<Object>)]
    pub parameter_defaults: Option<Value>,
    /// Only `false`: an HTTP tool always waits for its service's answer.
    pub wait_for_response: Option<bool>,
    /// Whether the model is offered the tool.
    pub enabled: Option<bool>,
    /// Default: read for GET, write otherwise.
    #[schema(value_type = Option<SideEffect>)]
    pub side_effect: Option<String>,
    /// `null` for the side effect's default; left out, the stored policy is kept.
    #[schema(value_type = Option<Policy>)]
    #[serde(default, deserialize_with = "crate::body::present")]
    pub policy: Option<Option<String>>,
    /// The name and description a person reads, in both languages (`null`: none). Left
    /// out on a change that renames the tool or rewrites its description, it is removed:
    /// the new words stand.
    #[schema(value_type = Option<DisplayInput>)]
    #[serde(default, deserialize_with = "crate::body::present")]
    pub display: Option<Option<DisplayInput>>,
    /// Read-only, sent back from a GET: ignored.
    #[schema(value_type = Option<Value>)]
    pub user_id: Option<Value>,
    /// Read-only: ignored.
    #[schema(value_type = Option<Value>)]
    pub is_system: Option<Value>,
    /// Read-only: ignored.
    #[schema(value_type = Option<Value>)]
    pub created_at: Option<Value>,
    /// Read-only: ignored.
    #[schema(value_type = Option<Value>)]
    pub updated_at: Option<Value>,
    /// What was wrong with the body's shape (unknown fields, wrong types), reported by
    /// `resources::validate` together with the values' problems.
    #[serde(skip)]
    pub shape_problems: Vec<crate::error::FieldError>,
}

/// A tool's name and one-sentence description for people, in zh-CN and en.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct DisplayInput {
    pub name: DisplayName,
    pub description: DisplayText,
}

/// A display name in both languages: 1–100 characters each, not only spaces.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct DisplayName {
    #[schema(min_length = 1, max_length = 100, pattern = "\\S")]
    pub zh: String,
    #[schema(min_length = 1, max_length = 100, pattern = "\\S")]
    pub en: String,
}

/// A sentence in both languages, at most 1,000 characters each.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct DisplayText {
    #[schema(max_length = 1000)]
    pub zh: String,
    #[schema(max_length = 1000)]
    pub en: String,
}
