//! The wake phrase's figures (ignored in the test run; `scripts/wake-bench.sh` runs it and
//! prints a line for docs/BENCHMARKS.md): utterances that start with the phrase, made by
//! espeak-ng in several voices and rates with a little noise mixed in, transcribed by the
//! local whisper server as voice mode does (no language given, the phrases as hints) and
//! read by `wake::WakePhrases`: the share woken, per language; and ordinary sentences with
//! no phrase in them, about ten minutes of speech: how many wake it.

mod common;

use std::process::Command;
use std::time::Instant;

use deskmate_devices::mandarin::{Voice, runs};
use deskmate_devices::microphone::wav_bytes;
use deskmate_devices::speaker::{Wav, parse_wav};
use deskmate_devices::wake::WakePhrases;
use deskmate_llm::{AsrClient, AsrRequest};

/// espeak-ng saying `text` with `voice` (a voice and variant, `en-us+f3`) at `rate`.
fn espeak(voice: &str, rate: u32, text: &str) -> Wav {
    let output = Command::new("espeak-ng")
        .args(["-v", voice, "-s", &rate.to_string(), "--stdout", "--", text])
        .output()
        .unwrap_or_else(|e| panic!("espeak-ng: {e}"));
    parse_wav(&output.stdout).unwrap_or_else(|| panic!("espeak-ng wrote no WAV"))
}

/// Chinese as voice mode's speaker says it (pinyin runs, Latin words in English), with a
/// voice variant.
fn mandarin(variant: &str, rate: u32, text: &str) -> Wav {
    let mut all: Option<Wav> = None;
    for run in runs(text) {
        let voice = match run.voice {
            Voice::Pinyin => format!("cmn-latn-pinyin{variant}"),
            Voice::English => format!("en-us{variant}"),
        };
        let wav = espeak(&voice, rate, &run.text);
        match &mut all {
            None => all = Some(wav),
            Some(a) => a.samples.extend(wav.samples),
        }
    }
    all.unwrap_or_else(|| panic!("nothing to say in {text}"))
}

/// White noise at about -40 dBFS mixed in (a quiet room with a fan), from a fixed seed,
/// after 300 ms of the room: voice mode's utterances start that long before the speech.
fn with_noise(mut wav: Wav, seed: u64) -> Wav {
    let lead = vec![0i16; wav.rate as usize * 3 / 10];
    wav.samples.splice(0..0, lead);
    let mut state = seed.wrapping_mul(6364136223846793005).wrapping_add(1);
    for s in &mut wav.samples {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let noise = ((state >> 33) as i64 % 660) - 330;
        *s = (i64::from(*s) + noise).clamp(i64::from(i16::MIN), i64::from(i16::MAX)) as i16;
    }
    wav
}

const EN_REQUESTS: [&str; 10] = [
    "what time is it",
    "turn the volume down a little",
    "is the camera on",
    "remind me to call Anna at five",
    "how much is 12 percent of 300",
    "read the last message aloud",
    "open the camera please",
    "what day is it today",
    "make it quieter",
    "summarize the dataset",
];

const ZH_REQUESTS: [&str; 10] = [
    "现在几点了",
    "把声音调小一点",
    "摄像头开着吗",
    "五点提醒我给小王打电话",
    "三百的百分之十二是多少",
    "把最后一条消息读出来",
    "请打开摄像头",
    "今天星期几",
    "安静一点",
    "总结一下这个数据集",
];

/// Ordinary speech with no wake phrase: sentences about a day, said one by one.
const PLAIN: [&str; 24] = [
    "The train was late again this morning, so I walked the last part of the way.",
    "We had soup for lunch and the bread was still warm from the oven.",
    "Can you send me the slides before the meeting starts on Thursday?",
    "The desk by the window gets the sun in the afternoon.",
    "My sister moved to a small town near the coast last spring.",
    "Please remember to water the plants while I am away.",
    "The report needs two more tables and a short summary at the end.",
    "I think the printer on the second floor is out of paper.",
    "Our team meets every Monday to plan the week ahead.",
    "The museum opens at ten and closes early on Sundays.",
    "He fixed the bicycle chain with an old pair of pliers.",
    "It might rain later, so take an umbrella with you.",
    "今天早上地铁很挤，我差点没赶上。",
    "我们下午三点在会议室讨论新的方案。",
    "楼下新开了一家面馆，味道还不错。",
    "周末我打算去公园跑步，然后去看看父母。",
    "这份报告还差两张表格和一个总结。",
    "窗外的树已经开始变黄了。",
    "他把自行车修好了，又骑去上班了。",
    "记得出门前把灯关掉。",
    "这家书店的咖啡比书还受欢迎。",
    "明天可能会下雨，出门带把伞吧。",
    "我们的项目下个月就要交付了。",
    "她在学做饭，每天晚上都试一道新菜。",
];

async fn heard(client: &AsrClient, model: &str, hints: &[String], wav: &Wav) -> String {
    client
        .transcribe(
            &AsrRequest {
                model: model.to_string(),
                language: None,
                hotwords: hints.to_vec(),
            },
            wav_bytes(wav),
            "utterance.wav",
        )
        .await
        .unwrap_or_else(|e| panic!("{e}"))
        .text
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "a benchmark: scripts/wake-bench.sh"]
async fn wake_phrase_detection_and_false_wakes() {
    let (sidecar, client, model) = common::whisper().await;
    let wake = WakePhrases::parse("Deskmate; 你好桌面助手");
    // As voice mode gives them: the Latin phrases only.
    let hints: Vec<String> = vec!["Deskmate".to_string()];
    let started = Instant::now();
    let mut lines = Vec::new();
    for (language, phrase, requests) in [
        ("en", "Deskmate", EN_REQUESTS),
        ("zh", "你好桌面助手", ZH_REQUESTS),
    ] {
        let (mut woken, mut total) = (0, 0);
        for (i, request) in requests.iter().enumerate() {
            for (j, (variant, rate)) in [("", 140), ("+f3", 160), ("+m3", 120), ("+f2", 180)]
                .iter()
                .enumerate()
            {
                let text = if language == "en" {
                    format!("{phrase}, {request}")
                } else {
                    format!("{phrase}，{request}")
                };
                let wav = if language == "en" {
                    espeak(&format!("en-us{variant}"), *rate, &text)
                } else {
                    mandarin(variant, rate * 3 / 4, &text)
                };
                let wav = with_noise(wav, (i * 4 + j) as u64);
                let said = heard(&client, &model, &hints, &wav).await;
                total += 1;
                if wake.find(&said).is_some() {
                    woken += 1;
                } else {
                    eprintln!("missed ({language}, {variant} {rate}): {text} → {said}");
                }
            }
        }
        lines.push(format!(
            "wake {language}: {woken}/{total} ({:.1} %)",
            100.0 * f64::from(woken) / f64::from(total)
        ));
    }
    let (mut false_wakes, mut speech_ms) = (0, 0u64);
    let rounds: u64 = std::env::var("WAKE_BENCH_ROUNDS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(7)
        .min(7);
    for round in 0..rounds {
        for (i, sentence) in PLAIN.iter().enumerate() {
            let chinese = !sentence.is_ascii();
            let variant = ["", "+f3", "+m3", "+f2", "+m1", "+f4", "+m7"][round as usize];
            let rate = [150, 170, 130, 160, 140, 180, 120][round as usize];
            let wav = if chinese {
                mandarin(variant, rate * 3 / 4, sentence)
            } else {
                espeak(&format!("en-us{variant}"), rate, sentence)
            };
            speech_ms += wav.duration_ms();
            let wav = with_noise(wav, 1000 + round * 100 + i as u64);
            let said = heard(&client, &model, &hints, &wav).await;
            if let Some(woken) = wake.find(&said) {
                false_wakes += 1;
                eprintln!("false wake: {sentence} → {said} ({woken:?})");
            }
        }
    }
    sidecar.stop().await;
    lines.push(format!(
        "false wakes: {false_wakes} in {:.1} min of speech without the phrase",
        speech_ms as f64 / 60_000.0
    ));
    lines.push(format!("took {:.0} s", started.elapsed().as_secs_f64()));
    for line in &lines {
        println!("{line}");
    }
}
