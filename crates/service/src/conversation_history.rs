//! The `conversation_history` tool: what was said earlier in the conversation a call
//! belongs to, by turn number (1 the first, -1 the latest), read from the stored
//! conversation (the branch it shows). A long conversation's oldest turns
//! are folded out of the model's context into a summary, and a small model does not find
//! a fact of the first turn in a long context even when it is there; asked "what was the
//! first number I asked about?", the model calls this and answers from the turn itself.

use std::sync::Arc;

use async_trait::async_trait;
use deskmate_core::{
    Category, JsonSchema, Localized, SideEffect, ToolError, ToolSpec, read_args, said, schema_for,
};
use deskmate_store::Store;
use deskmate_tools::said::clip;
use deskmate_tools::{Before, SelfCheck, Tool, ToolContext};
use serde::Deserialize;
use serde_json::{Value, json};

/// The tool's id.
pub const ID: &str = "conversation_history";

/// Longest text of one message in the result (the rest is cut with "…").
const MESSAGE_MAX_CHARS: usize = 1_000;

/// Longest text of one message in the result's line.
const LINE_MESSAGE_MAX_CHARS: usize = 160;

/// The tool's arguments.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct Recall {
    #[serde(default = "one")]
    #[schemars(
        description = "The first turn to return: 1 = the conversation's first turn, 2 = the second, -1 = the latest (default 1).",
        extend("x-description-zh" = "从第几轮开始返回：1 = 对话的第一轮，2 = 第二轮，-1 = 最近一轮（默认 1）。")
    )]
    turn: i64,
    #[serde(default = "three")]
    #[schemars(
        range(min = 1, max = 20),
        description = "How many turns to return from there on (default 3).",
        extend("x-description-zh" = "从那一轮起返回多少轮（默认 3）。")
    )]
    count: u32,
}

fn one() -> i64 {
    1
}

fn three() -> u32 {
    3
}

/// One turn as it was said: the person's message and the reply they read.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Turn {
    /// Its place in the conversation, from 1.
    number: usize,
    user: String,
    reply: Option<String>,
}

/// The conversation's turns from its stored messages: a person's message starts one,
/// the last assistant message with text (not a call) is its reply. Calls and results
/// are not part of what was said.
fn turns(messages: &[Value]) -> Vec<Turn> {
    let mut out: Vec<Turn> = Vec::new();
    for message in messages {
        let text = message["content"].as_str().map(str::trim).unwrap_or("");
        match message["role"].as_str() {
            Some("user") => out.push(Turn {
                number: out.len() + 1,
                user: text.to_string(),
                reply: None,
            }),
            Some("assistant")
                if !text.is_empty()
                    && message["tool_calls"].as_array().is_none_or(Vec::is_empty) =>
            {
                if let Some(turn) = out.last_mut() {
                    turn.reply = Some(text.to_string());
                }
            }
            _ => {}
        }
    }
    out
}

/// The turns `recall` asks for, in the conversation's order; a turn that is not there
/// is a wrong call, with the turns there are in its hint.
fn chosen(turns: Vec<Turn>, recall: &Recall) -> Result<Vec<Turn>, ToolError> {
    let total = turns.len();
    let first = match recall.turn {
        n if n > 0 => usize::try_from(n - 1).ok().filter(|&i| i < total),
        n if n < 0 => usize::try_from(n.unsigned_abs())
            .ok()
            .and_then(|back| total.checked_sub(back)),
        _ => None,
    };
    let Some(first) = first else {
        let turn = recall.turn;
        return Err(if total == 0 {
            ToolError::validation("nothing was said earlier in this conversation")
                .with_hint("this is the conversation's first turn: there is nothing to look up")
        } else {
            ToolError::validation(format!(
                "there is no turn {turn}: this conversation has {total} earlier turn(s)"
            ))
            .with_hint(format!(
                "give turn from 1 (the first) to {total}, or from -1 (the latest) to -{total}"
            ))
        });
    };
    let count = usize::try_from(recall.count).unwrap_or(usize::MAX);
    Ok(turns.into_iter().skip(first).take(count).collect())
}

/// The result's line: each turn's number, the person's words and the reply.
fn said_turns(turns: &[Turn]) -> Localized {
    let line = |zh: bool| {
        turns
            .iter()
            .map(|t| {
                let user = clip(&t.user, LINE_MESSAGE_MAX_CHARS);
                let reply = t.reply.as_deref().map(|r| clip(r, LINE_MESSAGE_MAX_CHARS));
                match (zh, reply) {
                    (true, Some(reply)) => {
                        format!("第 {} 轮你说：“{user}”，我答：“{reply}”", t.number)
                    }
                    (true, None) => format!("第 {} 轮你说：“{user}”", t.number),
                    (false, Some(reply)) => {
                        format!(
                            "In turn {} you said “{user}” and I answered “{reply}”",
                            t.number
                        )
                    }
                    (false, None) => format!("In turn {} you said “{user}”", t.number),
                }
            })
            .collect::<Vec<_>>()
            .join(if zh { "；" } else { "; " })
    };
    Localized::new(line(true), line(false))
}

/// The `conversation_history` tool over the conversations' store.
#[derive(Debug)]
pub struct ConversationHistoryTool {
    spec: ToolSpec,
    store: Arc<Store>,
}

impl ConversationHistoryTool {
    /// The tool over `store`.
    pub fn new(store: Arc<Store>) -> Self {
        Self {
            spec: ToolSpec {
                id: ID.into(),
                name: Localized::new("对话记录", "Conversation history"),
                summary: Some(Localized::new(
                    "按轮次查看这段对话之前说过的话：第一轮、第二轮……或最近一轮。",
                    "Looks up what was said earlier in this conversation, by turn: the first, the second, …, or the latest.",
                )),
                // The requests in the first sentence are the model's examples (the catalog
                // shows the first sentence). After 45 turns, for "What was the first number
                // I asked about?" the local model called the tool with 0.73 with them, 0.60
                // with none; with only the first it wrote turn -1 (docs/BENCHMARKS.md,
                // "Earlier turns looked up").
                description: "Returns what the user asked earlier in this conversation and the replies (also turns \
                    no longer in view): count turns from turn number 'turn' (1 = the first turn, 2 = the \
                    second, -1 = the latest), e.g. 'what did I ask you first?' → {\"turn\":1,\"count\":1}, \
                    'what did I just ask?' → {\"turn\":-1,\"count\":1}. Read-only."
                    .into(),
                category: Category::Query,
                parameters: schema_for::<Recall>(),
                side_effect: SideEffect::Read,
                idempotent: true,
                timeout_ms: 5_000,
                compensation: None,
            },
            store,
        }
    }
}

#[async_trait]
impl Tool for ConversationHistoryTool {
    fn spec(&self) -> &ToolSpec {
        &self.spec
    }

    /// Running it needs a conversation; the store it reads answering is the check.
    fn self_check(&self) -> SelfCheck {
        let store = self.store.clone();
        SelfCheck::probe_blocking(move || match store.list_conversations(1, 0) {
            Ok(_) => Ok(Localized::new(
                "对话存储可读",
                "the conversation store answers",
            )),
            Err(e) => Err(said!(
                "对话存储读取失败：{e}",
                "the conversation store failed: {e}"
            )),
        })
    }

    fn reads_conversation(&self) -> bool {
        true
    }

    fn fits(&self, args: &Value) -> Result<(), ToolError> {
        read_args::<Recall>(&self.spec.id, args).map(drop)
    }

    async fn run(&self, args: Value, ctx: ToolContext) -> Result<Value, ToolError> {
        let recall: Recall = read_args(&self.spec.id, &args)?;
        let Some(conversation_id) = ctx.conversation_id else {
            return Err(ToolError::validation("this call belongs to no conversation")
                .with_hint("conversation_history reads the conversation a chat turn is in; call it from a chat"));
        };
        let store = self.store.clone();
        let before = ctx.before;
        deskmate_tools::blocking(move || {
            // The turns before the call's turn, on its own branch.
            let read = match before {
                Before::Head => store.conversation_messages(&conversation_id, u32::MAX),
                Before::Message(seq) => store
                    .path(&conversation_id, Some(seq), u32::MAX)
                    .map(|path| path.into_iter().map(|(_, m)| m).collect()),
                Before::Nothing => Ok(Vec::new()),
            };
            let messages: Vec<Value> = read.map_err(|e| {
                ToolError::internal(format!("the conversation could not be read: {e}"))
            })?;
            let all = turns(&messages);
            let total = all.len();
            let picked = chosen(all, &recall)?;
            let said = said_turns(&picked);
            let turns: Vec<Value> = picked
                .iter()
                .map(|t| {
                    json!({
                        "turn": t.number,
                        "user": clip(&t.user, MESSAGE_MAX_CHARS),
                        "reply": t.reply.as_deref().map(|r| clip(r, MESSAGE_MAX_CHARS)),
                    })
                })
                .collect();
            Ok(json!({"total_turns": total, "turns": turns, "said": said}))
        })
        .await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stored() -> Vec<Value> {
        vec![
            json!({"role": "user", "content": "What is special about 4711?"}),
            json!({"role": "assistant", "content": "4711 is 7 × 673."}),
            json!({"role": "user", "content": "What is 128 * 3?"}),
            json!({"role": "assistant", "content": null, "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "calculator", "arguments": "{}"}}]}),
            json!({"role": "tool", "tool_call_id": "c1", "content": "{\"value\":384}"}),
            json!({"role": "assistant", "content": "128 * 3 = 384."}),
            json!({"role": "user", "content": "Is 135 EVEN or odd?"}),
        ]
    }

    fn recall(turn: i64, count: u32) -> Recall {
        Recall { turn, count }
    }

    fn numbers(r: Recall) -> Result<Vec<usize>, ToolError> {
        chosen(turns(&stored()), &r).map(|t| t.iter().map(|t| t.number).collect())
    }

    #[test]
    fn turns_are_the_persons_messages_and_the_replies_read() {
        let turns = turns(&stored());
        assert_eq!(turns.len(), 3);
        assert_eq!(turns[0].user, "What is special about 4711?");
        assert_eq!(turns[1].reply.as_deref(), Some("128 * 3 = 384."));
        assert_eq!(turns[2].reply, None);
        assert_eq!(turns[2].number, 3);
    }

    #[test]
    fn turns_are_chosen_from_the_first_or_from_the_latest() {
        assert_eq!(numbers(recall(1, 1)).ok(), Some(vec![1]));
        assert_eq!(numbers(recall(2, 3)).ok(), Some(vec![2, 3]));
        assert_eq!(numbers(recall(-1, 3)).ok(), Some(vec![3]));
        assert_eq!(numbers(recall(-3, 2)).ok(), Some(vec![1, 2]));
    }

    #[test]
    fn a_turn_that_is_not_there_is_a_wrong_call_with_the_turns_there_are() {
        for turn in [0, 4, -4, i64::MIN, i64::MAX] {
            let error = numbers(recall(turn, 1))
                .err()
                .unwrap_or_else(|| panic!("turn {turn} was found"));
            assert_eq!(
                error.hint.as_deref(),
                Some("give turn from 1 (the first) to 3, or from -1 (the latest) to -3")
            );
        }
        let none = chosen(Vec::new(), &recall(1, 1)).err();
        assert!(none.is_some_and(|e| e.message.contains("nothing was said")));
    }

    #[test]
    fn the_line_names_each_turn_in_both_languages() {
        let picked = chosen(turns(&stored()), &recall(1, 1)).unwrap_or_default();
        let said = said_turns(&picked);
        assert_eq!(
            said.en,
            "In turn 1 you said “What is special about 4711?” and I answered “4711 is 7 × 673.”"
        );
        assert!(
            said.zh
                .starts_with("第 1 轮你说：“What is special about 4711?”")
        );
    }
}
