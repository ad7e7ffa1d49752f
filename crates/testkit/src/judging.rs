//! How the scripted server answers the agent's "does this tool do what this part asks?"
//! questions (a system message, then one `Request: <part>` / `Tool <name>: …` message,
//! with the answer held to `yes` or `no`): from what the test's own scripted reply said, so
//! a test scripts its turns alone and the judgement agrees with the model it scripted —
//! `yes` when its reply gave that part to that tool in its `parts` list (or, for a part it
//! did not list, called the tool), else `no`. A test about the judgement itself sets its
//! answers ([`crate::ScriptedServer::judge_with`]).

use serde_json::{Value, json};

use crate::Script;

/// Whether a chat request is a judgement question.
pub(crate) fn is_judgement(request: &Value) -> bool {
    let messages = request["messages"].as_array();
    let asks = messages.is_some_and(|m| {
        m.len() == 2
            && m[0]["role"] == "system"
            && m[1]["content"]
                .as_str()
                .is_some_and(|c| c.starts_with("Request: "))
    });
    let held = request["grammar"]
        .as_str()
        .is_some_and(|g| g.contains("\"yes\"") && g.contains("\"no\""))
        || request["response_format"]["json_schema"]["name"] == "verdict";
    asks && held
}

fn question(request: &Value) -> &str {
    request["messages"][1]["content"]
        .as_str()
        .unwrap_or_default()
}

/// The part a judgement question asks about.
pub fn asked(request: &Value) -> String {
    let text = question(request);
    let text = text.strip_prefix("Request: ").unwrap_or(text);
    text.lines().next().unwrap_or_default().trim().to_string()
}

/// The tool a judgement question asks about.
pub fn tool(request: &Value) -> String {
    question(request)
        .lines()
        .find_map(|l| l.strip_prefix("Tool "))
        .and_then(|l| l.split(':').next())
        .unwrap_or_default()
        .to_string()
}

/// Whether the question says what the person's message before this one was (and that
/// message's words).
pub fn before(request: &Value) -> Option<String> {
    question(request).lines().find_map(|l| {
        l.strip_prefix("(The user's message before it: ")
            .map(|b| b.trim_end_matches(')').to_string())
    })
}

/// A judgement's answer as the non-streamed reply.
pub fn answer(does: bool) -> Script {
    Script::Json(json!({
        "id": "judgement",
        "object": "chat.completion",
        "choices": [{
            "index": 0,
            "message": {"role": "assistant", "content": if does { "yes" } else { "no" }},
            "finish_reason": "stop"
        }]
    }))
}

/// What a scripted reply said: its parts (ask, tool) and the tools it called.
#[derive(Debug, Default, Clone)]
pub(crate) struct Said {
    parts: Vec<(String, String)>,
    called: Vec<String>,
}

impl Said {
    /// Read from a script the server served.
    pub(crate) fn of(script: &Script) -> Self {
        let mut said = Self::default();
        let mut text = String::new();
        match script {
            Script::Json(value) => {
                let message = &value["choices"][0]["message"];
                text.push_str(message["content"].as_str().unwrap_or_default());
                said.native(&message["tool_calls"]);
            }
            Script::Sse { body, .. } => {
                for line in String::from_utf8_lossy(body).lines() {
                    let Some(data) = line.strip_prefix("data:") else {
                        continue;
                    };
                    let Ok(chunk) = serde_json::from_str::<Value>(data.trim()) else {
                        continue;
                    };
                    let delta = &chunk["choices"][0]["delta"];
                    text.push_str(delta["content"].as_str().unwrap_or_default());
                    said.native(&delta["tool_calls"]);
                }
            }
            _ => {}
        }
        // A call written as text (a native model's), wherever it stands.
        said.called.extend(named(&text));
        if let Ok(reply) = serde_json::from_str::<Value>(text.trim()) {
            for part in reply["parts"].as_array().into_iter().flatten() {
                if let (Some(ask), Some(tool)) = (part["ask"].as_str(), part["tool"].as_str()) {
                    said.parts.push((ask.trim().to_string(), tool.to_string()));
                }
            }
        }
        said
    }

    /// The tools a reply's calls name (`"name": "<tool>"`), in order.
    fn native(&mut self, calls: &Value) {
        for call in calls.as_array().into_iter().flatten() {
            if let Some(name) = call["function"]["name"].as_str() {
                self.called.push(name.to_string());
            }
        }
    }

    /// The judgement agreeing with this reply.
    pub(crate) fn judge(&self, request: &Value) -> Script {
        let (ask, tool) = (asked(request), tool(request));
        let listed: Vec<&str> = self
            .parts
            .iter()
            .filter(|(a, _)| *a == ask)
            .map(|(_, t)| t.as_str())
            .collect();
        let does = if listed.is_empty() {
            // A native call names an imported tool as it was offered (`server-tool`, the
            // first dot made a dash, as OpenAI's function-name rule wants); the question
            // names its id (`server.tool`).
            let offered = tool.replacen('.', "-", 1);
            self.called.iter().any(|c| *c == tool || *c == offered)
        } else {
            listed.contains(&tool.as_str())
        };
        answer(does)
    }
}

/// Every `"name": "<x>"` in a text, in order.
fn named(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find("\"name\"") {
        rest = &rest[at + 6..];
        let after = rest.trim_start();
        let Some(after) = after.strip_prefix(':') else {
            continue;
        };
        let Some(after) = after.trim_start().strip_prefix('"') else {
            continue;
        };
        if let Some(end) = after.find('"') {
            out.push(after[..end].to_string());
        }
    }
    out
}
