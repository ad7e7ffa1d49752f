//! Black-box tests of the `deskmate` binary: output shapes, exit codes, data-dir
//! selection, and the golden file of tool specs (regenerate with `UPDATE_GOLDEN=1`).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use serde_json::{Value, json};

/// A typed request body from JSON, as the API reads it.
fn body<T: deskmate_service::body::Body>(json: serde_json::Value) -> T {
    T::read(&json).unwrap_or_else(|e| panic!("{e:?}"))
}

fn data_dir() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let datasets = dir.path().join("datasets");
    std::fs::create_dir_all(&datasets).unwrap_or_else(|e| panic!("{e}"));
    let adsl = Path::new(
        &std::env::var("CARGO_MANIFEST_DIR")
            .unwrap_or_else(|_| env!("CARGO_MANIFEST_DIR").to_string()),
    )
    .join("../../testdata/cdisc/adsl.csv");
    std::fs::copy(adsl, datasets.join("adsl.csv")).unwrap_or_else(|e| panic!("{e}"));
    dir
}

fn deskmate(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_deskmate"))
        .arg("--data-dir")
        .arg(dir)
        .args(args)
        .env_remove("DESKMATE_DATA_DIR")
        // Hermetic: never the local model servers of this machine.
        .env("DESKMATE_LOCAL", "off")
        .output()
        .unwrap_or_else(|e| panic!("run deskmate: {e}"))
}

fn json_out(output: &Output) -> Value {
    serde_json::from_slice(&output.stdout).unwrap_or_else(|e| {
        panic!(
            "stdout is not one JSON value ({e}): {}",
            String::from_utf8_lossy(&output.stdout)
        )
    })
}

#[test]
fn tools_prints_every_spec_and_matches_the_golden_file() {
    let dir = data_dir();
    let output = deskmate(dir.path(), &["tools"]);
    assert_eq!(output.status.code(), Some(0));
    let specs = json_out(&output);
    let ids: Vec<&str> = specs
        .as_array()
        .map(|a| a.iter().filter_map(|s| s["id"].as_str()).collect())
        .unwrap_or_default();
    assert_eq!(
        ids,
        [
            "calculator",
            "code_interpreter",
            "current_time",
            "describe_dataset",
            "summarize_by_group",
            "frequency",
            "run_qc_checks",
            "sas_round_rate",
            "append_audit",
            "knowledge",
            "schedule",
            "list_schedules",
            "cancel_schedule",
            "turn_on_camera",
            "turn_off_camera",
            "camera_status",
            "increase_volume",
            "decrease_volume",
            "get_volume",
            "voice_msg_prompt",
            "text_msg_prompt",
            "text_choice_prompt",
            "voice_choice_prompt",
            "conversation_history",
            "search",
            "weather",
            "translate"
        ]
    );
    let golden: PathBuf = Path::new(
        &std::env::var("CARGO_MANIFEST_DIR")
            .unwrap_or_else(|_| env!("CARGO_MANIFEST_DIR").to_string()),
    )
    .join("tests/golden/tools.json");
    let text = serde_json::to_string_pretty(&specs).unwrap_or_default() + "\n";
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::write(&golden, &text).unwrap_or_else(|e| panic!("{e}"));
    }
    let want = std::fs::read_to_string(&golden).unwrap_or_default();
    assert!(
        want == text,
        "tool specs changed; review and regenerate with UPDATE_GOLDEN=1 cargo test -p deskmate-cli"
    );
    // Every tool's parameters can be decoded under the compact grammar, so a llama.cpp
    // model never falls back to the whitespace-tolerant JSON Schema constraint.
    for spec in specs.as_array().into_iter().flatten() {
        let tool = deskmate_llm::wire::ToolDef::function(
            spec["id"].as_str().unwrap_or_default(),
            "",
            spec["parameters"].clone(),
        );
        assert!(
            deskmate_llm::envelope::grammar(std::slice::from_ref(&tool)).is_some(),
            "{}",
            spec["id"]
        );
    }
}

#[test]
fn code_interpreter_runs_python_in_the_sandbox() {
    let dir = data_dir();
    let ok = deskmate(
        dir.path(),
        &[
            "call",
            "code_interpreter",
            r#"{"code": "import statistics\nprint('hi')\nstatistics.median([3, 1, 2])"}"#,
        ],
    );
    let result = json_out(&ok);
    assert_eq!(ok.status.code(), Some(0), "{result}");
    assert_eq!(result["data"]["stdout"], "hi\n");
    assert_eq!(result["data"]["result"], "2");
    assert_eq!(result["data"]["exit_code"], 0);
    let protections: Vec<&str> = result["data"]["protections"]
        .as_array()
        .map(|a| a.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    for needed in ["landlock_filesystem", "seccomp_filter", "resource_limits"] {
        assert!(protections.contains(&needed), "{protections:?}");
    }
    // The default wall-clock limit was filled in, and said so.
    assert_eq!(result["repairs"][0]["rule"], "default_value", "{result}");

    // The app's own token, right next to the database, is out of reach.
    std::fs::write(dir.path().join("api-token"), "t0ken").unwrap_or_else(|e| panic!("{e}"));
    let code = format!(
        "try:\n    open({:?}).read()\n    r = 'leaked'\nexcept PermissionError:\n    r = 'refused'\nr",
        dir.path().join("api-token").display().to_string()
    );
    let args = json!({ "code": code }).to_string();
    let refused = json_out(&deskmate(dir.path(), &["call", "code_interpreter", &args]));
    assert_eq!(refused["data"]["result"], "'refused'", "{refused}");

    let slow = deskmate(
        dir.path(),
        &[
            "call",
            "code_interpreter",
            r#"{"code": "import time\ntime.sleep(30)", "timeout_s": 1}"#,
        ],
    );
    assert_eq!(slow.status.code(), Some(1));
    let slow = json_out(&slow);
    assert_eq!(slow["error_type"], "timeout", "{slow}");
    assert!(
        slow["hint"]
            .as_str()
            .is_some_and(|h| h.contains("timeout_s"))
    );

    let empty = json_out(&deskmate(
        dir.path(),
        &["call", "code_interpreter", r#"{"code": ""}"#],
    ));
    assert_eq!(empty["error_type"], "validation", "{empty}");
}

/// On a kernel without Landlock (simulated by a seccomp filter that answers ENOSYS to its
/// system calls) the code interpreter refuses, naming the protection; once the user allows
/// a weaker mode, it runs and every result says what is missing.
#[cfg(target_arch = "x86_64")]
#[test]
fn code_interpreter_fails_closed_until_weaker_mode_is_allowed() {
    let dir = data_dir();
    let exe = Path::new(env!("CARGO_BIN_EXE_deskmate"));
    let helper = exe.with_file_name("deskmate-sandbox");
    let filter = Path::new(
        &std::env::var("CARGO_MANIFEST_DIR")
            .unwrap_or_else(|_| env!("CARGO_MANIFEST_DIR").to_string()),
    )
    .join("../../testdata/sandbox/no_landlock.py");
    let wrapper = dir.path().join("no-landlock");
    std::fs::write(
        &wrapper,
        format!(
            "#!/bin/sh\nexec /usr/bin/python3 '{}' '{}' \"$@\"\n",
            filter.display(),
            helper.display()
        ),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&wrapper, std::fs::Permissions::from_mode(0o755))
            .unwrap_or_else(|e| panic!("{e}"));
    }
    let call = || {
        Command::new(exe)
            .arg("--data-dir")
            .arg(dir.path())
            .args(["call", "code_interpreter", r#"{"code": "6 * 7"}"#])
            .env_remove("DESKMATE_DATA_DIR")
            .env("DESKMATE_SANDBOX_HELPER", &wrapper)
            .output()
            .unwrap_or_else(|e| panic!("{e}"))
    };
    let refused = call();
    assert_eq!(refused.status.code(), Some(1));
    let refused = json_out(&refused);
    assert_eq!(refused["error_type"], "permission", "{refused}");
    assert_eq!(refused["options"], json!(["filesystem"]));
    assert!(
        refused["hint"]
            .as_str()
            .is_some_and(|h| h.contains("sandbox.allow_weaker"))
    );

    let set = deskmate(dir.path(), &["settings", "sandbox.allow_weaker", "true"]);
    assert_eq!(set.status.code(), Some(0));
    let weaker = call();
    assert_eq!(weaker.status.code(), Some(0));
    let weaker = json_out(&weaker);
    assert_eq!(weaker["data"]["result"], "42");
    assert_eq!(
        weaker["data"]["weaker"][0]["protection"], "filesystem",
        "{weaker}"
    );
    assert!(weaker["data"]["warning"].as_str().is_some());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn chat_runs_one_turn_against_the_configured_model() {
    use deskmate_testkit::{Script, ScriptedServer, completion};
    let dir = data_dir();
    let none = deskmate(dir.path(), &["chat", "hello"]);
    assert_eq!(none.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&none.stderr).contains("no LLM model is configured"));

    let server = ScriptedServer::start(&["scripted"]).await;
    server
        .push(Script::Json(completion(
            None,
            &[("calculator", r#"{"expression": "6*7"}"#)],
        )))
        .push(Script::Json(completion(Some("6*7 is 42."), &[])));
    deskmate_service::Deskmate::open(dir.path())
        .and_then(|d| {
            d.create_model::<deskmate_service::models::LlmModel>(body(
                json!({"name": "S", "base_url": server.base_url(),
                                       "model": "scripted", "streaming": false}),
            ))
            .map_err(|e| panic!("{e}"))
        })
        .unwrap_or_else(|e| panic!("{e}"));
    let path = dir.path().to_path_buf();
    let output = tokio::task::spawn_blocking(move || deskmate(&path, &["chat", "what is 6*7?"]))
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert_eq!(String::from_utf8_lossy(&output.stdout), "6*7 is 42.\n");
    assert_eq!(
        server.requests().len(),
        2,
        "the model is asked after the result"
    );
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("[tool] calculator") && stderr.contains("[result] calculator done"),
        "{stderr}"
    );
}

#[test]
fn autotest_prints_its_result_and_exits_by_outcome() {
    let dir = data_dir();
    let tools_only = deskmate(
        dir.path(),
        &["autotest", "--no-llm", "--no-asr", "--no-devices", "--json"],
    );
    assert_eq!(tools_only.status.code(), Some(0));
    let result = json_out(&tools_only);
    for key in ["id", "started_at", "duration_ms", "tests", "summary"] {
        assert!(result.get(key).is_some(), "missing {key}: {result}");
    }
    assert_eq!(result["summary"]["failed"], 0);
    assert!(result["tests"].as_array().is_some_and(|t| t.len() >= 10));
    let code = result["tests"]
        .as_array()
        .and_then(|t| t.iter().find(|c| c["name"] == "Tool: code_interpreter"))
        .cloned()
        .unwrap_or_default();
    assert_eq!(code["status"], "passed", "{code}");

    // The sandbox helper removed: the code interpreter's check runs `1+1`, fails, and
    // says what is missing.
    let broken = Command::new(env!("CARGO_BIN_EXE_deskmate"))
        .arg("--data-dir")
        .arg(dir.path())
        .args(["autotest", "--no-llm", "--no-asr", "--no-devices"])
        .env("DESKMATE_LOCAL", "off")
        .env("DESKMATE_SANDBOX_HELPER", dir.path().join("removed-helper"))
        .output()
        .unwrap_or_else(|e| panic!("run deskmate: {e}"));
    assert_eq!(broken.status.code(), Some(1));
    let text = String::from_utf8_lossy(&broken.stdout);
    let line = text
        .lines()
        .find(|l| l.contains("Tool: code_interpreter"))
        .unwrap_or_default();
    assert!(
        line.starts_with("FAIL")
            && line.contains("{\"code\":\"1+1\"}")
            && line.contains("sandbox helper"),
        "{text}"
    );

    // No model configured: the model checks fail, saying how to add one.
    let full = deskmate(dir.path(), &["autotest"]);
    assert_eq!(full.status.code(), Some(1));
    let text = String::from_utf8_lossy(&full.stdout);
    assert!(
        text.contains("FAIL Model Existence") && text.contains("no LLM model is configured"),
        "{text}"
    );
}

#[test]
fn settings_are_shown_and_set_with_their_types_checked() {
    let dir = data_dir();
    let all = deskmate(dir.path(), &["settings"]);
    assert_eq!(all.status.code(), Some(0));
    assert_eq!(json_out(&all)[0]["key"], "sandbox.allow_weaker");
    let unknown = deskmate(dir.path(), &["settings", "no.such.key"]);
    assert_eq!(unknown.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&unknown.stderr).contains("sandbox.allow_weaker"));
    let wrong = deskmate(dir.path(), &["settings", "sandbox.allow_weaker", "maybe"]);
    assert_eq!(wrong.status.code(), Some(2));
    let set = deskmate(dir.path(), &["settings", "sandbox.allow_weaker", "true"]);
    assert_eq!(set.status.code(), Some(0));
    let one = json_out(&deskmate(dir.path(), &["settings", "sandbox.allow_weaker"]));
    assert_eq!(one["value"], true);
    assert_eq!(one["is_set"], true);
}

#[test]
fn call_prints_one_result_and_exits_by_outcome() {
    let dir = data_dir();
    let ok = deskmate(
        dir.path(),
        &["call", "calculator", r#"{"expression": "17% of 2,340"}"#],
    );
    assert_eq!(ok.status.code(), Some(0));
    let result = json_out(&ok);
    assert_eq!(result["ok"], true);
    assert_eq!(result["data"]["result"], json!(397.8));
    for key in [
        "ok",
        "data",
        "error",
        "error_type",
        "hint",
        "options",
        "repairs",
        "truncated",
        "call_id",
        "duration_ms",
    ] {
        assert!(result.get(key).is_some(), "missing {key}");
    }

    let bad = deskmate(
        dir.path(),
        &["call", "calculator", r#"{"expression": "1/0"}"#],
    );
    assert_eq!(bad.status.code(), Some(1));
    assert_eq!(json_out(&bad)["error_type"], "validation");

    let unknown = deskmate(dir.path(), &["call", "set_volume", "{}"]);
    assert_eq!(unknown.status.code(), Some(1));
    assert_eq!(json_out(&unknown)["error_type"], "not_found");

    let broken = deskmate(dir.path(), &["call", "calculator", "{expression: 1"]);
    assert_eq!(broken.status.code(), Some(1));
    assert_eq!(json_out(&broken)["error_type"], "validation");

    let usage = deskmate(dir.path(), &["call"]);
    assert_eq!(usage.status.code(), Some(2));
    assert!(usage.stdout.is_empty());
    let usage = deskmate(dir.path(), &["frobnicate"]);
    assert_eq!(usage.status.code(), Some(2));
}

#[test]
fn cdisc_calls_from_the_command_line() {
    let dir = data_dir();
    let out = deskmate(
        dir.path(),
        &["call", "describe_dataset", r#"{"dataset": "ADSL.csv"}"#],
    );
    let result = json_out(&out);
    assert_eq!(result["data"]["rows"], 254);
    // 49 ADSL variables plus the unnamed row-number column R wrote first.
    assert_eq!(result["data"]["columns"], 50);
    let out = deskmate(
        dir.path(),
        &[
            "call",
            "describe_dataset",
            r#"{"dataset": "../etc/passwd"}"#,
        ],
    );
    assert_eq!(out.status.code(), Some(1));
    let out = deskmate(
        dir.path(),
        &["call", "sas_round_rate", r#"{"value": 2.5, "decimals": 0}"#],
    );
    assert_eq!(json_out(&out)["data"]["text"], "3");
}

#[test]
fn env_var_selects_the_data_dir_and_stdin_carries_arguments() {
    let dir = data_dir();
    let mut child = Command::new(env!("CARGO_BIN_EXE_deskmate"))
        .args(["call", "frequency", "-"])
        .env("DESKMATE_DATA_DIR", dir.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("{e}"));
    child
        .stdin
        .take()
        .map(|mut stdin| stdin.write_all(br#"{"dataset": "adsl", "variable": "SEX"}"#))
        .transpose()
        .unwrap_or_else(|e| panic!("{e}"));
    let output = child.wait_with_output().unwrap_or_else(|e| panic!("{e}"));
    let result = json_out(&output);
    assert_eq!(result["data"]["total"], 254, "{result}");
}

#[test]
fn data_dir_reports_the_flag_then_the_env_var() {
    let dir = data_dir();
    let out = deskmate(dir.path(), &["data-dir"]);
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim(),
        dir.path().to_string_lossy()
    );
    let out = Command::new(env!("CARGO_BIN_EXE_deskmate"))
        .arg("data-dir")
        .env("DESKMATE_DATA_DIR", "/nonexistent/deskmate-env")
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim(),
        "/nonexistent/deskmate-env"
    );
}

/// `deskmate eval` on a model registered in the data dir, against a scripted server: the
/// report as JSON on stdout, one progress line per case on stderr, the report stored; a
/// bad suite line and an unknown model are clear errors.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn eval_prints_and_stores_a_report() {
    let dir = data_dir();
    let server = deskmate_testkit::ScriptedServer::start(&["scripted"]).await;
    server
        .push(deskmate_testkit::Script::Json(
            deskmate_testkit::completion(None, &[("increase_volume", r#"{"step": "30%"}"#)]),
        ))
        .push(deskmate_testkit::Script::Json(
            deskmate_testkit::completion(Some("Done."), &[]),
        ));
    let service = deskmate_service::Deskmate::open(dir.path()).unwrap_or_else(|e| panic!("{e}"));
    let model = service
        .create_model::<deskmate_service::models::LlmModel>(body(
            json!({"name": "S", "base_url": server.base_url(),
                                  "model": "scripted", "streaming": false}),
        ))
        .unwrap_or_else(|e| panic!("{e}"));
    drop(service);
    let model_id = model.id;
    let suite = dir.path().join("suite.jsonl");
    std::fs::write(
        &suite,
        json!({"id": "up", "category": "malformed", "lang": "en",
               "messages": [{"role": "user", "content": "volume up 30%"}],
               "tools": ["increase_volume", "decrease_volume"],
               "expect": [{"tool": "increase_volume", "args": {"step": [30]}}]})
        .to_string(),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let path = dir.path().to_path_buf();
    let (suite_arg, model_arg) = (suite.display().to_string(), model_id.clone());
    let output = tokio::task::spawn_blocking(move || {
        deskmate(
            &path,
            &[
                "eval", "--model", &model_arg, "--suite", &suite_arg, "--json",
            ],
        )
    })
    .await
    .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let report = json_out(&output);
    assert_eq!(report["suite"], "suite.jsonl");
    assert_eq!(report["results"][0]["passed"], true, "{report}");
    assert_eq!(
        report["results"][0]["passed_raw"], false,
        "\"30%\" needed the guard"
    );
    assert_eq!(report["metrics"]["guard_lift_points"], json!(100.0));
    assert!(String::from_utf8_lossy(&output.stderr).contains("[1/1] PASS up"));
    let store = deskmate_store::Store::open(&dir.path().join("deskmate.db"))
        .unwrap_or_else(|e| panic!("{e}"));
    let (total, _) = store
        .list_eval_runs(1, 10)
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(total, 1);

    std::fs::write(&suite, "{\"id\": 1}\n").unwrap_or_else(|e| panic!("{e}"));
    let path = dir.path().to_path_buf();
    let (suite_arg, model_arg) = (suite.display().to_string(), model_id.clone());
    let bad = tokio::task::spawn_blocking(move || {
        deskmate(
            &path,
            &["eval", "--model", &model_arg, "--suite", &suite_arg],
        )
    })
    .await
    .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(bad.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&bad.stderr).contains("suite line 1"),
        "{}",
        String::from_utf8_lossy(&bad.stderr)
    );
    let path = dir.path().to_path_buf();
    let unknown =
        tokio::task::spawn_blocking(move || deskmate(&path, &["eval", "--model", "nope"]))
            .await
            .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(unknown.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&unknown.stderr).contains("not found"));
}

/// `schedules add` reads the time as said and echoes the rule; a time it cannot read is
/// exit 2 naming the field; `rm` deletes; `list` lists the next first.
#[test]
fn schedules_add_list_and_rm() {
    let dir = data_dir();
    let added = deskmate(
        dir.path(),
        &[
            "schedules",
            "add",
            "every weekday at 9",
            "--message",
            "stand-up",
            "--time-zone",
            "Europe/Berlin",
        ],
    );
    assert!(added.status.success(), "{added:?}");
    let line = String::from_utf8_lossy(&added.stdout).to_string();
    assert!(
        line.contains("weekdays at 09:00") && line.contains("remind: stand-up"),
        "{line}"
    );
    let id = line.split(' ').next().unwrap_or_default().to_string();
    assert!(id.starts_with("sch-"), "{line}");

    let bad = deskmate(
        dir.path(),
        &["schedules", "add", "whenever you like", "--message", "x"],
    );
    assert_eq!(bad.status.code(), Some(2), "{bad:?}");
    assert!(
        String::from_utf8_lossy(&bad.stderr).contains("/when"),
        "{bad:?}"
    );

    let listed = deskmate(dir.path(), &["schedules", "list", "--json"]);
    let listed = json_out(&listed);
    assert_eq!(listed["total"], 1, "{listed}");
    assert_eq!(listed["list"][0]["created_by"], "cli");
    assert_eq!(listed["list"][0]["rule_words"]["zh"], "每个工作日 09:00");

    let removed = deskmate(dir.path(), &["schedules", "rm", &id]);
    assert!(removed.status.success(), "{removed:?}");
    let gone = deskmate(dir.path(), &["schedules", "rm", &id]);
    assert_eq!(gone.status.code(), Some(1), "{gone:?}");
    let empty = deskmate(dir.path(), &["schedules"]);
    assert_eq!(
        String::from_utf8_lossy(&empty.stdout).trim(),
        "no schedules"
    );
}
