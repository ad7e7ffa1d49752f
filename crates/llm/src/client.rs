//! The chat-completions client: one request, streamed or not, with timeouts on connect,
//! on the response headers and between chunks.

use std::time::Duration;

use crate::assemble::ToolCallAssembler;
use crate::error::LlmError;
use crate::sse::SseParser;
use crate::wire::{ChatRequest, CompletionResponse, StreamChunk, Timings, ToolCall, Usage};

/// Where a model server is and how long to wait for it.
#[derive(Debug, Clone)]
pub struct Endpoint {
    base: url::Url,
    api_key: Option<String>,
    /// Connecting.
    pub connect_timeout: Duration,
    /// From the request to the response headers (a local model may think a while).
    pub response_timeout: Duration,
    /// Between two chunks of a stream, and for a whole non-streamed body.
    pub chunk_timeout: Duration,
}

impl Endpoint {
    /// An endpoint at an OpenAI-style base URL (`http://127.0.0.1:8080/v1`).
    pub fn new(base_url: &str, api_key: Option<String>) -> Result<Self, LlmError> {
        let bad = |reason: &str| LlmError::BadUrl {
            url: base_url.to_string(),
            reason: reason.to_string(),
        };
        let mut base = url::Url::parse(base_url.trim()).map_err(|e| bad(&e.to_string()))?;
        if !matches!(base.scheme(), "http" | "https") || base.host_str().is_none() {
            return Err(bad("it must be an absolute http(s) URL with a host"));
        }
        if base.query().is_some() || base.fragment().is_some() {
            return Err(bad("it must not have a query or fragment"));
        }
        let path = base.path().trim_end_matches('/').to_string();
        base.set_path(&path);
        Ok(Self {
            base,
            api_key: api_key.filter(|k| !k.is_empty()),
            connect_timeout: Duration::from_secs(5),
            response_timeout: Duration::from_secs(120),
            chunk_timeout: Duration::from_secs(60),
        })
    }

    /// Sets all three timeouts.
    #[must_use]
    pub fn with_timeouts(mut self, connect: Duration, response: Duration, chunk: Duration) -> Self {
        self.connect_timeout = connect;
        self.response_timeout = response;
        self.chunk_timeout = chunk;
        self
    }

    /// The URL of a path under the base (`/chat/completions`).
    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base.as_str().trim_end_matches('/'))
    }

    /// The base URL.
    pub fn base(&self) -> &str {
        self.base.as_str()
    }

    pub(crate) fn authorize(&self, request: reqwest::RequestBuilder) -> reqwest::RequestBuilder {
        match &self.api_key {
            Some(key) => request.bearer_auth(key),
            None => request,
        }
    }

    pub(crate) fn http(&self) -> Result<reqwest::Client, LlmError> {
        // Installing the provider twice is harmless.
        let _ = rustls::crypto::ring::default_provider().install_default();
        reqwest::Client::builder()
            .connect_timeout(self.connect_timeout)
            .user_agent(concat!("deskmate/", env!("CARGO_PKG_VERSION")))
            .build()
            .map_err(|e| LlmError::Connect {
                url: self.base.to_string(),
                reason: format!("cannot build the HTTP client: {e}"),
            })
    }

    pub(crate) async fn send(
        &self,
        url: &str,
        request: reqwest::RequestBuilder,
    ) -> Result<reqwest::Response, LlmError> {
        let response = tokio::time::timeout(self.response_timeout, request.send())
            .await
            .map_err(|_| LlmError::Timeout {
                url: url.to_string(),
                stage: "response headers",
                after: self.response_timeout,
            })?
            .map_err(|e| transport(url, &e, self.connect_timeout))?;
        let status = response.status();
        if status.is_success() {
            return Ok(response);
        }
        let body = tokio::time::timeout(self.chunk_timeout, response.text())
            .await
            .ok()
            .and_then(Result::ok)
            .unwrap_or_default();
        let body: String = body.chars().take(300).collect();
        Err(if matches!(status.as_u16(), 401 | 403) {
            LlmError::Unauthorized {
                url: url.to_string(),
                status: status.as_u16(),
                body,
            }
        } else {
            LlmError::Status {
                url: url.to_string(),
                status: status.as_u16(),
                body,
            }
        })
    }

    /// The next chunk of a body, within the chunk timeout.
    pub(crate) async fn chunk(
        &self,
        url: &str,
        response: &mut reqwest::Response,
    ) -> Result<Option<bytes::Bytes>, LlmError> {
        tokio::time::timeout(self.chunk_timeout, response.chunk())
            .await
            .map_err(|_| LlmError::Timeout {
                url: url.to_string(),
                stage: "next chunk",
                after: self.chunk_timeout,
            })?
            .map_err(|e| transport(url, &e, self.chunk_timeout))
    }

    /// A whole body, capped, within the chunk timeout per chunk.
    pub(crate) async fn body(
        &self,
        url: &str,
        mut response: reqwest::Response,
        cap: usize,
    ) -> Result<Vec<u8>, LlmError> {
        let mut body = Vec::new();
        while let Some(chunk) = self.chunk(url, &mut response).await? {
            body.extend_from_slice(&chunk);
            if body.len() > cap {
                return Err(LlmError::Decode {
                    url: url.to_string(),
                    reason: format!("the answer is larger than {cap} bytes"),
                });
            }
        }
        Ok(body)
    }
}

fn transport(url: &str, error: &reqwest::Error, limit: Duration) -> LlmError {
    if error.is_timeout() {
        LlmError::Timeout {
            url: url.to_string(),
            stage: "connect",
            after: limit,
        }
    } else if error.is_connect() {
        LlmError::Connect {
            url: url.to_string(),
            reason: std::error::Error::source(error)
                .map(ToString::to_string)
                .unwrap_or_else(|| error.to_string()),
        }
    } else {
        LlmError::Connect {
            url: url.to_string(),
            reason: error.to_string(),
        }
    }
}

/// What a stream reports as it arrives.
#[derive(Debug, Clone, PartialEq)]
pub enum StreamEvent {
    /// A piece of the reply's text.
    Token(String),
    /// The model started a tool call (its name is known).
    ToolCallStarted {
        /// Its index in the reply.
        index: usize,
        /// The tool name as written so far.
        name: String,
    },
}

/// A complete reply.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Reply {
    /// The text (may hold calls written as text; see [`crate::extract`]).
    pub content: String,
    /// Structured tool calls, complete.
    pub tool_calls: Vec<ToolCall>,
    /// `stop`, `tool_calls`, `length`, …
    pub finish_reason: Option<String>,
    /// Token counts, when the server sent them.
    pub usage: Option<Usage>,
    /// llama.cpp's prompt and generation counts, when the server sent them.
    pub timings: Option<Timings>,
    /// The model name the server reported.
    pub model: Option<String>,
    /// Chunks received (1 when not streamed).
    pub chunks: usize,
}

/// An OpenAI-compatible chat-completions client.
#[derive(Debug, Clone)]
pub struct ChatClient {
    endpoint: Endpoint,
    http: reqwest::Client,
}

/// Largest non-streamed answer read.
const MAX_BODY: usize = 8 * 1024 * 1024;

impl ChatClient {
    /// A client for an endpoint.
    pub fn new(endpoint: Endpoint) -> Result<Self, LlmError> {
        let http = endpoint.http()?;
        Ok(Self { endpoint, http })
    }

    /// The endpoint.
    pub fn endpoint(&self) -> &Endpoint {
        &self.endpoint
    }

    /// Sends one chat request; streams when `request.stream`, reporting tokens and
    /// started calls to `on_event` as they arrive.
    pub async fn complete(
        &self,
        request: &ChatRequest,
        on_event: &mut (dyn FnMut(StreamEvent) + Send),
    ) -> Result<Reply, LlmError> {
        let url = self.endpoint.url("/chat/completions");
        let builder = self.endpoint.authorize(self.http.post(&url).json(request));
        let response = self.endpoint.send(&url, builder).await?;
        if request.stream {
            self.read_stream(&url, response, on_event).await
        } else {
            let body = self.endpoint.body(&url, response, MAX_BODY).await?;
            parse_completion(&url, &body)
        }
    }

    async fn read_stream(
        &self,
        url: &str,
        mut response: reqwest::Response,
        on_event: &mut (dyn FnMut(StreamEvent) + Send),
    ) -> Result<Reply, LlmError> {
        let mut parser = SseParser::new();
        let mut state = StreamState::default();
        while let Some(bytes) = self.endpoint.chunk(url, &mut response).await? {
            for event in parser.feed(&bytes) {
                state.event(url, event.event.as_deref(), &event.data, on_event)?;
                if state.done {
                    return Ok(state.finish());
                }
            }
        }
        if state.finish_reason.is_some() {
            Ok(state.finish())
        } else {
            Err(LlmError::StreamEndedEarly {
                url: url.to_string(),
                chunks: state.chunks,
            })
        }
    }

    /// The server's root (the base URL without its `/v1`), where llama.cpp's own
    /// endpoints are.
    fn root(&self) -> String {
        let base = self.endpoint.base().trim_end_matches('/');
        base.strip_suffix("/v1").unwrap_or(base).to_string()
    }

    /// llama.cpp's `GET /props` (its chat template, context, model path); `None` from
    /// any other server.
    pub async fn llama_props(&self) -> Option<serde_json::Value> {
        self.props().await.ok().flatten()
    }

    /// `GET /props`: `Ok(Some(props))` from llama.cpp, `Ok(None)` from a server that
    /// answered and is not llama.cpp, `Err` when the server could not tell (unreachable,
    /// or still loading its model: a passing error).
    async fn props(&self) -> Result<Option<serde_json::Value>, LlmError> {
        let url = format!("{}/props", self.root());
        let builder = self.endpoint.authorize(self.http.get(&url));
        let response = match self.endpoint.send(&url, builder).await {
            Ok(response) => response,
            Err(e) if e.is_transient() => return Err(e),
            Err(_) => return Ok(None),
        };
        let body = self.endpoint.body(&url, response, MAX_BODY).await?;
        Ok(serde_json::from_slice::<serde_json::Value>(&body)
            .ok()
            .filter(|v| {
                v.get("chat_template").is_some() && v.get("default_generation_settings").is_some()
            }))
    }

    /// llama.cpp's context size per slot (`/props`: `default_generation_settings.n_ctx`);
    /// `None` from any other server, or when it could not tell now.
    pub async fn llama_context_size(&self) -> Option<u32> {
        let props = self.llama_props().await?;
        props["default_generation_settings"]["n_ctx"]
            .as_u64()
            .and_then(|n| u32::try_from(n).ok())
            .filter(|&n| n > 0)
    }

    /// How many tokens `text` is for the served model: llama.cpp's `POST /tokenize`
    /// (`{"content"}` → `{"tokens": [...]}`, no special tokens added). `Ok(None)` from a
    /// server that answered and does not tokenize (the caller estimates,
    /// [`crate::tokens::estimate`]); `Err` when the server could not be asked.
    pub async fn tokenize(&self, text: &str) -> Result<Option<usize>, LlmError> {
        let url = format!("{}/tokenize", self.root());
        let body = serde_json::json!({ "content": text, "add_special": false });
        let builder = self.endpoint.authorize(self.http.post(&url).json(&body));
        let response = match self.endpoint.send(&url, builder).await {
            Ok(response) => response,
            Err(LlmError::Status { .. } | LlmError::Unauthorized { .. }) => return Ok(None),
            Err(e) => return Err(e),
        };
        let body = self.endpoint.body(&url, response, MAX_BODY).await?;
        Ok(serde_json::from_slice::<serde_json::Value>(&body)
            .ok()
            .and_then(|v| v["tokens"].as_array().map(Vec::len)))
    }

    /// Whether the server is llama.cpp's `llama-server`, which constrains decoding to a
    /// JSON Schema; `None` when it could not tell now (unreachable or still loading), so
    /// a caller that remembers the answer asks again later.
    pub async fn is_llama_cpp(&self) -> Option<bool> {
        match self.props().await {
            Ok(props) => Some(props.is_some()),
            Err(_) => None,
        }
    }

    /// Saves (`save`) or restores (`restore`) llama.cpp slot 0's prompt cache to or from
    /// a file in the server's `--slot-save-path`; `Ok(false)` when the server refused
    /// (no such file, or saving not enabled).
    pub async fn llama_slot(&self, action: &str, filename: &str) -> Result<bool, LlmError> {
        let url = format!("{}/slots/0?action={action}", self.root());
        let body = serde_json::json!({ "filename": filename });
        let builder = self.endpoint.authorize(self.http.post(&url).json(&body));
        match self.endpoint.send(&url, builder).await {
            Ok(response) => {
                self.endpoint.body(&url, response, MAX_BODY).await?;
                Ok(true)
            }
            Err(LlmError::Status { .. }) => Ok(false),
            Err(e) => Err(e),
        }
    }

    /// The model names the server serves (`GET /models`).
    pub async fn models(&self) -> Result<Vec<String>, LlmError> {
        let url = self.endpoint.url("/models");
        let builder = self.endpoint.authorize(self.http.get(&url));
        let response = self.endpoint.send(&url, builder).await?;
        let body = self.endpoint.body(&url, response, MAX_BODY).await?;
        let value: serde_json::Value =
            serde_json::from_slice(&body).map_err(|e| LlmError::Decode {
                url: url.clone(),
                reason: e.to_string(),
            })?;
        Ok(value["data"]
            .as_array()
            .map(|models| {
                models
                    .iter()
                    .filter_map(|m| m["id"].as_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default())
    }
}

/// Parses a non-streamed answer.
pub fn parse_completion(url: &str, body: &[u8]) -> Result<Reply, LlmError> {
    let decode = |reason: String| LlmError::Decode {
        url: url.to_string(),
        reason,
    };
    let value: serde_json::Value =
        serde_json::from_slice(body).map_err(|e| decode(format!("not JSON: {e}")))?;
    if let Some(error) = value.get("error") {
        return Err(decode(format!("the server reported an error: {error}")));
    }
    let parsed: CompletionResponse =
        serde_json::from_value(value).map_err(|e| decode(e.to_string()))?;
    let choice = parsed
        .choices
        .into_iter()
        .next()
        .ok_or_else(|| decode("no choices in the answer".into()))?;
    let mut tool_calls = choice.message.tool_calls.unwrap_or_default();
    for (i, call) in tool_calls.iter_mut().enumerate() {
        if call.id.is_empty() {
            call.id = format!("call_{i}");
        }
    }
    Ok(Reply {
        content: choice.message.content.unwrap_or_default(),
        tool_calls,
        finish_reason: choice.finish_reason,
        usage: parsed.usage,
        timings: parsed.timings,
        model: parsed.model,
        chunks: 1,
    })
}

/// The state of one stream: text so far, call fragments, how it ended.
#[derive(Debug, Default)]
pub struct StreamState {
    content: String,
    calls: ToolCallAssembler,
    started: std::collections::BTreeSet<usize>,
    finish_reason: Option<String>,
    usage: Option<Usage>,
    timings: Option<Timings>,
    model: Option<String>,
    chunks: usize,
    /// `[DONE]` arrived.
    pub done: bool,
}

impl StreamState {
    /// Takes one event's data.
    pub fn event(
        &mut self,
        url: &str,
        name: Option<&str>,
        data: &str,
        on_event: &mut (dyn FnMut(StreamEvent) + Send),
    ) -> Result<(), LlmError> {
        let data = data.trim();
        if data == "[DONE]" {
            self.done = true;
            return Ok(());
        }
        if data.is_empty() {
            return Ok(());
        }
        let decode = |reason: String| LlmError::Decode {
            url: url.to_string(),
            reason,
        };
        let value: serde_json::Value = serde_json::from_str(data)
            .map_err(|e| decode(format!("a stream chunk is not JSON ({e}): {data:.200}")))?;
        if name == Some("error") || value.get("error").is_some() {
            let error = value.get("error").unwrap_or(&value);
            return Err(decode(format!("the server reported an error: {error}")));
        }
        let chunk: StreamChunk =
            serde_json::from_value(value).map_err(|e| decode(e.to_string()))?;
        self.chunks += 1;
        if chunk.usage.is_some() {
            self.usage = chunk.usage;
        }
        if chunk.timings.is_some() {
            self.timings = chunk.timings;
        }
        if chunk.model.is_some() {
            self.model = chunk.model;
        }
        for choice in chunk.choices {
            if let Some(text) = choice.delta.content.filter(|t| !t.is_empty()) {
                self.content.push_str(&text);
                on_event(StreamEvent::Token(text));
            }
            if let Some(fragments) = choice.delta.tool_calls {
                self.calls.push(&fragments);
                for fragment in &fragments {
                    let name = fragment.function.as_ref().and_then(|f| f.name.clone());
                    if let (Some(index), Some(name)) = (fragment.index.or(Some(0)), name)
                        && !name.is_empty()
                        && self.started.insert(index)
                    {
                        on_event(StreamEvent::ToolCallStarted { index, name });
                    }
                }
            }
            if choice.finish_reason.is_some() {
                self.finish_reason = choice.finish_reason;
            }
        }
        Ok(())
    }

    /// The reply as received.
    pub fn finish(self) -> Reply {
        Reply {
            content: self.content,
            tool_calls: self.calls.finish(),
            finish_reason: self.finish_reason,
            usage: self.usage,
            timings: self.timings,
            model: self.model,
            chunks: self.chunks,
        }
    }
}
