//! Test support for Deskmate's model clients and agent loop.
//!
//! [`ScriptedServer`] is a real HTTP server on loopback that speaks the OpenAI wire
//! format: each `POST /v1/chat/completions` takes the next [`Script`] from a queue (a
//! JSON answer, an SSE body cut into chunks wherever the test says, an error status, a
//! stall, a stream that stops early), records the request body, and `GET /v1/models`
//! lists the configured model names. Recorded real answers live in `testdata/llm/`.
//! Started as llama.cpp ([`ScriptedServer::start_llama_cpp`]) it also answers `GET /props`
//! (with a context size the test sets) and `POST /tokenize` (with [`scripted_tokens`]).

pub mod desktop;
pub mod judging;
pub mod keyring;
pub mod pulse;
pub mod webdriver;

use std::collections::VecDeque;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde_json::{Value, json};

/// How an SSE body is cut into the chunks the server writes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Split {
    /// One write.
    Whole,
    /// Cut at these byte offsets.
    At(Vec<usize>),
    /// Every byte its own write.
    EveryByte,
}

/// One scripted answer.
#[derive(Debug, Clone)]
pub enum Script {
    /// 200 with this JSON body.
    Json(Value),
    /// 200 `text/event-stream` with this body, cut as given, `pause` between writes.
    Sse {
        /// The whole body.
        body: Vec<u8>,
        /// Where it is cut.
        split: Split,
        /// Pause between writes.
        pause: Duration,
    },
    /// This status and body.
    Status(u16, String),
    /// Headers never come (the server holds the request).
    Stall,
    /// 200 `text/event-stream`, these bytes, then silence forever (no end).
    SseThenStall(Vec<u8>),
}

impl Script {
    /// An SSE body written whole.
    pub fn sse(body: impl Into<Vec<u8>>) -> Self {
        Self::Sse {
            body: body.into(),
            split: Split::Whole,
            pause: Duration::ZERO,
        }
    }

    /// An SSE body cut as given.
    pub fn sse_split(body: impl Into<Vec<u8>>, split: Split) -> Self {
        Self::Sse {
            body: body.into(),
            split,
            pause: Duration::ZERO,
        }
    }
}

/// Answers a chat request from its JSON body.
type Responder = Arc<dyn Fn(&Value) -> Script + Send + Sync>;

#[derive(Default)]
struct Shared {
    chat: VecDeque<Script>,
    transcriptions: VecDeque<Script>,
    requests: Vec<Value>,
    headers: Vec<HeaderMap>,
    models: Vec<String>,
    /// Answer every further chat request with the last script.
    repeat_last: Option<Script>,
    /// Answers a chat request from its body when no script is queued.
    responder: Option<Responder>,
    /// Answer `GET /props` as llama.cpp's server does.
    llama_cpp: bool,
    /// Answer `GET /props` with 503, as llama.cpp does while it loads its model.
    loading: bool,
    /// The context size `GET /props` answers.
    n_ctx: u32,
    /// `POST /tokenize` requests received.
    tokenized: usize,
    /// `GET /props` requests received.
    probed: usize,
    /// What the latest reply served said (the default judgement agrees with it).
    said: judging::Said,
    /// Answers judgement questions instead of agreeing with the latest reply.
    judge: Option<Responder>,
    /// The judgement questions received (not among [`ScriptedServer::requests`]).
    judgements: Vec<Value>,
}

/// A scripted OpenAI-compatible server on 127.0.0.1.
#[derive(Clone)]
pub struct ScriptedServer {
    addr: SocketAddr,
    shared: Arc<Mutex<Shared>>,
}

impl std::fmt::Debug for ScriptedServer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ScriptedServer")
            .field("addr", &self.addr)
            .finish()
    }
}

impl ScriptedServer {
    /// Starts a server serving these model names; it runs until the runtime ends.
    pub async fn start(models: &[&str]) -> Self {
        Self::start_as(models, false).await
    }

    /// Starts a server that also answers `GET /props` as llama.cpp's `llama-server` does,
    /// so clients take it for a server that constrains decoding to a JSON Schema.
    pub async fn start_llama_cpp(models: &[&str]) -> Self {
        Self::start_as(models, true).await
    }

    async fn start_as(models: &[&str], llama_cpp: bool) -> Self {
        let shared = Arc::new(Mutex::new(Shared {
            models: models.iter().map(|m| (*m).to_string()).collect(),
            llama_cpp,
            n_ctx: 8192,
            ..Shared::default()
        }));
        let app = Router::new()
            .route("/props", get(props))
            .route("/tokenize", post(tokenize))
            .route("/v1/chat/completions", post(chat))
            .route("/v1/models", get(list_models))
            .route("/v1/audio/transcriptions", post(transcribe))
            .with_state(shared.clone());
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .unwrap_or_else(|e| panic!("bind: {e}"));
        let addr = listener
            .local_addr()
            .unwrap_or_else(|e| panic!("addr: {e}"));
        tokio::spawn(async move {
            let _ = axum::serve(listener, app).await;
        });
        Self { addr, shared }
    }

    /// The OpenAI-style base URL (`http://127.0.0.1:PORT/v1`).
    pub fn base_url(&self) -> String {
        format!("http://{}/v1", self.addr)
    }

    /// Queues the answer to the next chat request.
    pub fn push(&self, script: Script) -> &Self {
        self.lock().chat.push_back(script);
        self
    }

    /// Answers every chat request after the queued ones from its body (a model that reads
    /// what it is sent); takes precedence over [`ScriptedServer::repeat`].
    pub fn respond_with(
        &self,
        responder: impl Fn(&Value) -> Script + Send + Sync + 'static,
    ) -> &Self {
        self.lock().responder = Some(Arc::new(responder));
        self
    }

    /// Answers the agent's judgement questions ([`judging`]) from their body instead of
    /// agreeing with the latest reply served.
    pub fn judge_with(&self, judge: impl Fn(&Value) -> Script + Send + Sync + 'static) -> &Self {
        self.lock().judge = Some(Arc::new(judge));
        self
    }

    /// The judgement questions received so far ([`judging`]), in order.
    pub fn judgements(&self) -> Vec<Value> {
        self.lock().judgements.clone()
    }

    /// Answers every chat request after the queued ones with this script.
    pub fn repeat(&self, script: Script) -> &Self {
        self.lock().repeat_last = Some(script);
        self
    }

    /// Whether `GET /props` answers 503 "Loading model", as llama.cpp's server does
    /// before its model is loaded.
    pub fn set_loading(&self, loading: bool) -> &Self {
        self.lock().loading = loading;
        self
    }

    /// The context size `GET /props` answers (8192 unless set).
    pub fn set_n_ctx(&self, n_ctx: u32) -> &Self {
        self.lock().n_ctx = n_ctx;
        self
    }

    /// How many `POST /tokenize` requests were received.
    pub fn tokenized(&self) -> usize {
        self.lock().tokenized
    }

    /// How many `GET /props` requests it received.
    pub fn probed(&self) -> usize {
        self.lock().probed
    }

    /// Queues the answer to the next transcription request.
    pub fn push_transcription(&self, script: Script) -> &Self {
        self.lock().transcriptions.push_back(script);
        self
    }

    /// The JSON bodies of the chat requests received so far.
    pub fn requests(&self) -> Vec<Value> {
        self.lock().requests.clone()
    }

    /// The headers of the requests received so far.
    pub fn headers(&self) -> Vec<HeaderMap> {
        self.lock().headers.clone()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Shared> {
        self.shared
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

type SharedState = Arc<Mutex<Shared>>;

fn lock(shared: &SharedState) -> std::sync::MutexGuard<'_, Shared> {
    shared
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

async fn chat(State(shared): State<SharedState>, headers: HeaderMap, body: Bytes) -> Response {
    let script = {
        let mut s = lock(&shared);
        let request: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
        if judging::is_judgement(&request) {
            let script = match &s.judge {
                Some(judge) => judge(&request),
                None => s.said.judge(&request),
            };
            s.judgements.push(request);
            Some(script)
        } else {
            s.headers.push(headers);
            let script = s
                .chat
                .pop_front()
                .or_else(|| s.responder.as_ref().map(|respond| respond(&request)))
                .or_else(|| s.repeat_last.clone());
            s.requests.push(request);
            if let Some(script) = &script {
                s.said = judging::Said::of(script);
            }
            script
        }
    };
    match script {
        Some(script) => play(script).await,
        None => (
            StatusCode::INTERNAL_SERVER_ERROR,
            "the test scripted no more answers",
        )
            .into_response(),
    }
}

async fn transcribe(
    State(shared): State<SharedState>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let script = {
        let mut s = lock(&shared);
        s.requests.push(json!({"multipart_bytes": body.len()}));
        s.headers.push(headers);
        s.transcriptions.pop_front()
    };
    match script {
        Some(script) => play(script).await,
        None => (
            StatusCode::INTERNAL_SERVER_ERROR,
            "no transcription scripted",
        )
            .into_response(),
    }
}

async fn list_models(State(shared): State<SharedState>) -> Response {
    let models = lock(&shared).models.clone();
    let data: Vec<Value> = models
        .iter()
        .map(|m| json!({"id": m, "object": "model", "owned_by": "testkit"}))
        .collect();
    axum::Json(json!({"object": "list", "data": data})).into_response()
}

async fn play(script: Script) -> Response {
    match script {
        Script::Json(value) => axum::Json(value).into_response(),
        Script::Status(status, body) => (
            StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR),
            body,
        )
            .into_response(),
        Script::Stall => {
            tokio::time::sleep(Duration::from_secs(3600)).await;
            StatusCode::GATEWAY_TIMEOUT.into_response()
        }
        Script::SseThenStall(bytes) => {
            let first = futures_util::stream::once(async move {
                Ok::<_, std::convert::Infallible>(Bytes::from(bytes))
            });
            let never = futures_util::stream::pending();
            event_stream(Body::from_stream(futures_util::StreamExt::chain(
                first, never,
            )))
        }
        Script::Sse { body, split, pause } => {
            let chunks = cut(&body, &split);
            let stream = futures_util::stream::unfold(
                (chunks.into_iter(), true),
                move |(mut rest, first)| async move {
                    let chunk = rest.next()?;
                    if !first && !pause.is_zero() {
                        tokio::time::sleep(pause).await;
                    }
                    Some((
                        Ok::<_, std::convert::Infallible>(Bytes::from(chunk)),
                        (rest, false),
                    ))
                },
            );
            event_stream(Body::from_stream(stream))
        }
    }
}

fn event_stream(body: Body) -> Response {
    Response::builder()
        .header(header::CONTENT_TYPE, "text/event-stream")
        .header(header::CACHE_CONTROL, "no-cache")
        .body(body)
        .unwrap_or_else(|_| StatusCode::INTERNAL_SERVER_ERROR.into_response())
}

/// `GET /props`: llama.cpp's server properties, or 404 for a plain OpenAI server.
async fn props(State(shared): State<Arc<Mutex<Shared>>>) -> Response {
    let (llama_cpp, loading, n_ctx) = shared
        .lock()
        .map(|mut s| {
            s.probed += 1;
            (s.llama_cpp, s.loading, s.n_ctx)
        })
        .unwrap_or_default();
    if loading {
        (StatusCode::SERVICE_UNAVAILABLE, "Loading model").into_response()
    } else if llama_cpp {
        axum::Json(serde_json::json!({
            "chat_template": "{{ messages }}",
            "default_generation_settings": {"n_ctx": n_ctx},
            "total_slots": 1,
        }))
        .into_response()
    } else {
        StatusCode::NOT_FOUND.into_response()
    }
}

/// `POST /tokenize` (llama.cpp's, a llama.cpp server only): `{"content"}` →
/// `{"tokens": [...]}`, as many as [`scripted_tokens`] counts.
async fn tokenize(State(shared): State<SharedState>, body: Bytes) -> Response {
    let llama_cpp = {
        let mut s = lock(&shared);
        s.tokenized += 1;
        s.llama_cpp
    };
    if !llama_cpp {
        return StatusCode::NOT_FOUND.into_response();
    }
    let request: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
    let Some(content) = request["content"].as_str() else {
        return (StatusCode::BAD_REQUEST, "content is required").into_response();
    };
    let tokens: Vec<usize> = (0..scripted_tokens(content)).collect();
    axum::Json(json!({ "tokens": tokens })).into_response()
}

/// The scripted server's tokenizer: a run of letters and digits is one token per four
/// characters (rounded up), a CJK character is one, any other character but a space is
/// one; spaces are free. Tests count what a request holds with it.
pub fn scripted_tokens(text: &str) -> usize {
    let mut count = 0;
    let mut run = 0usize;
    for c in text.chars() {
        if c.is_alphanumeric() && (c.is_ascii() || !is_wide(c)) {
            run += 1;
            continue;
        }
        count += run.div_ceil(4);
        run = 0;
        if !c.is_whitespace() {
            count += 1;
        }
    }
    count + run.div_ceil(4)
}

/// A CJK character (counted as a token of its own).
fn is_wide(c: char) -> bool {
    matches!(u32::from(c), 0x3040..=0x30FF | 0x3400..=0x9FFF | 0xAC00..=0xD7AF | 0xF900..=0xFAFF | 0x20000..=0x3FFFF)
}

/// Cuts a body at the given offsets (out-of-range offsets are ignored).
pub fn cut(body: &[u8], split: &Split) -> Vec<Vec<u8>> {
    match split {
        Split::Whole => vec![body.to_vec()],
        Split::EveryByte => body.iter().map(|b| vec![*b]).collect(),
        Split::At(offsets) => {
            let mut points: Vec<usize> = offsets
                .iter()
                .copied()
                .filter(|&o| o > 0 && o < body.len())
                .collect();
            points.sort_unstable();
            points.dedup();
            let mut chunks = Vec::new();
            let mut start = 0;
            for point in points {
                chunks.push(body[start..point].to_vec());
                start = point;
            }
            chunks.push(body[start..].to_vec());
            chunks
        }
    }
}

/// A recorded model answer from `testdata/llm/` (the repository's test data).
pub fn recorded(name: &str) -> Vec<u8> {
    let path = PathBuf::from(
        &std::env::var("CARGO_MANIFEST_DIR")
            .unwrap_or_else(|_| env!("CARGO_MANIFEST_DIR").to_string()),
    )
    .join("../../testdata/llm")
    .join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// An SSE body from chunk objects (each `data: {json}\n\n`), ending with `[DONE]`.
pub fn sse_body(chunks: &[Value]) -> Vec<u8> {
    let mut body = String::new();
    for chunk in chunks {
        body.push_str("data: ");
        body.push_str(&chunk.to_string());
        body.push_str("\n\n");
    }
    body.push_str("data: [DONE]\n\n");
    body.into_bytes()
}

/// A non-streamed chat answer with text and calls (`[(name, arguments JSON text)]`).
pub fn completion(content: Option<&str>, calls: &[(&str, &str)]) -> Value {
    let tool_calls: Vec<Value> = calls
        .iter()
        .enumerate()
        .map(|(i, (name, args))| {
            json!({"id": format!("call_{i}"), "type": "function",
                   "function": {"name": name, "arguments": args}})
        })
        .collect();
    let mut message = json!({"role": "assistant", "content": content});
    if !tool_calls.is_empty() {
        message["tool_calls"] = Value::Array(tool_calls);
    }
    json!({
        "id": "chatcmpl-test", "object": "chat.completion", "model": "scripted",
        "choices": [{"index": 0, "message": message,
                     "finish_reason": if calls.is_empty() { "stop" } else { "tool_calls" }}],
        "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}
    })
}
