//! `append_audit`: appends an event to the data-dir audit journal, exactly once per key.
//!
//! The journal is a JSON-lines file; an exclusive file lock around "read keys, append"
//! makes the key check and the append one step, also across processes.

use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;

use deskmate_core::{
    Category, JsonSchema, Localized, SideEffect, ToolError, ToolSpec, read_args, said, schema_for,
};
use serde::Deserialize;
use serde_json::{Map, Value, json};

use crate::{SelfCheck, Tool, ToolContext};

/// An event to record.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct Args {
    #[schemars(
        length(min = 1, max = 200),
        description = "What was done, e.g. 'ran QC checks'.",
        extend("x-description-zh" = "做了什么，例如 'ran QC checks'。")
    )]
    action: String,
    #[schemars(
        length(max = 64),
        description = "The dataset concerned, if any, e.g. 'adsl'.",
        extend("x-description-zh" = "涉及的数据集（如有），例如 'adsl'。")
    )]
    dataset: Option<String>,
    #[schemars(
        description = "Further facts about the event as key/value pairs.",
        extend("maxProperties" = 50, "x-description-zh" = "关于该事件的更多信息，以键值对形式给出。")
    )]
    details: Option<Map<String, Value>>,
    #[schemars(
        length(min = 1, max = 128),
        regex(pattern = r"^[A-Za-z0-9._:-]+$"),
        description = "Optional stable key of this event (letters, digits, . _ : -); the same key is recorded once. Omit it to let Deskmate derive one.",
        extend("x-description-zh" = "该事件可选的固定键（字母、数字、. _ : -）；相同的键只记录一次。省略则由 Deskmate 自动生成。")
    )]
    idem_key: Option<String>,
}

/// The audit-append tool writing to `journal`.
pub fn tool(journal: PathBuf) -> AppendAudit {
    AppendAudit {
        spec: spec(),
        journal,
    }
}

/// Appends to the journal; writes files, so it runs on the blocking pool.
#[derive(Debug)]
pub struct AppendAudit {
    spec: ToolSpec,
    journal: PathBuf,
}

#[async_trait::async_trait]
impl Tool for AppendAudit {
    fn spec(&self) -> &ToolSpec {
        &self.spec
    }

    /// A dry run: the journal could be appended to now; nothing is written.
    fn self_check(&self) -> SelfCheck {
        let journal = self.journal.clone();
        SelfCheck::probe_blocking(move || dry_run(&journal))
    }

    fn fits(&self, args: &Value) -> Result<(), ToolError> {
        read_args::<Args>(&self.spec.id, args).map(drop)
    }

    async fn run(&self, args: Value, ctx: ToolContext) -> Result<Value, ToolError> {
        let mut args: Args = read_args(&self.spec.id, &args)?;
        if args.idem_key.is_none() {
            args.idem_key = Some(derived_key(&args, &ctx));
        }
        let journal = self.journal.clone();
        crate::blocking(move || append(&journal, &args)).await
    }
}

/// The key of an event the caller gave none: from the conversation's turn and the event
/// (so a call a model repeats in one turn is recorded once, and the same request made
/// again later is a new event), or from the call itself outside a conversation.
fn derived_key(args: &Args, ctx: &ToolContext) -> String {
    let event = json!({"action": args.action, "dataset": args.dataset, "details": args.details});
    let scope = ctx.scope.clone().unwrap_or_else(|| ctx.call_id.clone());
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in scope
        .bytes()
        .chain([0])
        .chain(event.to_string().into_bytes())
    {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    format!("auto-{hash:016x}")
}

fn spec() -> ToolSpec {
    ToolSpec {
        id: "append_audit".into(),
        name: Localized::new("追加审计记录", "Append audit event"),
        summary: Some(Localized::new(
            "在本地分析审计日志中记下一条操作记录，同一事件只记一次。",
            "Records an action in the local analysis audit journal, once per event.",
        )),
        description: "Appends one event to the local analysis audit journal (who did what to which \
            dataset). Idempotent: an event with an idem_key that was already recorded is not written \
            again and the answer says duplicate=true. idem_key is optional: without one, Deskmate \
            derives it from the conversation turn and the event. Writes to the journal; never \
            changes datasets."
            .into(),
        category: Category::Query,
        parameters: schema_for::<Args>(),
        side_effect: SideEffect::Write,
        idempotent: true,
        timeout_ms: 5_000,
        compensation: None,
    }
}

fn io_error(what: &str, path: &std::path::Path, e: std::io::Error) -> ToolError {
    ToolError::internal(format!(
        "cannot {what} the audit journal {}: {e}",
        path.display()
    ))
}

/// Whether an append could happen now, without writing: the journal opens for appending,
/// or (before the first event) the nearest existing folder on its path is writable.
fn dry_run(journal: &std::path::Path) -> Result<Localized, Localized> {
    let path = journal.display();
    if journal.exists() {
        let lines = std::fs::read_to_string(journal)
            .map_err(|e| {
                said!(
                    "无法读取日志 {path}：{e}",
                    "cannot read the journal {path}: {e}"
                )
            })?
            .lines()
            .count();
        OpenOptions::new().append(true).open(journal).map_err(|e| {
            said!(
                "日志 {path} 无法追加写入：{e}",
                "the journal {path} cannot be appended to: {e}"
            )
        })?;
        return Ok(said!(
            "试运行：日志 {path} 可以追加写入（已有 {lines} 条记录）；没有写入任何内容",
            "dry run: the journal {path} opens for appending ({lines} events); nothing written"
        ));
    }
    let folder = journal
        .ancestors()
        .skip(1)
        .find(|p| p.exists())
        .ok_or_else(|| said!("{path} 所在的文件夹都不存在", "no folder of {path} exists"))?;
    let shown = folder.display();
    let meta = std::fs::metadata(folder).map_err(|e| said!("{shown}：{e}", "{shown}: {e}"))?;
    if !meta.is_dir() || meta.permissions().readonly() {
        return Err(said!(
            "{shown} 不是可写的文件夹：无法创建日志 {path}",
            "{shown} is not a writable folder: the journal {path} cannot be created"
        ));
    }
    Ok(said!(
        "试运行：还没有记录；{shown} 可写，可以创建日志；没有写入任何内容",
        "dry run: no events yet; {shown} is writable, so the journal can be created; nothing written"
    ))
}

fn append(journal: &std::path::Path, args: &Args) -> Result<Value, ToolError> {
    let key = args.idem_key.as_deref().unwrap_or_default();
    if let Some(parent) = journal.parent() {
        std::fs::create_dir_all(parent)
            .map_err(|e| io_error("create the folder of", journal, e))?;
    }
    let lock_path = journal.with_extension("lock");
    let lock = File::create(&lock_path).map_err(|e| io_error("lock", journal, e))?;
    lock.lock().map_err(|e| io_error("lock", journal, e))?;
    // The lock is released when `lock` is dropped, after the append below.
    if let Ok(file) = File::open(journal) {
        for line in BufReader::new(file).lines() {
            let line = line.map_err(|e| io_error("read", journal, e))?;
            let Ok(event) = serde_json::from_str::<Value>(&line) else {
                continue;
            };
            if event["idem_key"] == key {
                let data = json!({"recorded": false, "duplicate": true, "idem_key": key,
                    "recorded_at": event["recorded_at"], "message": "this event was already recorded; nothing written"});
                return Ok(crate::said::with_line(
                    data,
                    Localized::new(
                        "这条审计记录之前已经写过，没有重复写入",
                        "This audit event was already recorded; not written again",
                    ),
                ));
            }
        }
    }
    let recorded_at = chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Millis, true);
    let event = json!({
        "idem_key": key,
        "recorded_at": recorded_at,
        "action": args.action,
        "dataset": args.dataset,
        "details": args.details.clone().unwrap_or_default(),
    });
    let mut line = serde_json::to_string(&event).map_err(|e| ToolError::internal(e.to_string()))?;
    line.push('\n');
    let mut file = OpenOptions::new()
        .create(true)
        .append(true)
        .open(journal)
        .map_err(|e| io_error("open", journal, e))?;
    // One write of the whole line: a reader never sees half an event.
    file.write_all(line.as_bytes())
        .map_err(|e| io_error("write", journal, e))?;
    file.sync_data().map_err(|e| io_error("sync", journal, e))?;
    drop(lock);
    let data =
        json!({"recorded": true, "duplicate": false, "idem_key": key, "recorded_at": recorded_at});
    Ok(crate::said::with_line(
        data,
        Localized::new("已写入审计记录", "Audit event recorded"),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn event(args: Value) -> Args {
        read_args("append_audit", &args).unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn same_key_is_written_once_even_from_many_threads() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let journal = dir.path().join("audit").join("journal.jsonl");
        let handles: Vec<_> = (0..8)
            .map(|_| {
                let journal = journal.clone();
                std::thread::spawn(move || {
                    append(
                        &journal,
                        &event(json!({"action": "ran QC", "idem_key": "k1"})),
                    )
                })
            })
            .collect();
        let recorded: usize = handles
            .into_iter()
            .filter_map(|h| h.join().ok())
            .filter(|r| r.as_ref().is_ok_and(|v| v["recorded"] == true))
            .count();
        assert_eq!(recorded, 1);
        append(
            &journal,
            &event(json!({"action": "other", "idem_key": "k2"})),
        )
        .unwrap_or_else(|e| panic!("{e}"));
        let text = std::fs::read_to_string(&journal).unwrap_or_default();
        assert_eq!(text.lines().count(), 2);
    }

    #[test]
    fn a_result_says_whether_the_event_was_written_or_was_there() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let journal = dir.path().join("journal.jsonl");
        let args = event(json!({"action": "ran QC", "idem_key": "k1"}));
        let first = append(&journal, &args).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            crate::said::line(&first, false),
            Some("Audit event recorded")
        );
        assert_eq!(crate::said::line(&first, true), Some("已写入审计记录"));
        let again = append(&journal, &args).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            crate::said::line(&again, false),
            Some("This audit event was already recorded; not written again")
        );
        assert_eq!(
            crate::said::line(&again, true),
            Some("这条审计记录之前已经写过，没有重复写入")
        );
    }
}
