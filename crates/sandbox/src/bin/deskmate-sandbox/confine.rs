//! Linux: the helper confines itself; Python inherits every restriction.
//!
//! Order matters: namespaces need privileges the later steps give up; the uid change
//! clears the parent-death signal; Landlock and seccomp come last, seccomp very last
//! because it refuses the calls the earlier steps make.

use std::collections::BTreeMap;

use deskmate_sandbox::{HelperConfig, Limits, Missing, Report};
use landlock::{
    ABI, Access, AccessFs, AccessNet, Ruleset, RulesetAttr, RulesetCreatedAttr, RulesetStatus,
    Scope, path_beneath_rules,
};
use nix::libc;
use nix::sched::{CloneFlags, unshare};
use nix::sys::prctl;
use nix::sys::resource::{Resource, setrlimit};
use nix::sys::signal::Signal;
use nix::unistd::{Gid, Uid, getegid, geteuid, getuid, setgid, setgroups, setuid};
use seccompiler::{
    BpfProgram, SeccompAction, SeccompCmpArgLen, SeccompCmpOp, SeccompCondition, SeccompFilter,
    SeccompRule, TargetArch,
};

/// The Landlock ABI whose filesystem rights are requested (best effort below it).
const FS_ABI: ABI = ABI::V5;

#[derive(Default)]
struct Applied {
    names: Vec<String>,
    /// Why a step failed, by step.
    failures: Vec<(&'static str, String)>,
}

impl Applied {
    fn record(&mut self, name: &'static str, outcome: Result<(), String>) -> bool {
        match outcome {
            Ok(()) => {
                self.names.push(name.to_string());
                true
            }
            Err(reason) => {
                self.failures.push((name, reason));
                false
            }
        }
    }

    fn has(&self, name: &str) -> bool {
        self.names.iter().any(|n| n == name)
    }

    fn reason(&self, names: &[&str]) -> String {
        let reasons: Vec<String> = self
            .failures
            .iter()
            .filter(|(n, _)| names.contains(n))
            .map(|(n, r)| format!("{n}: {r}"))
            .collect();
        if reasons.is_empty() {
            "not available".into()
        } else {
            reasons.join("; ")
        }
    }
}

/// Applies every protection it can and says which, and whether Python may start.
pub fn apply(config: &HelperConfig) -> Report {
    let mut applied = Applied::default();
    applied.names.push("clean_environment".into());
    applied.names.push("process_group_timeout".into());
    let root = geteuid().is_root();

    let (net, pid) = namespaces(root);
    applied.record("network_namespace", net);
    applied.record("pid_namespace", pid);
    if let Some(uid) = config.uid {
        applied.record("dedicated_uid", switch_user(uid));
    }
    // The uid change clears it: set it after. If Deskmate dies, the helper dies.
    if let Err(e) = prctl::set_pdeathsig(Signal::SIGKILL) {
        applied
            .failures
            .push(("parent_death_signal", e.to_string()));
    }
    let process_limit_counts = !geteuid().is_root();
    applied.record(
        "resource_limits",
        limits(&config.limits, config.uid.is_some()),
    );
    applied.record(
        "no_new_privileges",
        prctl::set_no_new_privs().map_err(|e| e.to_string()),
    );
    applied.record("landlock_filesystem", landlock_filesystem(config));
    applied.record("landlock_network", landlock_network());
    applied.record("landlock_scope", landlock_scope());
    applied.record("seccomp_filter", seccomp());

    let required: [(&str, bool, &[&str]); 6] = [
        (
            "filesystem",
            applied.has("landlock_filesystem"),
            &["landlock_filesystem"],
        ),
        (
            "network",
            applied.has("network_namespace")
                || applied.has("landlock_network")
                || applied.has("seccomp_filter"),
            &["network_namespace", "landlock_network", "seccomp_filter"],
        ),
        (
            "signals",
            applied.has("pid_namespace")
                || applied.has("landlock_scope")
                || applied.has("dedicated_uid"),
            &["pid_namespace", "landlock_scope", "dedicated_uid"],
        ),
        (
            "syscalls",
            applied.has("seccomp_filter"),
            &["seccomp_filter"],
        ),
        (
            "resource_limits",
            applied.has("resource_limits"),
            &["resource_limits"],
        ),
        (
            "process_limit",
            applied.has("resource_limits") && process_limit_counts,
            &["dedicated_uid", "resource_limits"],
        ),
    ];
    let missing: Vec<Missing> = required
        .iter()
        .filter(|(_, ok, _)| !ok)
        .map(|(protection, _, steps)| Missing {
            protection: (*protection).to_string(),
            reason: if *protection == "process_limit" && !process_limit_counts {
                "the process limit does not bind root, and no dedicated uid could be used".into()
            } else {
                applied.reason(steps)
            },
        })
        .collect();
    Report {
        refused: !missing.is_empty() && !config.allow_weaker,
        applied: applied.names,
        missing,
    }
}

/// New network and PID namespaces (a user namespace first when not root). Python, the
/// next process started, is the new PID namespace's init: when it ends, every process
/// the code started is killed by the kernel.
fn namespaces(root: bool) -> (Result<(), String>, Result<(), String>) {
    let both = CloneFlags::CLONE_NEWNET | CloneFlags::CLONE_NEWPID;
    if root {
        if unshare(both).is_ok() {
            return (Ok(()), Ok(()));
        }
        let net = unshare(CloneFlags::CLONE_NEWNET).map_err(|e| e.to_string());
        let pid = unshare(CloneFlags::CLONE_NEWPID).map_err(|e| e.to_string());
        return (net, pid);
    }
    let (uid, gid) = (getuid(), nix::unistd::getgid());
    let user = unshare(CloneFlags::CLONE_NEWUSER | both)
        .map_err(|e| format!("no user namespace: {e}"))
        .and_then(|()| {
            // Keep the same ids inside, so files keep their owner.
            std::fs::write("/proc/self/setgroups", "deny")
                .and_then(|()| std::fs::write("/proc/self/uid_map", format!("{uid} {uid} 1")))
                .and_then(|()| std::fs::write("/proc/self/gid_map", format!("{gid} {gid} 1")))
                .map_err(|e| format!("cannot map ids: {e}"))
        });
    (user.clone(), user)
}

fn switch_user(uid: u32) -> Result<(), String> {
    let (uid, gid) = (Uid::from_raw(uid), Gid::from_raw(uid));
    setgroups(&[]).map_err(|e| format!("setgroups: {e}"))?;
    setgid(gid).map_err(|e| format!("setgid: {e}"))?;
    setuid(uid).map_err(|e| format!("setuid: {e}"))?;
    if geteuid() != uid || getegid() != gid || setuid(Uid::from_raw(0)).is_ok() {
        return Err("the uid change did not stick".into());
    }
    Ok(())
}

fn limits(limits: &Limits, dedicated_uid: bool) -> Result<(), String> {
    // Without a uid of its own, the limit counts every process of the user: allow what
    // the user already runs plus the run's share.
    let processes = if dedicated_uid {
        limits.processes
    } else {
        processes_of(getuid().as_raw()) + limits.processes
    };
    let set = |resource: Resource, soft: u64, hard: u64| {
        setrlimit(resource, soft, hard).map_err(|e| format!("{resource:?}: {e}"))
    };
    // CPU: SIGXCPU at the soft limit, SIGKILL a second later.
    set(
        Resource::RLIMIT_CPU,
        limits.cpu_seconds,
        limits.cpu_seconds + 1,
    )?;
    set(
        Resource::RLIMIT_AS,
        limits.memory_bytes,
        limits.memory_bytes,
    )?;
    set(Resource::RLIMIT_NPROC, processes, processes)?;
    set(
        Resource::RLIMIT_FSIZE,
        limits.file_size_bytes,
        limits.file_size_bytes,
    )?;
    set(
        Resource::RLIMIT_NOFILE,
        limits.open_files,
        limits.open_files,
    )?;
    set(Resource::RLIMIT_CORE, 0, 0)?;
    Ok(())
}

/// How many processes (threads count too) a uid runs now, from /proc.
fn processes_of(uid: u32) -> u64 {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return 0;
    };
    let mut count = 0u64;
    for entry in entries.flatten() {
        let Ok(status) = std::fs::read_to_string(entry.path().join("status")) else {
            continue;
        };
        let real_uid = status
            .lines()
            .find_map(|l| l.strip_prefix("Uid:"))
            .and_then(|l| l.split_whitespace().next())
            .and_then(|u| u.parse::<u32>().ok());
        let threads = status
            .lines()
            .find_map(|l| l.strip_prefix("Threads:"))
            .and_then(|t| t.trim().parse::<u64>().ok())
            .unwrap_or(1);
        if real_uid == Some(uid) {
            count += threads;
        }
    }
    count
}

fn enforced(status: RulesetStatus) -> Result<(), String> {
    match status {
        RulesetStatus::FullyEnforced | RulesetStatus::PartiallyEnforced => Ok(()),
        RulesetStatus::NotEnforced => Err("not supported by this kernel".into()),
    }
}

/// Read and execute: the Python installation and the libraries it loads. Read and write:
/// the run's directory only. Everything else on the filesystem is refused.
fn landlock_filesystem(config: &HelperConfig) -> Result<(), String> {
    let status = Ruleset::default()
        .handle_access(AccessFs::from_all(FS_ABI))
        .and_then(|r| r.create())
        .and_then(|r| {
            r.add_rules(path_beneath_rules(
                &config.readable,
                AccessFs::from_read(FS_ABI),
            ))
        })
        .and_then(|r| {
            r.add_rules(path_beneath_rules(
                [&config.writable],
                AccessFs::from_all(FS_ABI),
            ))
        })
        .and_then(|r| {
            r.add_rules(path_beneath_rules(
                ["/dev/null"],
                AccessFs::ReadFile | AccessFs::WriteFile,
            ))
        })
        .and_then(|r| {
            r.add_rules(path_beneath_rules(
                ["/dev/urandom", "/dev/random", "/dev/zero"],
                AccessFs::ReadFile,
            ))
        })
        .and_then(|r| r.restrict_self())
        .map_err(|e| e.to_string())?;
    enforced(status.ruleset)
}

/// No TCP bind or connect at all (a second layer under the network namespace).
fn landlock_network() -> Result<(), String> {
    let status = Ruleset::default()
        .handle_access(AccessNet::from_all(ABI::V4))
        .and_then(|r| r.create())
        .and_then(|r| r.restrict_self())
        .map_err(|e| e.to_string())?;
    enforced(status.ruleset)
}

/// No signals to processes outside the sandbox, no abstract UNIX sockets outside it.
fn landlock_scope() -> Result<(), String> {
    let status = Ruleset::default()
        .scope(Scope::from_all(ABI::V6))
        .and_then(|r| r.create())
        .and_then(|r| r.restrict_self())
        .map_err(|e| e.to_string())?;
    enforced(status.ruleset)
}

/// Refuses (EPERM) sockets other than UNIX ones, `connect`, namespace and mount calls,
/// tracing other processes, kernel keyrings, BPF, io_uring, modules and clock changes;
/// `clone3` answers ENOSYS so the C library falls back to `clone`, whose flags are checked.
fn seccomp() -> Result<(), String> {
    let arch = TargetArch::try_from(std::env::consts::ARCH).map_err(|e| e.to_string())?;
    let mut rules: BTreeMap<i64, Vec<SeccompRule>> = BTreeMap::new();
    let condition = |arg: u8, op: SeccompCmpOp, value: u64| {
        SeccompCondition::new(arg, SeccompCmpArgLen::Qword, op, value)
            .and_then(|c| SeccompRule::new(vec![c]))
            .map_err(|e| e.to_string())
    };
    rules.insert(
        libc::SYS_socket,
        vec![
            SeccompCondition::new(
                0,
                SeccompCmpArgLen::Dword,
                SeccompCmpOp::Ne,
                libc::AF_UNIX as u64,
            )
            .and_then(|c| SeccompRule::new(vec![c]))
            .map_err(|e| e.to_string())?,
        ],
    );
    let namespace_flags = [
        libc::CLONE_NEWNS,
        libc::CLONE_NEWCGROUP,
        libc::CLONE_NEWUTS,
        libc::CLONE_NEWIPC,
        libc::CLONE_NEWUSER,
        libc::CLONE_NEWPID,
        libc::CLONE_NEWNET,
    ];
    let mut clone_rules = Vec::new();
    for flag in namespace_flags {
        let flag = flag as u64;
        clone_rules.push(condition(0, SeccompCmpOp::MaskedEq(flag), flag)?);
    }
    rules.insert(libc::SYS_clone, clone_rules);
    for call in refused_syscalls() {
        rules.insert(call, Vec::new());
    }
    let refuse = SeccompFilter::new(
        rules,
        SeccompAction::Allow,
        SeccompAction::Errno(libc::EPERM as u32),
        arch,
    )
    .map_err(|e| e.to_string())?;
    let no_clone3 = SeccompFilter::new(
        BTreeMap::from([(libc::SYS_clone3, Vec::new())]),
        SeccompAction::Allow,
        SeccompAction::Errno(libc::ENOSYS as u32),
        arch,
    )
    .map_err(|e| e.to_string())?;
    for filter in [refuse, no_clone3] {
        let program: BpfProgram = filter
            .try_into()
            .map_err(|e: seccompiler::BackendError| e.to_string())?;
        seccompiler::apply_filter(&program).map_err(|e| e.to_string())?;
    }
    Ok(())
}

fn refused_syscalls() -> Vec<i64> {
    let mut calls = vec![
        libc::SYS_connect,
        libc::SYS_unshare,
        libc::SYS_setns,
        libc::SYS_mount,
        libc::SYS_umount2,
        libc::SYS_pivot_root,
        libc::SYS_chroot,
        libc::SYS_open_tree,
        libc::SYS_move_mount,
        libc::SYS_fsopen,
        libc::SYS_fsconfig,
        libc::SYS_fsmount,
        libc::SYS_fspick,
        libc::SYS_mount_setattr,
        libc::SYS_ptrace,
        libc::SYS_process_vm_readv,
        libc::SYS_process_vm_writev,
        libc::SYS_kcmp,
        libc::SYS_pidfd_getfd,
        libc::SYS_keyctl,
        libc::SYS_add_key,
        libc::SYS_request_key,
        libc::SYS_bpf,
        libc::SYS_perf_event_open,
        libc::SYS_userfaultfd,
        libc::SYS_io_uring_setup,
        libc::SYS_io_uring_enter,
        libc::SYS_io_uring_register,
        libc::SYS_kexec_load,
        libc::SYS_kexec_file_load,
        libc::SYS_init_module,
        libc::SYS_finit_module,
        libc::SYS_delete_module,
        libc::SYS_reboot,
        libc::SYS_swapon,
        libc::SYS_swapoff,
        libc::SYS_acct,
        libc::SYS_settimeofday,
        libc::SYS_clock_settime,
        libc::SYS_clock_adjtime,
        libc::SYS_adjtimex,
        libc::SYS_syslog,
        libc::SYS_quotactl,
        libc::SYS_open_by_handle_at,
        libc::SYS_name_to_handle_at,
        libc::SYS_fanotify_init,
        libc::SYS_vhangup,
        libc::SYS_sethostname,
        libc::SYS_setdomainname,
    ];
    #[cfg(target_arch = "x86_64")]
    calls.extend([libc::SYS_iopl, libc::SYS_ioperm, libc::SYS_uselib]);
    calls
}
