//! Deskmate's built-in tools — one file per tool, spec next to executor and tests — and
//! the [`Registry`] that holds them in one ordered list with their compiled [`Guard`].
//!
//! - [`Tool`]: a spec, an optional plausibility check, and an async `run` that receives
//!   arguments the guard has already normalized and validated.
//! - [`builtin_tools`]: the ordered list of built-in tools; "what tools exist" is answered here.
//! - [`Registry`]: the tools plus their [`Guard`].
//! - [`said`](mod@said): a tool's own line about its result, in the result's data.
//! - [`Example`]: a worked example of a request a tool answers, for the model
//!   ([`Tool::examples`]).
//!
//! ```
//! use deskmate_tools::{Registry, ToolConfig};
//! use serde_json::json;
//!
//! let config = ToolConfig::for_data_dir(std::env::temp_dir().join("deskmate-doc"));
//! let registry = Registry::builtin(&config).unwrap();
//! let call = registry.guard().prepare("calculator", json!("{\"expression\": \"2+3\"}")).unwrap();
//! assert_eq!(call.arguments, json!({"expression": "2+3"}));
//! ```

pub mod append_audit;
pub mod calculator;
pub mod code_interpreter;
pub mod current_time;
pub mod datasets;
pub mod error;
pub mod examples;
pub mod http_tool;
pub mod numfmt;
mod read_only;
pub mod said;
pub mod sas_round_rate;
pub mod self_check;
pub mod words;

use std::collections::HashMap;
use std::fmt;
use std::path::PathBuf;
use std::sync::Arc;

use async_trait::async_trait;
use deskmate_core::{Decision, Guard, Localized, ToolError, ToolSpec, read_args, said};
use serde::de::DeserializeOwned;
use serde_json::Value;
use tokio_util::sync::CancellationToken;

pub use error::Error;
pub use examples::{Example, Teaches};
pub use self_check::{SelfCheck, Verdict};

/// A tool Deskmate can run.
#[async_trait]
pub trait Tool: Send + Sync + fmt::Debug {
    /// The tool's contract.
    fn spec(&self) -> &ToolSpec;

    /// Guard step 5: checks beyond the schema (a volume step of 50, a URL that points
    /// where the tool never should). Arguments are already valid.
    fn check(&self, _args: &Value) -> Decision {
        Decision::Allow
    }

    /// Runs the tool on normalized, valid arguments.
    async fn run(&self, args: Value, ctx: ToolContext) -> Result<Value, ToolError>;

    /// Whether arguments the guard accepted fit the tool's argument type: they are read
    /// as `run` reads them, and nothing runs. A built-in tool's schema is derived from its
    /// argument type ([`deskmate_core::schema_for`]), so this holds by construction; tests
    /// hold every tool to it. The default (a tool that reads its arguments as JSON) fits
    /// anything.
    fn fits(&self, _args: &Value) -> Result<(), ToolError> {
        Ok(())
    }

    /// How the autotest checks that the tool works now: a harmless sample call, or a
    /// probe of what it needs when running it would change something or ask the person.
    fn self_check(&self) -> SelfCheck {
        SelfCheck::Skip(no_sample())
    }

    /// Whether the tool talks to systems outside this computer (a web service), whose
    /// answers and effects Deskmate does not know in advance.
    fn open_world(&self) -> bool {
        false
    }

    /// Worked examples of requests the tool answers, for the model: the chat's
    /// constrained prompt shows those of the tools it offers. Empty, the default.
    fn examples(&self) -> &[Example] {
        &[]
    }

    /// Whether the tool reads the earlier turns of the conversation its call belongs to
    /// (`ToolContext::conversation_id`): a chat offers it only in a conversation that has
    /// some, so a conversation's first turn reads the prompt every turn starts with.
    fn reads_conversation(&self) -> bool {
        false
    }
}

/// The work of a tool that is one synchronous function of its arguments.
type Work = dyn Fn(&Value) -> Result<Value, ToolError> + Send + Sync;
/// Reads arguments into the work's argument type, running nothing ([`Tool::fits`]).
type Fits = dyn Fn(&Value) -> Result<(), ToolError> + Send + Sync;

/// A tool whose work is one synchronous function of its (already valid) arguments, read
/// into the function's argument type `A` (a struct the spec's schema is derived from, or
/// `Value`): quick pure work runs inline, work that touches files runs on the blocking
/// pool so it never stalls the async runtime.
pub struct FnTool {
    spec: ToolSpec,
    work: Arc<Work>,
    fits: Arc<Fits>,
    blocking: bool,
    self_check: Option<Arc<dyn Fn() -> SelfCheck + Send + Sync>>,
    examples: &'static [Example],
}

impl FnTool {
    /// A tool whose work is quick and pure (no I/O): it runs on the caller's task.
    pub fn inline<A: DeserializeOwned>(
        spec: ToolSpec,
        work: impl Fn(A) -> Result<Value, ToolError> + Send + Sync + 'static,
    ) -> Self {
        Self::new(spec, work, false)
    }

    /// A tool whose work reads or writes files: it runs on the blocking pool.
    pub fn blocking<A: DeserializeOwned>(
        spec: ToolSpec,
        work: impl Fn(A) -> Result<Value, ToolError> + Send + Sync + 'static,
    ) -> Self {
        Self::new(spec, work, true)
    }

    fn new<A: DeserializeOwned>(
        spec: ToolSpec,
        work: impl Fn(A) -> Result<Value, ToolError> + Send + Sync + 'static,
        blocking: bool,
    ) -> Self {
        let id = spec.id.clone();
        let fits_id = id.clone();
        Self {
            spec,
            work: Arc::new(move |args: &Value| work(read_args(&id, args)?)),
            fits: Arc::new(move |args: &Value| read_args::<A>(&fits_id, args).map(drop)),
            blocking,
            self_check: None,
            examples: &[],
        }
    }

    /// Declares the tool's self-check (built each time the autotest runs it).
    #[must_use]
    pub fn with_self_check(
        mut self,
        check: impl Fn() -> SelfCheck + Send + Sync + 'static,
    ) -> Self {
        self.self_check = Some(Arc::new(check));
        self
    }

    /// Declares the tool's worked examples for the model ([`Tool::examples`]).
    #[must_use]
    pub fn with_examples(mut self, examples: &'static [Example]) -> Self {
        self.examples = examples;
        self
    }
}

impl fmt::Debug for FnTool {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FnTool")
            .field("id", &self.spec.id)
            .field("blocking", &self.blocking)
            .finish()
    }
}

#[async_trait]
impl Tool for FnTool {
    fn spec(&self) -> &ToolSpec {
        &self.spec
    }

    fn self_check(&self) -> SelfCheck {
        match &self.self_check {
            Some(check) => check(),
            None => SelfCheck::Skip(no_sample()),
        }
    }

    fn examples(&self) -> &[Example] {
        self.examples
    }

    fn fits(&self, args: &Value) -> Result<(), ToolError> {
        (self.fits)(args)
    }

    async fn run(&self, args: Value, _ctx: ToolContext) -> Result<Value, ToolError> {
        if self.blocking {
            let work = self.work.clone();
            blocking(move || work(&args)).await
        } else {
            (self.work)(&args)
        }
    }
}

/// What of its conversation lies before a call: the turn that made it goes on from the
/// conversation's head, or is on another branch (an edit of an earlier message, a
/// regenerated reply) whose history ends at an earlier message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Before {
    /// The conversation up to its head (also a call outside a chat turn).
    #[default]
    Head,
    /// The path from the conversation's first message to this stored message (its seq).
    Message(i64),
    /// Nothing: the turn is an edit of the conversation's first message.
    Nothing,
}

/// What a running call may know about its surroundings.
#[derive(Debug, Clone)]
pub struct ToolContext {
    /// The call's id (also in the audit log).
    pub call_id: String,
    /// Cancelled when the call times out or the turn is cancelled.
    pub cancel: CancellationToken,
    /// Where a model made the call (`<conversation>/<turn>`): a tool that keys its
    /// effects derives the key from it and the arguments, so a call repeated within a
    /// turn is one event and the same request in a later turn is another.
    pub scope: Option<String>,
    /// Which front end asked (`cli`, `api`, `llm`, `gui`, `mcp`, `schedule`).
    pub origin: Option<String>,
    /// The conversation the call belongs to.
    pub conversation_id: Option<String>,
    /// What of that conversation lies before the call's turn.
    pub before: Before,
}

impl ToolContext {
    /// A context for a call.
    pub fn new(call_id: impl Into<String>) -> Self {
        Self {
            call_id: call_id.into(),
            cancel: CancellationToken::new(),
            scope: None,
            origin: None,
            conversation_id: None,
            before: Before::Head,
        }
    }

    /// The same, asked for by `origin` in a conversation.
    pub fn asked_by(mut self, origin: &str, conversation_id: Option<String>) -> Self {
        self.origin = Some(origin.to_string());
        self.conversation_id = conversation_id;
        self
    }

    /// The same, made in a turn with `before` before it.
    pub fn after(mut self, before: Before) -> Self {
        self.before = before;
        self
    }

    /// The same, made in a conversation's turn.
    pub fn in_scope(mut self, scope: Option<String>) -> Self {
        self.scope = scope;
        self
    }
}

/// Where the built-in tools keep and find their files.
#[derive(Debug, Clone)]
pub struct ToolConfig {
    /// The app's data dir.
    pub data_dir: PathBuf,
    /// The whitelisted datasets folder (`<data-dir>/datasets` by default).
    pub datasets_dir: PathBuf,
    /// Whether the code interpreter may run with a protection missing (the user's
    /// `sandbox.allow_weaker` setting; off by default: it fails closed).
    pub sandbox_allow_weaker: bool,
}

impl ToolConfig {
    /// The default layout under a data dir.
    pub fn for_data_dir(data_dir: impl Into<PathBuf>) -> Self {
        let data_dir = data_dir.into();
        Self {
            datasets_dir: data_dir.join("datasets"),
            data_dir,
            sandbox_allow_weaker: false,
        }
    }
}

/// Every built-in tool, in the order they are listed everywhere.
pub fn builtin_tools(config: &ToolConfig) -> Vec<Arc<dyn Tool>> {
    let datasets = Arc::new(datasets::DatasetDir::scan(&config.datasets_dir));
    let journal = config.data_dir.join("audit").join("dataset_audit.jsonl");
    vec![
        Arc::new(calculator::tool()),
        Arc::new(code_interpreter::tool(config.sandbox_allow_weaker)),
        Arc::new(current_time::tool()),
        Arc::new(datasets::describe_dataset::tool(datasets.clone())),
        Arc::new(datasets::summarize_by_group::tool(datasets.clone())),
        Arc::new(datasets::frequency::tool(datasets.clone())),
        Arc::new(datasets::run_qc_checks::tool(datasets)),
        Arc::new(sas_round_rate::tool()),
        Arc::new(append_audit::tool(journal)),
    ]
}

/// The tools and their guard. Cloning is cheap (tools and compiled schemas are shared):
/// a change to one tool clones the registry, changes the copy and swaps it in.
#[derive(Debug, Clone)]
pub struct Registry {
    tools: Vec<Arc<dyn Tool>>,
    by_id: HashMap<String, usize>,
    guard: Guard,
}

impl Registry {
    /// Builds a registry; every spec's schema is compiled once here.
    pub fn new(tools: Vec<Arc<dyn Tool>>) -> Result<Self, Error> {
        let mut guard = Guard::new([])?;
        let mut by_id = HashMap::new();
        for (i, tool) in tools.iter().enumerate() {
            guard.insert_new(tool.spec().clone())?;
            by_id.insert(tool.spec().id.clone(), i);
        }
        Ok(Self {
            tools,
            by_id,
            guard,
        })
    }

    /// Adds one tool (its schema compiled now); refuses an id that is taken.
    pub fn push(&mut self, tool: Arc<dyn Tool>) -> Result<(), Error> {
        self.guard.insert_new(tool.spec().clone())?;
        self.by_id.insert(tool.spec().id.clone(), self.tools.len());
        self.tools.push(tool);
        Ok(())
    }

    /// Adds a tool, or replaces the one with the same id (an embedding app's own version
    /// of a built-in tool, an evaluation's wrapper).
    pub fn replace_or_push(&mut self, tool: Arc<dyn Tool>) -> Result<(), Error> {
        self.guard.insert(tool.spec().clone())?;
        match self.by_id.get(&tool.spec().id) {
            Some(&i) => self.tools[i] = tool,
            None => {
                self.by_id.insert(tool.spec().id.clone(), self.tools.len());
                self.tools.push(tool);
            }
        }
        Ok(())
    }

    /// Removes a tool; returns whether it was there. The others keep their order.
    pub fn remove(&mut self, id: &str) -> bool {
        let Some(index) = self.by_id.remove(id) else {
            return false;
        };
        self.guard.remove(id);
        self.tools.remove(index);
        for i in self.by_id.values_mut() {
            if *i > index {
                *i -= 1;
            }
        }
        true
    }

    /// The built-in tools for a configuration.
    pub fn builtin(config: &ToolConfig) -> Result<Self, Error> {
        Self::new(builtin_tools(config))
    }

    /// The guard over these tools.
    pub fn guard(&self) -> &Guard {
        &self.guard
    }

    /// Mutable access to the guard (to enable or disable tools).
    pub fn guard_mut(&mut self) -> &mut Guard {
        &mut self.guard
    }

    /// A tool by exact id.
    pub fn tool(&self, id: &str) -> Option<&Arc<dyn Tool>> {
        self.by_id.get(id).map(|&i| &self.tools[i])
    }

    /// Every spec, in registration order.
    pub fn specs(&self) -> impl Iterator<Item = &ToolSpec> {
        self.tools.iter().map(|t| t.spec())
    }

    /// Runs a tool's self-check and words the verdict: its spec passes the lint, then the
    /// sample call runs through steps 1–4 and the tool (nothing is audited: a sample
    /// changes nothing), or the tool's probe answers. A disabled tool is skipped, and so
    /// is a device probe when `devices` is false (the run leaves the devices out).
    pub async fn self_check(&self, id: &str, devices: bool) -> Verdict {
        let Some(tool) = self.tool(id).cloned() else {
            return Verdict::Failed(said!(
                "这个工具没有注册执行器",
                "no executor is registered for this tool"
            ));
        };
        // Deskmate's authoring rules (descriptions, closed schemas) bind its own tools;
        // an imported tool's contract is its server's.
        let imported = deskmate_core::spec::is_valid_imported_tool_id(id);
        let problems = if imported {
            Vec::new()
        } else {
            deskmate_core::lint_spec(tool.spec())
        };
        if !problems.is_empty() {
            let problems = problems.join("; ");
            return Verdict::Failed(said!(
                "参数 Schema 有问题：{problems}",
                "schema problems: {problems}"
            ));
        }
        if !self.guard.is_enabled(id) {
            return Verdict::Skipped(said!(
                "已被停用：在“工具”页面启用后才能检查",
                "disabled by the user: enable it in Tools to check it"
            ));
        }
        match tool.self_check() {
            SelfCheck::Skip(why) => Verdict::Skipped(why),
            SelfCheck::Device(device, _) if !devices => Verdict::Skipped(said!(
                "要用到设备（{device}），而这次运行不检查设备",
                "uses a device ({device}), and this run does not check devices"
            )),
            SelfCheck::Probe(probe) | SelfCheck::Device(_, probe) => {
                let not_run = |found: Localized| Localized {
                    zh: format!("{}（没有运行工具本身）", found.zh),
                    en: format!("{} (the tool itself was not run)", found.en),
                };
                match tokio::time::timeout(self_check::PROBE_TIMEOUT, probe).await {
                    Ok(Ok(found)) => Verdict::Passed(not_run(found)),
                    Ok(Err(why)) => Verdict::Failed(not_run(why)),
                    Err(_) => {
                        let seconds = self_check::PROBE_TIMEOUT.as_secs();
                        Verdict::Failed(said!(
                            "就绪检查在 {seconds} 秒内没有应答",
                            "the readiness probe did not answer within {seconds} s"
                        ))
                    }
                }
            }
            SelfCheck::Sample { args, judge } => self.run_sample(&tool, args, judge).await,
            SelfCheck::SampleFrom { args, judge } => {
                match tokio::task::spawn_blocking(move || args()).await {
                    Ok(Ok(args)) => self.run_sample(&tool, args, judge).await,
                    Ok(Err(verdict)) => verdict,
                    Err(e) => Verdict::Failed(said!(
                        "找不到示例调用：{e}",
                        "finding a sample call failed: {e}"
                    )),
                }
            }
        }
    }

    async fn run_sample(
        &self,
        tool: &Arc<dyn Tool>,
        args: Value,
        judge: self_check::Judge,
    ) -> Verdict {
        let id = &tool.spec().id;
        let mut shown = args.to_string();
        if shown.chars().count() > 200 {
            shown = shown.chars().take(200).collect::<String>() + "…";
        }
        let ran = said!("运行了 {id} {shown}", "ran {id} {shown}");
        let call = match self.guard.prepare(id, args) {
            Ok(call) => call,
            Err(rejection) => {
                let why = rejection.error.message;
                return Verdict::Failed(said!(
                    "工具的示例调用 {shown} 不符合它自己的 Schema：“{why}”",
                    "the tool's sample call {shown} does not pass its own schema: {why}"
                ));
            }
        };
        let after = |found: Localized| Localized {
            zh: format!("{} → {}", ran.zh, found.zh),
            en: format!("{} → {}", ran.en, found.en),
        };
        let ctx = ToolContext::new(format!("autotest-{id}"));
        let cancel = ctx.cancel.clone();
        let limit = std::time::Duration::from_millis(tool.spec().timeout_ms.max(1));
        match tokio::time::timeout(limit, tool.run(call.arguments, ctx)).await {
            Err(_) => {
                cancel.cancel();
                let ms = limit.as_millis();
                Verdict::Failed(after(said!(
                    "{ms} 毫秒内没有应答",
                    "no answer within {ms} ms"
                )))
            }
            Ok(Err(error)) => {
                // The tool's own error is written for the model (English) in both.
                let hint = error.hint.map(|h| format!(" — {h}")).unwrap_or_default();
                let kind = error.error_type;
                let message = error.message;
                Verdict::Failed(after(said!(
                    "{kind} 错误：“{message}{hint}”",
                    "{kind} error: {message}{hint}"
                )))
            }
            Ok(Ok(data)) => match judge(&data) {
                Ok(seen) => Verdict::Passed(after(seen)),
                Err(why) => Verdict::Failed(after(why)),
            },
        }
    }
}

/// Why a tool without a harmless sample call is not run by the autotest.
fn no_sample() -> Localized {
    said!(
        "这个工具没有可以无害运行的示例调用",
        "the tool declares no harmless sample call"
    )
}

/// Runs blocking work (file reads, parsing) off the async executor.
pub async fn blocking<T, F>(work: F) -> Result<T, ToolError>
where
    F: FnOnce() -> Result<T, ToolError> + Send + 'static,
    T: Send + 'static,
{
    tokio::task::spawn_blocking(work)
        .await
        .map_err(|e| ToolError::internal(format!("the tool stopped unexpectedly: {e}")))?
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A built-in tool's worked examples call it, and each call is one its guard lets
    /// through as written: an example never teaches the model a call that fails.
    #[test]
    fn every_example_calls_its_tool_with_arguments_the_guard_accepts() {
        let dir = std::env::temp_dir().join("deskmate-tools-examples");
        let registry =
            Registry::builtin(&ToolConfig::for_data_dir(&dir)).unwrap_or_else(|e| panic!("{e}"));
        let mut seen = 0;
        for spec in registry.specs() {
            let Some(tool) = registry.tool(&spec.id) else {
                continue;
            };
            for example in tool.examples() {
                assert!(
                    example.tools().any(|t| t == spec.id),
                    "{}: {example:?} does not call it",
                    spec.id
                );
                for (id, arguments) in example.calls {
                    let Some(_) = registry.tool(id) else {
                        continue;
                    };
                    let arguments: Value = serde_json::from_str(arguments)
                        .unwrap_or_else(|e| panic!("{id} {arguments}: {e}"));
                    let prepared = registry
                        .guard()
                        .prepare(id, arguments.clone())
                        .unwrap_or_else(|e| panic!("{id} {arguments}: {:?}", e.error));
                    // Written as the model should write it: nothing to fix, only defaults to fill.
                    let fixed: Vec<_> = prepared
                        .repairs
                        .iter()
                        .filter(|r| r.rule != deskmate_core::RepairRule::DefaultValue)
                        .collect();
                    assert!(fixed.is_empty(), "{id} {arguments}: {fixed:?}");
                    seen += 1;
                }
            }
        }
        assert!(seen >= 3, "{seen} example calls");
    }
}
