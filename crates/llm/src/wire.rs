//! The OpenAI chat-completions wire format: what is sent and what comes back.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// A chat message.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Message {
    /// `system`, `user`, `assistant` or `tool`.
    pub role: String,
    /// The text (absent on an assistant message that only calls tools).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content: Option<String>,
    /// The calls an assistant message makes.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tool_calls: Vec<ToolCall>,
    /// On a `tool` message: the call it answers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_call_id: Option<String>,
}

impl Message {
    /// A message with text.
    pub fn new(role: &str, content: impl Into<String>) -> Self {
        Self {
            role: role.to_string(),
            content: Some(content.into()),
            tool_calls: Vec::new(),
            tool_call_id: None,
        }
    }

    /// A system message.
    pub fn system(content: impl Into<String>) -> Self {
        Self::new("system", content)
    }

    /// A user message.
    pub fn user(content: impl Into<String>) -> Self {
        Self::new("user", content)
    }

    /// An assistant message with text and calls.
    pub fn assistant(content: Option<String>, tool_calls: Vec<ToolCall>) -> Self {
        Self {
            role: "assistant".into(),
            content,
            tool_calls,
            tool_call_id: None,
        }
    }

    /// A tool result for a call.
    pub fn tool(call_id: impl Into<String>, content: impl Into<String>) -> Self {
        Self {
            role: "tool".into(),
            content: Some(content.into()),
            tool_calls: Vec::new(),
            tool_call_id: Some(call_id.into()),
        }
    }
}

/// A tool call as the wire carries it: arguments are JSON text.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolCall {
    /// The call's id.
    #[serde(default)]
    pub id: String,
    /// Always `function`.
    #[serde(rename = "type", default = "function_type")]
    pub kind: String,
    /// The function and its arguments.
    pub function: FunctionCall,
}

fn function_type() -> String {
    "function".into()
}

/// The called function.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FunctionCall {
    /// The tool name as the model wrote it.
    pub name: String,
    /// The arguments as the model wrote them (JSON text, possibly broken).
    #[serde(default)]
    pub arguments: String,
}

/// A tool offered to the model.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolDef {
    /// Always `function`.
    #[serde(rename = "type")]
    pub kind: String,
    /// Name, description, parameters.
    pub function: FunctionDef,
}

/// A function offered to the model.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FunctionDef {
    /// The tool id.
    pub name: String,
    /// What it does and when to use it.
    pub description: String,
    /// JSON Schema of the arguments.
    pub parameters: Value,
}

impl ToolDef {
    /// A function tool.
    pub fn function(name: &str, description: &str, parameters: Value) -> Self {
        Self {
            kind: "function".into(),
            function: FunctionDef {
                name: name.into(),
                description: description.into(),
                parameters,
            },
        }
    }

    /// The schema's top-level `properties`, to change one parameter's schema (the agent
    /// narrows what a grammar admits for it); `None` when the schema has none.
    pub fn properties_mut(&mut self) -> Option<&mut serde_json::Map<String, Value>> {
        self.function
            .parameters
            .get_mut("properties")
            .and_then(Value::as_object_mut)
    }
}

/// A chat-completions request.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ChatRequest {
    /// The model name the server knows.
    pub model: String,
    /// The conversation.
    pub messages: Vec<Message>,
    /// Tools the model may call.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub tools: Vec<ToolDef>,
    /// `"auto"`, `"none"`, `"required"` or a specific function.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tool_choice: Option<Value>,
    /// Sampling temperature.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub temperature: Option<f64>,
    /// Nucleus sampling.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub top_p: Option<f64>,
    /// Most tokens to generate.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_tokens: Option<u32>,
    /// Server-sent events when true.
    pub stream: bool,
    /// A constraint on the reply's form (`{"type": "json_schema", …}`), for servers that
    /// support it; see [`crate::envelope`].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub response_format: Option<Value>,
    /// A GBNF grammar the reply must follow (llama.cpp's extension; takes the place of
    /// `response_format` there); see [`crate::grammar`].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub grammar: Option<String>,
}

impl ChatRequest {
    /// A request for a model with messages and no tools.
    pub fn new(model: impl Into<String>, messages: Vec<Message>) -> Self {
        Self {
            model: model.into(),
            messages,
            tools: Vec::new(),
            tool_choice: None,
            temperature: None,
            top_p: None,
            max_tokens: None,
            stream: false,
            response_format: None,
            grammar: None,
        }
    }
}

/// Token counts.
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema))]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Usage {
    /// Prompt tokens.
    #[serde(default)]
    pub prompt_tokens: u64,
    /// Generated tokens.
    #[serde(default)]
    pub completion_tokens: u64,
    /// Both.
    #[serde(default)]
    pub total_tokens: u64,
}

/// llama.cpp's own counts: how much of the prompt was evaluated rather than reused.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct Timings {
    /// Prompt tokens evaluated in this request (the rest came from the cache).
    #[serde(default)]
    pub prompt_n: u64,
    /// Prompt tokens reused from the cache.
    #[serde(default)]
    pub cache_n: u64,
    /// Milliseconds spent on the prompt.
    #[serde(default)]
    pub prompt_ms: f64,
    /// Tokens generated.
    #[serde(default)]
    pub predicted_n: u64,
    /// Milliseconds spent generating.
    #[serde(default)]
    pub predicted_ms: f64,
}

/// A response as a whole or one streamed chunk of it (only what is used): the two differ
/// only in their choices.
#[derive(Debug, Clone, Deserialize)]
pub(crate) struct Answer<C> {
    #[serde(default = "Vec::new")]
    pub choices: Vec<C>,
    #[serde(default)]
    pub usage: Option<Usage>,
    #[serde(default)]
    pub timings: Option<Timings>,
    #[serde(default)]
    pub model: Option<String>,
}

/// A non-streaming response.
pub(crate) type CompletionResponse = Answer<Choice>;

/// One streamed chunk.
pub(crate) type StreamChunk = Answer<StreamChoice>;

#[derive(Debug, Clone, Deserialize)]
pub(crate) struct Choice {
    pub message: ResponseMessage,
    #[serde(default)]
    pub finish_reason: Option<String>,
}

#[derive(Debug, Clone, Deserialize)]
pub(crate) struct ResponseMessage {
    #[serde(default)]
    pub content: Option<String>,
    #[serde(default)]
    pub tool_calls: Option<Vec<ToolCall>>,
}

#[derive(Debug, Clone, Deserialize)]
pub(crate) struct StreamChoice {
    #[serde(default)]
    pub delta: Delta,
    #[serde(default)]
    pub finish_reason: Option<String>,
}

#[derive(Debug, Clone, Default, Deserialize)]
pub(crate) struct Delta {
    #[serde(default)]
    pub content: Option<String>,
    #[serde(default)]
    pub tool_calls: Option<Vec<ToolCallDelta>>,
}

/// A fragment of a streamed tool call.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
pub struct ToolCallDelta {
    /// Which call (several may stream at once); absent on some servers.
    #[serde(default)]
    pub index: Option<usize>,
    /// The call's id, usually only in the first fragment.
    #[serde(default)]
    pub id: Option<String>,
    /// Name and argument fragments.
    #[serde(default)]
    pub function: Option<FunctionDelta>,
}

/// Name and argument fragments.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
pub struct FunctionDelta {
    /// The name, or a piece of it.
    #[serde(default)]
    pub name: Option<String>,
    /// A piece of the arguments' JSON text.
    #[serde(default)]
    pub arguments: Option<String>,
}
