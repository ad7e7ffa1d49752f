//! MCP servers whose tools Deskmate imports (the rows; what they may contain beyond the
//! schema's CHECKs is decided in the service).

use rusqlite::{Row, params};
use serde::{Deserialize, Serialize};

use crate::error::Context;
use crate::{Error, NOW, Store};

/// One configured MCP server.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct McpServerRow {
    /// Its name: the prefix of its tools' ids.
    pub name: String,
    /// The command that starts it (stdio), or `None` for a URL.
    pub command: Option<String>,
    /// The command's arguments.
    pub args: Vec<String>,
    /// Names of the environment variables it gets (their values are secrets).
    pub env: Vec<String>,
    /// Its Streamable HTTP URL, or `None` for a command.
    pub url: Option<String>,
    /// Names of the headers sent to it (their values are secrets).
    pub headers: Vec<String>,
    /// Whether Deskmate starts it and offers its tools.
    pub enabled: bool,
    /// When it was added (RFC 3339).
    pub created_at: String,
    /// When it last changed (RFC 3339).
    pub updated_at: String,
}

const COLUMNS: &str = "name, command, args, env, url, headers, enabled, created_at, updated_at";

fn read_row(row: &Row<'_>) -> rusqlite::Result<McpServerRow> {
    let list = |i: usize| -> rusqlite::Result<Vec<String>> {
        let text: String = row.get(i)?;
        serde_json::from_str(&text).map_err(|e| {
            rusqlite::Error::FromSqlConversionFailure(i, rusqlite::types::Type::Text, Box::new(e))
        })
    };
    Ok(McpServerRow {
        name: row.get(0)?,
        command: row.get(1)?,
        args: list(2)?,
        env: list(3)?,
        url: row.get(4)?,
        headers: list(5)?,
        enabled: row.get(6)?,
        created_at: row.get(7)?,
        updated_at: row.get(8)?,
    })
}

fn json_list(list: &[String]) -> String {
    serde_json::to_string(list).unwrap_or_else(|_| "[]".into())
}

impl Store {
    /// Every configured server, by name.
    pub fn mcp_servers(&self) -> Result<Vec<McpServerRow>, Error> {
        let sql = format!("SELECT {COLUMNS} FROM mcp_servers ORDER BY name");
        let conn = self.conn()?;
        let mut statement = conn.prepare_cached(&sql).sql(&sql)?;
        let rows = statement.query_map([], read_row).sql(&sql)?;
        rows.map(|r| r.sql(&sql)).collect()
    }

    /// One server.
    pub fn mcp_server(&self, name: &str) -> Result<Option<McpServerRow>, Error> {
        let sql = format!("SELECT {COLUMNS} FROM mcp_servers WHERE name = ?1");
        let conn = self.conn()?;
        let mut statement = conn.prepare_cached(&sql).sql(&sql)?;
        let mut rows = statement.query_map([name], read_row).sql(&sql)?;
        rows.next().transpose().sql(&sql)
    }

    /// Adds a server or replaces every field of the one with its name but `created_at`.
    pub fn put_mcp_server(&self, s: &McpServerRow) -> Result<McpServerRow, Error> {
        let sql = format!(
            "INSERT INTO mcp_servers ({COLUMNS}) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, {NOW}, {NOW}) \
             ON CONFLICT (name) DO UPDATE SET command = excluded.command, args = excluded.args, \
             env = excluded.env, url = excluded.url, headers = excluded.headers, \
             enabled = excluded.enabled, updated_at = excluded.updated_at"
        );
        self.conn()?
            .execute(
                &sql,
                params![
                    s.name,
                    s.command,
                    json_list(&s.args),
                    json_list(&s.env),
                    s.url,
                    json_list(&s.headers),
                    s.enabled
                ],
            )
            .sql(&sql)?;
        self.mcp_server(&s.name)?.ok_or_else(|| Error::Sql {
            sql,
            source: rusqlite::Error::QueryReturnedNoRows,
        })
    }

    /// Removes a server; whether it was there.
    pub fn delete_mcp_server(&self, name: &str) -> Result<bool, Error> {
        let sql = "DELETE FROM mcp_servers WHERE name = ?1";
        Ok(self.conn()?.execute(sql, [name]).sql(sql)? > 0)
    }
}

/// The accepted definition of one imported tool.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct McpToolPin {
    /// The tool's name on its server.
    pub tool: String,
    /// SHA-256 (hex) of the canonical definition.
    pub hash: String,
    /// The definition (JSON text).
    pub definition: String,
    /// When it was accepted (RFC 3339).
    pub pinned_at: String,
}

impl Store {
    /// The pins of a server's tools.
    pub fn mcp_tool_pins(&self, server: &str) -> Result<Vec<McpToolPin>, Error> {
        let sql = "SELECT tool, hash, definition, pinned_at FROM mcp_tool_pins WHERE server = ?1 ORDER BY tool";
        let conn = self.conn()?;
        let mut statement = conn.prepare_cached(sql).sql(sql)?;
        let rows = statement
            .query_map([server], |r| {
                Ok(McpToolPin {
                    tool: r.get(0)?,
                    hash: r.get(1)?,
                    definition: r.get(2)?,
                    pinned_at: r.get(3)?,
                })
            })
            .sql(sql)?;
        rows.map(|r| r.sql(sql)).collect()
    }

    /// Accepts a tool's definition (replacing its earlier pin).
    pub fn pin_mcp_tool(
        &self,
        server: &str,
        tool: &str,
        hash: &str,
        definition: &str,
    ) -> Result<(), Error> {
        let sql = format!(
            "INSERT INTO mcp_tool_pins (server, tool, hash, definition, pinned_at) VALUES (?1, ?2, ?3, ?4, {NOW}) \
             ON CONFLICT (server, tool) DO UPDATE SET hash = excluded.hash, definition = excluded.definition, \
             pinned_at = excluded.pinned_at"
        );
        self.conn()?
            .execute(&sql, params![server, tool, hash, definition])
            .sql(&sql)?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(name: &str) -> McpServerRow {
        McpServerRow {
            name: name.into(),
            command: Some("mcp-server-everything".into()),
            args: vec!["stdio".into()],
            env: vec!["TOKEN".into()],
            url: None,
            headers: vec![],
            enabled: true,
            created_at: String::new(),
            updated_at: String::new(),
        }
    }

    #[test]
    fn put_list_replace_delete() {
        let store = Store::open_in_memory().unwrap_or_else(|e| panic!("{e}"));
        let first = store
            .put_mcp_server(&row("b"))
            .unwrap_or_else(|e| panic!("{e}"));
        store
            .put_mcp_server(&row("a"))
            .unwrap_or_else(|e| panic!("{e}"));
        let mut changed = row("b");
        changed.command = None;
        changed.url = Some("http://127.0.0.1:9/mcp".into());
        let replaced = store
            .put_mcp_server(&changed)
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(replaced.created_at, first.created_at);
        assert_eq!(replaced.url.as_deref(), Some("http://127.0.0.1:9/mcp"));
        let names: Vec<String> = store
            .mcp_servers()
            .unwrap_or_else(|e| panic!("{e}"))
            .into_iter()
            .map(|s| s.name)
            .collect();
        assert_eq!(names, ["a", "b"]);
        assert!(
            store
                .delete_mcp_server("a")
                .unwrap_or_else(|e| panic!("{e}"))
        );
        assert!(
            !store
                .delete_mcp_server("a")
                .unwrap_or_else(|e| panic!("{e}"))
        );
    }

    #[test]
    fn a_row_with_both_or_neither_way_in_is_refused_by_sqlite() {
        let store = Store::open_in_memory().unwrap_or_else(|e| panic!("{e}"));
        let mut both = row("x");
        both.url = Some("http://127.0.0.1:9/mcp".into());
        assert!(store.put_mcp_server(&both).is_err());
        let mut neither = row("y");
        neither.command = None;
        assert!(store.put_mcp_server(&neither).is_err());
        assert!(store.mcp_servers().unwrap_or_default().is_empty());
    }
}
