//! The sandbox helper: confines itself, reports what it enforced, then runs Python and
//! exits with its status. Started by `deskmate_sandbox::Runner`, never by hand.

use std::process::{Command, ExitCode, Stdio};

use deskmate_sandbox::{HelperConfig, REFUSED_EXIT_CODE, Report};

#[cfg(target_os = "linux")]
mod confine;

fn main() -> ExitCode {
    let Some(config) = std::env::args()
        .nth(1)
        .and_then(|arg| serde_json::from_str::<HelperConfig>(&arg).ok())
    else {
        eprintln!(
            "deskmate-sandbox: started without a valid configuration; it is started by Deskmate"
        );
        return ExitCode::from(2);
    };
    let report = protect(&config);
    eprint!("{}", report.to_line());
    if report.refused {
        return ExitCode::from(REFUSED_EXIT_CODE as u8);
    }
    let status = Command::new(&config.python)
        .args(&config.python_args)
        .env_clear()
        .envs(config.env.iter().map(|(k, v)| (k, v)))
        .current_dir(&config.work_dir)
        .stdin(Stdio::inherit())
        .stdout(Stdio::inherit())
        .stderr(Stdio::inherit())
        .status();
    match status {
        Ok(status) => ExitCode::from(code_of(status)),
        Err(e) => {
            eprintln!(
                "deskmate-sandbox: cannot start {}: {e}",
                config.python.display()
            );
            ExitCode::from(127)
        }
    }
}

#[cfg(target_os = "linux")]
fn protect(config: &HelperConfig) -> Report {
    confine::apply(config)
}

#[cfg(not(target_os = "linux"))]
fn protect(config: &HelperConfig) -> Report {
    let missing = [
        "filesystem",
        "network",
        "signals",
        "syscalls",
        "resource_limits",
    ]
    .iter()
    .map(|p| deskmate_sandbox::Missing {
        protection: (*p).to_string(),
        reason: format!("unsupported on this OS ({})", std::env::consts::OS),
    })
    .collect();
    Report {
        applied: vec!["clean_environment".into(), "process_group_timeout".into()],
        missing,
        refused: !config.allow_weaker,
    }
}

#[cfg(unix)]
fn code_of(status: std::process::ExitStatus) -> u8 {
    use std::os::unix::process::ExitStatusExt;
    let code = status
        .code()
        .or_else(|| status.signal().map(|s| 128 + s))
        .unwrap_or(255);
    u8::try_from(code & 0xFF).unwrap_or(255)
}

#[cfg(not(unix))]
fn code_of(status: std::process::ExitStatus) -> u8 {
    u8::try_from(status.code().unwrap_or(255) & 0xFF).unwrap_or(255)
}
