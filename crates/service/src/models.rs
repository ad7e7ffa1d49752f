//! LLM and ASR models: input checked field by field, API keys kept as secrets (never
//! returned: a set key reads `••••`), at most one default of each kind.

use deskmate_core::mask::MASK;
use deskmate_store::models::{AsrModel, LlmModel};
use serde_json::{Map, Value};

use crate::model_input::{
    API_KEY_MAX, BASE_URL_MAX, HOTWORD_MAX, HOTWORDS_MAX, LANGUAGES, MODEL_MAX, NAME_MAX,
    base_url_ok, blank,
};
use crate::resources::FieldError;

/// The secret that holds a model's API key.
pub fn api_key_secret(kind: &str, id: &str) -> String {
    format!("{kind}.{id}.api_key")
}

fn field(path: &str, message: impl Into<String>, hint: impl Into<String>) -> FieldError {
    FieldError {
        path: path.to_string(),
        message: message.into(),
        hint: hint.into(),
    }
}

/// What a create or update asks for the API key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum KeyChange {
    /// Not mentioned (or sent back masked): keep it.
    Keep,
    /// `null` or `""`: remove it.
    Remove,
    /// A new key.
    Set(String),
}

/// What an existing model is called (for updates).
struct Identity<'a> {
    id: &'a str,
    name: &'a str,
    base_url: &'a str,
    model: &'a str,
}

/// The fields every model has, as read.
struct Common {
    id: String,
    name: Option<String>,
    base_url: Option<String>,
    model: Option<String>,
}

/// Reads and checks the fields of a JSON object against a whitelist.
struct Fields<'a> {
    body: &'a Map<String, Value>,
    errors: Vec<FieldError>,
}

impl<'a> Fields<'a> {
    fn new(input: &'a Value, writable: &[&str]) -> Result<Self, Vec<FieldError>> {
        let Some(body) = input.as_object() else {
            return Err(vec![field(
                "",
                "the body must be a JSON object",
                "send the model's fields as one object",
            )]);
        };
        let errors = body
            .keys()
            .filter(|k| !writable.contains(&k.as_str()))
            .map(|k| {
                field(
                    &format!("/{k}"),
                    format!("unknown or read-only field '{k}'"),
                    format!("writable fields: {}", writable.join(", ")),
                )
            })
            .collect();
        Ok(Self { body, errors })
    }

    fn text(&mut self, key: &str, current: Option<String>, max: usize) -> Option<String> {
        match self.body.get(key) {
            None => current,
            Some(Value::String(s)) if !blank(s) && s.chars().count() <= max => {
                Some(s.trim().to_string())
            }
            Some(_) => {
                self.errors.push(field(
                    &format!("/{key}"),
                    format!("{key} must be a non-empty string of at most {max} characters"),
                    format!("e.g. \"{}\"", example(key)),
                ));
                current
            }
        }
    }

    fn number(&mut self, key: &str, current: f64, min: f64, max: f64) -> f64 {
        match self.body.get(key) {
            None => current,
            Some(v) => match v.as_f64() {
                Some(n) if (min..=max).contains(&n) => n,
                _ => {
                    self.errors.push(field(
                        &format!("/{key}"),
                        format!("{key} must be a number from {min} to {max}, got {v}"),
                        format!("e.g. {}", example(key)),
                    ));
                    current
                }
            },
        }
    }

    fn boolean(&mut self, key: &str, current: bool) -> bool {
        match self.body.get(key) {
            None => current,
            Some(Value::Bool(b)) => *b,
            Some(v) => {
                self.errors.push(field(
                    &format!("/{key}"),
                    format!("{key} must be true or false, got {v}"),
                    "send a JSON boolean",
                ));
                current
            }
        }
    }

    fn key(&mut self) -> KeyChange {
        match self.body.get("api_key") {
            None => KeyChange::Keep,
            Some(Value::Null) => KeyChange::Remove,
            Some(Value::String(s)) if s.is_empty() => KeyChange::Remove,
            Some(Value::String(s)) if s == MASK => KeyChange::Keep,
            // Spaces alone are not a key, and not a clear request to remove one either.
            Some(Value::String(s)) if blank(s) => {
                self.errors.push(field(
                    "/api_key",
                    "api_key is only whitespace",
                    "paste the key as given by the provider, or send null (or \"\") to remove it",
                ));
                KeyChange::Keep
            }
            Some(Value::String(s))
                if s.chars().count() <= API_KEY_MAX && !s.contains(['\r', '\n']) =>
            {
                KeyChange::Set(s.trim().to_string())
            }
            Some(_) => {
                self.errors.push(field(
                    "/api_key",
                    format!("api_key must be a string on one line (at most {API_KEY_MAX} characters), or null to remove it"),
                    "paste the key as given by the provider",
                ));
                KeyChange::Keep
            }
        }
    }

    fn base_url(&mut self, current: Option<String>) -> Option<String> {
        let url = self.text("base_url", current, BASE_URL_MAX)?;
        // As sent: spaces around it are not part of a URL the API declares.
        let sent = self
            .body
            .get("base_url")
            .and_then(Value::as_str)
            .unwrap_or(&url);
        let parsed = deskmate_llm::Endpoint::new(&url, None).map_err(|e| e.to_string());
        let why = match parsed {
            Err(why) => Some(why),
            Ok(_) if !base_url_ok(sent) => Some(format!(
                "'{url}' is not a base URL Deskmate takes: http(s), a host name or IPv4 address \
                 (or [::1]), an optional port and a path of letters, digits and . _ ~ -"
            )),
            Ok(_) => None,
        };
        if let Some(why) = why {
            self.errors.push(field(
                "/base_url",
                why,
                "an OpenAI-style base URL, e.g. http://127.0.0.1:8080/v1",
            ));
        }
        Some(url)
    }

    /// The fields every model has: a new or kept id, name, base URL and model name
    /// (required on create, kept from `existing` on update).
    fn common(&mut self, kind: &str, existing: Option<Identity<'_>>) -> Common {
        let id = match (&existing, self.body.get("id")) {
            (Some(e), Some(v)) if v.as_str() != Some(e.id) => {
                self.errors
                    .push(field("/id", "the id cannot change", "leave id out"));
                e.id.to_string()
            }
            (Some(e), _) => e.id.to_string(),
            (None, Some(Value::String(id))) => {
                if let Err(e) = check_id(id) {
                    self.errors.push(e);
                }
                id.clone()
            }
            (None, Some(_)) => {
                self.errors
                    .push(field("/id", "id must be a string", "or leave it out"));
                String::new()
            }
            (None, None) => new_id(kind),
        };
        let name = self.text(
            "name",
            existing.as_ref().map(|e| e.name.to_string()),
            NAME_MAX,
        );
        let base_url = self.base_url(existing.as_ref().map(|e| e.base_url.to_string()));
        let model = self.text(
            "model",
            existing.as_ref().map(|e| e.model.to_string()),
            MODEL_MAX,
        );
        for (key, present) in [
            ("name", name.is_some()),
            ("base_url", base_url.is_some()),
            ("model", model.is_some()),
        ] {
            if !present && existing.is_none() && !self.body.contains_key(key) {
                self.errors.push(field(
                    &format!("/{key}"),
                    format!("{key} is required"),
                    format!("e.g. \"{}\"", example(key)),
                ));
            }
        }
        Common {
            id,
            name,
            base_url,
            model,
        }
    }

    fn finish<T>(self, value: T) -> Result<T, Vec<FieldError>> {
        if self.errors.is_empty() {
            Ok(value)
        } else {
            Err(self.errors)
        }
    }
}

fn example(key: &str) -> &'static str {
    match key {
        "name" => "Local Qwen",
        "base_url" => "http://127.0.0.1:8080/v1",
        "model" => "qwen2.5-coder-1.5b-instruct",
        "temperature" => "0.7",
        "top_p" => "0.9",
        "max_tokens" => "1024",
        "language" => "zh",
        _ => "…",
    }
}

fn check_id(id: &str) -> Result<(), FieldError> {
    let ok = !id.is_empty()
        && id.len() <= 64
        && id
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_' || b == b'-');
    if ok {
        Ok(())
    } else {
        Err(field(
            "/id",
            format!("'{id}' is not a valid model id"),
            "use 1-64 characters of a-z, 0-9, '_' or '-', or leave it out",
        ))
    }
}

/// A new id for a model of a kind.
pub fn new_id(kind: &str) -> String {
    format!("{kind}-{}", &uuid::Uuid::new_v4().simple().to_string()[..8])
}

const LLM_WRITABLE: [&str; 10] = [
    "id",
    "name",
    "base_url",
    "model",
    "api_key",
    "temperature",
    "top_p",
    "max_tokens",
    "streaming",
    "is_default",
];

/// Checks an LLM model's input: a whole model when `existing` is `None`, else the
/// fields to change.
pub fn llm_input(
    input: &Value,
    existing: Option<&LlmModel>,
) -> Result<(LlmModel, KeyChange), Vec<FieldError>> {
    let mut f = Fields::new(input, &LLM_WRITABLE)?;
    let Common {
        id,
        name,
        base_url,
        model,
    } = f.common(
        "llm",
        existing.map(|e| Identity {
            id: &e.id,
            name: &e.name,
            base_url: &e.base_url,
            model: &e.model,
        }),
    );
    let temperature = f.number(
        "temperature",
        existing.map_or(0.7, |e| e.temperature),
        0.0,
        2.0,
    );
    let top_p = f.number("top_p", existing.map_or(1.0, |e| e.top_p), 0.01, 1.0);
    let max_tokens = f.number(
        "max_tokens",
        existing.map_or(1024.0, |e| e.max_tokens as f64),
        1.0,
        131_072.0,
    );
    if max_tokens.fract() != 0.0 {
        f.errors.push(field(
            "/max_tokens",
            "max_tokens must be a whole number",
            "e.g. 1024",
        ));
    }
    let streaming = f.boolean("streaming", existing.is_none_or(|e| e.streaming));
    let is_default = f.boolean("is_default", existing.is_some_and(|e| e.is_default));
    let key = f.key();
    let model = LlmModel {
        api_key_ref: existing.and_then(|e| e.api_key_ref.clone()),
        name: name.unwrap_or_default(),
        base_url: base_url.unwrap_or_default(),
        model: model.unwrap_or_default(),
        temperature,
        top_p,
        max_tokens: max_tokens as i64,
        streaming,
        is_default,
        managed: existing.and_then(|e| e.managed.clone()),
        created_at: existing.map(|e| e.created_at.clone()).unwrap_or_default(),
        updated_at: String::new(),
        id,
    };
    f.finish((model, key))
}

const ASR_WRITABLE: [&str; 8] = [
    "id",
    "name",
    "base_url",
    "model",
    "api_key",
    "language",
    "hotwords",
    "is_default",
];

/// Checks an ASR model's input (see [`llm_input`]).
pub fn asr_input(
    input: &Value,
    existing: Option<&AsrModel>,
) -> Result<(AsrModel, KeyChange), Vec<FieldError>> {
    let mut f = Fields::new(input, &ASR_WRITABLE)?;
    let Common {
        id,
        name,
        base_url,
        model,
    } = f.common(
        "asr",
        existing.map(|e| Identity {
            id: &e.id,
            name: &e.name,
            base_url: &e.base_url,
            model: &e.model,
        }),
    );
    let language = match f.body.get("language") {
        None => existing.and_then(|e| e.language.clone()),
        Some(Value::Null) => None,
        Some(Value::String(code)) if LANGUAGES.contains(&code.as_str()) => Some(code.clone()),
        Some(v) => {
            f.errors.push(field(
                "/language",
                format!("language must be an ISO-639-1 code in lower case, like zh or en, got {v}"),
                "use a two-letter code, or null to let the server detect it",
            ));
            None
        }
    };
    let hotwords = match f.body.get("hotwords") {
        None => existing.map(|e| e.hotwords.clone()).unwrap_or_default(),
        Some(Value::Array(items))
            if items.len() <= HOTWORDS_MAX
                && items.iter().all(|i| {
                    i.as_str()
                        .is_some_and(|s| !blank(s) && s.chars().count() <= HOTWORD_MAX)
                }) =>
        {
            unique(items.iter().filter_map(Value::as_str))
        }
        Some(_) => {
            f.errors.push(field(
                "/hotwords",
                format!(
                    "hotwords must be a list of at most {HOTWORDS_MAX} words of 1-{HOTWORD_MAX} characters"
                ),
                "e.g. [\"Deskmate\", \"CDISC\"]",
            ));
            Vec::new()
        }
    };
    let is_default = f.boolean("is_default", existing.is_some_and(|e| e.is_default));
    let key = f.key();
    let model = AsrModel {
        api_key_ref: existing.and_then(|e| e.api_key_ref.clone()),
        name: name.unwrap_or_default(),
        base_url: base_url.unwrap_or_default(),
        model: model.unwrap_or_default(),
        language,
        hotwords,
        is_default,
        managed: existing.and_then(|e| e.managed.clone()),
        created_at: existing.map(|e| e.created_at.clone()).unwrap_or_default(),
        updated_at: String::new(),
        id,
    };
    f.finish((model, key))
}

/// Trimmed, non-empty, first of each kept in order.
fn unique<'a>(words: impl Iterator<Item = &'a str>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for word in words.map(str::trim).filter(|w| !w.is_empty()) {
        if !out.iter().any(|w| w == word) {
            out.push(word.to_string());
        }
    }
    out
}

/// ISO-639-1 codes Whisper knows (two letters), plus `yue` and `haw` (three).
pub fn valid_language(code: &str) -> bool {
    LANGUAGES.contains(&code.to_ascii_lowercase().as_str())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn llm_input_is_checked_field_by_field() {
        let (model, key) = llm_input(
            &json!({"name": "Local", "base_url": "http://127.0.0.1:8080/v1", "model": "qwen", "api_key": "sk-1"}),
            None,
        )
        .unwrap_or_else(|e| panic!("{e:?}"));
        assert!(model.id.starts_with("llm-"));
        assert_eq!(key, KeyChange::Set("sk-1".into()));
        assert!((model.temperature - 0.7).abs() < 1e-9);

        let errors = llm_input(
            &json!({"base_url": "localhost", "temperature": 3, "top_p": 0, "max_tokens": 1.5,
                    "streaming": "yes", "secret_field": 1}),
            None,
        )
        .err()
        .unwrap_or_default();
        let paths: Vec<&str> = errors.iter().map(|e| e.path.as_str()).collect();
        for path in [
            "/secret_field",
            "/base_url",
            "/temperature",
            "/top_p",
            "/max_tokens",
            "/streaming",
            "/name",
            "/model",
        ] {
            assert!(paths.contains(&path), "{path} missing in {paths:?}");
        }

        // An update changes only what it names; a masked key is kept.
        let (updated, key) = llm_input(&json!({"temperature": 0.1, "api_key": MASK}), Some(&model))
            .unwrap_or_else(|e| panic!("{e:?}"));
        assert_eq!((updated.name.as_str(), updated.temperature), ("Local", 0.1));
        assert_eq!(key, KeyChange::Keep);
        assert!(llm_input(&json!({"id": "other"}), Some(&model)).is_err());

        // A key of spaces is refused (it was stored as an empty key); "" and null remove.
        let errors = llm_input(&json!({"api_key": "   "}), Some(&model))
            .err()
            .unwrap_or_default();
        assert_eq!(errors.len(), 1, "{errors:?}");
        assert_eq!(errors[0].path, "/api_key");
        for remove in [json!(""), Value::Null] {
            let (_, key) = llm_input(&json!({"api_key": remove}), Some(&model))
                .unwrap_or_else(|e| panic!("{e:?}"));
            assert_eq!(key, KeyChange::Remove);
        }
        let (_, key) = llm_input(&json!({"api_key": "  sk-2 "}), Some(&model))
            .unwrap_or_else(|e| panic!("{e:?}"));
        assert_eq!(key, KeyChange::Set("sk-2".into()));
    }

    #[test]
    fn asr_language_and_hotwords() {
        let (model, _) = asr_input(
            &json!({"name": "W", "base_url": "http://127.0.0.1:9000/v1", "model": "whisper-base",
                    "language": "zh", "hotwords": ["Deskmate", " 音量 ", "Deskmate"]}),
            None,
        )
        .unwrap_or_else(|e| panic!("{e:?}"));
        assert_eq!(model.language.as_deref(), Some("zh"));
        assert_eq!(model.hotwords, ["Deskmate", "音量"]);
        // As declared: codes in lower case, hotwords as a list.
        for bad in [
            json!({"language": "xx"}),
            json!({"language": "ZH"}),
            json!({"hotwords": [1]}),
            json!({"hotwords": "Deskmate, CDISC"}),
            json!({"language": 5}),
        ] {
            assert!(asr_input(&bad, Some(&model)).is_err(), "{bad}");
        }
    }
}

use crate::model_view::{AsrModelView, LlmModelView, Serving, ServingState};
use crate::{Deskmate, ServiceError};

fn not_found(kind: Kind, id: &str) -> ServiceError {
    ServiceError::NotFound {
        what: kind.what(),
        id: id.to_string(),
    }
}

/// LLM or ASR.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Chat models.
    Llm,
    /// Transcription models.
    Asr,
}

impl Kind {
    fn what(self) -> &'static str {
        match self {
            Self::Llm => "LLM Model",
            Self::Asr => "ASR Model",
        }
    }

    fn prefix(self) -> &'static str {
        match self {
            Self::Llm => "llm",
            Self::Asr => "asr",
        }
    }
}

impl Deskmate {
    /// Applies an API-key change; returns the secret reference to store.
    fn apply_key(
        &self,
        kind: Kind,
        id: &str,
        change: &KeyChange,
        current: Option<String>,
    ) -> Result<Option<String>, ServiceError> {
        let secrets = &self.stored()?.secrets;
        let name = api_key_secret(kind.prefix(), id);
        match change {
            KeyChange::Keep => Ok(current),
            KeyChange::Remove => {
                secrets.remove(&name)?;
                Ok(None)
            }
            KeyChange::Set(value) => {
                secrets.set(&name, value)?;
                Ok(Some(name))
            }
        }
    }

    /// The API key of a stored model, if it has one.
    pub fn model_api_key(&self, api_key_ref: Option<&str>) -> Option<String> {
        use deskmate_tools::http_tool::SecretStore;
        let secrets = &self.stored.as_ref()?.secrets;
        api_key_ref.and_then(|name| secrets.secret(name))
    }

    /// Every LLM model (keys masked), the default first.
    pub fn list_llm_models(&self) -> Result<Vec<LlmModelView>, ServiceError> {
        Ok(self
            .stored()?
            .store
            .list_llm_models()?
            .iter()
            .map(|m| self.llm_view(m))
            .collect())
    }

    /// What a model's server is doing now: for a model Deskmate runs itself, `starting`
    /// (loading), `ready` (with the URL it listens at now: the stored one has no port)
    /// or `stopped`; another model's state is `remote` (Deskmate cannot know it without
    /// a request).
    fn serving(&self, id: &str, managed: Option<&str>) -> Serving {
        let (state, detail, url) = match managed {
            None => (ServingState::Remote, None, None),
            Some(_) if self.is_starting(id) => (ServingState::Starting, None, None),
            Some(_) => match self.managed_url(id) {
                Some(url) => (ServingState::Ready, None, Some(url)),
                None => (
                    ServingState::Stopped,
                    Some(
                        "the local model server is not running: see its log in the data folder's logs"
                            .to_string(),
                    ),
                    None,
                ),
            },
        };
        Serving { state, detail, url }
    }

    fn llm_view(&self, m: &LlmModel) -> LlmModelView {
        LlmModelView::new(m, self.serving(&m.id, m.managed.as_deref()))
    }

    fn asr_view(&self, m: &AsrModel) -> AsrModelView {
        AsrModelView::new(m, self.serving(&m.id, m.managed.as_deref()))
    }

    /// An LLM model as stored; `None` asks for the default (else the first).
    pub fn llm_model_record(&self, id: Option<&str>) -> Result<LlmModel, ServiceError> {
        let store = &self.stored()?.store;
        match id {
            Some(id) => store.llm_model(id)?.ok_or_else(|| not_found(Kind::Llm, id)),
            None => store
                .list_llm_models()?
                .into_iter()
                .next()
                .ok_or_else(|| not_found(Kind::Llm, "default")),
        }
    }

    /// An ASR model as stored; `None` asks for the default (else the first).
    pub fn asr_model_record(&self, id: Option<&str>) -> Result<AsrModel, ServiceError> {
        let store = &self.stored()?.store;
        match id {
            Some(id) => store.asr_model(id)?.ok_or_else(|| not_found(Kind::Asr, id)),
            None => store
                .list_asr_models()?
                .into_iter()
                .next()
                .ok_or_else(|| not_found(Kind::Asr, "default")),
        }
    }

    /// Transcribes speech (a WAV's bytes) with the default ASR model: in the model's
    /// language, else `language`; `hints` join the model's hotwords.
    pub async fn transcribe(
        &self,
        audio: Vec<u8>,
        language: Option<&str>,
        hints: &[String],
    ) -> Result<String, ServiceError> {
        let model = self.asr_model_record(None)?;
        self.wait_managed(
            &model.id,
            model.managed.as_deref(),
            crate::MANAGED_START_WAIT,
        )
        .await;
        let base = self.base_url_for(&model.id, &model.base_url, model.managed.as_deref());
        let client =
            deskmate_llm::Endpoint::new(&base, self.model_api_key(model.api_key_ref.as_deref()))
                .and_then(deskmate_llm::AsrClient::new)?;
        let mut hotwords = model.hotwords.clone();
        hotwords.extend(hints.iter().cloned());
        hotwords.truncate(100);
        let request = deskmate_llm::AsrRequest {
            model: model.model.clone(),
            language: model.language.clone().or(language.map(str::to_string)),
            hotwords,
        };
        Ok(client.transcribe(&request, audio, "speech.wav").await?.text)
    }

    /// One LLM model (key masked).
    pub fn llm_model(&self, id: &str) -> Result<LlmModelView, ServiceError> {
        let model = self.llm_model_record(Some(id))?;
        Ok(self.llm_view(&model))
    }

    /// Creates an LLM model.
    pub fn create_llm_model(&self, input: &Value) -> Result<LlmModelView, ServiceError> {
        let store = &self.stored()?.store;
        let (mut model, key) = llm_input(input, None).map_err(ServiceError::Invalid)?;
        if store.llm_model(&model.id)?.is_some() {
            return Err(ServiceError::Taken(vec![field(
                "/id",
                format!("a model with id '{}' exists", model.id),
                "choose another id, or update that model",
            )]));
        }
        model.api_key_ref = self.apply_key(Kind::Llm, &model.id, &key, None)?;
        Ok(self.llm_view(&store.save_llm_model(&model)?))
    }

    /// Changes the fields an LLM model's input names.
    pub fn update_llm_model(&self, id: &str, input: &Value) -> Result<LlmModelView, ServiceError> {
        let store = &self.stored()?.store;
        let existing = self.llm_model_record(Some(id))?;
        let (mut model, key) = llm_input(input, Some(&existing)).map_err(ServiceError::Invalid)?;
        model.api_key_ref = self.apply_key(Kind::Llm, id, &key, existing.api_key_ref)?;
        Ok(self.llm_view(&store.save_llm_model(&model)?))
    }

    /// Deletes an LLM model and its key.
    pub fn delete_llm_model(&self, id: &str) -> Result<(), ServiceError> {
        let store = &self.stored()?.store;
        if !store.delete_llm_model(id)? {
            return Err(not_found(Kind::Llm, id));
        }
        self.apply_key(Kind::Llm, id, &KeyChange::Remove, None)?;
        Ok(())
    }

    /// Every ASR model (keys masked), the default first.
    pub fn list_asr_models(&self) -> Result<Vec<AsrModelView>, ServiceError> {
        Ok(self
            .stored()?
            .store
            .list_asr_models()?
            .iter()
            .map(|m| self.asr_view(m))
            .collect())
    }

    /// One ASR model (key masked).
    pub fn asr_model(&self, id: &str) -> Result<AsrModelView, ServiceError> {
        let model = self.asr_model_record(Some(id))?;
        Ok(self.asr_view(&model))
    }

    /// Creates an ASR model.
    pub fn create_asr_model(&self, input: &Value) -> Result<AsrModelView, ServiceError> {
        let store = &self.stored()?.store;
        let (mut model, key) = asr_input(input, None).map_err(ServiceError::Invalid)?;
        if store.asr_model(&model.id)?.is_some() {
            return Err(ServiceError::Taken(vec![field(
                "/id",
                format!("a model with id '{}' exists", model.id),
                "choose another id, or update that model",
            )]));
        }
        model.api_key_ref = self.apply_key(Kind::Asr, &model.id, &key, None)?;
        Ok(self.asr_view(&store.save_asr_model(&model)?))
    }

    /// Changes the fields an ASR model's input names.
    pub fn update_asr_model(&self, id: &str, input: &Value) -> Result<AsrModelView, ServiceError> {
        let store = &self.stored()?.store;
        let existing = self.asr_model_record(Some(id))?;
        let (mut model, key) = asr_input(input, Some(&existing)).map_err(ServiceError::Invalid)?;
        model.api_key_ref = self.apply_key(Kind::Asr, id, &key, existing.api_key_ref)?;
        Ok(self.asr_view(&store.save_asr_model(&model)?))
    }

    /// Deletes an ASR model and its key.
    pub fn delete_asr_model(&self, id: &str) -> Result<(), ServiceError> {
        let store = &self.stored()?.store;
        if !store.delete_asr_model(id)? {
            return Err(not_found(Kind::Asr, id));
        }
        self.apply_key(Kind::Asr, id, &KeyChange::Remove, None)?;
        Ok(())
    }
}
