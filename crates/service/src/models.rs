//! LLM and ASR models: bodies checked field by field and read into their types (see
//! [`crate::body`] and [`crate::model_input`]), API keys kept as secrets (never returned:
//! a set key reads `••••`), at most one default of each kind.

use deskmate_core::mask::MASK;
pub use deskmate_store::models::{AsrModel, LlmModel, ModelFile, ModelRecord};
use serde_json::{Map, Value};
use utoipa::PartialSchema;

use crate::body::{Body, declared_fields, unknown_fields};
use crate::error::FieldError;
use crate::model_input::{
    API_KEY_MAX, AsrModelChange, BASE_URL_MAX, CONTEXT_MAX, CONTEXT_MIN, FILE_MAX, HOTWORD_MAX,
    HOTWORDS_MAX, LANGUAGES, LlmModelChange, MODEL_MAX, NAME_MAX, NewAsrModel, NewLlmModel,
    THREADS_MAX, base_url_ok, blank,
};
use crate::model_view::{AsrModelView, LlmModelView, Serving, ServingState};
use crate::{Deskmate, ServiceError};

/// The secret that holds a model's API key: `KIND.ID.api_key`, or, for an id too long for
/// that to be a secret name (64 characters at most), `KIND.PREFIX-HASH.api_key` with the
/// id's first characters and a stable 64-bit hash of all of it, so every allowed id has a
/// key of its own.
pub fn api_key_secret(kind: &str, id: &str) -> String {
    let plain = format!("{kind}.{id}.api_key");
    if crate::secrets::valid_name(&plain) {
        return plain;
    }
    // FNV-1a: the same name for the same id in every version, no dependency.
    let hash = crate::fnv64(id.as_bytes());
    let room = 64 - format!("{kind}.-{hash:016x}.api_key").len();
    let prefix: String = id.chars().take(room).collect();
    format!("{kind}.{prefix}-{hash:016x}.api_key")
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

impl KeyChange {
    /// What an `api_key` field asks for: left out or `••••` keeps the key, `null` or `""`
    /// removes it, anything else is the new key.
    pub fn of(sent: Option<Option<String>>) -> Self {
        match sent {
            None => Self::Keep,
            Some(None) => Self::Remove,
            Some(Some(key)) if key.is_empty() => Self::Remove,
            Some(Some(key)) if key == MASK => Self::Keep,
            Some(Some(key)) => Self::Set(key.trim().to_string()),
        }
    }
}

/// Checks the fields of a model body one by one, collecting every problem.
struct Fields<'a> {
    body: &'a Map<String, Value>,
    errors: Vec<FieldError>,
}

impl<'a> Fields<'a> {
    /// `input` must be an object of the fields `T` declares (plus `also`).
    fn new<T: PartialSchema>(input: &'a Value, also: &[&str]) -> Result<Self, Vec<FieldError>> {
        let Some(body) = input.as_object() else {
            return Err(vec![field(
                "",
                "the body must be a JSON object",
                "send the model's fields as one object",
            )]);
        };
        let mut allowed = declared_fields::<T>();
        allowed.extend(also.iter().map(ToString::to_string));
        let errors = unknown_fields(body, &allowed);
        Ok(Self { body, errors })
    }

    fn text(&mut self, key: &str, required: bool, max: usize) {
        match self.body.get(key) {
            None if required => self.errors.push(field(
                &format!("/{key}"),
                format!("{key} is required"),
                format!("e.g. \"{}\"", example(key)),
            )),
            None => {}
            Some(Value::String(s)) if !blank(s) && s.chars().count() <= max => {}
            Some(_) => self.errors.push(field(
                &format!("/{key}"),
                format!("{key} must be a non-empty string of at most {max} characters"),
                format!("e.g. \"{}\"", example(key)),
            )),
        }
    }

    /// A number from `min` to `max`; `whole`: without a fraction.
    fn number(&mut self, key: &str, min: f64, max: f64, whole: bool) {
        let Some(v) = self.body.get(key) else {
            return;
        };
        match v.as_f64() {
            Some(n) if (min..=max).contains(&n) => {
                if whole && n.fract() != 0.0 {
                    self.errors.push(field(
                        &format!("/{key}"),
                        format!("{key} must be a whole number"),
                        format!("e.g. {}", example(key)),
                    ));
                }
            }
            _ => self.errors.push(field(
                &format!("/{key}"),
                format!("{key} must be a number from {min} to {max}, got {v}"),
                format!("e.g. {}", example(key)),
            )),
        }
    }

    fn boolean(&mut self, key: &str) {
        if let Some(v) = self.body.get(key)
            && !v.is_boolean()
        {
            self.errors.push(field(
                &format!("/{key}"),
                format!("{key} must be true or false, got {v}"),
                "send a JSON boolean",
            ));
        }
    }

    fn key(&mut self) {
        match self.body.get("api_key") {
            None | Some(Value::Null) => {}
            Some(Value::String(s)) if s.is_empty() || s == MASK => {}
            // Spaces alone are not a key, and not a clear request to remove one either.
            Some(Value::String(s)) if blank(s) => self.errors.push(field(
                "/api_key",
                "api_key is only whitespace",
                "paste the key as given by the provider, or send null (or \"\") to remove it",
            )),
            Some(Value::String(s))
                if s.chars().count() <= API_KEY_MAX && !s.contains(['\r', '\n']) => {}
            Some(_) => self.errors.push(field(
                "/api_key",
                format!("api_key must be a string on one line (at most {API_KEY_MAX} characters), or null to remove it"),
                "paste the key as given by the provider",
            )),
        }
    }

    fn base_url(&mut self, required: bool) {
        let before = self.errors.len();
        self.text("base_url", required, BASE_URL_MAX);
        let Some(Value::String(sent)) = self.body.get("base_url") else {
            return;
        };
        if self.errors.len() > before {
            return;
        }
        let url = sent.trim();
        let why = match deskmate_llm::Endpoint::new(url, None) {
            Err(why) => Some(why.to_string()),
            // As sent: spaces around it are not part of a URL the API declares.
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
    }

    /// The fields every model has: on create a new id (made up when left out), a name, a
    /// base URL and a model name, all required but the id; on a change the same fields,
    /// none required, and an id that may only be sent back unchanged (checked against the
    /// model's by [`changed_id`]).
    fn common(&mut self, create: bool) {
        self.id_and_name(create);
        self.base_url(create);
        self.text("model", create, MODEL_MAX);
        self.key();
        self.boolean("is_default");
    }

    /// A new LLM model: served at a base URL, as [`Fields::common`] checks, or run from a
    /// file (`file` instead of `base_url`; `model` then optional).
    fn llm_source(&mut self) {
        if !self.body.contains_key("file") {
            self.common(true);
            return;
        }
        self.id_and_name(true);
        if self.body.contains_key("base_url") {
            self.errors.push(field(
                "/base_url",
                "send either file or base_url, not both",
                "leave base_url out for a model Deskmate runs from a file",
            ));
        }
        match self.body.get("file") {
            Some(Value::String(path))
                if path.starts_with('/') && (2..=FILE_MAX).contains(&path.chars().count()) => {}
            _ => self.errors.push(field(
                "/file",
                format!("file must be an absolute path (starting with /) of at most {FILE_MAX} characters"),
                "the full path of a .gguf file, e.g. /home/me/models/model.gguf",
            )),
        }
        self.text("model", false, MODEL_MAX);
        self.key();
        self.boolean("is_default");
    }

    /// How a model file's server runs.
    fn server(&mut self) {
        self.number("context_size", CONTEXT_MIN, CONTEXT_MAX, true);
        self.number("threads", 1.0, THREADS_MAX, true);
    }

    fn id_and_name(&mut self, create: bool) {
        match self.body.get("id") {
            None => {}
            Some(Value::String(id)) if create => {
                if let Err(e) = check_id(id) {
                    self.errors.push(e);
                }
            }
            Some(Value::String(_)) => {}
            Some(_) => self
                .errors
                .push(field("/id", "id must be a string", "or leave it out")),
        }
        self.text("name", create, NAME_MAX);
    }

    fn llm(&mut self) {
        self.number("temperature", 0.0, 2.0, false);
        self.number("top_p", 0.01, 1.0, false);
        self.number("max_tokens", 1.0, 131_072.0, true);
        self.boolean("streaming");
    }

    fn asr(&mut self) {
        match self.body.get("language") {
            None | Some(Value::Null) => {}
            Some(Value::String(code)) if LANGUAGES.contains(&code.as_str()) => {}
            Some(v) => self.errors.push(field(
                "/language",
                format!("language must be an ISO-639-1 code in lower case, like zh or en, got {v}"),
                "use a two-letter code, or null to let the server detect it",
            )),
        }
        match self.body.get("hotwords") {
            None => {}
            Some(Value::Array(items))
                if items.len() <= HOTWORDS_MAX
                    && items.iter().all(|i| {
                        i.as_str()
                            .is_some_and(|s| !blank(s) && s.chars().count() <= HOTWORD_MAX)
                    }) => {}
            Some(_) => self.errors.push(field(
                "/hotwords",
                format!(
                    "hotwords must be a list of at most {HOTWORDS_MAX} words of 1-{HOTWORD_MAX} characters"
                ),
                "e.g. [\"Deskmate\", \"CDISC\"]",
            )),
        }
    }

    fn done(self) -> Vec<FieldError> {
        self.errors
    }
}

/// Runs `checks` on a body of type `T` (`also`: fields taken beside the declared ones).
fn check<T: PartialSchema>(
    body: &Value,
    also: &[&str],
    checks: impl FnOnce(&mut Fields),
) -> Vec<FieldError> {
    match Fields::new::<T>(body, also) {
        Ok(mut fields) => {
            checks(&mut fields);
            fields.done()
        }
        Err(errors) => errors,
    }
}

impl Body for NewLlmModel {
    fn check(body: &Value) -> Vec<FieldError> {
        check::<Self>(body, &[], |f| {
            f.llm_source();
            f.llm();
            f.server();
        })
    }
}

impl Body for LlmModelChange {
    fn check(body: &Value) -> Vec<FieldError> {
        check::<Self>(body, &["id"], |f| {
            f.common(false);
            f.llm();
            f.server();
        })
    }
}

impl Body for NewAsrModel {
    fn check(body: &Value) -> Vec<FieldError> {
        check::<Self>(body, &[], |f| {
            f.common(true);
            f.asr();
        })
    }
}

impl Body for AsrModelChange {
    fn check(body: &Value) -> Vec<FieldError> {
        check::<Self>(body, &["id"], |f| {
            f.common(false);
            f.asr();
        })
    }
}

/// A change may send the model's id back (as read from a GET), but not another one.
fn changed_id(sent: Option<&str>, id: &str) -> Result<(), Vec<FieldError>> {
    match sent {
        Some(other) if other != id => {
            Err(vec![field("/id", "the id cannot change", "leave id out")])
        }
        _ => Ok(()),
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
        "context_size" => "8192",
        "threads" => "4",
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

/// A new LLM model's record and key, from its body (defaults for what it leaves out). A
/// model from a file gets its settings when the file is read
/// ([`crate::model_files::prepare`]): here the sent ones, or 0 for "choose".
pub fn new_llm(input: NewLlmModel) -> (LlmModel, KeyChange) {
    // A model run from a file samples as the bundled local model does unless told
    // otherwise: greedy, its most likely tool and argument, and replies of at most 512
    // tokens.
    let local = input.file.is_some();
    let file = input.file.map(|path| ModelFile {
        path,
        context_size: input.context_size.map_or(0, whole),
        threads: input.threads.map_or(0, whole),
    });
    let model = LlmModel {
        id: input.id.unwrap_or_else(|| new_id("llm")),
        name: input.name.trim().to_string(),
        base_url: input.base_url.map_or_else(
            || crate::model_files::PLACEHOLDER_URL.to_string(),
            |u| u.trim().to_string(),
        ),
        model: input
            .model
            .map(|m| m.trim().to_string())
            .unwrap_or_default(),
        api_key_ref: None,
        temperature: input.temperature.unwrap_or(if local { 0.0 } else { 0.7 }),
        top_p: input.top_p.unwrap_or(if local { 0.9 } else { 1.0 }),
        max_tokens: input
            .max_tokens
            .map_or(if local { 512 } else { 1024 }, whole),
        streaming: input.streaming.unwrap_or(true),
        is_default: input.is_default.unwrap_or(false),
        managed: file
            .as_ref()
            .map(|_| crate::model_files::LLAMA_SERVER.to_string()),
        file,
        created_at: String::new(),
        updated_at: String::new(),
    };
    (model, KeyChange::of(input.api_key))
}

/// An LLM model's record with a change applied (what it leaves out is kept), and the key.
pub fn changed_llm(
    existing: &LlmModel,
    change: LlmModelChange,
) -> Result<(LlmModel, KeyChange), Vec<FieldError>> {
    changed_id(change.id.as_deref(), &existing.id)?;
    let mut model = existing.clone();
    replace_text(&mut model.name, change.name);
    replace_text(&mut model.base_url, change.base_url);
    replace_text(&mut model.model, change.model);
    model.temperature = change.temperature.unwrap_or(model.temperature);
    model.top_p = change.top_p.unwrap_or(model.top_p);
    model.max_tokens = change.max_tokens.map_or(model.max_tokens, whole);
    model.streaming = change.streaming.unwrap_or(model.streaming);
    model.is_default = change.is_default.unwrap_or(model.is_default);
    match &mut model.file {
        Some(file) => {
            file.context_size = change.context_size.map_or(file.context_size, whole);
            file.threads = change.threads.map_or(file.threads, whole);
        }
        None if change.context_size.is_some() || change.threads.is_some() => {
            let key = if change.context_size.is_some() {
                "context_size"
            } else {
                "threads"
            };
            return Err(vec![field(
                &format!("/{key}"),
                format!(
                    "{key} is a setting of a model Deskmate runs from a file, and this one is not"
                ),
                format!("leave {key} out"),
            )]);
        }
        None => {}
    }
    model.updated_at = String::new();
    Ok((model, KeyChange::of(change.api_key)))
}

/// A new ASR model's record and key, from its body.
pub fn new_asr(input: NewAsrModel) -> (AsrModel, KeyChange) {
    let model = AsrModel {
        id: input.id.unwrap_or_else(|| new_id("asr")),
        name: input.name.trim().to_string(),
        base_url: input.base_url.trim().to_string(),
        model: input.model.trim().to_string(),
        api_key_ref: None,
        language: input.language.flatten(),
        hotwords: input.hotwords.map(|w| unique(&w)).unwrap_or_default(),
        is_default: input.is_default.unwrap_or(false),
        managed: None,
        created_at: String::new(),
        updated_at: String::new(),
    };
    (model, KeyChange::of(input.api_key))
}

/// An ASR model's record with a change applied, and the key.
pub fn changed_asr(
    existing: &AsrModel,
    change: AsrModelChange,
) -> Result<(AsrModel, KeyChange), Vec<FieldError>> {
    changed_id(change.id.as_deref(), &existing.id)?;
    let mut model = existing.clone();
    replace_text(&mut model.name, change.name);
    replace_text(&mut model.base_url, change.base_url);
    replace_text(&mut model.model, change.model);
    if let Some(language) = change.language {
        model.language = language;
    }
    if let Some(words) = change.hotwords {
        model.hotwords = unique(&words);
    }
    model.is_default = change.is_default.unwrap_or(model.is_default);
    model.updated_at = String::new();
    Ok((model, KeyChange::of(change.api_key)))
}

fn replace_text(field: &mut String, sent: Option<String>) {
    if let Some(text) = sent {
        *field = text.trim().to_string();
    }
}

/// A whole number read as a float (`1024.0` is 1024); the checks refused fractions.
fn whole(n: f64) -> i64 {
    n as i64
}

/// Reads an LLM model's body: a whole model when `existing` is `None`, else the fields to
/// change. Every wrong field is its own error.
pub fn llm_input(
    input: &Value,
    existing: Option<&LlmModel>,
) -> Result<(LlmModel, KeyChange), Vec<FieldError>> {
    match existing {
        None => NewLlmModel::read(input).map(new_llm),
        Some(existing) => changed_llm(existing, LlmModelChange::read(input)?),
    }
}

/// Reads an ASR model's body (see [`llm_input`]).
pub fn asr_input(
    input: &Value,
    existing: Option<&AsrModel>,
) -> Result<(AsrModel, KeyChange), Vec<FieldError>> {
    match existing {
        None => NewAsrModel::read(input).map(new_asr),
        Some(existing) => changed_asr(existing, AsrModelChange::read(input)?),
    }
}

/// Trimmed, non-empty, first of each kept in order.
fn unique(words: &[String]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for word in words.iter().map(|w| w.trim()).filter(|w| !w.is_empty()) {
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

/// A kind of model (LLM, ASR) as the service handles it: what differs between kinds —
/// its bodies, its view, its secret's prefix, its name in errors — and nothing else;
/// every operation is written once, in [`Deskmate`]'s generic methods. A new kind (a
/// TTS server, an embedding model) is a new implementation, not a copy.
pub trait ModelKind: ModelRecord + Clone {
    /// A create's body.
    type New: Body;
    /// An update's body.
    type Change: Body;
    /// How the API shows it.
    type View;
    /// The prefix of its ids and of its API key's secret name (`llm`).
    const PREFIX: &'static str;
    /// Its name in a not-found error (`LLM Model`).
    const WHAT: &'static str;
    /// The record and key a create's body asks for (defaults for what it leaves out).
    fn new(input: Self::New) -> (Self, KeyChange);
    /// This record with a change applied (what it leaves out is kept), and the key.
    fn changed(&self, change: Self::Change) -> Result<(Self, KeyChange), Vec<FieldError>>;
    /// The view of this record whose server does `serving`.
    fn view(&self, serving: Serving) -> Self::View;
    /// The secret holding its API key.
    fn api_key_ref(&self) -> Option<&str>;
    /// Sets the secret holding its API key.
    fn set_api_key_ref(&mut self, name: Option<String>);
    /// The program that runs it when Deskmate does.
    fn managed(&self) -> Option<&str>;
    /// Checks what a body cannot say alone and fills in what depends on it (a model
    /// file's contents), given the other models of its kind; nothing by default.
    fn prepare(&mut self, _others: &[Self]) -> Result<(), Vec<FieldError>> {
        Ok(())
    }
    /// Whether Deskmate runs it from a file on this computer (its server is then the
    /// service's own: restarted on a change, stopped on removal).
    fn runs_from_file(&self) -> bool {
        false
    }
    /// What its server does, when Deskmate runs it in a way of its own kind (a model
    /// file's server); `None` for the shared rule.
    fn own_serving(&self, _deskmate: &Deskmate) -> Option<Serving> {
        None
    }
}

/// The accessors of the fields every model record has, alike for every kind.
macro_rules! shared_fields {
    () => {
        fn api_key_ref(&self) -> Option<&str> {
            self.api_key_ref.as_deref()
        }

        fn set_api_key_ref(&mut self, name: Option<String>) {
            self.api_key_ref = name;
        }

        fn managed(&self) -> Option<&str> {
            self.managed.as_deref()
        }
    };
}

impl ModelKind for LlmModel {
    type New = NewLlmModel;
    type Change = LlmModelChange;
    type View = LlmModelView;
    const PREFIX: &'static str = "llm";
    const WHAT: &'static str = "LLM Model";

    fn new(input: NewLlmModel) -> (Self, KeyChange) {
        new_llm(input)
    }

    fn changed(&self, change: LlmModelChange) -> Result<(Self, KeyChange), Vec<FieldError>> {
        changed_llm(self, change)
    }

    fn view(&self, serving: Serving) -> LlmModelView {
        LlmModelView::new(self, serving)
    }

    fn prepare(&mut self, others: &[Self]) -> Result<(), Vec<FieldError>> {
        crate::model_files::prepare(self, others)
    }

    fn runs_from_file(&self) -> bool {
        self.file.is_some()
    }

    fn own_serving(&self, deskmate: &Deskmate) -> Option<Serving> {
        let file = self.file.as_ref()?;
        Some(deskmate.file_serving(&self.id, file))
    }

    shared_fields!();
}

impl ModelKind for AsrModel {
    type New = NewAsrModel;
    type Change = AsrModelChange;
    type View = AsrModelView;
    const PREFIX: &'static str = "asr";
    const WHAT: &'static str = "ASR Model";

    fn new(input: NewAsrModel) -> (Self, KeyChange) {
        new_asr(input)
    }

    fn changed(&self, change: AsrModelChange) -> Result<(Self, KeyChange), Vec<FieldError>> {
        changed_asr(self, change)
    }

    fn view(&self, serving: Serving) -> AsrModelView {
        AsrModelView::new(self, serving)
    }

    shared_fields!();
}

fn not_found<M: ModelKind>(id: &str) -> ServiceError {
    ServiceError::NotFound {
        what: M::WHAT,
        id: id.to_string(),
    }
}

fn taken(id: &str) -> ServiceError {
    ServiceError::Taken(vec![field(
        "/id",
        format!("a model with id '{id}' exists"),
        "choose another id, or update that model",
    )])
}

impl Deskmate {
    /// Applies an API-key change; returns the secret reference to store.
    fn apply_key<M: ModelKind>(
        &self,
        id: &str,
        change: &KeyChange,
        current: Option<String>,
    ) -> Result<Option<String>, ServiceError> {
        let secrets = &self.stored()?.secrets;
        let name = api_key_secret(M::PREFIX, id);
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

    fn model_view<M: ModelKind>(&self, m: &M) -> M::View {
        let serving = m
            .own_serving(self)
            .unwrap_or_else(|| self.serving(m.id(), m.managed()));
        m.view(serving)
    }

    /// Every model of a kind (keys masked), the default first.
    pub fn models<M: ModelKind>(&self) -> Result<Vec<M::View>, ServiceError> {
        Ok(self
            .stored()?
            .store
            .list_models::<M>()?
            .iter()
            .map(|m| self.model_view(m))
            .collect())
    }

    /// A model as stored; `None` asks for the default (else the first).
    pub fn model_record<M: ModelKind>(&self, id: Option<&str>) -> Result<M, ServiceError> {
        let store = &self.stored()?.store;
        match id {
            Some(id) => store.model::<M>(id)?.ok_or_else(|| not_found::<M>(id)),
            None => store
                .list_models::<M>()?
                .into_iter()
                .next()
                .ok_or_else(|| not_found::<M>("default")),
        }
    }

    /// One model (key masked).
    pub fn model<M: ModelKind>(&self, id: &str) -> Result<M::View, ServiceError> {
        let model = self.model_record::<M>(Some(id))?;
        Ok(self.model_view(&model))
    }

    /// Creates a model: a used id is refused (409) and nothing changes, its key
    /// included. The insert decides who wins a race for an id; only the winner then
    /// writes its key.
    pub fn create_model<M: ModelKind>(&self, input: M::New) -> Result<M::View, ServiceError> {
        let store = &self.stored()?.store;
        let (mut model, key) = M::new(input);
        model
            .prepare(&store.list_models::<M>()?)
            .map_err(ServiceError::Invalid)?;
        let id = model.id().to_string();
        if let KeyChange::Set(_) = key {
            model.set_api_key_ref(Some(api_key_secret(M::PREFIX, &id)));
        }
        let created = match store.create_model(&model) {
            Ok(created) => created,
            Err(deskmate_store::Error::Taken { .. }) => return Err(taken(&id)),
            Err(deskmate_store::Error::Duplicate { column, .. }) => {
                return Err(ServiceError::Invalid(vec![field(
                    &format!("/{column}"),
                    format!("another model has this {column}"),
                    "use that model, or remove it first",
                )]));
            }
            Err(e) => return Err(e.into()),
        };
        if let Err(e) = self.apply_key::<M>(&id, &key, None) {
            // A model whose key could not be kept is not half-created.
            store.delete_model::<M>(&id)?;
            return Err(e);
        }
        Ok(self.model_view(&created))
    }

    /// Changes the fields a model's input names; a model deleted meanwhile is not
    /// written back (404).
    pub fn update_model<M: ModelKind>(
        &self,
        id: &str,
        change: M::Change,
    ) -> Result<M::View, ServiceError> {
        let store = &self.stored()?.store;
        let existing = self.model_record::<M>(Some(id))?;
        let (mut model, key) = existing.changed(change).map_err(ServiceError::Invalid)?;
        if model.runs_from_file() {
            model
                .prepare(&store.list_models::<M>()?)
                .map_err(ServiceError::Invalid)?;
        }
        let current = existing.api_key_ref().map(str::to_string);
        model.set_api_key_ref(self.apply_key::<M>(id, &key, current)?);
        match store.update_model(&model)? {
            Some(updated) => {
                if updated.runs_from_file() {
                    // Its server runs with the old settings: it starts again with these
                    // on next use (now, if it is the default).
                    self.stop_file_model(id);
                    if updated.is_default() {
                        self.start_file_model(id);
                    }
                }
                Ok(self.model_view(&updated))
            }
            None => {
                if key != KeyChange::Keep {
                    self.apply_key::<M>(id, &KeyChange::Remove, None)?;
                }
                Err(not_found::<M>(id))
            }
        }
    }

    /// Deletes a model and its key.
    pub fn delete_model<M: ModelKind>(&self, id: &str) -> Result<(), ServiceError> {
        let store = &self.stored()?.store;
        let from_file = store.model::<M>(id)?.is_some_and(|m| m.runs_from_file());
        if !store.delete_model::<M>(id)? {
            return Err(not_found::<M>(id));
        }
        if from_file {
            self.stop_file_model(id);
        }
        self.apply_key::<M>(id, &KeyChange::Remove, None)?;
        Ok(())
    }

    /// Transcribes speech (a WAV's bytes) with the default ASR model: in the model's
    /// language, else `language`; `hints` join the model's hotwords.
    pub async fn transcribe(
        &self,
        audio: Vec<u8>,
        language: Option<&str>,
        hints: &[String],
    ) -> Result<String, ServiceError> {
        let model = self.model_record::<AsrModel>(None)?;
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
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A model id of any allowed length (64 characters at most) gets a valid secret name
    /// for its API key, its own (found by a 64-character id with schemathesis: the name
    /// was over the limit and the create answered 500).
    #[test]
    fn every_allowed_id_has_a_valid_secret_name_of_its_own() {
        for kind in ["llm", "asr"] {
            for len in [1, 52, 53, 63, 64] {
                let id = "m".repeat(len);
                let name = api_key_secret(kind, &id);
                assert!(crate::secrets::valid_name(&name), "{len}: {name}");
                assert!(name.starts_with(&format!("{kind}.")), "{name}");
            }
            assert_eq!(
                api_key_secret(kind, "local"),
                format!("{kind}.local.api_key")
            );
            let (a, b) = ("x".repeat(63) + "a", "x".repeat(63) + "b");
            assert_ne!(api_key_secret(kind, &a), api_key_secret(kind, &b));
        }
    }
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
