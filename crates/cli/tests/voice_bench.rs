//! Voice mode's figures with the local models (ignored in the test run;
//! `scripts/voice-bench.sh` runs it): `deskmate listen` on a PulseAudio server started
//! here, with the local LLM and whisper servers scripts/setup-models.sh installed. It
//! prints the CPU `deskmate listen` and its model servers use while waiting in a quiet
//! room and while someone talks nearby without the wake phrase, and the time from the end
//! of the person's speech to the first sound of the reply, for a request with no tool and
//! one with one tool (medians of five each).

mod common;

use std::process::Command;
use std::time::{Duration, Instant};

use common::voice::{Feeder, Listening, Recorder, loud_windows, spoken};
use deskmate_devices::speaker::Language;
use deskmate_testkit::pulse::PulseServer;

/// CPU ticks (user + system) of a process and all its descendants.
fn tree_ticks(pid: u32) -> u64 {
    let mut total = 0;
    let mut stack = vec![pid];
    while let Some(p) = stack.pop() {
        if let Ok(stat) = std::fs::read_to_string(format!("/proc/{p}/stat")) {
            // After the command's closing parenthesis: state, ppid, …; utime and stime are
            // fields 14 and 15 of the whole line.
            let after = stat.rsplit_once(')').map_or("", |(_, a)| a);
            let fields: Vec<&str> = after.split_whitespace().collect();
            let ticks = |i: usize| {
                fields
                    .get(i)
                    .and_then(|f| f.parse::<u64>().ok())
                    .unwrap_or(0)
            };
            total += ticks(11) + ticks(12);
        }
        if let Ok(children) = std::fs::read_to_string(format!("/proc/{p}/task/{p}/children")) {
            stack.extend(
                children
                    .split_whitespace()
                    .filter_map(|c| c.parse::<u32>().ok()),
            );
        }
    }
    total
}

fn clock_ticks() -> f64 {
    Command::new("getconf")
        .arg("CLK_TCK")
        .output()
        .ok()
        .and_then(|o| String::from_utf8_lossy(&o.stdout).trim().parse().ok())
        .unwrap_or(100.0)
}

/// The share of one core used over `during` while `busy` runs.
fn cpu_share(pid: u32, during: Duration, busy: impl FnOnce()) -> f64 {
    let before = tree_ticks(pid);
    let started = Instant::now();
    busy();
    let left = during.saturating_sub(started.elapsed());
    std::thread::sleep(left);
    let used = (tree_ticks(pid) - before) as f64 / clock_ticks();
    100.0 * used / started.elapsed().as_secs_f64()
}

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

#[test]
#[ignore = "a benchmark: scripts/voice-bench.sh"]
fn voice_mode_latency_and_cpu() {
    let pulse = PulseServer::start();
    pulse.add_microphone();
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let data = dir.path().join("data");
    // Each request on its own: no follow-up window.
    let deskmate = deskmate_service::Deskmate::open(&data).unwrap_or_else(|e| panic!("{e}"));
    deskmate
        .set_setting("voice.follow_up_seconds", serde_json::json!(0))
        .unwrap_or_else(|e| panic!("{e}"));
    drop(deskmate);
    let mut listening = Listening::start_with(&data, &pulse, "auto");
    listening.wait_for(Duration::from_secs(300), |l| l == "[waiting]");
    let pid = listening.child.id();
    let feeder = Feeder::start(&pulse);
    std::thread::sleep(Duration::from_secs(5));

    let quiet = cpu_share(pid, Duration::from_secs(30), || {});
    let talk: Vec<_> = [
        "The train was late again this morning, so I walked the last part of the way.",
        "We had soup for lunch and the bread was still warm from the oven.",
        "Can you send me the slides before the meeting starts on Thursday?",
        "My sister moved to a small town near the coast last spring.",
        "The report needs two more tables and a short summary at the end.",
        "Our team meets every Monday to plan the week ahead.",
    ]
    .iter()
    .enumerate()
    .map(|(i, s)| spoken(dir.path(), &format!("talk-{i}"), s, Language::En, 150))
    .collect();
    let talking = cpu_share(pid, Duration::from_secs(30), || {
        for wav in &talk {
            feeder.say(wav);
        }
    });
    listening.drain(Duration::from_secs(3));

    let mut lines = vec![
        format!("cpu waiting, quiet room: {quiet:.1} % of one core"),
        format!("cpu waiting, speech without the phrase: {talking:.1} % of one core"),
    ];
    eprintln!("{}", lines.join("\n"));
    for (kind, request) in [
        ("no tool", "Deskmate, tell me a short joke."),
        ("one tool", "Deskmate, what time is it?"),
    ] {
        let ask = spoken(dir.path(), kind, request, Language::En, 150);
        let mut took = Vec::new();
        for _ in 0..5 {
            let recorder = Recorder::start(&pulse);
            std::thread::sleep(Duration::from_millis(200));
            feeder.say(&ask);
            let ended = Instant::now();
            listening.wait_for(Duration::from_secs(120), |l| l.starts_with("[request]"));
            listening.wait_for(Duration::from_secs(120), |l| l.starts_with("[reply"));
            listening.wait_for(Duration::from_secs(120), |l| l == "[waiting]");
            let (started, samples) = recorder.stop();
            let from = (ended.saturating_duration_since(started).as_millis() / 10) as usize;
            let first = loud_windows(&samples)
                .iter()
                .skip(from)
                .position(|l| *l)
                .unwrap_or_else(|| panic!("no reply was heard for {request}"));
            took.push(first as f64 * 10.0);
            eprintln!("{kind}: {} ms", first * 10);
        }
        lines.push(format!(
            "end of speech → first audio, {kind}: median {:.0} ms ({took:?})",
            median(took.clone())
        ));
    }
    let _ = listening.stop();
    for line in &lines {
        println!("{line}");
    }
}
