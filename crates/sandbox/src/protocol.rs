//! What the runner and the helper tell each other: the helper's configuration (its one
//! argument, JSON) and its report (the first line it writes on stderr, before Python runs).

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

/// Starts the helper's report line on stderr.
pub const REPORT_PREFIX: &str = "\u{1e}deskmate-sandbox ";

/// The helper's exit code when it refused to start Python.
pub const REFUSED_EXIT_CODE: i32 = 125;

/// The report line is never longer than this.
pub(crate) const MAX_REPORT_BYTES: usize = 16 * 1024;

/// Runs started by root get a uid in `[BASE, BASE + SPAN)`: no account has one there.
pub(crate) const SANDBOX_UID_BASE: u32 = 1_900_000_000;
pub(crate) const SANDBOX_UID_SPAN: u64 = 100_000_000;

/// The resource limits of one run.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Limits {
    /// CPU time (RLIMIT_CPU), seconds.
    pub cpu_seconds: u64,
    /// Address space (RLIMIT_AS), bytes.
    pub memory_bytes: u64,
    /// Processes and threads of the run's user (RLIMIT_NPROC).
    pub processes: u64,
    /// Largest file the code may write (RLIMIT_FSIZE), bytes.
    pub file_size_bytes: u64,
    /// Open file descriptors (RLIMIT_NOFILE).
    pub open_files: u64,
    /// Wall-clock limit of a run, seconds (the most a call may ask for).
    pub wall_seconds: u64,
    /// Bytes of stdout and of stderr kept.
    pub output_bytes: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            cpu_seconds: 30,
            memory_bytes: 1024 * 1024 * 1024,
            processes: 32,
            file_size_bytes: 16 * 1024 * 1024,
            open_files: 64,
            wall_seconds: 60,
            output_bytes: 64 * 1024,
        }
    }
}

/// The helper's configuration.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct HelperConfig {
    /// The interpreter.
    pub python: PathBuf,
    /// Its arguments.
    pub python_args: Vec<String>,
    /// Its working directory.
    pub work_dir: PathBuf,
    /// The one directory it may write (the run's temporary directory).
    pub writable: PathBuf,
    /// What it may read and execute.
    pub readable: Vec<PathBuf>,
    /// Its whole environment.
    pub env: Vec<(String, String)>,
    /// Resource limits.
    pub limits: Limits,
    /// Start Python even when a required protection is missing.
    pub allow_weaker: bool,
    /// The uid (and gid) to switch to; set when the runner is root.
    pub uid: Option<u32>,
}

/// A required protection that could not be enforced.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Missing {
    /// What is missing: `filesystem`, `network`, `signals`, `syscalls`, `resource_limits`
    /// or `process_limit`.
    pub protection: String,
    /// Why, as the OS said it.
    pub reason: String,
}

/// What the helper enforced.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Report {
    /// Protections enforced, by name.
    pub applied: Vec<String>,
    /// Required protections that are missing.
    pub missing: Vec<Missing>,
    /// Whether the helper refused to start Python.
    pub refused: bool,
}

impl Report {
    /// The report as its stderr line.
    pub fn to_line(&self) -> String {
        let json = serde_json::to_string(self).unwrap_or_else(|_| "{}".into());
        format!("{REPORT_PREFIX}{json}\n")
    }
}

/// Splits the helper's report line off the start of its stderr.
pub(crate) fn split_report(stderr: &[u8]) -> (Option<Report>, &[u8]) {
    let prefix = REPORT_PREFIX.as_bytes();
    if !stderr.starts_with(prefix) {
        return (None, stderr);
    }
    let end = stderr
        .iter()
        .position(|&b| b == b'\n')
        .unwrap_or(stderr.len());
    let report = serde_json::from_slice(&stderr[prefix.len()..end]).ok();
    let rest = stderr.get(end + 1..).unwrap_or_default();
    (report, rest)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_report_line_round_trips_and_only_the_first_line_counts() {
        let report = Report {
            applied: vec!["seccomp_filter".into()],
            missing: vec![Missing {
                protection: "network".into(),
                reason: "EPERM".into(),
            }],
            refused: false,
        };
        let mut stderr = report.to_line().into_bytes();
        stderr.extend_from_slice(b"Traceback\n");
        stderr.extend_from_slice(report.to_line().as_bytes());
        let (parsed, rest) = split_report(&stderr);
        assert_eq!(parsed, Some(report.clone()));
        assert!(rest.starts_with(b"Traceback\n"));
        // A cell that prints a fake report after the real one changes nothing, and output
        // without a report has none.
        let (none, all) = split_report(b"hello\n");
        assert_eq!(none, None);
        assert_eq!(all, b"hello\n");
    }
}
