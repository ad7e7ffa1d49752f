//! `deskmate listen`: voice mode headless, until Ctrl-C. The state, what was heard, the
//! turn's calls and the spoken reply are printed as lines on stderr (`--json`: every event
//! as one JSON line on stdout).

use std::io::Write;
use std::process::ExitCode;
use std::sync::Arc;

use deskmate_agent::{Agent, AgentEvent};
use deskmate_host::voice_confirm::{SpokenLanguage, VoiceConfirmer};
use deskmate_host::voice_mode::{VoiceEvent, VoiceMode, VoiceSettings};
use deskmate_host::{local, open_service_on, start_local_for, system_backends};

/// One line for a person reading the terminal (none for the input's level).
fn line(event: &VoiceEvent) -> Option<String> {
    Some(match event {
        VoiceEvent::State { state } => format!("[{}]", serde_json::to_value(state).ok()?.as_str()?),
        VoiceEvent::Level { .. } => return None,
        VoiceEvent::Heard { text, woke } => {
            format!("[heard{}] {text}", if *woke { ", woken" } else { "" })
        }
        VoiceEvent::Request { text } => format!("[request] {text}"),
        VoiceEvent::Turn { turn } => match turn.as_ref() {
            AgentEvent::ToolCall {
                name, arguments, ..
            } => format!("[tool] {name} {arguments}"),
            AgentEvent::ToolResult {
                name,
                status,
                result,
                ..
            } => format!(
                "[result] {name} {} {}",
                serde_json::to_value(status).ok()?.as_str()?,
                result.to_llm_text()
            ),
            AgentEvent::Error { message, .. } => format!("[error] {message}"),
            _ => return None,
        },
        VoiceEvent::Reply { text, language } => format!(
            "[reply, {}] {text}",
            serde_json::to_value(language).ok()?.as_str()?
        ),
        VoiceEvent::Interrupted => "[interrupted]".into(),
        VoiceEvent::Error { message } => format!("[error] {message}"),
    })
}

/// Runs voice mode on this computer's microphone and speaker until SIGINT or SIGTERM.
pub async fn run(data_dir: &std::path::Path, json: bool) -> anyhow::Result<ExitCode> {
    let backends = system_backends(None);
    let language = SpokenLanguage::default();
    let confirmer = Arc::new(VoiceConfirmer {
        speaker: backends.speaker.clone(),
        microphone: backends.microphone.clone(),
        transcriber: backends.transcriber.clone(),
        language: language.clone(),
    });
    let deskmate = open_service_on(data_dir, confirmer, &backends)?;
    let agent = Agent::new(deskmate.clone());
    let local = start_local_for(&deskmate, data_dir, Some(None), Some(None)).await;
    let settings = VoiceSettings::read(&deskmate)?;
    let ready = deskmate
        .models::<deskmate_service::models::AsrModel>()
        .map(|m| !m.is_empty())
        .unwrap_or(false);
    if !ready || settings.wake.is_empty() {
        if !ready {
            eprintln!(
                "deskmate: voice mode needs an ASR model: run scripts/setup-models.sh, or add one with POST /api/v1/models/asr"
            );
        } else {
            eprintln!(
                "deskmate: no wake phrase is set: `deskmate settings voice.wake_phrases \"Deskmate\"`"
            );
        }
        local::stop(local).await;
        return Ok(ExitCode::from(2));
    }
    eprintln!(
        "deskmate: listening; say {} (Ctrl-C stops)",
        settings
            .wake
            .phrases()
            .iter()
            .map(|p| format!("“{p}”"))
            .collect::<Vec<_>>()
            .join(" / ")
    );
    let voice = VoiceMode {
        agent,
        deskmate: deskmate.clone(),
        microphone: backends.microphone.clone(),
        speaker: backends.speaker.clone(),
        language,
    };
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
    let printer = tokio::spawn(async move {
        while let Some(event) = rx.recv().await {
            if json {
                if let Ok(line) = serde_json::to_string(&event) {
                    println!("{line}");
                    let _ = std::io::stdout().flush();
                }
            } else if let Some(line) = line(&event) {
                eprintln!("{line}");
            }
        }
    });
    let cancel = tokio_util::sync::CancellationToken::new();
    let stopping = cancel.clone();
    tokio::spawn(async move {
        crate::shutdown().await;
        stopping.cancel();
    });
    let outcome = voice.run(settings, tx, cancel).await;
    let _ = printer.await;
    local::stop(local).await;
    match outcome {
        Ok(()) => Ok(ExitCode::SUCCESS),
        Err(e) => {
            eprintln!("deskmate: voice mode stopped: {e}");
            Ok(ExitCode::from(1))
        }
    }
}
