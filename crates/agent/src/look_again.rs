//! "Look again": an answer given without any call that states a figure nothing the model
//! read holds (the time in Rome, 90/4, the volume's level) may be a value a tool exists to
//! provide, made up. The model is asked once more — the same request, its answer now held
//! by the grammar to calls of the offered tools ([`deskmate_llm::envelope::Answer::Never`])
//! — and its calls are taken instead of the answer only when each one's part of the
//! request, judged on its own ([`crate::judge`]), is its tool's. Otherwise the first answer
//! stands, with its checks: a figure from general knowledge (a year, a height) has no tool
//! to come from, and the judge says so.
//!
//! What decides is structure and the model: the answer's digits against the digits of what
//! the model read ([`crate::figures`]), the model's own second choice, and the judgement of
//! each call — no words are looked for. A write the model thinks of only the second time is
//! put to the person before it runs (`inspect::asked_for`), however it is judged: the first
//! answer said it was not wanted.
//!
//! While the first answer streams, it is shown a sentence at a time and none of it from the
//! first sentence with a new figure (`gate::TokenGate::watching`), so the person does not
//! read a made-up value the turn then replaces with a tool's.

use deskmate_llm::envelope::Part;
use deskmate_llm::wire::{Message, ToolCall};

use crate::inspect::asked_for::{Judged, judged};
use crate::judge::Judge;

/// What the model read of the conversation (everything but the system prompt): the texts
/// whose figures an answer may say back.
pub(crate) fn read(messages: &[Message]) -> Vec<String> {
    messages
        .iter()
        .filter(|m| m.role != "system")
        .flat_map(|m| {
            m.content
                .iter()
                .cloned()
                .chain(m.tool_calls.iter().map(|c| c.function.arguments.clone()))
        })
        .collect()
}

/// Whether `answer` states a figure none of `read` holds.
pub(crate) fn states_new_figure(answer: &str, read: &[String]) -> bool {
    crate::figures::first_new(answer, &crate::figures::known(read)).is_some()
}

/// Whether the calls of a second look replace the first answer: there are some, and every
/// tool they call is judged to do a part of the request it is for.
pub(crate) async fn adopt(
    judge: &Judge<'_>,
    parts: &[Part],
    asked: &[String],
    calls: &[ToolCall],
) -> bool {
    let mut tools: Vec<&str> = calls.iter().map(|c| c.function.name.as_str()).collect();
    tools.sort_unstable();
    tools.dedup();
    if tools.is_empty() {
        return false;
    }
    for tool in &tools {
        let verdict = judged(judge, parts, asked, tool, tools.len()).await;
        tracing::debug!(
            tool,
            does = matches!(verdict, Judged::Does),
            "a second look's call judged"
        );
        if !matches!(verdict, Judged::Does) {
            return false;
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::fixtures::call;

    #[test]
    fn what_was_read_is_every_message_but_the_system_prompt() {
        let mut assistant = Message::assistant(None, Vec::new());
        assistant.tool_calls = vec![call("c1", "set_volume", r#"{"level":35}"#)];
        let messages = vec![
            Message::system("Example: 17% of 2,340"),
            Message::user("and now?"),
            assistant,
            Message::tool("c1", "Volume: 35%"),
        ];
        let read = read(&messages);
        assert!(!states_new_figure("It is at 35%.", &read));
        // The system prompt's examples are not something the person or a tool said.
        assert!(states_new_figure("That is 2,340.", &read));
    }
}
