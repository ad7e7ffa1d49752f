//! `deskmate schedules [list|add|rm]`: reminders and scheduled calls from the terminal.
//! A running app or `deskmate serve` on the same data dir fires what is added here.

use std::path::Path;
use std::process::ExitCode;
use std::sync::Arc;

use chrono::Utc;
use clap::Subcommand;
use deskmate_host::open_service;
use deskmate_service::ServiceError;
use deskmate_service::body::Body;
use deskmate_service::hooks::{Confirmer, NoConfirmer, PreApproved};
use deskmate_service::schedules::{NewSchedule, ScheduleView};
use serde_json::{Value, json};

/// What to do with the schedules.
#[derive(Debug, Subcommand)]
pub enum SchedulesCommand {
    /// List them, the next to fire first (the default).
    List {
        /// Print them as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Add one: a reminder (`--message`), a tool call (`--tool` and `--args`) or a
    /// prompt (`--prompt`), at WHEN ("in 10 minutes", "every weekday at 9", "明天早上9点").
    Add {
        /// When it fires.
        when: String,
        /// What to remind of.
        #[arg(long)]
        message: Option<String>,
        /// Say the reminder out loud too.
        #[arg(long)]
        speak: bool,
        /// The tool to call.
        #[arg(long)]
        tool: Option<String>,
        /// The tool's arguments as a JSON object.
        #[arg(long)]
        args: Option<String>,
        /// A request to the assistant to run then.
        #[arg(long)]
        prompt: Option<String>,
        /// The IANA time zone of WHEN (default: this computer's).
        #[arg(long)]
        time_zone: Option<String>,
        /// Agree now to a tool whose policy asks.
        #[arg(long)]
        yes: bool,
    },
    /// Delete one by id.
    Rm {
        /// The schedule's id.
        id: String,
    },
}

/// Runs a `schedules` command; exit 0 on success, 1 when refused, 2 on bad input.
pub async fn run(data_dir: &Path, command: Option<SchedulesCommand>) -> anyhow::Result<ExitCode> {
    let command = command.unwrap_or(SchedulesCommand::List { json: false });
    let yes = matches!(command, SchedulesCommand::Add { yes: true, .. });
    let confirmer: Arc<dyn Confirmer> = if yes {
        Arc::new(PreApproved)
    } else {
        Arc::new(NoConfirmer)
    };
    let deskmate = open_service(data_dir, confirmer)?;
    let book = deskmate.schedule_book()?;
    let outcome = match command {
        SchedulesCommand::List { json } => {
            let (items, total) = book.list(1000, 0)?;
            if json {
                println!(
                    "{}",
                    serde_json::to_string_pretty(&json!({"total": total, "list": items}))?
                );
            } else if items.is_empty() {
                println!("no schedules");
            } else {
                for item in &items {
                    println!("{}", line(item));
                }
            }
            return Ok(ExitCode::SUCCESS);
        }
        SchedulesCommand::Add {
            when,
            message,
            speak,
            tool,
            args,
            prompt,
            time_zone,
            yes: _,
        } => {
            let arguments = match args.as_deref().map(serde_json::from_str::<Value>) {
                None => Value::Null,
                Some(Ok(value)) => value,
                Some(Err(e)) => {
                    eprintln!("deskmate: --args is not JSON: {e}");
                    return Ok(ExitCode::from(2));
                }
            };
            let mut body = json!({"when": when});
            for (key, value) in [
                ("message", message.map(Value::String)),
                ("tool", tool.map(Value::String)),
                ("prompt", prompt.map(Value::String)),
                ("time_zone", time_zone.map(Value::String)),
                ("speak", speak.then_some(Value::Bool(true))),
                ("arguments", (!arguments.is_null()).then_some(arguments)),
            ] {
                if let Some(value) = value {
                    body[key] = value;
                }
            }
            match NewSchedule::read(&body) {
                Err(errors) => Err(ServiceError::Invalid(errors)),
                Ok(input) => book.create(input, "cli", None, Utc::now()).await,
            }
        }
        SchedulesCommand::Rm { id } => book.delete(&id),
    };
    match outcome {
        Ok(view) => {
            println!("{}", line(&view));
            Ok(ExitCode::SUCCESS)
        }
        Err(ServiceError::Invalid(errors)) => {
            for e in errors {
                eprintln!("deskmate: {}: {} ({})", e.path, e.message, e.hint);
            }
            Ok(ExitCode::from(2))
        }
        Err(e) => {
            eprintln!("deskmate: {e}");
            Ok(ExitCode::from(1))
        }
    }
}

/// `sch-… · weekdays at 09:00 · next 2026-12-04T09:00:00+01:00 · remind: stretch`.
fn line(view: &ScheduleView) -> String {
    let what = match &view.action {
        deskmate_service::schedules::Action::Reminder { message, .. } => {
            format!("remind: {message}")
        }
        deskmate_service::schedules::Action::Tool { tool, arguments } => {
            format!("call {tool} {arguments}")
        }
        deskmate_service::schedules::Action::Prompt { prompt } => format!("ask: {prompt}"),
    };
    let next = view.next_at_local.as_deref().unwrap_or("no more");
    let off = if view.enabled { "" } else { " (off)" };
    format!(
        "{} · {} · next {next}{off} · {what}",
        view.id, view.rule_words.en
    )
}
