//! Can a model drive tools at all? One canned request, sent the way a chat turn sends it,
//! and its answer judged by the guard without running anything.

use std::time::Instant;

use deskmate_core::guard::Guard;
use deskmate_llm::ChatClient;
use deskmate_llm::wire::ToolDef;
use deskmate_store::models::LlmModel;

use super::protocol::{self, Protocol};
use crate::Deskmate;

/// The request: arithmetic a model cannot be trusted to do in its head, with a harmless
/// read-only tool beside the right one.
const REQUEST: &str = "What is 1234 times 5678?";
const EXPECTED: &str = "calculator";
const DISTRACTOR: &str = "current_time";

/// What the canned request showed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolCallingProbe {
    /// The model made a valid call to the calculator.
    pub passed: bool,
    /// What the model did, in a sentence.
    pub message: String,
}

impl ToolCallingProbe {
    fn failed(message: String) -> Self {
        Self {
            passed: false,
            message,
        }
    }
}

impl Deskmate {
    /// Sends the canned request with the calculator and current_time offered and says
    /// what the model did: a valid calculator call passes; an answer in text, another or
    /// an unknown tool, arguments the guard rejects, or a failing server do not.
    pub async fn probe_tool_calling(
        &self,
        client: &ChatClient,
        model: &LlmModel,
    ) -> ToolCallingProbe {
        let registry = self.registry();
        let specs: Vec<_> = [EXPECTED, DISTRACTOR]
            .iter()
            .filter_map(|id| registry.guard().spec(id).cloned())
            .collect();
        let tools: Vec<ToolDef> = specs
            .iter()
            .map(|s| ToolDef::function(&s.id, &s.description, s.parameters_for_model()))
            .collect();
        let guard = match Guard::new(specs) {
            Ok(guard) => guard,
            Err(e) => return ToolCallingProbe::failed(e.to_string()),
        };
        let protocol = if self.constrains(client).await {
            Protocol::Constrained
        } else {
            Protocol::Native
        };
        let messages = vec![
            deskmate_llm::wire::Message::system(protocol::system_prompt(protocol, &tools)),
            deskmate_llm::wire::Message::user(REQUEST),
        ];
        let mut request = protocol::request(
            protocol,
            &model.model,
            &messages,
            &tools,
            protocol::Followup::default(),
        );
        request.temperature = Some(model.temperature);
        request.top_p = Some(model.top_p);
        request.max_tokens = Some(256);
        let started = Instant::now();
        let reply = match client.complete(&request, &mut |_| {}).await {
            Ok(reply) => reply,
            Err(e) => return ToolCallingProbe::failed(format!("the model server failed: {e}")),
        };
        let ms = started.elapsed().as_millis();
        let read = protocol::read(protocol, reply);
        let how = match (protocol, &read.extracted) {
            (Protocol::Constrained, _) => "constrained JSON".to_string(),
            (Protocol::Native, Some(found)) => format!("written in text ({})", found.kind.as_str()),
            (Protocol::Native, None) => "structured tool_calls".to_string(),
        };
        let Some(call) = read.calls.first() else {
            let text: String = read.text.chars().take(120).collect();
            return ToolCallingProbe::failed(format!(
                "asked \"{REQUEST}\" with {EXPECTED} offered, the model answered in text instead of \
                 calling a tool: \"{text}\" — it cannot drive Deskmate's tools"
            ));
        };
        let arguments = serde_json::Value::String(call.function.arguments.clone());
        match guard.prepare(&call.function.name, arguments) {
            Err(rejection) => ToolCallingProbe::failed(format!(
                "asked \"{REQUEST}\", the model called {}({}) but the guard rejects it: {}",
                call.function.name, call.function.arguments, rejection.error.message
            )),
            Ok(prepared) if prepared.tool != EXPECTED => ToolCallingProbe::failed(format!(
                "asked \"{REQUEST}\", the model called {} instead of {EXPECTED}",
                prepared.tool
            )),
            Ok(prepared) => {
                let repaired = if prepared.repairs.is_empty() {
                    String::new()
                } else {
                    format!(", {} repairs by the guard", prepared.repairs.len())
                };
                ToolCallingProbe {
                    passed: true,
                    message: format!(
                        "asked \"{REQUEST}\", the model called {EXPECTED}({}) in {ms} ms ({how}{repaired})",
                        prepared.arguments
                    ),
                }
            }
        }
    }
}
