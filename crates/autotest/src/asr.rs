//! ASR checks: Model Existence, Hotwords Config, API Availability (a phrase spoken by
//! espeak-ng, transcribed, its words compared), Language Config.

use std::time::Instant;

use deskmate_llm::{AsrClient, AsrRequest, Endpoint};
use deskmate_service::Deskmate;
use deskmate_service::models::valid_language;

use deskmate_core::{Localized, said};

use crate::llm::explain;
use crate::{Group, Limits, not_run};

/// The ASR checks, in the order a run lists them.
pub(crate) const CHECKS: [&str; 4] = [
    "Model Existence",
    "Hotwords Config",
    "API Availability",
    "Language Config",
];

/// What espeak-ng says for the availability check.
pub const PHRASE: &str = "turn the volume up";

/// Speaks `phrase` into a WAV file with espeak-ng and returns its bytes.
pub async fn speak(phrase: &str) -> Result<Vec<u8>, String> {
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    let wav = dir.path().join("phrase.wav");
    let output = tokio::process::Command::new("espeak-ng")
        .args(["-v", "en-us", "-s", "140", "-w"])
        .arg(&wav)
        .arg(phrase)
        .output()
        .await
        .map_err(|e| format!("cannot run espeak-ng ({e}): install the espeak-ng package"))?;
    if !output.status.success() {
        return Err(format!(
            "espeak-ng failed: {}",
            String::from_utf8_lossy(&output.stderr).trim()
        ));
    }
    std::fs::read(&wav).map_err(|e| e.to_string())
}

fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

/// How many of the expected words were heard.
pub fn words_heard(expected: &str, heard: &str) -> (usize, usize) {
    let heard = words(heard);
    let expected = words(expected);
    let found = expected.iter().filter(|w| heard.contains(w)).count();
    (found, expected.len())
}

pub(crate) async fn check(
    deskmate: &Deskmate,
    model_id: Option<&str>,
    limits: Limits,
    checks: &Group<'_, '_>,
) {
    let found = deskmate.model_record::<deskmate_service::models::AsrModel>(model_id);
    let Some(model) = checks.existence("ASR", model_id, found, |m| m.name.clone()) else {
        return;
    };

    let started = Instant::now();
    let bad: Vec<&String> = model
        .hotwords
        .iter()
        .filter(|w| w.trim().is_empty() || w.chars().count() > 64)
        .collect();
    let count = model.hotwords.len();
    let hotwords = if count > 100 {
        Err(said!(
            "{count} 个热词：最多发送 100 个",
            "{count} hotwords: at most 100 are sent"
        ))
    } else if !bad.is_empty() {
        Err(said!(
            "每个热词须为 1–64 个字符：{bad:?}",
            "hotwords must have 1–64 characters: {bad:?}"
        ))
    } else if model.hotwords.is_empty() {
        Ok(said!("热词：未配置", "Hotwords: none configured"))
    } else {
        Ok(said!("热词：{count} 个", "Hotwords: {count} words"))
    };
    checks.record("Hotwords Config", started, hotwords);

    deskmate
        .wait_managed(
            &model.id,
            model.managed.as_deref(),
            deskmate_service::MANAGED_START_WAIT,
        )
        .await;
    let base = deskmate.base_url_for(&model.id, &model.base_url, model.managed.as_deref());
    let client = Endpoint::new(&base, deskmate.model_api_key(model.api_key_ref.as_deref()))
        .map(|e| e.with_timeouts(limits.connect, limits.response, limits.response))
        .and_then(AsrClient::new)
        .map_err(|e| explain(&e));

    let started = Instant::now();
    let audio = speak(PHRASE)
        .await
        .map_err(|e| said!("无法用 espeak-ng 生成测试语音：{e}", "{e}"));
    // Both transcriptions of the phrase run at the same time; the language check counts
    // only when the server could transcribe at all.
    let availability = async {
        let outcome = match (&client, &audio) {
            (Err(why), _) | (_, Err(why)) => Err(why.clone()),
            (Ok(client), Ok(audio)) => {
                let request = AsrRequest {
                    model: model.model.clone(),
                    language: Some("en".into()),
                    hotwords: model.hotwords.clone(),
                };
                match client
                    .transcribe(&request, audio.clone(), "phrase.wav")
                    .await
                {
                    Ok(heard) => {
                        let (found, total) = words_heard(PHRASE, &heard.text);
                        let (status, text) = (heard.status, &heard.text);
                        if found * 4 >= total * 3 {
                            Ok(said!(
                                "状态 {status}，听到“{text}”（{found}/{total} 个词）",
                                "Status: {status}, heard \"{text}\" ({found}/{total} words)"
                            ))
                        } else {
                            Err(said!(
                                "服务器有应答，但把“{PHRASE}”听成了“{text}”（{found}/{total} 个词）：请检查模型",
                                "the server answered but heard \"{text}\" for \"{PHRASE}\" ({found}/{total} words): check the model"
                            ))
                        }
                    }
                    Err(e) => Err(explain(&e)),
                }
            }
        };
        (outcome, started.elapsed())
    };
    let language = async {
        let started = Instant::now();
        let outcome = match model.language.as_deref() {
            None => Ok(said!("语言：自动检测", "Language: auto-detect")),
            Some(code) if !valid_language(code) => Err(said!(
                "“{code}”不是 Whisper 认识的语言代码",
                "'{code}' is not a language code Whisper knows"
            )),
            Some(code) => match (&client, &audio) {
                (Ok(client), Ok(audio)) => {
                    let request = AsrRequest {
                        model: model.model.clone(),
                        language: Some(code.to_string()),
                        hotwords: Vec::new(),
                    };
                    match client
                        .transcribe(&request, audio.clone(), "phrase.wav")
                        .await
                    {
                        Ok(_) => Ok(said!("语言：{code}", "Language: {code}")),
                        Err(e) => {
                            let why = explain(&e);
                            Err(Localized::new(
                                format!("服务器拒绝了语言“{code}”：{}", why.zh),
                                format!("the server refused language '{code}': {}", why.en),
                            ))
                        }
                    }
                }
                _ => Err(not_run("API Availability")),
            },
        };
        (outcome, started)
    };
    let ((availability, took), (language, language_started)) = tokio::join!(availability, language);
    let available = checks.record_took("API Availability", took, availability);
    // Whether another language is accepted is unknown when nothing was transcribed.
    let language = match model.language.as_deref() {
        Some(code) if valid_language(code) && !available => Err(not_run("API Availability")),
        _ => language,
    };
    checks.record("Language Config", language_started, language);
}
