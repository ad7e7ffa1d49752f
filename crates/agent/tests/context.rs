//! A context that never overflows: against a scripted llama.cpp server (its `/props`
//! context size set by the test, its `/tokenize` counting with `scripted_tokens`), a long
//! conversation folds its oldest turns into a summary the model writes, every request stays
//! within the context, a summary is made once and reused, the first thing the person said
//! is still sent (through the summary), and no call is parted from its result; a
//! conversation that fits is sent whole.

use std::sync::Arc;

use deskmate_agent::{Agent, ChatEntry, ChatTurn};
use deskmate_service::Deskmate;
use deskmate_service::hooks::PreApproved;
use deskmate_testkit::{Script, ScriptedServer, completion, scripted_tokens};
use serde_json::{Value, json};

mod common;

/// How a summary request's instruction starts (`src/fold.rs`).
const SUMMARIZE: &str = "You summarize a conversation";
/// How a summary is introduced to the model (`src/fold.rs`).
const LEAD_IN: &str = "Summary of our earlier conversation";
/// Tokens a template adds per message, as the agent counts them.
const MESSAGE_OVERHEAD: usize = 8;

struct Fixture {
    _dir: tempfile::TempDir,
    agent: Arc<Agent>,
    server: ScriptedServer,
}

/// A service whose default model (answers of at most 100 tokens) is on a scripted
/// llama.cpp server with a context of `catalog + extra` tokens, `catalog` being the
/// system prompt every turn sends.
async fn fixture(extra: Option<u32>) -> Fixture {
    let server = ScriptedServer::start_llama_cpp(&["scripted"]).await;
    let dir = common::data_dir_with_adsl();
    let deskmate = Arc::new(
        Deskmate::open_with_tools(dir.path(), Arc::new(PreApproved), Vec::new())
            .unwrap_or_else(|e| panic!("{e}")),
    );
    let agent = Agent::new(deskmate.clone());
    if let Some(extra) = extra {
        let catalog = scripted_tokens(&agent.prefix_prompt(&agent.chat_tools("")));
        server.set_n_ctx(u32::try_from(catalog).unwrap_or_default() + extra);
    }
    let body = json!({"name": "Scripted", "base_url": server.base_url(), "model": "scripted",
                      "streaming": false, "is_default": true, "max_tokens": 100});
    deskmate
        .create_model::<deskmate_service::models::LlmModel>(
            deskmate_service::body::Body::read(&body).unwrap_or_else(|e| panic!("{e:?}")),
        )
        .unwrap_or_else(|e| panic!("{e}"));
    server.respond_with(model);
    Fixture {
        _dir: dir,
        agent,
        server,
    }
}

fn text(message: &Value) -> &str {
    message["content"].as_str().unwrap_or_default()
}

/// The numbers a text holds, in order.
fn numbers(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_ascii_digit())
        .filter(|n| !n.is_empty())
        .map(str::to_string)
        .collect()
}

/// A scripted model that reads what it is sent: a summary request is answered with every
/// number the person asked about in the turns it folds (the new facts); a request to
/// shorten a summary with its numbers; a turn's request with a call when the person says
/// "calculate", then with an answer after the results.
fn model(request: &Value) -> Script {
    let messages = request["messages"].as_array().cloned().unwrap_or_default();
    let first = messages.first().map(text).unwrap_or_default();
    let last = messages.last().map(text).unwrap_or_default();
    let reply = if first.starts_with(SUMMARIZE) {
        let asked: Vec<String> = messages
            .get(1)
            .map(text)
            .unwrap_or_default()
            .lines()
            .filter(|l| l.starts_with("User:"))
            .flat_map(numbers)
            .collect();
        return Script::Json(completion(
            Some(&format!(
                "The user asked about the numbers {}.",
                asked.join(", ")
            )),
            &[],
        ));
    } else if first.starts_with("Shorten") {
        let kept = numbers(messages.get(1).map(text).unwrap_or_default()).join(" ");
        return Script::Json(completion(Some(&format!("Numbers: {kept}")), &[]));
    } else if last.starts_with("Tool results:") {
        r#"{"answer":"Done."}"#.to_string()
    } else if let Some(n) = last.strip_prefix("calculate ") {
        format!(r#"{{"calls":[{{"name":"calculator","arguments":{{"expression":"{n}"}}}}]}}"#)
    } else {
        format!(r#"{{"answer":"Noted: {}."}}"#, numbers(last).join(" "))
    };
    Script::Json(completion(Some(&reply), &[]))
}

async fn say(f: &Fixture, message: &str, conversation: Option<String>) -> String {
    let (_, outcome) = f
        .agent
        .chat_collected(ChatTurn {
            message: message.into(),
            conversation_id: conversation,
            ..ChatTurn::default()
        })
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    outcome.conversation_id
}

/// The prompt's tokens as the scripted server counts them, with the template's overhead.
fn prompt_tokens(request: &Value) -> usize {
    request["messages"]
        .as_array()
        .map(|m| {
            m.iter()
                .map(|m| scripted_tokens(text(m)) + MESSAGE_OVERHEAD)
                .sum()
        })
        .unwrap_or_default()
}

#[tokio::test]
async fn a_long_conversation_folds_into_a_summary_that_keeps_its_facts() {
    let f = fixture(Some(1500)).await;
    let mut conversation = None;
    for i in 0..60 {
        let message = match i {
            0 => "What is special about the number 4711?".to_string(),
            i if i % 5 == 4 => format!("calculate {} + 1", 200 + i),
            i => format!("Tell me about the number {}", 100 + i),
        };
        conversation = Some(say(&f, &message, conversation).await);
    }
    say(
        &f,
        "What was the first number I asked about?",
        conversation.clone(),
    )
    .await;
    let requests = f.server.requests();
    let (summaries, turns): (Vec<&Value>, Vec<&Value>) = requests
        .iter()
        .partition(|r| text(&r["messages"][0]).starts_with(SUMMARIZE));
    let n_ctx = usize::try_from(
        f.agent
            .conversation(conversation.as_deref().unwrap_or_default())
            .ok()
            .and_then(|d| d.context)
            .map(|c| c.n_ctx)
            .unwrap_or_default(),
    )
    .unwrap_or_default();
    assert!(n_ctx > 1500, "the context size was noted: {n_ctx}");

    // Every request fits the context with room for its answer.
    for request in &requests {
        let answer = request["max_tokens"].as_u64().unwrap_or_default();
        let used = prompt_tokens(request) + usize::try_from(answer).unwrap_or_default();
        assert!(used <= n_ctx, "{used} tokens of {n_ctx}: {request}");
    }
    // The conversation folded more than once, each summary made once and reused.
    assert!(summaries.len() >= 2, "{} summaries", summaries.len());
    assert!(summaries.len() <= 15, "{} summaries", summaries.len());
    let sent: Vec<&str> = turns
        .iter()
        .filter_map(|r| r["messages"].as_array())
        .filter_map(|m| m.iter().map(text).find(|t| t.starts_with(LEAD_IN)))
        .collect();
    let mut distinct = sent.clone();
    distinct.dedup();
    assert_eq!(distinct.len(), summaries.len(), "one summary per fold");
    assert!(sent.len() > 2 * summaries.len(), "summaries are reused");
    // What the person first asked is still sent, through the summary, not as itself.
    let last = requests.last().cloned().unwrap_or_default();
    let last_text = last.to_string();
    assert!(last_text.contains(LEAD_IN), "{last_text}");
    assert!(last_text.contains("4711"), "{last_text}");
    assert!(!last_text.contains("special about"), "{last_text}");
    // No call is parted from its results: each step's results follow its calls.
    for request in &turns {
        let messages = request["messages"].as_array().cloned().unwrap_or_default();
        for (i, m) in messages.iter().enumerate() {
            let calls = m["role"] == "assistant" && text(m).starts_with(r#"{"calls""#);
            let results = m["role"] == "user" && text(m).starts_with("Tool results:");
            if calls {
                assert!(
                    messages
                        .get(i + 1)
                        .is_some_and(|n| text(n).starts_with("Tool results:")),
                    "calls without results in {request}"
                );
            }
            if results {
                assert!(
                    i > 0 && text(&messages[i - 1]).starts_with(r#"{"calls""#),
                    "results without calls in {request}"
                );
            }
        }
    }
    // The chat shows the summary after the turns it covers.
    let detail = f
        .agent
        .conversation(conversation.as_deref().unwrap_or_default())
        .unwrap_or_else(|e| panic!("{e}"));
    let shown: Vec<&ChatEntry> = detail
        .entries
        .iter()
        .filter(|e| matches!(e, ChatEntry::Summary { .. }))
        .collect();
    assert_eq!(shown.len(), 1, "the latest summary is shown");
    assert!(
        matches!(shown[0], ChatEntry::Summary { text, .. } if text.contains("4711")),
        "{shown:?}"
    );
    let context = detail.context.unwrap_or_else(|| panic!("no context use"));
    assert!(context.folded_until_seq.is_some());
    assert!(context.catalog_tokens > 0 && context.conversation_tokens > 0);
    assert!(f.server.tokenized() > 0, "the server counted the tokens");
}

#[tokio::test]
async fn a_conversation_that_fits_is_sent_whole() {
    let f = fixture(None).await;
    let mut conversation = None;
    for i in 0..5 {
        conversation = Some(
            say(
                &f,
                &format!("Tell me about the number {}", 100 + i),
                conversation,
            )
            .await,
        );
    }
    let requests = f.server.requests();
    assert!(
        requests
            .iter()
            .all(|r| !text(&r["messages"][0]).starts_with(SUMMARIZE)),
        "no summary was asked for"
    );
    let last = requests.last().cloned().unwrap_or_default().to_string();
    for i in 0..5 {
        assert!(last.contains(&format!("the number {}", 100 + i)), "{last}");
    }
    assert!(!last.contains(LEAD_IN));
    let detail = f
        .agent
        .conversation(conversation.as_deref().unwrap_or_default())
        .unwrap_or_else(|e| panic!("{e}"));
    let context = detail.context.unwrap_or_else(|| panic!("no context use"));
    assert_eq!(context.n_ctx, 8192);
    assert_eq!(context.folded_until_seq, None);
    assert!(
        !detail
            .entries
            .iter()
            .any(|e| matches!(e, ChatEntry::Summary { .. }))
    );
}
