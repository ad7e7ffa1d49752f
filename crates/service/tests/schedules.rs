//! Schedules through the service with an injected clock: each occurrence fires once, at
//! its time, through the guard; missed ones follow the missed-run policy; abandoned runs
//! are failed, not repeated; a tool that changed or went away makes the run fail
//! visibly; consent is asked when a schedule is made and again when the tool changed.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use chrono::{DateTime, TimeDelta, TimeZone, Utc};
use deskmate_devices::message::text_msg_prompt;
use deskmate_devices::notify::SimulatedNotifier;
use deskmate_service::hooks::{ConfirmRequest, Confirmation, Confirmer};
use deskmate_service::schedules::NewSchedule;
use deskmate_service::{Deskmate, ServiceError};
use deskmate_store::schedules::RunStatus;
use serde_json::{Value, json};

mod common;

fn body<T: deskmate_service::body::Body>(json: Value) -> T {
    T::read(&json).unwrap_or_else(|e| panic!("{e:?}"))
}

/// Answers every question the same way and counts them.
#[derive(Debug)]
struct Person {
    yes: bool,
    asked: AtomicUsize,
}

#[async_trait::async_trait]
impl Confirmer for Person {
    async fn confirm(&self, _request: ConfirmRequest) -> Confirmation {
        self.asked.fetch_add(1, Ordering::SeqCst);
        if self.yes {
            Confirmation::Approved
        } else {
            Confirmation::Denied
        }
    }
}

struct Fixture {
    _dir: tempfile::TempDir,
    deskmate: Deskmate,
    notifier: Arc<SimulatedNotifier>,
    person: Arc<Person>,
}

fn open_on(dir: &std::path::Path, yes: bool) -> (Deskmate, Arc<SimulatedNotifier>, Arc<Person>) {
    let notifier = Arc::new(SimulatedNotifier::default());
    let (in_app, _) = tokio::sync::broadcast::channel(16);
    let person = Arc::new(Person {
        yes,
        asked: AtomicUsize::new(0),
    });
    let deskmate = Deskmate::open_with_tools(
        dir,
        person.clone(),
        vec![Arc::new(text_msg_prompt(notifier.clone(), in_app))],
    )
    .unwrap_or_else(|e| panic!("{e}"));
    (deskmate, notifier, person)
}

fn fixture(yes: bool) -> Fixture {
    let dir = common::data_dir_with_adsl();
    let (deskmate, notifier, person) = open_on(dir.path(), yes);
    Fixture {
        _dir: dir,
        deskmate,
        notifier,
        person,
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

async fn create(d: &Deskmate, json: Value, now: DateTime<Utc>) -> String {
    d.schedule_book()
        .unwrap_or_else(|e| panic!("{e}"))
        .create(input(json), "api", None, now)
        .await
        .unwrap_or_else(|e| panic!("{e}"))
        .id
}

async fn fire(d: &Deskmate, now: DateTime<Utc>) -> Vec<deskmate_service::schedules::fire::Fired> {
    d.fire_due(now).await.unwrap_or_else(|e| panic!("{e}"))
}

#[tokio::test]
async fn a_reminder_fires_once_at_its_time_and_says_what_it_was_for() {
    let f = fixture(true);
    let id = create(
        &f.deskmate,
        json!({"when": "in 10 minutes", "message": "stretch"}),
        t0(),
    )
    .await;
    let view = f
        .deskmate
        .schedule_book()
        .and_then(|b| b.get(&id))
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        view.next_at.as_deref(),
        Some("2026-12-03T09:10:00.000Z"),
        "{view:?}"
    );
    assert_eq!(
        view.next_at_local.as_deref(),
        Some("2026-12-03T10:10:00+01:00")
    );

    assert!(
        fire(&f.deskmate, t0() + TimeDelta::minutes(9))
            .await
            .is_empty()
    );
    let fired = fire(&f.deskmate, t0() + TimeDelta::minutes(10)).await;
    assert_eq!(fired.len(), 1, "{fired:?}");
    assert_eq!(fired[0].status, RunStatus::Succeeded, "{fired:?}");
    let shown = f.notifier.shown();
    assert_eq!(shown.len(), 1);
    assert_eq!(
        (shown[0].title.as_str(), shown[0].body.as_str()),
        ("Reminder", "stretch")
    );
    // Once: nothing more, ever.
    assert!(
        fire(&f.deskmate, t0() + TimeDelta::hours(30))
            .await
            .is_empty()
    );
    assert_eq!(f.notifier.shown().len(), 1);
    let view = f
        .deskmate
        .schedule_book()
        .and_then(|b| b.get(&id))
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        (view.next_at, view.run_count, view.last_status.as_deref()),
        (None, 1, Some("succeeded"))
    );
    // The run is audited like any call, with its origin (the audit writes in the
    // background: wait for it).
    let store = f
        .deskmate
        .store()
        .cloned()
        .unwrap_or_else(|| panic!("a store"));
    let filter = deskmate_store::audit::AuditFilter {
        tool: Some("text_msg_prompt".into()),
        page: 1,
        limit: 10,
        ..Default::default()
    };
    let mut origins = Vec::new();
    for _ in 0..50 {
        let (_, events) = store.list_audit(&filter).unwrap_or_else(|e| panic!("{e}"));
        origins = events.into_iter().map(|e| e.origin).collect();
        if !origins.is_empty() {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert_eq!(origins, ["schedule"]);
}

#[tokio::test]
async fn a_chinese_reminder_is_titled_in_chinese_and_a_daily_one_goes_on() {
    let f = fixture(true);
    create(
        &f.deskmate,
        json!({"when": "每天早上8点", "message": "喝水"}),
        t0(),
    )
    .await;
    // Due tomorrow at 08:00 Berlin (07:00 UTC).
    let tomorrow = Utc
        .with_ymd_and_hms(2026, 12, 4, 7, 0, 0)
        .single()
        .unwrap_or_else(|| panic!("valid"));
    assert!(
        fire(&f.deskmate, tomorrow - TimeDelta::seconds(1))
            .await
            .is_empty()
    );
    assert_eq!(fire(&f.deskmate, tomorrow).await.len(), 1);
    assert_eq!(
        fire(&f.deskmate, tomorrow + TimeDelta::days(1)).await.len(),
        1
    );
    let shown = f.notifier.shown();
    assert_eq!(shown.len(), 2);
    assert_eq!(shown[0].title, "提醒");
}

#[tokio::test]
async fn missed_occurrences_follow_the_policy() {
    let f = fixture(true);
    let book = f.deskmate.schedule_book().unwrap_or_else(|e| panic!("{e}"));
    // A reminder 30 minutes late still fires, saying when it was due.
    create(
        &f.deskmate,
        json!({"when": "in 10 minutes", "message": "call Anna"}),
        t0(),
    )
    .await;
    let fired = fire(&f.deskmate, t0() + TimeDelta::minutes(40)).await;
    assert_eq!(fired[0].status, RunStatus::Succeeded, "{fired:?}");
    assert_eq!(
        f.notifier.shown()[0].body,
        "call Anna (missed at 2026-12-03 10:10)"
    );
    // Two hours late: recorded as missed, not shown.
    let late = create(
        &f.deskmate,
        json!({"when": "in 10 minutes", "message": "too late"}),
        t0(),
    )
    .await;
    let fired = fire(&f.deskmate, t0() + TimeDelta::minutes(130)).await;
    assert_eq!(fired[0].status, RunStatus::Missed, "{fired:?}");
    assert_eq!(f.notifier.shown().len(), 1);
    let (runs, _) = book.runs(&late, 10, 0).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(runs[0].status, "missed");
    // A recurring tool call 10 minutes late is missed, not run late, and goes on.
    let every = create(
        &f.deskmate,
        json!({"when": "every day at 9:00", "tool": "calculator", "arguments": {"expression": "1+1"}}),
        t0(),
    )
    .await;
    let due = Utc
        .with_ymd_and_hms(2026, 12, 4, 8, 0, 0)
        .single()
        .unwrap_or_else(|| panic!("valid"));
    let fired = fire(&f.deskmate, due + TimeDelta::minutes(10)).await;
    assert_eq!(fired[0].status, RunStatus::Missed, "{fired:?}");
    let view = book.get(&every).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(view.next_at.as_deref(), Some("2026-12-05T08:00:00.000Z"));
    // On time, it runs, through the guard.
    let fired = fire(&f.deskmate, due + TimeDelta::days(1)).await;
    assert_eq!(fired[0].status, RunStatus::Succeeded, "{fired:?}");
    assert_eq!(fired[0].result["data"]["result"], json!(2), "{fired:?}");
}

#[tokio::test]
async fn an_abandoned_run_is_failed_and_not_repeated() {
    let f = fixture(true);
    let id = create(
        &f.deskmate,
        json!({"when": "in 5 minutes", "message": "stand up"}),
        t0(),
    )
    .await;
    let store = f
        .deskmate
        .store()
        .cloned()
        .unwrap_or_else(|| panic!("a store"));
    let due = "2026-12-03T09:05:00.000Z";
    // Another process claimed it and was killed before it ran.
    assert!(
        store
            .claim_occurrence(&id, due, None, "killed", due, None)
            .unwrap_or(false)
    );
    assert!(
        fire(&f.deskmate, t0() + TimeDelta::minutes(6))
            .await
            .is_empty()
    );
    let later = t0() + TimeDelta::minutes(5) + deskmate_service::schedules::fire::LEASE;
    assert!(
        fire(&f.deskmate, later + TimeDelta::seconds(1))
            .await
            .is_empty()
    );
    let book = f.deskmate.schedule_book().unwrap_or_else(|e| panic!("{e}"));
    let (runs, total) = book.runs(&id, 10, 0).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!((total, runs[0].status.as_str()), (1, "failed"));
    assert!(f.notifier.shown().is_empty(), "not run late");
    assert_eq!(
        book.get(&id).ok().and_then(|v| v.last_status),
        Some("failed".to_string())
    );
}

/// Two services on one data dir, 100 schedules firing every minute for ten minutes:
/// 1,000 occurrences, each fired exactly once.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn two_services_on_one_data_dir_fire_each_occurrence_once() {
    let dir = common::data_dir_with_adsl();
    let (a, shown_a, _) = open_on(dir.path(), true);
    let (b, shown_b, _) = open_on(dir.path(), true);
    for i in 0..100 {
        create(
            if i % 2 == 0 { &a } else { &b },
            json!({"when": "every 1 minutes", "message": format!("tick {i}")}),
            t0(),
        )
        .await;
    }
    for minute in 1..=10 {
        let now = t0() + TimeDelta::minutes(minute);
        let (x, y) = tokio::join!(a.fire_due(now), b.fire_due(now));
        let fired =
            x.unwrap_or_else(|e| panic!("{e}")).len() + y.unwrap_or_else(|e| panic!("{e}")).len();
        assert_eq!(fired, 100, "minute {minute}");
    }
    let mut bodies: Vec<String> = shown_a
        .shown()
        .into_iter()
        .chain(shown_b.shown())
        .map(|n| n.body)
        .collect();
    assert_eq!(bodies.len(), 1000, "0 lost, 0 doubled");
    bodies.sort();
    bodies.dedup();
    assert_eq!(bodies.len(), 100);
    let store = a.store().cloned().unwrap_or_else(|| panic!("a store"));
    let (all, total) = store
        .list_schedules(1000, 0)
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(total, 100);
    assert!(
        all.iter().all(|s| s.run_count == 10),
        "every schedule ran ten times"
    );
}

#[tokio::test]
async fn a_tool_that_asks_asks_when_scheduled_and_one_that_never_runs_cannot_be() {
    let f = fixture(true);
    f.deskmate
        .update_resource("calculator", body(json!({"policy": "ask"})))
        .unwrap_or_else(|e| panic!("{e}"));
    let id = create(
        &f.deskmate,
        json!({"when": "in 1 hour", "tool": "calculator", "arguments": {"expression": "6*7"}}),
        t0(),
    )
    .await;
    assert_eq!(f.person.asked.load(Ordering::SeqCst), 1, "asked when made");
    let fired = fire(&f.deskmate, t0() + TimeDelta::hours(1)).await;
    assert_eq!(fired[0].status, RunStatus::Succeeded, "{fired:?}");
    assert_eq!(
        f.person.asked.load(Ordering::SeqCst),
        1,
        "the yes given when it was made holds: {id}"
    );

    // Never: cannot be scheduled, nothing stored.
    f.deskmate
        .update_resource("calculator", body(json!({"policy": "never"})))
        .unwrap_or_else(|e| panic!("{e}"));
    let book = f.deskmate.schedule_book().unwrap_or_else(|e| panic!("{e}"));
    let refused = book
        .create(
            input(json!({"when": "in 1 hour", "tool": "calculator", "arguments": {"expression": "1"}})),
            "api",
            None,
            t0(),
        )
        .await;
    assert!(
        matches!(refused, Err(ServiceError::Forbidden(_))),
        "{refused:?}"
    );
    assert_eq!(book.list(10, 0).map(|(_, n)| n).ok(), Some(1));
}

#[tokio::test]
async fn a_disabled_or_deleted_tool_makes_the_run_fail_visibly() {
    let f = fixture(true);
    let id = create(
        &f.deskmate,
        json!({"when": "in 10 minutes", "tool": "calculator", "arguments": {"expression": "2+2"}}),
        t0(),
    )
    .await;
    f.deskmate
        .update_resource("calculator", body(json!({"enabled": false})))
        .unwrap_or_else(|e| panic!("{e}"));
    let fired = fire(&f.deskmate, t0() + TimeDelta::minutes(10)).await;
    assert_eq!(fired[0].status, RunStatus::Failed, "{fired:?}");
    let view = f
        .deskmate
        .schedule_book()
        .and_then(|b| b.get(&id))
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(view.last_status.as_deref(), Some("failed"));
    let error = view
        .last_result
        .as_ref()
        .and_then(|r| r["error"].as_str())
        .unwrap_or_default()
        .to_string();
    assert!(error.contains("disabled"), "{view:?}");
}

#[tokio::test]
async fn bad_schedules_are_refused_at_the_field_and_nothing_is_stored() {
    let f = fixture(true);
    let book = f.deskmate.schedule_book().unwrap_or_else(|e| panic!("{e}"));
    let cases = [
        (json!({"when": "2020-01-01 09:00", "message": "x"}), "/when"),
        (
            json!({"when": "RRULE:FREQ=DAILY;UNTIL=20200101T000000Z", "message": "x"}),
            "/when",
        ),
        (
            json!({"when": "whenever you like", "message": "x"}),
            "/when",
        ),
        (json!({"when": "in 10 minutes"}), "/message"),
        (
            json!({"when": "in 10 minutes", "message": "x", "tool": "calculator"}),
            "/tool",
        ),
        (
            json!({"when": "in 10 minutes", "tool": "calculator", "arguments": {"expression": 5}}),
            "/arguments",
        ),
        (
            json!({"when": "in 10 minutes", "tool": "no_such_tool", "arguments": {}}),
            "/tool",
        ),
        (
            json!({"when": "in 10 minutes", "tool": "schedule", "arguments": {"when": "in 1 minute", "message": "x"}}),
            "/tool",
        ),
        (
            json!({"when": "in 10 minutes", "message": "x", "time_zone": "Mars/Olympus"}),
            "/time_zone",
        ),
    ];
    for (sent, path) in cases {
        let mut sent = sent;
        if sent.get("time_zone").is_none() {
            sent["time_zone"] = json!("Europe/Berlin");
        }
        let read: Result<NewSchedule, _> = deskmate_service::body::Body::read(&sent);
        let result = match read {
            Err(errors) => Err(ServiceError::Invalid(errors)),
            Ok(input) => book.create(input, "api", None, t0()).await,
        };
        match result {
            Err(ServiceError::Invalid(errors)) => {
                assert_eq!(errors[0].path, path, "{sent}: {errors:?}")
            }
            other => panic!("{sent}: {other:?}"),
        }
    }
    // A megabyte of message is refused by the body's check.
    let big = json!({"when": "in 10 minutes", "message": "x".repeat(1 << 20)});
    let errors = <NewSchedule as deskmate_service::body::Body>::read(&big)
        .err()
        .unwrap_or_default();
    assert_eq!(errors.first().map(|e| e.path.as_str()), Some("/message"));
    assert_eq!(
        book.list(10, 0).map(|(_, n)| n).ok(),
        Some(0),
        "nothing stored"
    );
}

/// The yes given when a schedule was made is for the tool as it was then: a changed
/// definition asks again when the schedule fires.
#[tokio::test]
async fn a_changed_tool_definition_asks_again_when_the_schedule_fires() {
    let f = fixture(true);
    f.deskmate
        .create_resource(body(json!({
            "id": "door_bell",
            "name": "Door bell",
            "description": "Rings the door bell.",
            "category": "query",
            "http_method": "POST",
            "http_url": "http://127.0.0.1:9/ring",
            "http_timeout_ms": 1000,
            "parameter_schema": {"type": "object", "additionalProperties": false, "properties": {}},
            "side_effect": "write",
            "policy": "ask"
        })))
        .unwrap_or_else(|e| panic!("{e}"));
    create(
        &f.deskmate,
        json!({"when": "every day at 12:00", "tool": "door_bell", "arguments": {}}),
        t0(),
    )
    .await;
    assert_eq!(f.person.asked.load(Ordering::SeqCst), 1, "asked when made");
    let noon = Utc
        .with_ymd_and_hms(2026, 12, 3, 11, 0, 0)
        .single()
        .unwrap_or_else(|| panic!("valid"));
    fire(&f.deskmate, noon).await;
    assert_eq!(
        f.person.asked.load(Ordering::SeqCst),
        1,
        "the same tool: not asked"
    );
    f.deskmate
        .update_resource(
            "door_bell",
            body(json!({"description": "Rings every bell in the house."})),
        )
        .unwrap_or_else(|e| panic!("{e}"));
    fire(&f.deskmate, noon + TimeDelta::days(1)).await;
    assert_eq!(
        f.person.asked.load(Ordering::SeqCst),
        2,
        "a changed tool: asked again"
    );
}

/// The grace of a missed reminder is a setting: with 10 minutes, one 30 minutes late is
/// recorded missed instead of shown.
#[tokio::test]
async fn the_missed_reminder_grace_is_a_setting() {
    let f = fixture(true);
    f.deskmate
        .set_setting(deskmate_service::schedules::fire::GRACE_SETTING, json!(10))
        .unwrap_or_else(|e| panic!("{e}"));
    create(
        &f.deskmate,
        json!({"when": "in 10 minutes", "message": "call Anna"}),
        t0(),
    )
    .await;
    let fired = fire(&f.deskmate, t0() + TimeDelta::minutes(40)).await;
    assert_eq!(fired[0].status, RunStatus::Missed, "{fired:?}");
    assert!(f.notifier.shown().is_empty());
}

/// At most 10,000 schedules are kept: the next one is refused, nothing stored.
#[tokio::test]
async fn the_ten_thousand_and_first_schedule_is_refused() {
    let f = fixture(true);
    let store = f
        .deskmate
        .store()
        .cloned()
        .unwrap_or_else(|| panic!("a store"));
    for i in 0..deskmate_service::schedules::MAX_SCHEDULES {
        store
            .create_schedule(&deskmate_store::schedules::StoredSchedule {
                id: format!("sch-{i}"),
                action: json!({"kind": "reminder", "message": "x", "speak": false}),
                rule: json!({"kind": "daily", "time": "09:00:00"}),
                rule_text: "every day at 9".into(),
                time_zone: "Europe/Berlin".into(),
                next_at: Some("2026-12-04T08:00:00.000Z".into()),
                enabled: true,
                created_by: "api".into(),
                ..Default::default()
            })
            .unwrap_or_else(|e| panic!("{e}"));
    }
    let book = f.deskmate.schedule_book().unwrap_or_else(|e| panic!("{e}"));
    let refused = book
        .create(
            input(json!({"when": "in 10 minutes", "message": "one more"})),
            "api",
            None,
            t0(),
        )
        .await;
    match refused {
        Err(ServiceError::Invalid(errors)) => {
            assert!(errors[0].message.contains("10000"), "{errors:?}")
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(book.list(1, 0).map(|(_, n)| n).ok(), Some(10_000));
}

/// A prompt runs as a turn of the agent, which the service knows only as its turn runner
/// (`deskmate-agent` has the test of a prompt that runs): with no agent in the process it
/// fails, visibly in the run, and nothing is shown.
#[tokio::test]
async fn a_prompt_without_an_agent_fails_visibly() {
    let f = fixture(true);
    create(
        &f.deskmate,
        json!({"when": "in 10 minutes", "prompt": "what time is it?"}),
        t0(),
    )
    .await;
    let fired = fire(&f.deskmate, t0() + TimeDelta::minutes(10)).await;
    assert_eq!(fired.len(), 1, "{fired:?}");
    assert_eq!(fired[0].status, RunStatus::Failed, "{fired:?}");
    assert_eq!(
        fired[0].result["error"],
        json!("no agent runs chat turns in this process")
    );
    assert!(f.notifier.shown().is_empty());
}

/// A change keeps what it leaves out: a new message keeps the time as it was understood
/// ("in 2 hours" is not read again an hour later), a new time keeps the action, and a
/// change that cannot be made changes nothing.
#[tokio::test]
async fn a_change_keeps_what_it_leaves_out() {
    use deskmate_service::schedules::ScheduleChange;
    let f = fixture(true);
    let id = create(
        &f.deskmate,
        json!({"when": "in 2 hours", "message": "stretch"}),
        t0(),
    )
    .await;
    let book = f.deskmate.schedule_book().unwrap_or_else(|e| panic!("{e}"));
    let later = t0() + TimeDelta::hours(1);
    let changed = book
        .update(
            &id,
            body::<ScheduleChange>(json!({"message": "walk"})),
            later,
        )
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(changed.next_at.as_deref(), Some("2026-12-03T11:00:00.000Z"));
    assert_eq!(
        serde_json::to_value(&changed.action).unwrap_or_default()["message"],
        "walk"
    );
    let moved = book
        .update(
            &id,
            body::<ScheduleChange>(json!({"when": "in 10 minutes"})),
            later,
        )
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(moved.next_at.as_deref(), Some("2026-12-03T10:10:00.000Z"));
    assert_eq!(moved.action, changed.action);
    let refused = book
        .update(
            &id,
            body::<ScheduleChange>(json!({"when": "yesterday at 9"})),
            later,
        )
        .await;
    assert!(
        matches!(refused, Err(ServiceError::Invalid(_))),
        "{refused:?}"
    );
    assert_eq!(book.get(&id).ok(), Some(moved));
}

/// A guessed id is not found, and the error offers the schedules still to come — not a
/// one-time reminder that already fired, which there is nothing left of to cancel — so
/// the model's next try names one of them.
#[tokio::test]
async fn a_guessed_id_is_answered_with_the_schedules_still_to_come() {
    let f = fixture(true);
    let fired = create(
        &f.deskmate,
        json!({"when": "in 10 minutes", "message": "stretch"}),
        t0(),
    )
    .await;
    let daily = create(
        &f.deskmate,
        json!({"when": "every day at 8:00", "message": "喝水"}),
        t0(),
    )
    .await;
    assert_eq!(
        fire(&f.deskmate, t0() + TimeDelta::minutes(10)).await.len(),
        1
    );
    let guessed = f
        .deskmate
        .call(deskmate_service::CallRequest::new(
            "cancel_schedule",
            json!({"id": "water_reminder"}),
        ))
        .await;
    assert!(!guessed.ok, "{guessed:?}");
    assert_eq!(guessed.options, std::slice::from_ref(&daily), "{guessed:?}");
    let hint = guessed.hint.clone().unwrap_or_default();
    assert!(hint.contains(&daily) && hint.contains("喝水"), "{hint}");
    assert!(!hint.contains(&fired), "{hint}");
    // Cancelled, nothing to come: a guess is told there is nothing to cancel, with no
    // options to choose from.
    let cancelled = f
        .deskmate
        .call(deskmate_service::CallRequest::new(
            "cancel_schedule",
            json!({"id": daily}),
        ))
        .await;
    assert!(cancelled.ok, "{cancelled:?}");
    let none = f
        .deskmate
        .call(deskmate_service::CallRequest::new(
            "cancel_schedule",
            json!({"id": "water_reminder"}),
        ))
        .await;
    assert!(!none.ok && none.options.is_empty(), "{none:?}");
    assert!(
        none.hint.unwrap_or_default().contains("nothing to cancel"),
        "the model is told there is nothing to cancel"
    );
}
