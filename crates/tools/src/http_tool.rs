//! User-defined HTTP query tools: the executor behind every tool resource with an
//! `http_url`. Arguments arrive normalized and validated (defaults filled by the guard);
//! `{name}` placeholders in the URL path are filled percent-encoded, the other arguments
//! go to the query string (GET, DELETE) or a JSON body (POST, PUT, PATCH). Header values
//! may reference secrets as `{secret:NAME}`; their values never leave this module.

use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use deskmate_core::{ToolError, ToolSpec};
use percent_encoding::{AsciiSet, NON_ALPHANUMERIC, utf8_percent_encode};
use serde_json::{Map, Value, json};

use crate::{SelfCheck, Tool, ToolContext};

pub use reqwest::Method;

/// Where header secrets come from.
pub trait SecretStore: Send + Sync + fmt::Debug {
    /// The secret's value, if it is set.
    fn secret(&self, name: &str) -> Option<String>;
}

/// Everything but alphanumerics, `-`, `_` and `~` is encoded in a path placeholder —
/// including `.` and `/`, so a value can never climb out of its path segment.
const PATH_SEGMENT: &AsciiSet = &NON_ALPHANUMERIC.remove(b'-').remove(b'_').remove(b'~');

/// Redirects followed at most.
const MAX_REDIRECTS: usize = 3;

/// How one HTTP tool calls its service.
#[derive(Debug, Clone)]
pub struct HttpToolConfig {
    /// GET, POST, PUT, PATCH or DELETE.
    pub method: reqwest::Method,
    /// Absolute http(s) URL; `{name}` placeholders may appear in its path.
    pub url: String,
    /// Header names and values; values may contain `{secret:NAME}`.
    pub headers: BTreeMap<String, String>,
    /// Whole-request timeout.
    pub timeout: Duration,
    /// Largest response body read.
    pub max_response_bytes: usize,
}

/// An HTTP query tool.
pub struct HttpTool {
    spec: ToolSpec,
    config: HttpToolConfig,
    client: reqwest::Client,
    secrets: Arc<dyn SecretStore>,
}

impl fmt::Debug for HttpTool {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("HttpTool")
            .field("id", &self.spec.id)
            .field("url", &self.config.url)
            .finish()
    }
}

impl HttpTool {
    /// Builds the tool; fails when the URL template is not an absolute http(s) URL with
    /// placeholders only in its path.
    pub fn new(
        spec: ToolSpec,
        config: HttpToolConfig,
        secrets: Arc<dyn SecretStore>,
    ) -> Result<Self, ToolError> {
        check_template(&config.url)?;
        let client = shared_client()?;
        Ok(Self {
            spec,
            config,
            client,
            secrets,
        })
    }
}

/// The one HTTP client of every HTTP tool: building a client loads the TLS roots (tens
/// of milliseconds), and a registry may hold thousands of tools. Each request carries its
/// tool's whole-request timeout, which also bounds connecting.
fn shared_client() -> Result<reqwest::Client, ToolError> {
    static CLIENT: std::sync::OnceLock<Result<reqwest::Client, String>> =
        std::sync::OnceLock::new();
    CLIENT
        .get_or_init(|| {
            let _ = rustls::crypto::ring::default_provider().install_default();
            reqwest::Client::builder()
                .connect_timeout(Duration::from_secs(10))
                .redirect(reqwest::redirect::Policy::limited(MAX_REDIRECTS))
                .user_agent(concat!("deskmate/", env!("CARGO_PKG_VERSION")))
                .build()
                .map_err(|e| e.to_string())
        })
        .clone()
        .map_err(|e| ToolError::internal(format!("cannot build the HTTP client: {e}")))
}

/// The placeholder names of a URL template, in order.
pub fn placeholders(template: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        let Some(close) = rest[open..].find('}') else {
            break;
        };
        names.push(rest[open + 1..open + close].to_string());
        rest = &rest[open + close + 1..];
    }
    names
}

/// Checks a URL template: absolute http(s), a host, placeholders only in the path.
pub fn check_template(template: &str) -> Result<(), ToolError> {
    let bad = |why: &str| {
        ToolError::validation(format!("http_url {why}"))
            .with_hint("use an absolute URL like https://api.example.com/orders/{order_id}")
    };
    let (scheme, rest) = template
        .split_once("://")
        .ok_or_else(|| bad("must be absolute (http:// or https://)"))?;
    if !matches!(scheme, "http" | "https") {
        return Err(bad("must use http or https"));
    }
    let path_start = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    if rest[..path_start].contains(['{', '}']) || rest[..path_start].is_empty() {
        return Err(bad(
            "needs a host without placeholders; placeholders may appear only in the path",
        ));
    }
    let query_start = rest.find(['?', '#']).unwrap_or(rest.len());
    if rest[query_start..].contains(['{', '}']) {
        return Err(bad(
            "may have placeholders only in its path; other arguments go to the query string by themselves",
        ));
    }
    let filled =
        fill(template, &Map::new(), true).map_err(|_| bad("has an unclosed placeholder"))?;
    url::Url::parse(&filled).map_err(|e| bad(&format!("is not a valid URL ({e})")))?;
    Ok(())
}

/// Fills the placeholders; with `dummy`, fills each with `x` (to check the template).
fn fill(template: &str, args: &Map<String, Value>, dummy: bool) -> Result<String, ToolError> {
    let mut out = String::with_capacity(template.len());
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let close = rest[open..]
            .find('}')
            .ok_or_else(|| ToolError::internal("unclosed placeholder in http_url"))?;
        let name = &rest[open + 1..open + close];
        let value = if dummy {
            "x".to_string()
        } else {
            match args.get(name) {
                Some(Value::String(s)) => s.clone(),
                Some(Value::Null) | None => {
                    return Err(ToolError::validation(format!("the URL needs '{name}'"))
                        .with_hint(format!("give a value for '{name}'")));
                }
                Some(other) => other.to_string(),
            }
        };
        out.extend(utf8_percent_encode(&value, PATH_SEGMENT));
        rest = &rest[open + close + 1..];
    }
    out.push_str(rest);
    Ok(out)
}

fn resolve_secrets(value: &str, secrets: &dyn SecretStore) -> Result<String, ToolError> {
    let mut out = String::with_capacity(value.len());
    let mut rest = value;
    while let Some(start) = rest.find("{secret:") {
        out.push_str(&rest[..start]);
        let end = rest[start..]
            .find('}')
            .ok_or_else(|| ToolError::internal("unclosed {secret:…} reference in a header"))?;
        let name = &rest[start + "{secret:".len()..start + end];
        let secret = secrets.secret(name).ok_or_else(|| {
            ToolError::permission(format!("the secret '{name}' this tool needs is not set"))
                .with_hint("the user must set it in Tools (it is never shown to the model)")
        })?;
        out.push_str(&secret);
        rest = &rest[start + end + 1..];
    }
    out.push_str(rest);
    Ok(out)
}

/// Query-string pairs: scalars as text, lists as repeated keys, objects as JSON text.
fn query_pairs(args: &Map<String, Value>) -> Vec<(String, String)> {
    let text = |v: &Value| match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    };
    let mut pairs = Vec::new();
    for (key, value) in args {
        match value {
            Value::Null => {}
            Value::Array(items) => pairs.extend(items.iter().map(|item| (key.clone(), text(item)))),
            other => pairs.push((key.clone(), text(other))),
        }
    }
    pairs
}

fn excerpt(text: &str) -> String {
    let cut: String = text.chars().take(300).collect();
    if cut.len() < text.len() {
        format!("{cut}…")
    } else {
        cut
    }
}

#[async_trait]
impl Tool for HttpTool {
    fn spec(&self) -> &ToolSpec {
        &self.spec
    }

    fn open_world(&self) -> bool {
        true
    }

    /// The host's reachability: none of the tool's arguments or headers are sent, so a
    /// tool that writes is checked the same harmless way.
    fn self_check(&self) -> SelfCheck {
        let url = self.config.url.clone();
        let limit = self.config.timeout.min(crate::self_check::PROBE_TIMEOUT);
        SelfCheck::Probe(Box::pin(async move {
            crate::self_check::reachable(&url, limit).await
        }))
    }

    async fn run(&self, args: Value, _ctx: ToolContext) -> Result<Value, ToolError> {
        let mut args = match args {
            Value::Object(map) => map,
            _ => Map::new(),
        };
        let url = fill(&self.config.url, &args, false)?;
        for name in placeholders(&self.config.url) {
            args.remove(&name);
        }
        let url = url::Url::parse(&url)
            .map_err(|e| ToolError::validation(format!("the filled URL is invalid: {e}")))?;
        let mut request = self
            .client
            .request(self.config.method.clone(), url)
            .timeout(self.config.timeout);
        for (name, value) in &self.config.headers {
            request = request.header(name, resolve_secrets(value, self.secrets.as_ref())?);
        }
        request = match self.config.method {
            reqwest::Method::GET | reqwest::Method::DELETE => request.query(&query_pairs(&args)),
            _ => request.json(&Value::Object(args)),
        };
        let mut response = request.send().await.map_err(|e| send_error(&e))?;
        let status = response.status();
        let mut body = Vec::new();
        while let Some(chunk) = response.chunk().await.map_err(|e| send_error(&e))? {
            if body.len() + chunk.len() > self.config.max_response_bytes {
                return Err(ToolError::validation(format!(
                    "the service answered with more than {} bytes",
                    self.config.max_response_bytes
                ))
                .with_hint("ask for less: use filters or paging parameters if the tool has them"));
            }
            body.extend_from_slice(&chunk);
        }
        let text = String::from_utf8_lossy(&body);
        if status.is_client_error() {
            return Err(ToolError::validation(format!(
                "the service refused the request: HTTP {} — {}",
                status.as_u16(),
                excerpt(&text)
            ))
            .with_hint(
                "check the arguments against the tool's description and the service's message",
            ));
        }
        if !status.is_success() {
            return Err(ToolError::transient(format!(
                "the service failed: HTTP {} — {}",
                status.as_u16(),
                excerpt(&text)
            ))
            .with_hint("the service had a problem; try again later"));
        }
        let parsed = serde_json::from_slice::<Value>(&body)
            .unwrap_or_else(|_| Value::String(text.into_owned()));
        Ok(json!({"status": status.as_u16(), "body": parsed}))
    }
}

fn send_error(error: &reqwest::Error) -> ToolError {
    if error.is_redirect() {
        return ToolError::transient(format!(
            "the service redirected more than {MAX_REDIRECTS} times"
        ))
        .with_hint("the tool's URL in Tools may be wrong; tell the user");
    }
    if error.is_timeout() {
        return ToolError::transient("the service did not answer in time")
            .with_hint("try again later");
    }
    if error.is_connect() {
        return ToolError::transient("cannot connect to the service")
            .with_hint("the service may be down; try again later");
    }
    ToolError::transient(format!("the request failed: {error}")).with_hint("try again later")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn templates() {
        for ok in [
            "https://api.example.com/orders/{order_id}",
            "http://127.0.0.1:8080/x",
            "http://h/a/{b}/c/{d}",
        ] {
            assert!(check_template(ok).is_ok(), "{ok}");
        }
        for bad in [
            "ftp://h/x",
            "/relative/{x}",
            "http://{host}/x",
            "http:///x",
            "http://h/x?q={q}",
            "http://h/{unclosed",
            "not a url",
        ] {
            assert!(check_template(bad).is_err(), "{bad}");
        }
        assert_eq!(placeholders("http://h/a/{b}/c/{d}"), ["b", "d"]);
    }

    #[test]
    fn placeholders_are_encoded_and_cannot_escape_their_segment() {
        let args: Map<String, Value> =
            serde_json::from_value(json!({"id": "../../admin?x=1#y", "n": 7, "cn": "上海 市"}))
                .unwrap_or_default();
        let url = fill("http://h/orders/{id}/{n}/{cn}", &args, false).unwrap_or_default();
        assert_eq!(
            url,
            "http://h/orders/%2E%2E%2F%2E%2E%2Fadmin%3Fx%3D1%23y/7/%E4%B8%8A%E6%B5%B7%20%E5%B8%82"
        );
        let parsed = url::Url::parse(&url)
            .map(|u| u.path().to_string())
            .unwrap_or_default();
        assert!(parsed.starts_with("/orders/%2E%2E"), "{parsed}");
        let missing = fill("http://h/{id}", &Map::new(), false)
            .err()
            .map(|e| e.error_type);
        assert_eq!(missing, Some(deskmate_core::ErrorType::Validation));
    }

    #[derive(Debug)]
    struct Secrets;
    impl SecretStore for Secrets {
        fn secret(&self, name: &str) -> Option<String> {
            (name == "KEY").then(|| "sk-123".to_string())
        }
    }

    #[test]
    fn secrets_resolve_or_fail_with_permission() {
        assert_eq!(
            resolve_secrets("Bearer {secret:KEY}", &Secrets)
                .ok()
                .as_deref(),
            Some("Bearer sk-123")
        );
        let err = resolve_secrets("{secret:OTHER}", &Secrets).err();
        assert_eq!(
            err.as_ref().map(|e| e.error_type),
            Some(deskmate_core::ErrorType::Permission)
        );
        assert!(
            !err.map(|e| e.message)
                .unwrap_or_default()
                .contains("sk-123")
        );
    }

    #[test]
    fn query_pairs_flatten_lists() {
        let args: Map<String, Value> =
            serde_json::from_value(json!({"q": "rust", "tags": ["a", "b"], "n": 2, "skip": null}))
                .unwrap_or_default();
        assert_eq!(
            query_pairs(&args),
            [
                ("q".into(), "rust".into()),
                ("tags".into(), "a".into()),
                ("tags".into(), "b".into()),
                ("n".into(), "2".into())
            ]
        );
    }
}
