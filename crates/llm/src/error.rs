//! Why a model or ASR request failed; every variant says what to check.

use std::time::Duration;

/// A failed request to a model server.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum LlmError {
    /// The base URL is not an absolute http(s) URL.
    #[error("invalid base URL '{url}': {reason}")]
    BadUrl {
        /// The URL as configured.
        url: String,
        /// What is wrong with it.
        reason: String,
    },
    /// No connection could be made (server down, wrong port, refused).
    #[error("cannot connect to {url}: {reason}")]
    Connect {
        /// The endpoint.
        url: String,
        /// The OS's or the client's reason.
        reason: String,
    },
    /// The server did not answer (or send the next chunk) in time.
    #[error("{url} sent nothing for {} ms ({stage})", .after.as_millis())]
    Timeout {
        /// The endpoint.
        url: String,
        /// Waiting for what: `response headers`, `next chunk`, `body`.
        stage: &'static str,
        /// The limit.
        after: Duration,
    },
    /// The API key was refused (401/403).
    #[error("{url} refused the API key (HTTP {status}): {body}")]
    Unauthorized {
        /// The endpoint.
        url: String,
        /// 401 or 403.
        status: u16,
        /// The start of the server's answer.
        body: String,
    },
    /// Any other non-2xx answer.
    #[error("{url} answered HTTP {status}: {body}")]
    Status {
        /// The endpoint.
        url: String,
        /// The status.
        status: u16,
        /// The start of the server's answer.
        body: String,
    },
    /// The answer is not what an OpenAI-compatible server sends.
    #[error("unexpected answer from {url}: {reason}")]
    Decode {
        /// The endpoint.
        url: String,
        /// What did not fit.
        reason: String,
    },
    /// The stream ended before `[DONE]` or a finish reason.
    #[error("the stream from {url} ended early after {chunks} chunks")]
    StreamEndedEarly {
        /// The endpoint.
        url: String,
        /// Chunks received.
        chunks: usize,
    },
    /// The request was cancelled.
    #[error("cancelled")]
    Cancelled,
}

impl LlmError {
    /// Whether the same request may work later (server down, timeout, 5xx, 429).
    pub fn is_transient(&self) -> bool {
        match self {
            Self::Connect { .. } | Self::Timeout { .. } | Self::StreamEndedEarly { .. } => true,
            Self::Status { status, .. } => *status >= 500 || *status == 429,
            _ => false,
        }
    }
}
