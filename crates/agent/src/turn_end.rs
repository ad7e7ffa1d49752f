//! How a turn ends: the replies Deskmate writes itself (shown and saved with the turn),
//! the card saved with a call, and whether a step's calls did (or cover) every part of
//! the request the model listed.

use deskmate_llm::envelope::Part;
use deskmate_llm::wire::Message;
use serde_json::Value;
use tokio::sync::mpsc::UnboundedSender;

use crate::outcome::Outcome;
use crate::summary;
use crate::types::{AgentEvent, CallStatus, emit};

/// A reply Deskmate writes itself to end the turn: shown, and saved with the turn.
pub(crate) fn closing(
    events: &UnboundedSender<AgentEvent>,
    new_messages: &mut Vec<Message>,
    reply: String,
) -> String {
    emit(
        events,
        AgentEvent::Token {
            text: reply.clone(),
        },
    );
    new_messages.push(Message::assistant(Some(reply.clone()), Vec::new()));
    reply
}

/// What the chat's card showed for a call, kept with the saved tool message.
pub(crate) fn card(outcome: &Outcome, zh: bool) -> Value {
    serde_json::json!({
        "status": outcome.status.as_str(),
        "summary": summary::line(&outcome.tool, outcome.status, &outcome.result, zh),
        "result": outcome.result,
    })
}

pub(crate) fn cut_short(zh: bool) -> String {
    if zh {
        "我的回复写到长度上限时调用还没写完，所以什么都没有执行。请换个说法，或者分几步来问。"
            .into()
    } else {
        "My reply reached its length limit before the call was complete, so nothing was run. \
         Please rephrase the request or ask in smaller steps."
            .into()
    }
}

/// Whether one step's calls cover the `parts` the model listed before them: every part
/// names a tool (a part no tool does needs words), each tool has at least one call done
/// per part naming it, every call succeeded (or repeats one that did), and each result
/// carries its tool's own line holding all of it — a result only the model can read
/// (search hits, a large table, a tool that says nothing) needs its words. With no parts
/// listed nothing is covered ([`did`]).
pub(crate) fn covers(parts: &[Part], step: &[Outcome]) -> bool {
    parts.iter().all(|p| p.tool.is_some())
        && did(parts, step)
        && step.iter().all(|o| {
            deskmate_tools::said::line(&o.result.data, false).is_some()
                && deskmate_tools::said::whole(&o.result.data) != Some(false)
        })
}

/// Whether one step's calls did every part of `parts` that names a tool: each tool has at
/// least one call done per part naming it, and every call succeeded (or repeats one that
/// did). `parts` empty: nothing was listed, so nothing is known to be done.
pub(crate) fn did(parts: &[Part], step: &[Outcome]) -> bool {
    let done = |tool: &str| {
        step.iter()
            .filter(|o| o.status == CallStatus::Done && o.tool == tool)
            .count()
    };
    let named = |tool: &str| {
        parts
            .iter()
            .filter(|q| q.tool.as_deref() == Some(tool))
            .count()
    };
    !parts.is_empty()
        && parts
            .iter()
            .filter_map(|p| p.tool.as_deref())
            .all(|tool| done(tool) >= named(tool))
        && step
            .iter()
            .all(|o| matches!(o.status, CallStatus::Done | CallStatus::Repeated) && o.result.ok)
}

pub(crate) fn model_failed(zh: bool, error: &str) -> String {
    if zh {
        format!("模型服务出错了，没能完成：{error}")
    } else {
        format!("The model server failed, so I could not finish: {error}")
    }
}
