//! Can a model drive tools at all? One canned request, sent the way a chat turn sends it,
//! and its answer judged by the guard without running anything. The caller (the
//! autotest) names the request, the tool that should answer it and the one beside it.

use std::time::Instant;

use deskmate_core::guard::Guard;
use deskmate_core::{Localized, said};
use deskmate_llm::ChatClient;
use deskmate_llm::wire::ToolDef;
use deskmate_store::models::LlmModel;

use crate::agent::Agent;
use crate::protocol::Protocol;
use crate::{prompt, read, request};

/// The canned request of a probe: a message, the tool that should answer it, and a
/// harmless read-only tool offered beside it (a model that calls it cannot drive tools).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ProbeRequest<'a> {
    /// What the person says: something the model cannot be trusted to answer itself.
    pub message: &'a str,
    /// The tool a valid call must name.
    pub expected: &'a str,
    /// The tool offered beside it.
    pub beside: &'a str,
}

/// What the canned request showed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolCallingProbe {
    /// The model made a valid call to the expected tool.
    pub passed: bool,
    /// What the model did, in a sentence, in both languages.
    pub message: Localized,
}

impl ToolCallingProbe {
    fn failed(message: Localized) -> Self {
        Self {
            passed: false,
            message,
        }
    }
}

impl Agent {
    /// Whether the model server constrains decoding (probed once per base URL).
    pub(crate) async fn constrains(&self, client: &ChatClient) -> bool {
        let base = client.endpoint().base().to_string();
        if let Some(&known) = self
            .constrains
            .read()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .get(&base)
        {
            return known;
        }
        // A server that could not tell now (still loading its model) is asked again at
        // the next turn instead of being taken for another kind until restart.
        let Some(found) = client.is_llama_cpp().await else {
            return false;
        };
        self.constrains
            .write()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .insert(base, found);
        found
    }

    /// Sends the canned `probe` request with its two tools offered and says what the
    /// model did: a valid call of the expected tool passes; an answer in text, another or
    /// an unknown tool, arguments the guard rejects, or a failing server do not.
    pub async fn probe_tool_calling(
        &self,
        client: &ChatClient,
        model: &LlmModel,
        probe: ProbeRequest<'_>,
    ) -> ToolCallingProbe {
        let ProbeRequest {
            message: request,
            expected,
            beside,
        } = probe;
        let registry = self.deskmate.registry();
        let specs: Vec<_> = [expected, beside]
            .iter()
            .filter_map(|id| registry.guard().spec(id).cloned())
            .collect();
        let tools: Vec<ToolDef> = specs
            .iter()
            .map(|s| ToolDef::function(&s.id, &s.description, s.parameters_for_model()))
            .collect();
        let guard = match Guard::new(specs) {
            Ok(guard) => guard,
            Err(e) => return ToolCallingProbe::failed(e.to_string().into()),
        };
        let protocol = if self.constrains(client).await {
            Protocol::Constrained
        } else {
            Protocol::Native
        };
        let examples = self.examples(&tools);
        let messages = vec![
            deskmate_llm::wire::Message::system(prompt::system_prompt(
                protocol, &tools, &tools, &examples,
            )),
            deskmate_llm::wire::Message::user(request),
        ];
        let mut chat = request::request(
            protocol,
            &model.model,
            &messages,
            &tools,
            &request::Followup::new(deskmate_service::language::Language::of(request, None)),
            &std::collections::HashMap::new(),
            None,
        );
        chat.temperature = Some(model.temperature);
        chat.top_p = Some(model.top_p);
        chat.max_tokens = Some(256);
        let started = Instant::now();
        let reply = match client.complete(&chat, &mut |_| {}).await {
            Ok(reply) => reply,
            Err(e) => {
                return ToolCallingProbe::failed(said!(
                    "模型服务出错：“{e}”",
                    "the model server failed: {e}"
                ));
            }
        };
        let ms = started.elapsed().as_millis();
        let read = read::read(protocol, reply);
        let how = match (protocol, &read.extracted) {
            (Protocol::Constrained, _) => said!("受约束的 JSON", "constrained JSON"),
            (Protocol::Native, Some(found)) => {
                let kind = found.kind.as_str();
                said!("写在文本中（{kind}）", "written in text ({kind})")
            }
            (Protocol::Native, None) => said!("结构化的 tool_calls", "structured tool_calls"),
        };
        let Some(call) = read.calls.first() else {
            let text: String = read.text.chars().take(120).collect();
            return ToolCallingProbe::failed(said!(
                "问“{request}”并提供 {expected} 时，模型用文本回答而没有调用工具：“{text}”——它无法驱动 Deskmate 的工具",
                "asked \"{request}\" with {expected} offered, the model answered in text instead of \
                 calling a tool: \"{text}\" — it cannot drive Deskmate's tools"
            ));
        };
        let arguments = serde_json::Value::String(call.function.arguments.clone());
        let (name, sent) = (&call.function.name, &call.function.arguments);
        match guard.prepare(name, arguments) {
            Err(rejection) => {
                let why = rejection.error.message;
                ToolCallingProbe::failed(said!(
                    "问“{request}”时，模型调用了 {name}({sent})，但被守卫拒绝：“{why}”",
                    "asked \"{request}\", the model called {name}({sent}) but the guard rejects it: {why}"
                ))
            }
            Ok(prepared) if prepared.tool != expected => {
                let called = &prepared.tool;
                ToolCallingProbe::failed(said!(
                    "问“{request}”时，模型调用了 {called}，而不是 {expected}",
                    "asked \"{request}\", the model called {called} instead of {expected}"
                ))
            }
            Ok(prepared) => {
                let repairs = prepared.repairs.len();
                let repaired = if repairs == 0 {
                    Localized::same("")
                } else {
                    said!(
                        "，守卫做了 {repairs} 处修正",
                        ", {repairs} repairs by the guard"
                    )
                };
                let arguments = &prepared.arguments;
                ToolCallingProbe {
                    passed: true,
                    message: Localized::new(
                        format!(
                            "问“{request}”时，模型在 {ms} 毫秒内调用了 {expected}({arguments})（{}{}）",
                            how.zh, repaired.zh
                        ),
                        format!(
                            "asked \"{request}\", the model called {expected}({arguments}) in {ms} ms ({}{})",
                            how.en, repaired.en
                        ),
                    ),
                }
            }
        }
    }
}
