//! `deskmate`: the command-line front end. It lists tools and calls them through the same
//! service (and so the same guard) as every other front end.
//!
//! - `deskmate [--data-dir DIR] tools` prints a JSON array of every tool spec.
//! - `deskmate [--data-dir DIR] data-dir` prints the data dir in use.
//! - `deskmate [--data-dir DIR] serve [--addr 127.0.0.1:PORT]` serves the REST API.
//! - `deskmate [--data-dir DIR] settings [KEY [VALUE]]` shows or sets a setting.
//! - `deskmate [--data-dir DIR] autotest [--llm ID] [--asr ID] [--json]` runs the autotest.
//! - `deskmate [--data-dir DIR] chat MESSAGE [--model ID] [--conversation ID] [--json]`
//!   runs one turn of the agent loop.
//! - `deskmate [--data-dir DIR] listen [--json]` runs voice mode until Ctrl-C.
//! - `deskmate [--data-dir DIR] schedules [list|add WHEN --message TEXT|rm ID]` lists,
//!   adds or deletes reminders and scheduled calls.
//! - `deskmate [--data-dir DIR] call TOOL [ARGS]` prints exactly one result object; exit
//!   0 when `ok`, 1 when not, 2 on a usage error.

mod listen;
mod schedules;

use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use clap::{Parser, Subcommand};
use deskmate_agent::Agent;
use deskmate_host::{
    device_probe, local, open_service, open_service_on, start_local_for, system_backends,
};
use deskmate_service::CallRequest;
use deskmate_service::hooks::{Confirmer, NoConfirmer, PreApproved};
use serde_json::Value;

#[derive(Debug, Parser)]
#[command(
    name = "deskmate",
    version,
    about = "Deskmate: a desktop assistant whose tools run under strict contracts"
)]
struct Cli {
    /// Data dir (database, datasets, audit journal). Default: the OS app-data dir.
    #[arg(long, global = true, env = "DESKMATE_DATA_DIR", value_name = "DIR")]
    data_dir: Option<PathBuf>,

    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Print every tool spec as a JSON array.
    Tools,
    /// Print the data dir in use (after --data-dir, DESKMATE_DATA_DIR and the OS default).
    DataDir,
    /// Serve the REST API headless on loopback until SIGINT or SIGTERM.
    Serve {
        /// Address to bind (loopback by default).
        #[arg(long, default_value = "127.0.0.1:8765")]
        addr: std::net::SocketAddr,
        /// Local model servers: `auto` (those scripts/setup-models.sh installed), `off`,
        /// or the path of a manifest.
        #[arg(long, default_value = "auto", env = "DESKMATE_LOCAL")]
        local_models: String,
    },
    /// Serve the enabled tools to another agent (Claude Desktop, Goose, Jan, Cursor…) over
    /// the Model Context Protocol on stdin/stdout; logs go to stderr. A call whose policy
    /// asks the person is confirmed by the client (elicitation) or refused.
    Mcp,
    /// One chat turn with the model: the reply streams to stdout, tool calls and results
    /// to stderr; `--json` prints every event as one JSON line instead.
    Chat {
        /// What to ask.
        message: String,
        /// The LLM model id (default: the default model).
        #[arg(long)]
        model: Option<String>,
        /// Continue this conversation (its id is printed at the end).
        #[arg(long)]
        conversation: Option<String>,
        /// Print events as JSON lines.
        #[arg(long)]
        json: bool,
        /// Confirm in advance the calls whose policy asks.
        #[arg(long)]
        yes: bool,
    },
    /// Voice mode until Ctrl-C: say the wake phrase ("Deskmate", "你好桌面助手") and a
    /// request; the reply is spoken. State lines go to stderr; `--json` prints every event
    /// as one JSON line on stdout.
    Listen {
        /// Every event as a JSON line.
        #[arg(long)]
        json: bool,
    },
    /// Run the autotest: LLM and ASR checks, then every tool; prints each check as it
    /// finishes, or the API contract's result object with --json. Exit 0 when all passed.
    Autotest {
        /// LLM model id (default: the default model).
        #[arg(long)]
        llm: Option<String>,
        /// ASR model id (default: the default model).
        #[arg(long)]
        asr: Option<String>,
        /// Skip the LLM checks.
        #[arg(long)]
        no_llm: bool,
        /// Skip the ASR checks.
        #[arg(long)]
        no_asr: bool,
        /// Skip the device checks.
        #[arg(long)]
        no_devices: bool,
        /// Print the result object as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Evaluate a model's tool calling: the bundled suite (or --suite FILE) through the
    /// agent loop and guard on simulated devices; prints each case to stderr and the
    /// metrics as a markdown table (or the report as JSON). The report is stored.
    Eval {
        /// The LLM model id (as registered in this data dir).
        #[arg(long)]
        model: String,
        /// A suite file (JSONL, see docs/EVAL.md); the bundled suite by default.
        #[arg(long)]
        suite: Option<PathBuf>,
        /// Only these categories (simple, multiple, parallel, parallel_multiple,
        /// irrelevance, malformed, error_recovery, atomicity); repeatable.
        #[arg(long)]
        category: Vec<String>,
        /// Only the cases of this part of the suite (dev, heldout); repeatable; both by
        /// default, reported side by side.
        #[arg(long)]
        split: Vec<String>,
        /// At most this many cases.
        #[arg(long)]
        limit: Option<usize>,
        /// Longest turn per case, in seconds.
        #[arg(long, default_value_t = 180)]
        case_timeout: u64,
        /// Most tokens per model answer during the evaluation.
        #[arg(long, default_value_t = 256)]
        max_tokens: i64,
        /// Offer every enabled tool in every case, as a chat turn does.
        #[arg(long)]
        all_tools: bool,
        /// Print the report as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Show the settings, one setting, or set one (`settings sandbox.allow_weaker true`).
    Settings {
        /// The setting's key; omitted lists every setting.
        key: Option<String>,
        /// The new value as JSON (`true`, `10`, `"text"`); omitted shows the setting.
        value: Option<String>,
    },
    /// List, add or delete reminders and scheduled calls.
    Schedules {
        #[command(subcommand)]
        command: Option<schedules::SchedulesCommand>,
    },
    /// Call a tool through the guard and print its result as one JSON object.
    Call {
        /// Tool id (close spellings are resolved; unknown names list the closest ids).
        tool: String,
        /// Arguments as JSON text (an object, or anything the guard accepts); `-` reads
        /// stdin; omitted means `{}`.
        args: Option<String>,
        /// Run at most once for this key.
        #[arg(long)]
        idem_key: Option<String>,
        /// Confirm in advance a call whose policy asks for confirmation.
        #[arg(long)]
        yes: bool,
    },
}

fn main() -> ExitCode {
    deskmate_host::init_logging();
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(err) => {
            let code = if err.use_stderr() { 2 } else { 0 };
            let _ = err.print();
            return ExitCode::from(code);
        }
    };
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(err) => {
            eprintln!("deskmate: cannot start the async runtime: {err}");
            return ExitCode::from(1);
        }
    };
    match runtime.block_on(run(cli)) {
        Ok(code) => code,
        Err(err) => {
            eprintln!("deskmate: {err:#}");
            ExitCode::from(1)
        }
    }
}

async fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    let data_dir = match cli.data_dir {
        Some(dir) => dir,
        None => deskmate_service::paths::default_data_dir()?,
    };
    match cli.command {
        Command::Serve { addr, local_models } => serve(&data_dir, addr, &local_models).await,
        Command::Mcp => {
            // The app (or `deskmate serve`) running on this data dir runs the calls, so
            // its dialogs ask the person; otherwise this process serves headless.
            if let Some(running) = deskmate_api::running::read(&data_dir) {
                let url = format!("{}/mcp", running.url);
                match deskmate_mcp::AppBridge::connect(
                    &url,
                    &running.token,
                    std::time::Duration::from_secs(3),
                )
                .await
                {
                    Ok(bridge) => {
                        bridge.serve_stdio().await?;
                        return Ok(ExitCode::SUCCESS);
                    }
                    Err(e) => tracing::info!(error = %e, %url, "no running app; serving headless"),
                }
            }
            let deskmate = open_service(&data_dir, Arc::new(NoConfirmer))?;
            deskmate_mcp::serve_stdio(
                deskmate,
                deskmate_mcp::Language::from_env(),
                deskmate_mcp::Confirm::Elicit,
            )
            .await?;
            Ok(ExitCode::SUCCESS)
        }
        Command::DataDir => {
            println!("{}", data_dir.display());
            Ok(ExitCode::SUCCESS)
        }
        Command::Tools => {
            let deskmate = open_service(&data_dir, Arc::new(NoConfirmer))?;
            print_json(&serde_json::to_value(deskmate.specs())?)?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Settings { key, value } => settings(&data_dir, key, value),
        Command::Schedules { command } => schedules::run(&data_dir, command).await,
        Command::Autotest {
            llm,
            asr,
            no_llm,
            no_asr,
            no_devices,
            json,
        } => {
            let backends = system_backends(None);
            let deskmate = open_service_on(&data_dir, Arc::new(NoConfirmer), &backends)?;
            // The agent before the local models, which it warms as they become ready.
            let agent = Agent::new(deskmate.clone());
            let local = start_local_for(
                &deskmate,
                &data_dir,
                (!no_llm).then_some(llm.as_deref()),
                (!no_asr).then_some(asr.as_deref()),
            )
            .await;
            let request = deskmate_autotest::RunRequest {
                llm_model_id: llm,
                asr_model_id: asr,
                test_llm: !no_llm,
                test_asr: !no_asr,
            };
            let mut show = |case: &deskmate_autotest::TestCase| {
                if !json {
                    let mark = match case.status {
                        deskmate_autotest::Status::Passed => "PASS",
                        deskmate_autotest::Status::Failed => "FAIL",
                        deskmate_autotest::Status::Skipped => "SKIP",
                    };
                    println!(
                        "{mark} {:<24} {} ({} ms)",
                        case.name, case.message, case.duration_ms
                    );
                }
            };
            let result = deskmate_autotest::Autotest::new(agent)
                .with_devices((!no_devices).then(|| device_probe(backends)))
                .run(&request, &mut show)
                .await;
            local::stop(local).await;
            let result = result?;
            if json {
                print_json(&serde_json::to_value(&result)?)?;
            } else {
                println!(
                    "{} passed, {} failed, {} skipped, {} total ({} ms); run {}",
                    result.summary.passed,
                    result.summary.failed,
                    result.summary.skipped,
                    result.summary.total,
                    result.duration_ms,
                    result.id
                );
            }
            Ok(if result.summary.failed == 0 {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(1)
            })
        }
        Command::Eval {
            model,
            suite,
            category,
            split,
            limit,
            case_timeout,
            max_tokens,
            all_tools,
            json,
        } => {
            let options = deskmate_autotest::eval::EvalOptions {
                case_timeout: std::time::Duration::from_secs(case_timeout.max(1)),
                categories: category
                    .iter()
                    .map(|c| {
                        serde_json::from_value(Value::String(c.clone()))
                            .map_err(|_| anyhow::anyhow!("unknown category '{c}'"))
                    })
                    .collect::<anyhow::Result<_>>()?,
                splits: split
                    .iter()
                    .map(|s| {
                        serde_json::from_value(Value::String(s.clone()))
                            .map_err(|_| anyhow::anyhow!("unknown split '{s}' (dev, heldout)"))
                    })
                    .collect::<anyhow::Result<_>>()?,
                limit,
                max_tokens,
                every_tool: all_tools,
            };
            eval(&data_dir, &model, suite.as_deref(), &options, json).await
        }
        Command::Listen { json } => listen::run(&data_dir, json).await,
        Command::Chat {
            message,
            model,
            conversation,
            json,
            yes,
        } => chat(&data_dir, message, model, conversation, json, yes).await,
        Command::Call {
            tool,
            args,
            idem_key,
            yes,
        } => {
            let arguments = match args.as_deref() {
                None => Value::Object(Default::default()),
                Some("-") => {
                    let mut text = String::new();
                    std::io::stdin().read_to_string(&mut text)?;
                    Value::String(text)
                }
                // The guard reads JSON text (and repairs it where unambiguous).
                Some(text) => Value::String(text.to_string()),
            };
            let confirmer: Arc<dyn Confirmer> = if yes {
                Arc::new(PreApproved)
            } else {
                Arc::new(NoConfirmer)
            };
            let deskmate = open_service(&data_dir, confirmer)?;
            let mut request = CallRequest::new(tool, arguments);
            request.idem_key = idem_key;
            let result = deskmate.call(request).await;
            print_json(&serde_json::to_value(&result)?)?;
            Ok(if result.ok {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(1)
            })
        }
    }
}

/// `deskmate eval`: runs a suite on a registered model and prints the report.
async fn eval(
    data_dir: &std::path::Path,
    model: &str,
    suite: Option<&std::path::Path>,
    options: &deskmate_autotest::eval::EvalOptions,
    json: bool,
) -> anyhow::Result<ExitCode> {
    use deskmate_autotest::eval;
    let suite = match suite {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
            let name = path
                .file_name()
                .map_or_else(|| "suite".into(), |n| n.to_string_lossy().into_owned());
            eval::parse_suite(&name, &text)?
        }
        None => eval::bundled()?,
    };
    let deskmate = open_service(data_dir, Arc::new(NoConfirmer))?;
    // Registers the local models too, so a managed model's id is known after it.
    let local = start_local_for(&deskmate, data_dir, Some(Some(model)), None).await;
    if let Err(e) = deskmate.model_record::<deskmate_service::models::LlmModel>(Some(model)) {
        local::stop(local).await;
        return Err(e.into());
    }
    let report = eval::evaluate(&deskmate, model, &suite, options, |result, i, n| {
        let mark = if result.passed { "PASS" } else { "FAIL" };
        let why = result.reason.as_deref().unwrap_or("");
        eprintln!(
            "[{i}/{n}] {mark} {:<28} {:>6} ms {why}",
            result.id, result.latency_ms
        );
    })
    .await;
    local::stop(local).await;
    let report = report?;
    if json {
        let mut value = serde_json::to_value(&report)?;
        value["markdown"] = Value::String(report.markdown());
        print_json(&value)?;
    } else {
        println!("{}", report.markdown());
        println!("report {} stored in {}", report.id, data_dir.display());
    }
    Ok(ExitCode::SUCCESS)
}

async fn chat(
    data_dir: &std::path::Path,
    message: String,
    model_id: Option<String>,
    conversation_id: Option<String>,
    json: bool,
    yes: bool,
) -> anyhow::Result<ExitCode> {
    use deskmate_agent::{AgentEvent, ChatTurn, StopReason};
    let confirmer: Arc<dyn Confirmer> = if yes {
        Arc::new(PreApproved)
    } else {
        Arc::new(NoConfirmer)
    };
    let deskmate = open_service(data_dir, confirmer)?;
    // The agent before the local model, which it warms once it is ready.
    let agent = Agent::new(deskmate.clone());
    let local = start_local_for(&deskmate, data_dir, Some(model_id.as_deref()), None).await;
    let turn = ChatTurn {
        message,
        model_id,
        conversation_id,
        tools: None,
        // The terminal's locale, as the window's is for the app: its language part
        // (`zh_CN` of `zh_CN.UTF-8`), when it reads as one.
        locale: std::env::var("LC_ALL")
            .or_else(|_| std::env::var("LANG"))
            .ok()
            .and_then(|l| l.split(['.', '@']).next().map(str::to_string))
            .filter(|l| {
                !l.is_empty()
                    && l.len() <= 35
                    && l.chars()
                        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-'))
            }),
        branch: None,
    };
    if let Err(err) = agent.check_turn(&turn) {
        eprintln!("deskmate: {err}");
        if deskmate
            .models::<deskmate_service::models::LlmModel>()
            .map(|m| m.is_empty())
            .unwrap_or(false)
        {
            eprintln!(
                "deskmate: no LLM model is configured; run scripts/setup.sh for the local one, or add one with POST /api/v1/models/llm"
            );
        }
        return Ok(ExitCode::from(2));
    }
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel::<AgentEvent>();
    let cancel = tokio_util::sync::CancellationToken::new();
    let printer = tokio::spawn(async move {
        let mut stop = None;
        while let Some(event) = rx.recv().await {
            if json {
                let line = serde_json::json!({"event": event.name(), "data": event});
                println!("{line}");
                continue;
            }
            match &event {
                AgentEvent::Plan { parts } => {
                    let listed: Vec<String> = parts
                        .iter()
                        .map(|p| format!("{} → {}", p.ask, p.tool.as_deref().unwrap_or("—")))
                        .collect();
                    eprintln!("[plan] {}", listed.join("; "));
                }
                AgentEvent::Token { text } => {
                    print!("{text}");
                    let _ = std::io::stdout().flush();
                }
                AgentEvent::ToolCall {
                    name, arguments, ..
                } => {
                    eprintln!("[tool] {name} {arguments}");
                }
                AgentEvent::ToolResult {
                    name,
                    status,
                    result,
                    ..
                } => {
                    let status = serde_json::to_value(status).unwrap_or_default();
                    eprintln!(
                        "[result] {name} {} {}",
                        status.as_str().unwrap_or(""),
                        result.to_llm_text()
                    );
                }
                AgentEvent::Prompt { prompt } => eprintln!("[prompt] {}", prompt.question),
                AgentEvent::Error { message, .. } => eprintln!("[error] {message}"),
                AgentEvent::Done {
                    conversation_id,
                    stop: reason,
                    ..
                } => {
                    println!();
                    eprintln!("[conversation] {conversation_id}");
                    stop = Some(*reason);
                }
            }
        }
        stop
    });
    let outcome = agent.chat(turn, &tx, &cancel).await;
    drop(tx);
    local::stop(local).await;
    let stop = printer.await.ok().flatten();
    outcome?;
    Ok(match stop {
        Some(StopReason::Answered | StopReason::FromResults) => ExitCode::SUCCESS,
        _ => ExitCode::from(1),
    })
}

fn settings(
    data_dir: &std::path::Path,
    key: Option<String>,
    value: Option<String>,
) -> anyhow::Result<ExitCode> {
    let deskmate = open_service(data_dir, Arc::new(NoConfirmer))?;
    let all = deskmate.settings()?;
    let (key, value) = match (key, value) {
        (None, _) => {
            print_json(&serde_json::to_value(&all)?)?;
            return Ok(ExitCode::SUCCESS);
        }
        (Some(key), value) => (key, value),
    };
    let Some(value) = value else {
        return match all.iter().find(|s| s.key == key) {
            Some(setting) => {
                print_json(&serde_json::to_value(setting)?)?;
                Ok(ExitCode::SUCCESS)
            }
            None => {
                let known: Vec<&str> = all.iter().map(|s| s.key.as_str()).collect();
                eprintln!(
                    "deskmate: unknown setting '{key}'; known: {}",
                    known.join(", ")
                );
                Ok(ExitCode::from(2))
            }
        };
    };
    // A bare word is taken as a string, so `settings k text` needs no quotes.
    let value: Value = serde_json::from_str(&value).unwrap_or(Value::String(value));
    match deskmate.set_setting(&key, value) {
        Ok(setting) => {
            print_json(&serde_json::to_value(setting)?)?;
            Ok(ExitCode::SUCCESS)
        }
        Err(err) => {
            eprintln!("deskmate: {err}");
            Ok(ExitCode::from(2))
        }
    }
}

async fn serve(
    data_dir: &std::path::Path,
    addr: std::net::SocketAddr,
    local_models: &str,
) -> anyhow::Result<ExitCode> {
    if !addr.ip().is_loopback() {
        tracing::warn!(%addr, "binding a non-loopback address: only loopback Host names are answered");
    }
    // The token file lives in the data dir, which a first run has not made yet.
    std::fs::create_dir_all(data_dir)?;
    let token = deskmate_api::load_or_create_token(data_dir)?;
    let server = deskmate_host::Server::start(data_dir, addr, local_models, token).await?;
    // The first line is the URL, so scripts can read where the server is. A reader that
    // goes away after it must not stop the server, so write errors are ignored.
    let banner = format!(
        "{}\ntoken file: {}\ndata dir: {}\n",
        server.url(),
        deskmate_api::token_path(data_dir).display(),
        data_dir.display()
    );
    let mut stdout = std::io::stdout().lock();
    let _ = stdout
        .write_all(banner.as_bytes())
        .and_then(|()| stdout.flush());
    drop(stdout);
    shutdown().await;
    server.stop().await;
    eprintln!("deskmate: stopped");
    Ok(ExitCode::SUCCESS)
}

/// Resolves on SIGINT or SIGTERM.
async fn shutdown() {
    let interrupt = tokio::signal::ctrl_c();
    #[cfg(unix)]
    {
        let mut term =
            match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
                Ok(term) => term,
                Err(_) => {
                    let _ = interrupt.await;
                    return;
                }
            };
        tokio::select! {
            _ = interrupt => {}
            _ = term.recv() => {}
        }
    }
    #[cfg(not(unix))]
    {
        let _ = interrupt.await;
    }
}

fn print_json(value: &Value) -> anyhow::Result<()> {
    let mut out = std::io::stdout().lock();
    serde_json::to_writer_pretty(&mut out, value)?;
    writeln!(out)?;
    Ok(())
}
