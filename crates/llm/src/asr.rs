//! The ASR client: OpenAI-compatible `/audio/transcriptions` (multipart), with the
//! language and the hotwords (sent as the prompt, which biases Whisper towards them).

use crate::client::Endpoint;
use crate::error::LlmError;

/// What to transcribe and how.
#[derive(Debug, Clone)]
pub struct AsrRequest {
    /// The model name the server knows.
    pub model: String,
    /// ISO-639-1 code (`zh`, `en`), or none to let the server detect it.
    pub language: Option<String>,
    /// Words to favour (names, jargon).
    pub hotwords: Vec<String>,
}

/// A transcription.
#[derive(Debug, Clone, PartialEq)]
pub struct Transcription {
    /// The text.
    pub text: String,
    /// The HTTP status (200).
    pub status: u16,
}

/// An ASR client.
#[derive(Debug, Clone)]
pub struct AsrClient {
    endpoint: Endpoint,
    http: reqwest::Client,
}

impl AsrClient {
    /// A client for an endpoint.
    pub fn new(endpoint: Endpoint) -> Result<Self, LlmError> {
        let http = endpoint.http()?;
        Ok(Self { endpoint, http })
    }

    /// Transcribes audio (a WAV file's bytes, say).
    pub async fn transcribe(
        &self,
        request: &AsrRequest,
        audio: Vec<u8>,
        file_name: &str,
    ) -> Result<Transcription, LlmError> {
        let url = self.endpoint.url("/audio/transcriptions");
        let part = reqwest::multipart::Part::bytes(audio)
            .file_name(file_name.to_string())
            .mime_str(mime_for(file_name))
            .map_err(|e| LlmError::Decode {
                url: url.clone(),
                reason: e.to_string(),
            })?;
        let mut form = reqwest::multipart::Form::new()
            .part("file", part)
            .text("model", request.model.clone())
            // faster-whisper-server 0.0.3 reads `model_name`, not OpenAI's `model`.
            .text("model_name", request.model.clone())
            .text("response_format", "json");
        if let Some(language) = &request.language {
            form = form.text("language", language.clone());
        }
        if !request.hotwords.is_empty() {
            form = form.text("prompt", request.hotwords.join(", "));
        }
        let builder = self
            .endpoint
            .authorize(self.http.post(&url).multipart(form));
        let response = self.endpoint.send(&url, builder).await?;
        let status = response.status().as_u16();
        let body = self.endpoint.body(&url, response, 1024 * 1024).await?;
        let value: serde_json::Value =
            serde_json::from_slice(&body).map_err(|e| LlmError::Decode {
                url: url.clone(),
                reason: format!("not JSON: {e}"),
            })?;
        let text = value["text"].as_str().ok_or_else(|| LlmError::Decode {
            url: url.clone(),
            reason: format!("no 'text' in the answer: {value:.200}"),
        })?;
        Ok(Transcription {
            text: text.trim().to_string(),
            status,
        })
    }
}

fn mime_for(file_name: &str) -> &'static str {
    match file_name
        .rsplit('.')
        .next()
        .map(str::to_ascii_lowercase)
        .as_deref()
    {
        Some("wav") => "audio/wav",
        Some("mp3") => "audio/mpeg",
        Some("ogg") => "audio/ogg",
        Some("flac") => "audio/flac",
        Some("webm") => "audio/webm",
        _ => "application/octet-stream",
    }
}
