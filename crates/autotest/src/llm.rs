//! LLM checks: Model Existence, API Connection, Temperature Setting, Streaming Support,
//! Tool Calling.

use std::time::Instant;

use deskmate_agent::{Agent, ProbeRequest};
use deskmate_llm::wire::{ChatRequest, Message, Usage};
use deskmate_llm::{ChatClient, Endpoint, LlmError};
use deskmate_service::{Deskmate, ServiceError};
use deskmate_store::models::LlmModel;
use serde::Serialize;

use deskmate_core::{Localized, said};

use crate::{Group, Limits, not_run};

/// The LLM checks, in the order a run lists them.
pub(crate) const CHECKS: [&str; 5] = [
    "Model Existence",
    "API Connection",
    "Temperature Setting",
    "Streaming Support",
    "Tool Calling",
];

/// The Tool Calling check's canned request: arithmetic a model cannot be trusted to do
/// in its head, with a harmless read-only tool beside the right one.
const TOOL_CALLING: ProbeRequest<'static> = ProbeRequest {
    message: "What is 1234 times 5678?",
    expected: "calculator",
    beside: "current_time",
};

/// A model's answer to a test message (the API contract's shape, plus `error` on failure).
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
pub struct TestMessage {
    /// Whether the model answered.
    pub success: bool,
    /// Its answer.
    pub reply: String,
    /// Token counts, when the server sent them.
    pub usage: Option<Usage>,
    /// What went wrong.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// A sentence that says what failed and what to check.
pub(crate) fn explain(error: &LlmError) -> Localized {
    match error {
        LlmError::Unauthorized { status, url, .. } => said!(
            "{url} 拒绝了 API 密钥（HTTP {status}）：请检查模型的 api_key",
            "{url} refused the API key (HTTP {status}): check the model's api_key"
        ),
        LlmError::Connect { url, reason } => said!(
            "无法连接 {url}：“{reason}”——服务器在这个 base_url 上运行吗？",
            "cannot connect to {url}: {reason} — is the server running at this base_url?"
        ),
        LlmError::Timeout { url, stage, after } => {
            let ms = after.as_millis();
            said!(
                "{url} 在 {ms} 毫秒内没有应答（{stage}）：服务器太慢或卡住了",
                "{url} did not answer within {ms} ms ({stage}): the server is too slow or stuck"
            )
        }
        LlmError::Status { url, status, body } => said!(
            "{url} 返回 HTTP {status}：“{body}”",
            "{url} answered HTTP {status}: {body}"
        ),
        other => Localized::same(other.to_string()),
    }
}

/// A client for the model; a managed model's server that is still starting is waited for.
pub(crate) async fn client(
    deskmate: &Deskmate,
    model: &LlmModel,
    limits: Limits,
) -> Result<ChatClient, Localized> {
    let managed = model.managed.as_deref();
    deskmate
        .wait_managed(&model.id, managed, deskmate_service::MANAGED_START_WAIT)
        .await;
    let base = deskmate.base_url_for(&model.id, &model.base_url, managed);
    Endpoint::new(&base, deskmate.model_api_key(model.api_key_ref.as_deref()))
        .map(|e| e.with_timeouts(limits.connect, limits.response, limits.response))
        .and_then(ChatClient::new)
        .map_err(|e| explain(&e))
}

fn probe(model: &LlmModel, temperature: f64, stream: bool, max_tokens: u32) -> ChatRequest {
    let mut request = ChatRequest::new(
        model.model.clone(),
        vec![Message::user("Reply with one word: ready")],
    );
    request.temperature = Some(temperature);
    request.max_tokens = Some(max_tokens);
    request.stream = stream;
    request
}

pub(crate) async fn check(
    agent: &Agent,
    model_id: Option<&str>,
    limits: Limits,
    checks: &Group<'_, '_>,
) {
    let deskmate = agent.deskmate();
    let found = deskmate.model_record::<deskmate_service::models::LlmModel>(model_id);
    let Some(model) = checks.existence("LLM", model_id, found, |m| m.name.clone()) else {
        return;
    };
    let client = match client(deskmate, &model, limits).await {
        Ok(client) => client,
        Err(why) => {
            for name in &CHECKS[1..] {
                checks.record(name, Instant::now(), Err(why.clone()));
            }
            return;
        }
    };

    let started = Instant::now();
    let connection = match client
        .complete(&probe(&model, 0.0, false, 1), &mut |_| {})
        .await
    {
        Ok(_) => {
            let latency = started.elapsed().as_millis();
            match client.models().await {
                Ok(served) if !served.is_empty() && !served.contains(&model.model) => {
                    let (served, wanted) = (served.join(", "), &model.model);
                    Err(said!(
                        "服务器有应答，但提供的是 {served}，不是“{wanted}”：请改正模型名称",
                        "the server answers but serves {served}, not '{wanted}': fix the model name"
                    ))
                }
                _ => Ok(said!("延迟：{latency} 毫秒", "Latency: {latency}ms")),
            }
        }
        Err(e) => Err(explain(&e)),
    };
    let connected = checks.record("API Connection", started, connection);

    // The remaining checks need only the connection: they run at the same time.
    let temperature = async {
        let started = Instant::now();
        let temperature = model.temperature;
        let outcome = if !(0.0..=2.0).contains(&temperature) {
            Err(said!(
                "temperature={temperature} 超出 0–2 的范围",
                "temperature={temperature} is outside 0–2"
            ))
        } else if !connected {
            Err(not_run("API Connection"))
        } else {
            match client
                .complete(&probe(&model, temperature, false, 1), &mut |_| {})
                .await
            {
                Ok(_) => Ok(Localized::same(format!("temperature={temperature}"))),
                Err(e) => {
                    let why = explain(&e);
                    Err(Localized::new(
                        format!("服务器拒绝了 temperature={temperature}：{}", why.zh),
                        format!("the server refused temperature={temperature}: {}", why.en),
                    ))
                }
            }
        };
        checks.record("Temperature Setting", started, outcome);
    };

    let streaming = async {
        let started = Instant::now();
        let outcome = if !connected {
            Err(not_run("API Connection"))
        } else {
            match client
                .complete(&probe(&model, 0.0, true, 16), &mut |_| {})
                .await
            {
                Ok(reply) if reply.chunks > 0 => {
                    let chunks = reply.chunks;
                    Ok(said!("收到 {chunks} 个数据块", "Received {chunks} chunks"))
                }
                Ok(_) => Err(said!(
                    "流式输出没有任何数据块就结束了",
                    "the stream ended without a chunk"
                )),
                Err(e) => Err(explain(&e)),
            }
        };
        checks.record("Streaming Support", started, outcome);
    };

    // Whether the model can drive tools at all: a canned request, sent as a chat turn
    // sends it, must come back as a valid call to the calculator.
    let calling = async {
        let started = Instant::now();
        let outcome = if connected {
            let probe = agent
                .probe_tool_calling(&client, &model, TOOL_CALLING)
                .await;
            if probe.passed {
                Ok(probe.message)
            } else {
                Err(probe.message)
            }
        } else {
            Err(not_run("API Connection"))
        };
        checks.record("Tool Calling", started, outcome);
    };
    tokio::join!(temperature, streaming, calling);
}

pub(crate) async fn test_message(
    deskmate: &Deskmate,
    model_id: &str,
    message: &str,
    limits: Limits,
) -> Result<TestMessage, ServiceError> {
    let model = deskmate.model_record::<deskmate_service::models::LlmModel>(Some(model_id))?;
    let failed = |error: Localized| TestMessage {
        success: false,
        reply: String::new(),
        usage: None,
        error: Some(error.en),
    };
    let client = match client(deskmate, &model, limits).await {
        Ok(client) => client,
        Err(why) => return Ok(failed(why)),
    };
    let mut request = ChatRequest::new(model.model.clone(), vec![Message::user(message)]);
    request.temperature = Some(model.temperature);
    request.top_p = Some(model.top_p);
    request.max_tokens = u32::try_from(model.max_tokens).ok();
    Ok(match client.complete(&request, &mut |_| {}).await {
        Ok(reply) => TestMessage {
            success: true,
            reply: reply.content,
            usage: reply.usage,
            error: None,
        },
        Err(e) => failed(explain(&e)),
    })
}
