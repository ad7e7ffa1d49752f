//! Can the model judge one part of a request alone — "which one of these tools does exactly
//! this?" — better than it chooses inside the turn? Two framings of that question, asked of
//! a running llama-server for each case of the suite's **dev** split (the heldout split is
//! never read here): its message alone, every built-in tool's one-line description, no
//! conversation, no examples, the answer held by a grammar.
//!
//! - `which_tool`: one tool's id or none, as JSON (`{"tool":"…"}`).
//! - `yes_or_no`: "does this tool do what the request asks?" for the expected tool, for a
//!   look-alike of it, and, in the cases that expect no call, for every tool.
//!
//! A measurement, not a pass/fail check: run by hand; its figures and what was decided
//! from them are in docs/BENCHMARKS.md and docs/decisions.md.
//!
//! ```text
//! llama-server … --port 8093 &   # the local default model, as the manifest runs it
//! DESKMATE_CHECK_URL=http://127.0.0.1:8093 DESKMATE_CHECK_MODEL=qwen \
//!   cargo test -p deskmate-autotest --test part_check -- --ignored --nocapture
//! ```

use std::sync::Arc;

use deskmate_agent::Agent;
use deskmate_autotest::eval::suite::{self, Case, Split};
use deskmate_llm::envelope::first_sentence;
use deskmate_llm::wire::{ChatRequest, Message, ToolDef};
use deskmate_llm::{ChatClient, Endpoint};
use deskmate_service::Deskmate;

/// The first framing: the tools listed, then the request and the question.
const WHICH: &str = "Which one of the tools does exactly what this request asks? A tool that only \
does something related (another action on the same thing, something for later instead of now, \
showing instead of speaking) is not it. Answer {\"tool\":\"<name>\"}, or {\"tool\":\"none\"} if no \
tool does it.";

/// A look-alike of each tool: what a stand-in for it would be.
const LOOK_ALIKES: [(&str, &str); 16] = [
    ("increase_volume", "decrease_volume"),
    ("decrease_volume", "increase_volume"),
    ("turn_on_camera", "turn_off_camera"),
    ("turn_off_camera", "turn_on_camera"),
    ("voice_msg_prompt", "text_msg_prompt"),
    ("text_msg_prompt", "voice_msg_prompt"),
    ("text_choice_prompt", "voice_choice_prompt"),
    ("voice_choice_prompt", "text_choice_prompt"),
    ("calculator", "current_time"),
    ("current_time", "schedule"),
    ("frequency", "describe_dataset"),
    ("summarize_by_group", "describe_dataset"),
    ("get_volume", "increase_volume"),
    ("camera_status", "turn_on_camera"),
    ("knowledge", "describe_dataset"),
    ("code_interpreter", "calculator"),
];

struct Bench {
    client: ChatClient,
    model: String,
    tools: Vec<ToolDef>,
    cases: Vec<Case>,
}

impl Bench {
    fn new() -> Self {
        let url = std::env::var("DESKMATE_CHECK_URL")
            .unwrap_or_else(|_| panic!("set DESKMATE_CHECK_URL to a llama-server"));
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let deskmate = Arc::new(Deskmate::open(dir.path()).unwrap_or_else(|e| panic!("{e}")));
        let endpoint = Endpoint::new(&url, None).unwrap_or_else(|e| panic!("{e}"));
        let suite = suite::bundled().unwrap_or_else(|e| panic!("{e}"));
        Self {
            client: ChatClient::new(endpoint).unwrap_or_else(|e| panic!("{e}")),
            model: std::env::var("DESKMATE_CHECK_MODEL").unwrap_or_default(),
            tools: Agent::new(deskmate).offered_tools(None),
            cases: suite
                .cases
                .into_iter()
                .filter(|c| c.split == Split::Dev && c.fail_first.is_none())
                .collect(),
        }
    }

    fn line(tool: &ToolDef) -> String {
        format!(
            "- {}: {}",
            tool.function.name,
            first_sentence(&tool.function.description)
        )
    }

    async fn ask(&self, system: String, user: String, grammar: String) -> String {
        let mut request = ChatRequest::new(
            &self.model,
            vec![Message::system(system), Message::user(user)],
        );
        request.grammar = Some(grammar);
        request.temperature = Some(0.0);
        request.max_tokens = Some(32);
        let mut ignore = |_| {};
        self.client
            .complete(&request, &mut ignore)
            .await
            .map(|r| r.content)
            .unwrap_or_default()
    }

    async fn which(&self, message: &str) -> Option<String> {
        let lines: Vec<String> = self.tools.iter().map(Self::line).collect();
        let system = format!(
            "These are the tools of a desktop assistant:\n{}",
            lines.join("\n")
        );
        let choices: Vec<String> = self
            .tools
            .iter()
            .map(|t| t.function.name.as_str())
            .chain(["none"])
            .map(|id| serde_json::to_string(id).unwrap_or_default())
            .collect();
        let grammar = format!(
            "root ::= \"{{\\\"tool\\\":\\\"\" choice \"\\\"}}\"\nchoice ::= {}\n",
            choices.join(" | ")
        );
        let said = self
            .ask(system, format!("Request: {message}\n\n{WHICH}"), grammar)
            .await;
        let said: serde_json::Value = serde_json::from_str(&said).ok()?;
        said["tool"].as_str().map(str::to_string)
    }

    async fn yes(&self, message: &str, tool: &ToolDef) -> bool {
        let user = format!(
            "Request: {message}\n\nTool {}\n\nDoes this tool do what the request asks (not just \
something related to it)? Answer yes or no.",
            Self::line(tool).trim_start_matches("- ")
        );
        let system = "You check whether a tool does what a request asks.".to_string();
        self.ask(system, user, "root ::= \"yes\" | \"no\"\n".into())
            .await
            == "yes"
    }

    fn tool(&self, id: &str) -> Option<&ToolDef> {
        self.tools.iter().find(|t| t.function.name == id)
    }
}

fn expected(case: &Case) -> Vec<&str> {
    case.expect.iter().map(|c| c.tool.as_str()).collect()
}

#[tokio::test]
#[ignore = "a measurement against a running llama-server (DESKMATE_CHECK_URL)"]
async fn which_tool() {
    let bench = Bench::new();
    let (mut none_right, mut none_all) = (0, 0);
    let (mut right, mut said_none, mut other, mut all) = (0, 0, 0, 0);
    for case in &bench.cases {
        let said = bench.which(case.message()).await;
        let expected = expected(case);
        let ok = match said.as_deref() {
            Some("none") => expected.is_empty(),
            Some(tool) => expected.contains(&tool),
            None => false,
        };
        if expected.is_empty() {
            none_all += 1;
            none_right += usize::from(ok);
        } else {
            all += 1;
            right += usize::from(ok);
            said_none += usize::from(said.as_deref() == Some("none"));
            other += usize::from(!ok && said.as_deref() != Some("none"));
        }
        if !ok {
            println!(
                "{} {:?} expected {expected:?}: {said:?}",
                case.id,
                case.message()
            );
        }
    }
    println!(
        "which tool: no call expected {none_right}/{none_all} none; a call expected \
{right}/{all} an expected tool, {said_none} none, {other} another"
    );
    assert!(none_all + all > 0, "no dev case");
}

#[tokio::test]
#[ignore = "a measurement against a running llama-server (DESKMATE_CHECK_URL)"]
async fn yes_or_no() {
    let bench = Bench::new();
    let (mut right_yes, mut right_all) = (0, 0);
    let (mut alike_no, mut alike_all) = (0, 0);
    let (mut none_yes, mut none_all) = (0, 0);
    for case in &bench.cases {
        let expected = expected(case);
        if expected.is_empty() {
            for tool in &bench.tools {
                none_all += 1;
                none_yes += usize::from(bench.yes(case.message(), tool).await);
            }
            continue;
        }
        let Some(tool) = bench.tool(expected[0]) else {
            continue;
        };
        right_all += 1;
        right_yes += usize::from(bench.yes(case.message(), tool).await);
        let alike = LOOK_ALIKES
            .iter()
            .find(|(of, _)| *of == expected[0])
            .map(|(_, alike)| *alike)
            .filter(|alike| !expected.contains(alike))
            .and_then(|alike| bench.tool(alike));
        if let Some(alike) = alike {
            alike_all += 1;
            alike_no += usize::from(!bench.yes(case.message(), alike).await);
        }
    }
    println!(
        "yes or no: the expected tool yes {right_yes}/{right_all}; a look-alike no \
{alike_no}/{alike_all}; cases expecting no call × every tool yes {none_yes}/{none_all}"
    );
    assert!(right_all > 0, "no dev case expects a call");
}
