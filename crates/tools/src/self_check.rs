//! A tool's self-check: what the autotest may do to see that the tool works right now.
//!
//! Part of every tool's contract ([`crate::Tool::self_check`]). A tool whose call is
//! harmless (it only reads, asks nobody and changes nothing) declares a sample call and
//! what its answer must satisfy; the autotest runs it through the guard's steps 1–4 and
//! the tool itself (no policy, no audit: nothing is changed). A tool that writes, or that
//! would ask the person something, is never run: its check is a probe of what it needs (a
//! device's readiness, a host's reachability) that sends none of its arguments.
//!
//! [`Registry::self_check`](crate::Registry::self_check) runs a tool's check and words
//! the verdict: what was run and what came back.

use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

use deskmate_core::{Localized, said};
use serde_json::Value;

/// What a check found, said in both languages (the autotest shows either).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// It works; what was run and what came back.
    Passed(Localized),
    /// It does not work; what was run, what came back, and what to do.
    Failed(Localized),
    /// Not checked, and why (nothing to check it on, disabled, …).
    Skipped(Localized),
}

/// Judges a sample call's data: `Ok` with what came back, `Err` with what is wrong.
pub type Judge = fn(&Value) -> Result<Localized, Localized>;

/// Finds a sample call's arguments when the check runs (on the blocking pool: it may read
/// files). `Err` is the verdict without running the tool (no dataset → skipped; a dataset
/// that cannot be read → failed).
pub type MakeArgs = Arc<dyn Fn() -> Result<Value, Verdict> + Send + Sync>;

/// A probe's answer: `Ok` with what was found, `Err` with what is wrong and how to fix it.
pub type Probe = Pin<Box<dyn Future<Output = Result<Localized, Localized>> + Send>>;

/// How the autotest checks a tool.
pub enum SelfCheck {
    /// Run the tool on these arguments and judge what it answers.
    Sample {
        /// The sample call's arguments (valid against the tool's schema).
        args: Value,
        /// What the answer must satisfy.
        judge: Judge,
    },
    /// Like `Sample`, with arguments that depend on what is present (the first dataset).
    SampleFrom {
        /// Finds the arguments.
        args: MakeArgs,
        /// What the answer must satisfy.
        judge: Judge,
    },
    /// The tool is not run; this probe of what it needs answers instead.
    Probe(Probe),
    /// The tool is not run; this probe of the device it needs answers instead (skipped
    /// when a run leaves the devices out).
    Device(&'static str, Probe),
    /// Not checked, and why.
    Skip(Localized),
}

impl SelfCheck {
    /// A probe that asks the OS (blocking calls), run on the blocking pool.
    pub fn probe_blocking(
        probe: impl FnOnce() -> Result<Localized, Localized> + Send + 'static,
    ) -> Self {
        Self::Probe(blocking_probe(probe))
    }

    /// A device's readiness probe (blocking calls), run on the blocking pool.
    pub fn device(
        device: &'static str,
        probe: impl FnOnce() -> Result<Localized, Localized> + Send + 'static,
    ) -> Self {
        Self::Device(device, blocking_probe(probe))
    }
}

fn blocking_probe(probe: impl FnOnce() -> Result<Localized, Localized> + Send + 'static) -> Probe {
    Box::pin(async move {
        tokio::task::spawn_blocking(probe)
            .await
            .unwrap_or_else(|e| {
                Err(said!(
                    "检查意外中止：{e}",
                    "the probe stopped unexpectedly: {e}"
                ))
            })
    })
}

impl fmt::Debug for SelfCheck {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Sample { args, .. } => f.debug_struct("Sample").field("args", args).finish(),
            Self::SampleFrom { .. } => f.write_str("SampleFrom"),
            Self::Probe(_) => f.write_str("Probe"),
            Self::Device(device, _) => f.debug_tuple("Device").field(device).finish(),
            Self::Skip(why) => f.debug_tuple("Skip").field(why).finish(),
        }
    }
}

/// A [`Judge`]'s verdict on a sample whose answer is known: `want` when the answer's
/// `got` is `right`, else what came instead.
pub fn known_answer(want: &str, got: &Value, right: bool) -> Result<Localized, Localized> {
    if right {
        Ok(Localized::same(want))
    } else {
        Err(said!(
            "应为 {want}，实际为 {got}",
            "expected {want}, got {got}"
        ))
    }
}

/// How long a probe may take before it counts as failed.
pub const PROBE_TIMEOUT: Duration = Duration::from_secs(10);

/// Whether a host answers HTTP at all: connects to the origin of `url` and sends `HEAD /`
/// (none of a tool's arguments, no headers of its own). Any HTTP status means the host is
/// reachable; a refused connection, a DNS failure or a timeout does not.
pub async fn reachable(url: &str, timeout: Duration) -> Result<Localized, Localized> {
    let parsed = url::Url::parse(url)
        .map_err(|e| said!("“{url}”不是有效的网址：{e}", "'{url}' is not a URL: {e}"))?;
    let host = parsed
        .host_str()
        .ok_or_else(|| said!("“{url}”没有主机名", "'{url}' has no host"))?;
    let origin = parsed.origin().ascii_serialization();
    let _ = rustls::crypto::ring::default_provider().install_default();
    let client = reqwest::Client::builder()
        .timeout(timeout)
        .connect_timeout(timeout)
        .redirect(reqwest::redirect::Policy::none())
        .user_agent(concat!("deskmate/", env!("CARGO_PKG_VERSION"), " autotest"))
        .build()
        .map_err(|e| {
            said!(
                "无法创建 HTTP 客户端：{e}",
                "cannot build the HTTP client: {e}"
            )
        })?;
    let seconds = timeout.as_secs();
    match client.head(format!("{origin}/")).send().await {
        Ok(response) => {
            let status = response.status().as_u16();
            Ok(said!(
                "HEAD {origin}/ → HTTP {status}（主机有应答；没有发送工具的参数）",
                "HEAD {origin}/ → HTTP {status} (the host answers; the tool's arguments were not sent)"
            ))
        }
        Err(e) if e.is_timeout() => Err(said!(
            "HEAD {origin}/ 在 {seconds} 秒内没有应答：{host} 在运行吗？",
            "HEAD {origin}/ got no answer within {seconds} s: is {host} up?"
        )),
        Err(e) if e.is_connect() => {
            let cause = root_cause(&e);
            Err(said!(
                "无法连接 {origin}（“{cause}”）：服务器在运行吗？网址对吗？",
                "cannot connect to {origin} ({cause}): is the server running, and is the URL right?"
            ))
        }
        Err(e) => {
            let cause = root_cause(&e);
            Err(said!(
                "HEAD {origin}/ 失败：“{cause}”",
                "HEAD {origin}/ failed: {cause}"
            ))
        }
    }
}

/// The innermost error's text (reqwest's own message is only "error sending request").
fn root_cause(error: &(dyn std::error::Error + 'static)) -> String {
    let mut cause = error;
    while let Some(next) = cause.source() {
        cause = next;
    }
    cause.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_closed_port_is_unreachable_and_a_server_is_reachable() {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .unwrap_or_else(|e| panic!("{e}"));
        let port = listener.local_addr().map(|a| a.port()).unwrap_or_default();
        drop(listener);
        let closed = reachable(
            &format!("http://127.0.0.1:{port}/orders/{{id}}"),
            Duration::from_secs(2),
        )
        .await;
        let why = closed.err().unwrap_or_else(|| panic!("reachable"));
        assert!(why.en.contains("cannot connect"), "{why:?}");
        assert!(why.zh.contains("无法连接"), "{why:?}");
        assert!(why.zh.contains(&port.to_string()), "{why:?}");

        let app = not_found_server().await;
        let open = reachable(&format!("{app}/orders/{{id}}"), Duration::from_secs(2)).await;
        let found = open.unwrap_or_else(|e| panic!("{e:?}"));
        assert!(found.en.contains("HTTP 404"), "{found:?}");
        assert!(found.zh.contains("HTTP 404"), "{found:?}");
    }

    /// A minimal HTTP server: answers every request with 404.
    async fn not_found_server() -> String {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .unwrap_or_else(|e| panic!("{e}"));
        let addr = listener.local_addr().unwrap_or_else(|e| panic!("{e}"));
        tokio::spawn(async move {
            while let Ok((mut socket, _)) = listener.accept().await {
                let mut buf = [0u8; 1024];
                let _ = socket.read(&mut buf).await;
                let _ = socket
                    .write_all(b"HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\n\r\n")
                    .await;
            }
        });
        format!("http://{addr}")
    }
}
