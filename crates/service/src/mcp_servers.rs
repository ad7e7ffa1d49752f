//! MCP servers whose tools Deskmate imports: what the API and the GUI may send (a Claude
//! Desktop entry plus its name, checked field by field), how it is kept (the row in the
//! store; the values of `env` and `headers` as secrets), the status each server has now,
//! and where its tools go (the registry, as `<server>.<tool>`, kept across rebuilds).
//! Starting the servers and talking to them is the MCP crate's part.

use std::collections::BTreeMap;
use std::sync::Arc;

use deskmate_core::normalize::escape_pointer;
use deskmate_core::spec::is_valid_tool_id;
use deskmate_store::mcp_servers::McpServerRow;
use deskmate_tools::Tool;
use indexmap::IndexMap;
use serde_json::Value;

use crate::body::Body;
use crate::error::FieldError;
use crate::mcp_input::{
    ARGS_MAX, MASK, McpEntry, McpImport, TEXT_MAX, env_name_ok, header_name_ok, url_ok,
};
use crate::mcp_view::McpServerView;
pub use crate::mcp_view::{ChangedTool, McpStatus};
use crate::model_input::blank;
use crate::{Deskmate, ServiceError};

/// The fields a server entry may have.
const FIELDS: [&str; 7] = [
    "name", "command", "args", "env", "url", "headers", "enabled",
];
/// Fields a client may send back unchanged (from a GET) but not set.
const READ_ONLY: [&str; 4] = ["created_at", "updated_at", "status", "tools"];

fn field(path: &str, message: impl Into<String>, hint: impl Into<String>) -> FieldError {
    FieldError {
        path: path.to_string(),
        message: message.into(),
        hint: hint.into(),
    }
}

/// How to reach a server, with its secrets resolved (for the MCP client only).
#[derive(Clone, PartialEq, Eq)]
pub enum Transport {
    /// A command Deskmate starts, talking over its stdin and stdout.
    Stdio {
        /// The program.
        command: String,
        /// Its arguments.
        args: Vec<String>,
        /// Its environment (names and values).
        env: Vec<(String, String)>,
    },
    /// A Streamable HTTP endpoint.
    Http {
        /// The URL.
        url: String,
        /// Headers sent with every request (names and values).
        headers: Vec<(String, String)>,
    },
}

impl std::fmt::Debug for Transport {
    /// Never the values of env or headers.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Stdio { command, args, env } => f
                .debug_struct("Stdio")
                .field("command", command)
                .field("args", args)
                .field("env", &env.iter().map(|(k, _)| k).collect::<Vec<_>>())
                .finish(),
            Self::Http { url, headers } => f
                .debug_struct("Http")
                .field("url", url)
                .field(
                    "headers",
                    &headers.iter().map(|(k, _)| k).collect::<Vec<_>>(),
                )
                .finish(),
        }
    }
}

/// One enabled server as the MCP client starts it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct McpServerConfig {
    /// Its name (the prefix of its tools' ids).
    pub name: String,
    /// How to reach it.
    pub transport: Transport,
}

fn secret_name(server: &str, kind: &str, key: &str) -> String {
    format!("mcp.{server}.{kind}.{key}")
}

/// A checked entry: the row, and the secrets to set (name, value).
type Checked = (McpServerRow, Vec<(String, String)>);

impl Body for McpEntry {
    fn check(body: &Value) -> Vec<FieldError> {
        entry_problems(body)
    }
}

impl Body for McpImport {
    /// The configuration, and each entry as [`McpEntry`] checks it (its paths under
    /// `/mcpServers/NAME`), without the keys of Claude Desktop's that the import reads
    /// itself (`name`: the entry's key names it; `type`; `disabled`).
    fn check(body: &Value) -> Vec<FieldError> {
        let Some(servers) = body.get("mcpServers").and_then(Value::as_object) else {
            return vec![field(
                "/mcpServers",
                "no \"mcpServers\" object",
                "paste a Claude Desktop configuration: {\"mcpServers\": {\"name\": {\"command\": …}}}",
            )];
        };
        let mut errors = Vec::new();
        for (given, entry) in servers {
            let mut entry = entry.clone();
            if let Some(object) = entry.as_object_mut() {
                for own in ["name", "type", "disabled"] {
                    object.remove(own);
                }
            }
            errors.extend(entry_problems(&entry).into_iter().map(|e| FieldError {
                path: format!("/mcpServers/{}{}", escape_pointer(given), e.path),
                ..e
            }));
        }
        errors
    }
}

/// What is wrong with an entry on its own (a stored server is not needed to tell): the
/// fields, their types and values, a command or a URL but not both, `args` and `env`
/// only with a command, `headers` only with a URL.
fn entry_problems(body: &Value) -> Vec<FieldError> {
    let mut errors = Vec::new();
    let Some(object) = body.as_object() else {
        return vec![field(
            "",
            "the body must be a JSON object",
            "send {\"name\", \"command\", \"args\"?, \"env\"?} or {\"name\", \"url\", \"headers\"?}",
        )];
    };
    for key in object.keys() {
        if !FIELDS.contains(&key.as_str()) && !READ_ONLY.contains(&key.as_str()) {
            errors.push(field(
                &format!("/{key}"),
                format!("unknown field '{key}'"),
                format!("the fields are: {}", FIELDS.join(", ")),
            ));
        }
    }
    match object.get("name") {
        None | Some(Value::Null) => {}
        Some(Value::String(name)) if name.is_empty() => errors.push(name_required()),
        Some(Value::String(name)) => {
            if !is_valid_tool_id(name) || name.len() > 24 {
                errors.push(field(
                    "/name",
                    format!("'{name}' is not a valid server name"),
                    format!(
                        "1 to 24 of a-z, 0-9 and '_' (it prefixes its tools' ids), e.g. \"{}\"",
                        suggested_name(name)
                    ),
                ));
            }
        }
        Some(_) => errors.push(field(
            "/name",
            "the name must be a string",
            "a short name in lower case, e.g. \"filesystem\"",
        )),
    }
    let text = |key: &str, errors: &mut Vec<FieldError>| match object.get(key) {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) if !blank(s) && s.chars().count() <= TEXT_MAX => Some(s.as_str()),
        Some(_) => {
            errors.push(field(
                &format!("/{key}"),
                format!("{key} must be a non-empty string"),
                format!("at most {TEXT_MAX} characters"),
            ));
            None
        }
    };
    let command = text("command", &mut errors);
    let url = text("url", &mut errors);
    match (&command, &url) {
        (Some(_), Some(_)) => errors.push(field(
            "/url",
            "a server has a command or a url, not both",
            "keep \"command\" for a program Deskmate starts, \"url\" for a running server",
        )),
        (None, None) => errors.push(field(
            "/command",
            "a command or a url is required",
            "e.g. {\"command\": \"npx\", \"args\": [\"@modelcontextprotocol/server-filesystem\", \"/home/me\"]} or {\"url\": \"http://127.0.0.1:3000/mcp\"}",
        )),
        _ => {}
    }
    if let Some(raw) = url {
        let url = raw.trim();
        match url::Url::parse(url) {
            Ok(u)
                if matches!(u.scheme(), "http" | "https") && u.host().is_some() && url_ok(raw) => {}
            _ => errors.push(field(
                "/url",
                format!("'{url}' is not an http(s) URL"),
                "e.g. http://127.0.0.1:3000/mcp",
            )),
        }
    }
    match object.get("args") {
        None | Some(Value::Null) => {}
        Some(Value::Array(items)) if url.is_none() => {
            for (i, item) in items.iter().enumerate() {
                if !item.is_string() {
                    errors.push(field(
                        &format!("/args/{i}"),
                        "every argument must be a string",
                        "quote numbers: \"8080\"",
                    ));
                }
            }
            if items.len() > ARGS_MAX {
                errors.push(field(
                    "/args",
                    format!("at most {ARGS_MAX} arguments"),
                    "fewer arguments",
                ));
            }
        }
        Some(_) => errors.push(field(
            "/args",
            "args must be an array of strings, with a command",
            "e.g. [\"stdio\"]",
        )),
    }
    let pairs =
        |key: &str, with: bool, valid: fn(&str) -> bool, errors: &mut Vec<FieldError>| match object
            .get(key)
        {
            None | Some(Value::Null) => {}
            Some(Value::Object(map)) if with => {
                for (k, v) in map {
                    let path = format!("/{key}/{k}");
                    if !valid(k) {
                        errors.push(field(
                            &path,
                            format!("'{k}' is not a valid name"),
                            "letters, digits and '_' (headers also '-'), at most 64",
                        ));
                    } else if v.as_str().is_none_or(blank) {
                        errors.push(field(
                            &path,
                            "the value must be a non-empty string",
                            "send the value as text",
                        ));
                    }
                }
            }
            Some(_) => errors.push(field(
                &format!("/{key}"),
                format!(
                    "{key} must be an object of names and string values, with {}",
                    if key == "env" { "a command" } else { "a url" }
                ),
                if key == "env" {
                    "e.g. {\"GITHUB_TOKEN\": \"…\"}"
                } else {
                    "e.g. {\"Authorization\": \"Bearer …\"}"
                },
            )),
        };
    pairs(
        "env",
        command.is_some() || url.is_none(),
        env_name_ok,
        &mut errors,
    );
    pairs("headers", url.is_some(), header_name_ok, &mut errors);
    if let Some(v) = object.get("enabled")
        && !v.is_null()
        && !v.is_boolean()
    {
        errors.push(field(
            "/enabled",
            "enabled must be true or false",
            "send a boolean",
        ));
    }
    errors
}

fn name_required() -> FieldError {
    field(
        "/name",
        "a name is required",
        "a short name in lower case, e.g. \"filesystem\"",
    )
}

/// Turns an entry that passed its checks into the row to store. `name_in_path`: the
/// server being changed (its name cannot change); `existing`: its stored row (a masked
/// value keeps the stored secret). Returns the row and the secrets to set.
fn validate(
    entry: McpEntry,
    name_in_path: Option<&str>,
    existing: Option<&McpServerRow>,
) -> Result<Checked, Vec<FieldError>> {
    let mut errors = Vec::new();
    let name = match (entry.name, name_in_path) {
        (Some(sent), Some(path)) if sent != path => {
            errors.push(field(
                "/name",
                "the name cannot be changed",
                format!("delete '{path}' and add the server under its new name"),
            ));
            path.to_string()
        }
        (_, Some(path)) => path.to_string(),
        (Some(sent), None) => sent,
        (None, None) => {
            errors.push(name_required());
            String::new()
        }
    };
    let trimmed = |text: Option<String>| text.map(|t| t.trim().to_string());
    let command = trimmed(entry.command);
    let url = trimmed(entry.url);
    let mut secrets = Vec::new();
    let mut pairs =
        |key: &str, sent: Option<IndexMap<String, String>>, errors: &mut Vec<FieldError>| {
            let mut names = Vec::new();
            for (k, value) in sent.unwrap_or_default() {
                if value == MASK {
                    if existing.is_some_and(|e| names_of(e, key).contains(&k)) {
                        names.push(k);
                    } else {
                        errors.push(field(
                            &format!("/{key}/{k}"),
                            "no stored value to keep",
                            "send the value itself",
                        ));
                    }
                    continue;
                }
                secrets.push((
                    secret_name(&name, if key == "env" { "env" } else { "header" }, &k),
                    value,
                ));
                names.push(k);
            }
            names
        };
    let env = pairs("env", entry.env, &mut errors);
    let headers = pairs("headers", entry.headers, &mut errors);
    if !errors.is_empty() {
        return Err(errors);
    }
    let row = McpServerRow {
        name,
        command,
        args: entry.args.unwrap_or_default(),
        env,
        url,
        headers,
        enabled: entry.enabled.unwrap_or(existing.is_none_or(|e| e.enabled)),
        created_at: String::new(),
        updated_at: String::new(),
    };
    Ok((row, secrets))
}

fn names_of<'a>(row: &'a McpServerRow, key: &str) -> &'a [String] {
    if key == "env" { &row.env } else { &row.headers }
}

/// `name`, or the first of `name_2`, `name_3`… (kept within 24 characters) that `used`
/// does not hold.
fn numbered(name: &str, used: impl Fn(&str) -> bool) -> String {
    if !used(name) {
        return name.to_string();
    }
    (2..)
        .map(|n| {
            let suffix = format!("_{n}");
            let keep = name.len().min(24 - suffix.len());
            format!("{}{suffix}", &name[..keep])
        })
        .find(|candidate| !used(candidate))
        .unwrap_or_else(|| name.to_string())
}

/// A valid server name close to `name` (for a hint).
pub fn suggested_name(name: &str) -> String {
    let mut out: String = name
        .to_lowercase()
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    out.truncate(24);
    let out = out.trim_matches('_').to_string();
    if out.is_empty() { "server".into() } else { out }
}

impl Deskmate {
    fn mcp_view(&self, row: &McpServerRow) -> McpServerView {
        let status = self.mcp_status(&row.name, row.enabled);
        let tools: Vec<String> = self
            .registry()
            .specs()
            .filter(|s| {
                s.id.split_once('.')
                    .is_some_and(|(server, _)| server == row.name)
            })
            .map(|s| s.id.clone())
            .collect();
        let changed = self
            .mcp_changed_tools
            .read()
            .ok()
            .and_then(|c| c.get(&row.name).cloned())
            .unwrap_or_default();
        McpServerView::new(row, status, tools, changed)
    }

    fn mcp_status(&self, name: &str, enabled: bool) -> McpStatus {
        if !enabled {
            return McpStatus::Disabled;
        }
        self.mcp_statuses
            .read()
            .ok()
            .and_then(|s| s.get(name).cloned())
            .unwrap_or(McpStatus::Starting)
    }

    /// Every configured MCP server (values of env and headers masked), with its status
    /// and the ids of its tools in the registry.
    pub fn mcp_servers(&self) -> Result<Vec<McpServerView>, ServiceError> {
        let store = self.store().ok_or(ServiceError::NoStore)?;
        Ok(store
            .mcp_servers()?
            .iter()
            .map(|r| self.mcp_view(r))
            .collect())
    }

    fn stored_mcp_server(&self, name: &str) -> Result<McpServerRow, ServiceError> {
        let store = self.store().ok_or(ServiceError::NoStore)?;
        store
            .mcp_server(name)?
            .ok_or_else(|| ServiceError::NotFound {
                what: "MCP server",
                id: name.to_string(),
            })
    }

    /// One server.
    pub fn mcp_server(&self, name: &str) -> Result<McpServerView, ServiceError> {
        Ok(self.mcp_view(&self.stored_mcp_server(name)?))
    }

    /// Adds a server (a Claude Desktop entry plus its `name`).
    pub fn create_mcp_server(&self, entry: McpEntry) -> Result<McpServerView, ServiceError> {
        let store = self.store().ok_or(ServiceError::NoStore)?;
        let (row, secrets) = validate(entry, None, None).map_err(ServiceError::Invalid)?;
        if store.mcp_server(&row.name)?.is_some() {
            return Err(ServiceError::Taken(vec![field(
                "/name",
                format!("a server named '{}' exists", row.name),
                "choose another name, or update that server with PUT",
            )]));
        }
        self.save_mcp_server(row, secrets)
    }

    /// Replaces a server's entry (a masked env or header value keeps the stored one).
    pub fn update_mcp_server(
        &self,
        name: &str,
        entry: McpEntry,
    ) -> Result<McpServerView, ServiceError> {
        let existing = self.stored_mcp_server(name)?;
        let (row, secrets) =
            validate(entry, Some(name), Some(&existing)).map_err(ServiceError::Invalid)?;
        // Values no longer named are forgotten.
        let secrets_store = self.secrets().ok_or(ServiceError::NoStore)?;
        for (kind, old, new) in [
            ("env", &existing.env, &row.env),
            ("header", &existing.headers, &row.headers),
        ] {
            for gone in old.iter().filter(|n| !new.contains(n)) {
                secrets_store.remove(&secret_name(name, kind, gone))?;
            }
        }
        self.save_mcp_server(row, secrets)
    }

    fn save_mcp_server(
        &self,
        row: McpServerRow,
        secrets: Vec<(String, String)>,
    ) -> Result<McpServerView, ServiceError> {
        let store = self.store().ok_or(ServiceError::NoStore)?;
        let secrets_store = self.secrets().ok_or(ServiceError::NoStore)?;
        for (name, value) in &secrets {
            secrets_store.set(name, value)?;
        }
        let saved = store.put_mcp_server(&row)?;
        self.mcp_changed.send_modify(|generation| *generation += 1);
        Ok(self.mcp_view(&saved))
    }

    /// Removes a server, its secrets and its tools.
    pub fn delete_mcp_server(&self, name: &str) -> Result<(), ServiceError> {
        let existing = self.stored_mcp_server(name)?;
        self.store()
            .ok_or(ServiceError::NoStore)?
            .delete_mcp_server(name)?;
        if let Some(secrets) = self.secrets() {
            for n in &existing.env {
                secrets.remove(&secret_name(name, "env", n))?;
            }
            for n in &existing.headers {
                secrets.remove(&secret_name(name, "header", n))?;
            }
        }
        self.set_imported_tools(name, Vec::new(), &Default::default());
        self.set_mcp_changed_tools(name, Vec::new());
        if let Ok(mut statuses) = self.mcp_statuses.write() {
            statuses.remove(name);
        }
        self.mcp_changed.send_modify(|generation| *generation += 1);
        Ok(())
    }

    /// Adds every server of a Claude Desktop configuration (`{"mcpServers": {NAME:
    /// entry}}`): all of them, or none when one is invalid. A name that is not a valid
    /// server name is made one (lower case, '_' for other characters).
    pub fn import_mcp_config(&self, config: McpImport) -> Result<Vec<McpServerView>, ServiceError> {
        let store = self.store().ok_or(ServiceError::NoStore)?;
        let mut checked = Vec::new();
        let mut errors = Vec::new();
        let mut taken = Vec::new();
        let mut names = BTreeMap::new();
        for (given, imported) in config.servers {
            // Two entries whose names read the same ("Files" and "files") keep both:
            // the later one is numbered, in the configuration's order.
            let name = numbered(&suggested_name(&given), |n| names.contains_key(n));
            let mut entry = imported.entry;
            entry.name = Some(name.clone());
            // Claude Desktop's switch, unless the entry says `enabled` itself.
            if entry.enabled.is_none()
                && let Some(Value::Bool(disabled)) = imported.disabled
            {
                entry.enabled = Some(!disabled);
            }
            names.insert(name.clone(), given.clone());
            if store.mcp_server(&name)?.is_some() {
                taken.push(field(
                    &format!("/mcpServers/{}", escape_pointer(&given)),
                    format!("a server named '{name}' exists"),
                    "rename it in the configuration, or delete the stored server first",
                ));
                continue;
            }
            match validate(entry, None, None) {
                Ok(ok) => checked.push(ok),
                Err(found) => errors.extend(found.into_iter().map(|e| FieldError {
                    path: format!("/mcpServers/{}{}", escape_pointer(&given), e.path),
                    ..e
                })),
            }
        }
        if !errors.is_empty() {
            return Err(ServiceError::Invalid(errors));
        }
        if !taken.is_empty() {
            return Err(ServiceError::Taken(taken));
        }
        checked
            .into_iter()
            .map(|(row, secrets)| self.save_mcp_server(row, secrets))
            .collect()
    }

    /// The enabled servers with their secrets resolved, for the MCP client.
    pub fn mcp_server_configs(&self) -> Result<Vec<McpServerConfig>, ServiceError> {
        let store = self.store().ok_or(ServiceError::NoStore)?;
        let secrets = self.secrets().ok_or(ServiceError::NoStore)?;
        use deskmate_tools::http_tool::SecretStore;
        let resolve = |server: &str, kind: &str, names: &[String]| -> Vec<(String, String)> {
            names
                .iter()
                .filter_map(|n| Some((n.clone(), secrets.secret(&secret_name(server, kind, n))?)))
                .collect()
        };
        Ok(store
            .mcp_servers()?
            .into_iter()
            .filter(|r| r.enabled)
            .filter_map(|r| {
                let transport = match (&r.command, &r.url) {
                    (Some(command), _) => Transport::Stdio {
                        command: command.clone(),
                        args: r.args.clone(),
                        env: resolve(&r.name, "env", &r.env),
                    },
                    (None, Some(url)) => Transport::Http {
                        url: url.clone(),
                        headers: resolve(&r.name, "header", &r.headers),
                    },
                    (None, None) => return None,
                };
                Some(McpServerConfig {
                    name: r.name,
                    transport,
                })
            })
            .collect())
    }

    /// Wakes when a server is added, changed or removed.
    pub fn mcp_server_changes(&self) -> tokio::sync::watch::Receiver<u64> {
        self.mcp_changed.subscribe()
    }

    /// Records what a server is doing now (the MCP client reports it).
    pub fn set_mcp_status(&self, name: &str, status: McpStatus) {
        if let Ok(mut statuses) = self.mcp_statuses.write() {
            statuses.insert(name.to_string(), status);
        }
    }

    /// The accepted definitions of a server's tools: tool name → (hash, definition).
    pub fn mcp_tool_pins(
        &self,
        server: &str,
    ) -> Result<std::collections::HashMap<String, (String, Value)>, ServiceError> {
        let store = self.store().ok_or(ServiceError::NoStore)?;
        Ok(store
            .mcp_tool_pins(server)?
            .into_iter()
            .map(|p| {
                let definition = serde_json::from_str(&p.definition).unwrap_or(Value::Null);
                (p.tool, (p.hash, definition))
            })
            .collect())
    }

    /// Accepts a tool's definition (trust on first use, or the person's approval).
    pub fn pin_mcp_tool(
        &self,
        server: &str,
        tool: &str,
        hash: &str,
        definition: &Value,
    ) -> Result<(), ServiceError> {
        let store = self.store().ok_or(ServiceError::NoStore)?;
        store.pin_mcp_tool(server, tool, hash, &definition.to_string())?;
        Ok(())
    }

    /// Records which of a server's tools changed since accepted (the MCP client reports
    /// it on each import).
    pub fn set_mcp_changed_tools(&self, server: &str, changed: Vec<ChangedTool>) {
        if let Ok(mut all) = self.mcp_changed_tools.write() {
            if changed.is_empty() {
                all.remove(server);
            } else {
                all.insert(server.to_string(), changed);
            }
        }
    }

    /// Accepts the new definition of a changed tool and enables it.
    pub fn approve_mcp_tool(
        &self,
        server: &str,
        tool: &str,
    ) -> Result<McpServerView, ServiceError> {
        let pending = self
            .mcp_changed_tools
            .read()
            .ok()
            .and_then(|all| all.get(server)?.iter().find(|c| c.tool == tool).cloned())
            .ok_or_else(|| ServiceError::NotFound {
                what: "changed MCP tool",
                id: format!("{server}/{tool}"),
            })?;
        self.pin_mcp_tool(server, tool, &pending.hash, &pending.now)?;
        if let Ok(mut all) = self.mcp_changed_tools.write()
            && let Some(list) = all.get_mut(server)
        {
            list.retain(|c| c.tool != tool);
        }
        if let Some(stored) = self.stored.as_ref() {
            let _serial = stored
                .changes
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            if let Ok(mut blocked) = stored.blocked.write() {
                blocked.remove(&pending.id);
            }
            let mut next = (*self.registry()).clone();
            next.guard_mut().set_enabled(&pending.id, true);
            self.swap_registry(next);
        }
        self.mcp_server(server)
    }

    /// Puts a server's tools in the registry in place of the ones it had (none: removes
    /// them), the `blocked` ids disabled (their definitions changed). They stay across
    /// registry rebuilds until replaced.
    pub fn set_imported_tools(
        &self,
        server: &str,
        tools: Vec<Arc<dyn Tool>>,
        blocked: &std::collections::HashSet<String>,
    ) {
        let Some(stored) = self.stored.as_ref() else {
            return;
        };
        let _serial = stored
            .changes
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let mut next = (*self.registry()).clone();
        let prefix = format!("{server}.");
        let old: Vec<String> = next
            .specs()
            .filter(|s| s.id.starts_with(&prefix))
            .map(|s| s.id.clone())
            .collect();
        for id in &old {
            next.remove(id);
        }
        for tool in &tools {
            if let Err(e) = next.replace_or_push(tool.clone()) {
                tracing::warn!(%server, tool = %tool.spec().id, error = %e, "imported tool skipped");
            }
        }
        for id in blocked {
            next.guard_mut().set_enabled(id, false);
        }
        if let Ok(mut all) = stored.blocked.write() {
            all.retain(|id| !id.starts_with(&prefix));
            all.extend(blocked.iter().cloned());
        }
        if let Ok(mut imported) = stored.imported.write() {
            if tools.is_empty() {
                imported.remove(server);
            } else {
                imported.insert(server.to_string(), tools);
            }
        }
        self.swap_registry(next);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// An entry as the API reads it (checks, then the type) and turns it into a row.
    fn read_entry(body: &Value) -> Result<Checked, Vec<FieldError>> {
        validate(McpEntry::read(body)?, None, None)
    }

    #[test]
    fn an_entry_is_valid_as_declared_exactly_when_the_server_takes_it() {
        let new = crate::model_input::declared::<crate::mcp_input::NewMcpServer>();
        let bodies = [
            json!({"name": "files", "command": "npx", "args": ["-y", "server"]}),
            json!({"name": "files", "url": "http://127.0.0.1:3000/mcp?key=1"}),
            json!({"name": "files", "url": "http://127.0.0.1:3000/mcp#part"}),
            json!({"name": "files", "url": "file:///tmp/mcp"}),
            json!({"name": "Files", "command": "npx"}),
            json!({"name": "a_very_long_server_name_25", "command": "npx"}),
            json!({"name": "f", "command": "x", "url": "http://a/mcp"}),
            json!({"name": "f"}),
            json!({"command": "x"}),
            json!({"name": "f", "command": "  "}),
            json!({"name": "f", "command": "x", "env": {"TOKEN": "abc"}}),
            json!({"name": "f", "command": "x", "env": {"1TOKEN": "abc"}}),
            json!({"name": "f", "command": "x", "env": {"": "abc"}}),
            json!({"name": "f", "command": "x", "env": {"T": MASK}}),
            json!({"name": "f", "command": "x", "env": {"T": " "}}),
            json!({"name": "f", "command": "x", "env": {"T": 1}}),
            json!({"name": "f", "command": "x", "headers": {"A": "b"}}),
            json!({"name": "f", "url": "http://a/mcp", "headers": {"X-Key": "b"}}),
            json!({"name": "f", "url": "http://a/mcp", "env": {"A": "b"}}),
            json!({"name": "f", "url": "http://a/mcp", "args": ["x"]}),
            json!({"name": "f", "command": "x", "headers": null, "url": null, "enabled": null}),
            json!({"name": "f", "command": "x", "args": vec!["a"; 65]}),
            json!({"name": "f", "command": "x", "args": [1]}),
            json!({"name": "f", "command": "x", "extra": 1}),
            json!({"name": "f", "command": "x", "enabled": "yes"}),
            json!({"name": "", "url": "http://a/mcp"}),
            json!([]),
        ];
        for body in bodies {
            let server = read_entry(&body).is_ok();
            assert_eq!(new.is_valid(&body), server, "{body}");
        }
    }

    #[test]
    fn imported_names_that_read_the_same_are_numbered() {
        let used = ["files", "files_2"];
        assert_eq!(numbered("files", |n| used.contains(&n)), "files_3");
        assert_eq!(numbered("other", |n| used.contains(&n)), "other");
        let long = "a".repeat(24);
        assert_eq!(
            numbered(&long, |n| n == long),
            format!("{}_2", "a".repeat(22))
        );
    }

    #[test]
    fn an_entry_is_checked_field_by_field() {
        let bad = json!({"name": "My Server", "command": "x", "url": "ftp://y", "args": [1], "env": {"1A": "v"}, "colour": "red"});
        let errors = read_entry(&bad).err().unwrap_or_default();
        let paths: Vec<&str> = errors.iter().map(|e| e.path.as_str()).collect();
        for expected in ["/colour", "/name", "/url", "/args", "/env/1A"] {
            assert!(paths.contains(&expected), "{expected} in {paths:?}");
        }
        let hint = &errors
            .iter()
            .find(|e| e.path == "/name")
            .map(|e| e.hint.clone())
            .unwrap_or_default();
        assert!(hint.contains("\"my_server\""), "{hint}");
    }

    #[test]
    fn a_good_entry_keeps_secret_values_out_of_the_row() {
        let body = json!({"name": "github", "command": "npx", "args": ["-y", "server"], "env": {"GITHUB_TOKEN": "s3cret"}});
        let (row, secrets) = read_entry(&body).unwrap_or_else(|e| panic!("{e:?}"));
        assert_eq!(row.env, ["GITHUB_TOKEN"]);
        assert_eq!(
            secrets,
            [(
                "mcp.github.env.GITHUB_TOKEN".to_string(),
                "s3cret".to_string()
            )]
        );
        assert!(
            !serde_json::to_string(&row)
                .unwrap_or_default()
                .contains("s3cret")
        );
        let http = json!({"name": "remote", "url": "http://127.0.0.1:3000/mcp", "headers": {"Authorization": "Bearer t"}, "env": {"A": "b"}});
        let errors = read_entry(&http).err().unwrap_or_default();
        assert_eq!(
            errors.iter().map(|e| e.path.as_str()).collect::<Vec<_>>(),
            ["/env"]
        );
    }
}
