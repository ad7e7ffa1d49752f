//! Autotest: what QA runs to see that Deskmate works here and now. Every check is real:
//! a database lookup, a request to the model server with its latency, a stream with its
//! chunks counted, a phrase spoken by espeak-ng and transcribed, each tool's schema and
//! executor. A server that is down, slow, wrong about its model or refuses the key gives
//! a failed check with a clear message within its timeout.
//!
//! [`Autotest::run`] runs and stores a full run (the API contract's `AutotestResult`);
//! [`Autotest::llm`] and [`Autotest::asr`] one model; checks are reported to a callback
//! as they finish.

mod asr;
pub mod eval;
mod history;
mod junit;
mod llm;

pub use history::{Change, Comparison, compare};
pub use junit::junit;

use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use deskmate_agent::Agent;
use deskmate_core::{Localized, said};
use deskmate_service::{Deskmate, ServiceError};
use deskmate_store::autotest::AutotestRun;
use deskmate_tools::Verdict;
use futures_util::StreamExt;
use futures_util::future::BoxFuture;
use serde::{Deserialize, Serialize};
use serde_json::Value;

pub use llm::TestMessage;

/// How a check ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// It works.
    Passed,
    /// It does not; the message says why and what to do.
    Failed,
    /// Not checked; the message says why (no dataset to run on, disabled, …).
    Skipped,
}

/// One check (the API contract's `TestCase`, plus its `status`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct TestCase {
    /// What was checked (`Model Existence`, `API Connection`, …).
    pub name: String,
    /// Whether it passed (`false` for a failed and for a skipped check).
    pub passed: bool,
    /// Passed, failed or skipped.
    pub status: Status,
    /// What was found, or what is wrong and how to fix it.
    pub message: String,
    /// How long the check took.
    pub duration_ms: u64,
    /// The name and message in Chinese (runs stored before they were kept have none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub zh: Option<CaseZh>,
}

/// A check's name and message in Chinese (`name` and `message` are English).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct CaseZh {
    /// What was checked.
    pub name: String,
    /// What was found, or what is wrong and how to fix it.
    pub message: String,
}

/// Counts (the API contract's `TestSummary`, plus `skipped`): `total = passed + failed + skipped`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct Summary {
    /// Checks passed.
    pub passed: usize,
    /// Checks failed.
    pub failed: usize,
    /// Checks skipped.
    #[serde(default)]
    pub skipped: usize,
    /// All checks.
    pub total: usize,
}

/// A run (the API contract's `AutotestResult`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct AutotestResult {
    /// Run id.
    pub id: String,
    /// Unix seconds.
    pub started_at: f64,
    /// Total time.
    pub duration_ms: u64,
    /// What the run checked (runs stored before it was recorded: all false).
    #[serde(default)]
    pub scope: Scope,
    /// The checks in their planned order (they run concurrently; the stream reports
    /// each as it finishes).
    pub tests: Vec<TestCase>,
    /// Counts.
    pub summary: Summary,
}

/// The kind of model a single-model run checks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ModelUnderTest {
    /// A chat model: five checks.
    Llm,
    /// A transcription model: four checks.
    Asr,
}

/// Which groups of checks a run had.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct Scope {
    /// The LLM checks.
    pub llm: bool,
    /// The ASR checks.
    pub asr: bool,
    /// Every tool's self-check.
    pub tools: bool,
    /// The devices' readiness.
    pub devices: bool,
}

/// What a full run checks (the API contract's query parameters).
#[derive(Debug, Clone)]
pub struct RunRequest {
    /// LLM model; the default when absent.
    pub llm_model_id: Option<String>,
    /// ASR model; the default when absent.
    pub asr_model_id: Option<String>,
    /// Check the LLM.
    pub test_llm: bool,
    /// Check the ASR.
    pub test_asr: bool,
}

impl Default for RunRequest {
    fn default() -> Self {
        Self {
            llm_model_id: None,
            asr_model_id: None,
            test_llm: true,
            test_asr: true,
        }
    }
}

/// Time limits of the checks that talk to servers.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Connecting.
    pub connect: Duration,
    /// Waiting for an answer (a local model may take seconds).
    pub response: Duration,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            connect: Duration::from_secs(3),
            response: Duration::from_secs(60),
        }
    }
}

/// One device's readiness, as a probe reports it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeviceCheck {
    /// The device (`Mixer`, `Camera`, …).
    pub device: String,
    /// Whether it can be used now.
    pub ready: bool,
    /// What was found, or what is wrong and how to fix it.
    pub message: Localized,
}

/// Reports each device's readiness: `probe` may block (it asks the OS) and runs on the
/// blocking pool; `devices` names what it reports on, so a run's size is known up front.
#[derive(Clone)]
pub struct DeviceProbe {
    /// The devices `probe` reports on.
    pub devices: Vec<String>,
    /// Asks the OS.
    pub probe: Arc<dyn Fn() -> Vec<DeviceCheck> + Send + Sync>,
}

impl std::fmt::Debug for DeviceProbe {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DeviceProbe")
            .field("devices", &self.devices)
            .finish_non_exhaustive()
    }
}

/// Runs the checks.
#[derive(Clone)]
pub struct Autotest {
    deskmate: Arc<Deskmate>,
    /// The agent over that service (the LLM's Tool Calling check sends a turn's request).
    agent: Arc<Agent>,
    limits: Limits,
    devices: Option<DeviceProbe>,
}

impl std::fmt::Debug for Autotest {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Autotest")
            .field("limits", &self.limits)
            .field("devices", &self.devices.is_some())
            .finish()
    }
}

/// How many tool self-checks run at the same time in a full run.
pub const TOOL_CHECKS_AT_ONCE: usize = 8;

/// The check that reads every secret back from the store in use (the OS keyring or the
/// owner-only file) and says which store that is.
const SECRET_STORE: &str = "Secret Store";

/// A tool's check name.
fn tool_check(id: &str) -> String {
    format!("Tool: {id}")
}

/// An MCP server's check name.
fn mcp_check(server: &str) -> String {
    format!("MCP server: {server}")
}

/// How long the autotest waits for an MCP server that is still starting.
const MCP_STARTING_WAIT: Duration = Duration::from_secs(10);

/// An MCP server's check from its status: running (reachable, its protocol revision,
/// its tool count) passes, failed fails with the reason, disabled is skipped; `None`
/// while it is starting, unless `give_up`.
fn mcp_verdict(server: &Value, give_up: bool) -> Option<Verdict> {
    let name = server["name"].as_str().unwrap_or_default();
    let status = &server["status"];
    Some(match status["state"].as_str().unwrap_or_default() {
        "running" if server["changed"].as_array().is_some_and(|c| !c.is_empty()) => {
            let tools = server["changed"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|c| c["tool"].as_str())
                .collect::<Vec<_>>()
                .join(", ");
            Verdict::Failed(said!(
                "可以连接，但 {tools} 的定义与认可时不同（在 MCP 页面认可之前保持停用）",
                "reachable, but the definition of {tools} changed since accepted (disabled until approved under MCP)"
            ))
        }
        "running" => {
            let protocol = status["protocol"].as_str().unwrap_or("?");
            let tools = status["tools"].as_u64().unwrap_or(0);
            Verdict::Passed(said!(
                "可以连接；协议 {protocol}；导入了 {tools} 个工具；定义与认可时一致",
                "reachable; protocol {protocol}; {tools} tools imported; their definitions as accepted"
            ))
        }
        "disabled" => Verdict::Skipped(said!("已在 MCP 页面停用", "disabled under MCP")),
        "failed" => {
            let reason = status["reason"].as_str().unwrap_or("not reachable");
            Verdict::Failed(said!(
                "“{reason}”；请在 MCP 页面检查它的命令或网址（stdio 服务器的输出在 logs/mcp-{name}.log）",
                "{reason}; check its command or URL under MCP (a stdio server's messages are in logs/mcp-{name}.log)"
            ))
        }
        _ if give_up => {
            let seconds = MCP_STARTING_WAIT.as_secs();
            Verdict::Failed(said!(
                "{seconds} 秒后仍在启动；请在 MCP 页面检查它的命令或网址",
                "still starting after {seconds} s; check its command or URL under MCP"
            ))
        }
        _ => return None,
    })
}

/// A check's name in Chinese: the fixed checks by name, a tool by its display name, a
/// device or MCP server with its kind in front.
fn name_zh(name: &str, tool_names: &dyn Fn(&str) -> Option<String>) -> String {
    let fixed = match name {
        "Model Existence" => Some("模型存在"),
        "API Connection" => Some("API 连接"),
        "Temperature Setting" => Some("温度设置"),
        "Streaming Support" => Some("流式输出"),
        "Tool Calling" => Some("工具调用"),
        "Hotwords Config" => Some("热词配置"),
        "API Availability" => Some("API 可用性"),
        "Language Config" => Some("语言配置"),
        SECRET_STORE => Some("密钥存储"),
        _ => None,
    };
    if let Some(fixed) = fixed {
        return fixed.to_string();
    }
    if let Some(id) = name.strip_prefix("Tool: ") {
        return match tool_names(id) {
            Some(shown) => format!("工具：{shown}（{id}）"),
            None => format!("工具：{id}"),
        };
    }
    if let Some(device) = name.strip_prefix("Device: ") {
        return format!(
            "设备：{}",
            deskmate_devices::readiness::device_name(device).zh
        );
    }
    if let Some(server) = name.strip_prefix("MCP server: ") {
        return format!("MCP 服务器：{server}");
    }
    name.to_string()
}

/// A device's check name.
fn device_check(device: &str) -> String {
    format!("Device: {device}")
}

/// Why a check did not run: the check it needs failed.
pub(crate) fn not_run(after: &str) -> Localized {
    let needed = name_zh(after, &|_| None);
    said!("没有运行：“{needed}”未通过", "not run: {after} failed")
}

/// Receives each check as it finishes.
pub type OnCheck<'a> = &'a mut (dyn FnMut(&TestCase) + Send);

fn unix_now() -> f64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs_f64())
        .unwrap_or_default()
}

fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

/// Collects checks from groups that run concurrently and reports each as it finishes;
/// the run lists them in planned order: by group, then by the group's planned names.
pub(crate) struct Checks<'a> {
    state: Mutex<Collected<'a>>,
    /// Each tool's name in Chinese, for its check's name.
    tool_zh: std::collections::HashMap<String, String>,
}

struct Collected<'a> {
    tests: Vec<((usize, usize), TestCase)>,
    on_check: OnCheck<'a>,
}

/// One group of checks (the LLM's, the ASR model's, the tools', the devices').
pub(crate) struct Group<'c, 'a> {
    checks: &'c Checks<'a>,
    index: usize,
    planned: Vec<String>,
}

impl<'a> Checks<'a> {
    fn new(on_check: OnCheck<'a>) -> Self {
        Self {
            state: Mutex::new(Collected {
                tests: Vec::new(),
                on_check,
            }),
            tool_zh: std::collections::HashMap::new(),
        }
    }

    /// Names the tools' checks with these Chinese names (by tool id).
    fn with_tool_names(mut self, names: impl IntoIterator<Item = (String, String)>) -> Self {
        self.tool_zh = names.into_iter().collect();
        self
    }

    /// The group listed `index`-th, whose checks are listed in the order of `planned`.
    pub(crate) fn group<S: Into<String>>(
        &self,
        index: usize,
        planned: impl IntoIterator<Item = S>,
    ) -> Group<'_, 'a> {
        Group {
            checks: self,
            index,
            planned: planned.into_iter().map(Into::into).collect(),
        }
    }

    fn into_tests(self) -> Vec<TestCase> {
        let mut tests = self
            .state
            .into_inner()
            .unwrap_or_else(PoisonError::into_inner)
            .tests;
        tests.sort_by_key(|(order, _)| *order);
        tests.into_iter().map(|(_, case)| case).collect()
    }
}

impl Group<'_, '_> {
    /// Model Existence: the model, or a failed check (with the group's other checks
    /// marked as not run).
    pub(crate) fn existence<M>(
        &self,
        kind: &str,
        model_id: Option<&str>,
        found: Result<M, ServiceError>,
        name: impl Fn(&M) -> String,
    ) -> Option<M> {
        let started = Instant::now();
        match found {
            Ok(model) => {
                let found = name(&model);
                self.record(
                    "Model Existence",
                    started,
                    Ok(said!("找到模型：“{found}”", "Found model: {found}")),
                );
                Some(model)
            }
            Err(e) => {
                let why = match (&e, model_id) {
                    (ServiceError::NotFound { .. }, Some(id)) => said!(
                        "数据库中没有 ID 为“{id}”的 {kind} 模型",
                        "no {kind} model with id '{id}' in the database"
                    ),
                    (ServiceError::NotFound { .. }, None) => said!(
                        "没有配置 {kind} 模型：运行 scripts/setup.sh 安装本地模型，或在“模型”页面添加一个",
                        "no {kind} model is configured: run scripts/setup.sh for the local one, or add one under Models"
                    ),
                    _ => Localized::same(e.to_string()),
                };
                self.record("Model Existence", started, Err(why));
                for check in self.planned.iter().filter(|p| *p != "Model Existence") {
                    self.record(check, Instant::now(), Err(not_run("Model Existence")));
                }
                None
            }
        }
    }

    /// Records a passed (`Ok`) or failed (`Err`) check; returns whether it passed.
    pub(crate) fn record(
        &self,
        name: &str,
        started: Instant,
        outcome: Result<Localized, Localized>,
    ) -> bool {
        self.record_took(name, started.elapsed(), outcome)
    }

    /// Records a check that took `took` (and has finished).
    pub(crate) fn record_took(
        &self,
        name: &str,
        took: Duration,
        outcome: Result<Localized, Localized>,
    ) -> bool {
        let passed = outcome.is_ok();
        let (status, message) = match outcome {
            Ok(message) => (Status::Passed, message),
            Err(message) => (Status::Failed, message),
        };
        self.push(name, took, status, message);
        passed
    }

    /// Records a tool's self-check verdict.
    pub(crate) fn verdict(&self, name: &str, started: Instant, verdict: Verdict) {
        let (status, message) = match verdict {
            Verdict::Passed(m) => (Status::Passed, m),
            Verdict::Failed(m) => (Status::Failed, m),
            Verdict::Skipped(m) => (Status::Skipped, m),
        };
        self.push(name, started.elapsed(), status, message);
    }

    fn push(&self, name: &str, took: Duration, status: Status, message: Localized) {
        let rank = self
            .planned
            .iter()
            .position(|p| p == name)
            .unwrap_or(self.planned.len());
        let tool_zh = &self.checks.tool_zh;
        let case = TestCase {
            name: name.to_string(),
            passed: status == Status::Passed,
            status,
            message: message.en,
            duration_ms: millis(took),
            zh: Some(CaseZh {
                name: name_zh(name, &|id| tool_zh.get(id).cloned()),
                message: message.zh,
            }),
        };
        let mut state = self
            .checks
            .state
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        (state.on_check)(&case);
        state.tests.push(((self.index, rank), case));
    }
}

impl Autotest {
    /// Checks for an agent's service with the default limits.
    pub fn new(agent: Arc<Agent>) -> Self {
        Self {
            deskmate: agent.deskmate().clone(),
            agent,
            limits: Limits::default(),
            devices: None,
        }
    }

    /// Adds one check per device to the full run.
    #[must_use]
    pub fn with_devices(mut self, probe: Option<DeviceProbe>) -> Self {
        self.devices = probe;
        self
    }

    /// How many checks [`Autotest::run`] will report for `request` (for a progress bar):
    /// five for the LLM, four for the ASR model, one per tool, one per probed device, and
    /// the secret store.
    pub fn planned(&self, request: &RunRequest) -> usize {
        let models = 5 * usize::from(request.test_llm) + 4 * usize::from(request.test_asr);
        let devices = self.devices.as_ref().map_or(0, |probe| probe.devices.len());
        let secrets = usize::from(self.deskmate.secrets().is_some());
        models + self.deskmate.registry().specs().count() + devices + secrets
    }

    /// Uses these limits.
    #[must_use]
    pub fn with_limits(mut self, limits: Limits) -> Self {
        self.limits = limits;
        self
    }

    /// Checks one LLM model (the default when `None`) and stores the run.
    pub async fn llm(
        &self,
        model_id: Option<&str>,
        on_check: OnCheck<'_>,
    ) -> Result<AutotestResult, ServiceError> {
        self.model(ModelUnderTest::Llm, model_id, on_check).await
    }

    /// Checks one ASR model (the default when `None`) and stores the run.
    pub async fn asr(
        &self,
        model_id: Option<&str>,
        on_check: OnCheck<'_>,
    ) -> Result<AutotestResult, ServiceError> {
        self.model(ModelUnderTest::Asr, model_id, on_check).await
    }

    /// Checks one model of a kind and stores the run.
    pub async fn model(
        &self,
        kind: ModelUnderTest,
        model_id: Option<&str>,
        on_check: OnCheck<'_>,
    ) -> Result<AutotestResult, ServiceError> {
        let started_at = unix_now();
        let started = Instant::now();
        let checks = Checks::new(on_check);
        let mut scope = Scope::default();
        let name = match kind {
            ModelUnderTest::Llm => {
                let group = checks.group(0, llm::CHECKS);
                llm::check(&self.agent, model_id, self.limits, &group).await;
                scope.llm = true;
                "llm"
            }
            ModelUnderTest::Asr => {
                let group = checks.group(0, asr::CHECKS);
                asr::check(&self.deskmate, model_id, self.limits, &group).await;
                scope.asr = true;
                "asr"
            }
        };
        self.finish(name, scope, started_at, started, checks.into_tests())
    }

    /// The full run: LLM and ASR checks as asked, every tool's self-check and every
    /// device, the groups concurrently (at most [`TOOL_CHECKS_AT_ONCE`] tool checks at a
    /// time); stored.
    pub async fn run(
        &self,
        request: &RunRequest,
        on_check: OnCheck<'_>,
    ) -> Result<AutotestResult, ServiceError> {
        let started_at = unix_now();
        let started = Instant::now();
        let registry = self.deskmate.registry();
        let checks = Checks::new(on_check)
            .with_tool_names(registry.specs().map(|s| (s.id.clone(), s.name.zh.clone())));
        let llm_group = checks.group(0, llm::CHECKS);
        let llm = async {
            if request.test_llm {
                let id = request.llm_model_id.as_deref();
                llm::check(&self.agent, id, self.limits, &llm_group).await;
            }
        };
        let asr_group = checks.group(1, asr::CHECKS);
        let asr = async {
            if request.test_asr {
                let id = request.asr_model_id.as_deref();
                asr::check(&self.deskmate, id, self.limits, &asr_group).await;
            }
        };
        let ids: Vec<String> = registry.specs().map(|s| s.id.clone()).collect();
        let with_devices = self.devices.is_some();
        let tools_group = checks.group(2, ids.iter().map(|id| tool_check(id)));
        // Boxed: the futures borrow the registry and the group, and a boxed future keeps
        // the run's own future `Send` for the API's spawned task.
        let tool_checks: Vec<BoxFuture<'_, ()>> = ids
            .into_iter()
            .map(|id| {
                let (registry, group) = (&registry, &tools_group);
                Box::pin(async move {
                    let started = Instant::now();
                    let verdict = registry.self_check(&id, with_devices).await;
                    group.verdict(&tool_check(&id), started, verdict);
                }) as BoxFuture<'_, ()>
            })
            .collect();
        let tools = futures_util::stream::iter(tool_checks)
            .buffer_unordered(TOOL_CHECKS_AT_ONCE)
            .collect::<Vec<()>>();
        let probe = self.devices.clone();
        let devices: Vec<String> = probe.iter().flat_map(|p| p.devices.clone()).collect();
        let device_group = checks.group(3, devices.iter().map(|d| device_check(d)));
        let devices = async {
            let Some(probe) = probe.clone() else { return };
            let probed = Instant::now();
            let results = tokio::task::spawn_blocking(move || (probe.probe)())
                .await
                .unwrap_or_default();
            for check in results {
                let outcome = if check.ready {
                    Ok(check.message)
                } else {
                    Err(check.message)
                };
                device_group.record(&device_check(&check.device), probed, outcome);
            }
        };
        let secrets_group = checks.group(4, [SECRET_STORE]);
        let secrets = async {
            let Some(secrets) = self.deskmate.secrets().cloned() else {
                return;
            };
            let started = Instant::now();
            let outcome = tokio::task::spawn_blocking(move || secrets.verify())
                .await
                .unwrap_or_else(|e| {
                    Err(said!(
                        "检查意外中止：{e}",
                        "the check stopped unexpectedly: {e}"
                    ))
                });
            secrets_group.record(SECRET_STORE, started, outcome);
        };
        let servers = self.mcp_server_values();
        let names: Vec<String> = servers
            .iter()
            .filter_map(|s| s["name"].as_str().map(mcp_check))
            .collect();
        let mcp_group = checks.group(5, names.iter().cloned());
        let mcp = async {
            let started = Instant::now();
            let mut pending = names.len();
            // A server that is still starting gets a little time to answer.
            let deadline = started + MCP_STARTING_WAIT;
            let mut done = std::collections::HashSet::new();
            while pending > 0 {
                let now = self.mcp_server_values();
                for server in &now {
                    let Some(name) = server["name"].as_str() else {
                        continue;
                    };
                    if !names.contains(&mcp_check(name)) || done.contains(name) {
                        continue;
                    }
                    let verdict = mcp_verdict(server, Instant::now() >= deadline);
                    if let Some(verdict) = verdict {
                        mcp_group.verdict(&mcp_check(name), started, verdict);
                        done.insert(name.to_string());
                        pending -= 1;
                    }
                }
                if pending > 0 {
                    if Instant::now() >= deadline {
                        // Removed while the autotest ran.
                        for name in names
                            .iter()
                            .filter(|n| !done.iter().any(|d| mcp_check(d) == **n))
                        {
                            mcp_group.verdict(
                                name,
                                started,
                                Verdict::Skipped(said!(
                                    "在自动测试期间被删除",
                                    "removed during the autotest"
                                )),
                            );
                        }
                        break;
                    }
                    tokio::time::sleep(Duration::from_millis(200)).await;
                }
            }
        };
        tokio::join!(llm, asr, tools, devices, secrets, mcp);
        drop((
            llm_group,
            asr_group,
            tools_group,
            device_group,
            secrets_group,
            mcp_group,
        ));
        let scope = Scope {
            llm: request.test_llm,
            asr: request.test_asr,
            tools: true,
            devices: self.devices.is_some(),
        };
        self.finish("full", scope, started_at, started, checks.into_tests())
    }

    /// The configured MCP servers as JSON, the form [`mcp_verdict`] reads (none when
    /// the store cannot be read).
    fn mcp_server_values(&self) -> Vec<Value> {
        self.deskmate
            .mcp_servers()
            .unwrap_or_default()
            .iter()
            .filter_map(|server| serde_json::to_value(server).ok())
            .collect()
    }

    /// Sends one message to a model and returns its reply (the API contract's test message).
    pub async fn test_message(
        &self,
        model_id: &str,
        message: &str,
    ) -> Result<TestMessage, ServiceError> {
        llm::test_message(&self.deskmate, model_id, message, self.limits).await
    }

    fn finish(
        &self,
        kind: &str,
        scope: Scope,
        started_at: f64,
        started: Instant,
        tests: Vec<TestCase>,
    ) -> Result<AutotestResult, ServiceError> {
        let count = |status| tests.iter().filter(|t| t.status == status).count();
        let passed = count(Status::Passed);
        let result = AutotestResult {
            id: uuid::Uuid::new_v4().simple().to_string()[..8].to_string(),
            started_at,
            duration_ms: millis(started.elapsed()),
            scope,
            summary: Summary {
                passed,
                failed: count(Status::Failed),
                skipped: count(Status::Skipped),
                total: tests.len(),
            },
            tests,
        };
        if let Some(store) = self.deskmate.store() {
            store.insert_autotest_run(&AutotestRun {
                id: result.id.clone(),
                kind: kind.to_string(),
                started_at,
                duration_ms: i64::try_from(result.duration_ms).unwrap_or(i64::MAX),
                passed: i64::try_from(passed).unwrap_or(0),
                failed: i64::try_from(result.summary.failed).unwrap_or(0),
                result: serde_json::to_value(&result).unwrap_or(Value::Null),
            })?;
        }
        Ok(result)
    }
}
