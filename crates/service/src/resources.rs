//! Tool resources as the API and GUI edit them: validation of create/update input with a
//! field path and a hint per problem, and the tool a user resource becomes.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

use deskmate_core::mask::is_secret_name;
use deskmate_core::schema_check::schema_problems;
use deskmate_core::spec::is_valid_tool_id;
use deskmate_core::validate::CompiledSchema;
use deskmate_core::{Category, Localized, SideEffect, ToolDisplay, ToolSpec};
use deskmate_llm::envelope::NO_TOOL;
use deskmate_store::resources::ToolResource;
use deskmate_tools::Tool;
use deskmate_tools::http_tool::{
    HttpTool, HttpToolConfig, Method, SecretStore, check_template, placeholders,
};
use serde_json::{Value, json};

use crate::body::Body;
use crate::error::FieldError;
use crate::resource_input::{DisplayInput, ResourceInput};

/// Largest HTTP answer a user tool reads.
pub const MAX_RESPONSE_BYTES: usize = 2 * 1024 * 1024;

/// A `{name}` in the URL that a call could leave empty: not a parameter of the schema, or
/// an optional one with no default. Caught at save time, not after the person confirmed
/// a call that then cannot be sent.
fn unfilled_placeholders(url: &str, schema: &Value, defaults: &Value) -> Vec<FieldError> {
    let properties = schema.get("properties").and_then(Value::as_object);
    let required: Vec<&str> = schema
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let mut errors = Vec::new();
    for name in placeholders(url) {
        let Some(property) = properties.and_then(|p| p.get(&name)) else {
            let known: Vec<&str> = properties
                .map(|p| p.keys().map(String::as_str).collect())
                .unwrap_or_default();
            errors.push(field(
                "/http_url",
                format!("the URL's placeholder {{{name}}} is not a parameter of the schema"),
                if known.is_empty() {
                    format!("add '{name}' to parameter_schema's properties and to required, or remove {{{name}}} from the URL")
                } else {
                    format!(
                        "use one of the parameters ({}) or add '{name}' to parameter_schema's properties and to required",
                        known.join(", ")
                    )
                },
            ));
            continue;
        };
        let defaulted = property.get("default").is_some() || defaults.get(&name).is_some();
        if !required.contains(&name.as_str()) && !defaulted {
            errors.push(field(
                "/http_url",
                format!("the URL's placeholder {{{name}}} could be left empty: '{name}' is optional and has no default"),
                format!("add '{name}' to parameter_schema's required, or give it a default"),
            ));
        }
    }
    errors
}

fn field(path: &str, message: impl Into<String>, hint: impl Into<String>) -> FieldError {
    FieldError {
        path: path.to_string(),
        message: message.into(),
        hint: hint.into(),
    }
}

const WRITABLE: [&str; 16] = [
    "id",
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
    "side_effect",
    "policy",
    "display",
];
/// Fields a client may send back unchanged (from a GET) but not set.
const READ_ONLY: [&str; 4] = ["user_id", "is_system", "created_at", "updated_at"];
const METHODS: [&str; 5] = ["GET", "POST", "PUT", "PATCH", "DELETE"];
/// How a tool's display text is sent.
const DISPLAY_SHAPE: &str = "send {\"name\": {\"zh\": …, \"en\": …}, \"description\": {\"zh\": …, \"en\": …}}, or null for none";

impl Body for ResourceInput {
    /// The shape: an object of the declared fields (those read from a GET are taken and
    /// ignored), each of its JSON type. What the values must be is checked by
    /// [`validate`], which knows the stored tool.
    fn check(input: &Value) -> Vec<FieldError> {
        let Some(body) = input.as_object() else {
            return vec![field(
                "",
                "the body must be a JSON object",
                "send the resource's fields as one object",
            )];
        };
        let mut errors = Vec::new();
        for key in body.keys() {
            if !WRITABLE.contains(&key.as_str()) && !READ_ONLY.contains(&key.as_str()) {
                errors.push(field(
                    &format!("/{key}"),
                    format!("unknown field '{key}'"),
                    format!("fields are: {}", WRITABLE.join(", ")),
                ));
            }
        }
        for (key, want) in [
            ("id", "string"),
            ("name", "string"),
            ("description", "string"),
            ("category", "string"),
            ("icon", "string"),
            ("http_method", "string"),
            ("http_url", "string"),
            ("side_effect", "string"),
            ("policy", "string"),
            ("wait_for_response", "boolean"),
            ("enabled", "boolean"),
            ("http_timeout_ms", "integer"),
            ("http_headers", "object"),
            ("parameter_schema", "object"),
            ("parameter_defaults", "object"),
        ] {
            let Some(v) = body.get(key).filter(|v| !v.is_null()) else {
                continue;
            };
            let ok = match want {
                "string" => v.is_string(),
                "boolean" => v.is_boolean(),
                "integer" => v.is_i64(),
                _ => v.is_object(),
            };
            if !ok {
                errors.push(field(
                    &format!("/{key}"),
                    format!("'{key}' must be a {want}"),
                    format!("send {key} as a JSON {want}"),
                ));
            }
        }
        if let Some(display) = body.get("display").filter(|v| !v.is_null())
            && let Err(e) = serde_json::from_value::<DisplayInput>(display.clone())
        {
            errors.push(field(
                "/display",
                format!("display is not of the expected shape: {e}"),
                DISPLAY_SHAPE,
            ));
        }
        errors
    }

    /// Reads past the shape's problems (a field of the wrong type or unknown is left out)
    /// so that [`validate`] reports them together with the values' problems.
    fn read(body: &Value) -> Result<Self, Vec<FieldError>> {
        let problems = Self::check(body);
        let Some(object) = body.as_object() else {
            return Err(problems);
        };
        let sound: serde_json::Map<String, Value> = object
            .iter()
            .filter(|(key, _)| !problems.iter().any(|p| p.path == format!("/{key}")))
            .map(|(key, value)| (key.clone(), value.clone()))
            .collect();
        let mut input: Self = crate::body::typed(&Value::Object(sound))?;
        input.shape_problems = problems;
        Ok(input)
    }
}

/// Validates create (`existing` = None) or update input and returns the resource to store.
/// `taken` says whether an id is already used (for create).
pub fn validate(
    mut input: ResourceInput,
    existing: Option<&ToolResource>,
    taken: &dyn Fn(&str) -> bool,
) -> Result<ToolResource, Vec<FieldError>> {
    if let Some(existing) = existing.filter(|r| r.is_system) {
        return system_update(input, existing);
    }
    let mut errors = std::mem::take(&mut input.shape_problems);
    // `none` is what a model's list of the request's parts names for a part no tool does:
    // a tool with that id could not be told from it, so it is never an id.
    let taken = |id: &str| id == NO_TOOL || taken(id);
    let trimmed = |text: &Option<String>| text.as_deref().map(str::trim).map(str::to_string);
    let sent_name = trimmed(&input.name);
    let sent_description = input.description.clone();

    // Identity.
    let id = match (existing, trimmed(&input.id)) {
        (Some(r), Some(id)) if id != r.id => {
            errors.push(field(
                "/id",
                "the id cannot change",
                format!("leave id out or send '{}'", r.id),
            ));
            r.id.clone()
        }
        (Some(r), _) => r.id.clone(),
        (None, Some(id)) => {
            if !is_valid_tool_id(&id) {
                errors.push(field(
                    "/id",
                    format!("'{id}' is not a valid tool id"),
                    "use 1-64 of a-z, 0-9 and _: the id is the function name the model sees",
                ));
            } else if id == NO_TOOL {
                errors.push(field(
                    "/id",
                    format!("the id '{id}' is reserved: it means \"no tool\" to the model"),
                    "choose another id, or leave it out to have one generated",
                ));
            } else if taken(&id) {
                errors.push(field(
                    "/id",
                    format!("the id '{id}' is taken"),
                    "choose another id, or leave it out to have one generated",
                ));
            }
            id
        }
        (None, None) => generate_id(sent_name.as_deref().unwrap_or_default(), &taken),
    };

    // A field sent is taken; one left out keeps the stored value (or the default).
    let name = sent_name
        .clone()
        .or_else(|| existing.map(|r| r.name.clone()))
        .unwrap_or_default();
    if name.is_empty() {
        errors.push(field(
            "/name",
            "name is required",
            "give the tool a short display name",
        ));
    } else if name.chars().count() > 100 {
        errors.push(field(
            "/name",
            "name is longer than 100 characters",
            "shorten the name",
        ));
    }
    let category = input
        .category
        .or_else(|| existing.map(|r| r.category.clone()))
        .unwrap_or_default();
    match category.as_str() {
        "query" => {}
        "system" => errors.push(field(
            "/category",
            "system tools are built in",
            "create a 'query' tool with an http_url instead",
        )),
        "" => errors.push(field("/category", "category is required", "use 'query'")),
        other => errors.push(field(
            "/category",
            format!("unknown category '{other}'"),
            "use 'query' (or 'system' for built-in tools)",
        )),
    }
    let method = input
        .http_method
        .or_else(|| existing.map(|r| r.http_method.clone()))
        .map_or_else(|| "GET".into(), |m| m.to_uppercase());
    if !METHODS.contains(&method.as_str()) {
        errors.push(field(
            "/http_method",
            format!("unsupported method '{method}'"),
            format!("use one of {}", METHODS.join(", ")),
        ));
    }
    let url = trimmed(&input.http_url).or_else(|| existing.and_then(|r| r.http_url.clone()));
    match &url {
        None => errors.push(field(
            "/http_url",
            "a query tool needs an http_url",
            "give an absolute http(s) URL; {name} placeholders may appear in its path",
        )),
        Some(u) => {
            if let Err(e) = check_template(u) {
                errors.push(field("/http_url", e.message, e.hint.unwrap_or_default()));
            }
        }
    }
    let headers = input
        .http_headers
        .map(Value::Object)
        .or_else(|| existing.map(|r| r.http_headers.clone()))
        .unwrap_or_else(|| json!({}));
    if let Some(map) = headers.as_object() {
        for (name, value) in map {
            let path = format!("/http_headers/{name}");
            if name.is_empty()
                || !name
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b))
            {
                errors.push(field(
                    &path,
                    format!("'{name}' is not a valid header name"),
                    "use letters, digits and dashes",
                ));
            }
            match value.as_str() {
                Some(v) if v.contains(['\r', '\n']) => errors.push(field(
                    &path,
                    "header values cannot contain line breaks",
                    "remove the line break",
                )),
                Some(_) => {}
                None => errors.push(field(
                    &path,
                    "header values must be strings",
                    "send the value as a string; reference secrets as {secret:NAME}",
                )),
            }
        }
    }
    let timeout = input
        .http_timeout_ms
        .or_else(|| existing.map(|r| r.http_timeout_ms))
        .unwrap_or(10_000);
    if !(100..=120_000).contains(&timeout) {
        errors.push(field(
            "/http_timeout_ms",
            format!("{timeout} ms is out of range"),
            "use 100 to 120000 ms",
        ));
    }
    let schema = input
        .parameter_schema
        .or_else(|| existing.map(|r| r.parameter_schema.clone()))
        .unwrap_or_else(|| json!({"type": "object", "properties": {}}));
    let problems = schema_problems(&schema);
    let schema_ok = problems.is_empty();
    errors.extend(problems.into_iter().map(|p| {
        let hint = if p.allowed.is_empty() {
            "give a JSON Schema 2020-12 object schema, e.g. {\"type\": \"object\", \"properties\": {\"city\": {\"type\": \"string\"}}}".to_string()
        } else {
            format!("use one of: {}", p.allowed.join(", "))
        };
        field(&format!("/parameter_schema{}", p.path), p.message, hint)
    }));
    let defaults = input
        .parameter_defaults
        .or_else(|| existing.map(|r| r.parameter_defaults.clone()))
        .unwrap_or_else(|| json!({}));
    if schema_ok && defaults.is_object() {
        // Defaults need not satisfy `required` on their own: the caller supplies the rest.
        let mut relaxed = schema.clone();
        if let Some(map) = relaxed.as_object_mut() {
            map.remove("required");
        }
        if let Ok(compiled) = CompiledSchema::compile("defaults", &relaxed) {
            for v in compiled.violations(&defaults) {
                errors.push(field(
                    &format!("/parameter_defaults{}", v.path),
                    v.message,
                    "defaults must be valid values of the parameter schema",
                ));
            }
        }
    }
    if schema_ok && let Some(u) = &url {
        errors.extend(unfilled_placeholders(u, &schema, &defaults));
    }
    // Sent: as sent. Not sent: kept on an edit that keeps the method, derived from the
    // method otherwise (GET reads, the others write), so a GET tool edited to DELETE does
    // not stay "read".
    let method_changed = existing.is_some_and(|r| r.http_method.to_uppercase() != method);
    let kept = existing
        .filter(|_| !method_changed)
        .map(|r| r.side_effect.clone());
    let side_effect = input
        .side_effect
        .or(kept)
        .unwrap_or_else(|| if method == "GET" { "read" } else { "write" }.to_string());
    if !["read", "write", "irreversible"].contains(&side_effect.as_str()) {
        errors.push(field(
            "/side_effect",
            format!("unknown side effect '{side_effect}'"),
            "use read, write or irreversible",
        ));
    }
    // The API shape keeps `wait_for_response` (clients send it), but an HTTP tool always
    // waits for its service's answer: asking for anything else is refused, not ignored.
    if input.wait_for_response == Some(true) {
        errors.push(field(
            "/wait_for_response",
            "an HTTP tool always waits for the service's answer; fire-and-forget calls are not supported",
            "leave wait_for_response out, or send false",
        ));
    }
    // Sent: as sent (null: the side effect's default). Not sent: kept.
    let policy = match input.policy {
        Some(sent) => sent,
        None => existing.and_then(|r| r.policy.clone()),
    };
    if let Some(p) = &policy
        && !["always", "ask", "never"].contains(&p.as_str())
    {
        errors.push(field(
            "/policy",
            format!("unknown policy '{p}'"),
            "use always, ask or never (or null for the default)",
        ));
    }
    // Sent: checked (null removes it). Not sent: kept, unless the name or description
    // changes: the person's own words then stand instead of an older translation.
    let renamed = existing.is_some_and(|r| {
        sent_name.as_ref().is_some_and(|n| *n != r.name)
            || sent_description
                .as_deref()
                .is_some_and(|d| d.trim() != r.description.trim())
    });
    let display = match input.display {
        Some(None) => None,
        Some(Some(sent)) => match display_of(sent) {
            Ok(d) => Some(d),
            Err(e) => {
                errors.push(e);
                None
            }
        },
        None => existing
            .and_then(|r| r.display.clone())
            .filter(|_| !renamed),
    };
    if !errors.is_empty() {
        return Err(errors);
    }
    Ok(ToolResource {
        id,
        user_id: 1,
        name,
        description: sent_description
            .or_else(|| existing.map(|r| r.description.clone()))
            .unwrap_or_default(),
        category,
        icon: input.icon.or_else(|| existing.and_then(|r| r.icon.clone())),
        http_method: method,
        http_url: url,
        http_headers: headers,
        http_timeout_ms: timeout,
        parameter_schema: schema,
        parameter_defaults: defaults,
        wait_for_response: false,
        enabled: input
            .enabled
            .or_else(|| existing.map(|r| r.enabled))
            .unwrap_or(true),
        is_system: false,
        side_effect,
        policy,
        display,
        created_at: existing.map(|r| r.created_at.clone()).unwrap_or_default(),
        updated_at: String::new(),
    })
}

/// A tool's display text as sent (its shape checked by [`ResourceInput::check`]): a name
/// of 1–100 and a description of at most 1,000 characters in each language.
fn display_of(sent: DisplayInput) -> Result<ToolDisplay, FieldError> {
    let display = display(sent);
    for (path, text, most) in [
        ("/display/name/zh", &display.name.zh, 100),
        ("/display/name/en", &display.name.en, 100),
        ("/display/description/zh", &display.description.zh, 1000),
        ("/display/description/en", &display.description.en, 1000),
    ] {
        // Counted as JSON Schema counts (characters, spaces included).
        let length = text.chars().count();
        if path.contains("/name/") && text.trim().is_empty() {
            return Err(field(
                path,
                "the name is empty",
                "give the name in this language",
            ));
        }
        if length > most {
            return Err(field(
                path,
                format!("{length} characters is more than {most}"),
                "shorten it",
            ));
        }
    }
    Ok(display)
}

fn display(sent: DisplayInput) -> ToolDisplay {
    ToolDisplay {
        name: Localized::new(sent.name.zh, sent.name.en),
        description: Localized::new(sent.description.zh, sent.description.en),
    }
}

/// A built-in tool may be enabled, disabled or given a policy; any other field may only
/// be sent back as it is stored (as read from a GET).
fn system_update(
    mut input: ResourceInput,
    existing: &ToolResource,
) -> Result<ToolResource, Vec<FieldError>> {
    let mut errors = std::mem::take(&mut input.shape_problems);
    let mut updated = existing.clone();
    if let Some(enabled) = input.enabled {
        updated.enabled = enabled;
    }
    if let Some(policy) = input.policy {
        match policy {
            Some(p) if !["always", "ask", "never"].contains(&p.as_str()) => errors.push(field(
                "/policy",
                "unknown policy",
                "use always, ask or never (or null for the default)",
            )),
            policy => updated.policy = policy,
        }
    }
    let stored = serde_json::to_value(existing).unwrap_or_default();
    let text = |v: Option<String>| v.map(Value::String);
    let sent: [(&str, Option<Value>); 17] = [
        ("id", text(input.id)),
        ("name", text(input.name)),
        ("description", text(input.description)),
        ("category", text(input.category)),
        ("icon", text(input.icon)),
        ("http_method", text(input.http_method)),
        ("http_url", text(input.http_url)),
        ("http_headers", input.http_headers.map(Value::Object)),
        ("http_timeout_ms", input.http_timeout_ms.map(Value::from)),
        ("parameter_schema", input.parameter_schema),
        ("parameter_defaults", input.parameter_defaults),
        (
            "wait_for_response",
            input.wait_for_response.map(Value::Bool),
        ),
        ("side_effect", text(input.side_effect)),
        ("user_id", input.user_id),
        ("is_system", input.is_system),
        ("created_at", input.created_at),
        ("updated_at", input.updated_at),
    ];
    for (key, value) in sent {
        if let Some(value) = value
            && !value.is_null()
            && stored.get(key) != Some(&value)
        {
            errors.push(field(
                &format!("/{key}"),
                format!("'{key}' of a built-in tool cannot change"),
                "built-in tools can be enabled, disabled or given a policy",
            ));
        }
    }
    if let Some(Some(sent)) = input.display
        && existing.display.as_ref() != Some(&display(sent))
    {
        errors.push(field(
            "/display",
            "'display' of a built-in tool cannot change",
            "built-in tools can be enabled, disabled or given a policy",
        ));
    }
    if errors.is_empty() {
        Ok(updated)
    } else {
        Err(errors)
    }
}

/// An id from the name (`Order lookup` → `order_lookup`), unique among `taken`.
fn generate_id(name: &str, taken: &dyn Fn(&str) -> bool) -> String {
    let mut slug: String = name
        .to_lowercase()
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    while slug.contains("__") {
        slug = slug.replace("__", "_");
    }
    let slug = slug.trim_matches('_');
    let mut base: String = if slug.is_empty() || slug.starts_with(|c: char| c.is_ascii_digit()) {
        format!("tool_{slug}").trim_end_matches('_').to_string()
    } else {
        slug.to_string()
    };
    base.truncate(56);
    if !taken(&base) {
        return base;
    }
    (2..)
        .map(|n| format!("{base}_{n}"))
        .find(|id| !taken(id))
        .unwrap_or(base)
}

/// Moves literal secrets out of sensitive headers (Authorization, *key*, *token*…):
/// each becomes a secret named after the tool and header, referenced as `{secret:NAME}`.
/// Returns the secrets to store.
pub fn extract_header_secrets(resource: &mut ToolResource) -> Vec<(String, String)> {
    let mut moved = Vec::new();
    let Some(headers) = resource.http_headers.as_object_mut() else {
        return moved;
    };
    for (name, value) in headers.iter_mut() {
        let Some(text) = value.as_str() else { continue };
        if !is_secret_name(name) || text.contains("{secret:") || text.trim().is_empty() {
            continue;
        }
        let secret = format!(
            "{}.{}",
            resource.id,
            name.to_lowercase()
                .replace(|c: char| !c.is_ascii_alphanumeric(), "_")
        );
        moved.push((secret.clone(), text.to_string()));
        *value = Value::String(format!("{{secret:{secret}}}"));
    }
    moved
}

/// The API contract's HTTP tool templates, disabled until the user points them at a service.
pub fn templates() -> Vec<ToolResource> {
    let template =
        |id: &str, name: Localized, summary: Localized, url: &str, schema: Value| ToolResource {
            id: id.into(),
            user_id: 1,
            name: name.zh.clone(),
            description: summary.en.clone(),
            category: "query".into(),
            icon: None,
            http_method: "GET".into(),
            http_url: Some(url.into()),
            http_headers: json!({}),
            http_timeout_ms: 10_000,
            parameter_schema: schema,
            parameter_defaults: json!({}),
            wait_for_response: false,
            enabled: false,
            is_system: false,
            side_effect: "read".into(),
            policy: None,
            display: Some(ToolDisplay {
                name,
                description: summary,
            }),
            created_at: String::new(),
            updated_at: String::new(),
        };
    vec![
        template(
            "search",
            Localized::new("网络搜索", "Web search"),
            Localized::new(
                "在互联网上搜索最新信息（模板：把 http_url 改成真实的服务，在请求头中加上它的密钥，然后启用）。",
                "Searches the internet for up-to-date information. (Template: set http_url to a real service, add its key as a header, then enable it.)",
            ),
            "https://search.example.invalid/search",
            json!({"type": "object", "additionalProperties": false, "required": ["query"],
                   "properties": {"query": {"type": "string", "description": "Search keywords"}}}),
        ),
        template(
            "weather",
            Localized::new("天气查询", "Weather"),
            Localized::new(
                "查询一个城市的天气（模板：把 http_url 改成真实的服务，在请求头中加上它的密钥，然后启用）。",
                "Looks up the weather of a city. (Template: set http_url to a real service, add its key as a header, then enable it.)",
            ),
            "https://weather.example.invalid/weather",
            json!({"type": "object", "additionalProperties": false, "required": ["city"],
                   "properties": {"city": {"type": "string", "description": "City name"}}}),
        ),
        template(
            "translate",
            Localized::new("翻译", "Translate"),
            Localized::new(
                "把文本翻译成目标语言（模板：把 http_url 改成真实的服务，在请求头中加上它的密钥，然后启用）。",
                "Translates text into a target language. (Template: set http_url to a real service, add its key as a header, then enable it.)",
            ),
            "https://translate.example.invalid/translate",
            json!({"type": "object", "additionalProperties": false, "required": ["text", "target_lang"],
                   "properties": {"text": {"type": "string", "description": "Text to translate"},
                                  "target_lang": {"type": "string", "description": "Target language code, e.g. en, ja, ko"}}}),
        ),
    ]
}

/// The spec a user resource gives the guard and the model: its schema with the defaults
/// as `default`s, so absent arguments take them.
pub fn spec_for(resource: &ToolResource) -> ToolSpec {
    let mut parameters = resource.parameter_schema.clone();
    if let (Some(props), Some(defaults)) = (
        parameters
            .get_mut("properties")
            .and_then(Value::as_object_mut),
        resource.parameter_defaults.as_object(),
    ) {
        for (name, value) in defaults {
            if let Some(prop) = props.get_mut(name).and_then(Value::as_object_mut) {
                prop.insert("default".into(), value.clone());
            }
        }
    }
    let side_effect = match resource.side_effect.as_str() {
        "write" => SideEffect::Write,
        "irreversible" => SideEffect::Irreversible,
        _ => SideEffect::Read,
    };
    let description = if resource.description.trim().is_empty() {
        resource.name.clone()
    } else {
        resource.description.clone()
    };
    ToolSpec {
        id: resource.id.clone(),
        name: Localized::new(resource.name.clone(), resource.name.clone()),
        summary: None,
        description,
        category: Category::Query,
        parameters,
        side_effect,
        idempotent: side_effect == SideEffect::Read,
        // The HTTP timeout fires first, with a clearer message than the guard's.
        timeout_ms: u64::try_from(resource.http_timeout_ms).unwrap_or(10_000) + 1_000,
        compensation: None,
    }
}

/// The executable tool of a user resource.
pub fn http_tool(
    resource: &ToolResource,
    secrets: Arc<dyn SecretStore>,
) -> Result<Arc<dyn Tool>, deskmate_core::ToolError> {
    let headers: BTreeMap<String, String> = resource
        .http_headers
        .as_object()
        .map(|m| {
            m.iter()
                .filter_map(|(k, v)| Some((k.clone(), v.as_str()?.to_string())))
                .collect()
        })
        .unwrap_or_default();
    let config = HttpToolConfig {
        method: resource.http_method.parse().unwrap_or(Method::GET),
        url: resource.http_url.clone().unwrap_or_default(),
        headers,
        timeout: Duration::from_millis(u64::try_from(resource.http_timeout_ms).unwrap_or(10_000)),
        max_response_bytes: MAX_RESPONSE_BYTES,
    };
    Ok(Arc::new(HttpTool::new(
        spec_for(resource),
        config,
        secrets,
    )?))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A body as the API reads it (its shape, then the type) and validates it.
    fn validate_body(
        body: &Value,
        existing: Option<&ToolResource>,
        taken: &dyn Fn(&str) -> bool,
    ) -> Result<ToolResource, Vec<FieldError>> {
        validate(ResourceInput::read(body)?, existing, taken)
    }

    fn create(input: Value) -> Result<ToolResource, Vec<FieldError>> {
        validate_body(&input, None, &|id| id == "weather")
    }

    fn paths(result: Result<ToolResource, Vec<FieldError>>) -> Vec<String> {
        result
            .err()
            .unwrap_or_default()
            .into_iter()
            .map(|e| e.path)
            .collect()
    }

    /// A tool may carry its name and description in both languages; a malformed one is a
    /// 422 at its place; renaming the tool drops the old translation, other edits keep it.
    #[test]
    fn display_text_is_checked_kept_and_dropped_on_a_rename() {
        let display = json!({"name": {"zh": "订单", "en": "Orders"},
                             "description": {"zh": "查询订单。", "en": "Looks up an order."}});
        let orders = create(json!({"name": "Orders", "category": "query",
            "http_url": "https://api.example.com/orders", "display": display}))
        .unwrap_or_else(|e| panic!("{e:?}"));
        assert_eq!(
            orders.display.as_ref().map(|d| d.name.zh.as_str()),
            Some("订单")
        );
        for (bad, at) in [
            (
                json!({"name": {"zh": "订单"}, "description": {"zh": "", "en": ""}}),
                "/display",
            ),
            (
                json!({"name": {"zh": "订单", "en": "  "}, "description": {"zh": "", "en": ""}}),
                "/display/name/en",
            ),
            (
                json!({"name": {"zh": "订单", "en": "x".repeat(101)}, "description": {"zh": "", "en": ""}}),
                "/display/name/en",
            ),
            (
                json!({"name": {"zh": "订单", "en": "Orders", "fr": "Commandes"}, "description": {"zh": "", "en": ""}}),
                "/display",
            ),
            (json!("Orders"), "/display"),
        ] {
            let got = paths(create(json!({"name": "Orders", "category": "query",
                "http_url": "https://api.example.com/orders", "display": bad})));
            assert_eq!(got, [at], "{bad}");
        }
        let edit = |body: Value, existing: &ToolResource| {
            validate_body(&body, Some(existing), &|_| false).unwrap_or_else(|e| panic!("{e:?}"))
        };
        let disabled = edit(json!({"enabled": false, "name": "Orders"}), &orders);
        assert_eq!(disabled.display, orders.display, "same name: kept");
        let renamed = edit(json!({"name": "Order lookup"}), &orders);
        assert_eq!(renamed.display, None, "the new name stands");
        let cleared = edit(json!({"display": null}), &orders);
        assert_eq!(cleared.display, None);
    }

    /// The side effect follows the method unless it is sent: an edit from GET to DELETE
    /// no longer keeps "read"; an edit that keeps the method keeps the stored value.
    #[test]
    fn the_side_effect_is_derived_again_when_the_method_changes() {
        let reader = create(json!({"name": "Orders", "category": "query",
            "http_url": "https://api.example.com/orders/{id}",
            "parameter_schema": {"type": "object", "properties": {"id": {"type": "string"}}, "required": ["id"]}}))
        .unwrap_or_else(|e| panic!("{e:?}"));
        assert_eq!(reader.side_effect, "read");
        let edit = |body: Value, existing: &ToolResource| {
            validate_body(&body, Some(existing), &|_| false).unwrap_or_else(|e| panic!("{e:?}"))
        };
        let deleter = edit(json!({"http_method": "DELETE"}), &reader);
        assert_eq!(deleter.side_effect, "write");
        let renamed = edit(json!({"name": "Order removal"}), &deleter);
        assert_eq!(renamed.side_effect, "write");
        let chosen = edit(
            json!({"http_method": "POST", "side_effect": "irreversible"}),
            &renamed,
        );
        assert_eq!(chosen.side_effect, "irreversible");
        let kept = edit(
            json!({"description": "Removes an order for good."}),
            &chosen,
        );
        assert_eq!(kept.side_effect, "irreversible");
        let back = edit(json!({"http_method": "GET"}), &kept);
        assert_eq!(back.side_effect, "read");
    }

    /// `none` names no tool in the model's list of parts: never an id, sent or generated.
    #[test]
    fn the_id_none_is_reserved_for_no_tool() {
        let sent = create(json!({"id": "none", "name": "Nothing", "category": "query",
            "http_url": "https://api.example.com/x"}));
        let errors = sent.err().unwrap_or_default();
        assert_eq!(errors.len(), 1, "{errors:?}");
        assert_eq!(errors[0].path, "/id");
        assert!(errors[0].message.contains("reserved"), "{errors:?}");
        let generated = create(json!({"name": "None", "category": "query",
            "http_url": "https://api.example.com/x"}))
        .unwrap_or_else(|e| panic!("{e:?}"));
        assert_eq!(generated.id, "none_2");
    }

    /// `wait_for_response` stays in the shape, but only `false` (what an HTTP tool does)
    /// is accepted: `true` was stored and silently ignored.
    #[test]
    fn wait_for_response_true_is_refused_not_ignored() {
        let base = json!({"name": "Orders", "category": "query",
            "http_url": "https://api.example.com/orders/{id}",
            "parameter_schema": {"type": "object", "properties": {"id": {"type": "string"}}, "required": ["id"]}});
        let mut asked = base.clone();
        asked["wait_for_response"] = json!(true);
        assert_eq!(paths(create(asked)), ["/wait_for_response"]);
        let mut plain = base;
        plain["wait_for_response"] = json!(false);
        assert!(create(plain).is_ok_and(|r| !r.wait_for_response));
    }

    /// A `{name}` in the URL must be filled on every call: a parameter that is required
    /// or has a default. Otherwise the save is refused with the reason, not the call.
    #[test]
    fn url_placeholders_must_be_parameters_a_call_always_fills() {
        let with = |url: &str, schema: Value, defaults: Value| {
            create(
                json!({"name": "Orders", "category": "query", "http_url": url,
                          "parameter_schema": schema, "parameter_defaults": defaults}),
            )
        };
        let schema = json!({"type": "object", "required": ["id"],
            "properties": {"id": {"type": "string"}, "region": {"type": "string"}, "v": {"type": "string", "default": "2"}}});
        let unknown = with("http://h/{nope}/x", schema.clone(), json!({}));
        let errors = unknown.err().unwrap_or_default();
        assert_eq!(errors.len(), 1, "{errors:?}");
        assert_eq!(errors[0].path, "/http_url");
        assert!(errors[0].message.contains("{nope}"), "{errors:?}");
        assert!(errors[0].hint.contains("id, region, v"), "{errors:?}");
        let optional = with("http://h/{region}/{id}", schema.clone(), json!({}));
        assert!(
            optional.err().unwrap_or_default()[0]
                .message
                .contains("'region' is optional")
        );
        assert!(
            with(
                "http://h/{region}/{id}",
                schema.clone(),
                json!({"region": "eu"})
            )
            .is_ok()
        );
        assert!(
            with("http://h/api/{v}/{id}", schema, json!({})).is_ok(),
            "a schema default fills it"
        );
    }

    #[test]
    fn a_good_resource_gets_defaults_and_an_id() {
        let r = create(json!({"name": "Order lookup", "category": "query", "http_url": "https://api.example.com/orders/{order_id}",
            "parameter_schema": {"type": "object", "properties": {"order_id": {"type": "string"}, "expand": {"type": "string"}}, "required": ["order_id"]},
            "parameter_defaults": {"expand": "items"}}))
        .unwrap_or_else(|e| panic!("{e:?}"));
        assert_eq!(
            (
                r.id.as_str(),
                r.http_method.as_str(),
                r.side_effect.as_str(),
                r.http_timeout_ms,
                r.enabled
            ),
            ("order_lookup", "GET", "read", 10_000, true)
        );
        assert_eq!(
            spec_for(&r).parameters["properties"]["expand"]["default"],
            "items"
        );
        let posted = create(json!({"name": "天气", "category": "query", "http_method": "post", "http_url": "http://127.0.0.1:1/x"})).unwrap_or_else(|e| panic!("{e:?}"));
        assert_eq!(
            (posted.http_method.as_str(), posted.side_effect.as_str()),
            ("POST", "write")
        );
        assert!(posted.id.starts_with("tool"), "{}", posted.id);
        let second =
            create(json!({"name": "Weather", "category": "query", "http_url": "http://h/x"}))
                .unwrap_or_else(|e| panic!("{e:?}"));
        assert_eq!(second.id, "weather_2");
    }

    #[test]
    fn every_problem_is_reported_at_its_field() {
        let got = paths(create(
            json!({"id": "Bad Id", "category": "other", "http_method": "TRACE", "http_url": "ftp://x",
            "http_timeout_ms": 50, "parameter_schema": {"type": "array"}, "surprise": 1, "http_headers": {"X": 5}, "policy": "maybe"}),
        ));
        for want in [
            "/id",
            "/name",
            "/category",
            "/http_method",
            "/http_url",
            "/http_timeout_ms",
            "/parameter_schema/type",
            "/surprise",
            "/http_headers/X",
            "/policy",
        ] {
            assert!(
                got.contains(&want.to_string()),
                "{want} missing from {got:?}"
            );
        }
        let got = paths(create(
            json!({"name": "x", "category": "query", "http_url": "http://h/x",
            "parameter_schema": {"type": "object", "properties": {"days": {"type": "integer", "maximum": 7}}}, "parameter_defaults": {"days": 30}}),
        ));
        assert_eq!(got, ["/parameter_defaults/days"]);
        assert_eq!(
            paths(create(
                json!({"id": "weather", "name": "x", "category": "query", "http_url": "http://h/x"})
            )),
            ["/id"]
        );
        assert_eq!(
            paths(create(
                json!({"name": "x", "category": "query", "http_url": "http://h/x", "http_headers": {"X-A": "a\r\nInjected: 1"}})
            )),
            ["/http_headers/X-A"]
        );
        assert_eq!(paths(create(json!([1]))), [""]);
    }

    #[test]
    fn built_in_tools_only_toggle_and_take_a_policy() {
        let system = ToolResource {
            is_system: true,
            ..create(json!({"name": "c", "category": "query", "http_url": "http://h/x"}))
                .unwrap_or_else(|e| panic!("{e:?}"))
        };
        let ok = validate_body(
            &json!({"enabled": false, "policy": "ask", "name": system.name}),
            Some(&system),
            &|_| true,
        )
        .unwrap_or_else(|e| panic!("{e:?}"));
        assert_eq!((ok.enabled, ok.policy.as_deref()), (false, Some("ask")));
        assert_eq!(
            paths(validate_body(
                &json!({"http_url": "http://evil/x"}),
                Some(&system),
                &|_| true
            )),
            ["/http_url"]
        );
    }

    #[test]
    fn literal_secrets_leave_the_headers() {
        let mut r = create(json!({"id": "orders", "name": "x", "category": "query", "http_url": "http://h/x",
            "http_headers": {"Authorization": "Bearer sk-1", "X-Trace": "on", "X-Api-Key": "{secret:SHARED}"}})).unwrap_or_else(|e| panic!("{e:?}"));
        let moved = extract_header_secrets(&mut r);
        assert_eq!(
            moved,
            [(
                "orders.authorization".to_string(),
                "Bearer sk-1".to_string()
            )]
        );
        assert_eq!(
            r.http_headers,
            json!({"Authorization": "{secret:orders.authorization}", "X-Trace": "on", "X-Api-Key": "{secret:SHARED}"})
        );
    }
}
