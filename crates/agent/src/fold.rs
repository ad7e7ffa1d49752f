//! The conversation so far, fitted to the model's context before a turn's first request:
//! counted in the model's tokens (`agent/tokens.rs`), planned (`agent/context.rs`), its
//! oldest turns folded into a summary the model writes when they do not fit.
//!
//! A summary is one extra request to the turn's model: not streamed, no tools, a short
//! instruction to keep every fact (numbers as written, names, decisions, results) in the
//! conversation's language. A newer summary is the one before it followed by the facts of
//! the turns folded after it, joined here: the model sees only those turns (on the local
//! 1.5B model, asked to rewrite the summary whole it dropped its oldest facts, and shown it
//! "for context" it copied it instead of the new facts). Past [`SUMMARY_CAP`] tokens the
//! model shortens it, keeping every number and name. It is stored
//! (`conversation_summaries`, up to the seq of the last message it covers) and sent before the recent turns as a message of the person
//! with the model's "OK" after it, so that roles still alternate for strict templates.
//! When the model cannot write one (it failed, or wrote nothing) the person's own words
//! of the folded turns stand in for it, unstored, so that nothing the person said is lost
//! without a trace; the next turn tries again.

use deskmate_llm::ChatClient;
use deskmate_llm::wire::{ChatRequest, Message, ToolDef};
use deskmate_service::language::Language;
use deskmate_service::models::LlmModel;
use deskmate_store::conversation_context::{ContextUse, ConversationSummary};
use serde_json::Value;

use crate::agent::Agent;
use crate::context::{self, Folded, MESSAGE_OVERHEAD, Plan, Stored, Turn};
use crate::tokens::Counter;

/// Most tokens of one summary request's answer (the facts of the turns it folds).
const SUMMARY_MAX_TOKENS: u32 = 320;
/// A summary longer than this is shortened by the model.
const SUMMARY_CAP: u32 = 3 * SUMMARY_MAX_TOKENS;
/// Tokens of the framing around a summary as sent (its two messages, the lead-in).
const SUMMARY_FRAME: u32 = 48;
/// Longest text of one message in what the summarizer reads, in characters.
const TRANSCRIPT_MESSAGE_CHARS: usize = 600;
/// What the summarizer's instruction and its framing may take, in tokens.
const INSTRUCTION_TOKENS: u32 = 256;
/// How the summary is introduced to the model.
const LEAD_IN: &str = "Summary of our earlier conversation (its messages are not shown):";

/// What a turn fits into the model's context.
pub(crate) struct Fitting<'a> {
    /// The model's server.
    pub client: &'a ChatClient,
    /// The model.
    pub model: &'a LlmModel,
    /// Whether the server is llama.cpp (tells its context size and tokenizes).
    pub llama_cpp: bool,
    /// The conversation.
    pub conversation_id: &'a str,
    /// The conversation so far, in order, each message with its stored seq.
    pub stored: Vec<(i64, Value)>,
    /// The system prompt as sent.
    pub system: &'a Message,
    /// The tools sent in the request's `tools` field (native servers read them as prompt).
    pub tools: &'a [ToolDef],
    /// The person's new message.
    pub message: &'a Message,
    /// The turn's language (the summary's).
    pub language: Language,
}

/// The earlier turns to send, and how full the context is with them.
pub(crate) struct Fitted {
    /// What goes between the system prompt and the new message.
    pub history: Vec<Message>,
    /// The context's use by part.
    pub used: ContextUse,
}

impl Agent {
    /// The conversation so far as it fits the model's context (see the module); how full
    /// the context is is noted with the conversation for the chat's meter.
    pub(crate) async fn fit_history(&self, fitting: Fitting<'_>) -> Fitted {
        let fitted = self.fit(&fitting).await;
        if let Ok(store) = self.store()
            && let Err(error) = store.set_context_use(fitting.conversation_id, &fitted.used)
        {
            tracing::warn!(%error, "the context's use could not be noted");
        }
        fitted
    }

    async fn fit(&self, f: &Fitting<'_>) -> Fitted {
        let n_ctx = self.context_size(f.client, f.llama_cpp).await;
        let counter = Counter::new(f.client, &f.model.model, f.llama_cpp);
        let mut catalog = counter
            .count(f.system.content.as_deref().unwrap_or_default())
            .await
            + MESSAGE_OVERHEAD;
        if !f.tools.is_empty() {
            catalog += counter
                .count(&serde_json::to_string(f.tools).unwrap_or_default())
                .await;
        }
        let new_message = counter
            .count(f.message.content.as_deref().unwrap_or_default())
            .await
            + MESSAGE_OVERHEAD;
        // The answer's room (the model's own limit, at most a quarter of the context) and
        // this turn's calls and results (an eighth).
        let answer = u32::try_from(f.model.max_tokens.max(0))
            .unwrap_or(u32::MAX)
            .min(n_ctx / 4);
        let reserve = answer + n_ctx / 8;
        let budget = n_ctx.saturating_sub(catalog + new_message + reserve);

        let summaries: Vec<ConversationSummary> = match self.store() {
            Ok(store) => store
                .conversation_summaries(f.conversation_id)
                .unwrap_or_else(|error| {
                    tracing::warn!(%error, "summaries could not be read");
                    Vec::new()
                }),
            Err(_) => Vec::new(),
        };
        let folded: Vec<Folded> = summaries
            .iter()
            .map(|s| Folded {
                until_seq: s.until_seq,
                text: s.text.clone(),
                tokens: s.tokens + SUMMARY_FRAME,
            })
            .collect();
        let cuts: Vec<i64> = folded.iter().map(|s| s.until_seq).collect();
        let stored: Vec<Stored> = f
            .stored
            .iter()
            .filter_map(|(seq, value)| {
                Some(Stored {
                    seq: *seq,
                    message: serde_json::from_value(value.clone()).ok()?,
                })
            })
            .collect();
        let mut turns = context::turns(stored, &cuts);
        for turn in &mut turns {
            turn.tokens = counter.count(&turn.text()).await + turn.overhead();
        }
        let plan = context::plan(&turns, &folded, budget, SUMMARY_MAX_TOKENS + SUMMARY_FRAME);
        let (summary, keep_from) = match plan {
            Plan::Whole => (None, 0),
            Plan::Reuse { summary, keep_from } => (Some(folded[summary].clone()), keep_from),
            Plan::Fold { base, fold } => {
                let base = base.map(|i| &folded[i]);
                let made = self
                    .fold(f, &counter, n_ctx, base, &turns[fold.clone()])
                    .await;
                tracing::info!(
                    conversation = f.conversation_id,
                    turns = fold.len(),
                    until_seq = turns[fold.end - 1].last_seq,
                    tokens = made.tokens,
                    "earlier turns folded into a summary"
                );
                (Some(made), fold.end)
            }
        };
        let kept = &turns[keep_from..];
        let mut history = Vec::new();
        let mut conversation = new_message;
        if let Some(summary) = &summary {
            history.extend(frame(&summary.text));
            conversation += summary.tokens;
        }
        for turn in kept {
            history.extend(turn.sent().cloned());
            conversation += turn.tokens;
        }
        tracing::debug!(
            n_ctx,
            catalog,
            conversation,
            budget,
            exact = counter.exact(),
            "context fitted"
        );
        Fitted {
            history,
            used: ContextUse {
                n_ctx,
                catalog_tokens: catalog,
                conversation_tokens: conversation,
                folded_until_seq: summary.map(|s| s.until_seq),
            },
        }
    }

    /// Folds `base` (a summary made before, if any) and `turns` into a new summary, one
    /// request per group of turns that fits the model's context beside the instruction;
    /// each summary is stored as it is made. The person's own words stand in when the
    /// model writes none.
    async fn fold(
        &self,
        f: &Fitting<'_>,
        counter: &Counter<'_>,
        n_ctx: u32,
        base: Option<&Folded>,
        turns: &[Turn],
    ) -> Folded {
        let mut previous = base.cloned();
        let limit = n_ctx
            .saturating_sub(INSTRUCTION_TOKENS + SUMMARY_MAX_TOKENS)
            .max(1);
        let mut start = 0;
        while start < turns.len() {
            let group = context::groups(&turns[start..], limit)
                .into_iter()
                .next()
                .map_or(start..turns.len(), |g| start + g.start..start + g.end);
            let part = &turns[group.clone()];
            let mut transcript = transcript(part);
            if part.len() == 1 && part[0].tokens > limit {
                // One turn larger than the room: its start, a character per token at most.
                transcript = transcript
                    .chars()
                    .take(usize::try_from(limit).unwrap_or(usize::MAX))
                    .collect();
            }
            let until_seq = part.last().map_or(0, |t| t.last_seq);
            let Some(new) = self.summarize(f, &transcript).await else {
                return stand_in(previous.as_ref(), &turns[start..], counter).await;
            };
            let mut text = match &previous {
                Some(previous) => format!("{}\n{new}", previous.text),
                None => new,
            };
            let mut tokens = counter.count(&text).await;
            if tokens > SUMMARY_CAP
                && let Some(shorter) = self.shorten(f, &text).await
            {
                let shorter_tokens = counter.count(&shorter).await;
                if shorter_tokens < tokens {
                    text = shorter;
                    tokens = shorter_tokens;
                }
            }
            if let Ok(store) = self.store()
                && let Err(error) = store.save_summary(
                    f.conversation_id,
                    until_seq,
                    &text,
                    tokens,
                    Some(&f.model.id),
                )
            {
                tracing::warn!(%error, "the summary could not be saved");
            }
            previous = Some(Folded {
                until_seq,
                text,
                tokens: tokens + SUMMARY_FRAME,
            });
            start = group.end;
        }
        match previous {
            Some(made) => made,
            None => stand_in(None, turns, counter).await,
        }
    }

    /// Asks the model for the facts of `transcript`; `None` when it failed or wrote
    /// nothing.
    async fn summarize(&self, f: &Fitting<'_>, transcript: &str) -> Option<String> {
        let input = format!("Conversation to summarize:\n{transcript}");
        self.ask(f, instruction(f.language), input).await
    }

    /// Asks the model to shorten a summary that grew past [`SUMMARY_CAP`].
    async fn shorten(&self, f: &Fitting<'_>, summary: &str) -> Option<String> {
        let instruction = format!(
            "Shorten this summary of a conversation to at most 200 words, in {language}. Keep \
every number exactly as written, every name and decision, and the first things the user asked \
about. Reply with the summary only.",
            language = f.language.named()
        );
        self.ask(f, instruction, summary.to_string()).await
    }

    /// One request to the turn's model for a summary: not streamed, no tools; `None` when
    /// it failed or wrote nothing.
    async fn ask(&self, f: &Fitting<'_>, instruction: String, input: String) -> Option<String> {
        let mut request = ChatRequest::new(
            &f.model.model,
            vec![Message::system(instruction), Message::user(input)],
        );
        request.max_tokens = Some(SUMMARY_MAX_TOKENS);
        request.temperature = Some(0.2);
        request.stream = false;
        match f.client.complete(&request, &mut |_| {}).await {
            Ok(reply) => {
                let text = reply.content.trim().to_string();
                (!text.is_empty()).then_some(text)
            }
            Err(error) => {
                tracing::warn!(%error, "the model could not summarize the earlier turns");
                None
            }
        }
    }
}

/// The summarizer's instruction.
fn instruction(language: Language) -> String {
    format!(
        "You summarize a conversation between a user and an assistant, so that the assistant \
can go on without its messages. Keep every fact: numbers exactly as written, names, \
dates and times, what the user asked for, decided or told you, and what tools found or did, \
in the order they came. Leave out greetings and small talk. Write short lines, at most 200 \
words, in {language}. Reply with the summary only.",
        language = language.named()
    )
}

/// The folded turns as the summarizer reads them: one line per message, each clipped.
fn transcript(turns: &[Turn]) -> String {
    let clip = |text: &str| -> String {
        let text = text.trim();
        if text.chars().count() > TRANSCRIPT_MESSAGE_CHARS {
            let mut clipped: String = text.chars().take(TRANSCRIPT_MESSAGE_CHARS).collect();
            clipped.push('…');
            clipped
        } else {
            text.to_string()
        }
    };
    let mut lines = Vec::new();
    for message in turns.iter().flat_map(|t| &t.messages) {
        let text = message.content.as_deref().unwrap_or_default();
        match message.role.as_str() {
            "user" => lines.push(format!("User: {}", clip(text))),
            "tool" => lines.push(format!("Tool result: {}", clip(text))),
            "assistant" => {
                if !text.trim().is_empty() {
                    lines.push(format!("Assistant: {}", clip(text)));
                }
                for call in &message.tool_calls {
                    lines.push(format!(
                        "Assistant called {}({})",
                        call.function.name,
                        clip(&call.function.arguments)
                    ));
                }
            }
            _ => {}
        }
    }
    lines.join("\n")
}

/// `text` in at most `max` characters: its start and "…" when it is longer.
fn clipped(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let mut start: String = text.chars().take(max.saturating_sub(1)).collect();
    start.push('…');
    start
}

/// The summary as sent: the person's message with it, and the model's "OK".
fn frame(summary: &str) -> [Message; 2] {
    [
        Message::user(format!("{LEAD_IN}\n{summary}")),
        Message::assistant(Some("OK".into()), Vec::new()),
    ]
}

/// What stands in for a summary the model did not write: the summary before it, then
/// the person's words of every folded turn. Those words have a summary's length of their
/// own, shared among the messages: each keeps its start (a short one leaves the rest of
/// its share to those after it), so no folded turn passes without a trace, whatever the
/// length of the summary before them.
async fn stand_in(previous: Option<&Folded>, turns: &[Turn], counter: &Counter<'_>) -> Folded {
    let said: Vec<&str> = turns
        .iter()
        .flat_map(|t| &t.messages)
        .filter(|m| m.role == "user")
        .filter_map(|m| m.content.as_deref())
        .map(str::trim)
        .collect();
    let mut text = previous
        .map(|p| p.text.trim_end().to_string())
        .unwrap_or_default();
    let mut room = usize::try_from(SUMMARY_MAX_TOKENS).unwrap_or(usize::MAX);
    for (k, words) in said.iter().enumerate() {
        let share = room / (said.len() - k);
        let line = clipped(&format!("User: {words}"), share);
        room = room.saturating_sub(line.chars().count());
        if !text.is_empty() {
            text.push('\n');
        }
        text.push_str(&line);
    }
    let tokens = counter.count(&text).await + SUMMARY_FRAME;
    Folded {
        until_seq: turns
            .last()
            .map_or_else(|| previous.map_or(0, |p| p.until_seq), |t| t.last_seq),
        text,
        tokens,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_summarizer_reads_each_message_once_clipped() {
        let long = "x".repeat(1000);
        let turn = Turn {
            first_seq: 1,
            last_seq: 3,
            messages: vec![
                Message::user("what is 17% of 2340?"),
                Message::assistant(
                    None,
                    vec![deskmate_llm::wire::ToolCall {
                        id: "c".into(),
                        kind: "function".into(),
                        function: deskmate_llm::wire::FunctionCall {
                            name: "calculator".into(),
                            arguments: "{\"expression\":\"17% of 2340\"}".into(),
                        },
                    }],
                ),
                Message::tool("c", long),
                Message::assistant(Some("It is 397.8.".into()), Vec::new()),
            ],
            tokens: 0,
        };
        let text = transcript(&[turn]);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "User: what is 17% of 2340?");
        assert_eq!(
            lines[1],
            "Assistant called calculator({\"expression\":\"17% of 2340\"})"
        );
        assert_eq!(lines[2].chars().count(), "Tool result: ".len() + 601);
        assert_eq!(lines[3], "Assistant: It is 397.8.");
    }

    #[test]
    fn the_instruction_names_the_language() {
        assert!(instruction(Language::Chinese).contains("in Chinese"));
        assert!(instruction(Language::English).contains("in English"));
    }

    /// When the model writes no summary, the person's words of every folded turn stand in
    /// for it — whatever the length of the summary before them.
    #[tokio::test]
    async fn the_stand_in_keeps_the_words_of_every_folded_turn() {
        let client = ChatClient::new(
            deskmate_llm::Endpoint::new("http://127.0.0.1:9", None)
                .unwrap_or_else(|e| panic!("{e}")),
        )
        .unwrap_or_else(|e| panic!("{e}"));
        let counter = Counter::new(&client, "m", false);
        let previous = Folded {
            until_seq: 4,
            text: "The user asked about the weather in Oslo and about 4711. ".repeat(8),
            tokens: 200,
        };
        let asked = |seq: i64, text: &str| Turn {
            first_seq: seq,
            last_seq: seq + 1,
            messages: vec![
                Message::user(text),
                Message::assistant(Some("OK.".into()), Vec::new()),
            ],
            tokens: 0,
        };
        let turns = [
            asked(5, "Remember the locker code 2718."),
            asked(
                7,
                &format!("{} and the room is B-114.", "Also, ".repeat(120)),
            ),
            asked(9, "My sister's name is Astrid."),
        ];
        let made = stand_in(Some(&previous), &turns, &counter).await;
        assert!(
            made.text.starts_with(previous.text.trim_end()),
            "{}",
            made.text
        );
        for kept in ["locker code 2718", "Also, Also,", "My sister's name"] {
            assert!(made.text.contains(kept), "{kept:?} not in {}", made.text);
        }
        assert_eq!(made.until_seq, 10);
        // The folded turns' words stay within a summary's length.
        let added = made.text.chars().count() - previous.text.trim_end().chars().count();
        assert!(added <= SUMMARY_MAX_TOKENS as usize + 8, "{added}");
    }
}
