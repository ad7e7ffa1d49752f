//! Calls to a managed model wait while its server starts, and only then.

use std::sync::Arc;
use std::time::{Duration, Instant};

use deskmate_service::Deskmate;

#[tokio::test]
async fn calls_wait_for_a_starting_managed_server_and_no_longer() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let deskmate = Arc::new(Deskmate::open(dir.path()).unwrap_or_else(|e| panic!("{e}")));
    let long = Duration::from_secs(30);

    // Not managed, or managed but not starting: no wait.
    let started = Instant::now();
    deskmate.wait_managed("m", None, long).await;
    deskmate.wait_managed("m", Some("llama-server"), long).await;
    assert!(started.elapsed() < Duration::from_secs(1));

    // Starting: waits until the URL is known.
    deskmate.managed_starting("m");
    let setter = deskmate.clone();
    tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(300)).await;
        setter.set_managed_url("other", Some("http://127.0.0.1:1/v1".into()));
        tokio::time::sleep(Duration::from_millis(300)).await;
        setter.set_managed_url("m", Some("http://127.0.0.1:2/v1".into()));
    });
    let started = Instant::now();
    deskmate.wait_managed("m", Some("llama-server"), long).await;
    let waited = started.elapsed();
    assert!(
        waited >= Duration::from_millis(550) && waited < Duration::from_secs(5),
        "{waited:?}"
    );
    assert_eq!(
        deskmate.base_url_for("m", "http://stored/v1", Some("llama-server")),
        "http://127.0.0.1:2/v1"
    );

    // A server that never comes: the wait ends at the timeout.
    deskmate.managed_starting("slow");
    let started = Instant::now();
    deskmate
        .wait_managed("slow", Some("llama-server"), Duration::from_millis(200))
        .await;
    let waited = started.elapsed();
    assert!(
        waited >= Duration::from_millis(190) && waited < Duration::from_secs(2),
        "{waited:?}"
    );
}

/// A managed server that becomes ready is announced to whoever listens (the agent warms
/// its prompt prefix from it); one that goes down is not.
#[test]
fn a_server_that_becomes_ready_is_announced() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let deskmate = Deskmate::open(dir.path()).unwrap_or_else(|e| panic!("{e}"));
    let mut ready = deskmate.managed_ready();
    deskmate.set_managed_url("m", None);
    assert!(ready.try_recv().is_err());
    deskmate.set_managed_url("m", Some("http://127.0.0.1:2/v1".into()));
    assert_eq!(ready.try_recv().ok().as_deref(), Some("m"));
    assert!(ready.try_recv().is_err());
    assert_eq!(deskmate.managed_models(), ["m"]);
}
