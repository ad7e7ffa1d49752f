//! `code_interpreter`: runs Python in the sandbox (`deskmate-sandbox`), never in-process.

use std::sync::OnceLock;

use async_trait::async_trait;
use deskmate_core::{
    ErrorType, JsonSchema, Localized, ToolError, ToolSpec, read_args, said, schema_for,
};
use deskmate_sandbox::{Runner, SandboxError};
use serde::Deserialize;
use serde_json::{Value, json};

use crate::read_only::ReadOnly;
use crate::{Example, SelfCheck, Teaches, Tool, ToolContext};

/// The longest a call may ask to run, seconds.
const MAX_SECONDS: u64 = 60;
/// What a call gets when it does not say.
const DEFAULT_SECONDS: u64 = 10;
/// The setting that allows running with protections missing.
pub const ALLOW_WEAKER_SETTING: &str = "sandbox.allow_weaker";

/// The code interpreter tool. The runner (helper and Python found on the system) is set
/// up on the first call, so a machine without Python still lists the tool and gets a
/// clear error when it is used.
#[derive(Debug)]
pub struct CodeInterpreter {
    spec: ToolSpec,
    allow_weaker: bool,
    runner: OnceLock<Result<Runner, String>>,
}

/// The code interpreter's arguments.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct Args {
    #[schemars(
        length(min = 1, max = 100_000),
        description = "Python 3 source; the value of a final expression is returned as 'result'.",
        extend("x-description-zh" = "Python 3 源代码；最后一个表达式的值作为 'result' 返回。")
    )]
    code: String,
    #[serde(default = "default_seconds")]
    #[schemars(
        range(min = 1, max = MAX_SECONDS),
        description = "Wall-clock limit in seconds (default 10, at most 60).",
        extend("x-description-zh" = "运行时间上限，单位为秒（默认 10，最多 60）。")
    )]
    timeout_s: u64,
}

fn default_seconds() -> u64 {
    DEFAULT_SECONDS
}

/// The tool; `allow_weaker` is the user's `sandbox.allow_weaker` setting.
pub fn tool(allow_weaker: bool) -> CodeInterpreter {
    CodeInterpreter {
        spec: spec(),
        allow_weaker,
        runner: OnceLock::new(),
    }
}

fn spec() -> ToolSpec {
    ReadOnly {
        id: "code_interpreter",
        name: Localized::new("Python 代码解释器", "Code interpreter"),
        summary: Localized::new(
            "在隔离的沙箱中运行一段 Python 代码，用于计算、统计和文本处理。",
            "Runs a piece of Python code in a locked-down sandbox for calculations, statistics and text processing.",
        ),
        description: "Runs Python 3 code (standard library only) in a locked-down sandbox and \
            returns stdout, stderr and the repr of the last expression as 'result', like a \
            notebook cell. No network, no files outside a scratch directory that is deleted \
            afterwards, limited time and memory. Use it for calculations, statistics, dates and \
            text processing.",
        // The runner's own limit plus start-up: the sandbox always answers first.
        timeout_ms: (MAX_SECONDS + 5) * 1000,
    }
    .spec(schema_for::<Args>())
}

impl CodeInterpreter {
    fn runner(&self) -> Result<&Runner, ToolError> {
        self.runner
            .get_or_init(|| {
                Runner::new()
                    .map(|r| r.allow_weaker(self.allow_weaker))
                    .map_err(|e| e.to_string())
            })
            .as_ref()
            .map_err(|message| {
                ToolError::not_found(message.clone()).with_hint(
                    "the code interpreter needs Python 3 and Deskmate's sandbox helper installed",
                )
            })
    }
}

/// How a person asks for code to run, for the model: by naming Python (a request that
/// only needs an answer is answered, not computed).
const EXAMPLES: &[Example] = &[Example {
    teaches: Teaches::AskedFor,
    request: "use python to reverse the word hello",
    parts: &[],
    calls: &[("code_interpreter", r#"{"code":"print('hello'[::-1])"}"#)],
}];

#[async_trait]
impl Tool for CodeInterpreter {
    fn spec(&self) -> &ToolSpec {
        &self.spec
    }

    fn examples(&self) -> &[Example] {
        EXAMPLES
    }

    fn self_check(&self) -> SelfCheck {
        SelfCheck::Sample {
            args: json!({"code": "1+1"}),
            judge: |data| {
                if let Some(weaker) = data.get("weaker") {
                    return Err(said!(
                        "能运行，但缺少防护：{weaker}（设置 {ALLOW_WEAKER_SETTING} 已打开）",
                        "it ran, but with protections missing: {weaker} (the setting {ALLOW_WEAKER_SETTING} is on)"
                    ));
                }
                match data["result"].as_str() {
                    Some("2") => Ok(said!(
                        "2，所有防护都已生效",
                        "2, with every protection enforced"
                    )),
                    _ => {
                        let (result, stderr) = (&data["result"], &data["stderr"]);
                        Err(said!(
                            "结果应为 2，实际为 {result}（stderr：{stderr}）",
                            "expected the result 2, got {result} (stderr: {stderr})"
                        ))
                    }
                }
            },
        }
    }

    fn fits(&self, args: &Value) -> Result<(), ToolError> {
        read_args::<Args>(&self.spec.id, args).map(drop)
    }

    async fn run(&self, args: Value, ctx: ToolContext) -> Result<Value, ToolError> {
        let Args {
            code,
            timeout_s: seconds,
        } = read_args(&self.spec.id, &args)?;
        let runner = self.runner()?;
        match runner.run_with(&code, seconds, &ctx.cancel).await {
            Ok(out) => {
                let mut data = json!({
                    "stdout": out.stdout,
                    "stderr": out.stderr,
                    "result": out.result,
                    "exit_code": out.exit_code,
                    "duration_ms": out.duration_ms,
                    "truncated": out.truncated,
                    "protections": out.protections,
                });
                if let Some(map) = data.as_object_mut() {
                    if let Some(error) = out.error {
                        map.insert("error".into(), json!(error));
                    }
                    if !out.weaker.is_empty() {
                        map.insert("weaker".into(), json!(out.weaker));
                        map.insert(
                            "warning".into(),
                            json!(
                                "ran in weaker mode: the protections in 'weaker' were not enforced"
                            ),
                        );
                    }
                }
                let (line, whole) = line(&data);
                if !whole && shown(&data).is_none() && data.get("error").is_none() {
                    // Nothing to show: the model reads how to get an answer out of the run.
                    data["note"] = json!(NOTHING_SHOWN);
                }
                Ok(crate::said::with_partial_line(data, line, whole))
            }
            Err(error) => Err(to_tool_error(error, seconds)),
        }
    }
}

/// Most characters of code output a line shows whole.
const CODE_SHOWN: usize = 120;

/// What the model reads beside a run that printed nothing and returned no value.
const NOTHING_SHOWN: &str = "the code printed nothing and its last line is not an expression with \
a value: print the answer, or end the code with an expression whose value is the answer";

/// What a run shows: the value of its last expression, or else what it printed, trimmed;
/// `None` when it shows nothing.
fn shown(data: &Value) -> Option<String> {
    crate::said::field(data, "result")
        .filter(|r| !r.is_empty() && r != "None")
        .or_else(|| crate::said::field(data, "stdout").map(|s| s.trim().to_string()))
        .filter(|s| !s.is_empty())
}

/// The line of a run, and whether it holds all of the run's answer: what it returned or
/// else what it printed, clipped (whole unless clipped); the exception it raised; or that
/// it showed nothing — never an empty "Code ran: ". A line that does not hold the answer
/// leaves the words to the model, which reads the run's data.
fn line(data: &Value) -> (Localized, bool) {
    if let Some(shown) = shown(data) {
        let clipped = crate::said::clip(&shown, CODE_SHOWN);
        let whole = clipped == shown;
        return (said!("代码已运行：{clipped}", "Code ran: {clipped}"), whole);
    }
    if let Some(error) = crate::said::field(data, "error").filter(|e| !e.is_empty()) {
        let error = crate::said::clip(&error, CODE_SHOWN);
        return (
            said!("代码出错：{error}", "The code raised an error: {error}"),
            false,
        );
    }
    (
        Localized::new(
            "代码运行了，但没有输出，也没有返回值",
            "The code ran but printed nothing and returned no value",
        ),
        false,
    )
}

fn to_tool_error(error: SandboxError, seconds: u64) -> ToolError {
    let message = error.to_string();
    match error {
        SandboxError::Refused { missing } => ToolError::permission(message)
            .with_hint(format!(
                "the sandbox fails closed ({}); a user can allow a weaker mode with the setting {ALLOW_WEAKER_SETTING} = true",
                missing
                    .iter()
                    .map(|m| format!("{}: {}", m.protection, m.reason))
                    .collect::<Vec<_>>()
                    .join("; ")
            ))
            .with_options(missing.into_iter().map(|m| m.protection)),
        SandboxError::TimedOut { stdout, .. } => {
            let mut hint = if seconds < MAX_SECONDS {
                format!("make the code faster, or ask for more time with timeout_s (at most {MAX_SECONDS})")
            } else {
                "make the code faster: 60 s is the most a run may take".to_string()
            };
            if !stdout.is_empty() {
                let tail: String = stdout.chars().take(500).collect();
                hint.push_str(&format!("; it printed before it was stopped: {tail}"));
            }
            ToolError::new(ErrorType::Timeout, message).with_hint(hint)
        }
        SandboxError::Cancelled => ToolError::new(ErrorType::Timeout, message),
        SandboxError::Unavailable(_) => ToolError::not_found(message).with_hint(
            "the code interpreter needs Python 3 (python3, or DESKMATE_PYTHON) and Deskmate's sandbox helper deskmate-sandbox next to deskmate (or DESKMATE_SANDBOX_HELPER)",
        ),
        SandboxError::Io(_) => ToolError::internal(message),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_says_what_it_returned_or_else_what_it_printed() {
        let cases = [
            (
                json!({"result": "'olleh'", "stdout": "x\n"}),
                "Code ran: 'olleh'",
                true,
            ),
            (
                json!({"result": null, "stdout": "  hi\n"}),
                "Code ran: hi",
                true,
            ),
            (
                json!({"result": "1".repeat(130)}),
                &*format!("Code ran: {}…", "1".repeat(120)),
                false,
            ),
        ];
        for (data, want, whole) in cases {
            let (said, is_whole) = line(&data);
            assert_eq!((said.en.as_str(), is_whole), (want, whole), "{data}");
        }
        assert_eq!(line(&json!({"stdout": "2"})).0.zh, "代码已运行：2");
    }

    /// A run that shows nothing never reads "Code ran: " and is not taken for the answer:
    /// the model gets the words to write (and reads how to get a value out of a run).
    #[test]
    fn a_run_that_shows_nothing_says_so_and_leaves_the_answer_to_the_model() {
        for data in [
            json!({"result": "None", "stdout": ""}),
            json!({"result": null, "stdout": "  \n"}),
        ] {
            let (said, whole) = line(&data);
            assert_eq!(
                said.en,
                "The code ran but printed nothing and returned no value"
            );
            assert_eq!(said.zh, "代码运行了，但没有输出，也没有返回值");
            assert!(!whole);
        }
        let failed = json!({"stdout": "", "error": "ZeroDivisionError: division by zero"});
        assert_eq!(
            line(&failed),
            (
                Localized::new(
                    "代码出错：ZeroDivisionError: division by zero",
                    "The code raised an error: ZeroDivisionError: division by zero"
                ),
                false
            )
        );
    }
}
