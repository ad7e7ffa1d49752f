//! A scheduled prompt runs as a turn of the agent (the service's turn runner): in the
//! conversation it was made in, with a reminder of that conversation in its history, and
//! its answer comes to the person as a notification.

mod common;

use std::sync::Arc;

use chrono::{DateTime, TimeDelta, TimeZone, Utc};
use deskmate_agent::{Agent, ChatEntry, ChatTurn};
use deskmate_devices::message::text_msg_prompt;
use deskmate_devices::notify::SimulatedNotifier;
use deskmate_service::Deskmate;
use deskmate_service::hooks::PreApproved;
use deskmate_service::schedules::NewSchedule;
use deskmate_store::schedules::RunStatus;
use deskmate_testkit::{Script, ScriptedServer, completion};
use serde_json::{Value, json};

fn body<T: deskmate_service::body::Body>(json: Value) -> T {
    T::read(&json).unwrap_or_else(|e| panic!("{e:?}"))
}

struct Fixture {
    _dir: tempfile::TempDir,
    deskmate: Arc<Deskmate>,
    agent: Arc<Agent>,
    notifier: Arc<SimulatedNotifier>,
}

fn fixture() -> Fixture {
    let dir = common::data_dir_with_adsl();
    let notifier = Arc::new(SimulatedNotifier::default());
    let (in_app, _) = tokio::sync::broadcast::channel(16);
    let deskmate = Arc::new(
        Deskmate::open_with_tools(
            dir.path(),
            Arc::new(PreApproved),
            vec![Arc::new(text_msg_prompt(notifier.clone(), in_app))],
        )
        .unwrap_or_else(|e| panic!("{e}")),
    );
    let agent = Agent::new(deskmate.clone());
    Fixture {
        _dir: dir,
        deskmate,
        agent,
        notifier,
    }
}

/// 2026-12-03 10:00 in Berlin.
fn t0() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 12, 3, 9, 0, 0)
        .single()
        .unwrap_or_else(|| panic!("a valid time"))
}

fn input(json: Value) -> NewSchedule {
    let mut json = json;
    json["time_zone"] = json!("Europe/Berlin");
    body(json)
}

async fn fire(d: &Deskmate, now: DateTime<Utc>) -> Vec<deskmate_service::schedules::fire::Fired> {
    d.fire_due(now).await.unwrap_or_else(|e| panic!("{e}"))
}

/// A reminder made in a conversation becomes a line of it when it fires; a scheduled
/// prompt runs as a turn of that conversation (with the reminder in its history), and the
/// answer comes to the person as a notification.
#[tokio::test]
async fn a_prompt_runs_as_a_turn_of_its_conversation_and_reminders_are_lines_of_it() {
    let f = fixture();
    let server = ScriptedServer::start(&["scripted"]).await;
    f.deskmate
        .create_model::<deskmate_service::models::LlmModel>(body(json!({
            "name": "Scripted", "base_url": server.base_url(), "model": "scripted",
            "streaming": false, "is_default": true
        })))
        .unwrap_or_else(|e| panic!("{e}"));
    server.push(Script::Json(completion(Some("Hello."), &[])));
    let (_, first) = f
        .agent
        .chat_collected(ChatTurn {
            message: "hi".into(),
            ..ChatTurn::default()
        })
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    let conversation = first.conversation_id;

    let book = f.deskmate.schedule_book().unwrap_or_else(|e| panic!("{e}"));
    for (when, action) in [
        ("in 10 minutes", json!({"message": "stretch"})),
        ("in 20 minutes", json!({"prompt": "what time is it?"})),
    ] {
        let mut json = action;
        json["when"] = json!(when);
        book.create(input(json), "llm", Some(conversation.clone()), t0())
            .await
            .unwrap_or_else(|e| panic!("{e}"));
    }

    let fired = fire(&f.deskmate, t0() + TimeDelta::minutes(10)).await;
    assert_eq!(fired.len(), 1, "{fired:?}");
    let entries = |agent: &Agent| {
        agent
            .conversation(&conversation)
            .unwrap_or_else(|e| panic!("{e}"))
            .entries
    };
    assert_eq!(
        entries(&f.agent).last(),
        Some(&ChatEntry::Reminder {
            seq: 3,
            text: "stretch".into()
        })
    );

    server.push(Script::Json(completion(Some("It is 10:20."), &[])));
    let fired = fire(&f.deskmate, t0() + TimeDelta::minutes(20)).await;
    assert_eq!(fired.len(), 1, "{fired:?}");
    assert_eq!(fired[0].status, RunStatus::Succeeded, "{fired:?}");
    assert_eq!(fired[0].result["conversation_id"], json!(conversation));
    let shown = f.notifier.shown();
    assert_eq!(
        shown.last().map(|n| (n.title.as_str(), n.body.as_str())),
        Some(("Deskmate", "It is 10:20."))
    );
    let got = entries(&f.agent);
    assert_eq!(
        got[got.len() - 2..],
        [
            ChatEntry::User {
                seq: 4,
                text: "what time is it?".into()
            },
            ChatEntry::Assistant {
                seq: 5,
                text: "It is 10:20.".into()
            }
        ]
    );
    // The model read the reminder in the conversation's history.
    let asked = server.requests();
    let history = asked
        .last()
        .map(|r| r["messages"].to_string())
        .unwrap_or_default();
    assert!(history.contains("stretch"), "{history}");
}
