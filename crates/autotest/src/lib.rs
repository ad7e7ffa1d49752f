//! Autotest: what QA runs to see that Deskmate works here and now. Every check is real:
//! a database lookup, a request to the model server with its latency, a stream with its
//! chunks counted, a phrase spoken by espeak-ng and transcribed, each tool's schema and
//! executor. A server that is down, slow, wrong about its model or refuses the key gives
//! a failed check with a clear message within its timeout.
//!
//! [`Autotest::run`] runs and stores a full run (seed 004's `AutotestResult`);
//! [`Autotest::llm`] and [`Autotest::asr`] one model; checks are reported to a callback
//! as they finish.

mod asr;
pub mod eval;
mod llm;

use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use deskmate_service::{Deskmate, ServiceError};
use deskmate_store::autotest::AutotestRun;
use serde::Serialize;
use serde_json::Value;

pub use llm::TestMessage;

/// One check (seed 004's `TestCase`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TestCase {
    /// What was checked (`Model Existence`, `API Connection`, …).
    pub name: String,
    /// Whether it passed.
    pub passed: bool,
    /// What was found, or what is wrong and how to fix it.
    pub message: String,
    /// How long the check took.
    pub duration_ms: u64,
}

/// Counts (seed 004's `TestSummary`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Summary {
    /// Checks passed.
    pub passed: usize,
    /// Checks failed.
    pub failed: usize,
    /// All checks.
    pub total: usize,
}

/// A run (seed 004's `AutotestResult`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AutotestResult {
    /// Run id.
    pub id: String,
    /// Unix seconds.
    pub started_at: f64,
    /// Total time.
    pub duration_ms: u64,
    /// The checks in the order they ran.
    pub tests: Vec<TestCase>,
    /// Counts.
    pub summary: Summary,
}

/// What a full run checks (seed 004's query parameters).
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
    pub message: String,
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

/// Collects checks and reports each one.
pub(crate) struct Checks<'a> {
    tests: Vec<TestCase>,
    on_check: OnCheck<'a>,
}

impl<'a> Checks<'a> {
    /// Model Existence: the model, or a failed check (with the checks that then cannot
    /// run marked as not run).
    pub(crate) fn existence<M>(
        &mut self,
        kind: &str,
        model_id: Option<&str>,
        found: Result<M, ServiceError>,
        name: impl Fn(&M) -> String,
        after: &[&str],
    ) -> Option<M> {
        let started = Instant::now();
        match found {
            Ok(model) => {
                self.record(
                    "Model Existence",
                    started,
                    Ok(format!("Found model: {}", name(&model))),
                );
                Some(model)
            }
            Err(e) => {
                let why = match (&e, model_id) {
                    (ServiceError::NotFound { .. }, Some(id)) => {
                        format!("no {kind} model with id '{id}' in the database")
                    }
                    (ServiceError::NotFound { .. }, None) => format!(
                        "no {kind} model is configured: run scripts/setup.sh for the local one, or add one under Models"
                    ),
                    _ => e.to_string(),
                };
                self.record("Model Existence", started, Err(why));
                for check in after {
                    self.record(
                        check,
                        Instant::now(),
                        Err("not run: the model does not exist".into()),
                    );
                }
                None
            }
        }
    }

    fn new(on_check: OnCheck<'a>) -> Self {
        Self {
            tests: Vec::new(),
            on_check,
        }
    }

    pub(crate) fn record(
        &mut self,
        name: &str,
        started: Instant,
        outcome: Result<String, String>,
    ) -> bool {
        let passed = outcome.is_ok();
        let case = TestCase {
            name: name.to_string(),
            passed,
            message: outcome.unwrap_or_else(|e| e),
            duration_ms: millis(started.elapsed()),
        };
        (self.on_check)(&case);
        self.tests.push(case);
        passed
    }
}

impl Autotest {
    /// Checks for a service with the default limits.
    pub fn new(deskmate: Arc<Deskmate>) -> Self {
        Self {
            deskmate,
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
    /// five for the LLM, four for the ASR model, one per tool, one per probed device.
    pub fn planned(&self, request: &RunRequest) -> usize {
        let models = 5 * usize::from(request.test_llm) + 4 * usize::from(request.test_asr);
        let devices = self.devices.as_ref().map_or(0, |probe| probe.devices.len());
        models + self.deskmate.registry().specs().count() + devices
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
        let started_at = unix_now();
        let started = Instant::now();
        let mut checks = Checks::new(on_check);
        llm::check(&self.deskmate, model_id, self.limits, &mut checks).await;
        self.finish("llm", started_at, started, checks.tests)
    }

    /// Checks one ASR model (the default when `None`) and stores the run.
    pub async fn asr(
        &self,
        model_id: Option<&str>,
        on_check: OnCheck<'_>,
    ) -> Result<AutotestResult, ServiceError> {
        let started_at = unix_now();
        let started = Instant::now();
        let mut checks = Checks::new(on_check);
        asr::check(&self.deskmate, model_id, self.limits, &mut checks).await;
        self.finish("asr", started_at, started, checks.tests)
    }

    /// The full run: LLM and ASR checks as asked, then every tool; stored.
    pub async fn run(
        &self,
        request: &RunRequest,
        on_check: OnCheck<'_>,
    ) -> Result<AutotestResult, ServiceError> {
        let started_at = unix_now();
        let started = Instant::now();
        let mut checks = Checks::new(on_check);
        if request.test_llm {
            llm::check(
                &self.deskmate,
                request.llm_model_id.as_deref(),
                self.limits,
                &mut checks,
            )
            .await;
        }
        if request.test_asr {
            asr::check(
                &self.deskmate,
                request.asr_model_id.as_deref(),
                self.limits,
                &mut checks,
            )
            .await;
        }
        self.tools(&mut checks);
        if let Some(probe) = self.devices.clone() {
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
                checks.record(&format!("Device: {}", check.device), probed, outcome);
            }
        }
        self.finish("full", started_at, started, checks.tests)
    }

    /// Every registered tool: its spec passes the registry's lint and an executor is
    /// registered for it.
    fn tools(&self, checks: &mut Checks<'_>) {
        let registry = self.deskmate.registry();
        for spec in registry.specs() {
            let started = Instant::now();
            let problems = deskmate_core::lint_spec(spec);
            let outcome = if !problems.is_empty() {
                Err(format!("schema problems: {}", problems.join("; ")))
            } else if registry.tool(&spec.id).is_none() {
                Err("no executor is registered for this tool".to_string())
            } else if !registry.guard().is_enabled(&spec.id) {
                Ok("schema valid, executor ready (disabled by the user)".to_string())
            } else {
                Ok("schema valid, executor ready".to_string())
            };
            checks.record(&format!("Tool: {}", spec.id), started, outcome);
        }
    }

    /// Sends one message to a model and returns its reply (seed 004's test message).
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
        started_at: f64,
        started: Instant,
        tests: Vec<TestCase>,
    ) -> Result<AutotestResult, ServiceError> {
        let passed = tests.iter().filter(|t| t.passed).count();
        let result = AutotestResult {
            id: uuid::Uuid::new_v4().simple().to_string()[..8].to_string(),
            started_at,
            duration_ms: millis(started.elapsed()),
            summary: Summary {
                passed,
                failed: tests.len() - passed,
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
