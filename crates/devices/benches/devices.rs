//! Median latency of the system tools on the real devices: a volume change (read the
//! sink, set it, read it back) and a text prompt shown (the notification server accepted
//! it). Run by `scripts/bench-devices.sh`, which starts PulseAudio with a null sink and a
//! desktop session (D-Bus, Xvfb, dunst) and exports PULSE_SERVER and
//! DBUS_SESSION_BUS_ADDRESS. Prints JSON.

use std::sync::Arc;
use std::time::Instant;

use deskmate_devices::Backends;
use deskmate_tools::{Tool, ToolContext};
use serde_json::json;

const ROUNDS: usize = 50;

fn percentile(sorted: &[f64], p: f64) -> f64 {
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

fn main() {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("runtime");
    let backends = Backends::system();
    let tools: Vec<Arc<dyn Tool>> = deskmate_devices::system_tools(&backends);
    let find = |id: &str| {
        tools
            .iter()
            .find(|t| t.spec().id == id)
            .cloned()
            .unwrap_or_else(|| panic!("{id}"))
    };
    let (up, down, message) = (
        find("increase_volume"),
        find("decrease_volume"),
        find("text_msg_prompt"),
    );
    backends
        .mixer
        .set_volume(50)
        .expect("a PulseAudio server (run scripts/bench-devices.sh)");
    let mut report = serde_json::Map::new();
    for (name, work) in [
        (
            "volume_change_ms",
            vec![
                (up.clone(), json!({"step": 5})),
                (down.clone(), json!({"step": 5})),
            ],
        ),
        (
            "text_prompt_shown_ms",
            vec![(
                message.clone(),
                json!({"message": "benchmark", "urgency": "low"}),
            )],
        ),
    ] {
        let mut times = Vec::new();
        for round in 0..ROUNDS {
            let (tool, args) = &work[round % work.len()];
            let started = Instant::now();
            runtime
                .block_on(tool.run(args.clone(), ToolContext::new("bench")))
                .unwrap_or_else(|e| panic!("{name}: {e}"));
            times.push(started.elapsed().as_secs_f64() * 1000.0);
        }
        times.sort_by(f64::total_cmp);
        report.insert(
            name.into(),
            json!({"median": percentile(&times, 0.5), "p95": percentile(&times, 0.95), "rounds": ROUNDS}),
        );
    }
    println!("{}", serde_json::Value::Object(report));
}
