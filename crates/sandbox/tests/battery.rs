//! The escape battery: each attempt must be contained, the host unharmed afterwards (no
//! file outside the run's directory touched, no process of the run left, the run's
//! directory removed), and ordinary work must still run.

use std::io::Read;
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use deskmate_sandbox::{Limits, RunOutput, Runner, SandboxError};

const HELPER: &str = env!("CARGO_BIN_EXE_deskmate-sandbox");

/// A runner whose run directories go into a temp dir of the test's own, checked empty
/// after every run.
struct Harness {
    runner: Runner,
    runs: tempfile::TempDir,
}

impl Harness {
    fn new() -> Self {
        Self::with_limits(Limits::default())
    }

    fn with_limits(limits: Limits) -> Self {
        let runs = tempfile::tempdir().expect("temp dir");
        let runner = Runner::new()
            .expect("python")
            .with_helper(HELPER)
            .with_limits(limits)
            .with_temp_root(runs.path());
        Self { runner, runs }
    }

    async fn run(&self, code: &str) -> RunOutput {
        let out = self.try_run(code, 20).await.expect("the run completes");
        assert_full_protections(&out.protections);
        out
    }

    async fn try_run(&self, code: &str, wall: u64) -> Result<RunOutput, SandboxError> {
        let result = self
            .runner
            .run_with(code, wall, &tokio_util::sync::CancellationToken::new())
            .await;
        self.assert_host_unharmed();
        result
    }

    fn assert_host_unharmed(&self) {
        let left: Vec<_> = std::fs::read_dir(self.runs.path())
            .expect("runs dir")
            .flatten()
            .map(|e| e.path())
            .collect();
        assert!(left.is_empty(), "run directories left behind: {left:?}");
        // With a PID namespace, the kernel kills what is left when Python (its init)
        // ends; give it a moment to reap.
        let deadline = Instant::now() + Duration::from_secs(5);
        loop {
            let alive = processes_under(self.runs.path());
            if alive.is_empty() {
                break;
            }
            assert!(
                Instant::now() < deadline,
                "processes of a sandbox outlived their run: {alive:?}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

/// Processes of this harness's runs: their command line or working directory is under
/// its runs directory (forked children keep the command line; a new program keeps the
/// working directory, even once it is deleted).
fn processes_under(runs: &Path) -> Vec<String> {
    let needle = runs.display().to_string();
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").expect("/proc").flatten() {
        let cmdline = std::fs::read(entry.path().join("cmdline")).unwrap_or_default();
        let cwd = std::fs::read_link(entry.path().join("cwd")).unwrap_or_default();
        let cmdline = String::from_utf8_lossy(&cmdline).replace('\0', " ");
        if cmdline.contains(&needle) || cwd.display().to_string().contains(&needle) {
            found.push(format!(
                "{}: {cmdline}",
                entry.file_name().to_string_lossy()
            ));
        }
    }
    found
}

fn is_root() -> bool {
    nix::unistd::geteuid().is_root()
}

fn assert_full_protections(protections: &[String]) {
    let mut expected = vec![
        "clean_environment",
        "process_group_timeout",
        "resource_limits",
        "no_new_privileges",
        "landlock_filesystem",
        "seccomp_filter",
    ];
    if is_root() {
        expected.extend(["network_namespace", "pid_namespace", "dedicated_uid"]);
    }
    for name in expected {
        assert!(
            protections.iter().any(|p| p == name),
            "{name} not enforced: {protections:?}"
        );
    }
}

fn py_str(path: &Path) -> String {
    serde_json::to_string(&path.display().to_string()).expect("json")
}

// ---------------------------------------------------------------- ordinary work

#[tokio::test]
async fn ordinary_work_runs_and_the_last_expression_is_the_result() {
    let h = Harness::new();
    let out = h
        .run(
            "import math, json, datetime, statistics\n\
             from zoneinfo import ZoneInfo\n\
             print('你好', math.factorial(20))\n\
             d = datetime.datetime(2024, 1, 1, 12, tzinfo=ZoneInfo('Asia/Shanghai'))\n\
             data = json.loads('[1, 2, 3, 4]')\n\
             {'mean': statistics.mean(data), 'stdev': round(statistics.stdev(data), 4), 'utc': d.astimezone(datetime.timezone.utc).hour}",
        )
        .await;
    assert_eq!(out.exit_code, 0, "{out:?}");
    assert_eq!(out.stdout, "你好 2432902008176640000\n");
    assert_eq!(
        out.result.as_deref(),
        Some("{'mean': 2.5, 'stdev': 1.291, 'utc': 4}")
    );
    assert_eq!(out.error, None);
    assert!(!out.truncated);
    assert!(out.weaker.is_empty());

    let plain = h.run("x = 6 * 7\nx").await;
    assert_eq!(plain.result.as_deref(), Some("42"));
    let none = h.run("print('no result')").await;
    assert_eq!(none.result, None);
    assert_eq!(none.stdout, "no result\n");
}

#[tokio::test]
async fn a_syntax_error_and_an_exception_are_reported_cleanly() {
    let h = Harness::new();
    let syntax = h.run("def f(:\n    pass").await;
    assert_eq!(syntax.exit_code, 1);
    assert_eq!(
        syntax.error.as_deref(),
        Some("SyntaxError: invalid syntax (line 1)")
    );
    assert!(syntax.stderr.contains("SyntaxError"), "{}", syntax.stderr);

    let raised = h.run("print('before')\nx = {}\nx['missing']").await;
    assert_eq!(raised.exit_code, 1);
    assert_eq!(raised.stdout, "before\n");
    assert_eq!(raised.error.as_deref(), Some("KeyError: 'missing'"));
    // The traceback starts in the cell, with its line, not in the driver.
    assert!(
        raised.stderr.contains("File \"<cell>\", line 3"),
        "{}",
        raised.stderr
    );
    assert!(
        !raised.stderr.contains("_deskmate_cell"),
        "{}",
        raised.stderr
    );

    let exit = h.run("import sys\nsys.exit(3)").await;
    assert_eq!(exit.exit_code, 3);
    assert_eq!(exit.error, None);
}

// ---------------------------------------------------------------- the battery

#[tokio::test]
async fn escape_01_reading_the_app_data_dir_and_api_token_is_refused() {
    let h = Harness::new();
    // World-readable on purpose: only the sandbox stands in the way, not file modes.
    let data = tempfile::tempdir().expect("data dir");
    let token = data.path().join("api-token");
    std::fs::write(&token, "secret-token-value").expect("token");
    set_mode(data.path(), 0o755);
    set_mode(&token, 0o644);
    let out = h
        .run(&format!(
            "import os\nresults = []\n\
             for attempt in (lambda: open({token}).read(), lambda: os.listdir({dir})):\n\
             \x20   try:\n        results.append(('read', attempt()))\n\
             \x20   except OSError as e:\n        results.append(('refused', e.errno))\n\
             results",
            token = py_str(&token),
            dir = py_str(data.path()),
        ))
        .await;
    assert_eq!(
        out.result.as_deref(),
        Some("[('refused', 13), ('refused', 13)]")
    );
    assert!(!out.stdout.contains("secret-token-value"));
}

#[tokio::test]
async fn escape_02_reading_the_users_home_is_refused() {
    let h = Harness::new();
    let home = std::env::var("HOME").unwrap_or_else(|_| "/root".into());
    let out = h
        .run(&format!(
            "import os\ntry:\n    os.listdir({home})\n    'listed'\nexcept OSError as e:\n    print('refused', e.errno)",
            home = py_str(Path::new(&home)),
        ))
        .await;
    assert_eq!(out.stdout, "refused 13\n", "{out:?}");
    // And the sandbox's own HOME is its scratch directory.
    let own = h.run("import os\nos.path.expanduser('~')").await;
    assert!(
        own.result
            .as_deref()
            .is_some_and(|r| r.contains("deskmate-sbx-") && r.ends_with("/work'")),
        "{own:?}"
    );
}

#[tokio::test]
async fn escape_03_reading_etc_shadow_and_passwd_is_refused() {
    let h = Harness::new();
    let out = h
        .run(
            "codes = []\nfor p in ('/etc/shadow', '/etc/passwd', '/etc/hostname'):\n\
             \x20   try:\n        open(p).read()\n        codes.append('read')\n\
             \x20   except OSError as e:\n        codes.append(e.errno)\ncodes",
        )
        .await;
    assert_eq!(out.result.as_deref(), Some("[13, 13, 13]"), "{out:?}");
}

#[tokio::test]
async fn escape_04_writing_outside_the_work_dir_is_refused() {
    let h = Harness::new();
    let target_dir = tempfile::tempdir().expect("dir");
    // World-writable with the sticky bit, like /tmp: only the sandbox refuses the write.
    set_mode(target_dir.path(), 0o1777);
    let target = target_dir.path().join("escaped.txt");
    let tmp_target = PathBuf::from(format!("/tmp/deskmate-escape-{}", std::process::id()));
    let out = h
        .run(&format!(
            "import os\ncodes = []\nfor p in ({a}, {b}):\n\
             \x20   try:\n        open(p, 'w').write('x')\n        codes.append('written')\n\
             \x20   except OSError as e:\n        codes.append(e.errno)\n\
             os.symlink({b}, 'link')\n\
             try:\n    open('link', 'w').write('x')\n    codes.append('written')\n\
             except OSError as e:\n    codes.append(e.errno)\n\
             open('inside.txt', 'w').write('fine')\ncodes",
            a = py_str(&target),
            b = py_str(&tmp_target),
        ))
        .await;
    assert_eq!(out.result.as_deref(), Some("[13, 13, 13]"), "{out:?}");
    assert!(!target.exists());
    assert!(!tmp_target.exists());
}

#[tokio::test]
async fn escape_05_a_tcp_connection_to_a_loopback_server_is_refused() {
    let h = Harness::new();
    let listener = TcpListener::bind("127.0.0.1:0").expect("listener");
    listener.set_nonblocking(true).expect("nonblocking");
    let port = listener.local_addr().expect("addr").port();
    let out = h
        .run(&format!(
            "import socket\ntry:\n    socket.create_connection(('127.0.0.1', {port}), timeout=3)\n    r = 'connected'\n\
             except OSError as e:\n    r = 'refused: ' + type(e).__name__\nr"
        ))
        .await;
    assert_eq!(
        out.result.as_deref(),
        Some("'refused: PermissionError'"),
        "{out:?}"
    );
    assert!(
        listener.accept().is_err(),
        "the server saw a connection from the sandbox"
    );
}

#[tokio::test]
async fn escape_06_dns_lookups_fail() {
    let h = Harness::new();
    let out = h
        .run(
            "import socket\nresults = []\nfor host in ('example.com', 'localhost'):\n\
             \x20   try:\n        socket.getaddrinfo(host, 80)\n        results.append('resolved')\n\
             \x20   except OSError as e:\n        results.append(type(e).__name__)\nresults",
        )
        .await;
    let result = out.result.unwrap_or_default();
    assert!(!result.contains("resolved"), "{result}");
}

#[tokio::test]
async fn escape_07_a_fork_bomb_hits_the_process_limit() {
    let limits = Limits {
        processes: 16,
        ..Limits::default()
    };
    let h = Harness::with_limits(limits);
    let out = h
        .run(
            "import os, time\nchildren = 0\ntry:\n    while True:\n        if os.fork() == 0:\n\
             \x20           time.sleep(60)\n            os._exit(0)\n        children += 1\n\
             except OSError as e:\n    print(type(e).__name__)\nchildren",
        )
        .await;
    let children: u64 = out
        .result
        .as_deref()
        .and_then(|r| r.parse().ok())
        .unwrap_or(u64::MAX);
    if is_root() {
        // The dedicated uid owns only this run's processes.
        assert!(children < 16, "{out:?}");
    }
    assert_eq!(out.stdout, "BlockingIOError\n", "{out:?}");
    // The sleeping children died with the run (checked by the harness).
}

#[tokio::test]
async fn escape_08_a_memory_bomb_gets_a_memory_error() {
    let h = Harness::new();
    let out = h
        .run("try:\n    x = bytearray(8 * 1024**3)\n    r = 'allocated'\nexcept MemoryError:\n    r = 'MemoryError'\nr")
        .await;
    assert_eq!(out.result.as_deref(), Some("'MemoryError'"), "{out:?}");
}

#[tokio::test]
async fn escape_09_a_cpu_spin_is_stopped_by_the_cpu_limit() {
    let limits = Limits {
        cpu_seconds: 1,
        ..Limits::default()
    };
    let h = Harness::with_limits(limits);
    let started = Instant::now();
    let out = h.run("while True:\n    pass").await;
    // SIGXCPU (24) at the soft limit; Python is its PID namespace's init, which the
    // kernel may spare from SIGXCPU, and then SIGKILL (9) at the hard limit a second later.
    assert!([128 + 24, 128 + 9].contains(&out.exit_code), "{out:?}");
    assert!(out.duration_ms >= 900, "{out:?}");
    assert!(started.elapsed() < Duration::from_secs(15));
}

#[tokio::test]
async fn escape_10_a_sleep_past_the_wall_clock_is_killed() {
    let h = Harness::new();
    let started = Instant::now();
    let err = h
        .try_run(
            "print('started', flush=True)\nimport time\ntime.sleep(600)",
            2,
        )
        .await
        .expect_err("timeout");
    assert!(started.elapsed() < Duration::from_secs(10));
    match err {
        SandboxError::TimedOut { after, stdout } => {
            assert_eq!(after, Duration::from_secs(2));
            assert_eq!(stdout, "started\n");
        }
        other => panic!("expected a timeout, got {other:?}"),
    }
}

#[tokio::test]
async fn escape_11_a_gigabyte_of_output_is_capped() {
    let h = Harness::new();
    let started = Instant::now();
    let out = h
        .run("import sys\nchunk = 'x' * (1 << 20)\nfor _ in range(1024):\n    sys.stdout.write(chunk)\n'done'")
        .await;
    assert!(out.truncated);
    assert_eq!(out.stdout.len(), Limits::default().output_bytes);
    assert_eq!(out.result.as_deref(), Some("'done'"), "{:?}", out.stderr);
    assert!(started.elapsed() < Duration::from_secs(60));
}

#[tokio::test]
async fn escape_12_a_huge_file_stops_at_the_file_size_limit() {
    let h = Harness::new();
    let out = h
        .run(
            "import os\nwritten = 0\ntry:\n    with open('big.bin', 'wb') as f:\n        for _ in range(1024):\n\
             \x20           f.write(b'0' * (1 << 20))\n            written += 1\n\
             except OSError as e:\n    print(e.strerror)\nos.path.getsize('big.bin')",
        )
        .await;
    assert_eq!(out.stdout, "File too large\n", "{out:?}");
    assert_eq!(
        out.result.as_deref(),
        Some(Limits::default().file_size_bytes.to_string().as_str())
    );
}

#[tokio::test]
async fn escape_13_the_environment_holds_no_secrets() {
    let h = Harness::new();
    // The test process has CARGO_* and HOME; none of it may reach the code.
    assert!(std::env::var_os("CARGO_MANIFEST_DIR").is_some());
    let out = h
        .run(&format!(
            "import os\nenv = sorted(os.environ)\ntry:\n    open('/proc/{pid}/environ').read()\n    leaked = True\n\
             except OSError:\n    leaked = False\n(env, leaked)",
            pid = std::process::id()
        ))
        .await;
    assert_eq!(
        out.result.as_deref(),
        Some("(['HOME', 'LANG', 'LC_ALL', 'PATH', 'TMPDIR'], False)"),
        "{out:?}"
    );
}

#[tokio::test]
async fn escape_14_spawning_a_shell_is_refused() {
    let h = Harness::new();
    let out = h
        .run(
            "import os, subprocess\nresults = []\nfor cmd in (['/bin/sh', '-c', 'id'], ['/usr/bin/env']):\n\
             \x20   try:\n        subprocess.run(cmd, capture_output=True)\n        results.append('ran')\n\
             \x20   except OSError as e:\n        results.append(e.errno)\n\
             results.append(os.system('id > /dev/null') != 0)\nresults",
        )
        .await;
    assert_eq!(out.result.as_deref(), Some("[13, 13, True]"), "{out:?}");
}

#[tokio::test]
async fn escape_15_signalling_the_parent_or_everyone_fails() {
    let h = Harness::new();
    let out = h
        .run(&format!(
            "import os, signal\nresults = []\nfor target in ({pid}, -1):\n\
             \x20   try:\n        os.kill(target, signal.SIGKILL)\n        results.append('sent')\n\
             \x20   except OSError as e:\n        results.append(type(e).__name__)\nresults",
            pid = std::process::id()
        ))
        .await;
    // The test process is alive to read this: the signal never reached it.
    let result = out.result.unwrap_or_default();
    assert!(
        result.starts_with("['ProcessLookupError'") || result.starts_with("['PermissionError'"),
        "{result}"
    );
}

#[tokio::test]
async fn escape_16_ctypes_syscalls_are_filtered() {
    let h = Harness::new();
    // socket(AF_INET), unshare(CLONE_NEWUSER), mount, ptrace(PTRACE_ATTACH, 1), setuid(0):
    // straight to libc, past Python's own checks.
    let out = h
        .run(
            "import ctypes, os\nlibc = ctypes.CDLL(None, use_errno=True)\n\
             calls = [lambda: libc.socket(2, 1, 0), lambda: libc.unshare(0x10000000),\n\
             \x20        lambda: libc.mount(b'none', b'/tmp', b'tmpfs', 0, None),\n\
             \x20        lambda: libc.ptrace(16, 1, None, None), lambda: libc.setuid(0)]\n\
             [call() for call in calls]",
        )
        .await;
    assert_eq!(
        out.result.as_deref(),
        Some("[-1, -1, -1, -1, -1]"),
        "{out:?}"
    );
}

#[tokio::test]
async fn escape_17_a_background_process_does_not_survive_the_timeout() {
    let h = Harness::new();
    let marker = format!("deskmate-orphan-{}", std::process::id());
    let err = h
        .try_run(
            &format!(
                "import subprocess, sys, time\n\
                 subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(300)  # {marker}'], start_new_session=True)\n\
                 print('spawned', flush=True)\ntime.sleep(300)"
            ),
            2,
        )
        .await;
    assert!(matches!(err, Err(SandboxError::TimedOut { .. })), "{err:?}");
    // The harness checked that no sandbox process is alive; check the marker as well.
    for entry in std::fs::read_dir("/proc").expect("/proc").flatten() {
        let mut cmdline = String::new();
        if let Ok(mut f) = std::fs::File::open(entry.path().join("cmdline")) {
            let _ = f.read_to_string(&mut cmdline);
        }
        assert!(!cmdline.contains(&marker), "orphan alive: {cmdline}");
    }
}

#[tokio::test]
async fn escape_18_proc_and_devices_are_out_of_reach() {
    let h = Harness::new();
    let out = h
        .run(
            "codes = []\nfor p in ('/proc/1/environ', '/proc/self/mounts', '/dev/mem', '/sys/kernel/notes'):\n\
             \x20   try:\n        open(p, 'rb').read(1)\n        codes.append('read')\n\
             \x20   except OSError as e:\n        codes.append(e.errno)\ncodes",
        )
        .await;
    let result = out.result.unwrap_or_default();
    assert!(!result.contains("read"), "{result}");
}

#[tokio::test]
async fn cancelling_a_run_kills_it() {
    let h = Harness::new();
    let cancel = tokio_util::sync::CancellationToken::new();
    let trigger = cancel.clone();
    tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(500)).await;
        trigger.cancel();
    });
    let started = Instant::now();
    let result = h
        .runner
        .run_with("import time\ntime.sleep(600)", 30, &cancel)
        .await;
    assert!(matches!(result, Err(SandboxError::Cancelled)), "{result:?}");
    assert!(started.elapsed() < Duration::from_secs(10));
    h.assert_host_unharmed();
}

fn set_mode(path: &Path, mode: u32) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).expect("chmod");
}

// ---------------------------------------------------------------- failing closed

/// A helper started under a seccomp filter that answers ENOSYS to Landlock's system calls —
/// what a kernel built without Landlock answers.
#[cfg(target_arch = "x86_64")]
fn helper_without_landlock(dir: &Path) -> PathBuf {
    let filter = Path::new(
        &std::env::var("CARGO_MANIFEST_DIR")
            .unwrap_or_else(|_| env!("CARGO_MANIFEST_DIR").to_string()),
    )
    .join("../../testdata/sandbox/no_landlock.py");
    let wrapper = dir.join("no-landlock");
    let script = format!(
        "#!/bin/sh\nexec /usr/bin/python3 '{}' '{HELPER}' \"$@\"\n",
        filter.display()
    );
    std::fs::write(&wrapper, script).expect("wrapper");
    set_mode(&wrapper, 0o755);
    wrapper
}

#[cfg(target_arch = "x86_64")]
#[tokio::test]
async fn without_landlock_the_runner_refuses_and_names_the_missing_protection() {
    let tools = tempfile::tempdir().expect("dir");
    let h = Harness::new();
    let runner = h
        .runner
        .clone()
        .with_helper(helper_without_landlock(tools.path()));
    let refused = runner.run("print('must not run')").await;
    match refused {
        Err(SandboxError::Refused { missing }) => {
            let names: Vec<&str> = missing.iter().map(|m| m.protection.as_str()).collect();
            assert_eq!(names, ["filesystem"], "{missing:?}");
            assert!(
                missing[0].reason.contains("landlock_filesystem"),
                "{missing:?}"
            );
        }
        other => panic!("expected a refusal, got {other:?}"),
    }
    h.assert_host_unharmed();

    // Weaker mode, explicitly allowed: the code runs and the output says what is missing.
    let weaker = runner.allow_weaker(true).run("6 * 7").await.expect("runs");
    assert_eq!(weaker.result.as_deref(), Some("42"));
    assert_eq!(weaker.weaker.len(), 1);
    assert_eq!(weaker.weaker[0].protection, "filesystem");
    assert!(
        !weaker
            .protections
            .iter()
            .any(|p| p == "landlock_filesystem")
    );
    assert!(weaker.protections.iter().any(|p| p == "seccomp_filter"));
    h.assert_host_unharmed();
}
