//! OpenAI-compatible model clients for Deskmate.
//!
//! - [`ChatClient`]: chat completions with tools, streaming (SSE) or not. Streamed tool
//!   calls are assembled by index ([`assemble::ToolCallAssembler`]) and parsed once
//!   complete; calls a model wrote into its text are found by [`extract::extract_calls`].
//! - [`AsrClient`]: `/audio/transcriptions` (multipart) with language and hotwords.
//! - [`tokens::estimate`]: a text's tokens when the server cannot count them.
//!
//! ```no_run
//! # async fn demo() -> Result<(), deskmate_llm::LlmError> {
//! use deskmate_llm::{ChatClient, Endpoint, wire::{ChatRequest, Message}};
//! let client = ChatClient::new(Endpoint::new("http://127.0.0.1:8080/v1", None)?)?;
//! let reply = client
//!     .complete(&ChatRequest::new("local", vec![Message::user("Hello")]), &mut |_| {})
//!     .await?;
//! println!("{}", reply.content);
//! # Ok(()) }
//! ```

pub mod asr;
pub mod assemble;
pub mod client;
pub mod envelope;
pub mod error;
pub mod extract;
pub mod gguf;
pub mod grammar;
pub mod sidecar;
pub mod sse;
pub mod tokens;
pub mod wire;

pub use asr::{AsrClient, AsrRequest, Transcription};
pub use client::{ChatClient, Endpoint, Reply, StreamEvent};
pub use error::LlmError;
