//! Runs a case through the real agent loop and guard: a fresh service in a temporary data
//! dir per case (simulated devices, the CDISC ADSL dataset, the case's inline tools as
//! stubs, its scripted failure as a wrapper), the model copied from the user's service,
//! the turn restricted to the case's tools. What the model emitted is then judged twice:
//! as the guard ran it, and as a raw executor would have (only calls valid as emitted).

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use async_trait::async_trait;
use deskmate_agent::{Agent, AgentEvent, CallStatus, ChatTurn};
use deskmate_core::{
    Category, ErrorType, Localized, RepairRule, SideEffect, ToolError, ToolSpec, guard::Guard,
};
use deskmate_devices::Backends;
use deskmate_service::body::Body;
use deskmate_service::hooks::{ConfirmRequest, Confirmation, Confirmer};
use deskmate_service::model_input::NewLlmModel;
use deskmate_service::{Deskmate, ServiceError};
use deskmate_tools::{Tool, ToolConfig, ToolContext};
use serde::Serialize;
use serde_json::{Map, Value, json};
use tokio_util::sync::CancellationToken;

use super::check::calls_match;
use super::suite::{Case, CaseCategory, Fact, OfferedTool, ScriptedFailure, Split};

/// The CDISC pilot ADSL, the dataset the suite's dataset cases ask about.
const ADSL: &[u8] = include_bytes!("../../../../testdata/cdisc/adsl.csv");

/// The model under evaluation, as the user's service has it.
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
pub struct EvalModel {
    /// Its id in the user's service.
    pub id: String,
    /// Display name.
    pub name: String,
    /// The name the server knows.
    pub model: String,
    /// Where its server listens now.
    pub base_url: String,
    /// Its key (never serialized).
    #[serde(skip)]
    pub api_key: Option<String>,
    /// Sampling as configured.
    pub temperature: f64,
    /// Nucleus sampling as configured.
    pub top_p: f64,
    /// Most tokens per answer.
    pub max_tokens: i64,
    /// Streamed answers.
    pub streaming: bool,
}

impl EvalModel {
    /// A registered LLM model, with the URL its server listens on now.
    pub fn from_service(deskmate: &Deskmate, id: &str) -> Result<Self, ServiceError> {
        let m = deskmate.model_record::<deskmate_service::models::LlmModel>(Some(id))?;
        Ok(Self {
            base_url: deskmate.base_url_for(&m.id, &m.base_url, m.managed.as_deref()),
            api_key: deskmate.model_api_key(m.api_key_ref.as_deref()),
            id: m.id,
            name: m.name,
            model: m.model,
            temperature: m.temperature,
            top_p: m.top_p,
            max_tokens: m.max_tokens,
            streaming: m.streaming,
        })
    }
}

/// One call the model made, and what became of it.
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
pub struct CallRecord {
    /// The tool as the model named it.
    pub name: String,
    /// The arguments as the model wrote them.
    pub arguments: String,
    /// How it was written when it came from the text.
    pub extracted: Option<String>,
    /// Which model step of the turn made it (1-based).
    pub step: usize,
    /// How it ended: `done`, `failed`, `denied`, … (`None`: no result came back).
    #[schema(value_type = Option<String>)]
    pub status: Option<CallStatus>,
    /// The error, when it failed.
    pub error: Option<String>,
    /// The error's type.
    pub error_type: Option<ErrorType>,
    /// The tool it resolves to among the offered ones (none: a hallucinated tool).
    pub tool: Option<String>,
    /// The arguments after the guard's normalization (defaults not added).
    pub normalized: Option<Value>,
    /// The repairs the guard would make (rules).
    pub repairs: Vec<RepairRule>,
    /// Exact tool id, strict JSON object, schema-valid without any repair.
    pub valid_as_emitted: bool,
    /// A write (changes something).
    pub write: bool,
}

/// A case's outcome.
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
pub struct CaseResult {
    /// The case.
    pub id: String,
    /// Its category.
    pub category: CaseCategory,
    /// Its language.
    pub lang: String,
    /// Its part of the suite.
    pub split: Split,
    /// The case whose wordings it shares (its own id when it is no other's wording).
    pub wording_group: String,
    /// Task success with the guard.
    pub passed: bool,
    /// Task success as a raw executor would have had it.
    pub passed_raw: bool,
    /// Task success for a plain OpenAI-tools client: raw, and no call read from free
    /// text.
    pub passed_plain: bool,
    /// Whether the reply stated every fact the case names for it and made none of the
    /// claims it names (`None`: the case names none). Judged apart from task success.
    pub reply_states_facts: Option<bool>,
    /// What the reply left out of those facts, or claimed against them.
    pub reply_missing: Option<String>,
    /// Whether the reply made a claim the case says it must not make (`None`: the case
    /// names none).
    pub reply_claims_avoided: Option<bool>,
    /// The tools of the calls the person was asked to confirm and refused (they had not
    /// asked for them): each is a wrong call.
    pub refused: Vec<String>,
    /// Why it failed.
    pub reason: Option<String>,
    /// The calls, in the order made.
    pub calls: Vec<CallRecord>,
    /// What the assistant said.
    pub reply: String,
    /// The turn's time, all model requests and tool runs included.
    pub latency_ms: u64,
    /// A call to a tool not offered, or any call where none was wanted.
    pub hallucinated: bool,
    /// Whether the scripted failure happened.
    pub failure_fired: bool,
    /// Atomicity cases whose failure hit a group of writes: no partial state left.
    pub atomic: Option<bool>,
    /// The same for a raw executor (no compensation, no skipping).
    pub atomic_raw: Option<bool>,
}

/// Answers every choice question with the first option (a person who always agrees).
#[derive(Debug)]
struct FirstOption;

#[async_trait]
impl deskmate_devices::choice::Chooser for FirstOption {
    async fn choose(&self, _: &str, options: &[String], _: Duration) -> Option<usize> {
        (!options.is_empty()).then_some(0)
    }
}

/// Answers a confirmation as the case's person would: yes to a call of a tool the case
/// expects (for a batch, when it expects every tool of it), no to any other — a tool
/// chosen as a stand-in for what they asked is not what they want. What it refused is
/// kept: a call the person had to refuse is a wrong call, not one that did no harm.
#[derive(Debug)]
struct CaseConfirmer {
    expected: Vec<String>,
    refused: Arc<std::sync::Mutex<Vec<String>>>,
}

#[async_trait]
impl Confirmer for CaseConfirmer {
    async fn confirm(&self, request: ConfirmRequest) -> Confirmation {
        let batch: Vec<&str> = request
            .arguments
            .as_array()
            .map(|calls| calls.iter().filter_map(|c| c["tool"].as_str()).collect())
            .unwrap_or_default();
        let tools = if request.tool == "batch" {
            batch
        } else {
            vec![request.tool.as_str()]
        };
        if !tools.is_empty() && tools.iter().all(|t| self.expected.iter().any(|e| e == t)) {
            Confirmation::Approved
        } else {
            let mut refused = self
                .refused
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            if tools.is_empty() {
                refused.push(request.tool.clone());
            } else {
                refused.extend(tools.iter().map(|t| (*t).to_string()));
            }
            Confirmation::Denied
        }
    }
}

/// An inline tool: runs nothing, answers that it worked.
#[derive(Debug)]
struct Stub(ToolSpec);

#[async_trait]
impl Tool for Stub {
    fn spec(&self) -> &ToolSpec {
        &self.0
    }

    async fn run(&self, args: Value, _: ToolContext) -> Result<Value, ToolError> {
        Ok(json!({"ok": true, "tool": self.0.id, "arguments": args}))
    }
}

/// The first call fails as scripted; later calls run the tool.
#[derive(Debug)]
struct FailFirst {
    inner: Arc<dyn Tool>,
    failure: ScriptedFailure,
    fired: Arc<AtomicBool>,
}

#[async_trait]
impl Tool for FailFirst {
    fn spec(&self) -> &ToolSpec {
        self.inner.spec()
    }

    fn examples(&self) -> &[deskmate_tools::Example] {
        self.inner.examples()
    }

    async fn run(&self, args: Value, ctx: ToolContext) -> Result<Value, ToolError> {
        if self.fired.swap(true, Ordering::SeqCst) {
            return self.inner.run(args, ctx).await;
        }
        let mut error = ToolError::new(self.failure.error_type, self.failure.message.clone());
        if let Some(hint) = &self.failure.hint {
            error = error.with_hint(hint.clone());
        }
        Err(error)
    }
}

fn inline_spec(name: &str, description: &str, parameters: &Value) -> ToolSpec {
    ToolSpec {
        id: name.to_string(),
        name: Localized::new(name, name),
        summary: None,
        description: description.to_string(),
        category: Category::Query,
        parameters: parameters.clone(),
        side_effect: SideEffect::Read,
        idempotent: true,
        timeout_ms: 5_000,
        compensation: None,
    }
}

/// The device state an atomicity case checks: the volume and whether the camera is on.
fn device_state(backends: &Backends) -> (Option<u32>, bool) {
    (
        backends.mixer.volume().ok().map(|v| v.percent),
        backends.camera.state().is_some(),
    )
}

/// A case's service and what the judge needs from it.
struct Bench {
    agent: Arc<Agent>,
    backends: Backends,
    fired: Arc<AtomicBool>,
    refused: Arc<std::sync::Mutex<Vec<String>>>,
    model_id: String,
    /// Last: fields drop in order, and the service's database must be closed before its
    /// folder is removed (the other way round, its checkpoints failed with "disk I/O
    /// error").
    _dir: tempfile::TempDir,
}

fn setup(model: &EvalModel, case: &Case) -> Result<Bench, String> {
    let dir = tempfile::tempdir().map_err(|e| format!("temporary dir: {e}"))?;
    let datasets = dir.path().join("datasets");
    std::fs::create_dir_all(&datasets)
        .and_then(|()| std::fs::write(datasets.join("adsl.csv"), ADSL))
        .map_err(|e| format!("dataset: {e}"))?;
    let mut backends = Backends::simulated();
    backends.chooser = Some(Arc::new(FirstOption));
    let mut extra = deskmate_devices::system_tools(&backends);
    for tool in case.listed() {
        if let OfferedTool::Inline(inline) = tool {
            extra.push(Arc::new(Stub(inline_spec(
                &inline.name,
                &inline.description,
                &inline.parameters,
            ))));
        }
    }
    let fired = Arc::new(AtomicBool::new(false));
    if let Some(failure) = &case.fail_first {
        let builtin = deskmate_tools::builtin_tools(&ToolConfig::for_data_dir(dir.path()));
        let inner = extra
            .iter()
            .chain(&builtin)
            .find(|t| t.spec().id == failure.tool)
            .cloned()
            .ok_or_else(|| format!("fail_first: {} cannot be scripted", failure.tool))?;
        extra.push(Arc::new(FailFirst {
            inner,
            failure: failure.clone(),
            fired: fired.clone(),
        }));
    }
    let refused = Arc::new(std::sync::Mutex::new(Vec::new()));
    let confirmer = CaseConfirmer {
        expected: case.expect.iter().map(|c| c.tool.clone()).collect(),
        refused: refused.clone(),
    };
    let deskmate = Deskmate::open_with_tools(dir.path(), Arc::new(confirmer), extra)
        .map_err(|e| format!("service: {e}"))?;
    let known: Vec<String> = deskmate.specs().into_iter().map(|s| s.id).collect();
    if let Some(unknown) = case.offered().iter().find(|id| !known.contains(id)) {
        return Err(format!("the suite offers an unknown tool: {unknown}"));
    }
    if let Some(unknown) = case
        .expect
        .iter()
        .map(|c| &c.tool)
        .find(|id| !known.contains(id))
    {
        return Err(format!("the suite expects an unknown tool: {unknown}"));
    }
    let mut input = json!({
        "name": model.name,
        "base_url": model.base_url,
        "model": model.model,
        "temperature": model.temperature,
        "top_p": model.top_p,
        "max_tokens": model.max_tokens,
        "streaming": model.streaming,
        "is_default": true,
    });
    if let Some(key) = &model.api_key {
        input["api_key"] = json!(key);
    }
    let input = NewLlmModel::read(&input).map_err(|errors| {
        let listed: Vec<String> = errors
            .iter()
            .map(|e| format!("{}: {}", e.path, e.message))
            .collect();
        format!("model: {}", listed.join("; "))
    })?;
    let created = deskmate
        .create_model::<deskmate_service::models::LlmModel>(input)
        .map_err(|e| format!("model: {e}"))?;
    let model_id = created.id;
    Ok(Bench {
        _dir: dir,
        agent: Agent::new(Arc::new(deskmate)),
        backends,
        fired,
        refused,
        model_id,
    })
}

/// What the agent reported during the turn.
struct Turn {
    calls: Vec<CallRecord>,
    reply: String,
    error: Option<String>,
}

fn collect(events: Vec<AgentEvent>) -> Turn {
    let mut calls: Vec<CallRecord> = Vec::new();
    let mut by_id: HashMap<String, usize> = HashMap::new();
    let mut step = 0;
    let mut in_results = true;
    let mut reply = String::new();
    let mut error = None;
    for event in events {
        match event {
            AgentEvent::ToolCall {
                id,
                name,
                arguments,
                extracted,
            } => {
                if in_results {
                    step += 1;
                    in_results = false;
                }
                by_id.insert(id, calls.len());
                calls.push(CallRecord {
                    name,
                    arguments,
                    extracted,
                    step,
                    status: None,
                    error: None,
                    error_type: None,
                    tool: None,
                    normalized: None,
                    repairs: Vec::new(),
                    valid_as_emitted: false,
                    write: false,
                });
            }
            AgentEvent::ToolResult {
                id, status, result, ..
            } => {
                in_results = true;
                // Compensations have ids of their own and are not the model's calls.
                if let Some(&i) = by_id.get(&id) {
                    calls[i].status = Some(status);
                    calls[i].error = result.error.clone();
                    calls[i].error_type = result.error_type;
                }
            }
            AgentEvent::Done { reply: text, .. } => reply = text,
            AgentEvent::Error { message, .. } => error = Some(message),
            AgentEvent::Plan { .. } | AgentEvent::Token { .. } | AgentEvent::Prompt { .. } => {}
        }
    }
    Turn {
        calls,
        reply,
        error,
    }
}

/// Judges each call as the guard sees it, without running anything.
fn judge_calls(calls: &mut [CallRecord], offered: &[String], specs: &[ToolSpec]) {
    let offered_specs: Vec<ToolSpec> = specs
        .iter()
        .filter(|s| offered.contains(&s.id))
        .cloned()
        .collect();
    let Ok(guard) = Guard::new(offered_specs.clone()) else {
        return;
    };
    for call in calls {
        call.tool =
            deskmate_core::resolve::resolve_name(&call.name, offered.iter().map(String::as_str))
                .ok()
                .map(|(id, _)| id.to_string());
        call.write = offered_specs
            .iter()
            .find(|s| Some(&s.id) == call.tool.as_ref())
            .is_some_and(|s| s.side_effect != SideEffect::Read);
        let strict = serde_json::from_str::<Value>(&call.arguments)
            .ok()
            .is_some_and(|v| v.is_object());
        if let Ok(prepared) = guard.prepare(&call.name, Value::String(call.arguments.clone())) {
            let mut arguments = prepared.arguments;
            for repair in &prepared.repairs {
                if repair.rule == RepairRule::DefaultValue
                    && let Some((parent, key)) = repair.path.rsplit_once('/')
                    && let Some(object) =
                        arguments.pointer_mut(parent).and_then(Value::as_object_mut)
                {
                    object.remove(&key.replace("~1", "/").replace("~0", "~"));
                }
            }
            call.repairs = prepared
                .repairs
                .iter()
                .map(|r| r.rule)
                .filter(|r| *r != RepairRule::DefaultValue)
                .collect();
            call.valid_as_emitted =
                strict && call.repairs.is_empty() && offered.contains(&call.name);
            call.normalized = Some(arguments);
        }
    }
}

fn as_made(calls: &[&CallRecord]) -> Vec<(String, Map<String, Value>)> {
    calls
        .iter()
        .map(|c| {
            (
                c.tool.clone().unwrap_or_else(|| c.name.clone()),
                c.normalized
                    .as_ref()
                    .and_then(Value::as_object)
                    .cloned()
                    .unwrap_or_default(),
            )
        })
        .collect()
}

/// Runs one case; a case that cannot even start is a failed case saying why. With
/// `every_tool` (or a case whose tools are `"all"`) the turn offers every enabled tool
/// of the case's service, the case's inline tools among them.
pub async fn run_case(
    model: &EvalModel,
    case: &Case,
    timeout: Duration,
    every_tool: bool,
) -> CaseResult {
    let mut result = CaseResult {
        id: case.id.clone(),
        category: case.category,
        lang: case.lang.clone(),
        split: case.split,
        wording_group: case.wording_group().to_string(),
        passed: false,
        passed_raw: false,
        passed_plain: false,
        reply_states_facts: None,
        reply_missing: None,
        reply_claims_avoided: None,
        refused: Vec::new(),
        reason: None,
        calls: Vec::new(),
        reply: String::new(),
        latency_ms: 0,
        hallucinated: false,
        failure_fired: false,
        atomic: None,
        atomic_raw: None,
    };
    let bench = match setup(model, case) {
        Ok(bench) => bench,
        Err(why) => {
            result.reason = Some(why);
            return result;
        }
    };
    let every_tool = every_tool || case.offers_all();
    let offered: Vec<String> = if every_tool {
        bench
            .agent
            .deskmate()
            .enabled_specs()
            .into_iter()
            .map(|s| s.id)
            .collect()
    } else {
        case.offered()
    };
    let before = device_state(&bench.backends);
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
    let cancel = CancellationToken::new();
    let turn = ChatTurn {
        message: case.message().to_string(),
        model_id: Some(bench.model_id.clone()),
        conversation_id: None,
        tools: (!every_tool).then(|| offered.clone()),
        // The person's window is in the language of the case.
        locale: Some(case.lang.clone()),
        branch: None,
    };
    let started = Instant::now();
    let outcome = tokio::time::timeout(timeout, bench.agent.chat(turn, &tx, &cancel)).await;
    result.latency_ms = u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX);
    let timed_out = outcome.is_err();
    if timed_out {
        cancel.cancel();
    }
    drop(tx);
    let mut events = Vec::new();
    while let Ok(event) = rx.try_recv() {
        events.push(event);
    }
    let turn = collect(events);
    let mut calls = turn.calls;
    judge_calls(&mut calls, &offered, &bench.agent.deskmate().specs());
    result.reply = turn.reply;
    result.failure_fired = bench.fired.load(Ordering::SeqCst);
    result.refused = bench
        .refused
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .clone();
    let offered_only = calls.iter().all(|c| c.tool.is_some());
    result.hallucinated =
        !offered_only || (case.category == CaseCategory::Irrelevance && !calls.is_empty());

    // Every call the model made is judged, whether it ran or not: one the person was asked
    // about and refused was a wrong call (a stand-in, or a look-alike), even though it
    // changed nothing.
    let judged = judge(case, &calls).and_then(|()| match result.refused.as_slice() {
        [] => Ok(()),
        refused => Err(format!(
            "asked the person to confirm {}, which they had not asked for (refused)",
            refused.join(", ")
        )),
    });
    result.passed = judged.is_ok() && offered_only;
    result.reason = match (&judged, timed_out, outcome) {
        (_, true, _) => Some(format!("the turn timed out after {} s", timeout.as_secs())),
        (_, _, Ok(Err(e))) => Some(format!("the turn could not run: {e}")),
        (Err(why), ..) => Some(why.clone()),
        (Ok(()), ..) if !offered_only => Some("called a tool that was not offered".into()),
        _ => None,
    };
    if result.reason.is_none()
        && let Some(error) = turn.error
    {
        result.reason = Some(error);
        result.passed = false;
    }
    if timed_out {
        result.passed = false;
    }
    // The person reads the reply: judged with the facts the case names, never with the
    // loop's own rules (which made the reply).
    if let Some(missing) = reply_missing(case, &result.reply) {
        result.reply_states_facts = Some(missing.is_none());
        result.reply_missing = missing;
    }
    if !case.reply_avoids.is_empty() {
        result.reply_claims_avoided = Some(!claimed(case, &result.reply).is_empty());
    }
    result.passed_raw = result.passed
        && calls
            .iter()
            .all(|c| c.valid_as_emitted || scripted(case, c))
        && (case.category != CaseCategory::Irrelevance || calls.is_empty());
    result.passed_plain = result.passed_raw && calls.iter().all(|c| c.extracted.is_none());

    if case.category == CaseCategory::Atomicity && result.failure_fired {
        let failing = case.fail_first.as_ref().map(|f| f.tool.as_str());
        // The batch the scripted failure hit: the first call of the failing tool.
        if let Some(hit) = calls
            .iter()
            .find(|c| c.tool.as_deref() == failing && c.status == Some(CallStatus::Failed))
        {
            let others: Vec<&CallRecord> = calls
                .iter()
                .filter(|c| c.step == hit.step && c.write && !std::ptr::eq(*c, hit))
                .collect();
            if !others.is_empty() {
                // Judged on the step the failure hit: no other write of it may stay done
                // (undone = compensated, not run = skipped). A later step may redo the
                // group on purpose; when no other step wrote anything, the devices must
                // also be as they were before the turn.
                let left_done = others.iter().any(|c| c.status == Some(CallStatus::Done));
                let wrote_elsewhere = calls
                    .iter()
                    .any(|c| c.step != hit.step && c.write && c.status == Some(CallStatus::Done));
                let restored = wrote_elsewhere || device_state(&bench.backends) == before;
                result.atomic = Some(!left_done && restored);
                // A raw executor runs every valid write and undoes nothing.
                result.atomic_raw = Some(!others.iter().any(|c| c.valid_as_emitted));
            }
        }
    }
    result.calls = calls;
    result
}

/// What the reply fails to state of the facts the case names, or claims against them;
/// `None` when the case names none.
fn reply_missing(case: &Case, reply: &str) -> Option<Option<String>> {
    if case.reply_states.is_empty() && case.reply_avoids.is_empty() {
        return None;
    }
    let missing: Vec<String> = case
        .reply_states
        .iter()
        .filter(|fact| !fact.stated_in(reply))
        .map(|fact| match fact {
            Fact::One(text) => format!("does not state {text:?}"),
            Fact::Any(texts) => format!("states none of {texts:?}"),
        })
        .chain(
            claimed(case, reply)
                .into_iter()
                .map(|claim| format!("claims {claim:?}")),
        )
        .collect();
    Some((!missing.is_empty()).then(|| missing.join("; ")))
}

/// The claims the case rules out that the reply makes.
fn claimed<'a>(case: &'a Case, reply: &str) -> Vec<&'a String> {
    case.reply_avoids
        .iter()
        .filter(|claim| Fact::One((*claim).clone()).stated_in(reply))
        .collect()
}

/// Whether a call is the one the scripted failure hit.
fn scripted(case: &Case, call: &CallRecord) -> bool {
    case.fail_first.as_ref().is_some_and(|f| {
        call.tool.as_deref() == Some(f.tool.as_str())
            && call.error.as_deref() == Some(f.message.as_str())
    })
}

/// An irrelevance case passes when the model made no call (run or not).
fn judge_irrelevance(calls: &[CallRecord]) -> Result<(), String> {
    if calls.is_empty() {
        return Ok(());
    }
    let names: Vec<&str> = calls.iter().map(|c| c.name.as_str()).collect();
    Err(format!("called {} where no tool fits", names.join(", ")))
}

/// Task success from the calls, by category.
fn judge(case: &Case, calls: &[CallRecord]) -> Result<(), String> {
    match case.category {
        CaseCategory::Irrelevance => judge_irrelevance(calls),
        // The group as first asked for: every call of the step the failure hit.
        CaseCategory::Atomicity => {
            let first_step = calls.first().map_or(0, |c| c.step);
            let group: Vec<&CallRecord> = calls.iter().filter(|c| c.step == first_step).collect();
            calls_match(&case.expect, &as_made(&group)).map_err(|m| m.0)
        }
        // What ran and succeeded (a scripted failure and refused calls do not count).
        _ => {
            let done: Vec<&CallRecord> = calls
                .iter()
                .filter(|c| c.status == Some(CallStatus::Done))
                .collect();
            if done.is_empty() && !calls.is_empty() {
                let last = calls.last().map_or(String::new(), |c| {
                    format!("{} failed: {}", c.name, c.error.clone().unwrap_or_default())
                });
                return Err(format!("no call succeeded ({last})"));
            }
            if calls.is_empty() {
                return Err("no tool was called".into());
            }
            calls_match(&case.expect, &as_made(&done)).map_err(|m| m.0)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(name: &str, arguments: &str, step: usize, status: CallStatus) -> CallRecord {
        CallRecord {
            name: name.into(),
            arguments: arguments.into(),
            extracted: None,
            step,
            status: Some(status),
            error: None,
            error_type: None,
            tool: None,
            normalized: None,
            repairs: Vec::new(),
            valid_as_emitted: false,
            write: false,
        }
    }

    fn volume_specs() -> Vec<ToolSpec> {
        let backends = Backends::simulated();
        deskmate_devices::system_tools(&backends)
            .iter()
            .map(|t| t.spec().clone())
            .collect()
    }

    /// A tool wrapped to fail first reads to the model as the tool it wraps: the same
    /// worked examples, so the case's prompt is the one every turn has.
    #[test]
    fn a_wrapped_tool_keeps_what_the_model_reads_of_it() {
        let backends = Backends::simulated();
        for inner in deskmate_devices::system_tools(&backends) {
            let wrapped = FailFirst {
                inner: inner.clone(),
                failure: ScriptedFailure {
                    tool: inner.spec().id.clone(),
                    error_type: ErrorType::Transient,
                    message: "busy".into(),
                    hint: None,
                },
                fired: Arc::new(AtomicBool::new(false)),
            };
            assert_eq!(wrapped.examples(), inner.examples());
        }
    }

    #[test]
    fn calls_are_judged_as_emitted_and_as_the_guard_runs_them() {
        let offered = vec!["increase_volume".to_string(), "turn_on_camera".to_string()];
        let mut calls = vec![
            record("increase_volume", r#"{"step": 20}"#, 1, CallStatus::Done),
            record("increase_volume", r#"{"step": "20%"}"#, 1, CallStatus::Done),
            record("Increase-Volume", "{}", 1, CallStatus::Done),
            record("increase_volume", r#"{"step": 500}"#, 1, CallStatus::Failed),
            record("mute_everything", "{}", 1, CallStatus::Failed),
            record("increase_volume", "{'step': 5,}", 1, CallStatus::Done),
        ];
        judge_calls(&mut calls, &offered, &volume_specs());
        let seen: Vec<(Option<&str>, bool, Option<Value>)> = calls
            .iter()
            .map(|c| (c.tool.as_deref(), c.valid_as_emitted, c.normalized.clone()))
            .collect();
        assert_eq!(
            seen,
            vec![
                (Some("increase_volume"), true, Some(json!({"step": 20}))),
                (Some("increase_volume"), false, Some(json!({"step": 20}))),
                // A loose name is repaired by the guard but not valid as emitted; the
                // default step is not counted as something the model said.
                (Some("increase_volume"), false, Some(json!({}))),
                (Some("increase_volume"), false, None),
                (None, false, None),
                // Broken JSON is never valid as emitted, whatever the guard makes of it.
                (Some("increase_volume"), false, calls[5].normalized.clone()),
            ]
        );
        assert!(calls[0].write);
    }
}
