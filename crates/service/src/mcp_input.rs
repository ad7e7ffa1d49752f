//! The bodies of the MCP server endpoints as API clients see them: a Claude Desktop
//! entry plus its name, either a program Deskmate starts or the URL of a running server.
//! The schemas are built from the rule constants `mcp_servers.rs` checks a body against
//! (field by field), so what the document declares valid is what the server takes.

use indexmap::IndexMap;
use serde::Deserialize;
use utoipa::openapi::RefOr;
use utoipa::openapi::schema::{
    AdditionalProperties, ArrayBuilder, ObjectBuilder, OneOfBuilder, Schema, SchemaType, Type,
};
use utoipa::{PartialSchema, ToSchema};

use crate::model_input::{NOT_BLANK, compiled, text, url_up_to_path};

/// A server's name: it prefixes its tools' ids (`files.read_file`).
pub const NAME_PATTERN: &str = "^[a-z0-9_]{1,24}$";
/// Longest command or URL, in characters.
pub const TEXT_MAX: usize = 2000;
/// Most arguments of a command.
pub const ARGS_MAX: usize = 64;
/// An environment variable's name.
pub const ENV_NAME_PATTERN: &str = "^[A-Za-z_][A-Za-z0-9_]{0,63}$";
/// A header's name.
pub const HEADER_NAME_PATTERN: &str = "^[A-Za-z0-9_-]{1,64}$";
/// The URL of a running server: as a model's base URL, and a query may follow.
pub const URL_PATTERN: &str = concat!(url_up_to_path!(), r"(\?[A-Za-z0-9._~=&%+-]*)?$");
/// What an env or header value reads back as; sent back, it keeps the stored value.
pub const MASK: &str = "••••";

/// Whether `url` is a server URL the server takes (see [`URL_PATTERN`]).
pub(crate) fn url_ok(url: &str) -> bool {
    static PATTERN: std::sync::LazyLock<regex::Regex> =
        std::sync::LazyLock::new(|| compiled(URL_PATTERN));
    url.chars().count() <= TEXT_MAX && PATTERN.is_match(url)
}

/// Whether `name` is an environment variable's name the server takes.
pub(crate) fn env_name_ok(name: &str) -> bool {
    static PATTERN: std::sync::LazyLock<regex::Regex> =
        std::sync::LazyLock::new(|| compiled(ENV_NAME_PATTERN));
    PATTERN.is_match(name)
}

/// Whether `name` is a header's name the server takes.
pub(crate) fn header_name_ok(name: &str) -> bool {
    static PATTERN: std::sync::LazyLock<regex::Regex> =
        std::sync::LazyLock::new(|| compiled(HEADER_NAME_PATTERN));
    PATTERN.is_match(name)
}

/// `builder`'s type, or `null`.
fn or_null(builder: ObjectBuilder, kind: Type) -> ObjectBuilder {
    builder.schema_type(SchemaType::from_iter([kind, Type::Null]))
}

/// Names and secret values (`env` or `headers`): a value is text, or `••••` to keep the
/// stored one when a server is changed (`keep`).
fn secrets(name_pattern: &str, keep: bool) -> ObjectBuilder {
    let value = if keep {
        text(1, usize::MAX, NOT_BLANK).max_length(None)
    } else {
        // A new server has no stored value to keep.
        text(1, usize::MAX, "^(?!••••$)[\\s\\S]*\\S").max_length(None)
    };
    or_null(ObjectBuilder::new(), Type::Object)
        .property_names(Some(text(1, 64, name_pattern)))
        .additional_properties(Some(AdditionalProperties::from(RefOr::T(Schema::Object(
            value.build(),
        )))))
}

/// A field the other kind of entry has, which this kind takes only as `null`.
fn null() -> ObjectBuilder {
    ObjectBuilder::new().schema_type(Type::Null)
}

/// Any value, ignored.
fn ignored(what: &str) -> ObjectBuilder {
    ObjectBuilder::new()
        .schema_type(SchemaType::AnyValue)
        .description(Some(what))
}

/// What an entry is for.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Entry {
    /// A server to add, with its name.
    New,
    /// A stored server's new entry: `••••` keeps a stored value.
    Change,
    /// A value of a Claude Desktop configuration's `mcpServers`: named by its key, and
    /// Claude Desktop's own `type` and `disabled` are taken.
    Imported,
}

/// A program's entry or a URL's.
fn entry(kind: Entry) -> Schema {
    let keep = kind == Entry::Change;
    let enabled = || {
        ObjectBuilder::new()
            .schema_type(SchemaType::from_iter([Type::Boolean, Type::Null]))
            .description(Some("Start it with the app (default true)"))
    };
    let program = ObjectBuilder::new()
        .schema_type(Type::Object)
        .description(Some(
            "A program Deskmate starts and talks to on stdin/stdout",
        ))
        .property(
            "command",
            text(1, TEXT_MAX, NOT_BLANK).description(Some("e.g. npx")),
        )
        .required("command")
        .property(
            "args",
            ArrayBuilder::new()
                .schema_type(SchemaType::from_iter([Type::Array, Type::Null]))
                .items(ObjectBuilder::new().schema_type(Type::String))
                .max_items(Some(ARGS_MAX)),
        )
        .property(
            "env",
            secrets(ENV_NAME_PATTERN, keep)
                .description(Some("Environment variables, kept as secrets")),
        )
        .property("enabled", enabled())
        .property("url", null())
        .property("headers", null());
    let http = ObjectBuilder::new()
        .schema_type(Type::Object)
        .description(Some("A running server's Streamable HTTP URL"))
        .property(
            "url",
            text(1, TEXT_MAX, URL_PATTERN).description(Some("e.g. http://127.0.0.1:3000/mcp")),
        )
        .required("url")
        .property(
            "headers",
            secrets(HEADER_NAME_PATTERN, keep)
                .description(Some("Headers sent with every request, kept as secrets")),
        )
        .property("enabled", enabled())
        .property("command", null())
        .property("args", null())
        .property("env", null());
    let finish = |object: ObjectBuilder| {
        let object = match kind {
            Entry::New => object
                .property(
                    "name",
                    text(1, 24, NAME_PATTERN).description(Some(
                        "1-24 of a-z, 0-9 and _: it prefixes the server's tools' ids",
                    )),
                )
                .required("name"),
            Entry::Change => object,
            Entry::Imported => object
                .property("name", ignored("Ignored: the entry's key names it"))
                .property("type", ignored("Claude Desktop's transport; ignored"))
                .property(
                    "disabled",
                    ignored("Claude Desktop's switch: true adds the server disabled (unless `enabled` is given); other values are ignored"),
                ),
        };
        object.additional_properties(Some(AdditionalProperties::FreeForm(false)))
    };
    OneOfBuilder::new()
        .item(finish(program))
        .item(finish(http))
        .build()
        .into()
}

/// An MCP server to add: `{"name", "command", "args"?, "env"?}` or `{"name", "url",
/// "headers"?}`.
#[derive(Debug)]
pub struct NewMcpServer;
impl PartialSchema for NewMcpServer {
    fn schema() -> RefOr<Schema> {
        entry(Entry::New).into()
    }
}
impl ToSchema for NewMcpServer {}

/// A stored MCP server's new entry (its name stays; `••••` keeps a stored value).
#[derive(Debug)]
pub struct McpServerChange;
impl PartialSchema for McpServerChange {
    fn schema() -> RefOr<Schema> {
        entry(Entry::Change).into()
    }
}
impl ToSchema for McpServerChange {}

/// A Claude Desktop configuration: `{"mcpServers": {NAME: entry}}`. A name that is not
/// a valid server name is made one; two that read the same are numbered.
#[derive(Debug, Deserialize)]
pub struct McpImport {
    /// The entries by their names, in the configuration's order.
    #[serde(rename = "mcpServers")]
    pub servers: IndexMap<String, ImportedEntry>,
}

/// An entry of a Claude Desktop configuration: an [`McpEntry`] (its `name` is replaced by
/// the entry's key) and Claude Desktop's own `disabled` (its `type` is not read).
#[derive(Debug, Deserialize)]
pub struct ImportedEntry {
    #[serde(flatten)]
    pub entry: McpEntry,
    /// `true` adds the server disabled, unless the entry says `enabled`; other values
    /// are ignored.
    #[serde(default)]
    pub disabled: Option<serde_json::Value>,
}

/// An MCP server's entry as the service reads it (the schemas above declare it): a
/// program Deskmate starts (`command`, `args`, `env`) or a running server (`url`,
/// `headers`). The values of `env` and `headers` are secrets; `••••` keeps a stored one.
/// A field sent as `null` is a field not sent; fields read from a GET (`status`,
/// `tools`, the times) are taken and ignored.
#[derive(Debug, Default, Deserialize)]
pub struct McpEntry {
    /// The server's name; on a change it may only be sent back unchanged.
    pub name: Option<String>,
    pub command: Option<String>,
    pub args: Option<Vec<String>>,
    pub env: Option<IndexMap<String, String>>,
    pub url: Option<String>,
    pub headers: Option<IndexMap<String, String>>,
    pub enabled: Option<bool>,
}
impl PartialSchema for McpImport {
    fn schema() -> RefOr<Schema> {
        ObjectBuilder::new()
            .schema_type(Type::Object)
            .property(
                "mcpServers",
                ObjectBuilder::new()
                    .schema_type(Type::Object)
                    .additional_properties(Some(AdditionalProperties::from(RefOr::T(entry(
                        Entry::Imported,
                    ))))),
            )
            .required("mcpServers")
            .into()
    }
}
impl ToSchema for McpImport {}
