//! The bodies of the model endpoints as API clients see them: the OpenAPI document is
//! generated from these types, and the rules they declare are the constants `models.rs`
//! checks a body against (field by field, so that every wrong field gets its own error
//! with a hint). What the document declares valid is what the server takes.

use serde::Deserialize;
use utoipa::openapi::RefOr;
use utoipa::openapi::schema::{ArrayBuilder, ObjectBuilder, Schema, Type};
use utoipa::{PartialSchema, ToSchema};

/// The part of a URL the server takes up to its path (see [`BASE_URL_PATTERN`]).
macro_rules! url_up_to_path {
    () => {
        concat!(
            r"^https?://(([A-Za-z0-9-]+\.)*[A-Za-z][A-Za-z0-9-]*",
            r"|((25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])\.){3}(25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])",
            r"|\[::1\])",
            r"(:(6553[0-5]|655[0-2][0-9]|65[0-4][0-9]{2}|6[0-4][0-9]{3}|[1-5][0-9]{4}|[1-9][0-9]{0,3}))?",
            r"(/[A-Za-z0-9._~-]*)*"
        )
    };
}
pub(crate) use url_up_to_path;

/// The base URLs the server takes: http(s); a host name whose last label starts with a
/// letter, an IPv4 address or `[::1]`; a port from 1 to 65535; a path of URL-safe
/// characters; no user, query or fragment.
pub const BASE_URL_PATTERN: &str = concat!(url_up_to_path!(), "$");

/// Longest base URL, in characters.
pub const BASE_URL_MAX: usize = 2048;
/// A model id: made up (`llm-1a2b3c4d`) when a new model has none.
pub const ID_PATTERN: &str = "^[a-z0-9_-]{1,64}$";
/// Longest name shown in the app, in characters.
pub const NAME_MAX: usize = 100;
/// Longest model name at its server, in characters.
pub const MODEL_MAX: usize = 200;
/// Longest API key, in characters; a key is one line.
pub const API_KEY_MAX: usize = 8192;
/// Longest hotword, in characters, and most hotwords.
pub const HOTWORD_MAX: usize = 64;
pub const HOTWORDS_MAX: usize = 100;
/// Not only white space (JSON Schema's `\S`; see [`blank`]).
pub(crate) const NOT_BLANK: &str = r"\S";

/// The languages an ASR model may be told: ISO 639-1 codes (and `yue`, `haw`), lower
/// case.
pub const LANGUAGES: [&str; 100] = [
    "af", "am", "ar", "as", "az", "ba", "be", "bg", "bn", "bo", "br", "bs", "ca", "cs", "cy", "da",
    "de", "el", "en", "es", "et", "eu", "fa", "fi", "fo", "fr", "gl", "gu", "ha", "he", "hi", "hr",
    "ht", "hu", "hy", "id", "is", "it", "ja", "jw", "ka", "kk", "km", "kn", "ko", "la", "lb", "ln",
    "lo", "lt", "lv", "mg", "mi", "mk", "ml", "mn", "mr", "ms", "mt", "my", "ne", "nl", "nn", "no",
    "oc", "pa", "pl", "ps", "pt", "ro", "ru", "sa", "sd", "si", "sk", "sl", "sn", "so", "sq", "sr",
    "su", "sv", "sw", "ta", "te", "tg", "th", "tk", "tl", "tr", "tt", "uk", "ur", "uz", "vi", "yi",
    "yo", "zh", "yue", "haw",
];

/// Whether `text` has nothing but white space, as the Python of API test tools reads
/// the declared `\S` (schemathesis generates from the document with Python's `re`):
/// Unicode white space and the separators U+001C–U+001F.
pub(crate) fn blank(text: &str) -> bool {
    text.chars()
        .all(|c| c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c))
}

/// Whether `url` is a base URL the server takes (see [`BASE_URL_PATTERN`]).
pub(crate) fn base_url_ok(url: &str) -> bool {
    static PATTERN: std::sync::LazyLock<regex::Regex> =
        std::sync::LazyLock::new(|| compiled(BASE_URL_PATTERN));
    url.chars().count() <= BASE_URL_MAX && PATTERN.is_match(url)
}

/// A pattern of this module, compiled; they are constants, tested to compile.
pub(crate) fn compiled(pattern: &str) -> regex::Regex {
    regex::Regex::new(pattern).unwrap_or_else(|e| panic!("{pattern}: {e}"))
}

pub(crate) fn text(min: usize, max: usize, pattern: &str) -> ObjectBuilder {
    ObjectBuilder::new()
        .schema_type(Type::String)
        .min_length((min > 0).then_some(min))
        .max_length(Some(max))
        .pattern(Some(pattern))
}

/// Declares a type whose schema is built from rule constants (for `value_type`).
macro_rules! string_schema {
    ($(#[$doc:meta])* $name:ident => $schema:expr) => {
        $(#[$doc])*
        #[derive(Debug)]
        pub struct $name;
        impl PartialSchema for $name {
            fn schema() -> RefOr<Schema> {
                $schema.into()
            }
        }
        impl ToSchema for $name {}
    };
}

string_schema!(
    /// A model id (see [`ID_PATTERN`]).
    ModelId => text(0, 64, ID_PATTERN)
);
string_schema!(
    /// The name shown in the app.
    ModelTitle => text(1, NAME_MAX, NOT_BLANK)
);
string_schema!(
    /// The model's name at its server.
    ModelName => text(1, MODEL_MAX, NOT_BLANK)
);
string_schema!(
    /// An OpenAI-style base URL, e.g. `http://127.0.0.1:8080/v1`.
    BaseUrl => text(0, BASE_URL_MAX, BASE_URL_PATTERN)
);
string_schema!(
    /// An API key: one line, not only white space; `""` removes the stored key, `••••`
    /// keeps it.
    ApiKey => text(0, API_KEY_MAX, r"^([^\r\n]*\S[^\r\n]*)?$")
);
string_schema!(
    /// The spoken language, an ISO 639-1 code.
    Language => ObjectBuilder::new().schema_type(Type::String).enum_values(Some(LANGUAGES))
);
string_schema!(
    /// Words the recognizer should expect (names, jargon).
    Hotwords => ArrayBuilder::new()
        .items(text(1, HOTWORD_MAX, NOT_BLANK))
        .max_items(Some(HOTWORDS_MAX))
);

/// Longest model file path, in characters.
pub const FILE_MAX: usize = 4096;
/// The context sizes a model file may be run with, in tokens (a turn's first request
/// alone is about 2,500).
pub const CONTEXT_MIN: f64 = deskmate_llm::gguf::MIN_CONTEXT as f64;
pub const CONTEXT_MAX: f64 = 1_048_576.0;
/// The threads a model file's server may use.
pub const THREADS_MAX: f64 = 256.0;

string_schema!(
    /// The absolute path of a GGUF model file on this computer, e.g.
    /// `/home/me/models/qwen2.5-7b-instruct-q4_k_m.gguf`.
    ModelFilePath => text(2, FILE_MAX, "^/")
);

/// An LLM model to add: served elsewhere (`base_url` and `model`), or run by Deskmate from
/// a GGUF file on this computer (`file`, instead of `base_url`).
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewLlmModel {
    /// Made up when left out.
    #[schema(value_type = ModelId, required = false)]
    pub id: Option<String>,
    #[schema(value_type = ModelTitle)]
    pub name: String,
    /// Required unless `file` is sent; not with `file`.
    #[schema(value_type = BaseUrl, required = false)]
    pub base_url: Option<String>,
    /// Required with `base_url`; with `file`, the name requests carry (default: from the
    /// file's name).
    #[schema(value_type = ModelName, required = false)]
    pub model: Option<String>,
    /// A GGUF file Deskmate runs with its own llama-server: checked before anything is
    /// stored (it must exist, be readable, be GGUF, fit in free memory and not be used by
    /// another model).
    #[schema(value_type = ModelFilePath, required = false)]
    pub file: Option<String>,
    /// With `file`: the context size in tokens (default: what the file was trained for,
    /// at most 8192 and what free memory holds).
    #[schema(value_type = Option<i64>, nullable = false, minimum = 4096, maximum = 1048576)]
    pub context_size: Option<f64>,
    /// With `file`: CPU threads (default: the computer's cores).
    #[schema(value_type = Option<i64>, nullable = false, minimum = 1, maximum = 256)]
    pub threads: Option<f64>,
    /// Kept in the OS keyring and read back as `••••`; `null` or `""` for none.
    #[schema(value_type = Option<ApiKey>)]
    #[serde(default, deserialize_with = "crate::body::present")]
    pub api_key: Option<Option<String>>,
    /// Sampling temperature (default 0.7; 0 for a model from a file).
    #[schema(nullable = false, minimum = 0.0, maximum = 2.0)]
    pub temperature: Option<f64>,
    /// Nucleus sampling (default 1; 0.9 for a model from a file).
    #[schema(nullable = false, minimum = 0.01, maximum = 1.0)]
    pub top_p: Option<f64>,
    /// Most tokens of a reply (default 1024; 512 for a model from a file).
    #[schema(value_type = Option<i64>, nullable = false, minimum = 1, maximum = 131072)]
    pub max_tokens: Option<f64>,
    /// Stream replies (default true).
    #[schema(nullable = false)]
    pub streaming: Option<bool>,
    /// Make it the default model (default false).
    #[schema(nullable = false)]
    pub is_default: Option<bool>,
}

/// The fields of an LLM model to change; the others keep their values.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct LlmModelChange {
    /// Sent back unchanged from a GET: taken, not declared (it cannot change).
    #[schema(ignore)]
    pub id: Option<String>,
    #[schema(value_type = ModelTitle, required = false)]
    pub name: Option<String>,
    #[schema(value_type = BaseUrl, required = false)]
    pub base_url: Option<String>,
    #[schema(value_type = ModelName, required = false)]
    pub model: Option<String>,
    /// A new key; `••••` keeps the stored one, `null` or `""` removes it.
    #[schema(value_type = Option<ApiKey>)]
    #[serde(default, deserialize_with = "crate::body::present")]
    pub api_key: Option<Option<String>>,
    #[schema(nullable = false, minimum = 0.0, maximum = 2.0)]
    pub temperature: Option<f64>,
    #[schema(nullable = false, minimum = 0.01, maximum = 1.0)]
    pub top_p: Option<f64>,
    #[schema(value_type = Option<i64>, nullable = false, minimum = 1, maximum = 131072)]
    pub max_tokens: Option<f64>,
    #[schema(nullable = false)]
    pub streaming: Option<bool>,
    #[schema(nullable = false)]
    pub is_default: Option<bool>,
    /// For a model run from a file: the context size in tokens (its server restarts).
    #[schema(value_type = Option<i64>, nullable = false, minimum = 4096, maximum = 1048576)]
    pub context_size: Option<f64>,
    /// For a model run from a file: CPU threads (its server restarts).
    #[schema(value_type = Option<i64>, nullable = false, minimum = 1, maximum = 256)]
    pub threads: Option<f64>,
}

/// An ASR (speech-to-text) model to add.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewAsrModel {
    /// Made up when left out.
    #[schema(value_type = ModelId, required = false)]
    pub id: Option<String>,
    #[schema(value_type = ModelTitle)]
    pub name: String,
    #[schema(value_type = BaseUrl)]
    pub base_url: String,
    #[schema(value_type = ModelName)]
    pub model: String,
    #[schema(value_type = Option<ApiKey>)]
    #[serde(default, deserialize_with = "crate::body::present")]
    pub api_key: Option<Option<String>>,
    /// `null` lets the server detect the language.
    #[schema(value_type = Option<Language>)]
    #[serde(default, deserialize_with = "crate::body::present")]
    pub language: Option<Option<String>>,
    #[schema(value_type = Hotwords, required = false)]
    pub hotwords: Option<Vec<String>>,
    #[schema(nullable = false)]
    pub is_default: Option<bool>,
}

/// The fields of an ASR model to change; the others keep their values.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct AsrModelChange {
    /// Sent back unchanged from a GET: taken, not declared (it cannot change).
    #[schema(ignore)]
    pub id: Option<String>,
    #[schema(value_type = ModelTitle, required = false)]
    pub name: Option<String>,
    #[schema(value_type = BaseUrl, required = false)]
    pub base_url: Option<String>,
    #[schema(value_type = ModelName, required = false)]
    pub model: Option<String>,
    #[schema(value_type = Option<ApiKey>)]
    #[serde(default, deserialize_with = "crate::body::present")]
    pub api_key: Option<Option<String>>,
    #[schema(value_type = Option<Language>)]
    #[serde(default, deserialize_with = "crate::body::present")]
    pub language: Option<Option<String>>,
    #[schema(value_type = Hotwords, required = false)]
    pub hotwords: Option<Vec<String>>,
    #[schema(nullable = false)]
    pub is_default: Option<bool>,
}

/// `T`'s declared schema as one JSON Schema document (its references inlined as
/// `$defs`), the way an API client reads it.
#[cfg(test)]
pub(crate) fn declared<T: ToSchema>() -> jsonschema::Validator {
    use serde_json::{Value, json};
    let mut parts = Vec::new();
    T::schemas(&mut parts);
    let defs: serde_json::Map<String, Value> = parts
        .into_iter()
        .map(|(name, schema)| (name, json!(schema)))
        .collect();
    let mut root = json!(T::schema());
    root["$defs"] = Value::Object(defs);
    let text = root
        .to_string()
        .replace("#/components/schemas/", "#/$defs/");
    let root: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}"));
    jsonschema::validator_for(&root).unwrap_or_else(|e| panic!("{e}: {root}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::models::{asr_input, llm_input};
    use serde_json::{Value, json};

    const URLS: [(&str, bool); 16] = [
        ("http://127.0.0.1:8080/v1", true),
        ("https://api.openai.com/v1", true),
        ("http://localhost:11434", true),
        ("http://[::1]:8080/v1/", true),
        ("http://my-box.lan:65535/a_b/c~d.e", true),
        ("http://host:0/v1", false),
        ("http://host:65536/v1", false),
        ("http://256.1.1.1/v1", false),
        ("http://10.0.0/v1", false),
        ("http://a.1/v1", false),
        ("ftp://host/v1", false),
        ("http://host/v1?x=1", false),
        ("http://user@host/v1", false),
        ("http://host/v 1", false),
        ("http://[::2]/v1", false),
        (" http://host/v1", false),
    ];

    #[test]
    fn a_body_is_valid_as_declared_exactly_when_the_server_takes_it() {
        let llm = declared::<NewLlmModel>();
        let asr = declared::<NewAsrModel>();
        let base = json!({"name": "Local", "base_url": "http://127.0.0.1:8080/v1", "model": "m"});
        let with = |key: &str, value: Value| {
            let mut body = base.clone();
            body[key] = value;
            body
        };
        let mut bodies: Vec<Value> = URLS
            .iter()
            .map(|(u, _)| with("base_url", json!(u)))
            .collect();
        for (key, value) in [
            ("name", json!("   ")),
            ("name", json!("x".repeat(NAME_MAX))),
            ("name", json!("x".repeat(NAME_MAX + 1))),
            ("name", json!(" padded ")),
            ("model", Value::Null),
            ("api_key", Value::Null),
            ("api_key", json!("")),
            ("api_key", json!("  ")),
            ("api_key", json!("sk-1\nsk-2")),
            ("api_key", json!("键".repeat(API_KEY_MAX))),
            ("temperature", json!(2.5)),
            ("top_p", json!(0)),
            ("max_tokens", json!(1.5)),
            ("max_tokens", json!(4096)),
            ("streaming", json!("yes")),
            ("id", json!("Upper")),
            ("id", json!("my-model_1")),
            ("extra", json!(1)),
        ] {
            bodies.push(with(key, value));
        }
        let mut nameless = base.clone();
        nameless.as_object_mut().map(|o| o.remove("name"));
        bodies.push(nameless);
        // A model from a file: `file` instead of `base_url`, `model` then optional.
        let file = json!({"name": "Mine", "file": "/home/me/models/m.gguf"});
        bodies.push(file.clone());
        for (key, value) in [
            ("file", json!("models/m.gguf")),
            ("file", json!("/")),
            ("file", json!(format!("/{}", "x".repeat(FILE_MAX)))),
            ("model", json!("mine")),
            ("context_size", json!(4096)),
            ("context_size", json!(2048)),
            ("context_size", json!(4096.5)),
            ("threads", json!(0)),
            ("threads", json!(8)),
        ] {
            let mut body = file.clone();
            body[key] = value;
            bodies.push(body);
        }
        for body in &bodies {
            let server = llm_input(body, None).is_ok();
            assert_eq!(llm.is_valid(body), server, "LLM body {body}");
        }
        // What the document cannot state, as its fields' descriptions say: one of
        // `base_url` and `file` is needed, not both, and `model` goes with `base_url`.
        // The server refuses each at the field.
        let without = |key: &str| {
            let mut body = base.clone();
            body.as_object_mut().map(|o| o.remove(key));
            body
        };
        let mut both = file.clone();
        both["base_url"] = json!("http://127.0.0.1:8080/v1");
        for (body, at) in [
            (without("base_url"), "/base_url"),
            (both, "/base_url"),
            (without("model"), "/model"),
        ] {
            let errors = llm_input(&body, None).err().unwrap_or_default();
            assert_eq!(errors.first().map(|e| e.path.as_str()), Some(at), "{body}");
        }
        for (key, value) in [
            ("language", json!("zh")),
            ("language", json!("ZH")),
            ("language", json!("xx")),
            ("language", Value::Null),
            ("hotwords", json!(["Deskmate", "CDISC"])),
            ("hotwords", json!(["  "])),
            ("hotwords", json!("Deskmate, CDISC")),
            ("hotwords", json!(vec!["w"; HOTWORDS_MAX + 1])),
            ("temperature", json!(0.5)),
        ] {
            let body = with(key, value);
            let server = asr_input(&body, None).is_ok();
            assert_eq!(asr.is_valid(&body), server, "ASR body {body}");
        }
        for (url, ok) in URLS {
            assert_eq!(base_url_ok(url), ok, "{url}");
        }
    }
}
