//! Tool resources: the API contract's fields, plus `side_effect`, `policy` and `updated_at`.

use deskmate_core::ToolDisplay;
use rusqlite::{OptionalExtension, Row, params, params_from_iter};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::error::Context;
use crate::{Error, NOW, Store, json_column};

/// One tool resource as stored.
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolResource {
    /// The function name the model sees: `[a-z0-9_]{1,64}`.
    pub id: String,
    /// Owner (the API contract keeps it; a desktop app has one user).
    pub user_id: i64,
    /// Display name.
    pub name: String,
    /// What the tool does.
    pub description: String,
    /// `query` or `system`.
    pub category: String,
    /// Icon name.
    pub icon: Option<String>,
    /// GET, POST, PUT, PATCH or DELETE.
    pub http_method: String,
    /// Absolute http(s) URL with optional `{name}` path placeholders.
    pub http_url: Option<String>,
    /// Header values; secrets appear only as `{secret:NAME}` references.
    pub http_headers: Value,
    /// Request timeout.
    pub http_timeout_ms: i64,
    /// JSON Schema 2020-12 of the arguments.
    pub parameter_schema: Value,
    /// Values merged under the caller's arguments.
    pub parameter_defaults: Value,
    /// The API contract's flag for system tools.
    pub wait_for_response: bool,
    /// Disabled tools are never offered to a model nor run.
    pub enabled: bool,
    /// Built-in: can be disabled, not deleted or re-pointed.
    pub is_system: bool,
    /// `read`, `write` or `irreversible`.
    pub side_effect: String,
    /// `always`, `ask` or `never`; `None` means the default for the side effect.
    pub policy: Option<String>,
    /// Name and description for people in both languages, where the tool has them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub display: Option<ToolDisplay>,
    /// RFC 3339.
    pub created_at: String,
    /// RFC 3339.
    pub updated_at: String,
}

/// Which resources to list (the API contract's query parameters).
#[derive(Debug, Clone)]
pub struct ResourceFilter {
    /// Only this category.
    pub category: Option<String>,
    /// Only enabled (`true`) or disabled (`false`) resources.
    pub enabled: Option<bool>,
    /// Include the built-in tools.
    pub include_system: bool,
    /// 1-based page.
    pub page: u32,
    /// Resources per page.
    pub limit: u32,
}

impl Default for ResourceFilter {
    fn default() -> Self {
        Self {
            category: None,
            enabled: None,
            include_system: true,
            page: 1,
            limit: 100,
        }
    }
}

const COLUMNS: &str = "id, user_id, name, description, category, icon, http_method, http_url, http_headers, \
    http_timeout_ms, parameter_schema, parameter_defaults, wait_for_response, enabled, is_system, side_effect, \
    policy, display, created_at, updated_at";

impl Store {
    /// Inserts a resource; its timestamps are set here. Fails if the id exists.
    pub fn insert_resource(&self, r: &ToolResource) -> Result<ToolResource, Error> {
        let sql = format!(
            "INSERT INTO tool_resources ({COLUMNS}) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, {NOW}, {NOW})"
        );
        {
            let conn = self.conn()?;
            conn.execute(&sql, params_from_iter(write_params(r)))
                .sql(&sql)?;
        }
        self.resource(&r.id)?.ok_or_else(|| Error::Sql {
            sql: sql.clone(),
            source: rusqlite::Error::QueryReturnedNoRows,
        })
    }

    /// Replaces every field but `id` and `created_at`; `None` when the id is unknown.
    pub fn update_resource(&self, r: &ToolResource) -> Result<Option<ToolResource>, Error> {
        let sql = format!(
            "UPDATE tool_resources SET user_id = ?2, name = ?3, description = ?4, category = ?5, icon = ?6, \
             http_method = ?7, http_url = ?8, http_headers = ?9, http_timeout_ms = ?10, parameter_schema = ?11, \
             parameter_defaults = ?12, wait_for_response = ?13, enabled = ?14, is_system = ?15, side_effect = ?16, \
             policy = ?17, display = ?18, updated_at = {NOW} WHERE id = ?1"
        );
        let changed = self
            .conn()?
            .execute(&sql, params_from_iter(write_params(r)))
            .sql(&sql)?;
        if changed == 0 {
            return Ok(None);
        }
        self.resource(&r.id)
    }

    /// One resource.
    pub fn resource(&self, id: &str) -> Result<Option<ToolResource>, Error> {
        let sql = format!("SELECT {COLUMNS} FROM tool_resources WHERE id = ?1");
        let raw = self
            .conn()?
            .query_row(&sql, [id], read_row)
            .optional()
            .sql(&sql)?;
        raw.map(RawResource::parse).transpose()
    }

    /// Resources matching `filter`, system tools first then by creation, and the total.
    pub fn list_resources(
        &self,
        filter: &ResourceFilter,
    ) -> Result<(u64, Vec<ToolResource>), Error> {
        let limit = filter.limit.clamp(1, 1000);
        let offset = u64::from(filter.page.max(1) - 1) * u64::from(limit);
        let condition = "(?1 IS NULL OR category = ?1) AND (?2 IS NULL OR enabled = ?2) AND (?3 OR is_system = 0)";
        let conn = self.conn()?;
        let count_sql = format!("SELECT count(*) FROM tool_resources WHERE {condition}");
        let args = params![filter.category, filter.enabled, filter.include_system];
        let total: i64 = conn
            .query_row(&count_sql, args, |r| r.get(0))
            .sql(&count_sql)?;
        let sql = format!(
            "SELECT {COLUMNS} FROM tool_resources WHERE {condition} ORDER BY is_system DESC, created_at, rowid LIMIT ?4 OFFSET ?5"
        );
        let mut statement = conn.prepare_cached(&sql).sql(&sql)?;
        let rows = statement
            .query_map(
                params![
                    filter.category,
                    filter.enabled,
                    filter.include_system,
                    limit,
                    offset
                ],
                read_row,
            )
            .sql(&sql)?;
        let mut out = Vec::new();
        for row in rows {
            out.push(row.sql(&sql)?.parse()?);
        }
        Ok((u64::try_from(total).unwrap_or(0), out))
    }

    /// Every resource, system tools first then by creation (the registry loads them all;
    /// pages are for lists a person reads).
    pub fn all_resources(&self) -> Result<Vec<ToolResource>, Error> {
        let sql = format!(
            "SELECT {COLUMNS} FROM tool_resources ORDER BY is_system DESC, created_at, rowid"
        );
        let conn = self.conn()?;
        let mut statement = conn.prepare_cached(&sql).sql(&sql)?;
        let rows = statement.query_map([], read_row).sql(&sql)?;
        let mut out = Vec::new();
        for row in rows {
            out.push(row.sql(&sql)?.parse()?);
        }
        Ok(out)
    }

    /// Deletes a resource; returns whether one was deleted.
    pub fn delete_resource(&self, id: &str) -> Result<bool, Error> {
        let sql = "DELETE FROM tool_resources WHERE id = ?1";
        Ok(self.conn()?.execute(sql, [id]).sql(sql)? > 0)
    }

    /// Makes the stored built-in resources match `system`: new ones are added, existing
    /// ones get the current name, description and schema but keep the user's `enabled`
    /// and `policy`, and built-ins that no longer exist are removed.
    pub fn sync_system_resources(&self, system: &[ToolResource]) -> Result<(), Error> {
        let mut conn = self.conn()?;
        let tx = conn.transaction().sql("BEGIN")?;
        let upsert = format!(
            "INSERT INTO tool_resources ({COLUMNS}) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, {NOW}, {NOW}) \
             ON CONFLICT (id) DO UPDATE SET name = excluded.name, description = excluded.description, \
             category = excluded.category, icon = excluded.icon, http_method = excluded.http_method, \
             http_url = excluded.http_url, http_timeout_ms = excluded.http_timeout_ms, \
             parameter_schema = excluded.parameter_schema, wait_for_response = excluded.wait_for_response, \
             is_system = 1, side_effect = excluded.side_effect, display = excluded.display, \
             updated_at = CASE WHEN tool_resources.parameter_schema IS excluded.parameter_schema \
                 AND tool_resources.description IS excluded.description THEN tool_resources.updated_at ELSE excluded.updated_at END"
        );
        for r in system {
            tx.execute(&upsert, params_from_iter(write_params(r)))
                .sql(&upsert)?;
        }
        let ids: Vec<&str> = system.iter().map(|r| r.id.as_str()).collect();
        let ids_json = serde_json::to_string(&ids).map_err(|source| Error::Json {
            column: "tool_resources.id",
            source,
        })?;
        let prune = "DELETE FROM tool_resources WHERE is_system = 1 AND id NOT IN (SELECT value FROM json_each(?1))";
        tx.execute(prune, [ids_json]).sql(prune)?;
        tx.commit().sql("COMMIT")?;
        Ok(())
    }
}

fn write_params(r: &ToolResource) -> Vec<Box<dyn rusqlite::ToSql + '_>> {
    vec![
        Box::new(&r.id),
        Box::new(r.user_id),
        Box::new(&r.name),
        Box::new(&r.description),
        Box::new(&r.category),
        Box::new(&r.icon),
        Box::new(&r.http_method),
        Box::new(&r.http_url),
        Box::new(r.http_headers.to_string()),
        Box::new(r.http_timeout_ms),
        Box::new(r.parameter_schema.to_string()),
        Box::new(r.parameter_defaults.to_string()),
        Box::new(r.wait_for_response),
        Box::new(r.enabled),
        Box::new(r.is_system),
        Box::new(&r.side_effect),
        Box::new(&r.policy),
        Box::new(
            r.display
                .as_ref()
                .and_then(|d| serde_json::to_string(d).ok()),
        ),
    ]
}

/// A row before its JSON columns are parsed.
struct RawResource {
    r: ToolResource,
    headers: String,
    schema: String,
    defaults: String,
    display: Option<String>,
}

fn read_row(row: &Row<'_>) -> rusqlite::Result<RawResource> {
    Ok(RawResource {
        r: ToolResource {
            id: row.get(0)?,
            user_id: row.get(1)?,
            name: row.get(2)?,
            description: row.get(3)?,
            category: row.get(4)?,
            icon: row.get(5)?,
            http_method: row.get(6)?,
            http_url: row.get(7)?,
            http_headers: Value::Null,
            http_timeout_ms: row.get(9)?,
            parameter_schema: Value::Null,
            parameter_defaults: Value::Null,
            wait_for_response: row.get(12)?,
            enabled: row.get(13)?,
            is_system: row.get(14)?,
            side_effect: row.get(15)?,
            policy: row.get(16)?,
            display: None,
            created_at: row.get(18)?,
            updated_at: row.get(19)?,
        },
        display: row.get(17)?,
        headers: row.get(8)?,
        schema: row.get(10)?,
        defaults: row.get(11)?,
    })
}

impl RawResource {
    fn parse(mut self) -> Result<ToolResource, Error> {
        self.r.http_headers = json_column(&self.headers, "tool_resources.http_headers")?;
        self.r.parameter_schema = json_column(&self.schema, "tool_resources.parameter_schema")?;
        self.r.parameter_defaults =
            json_column(&self.defaults, "tool_resources.parameter_defaults")?;
        self.r.display = self
            .display
            .as_deref()
            .map(serde_json::from_str)
            .transpose()
            .map_err(|source| Error::Json {
                column: "tool_resources.display",
                source,
            })?;
        Ok(self.r)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn resource(id: &str, system: bool) -> ToolResource {
        ToolResource {
            id: id.into(),
            user_id: 1,
            name: format!("Tool {id}"),
            description: "d".into(),
            category: if system { "system" } else { "query" }.into(),
            icon: None,
            http_method: "GET".into(),
            http_url: (!system).then(|| "http://127.0.0.1:9/x".into()),
            http_headers: json!({}),
            http_timeout_ms: 10_000,
            parameter_schema: json!({"type": "object"}),
            parameter_defaults: json!({}),
            wait_for_response: false,
            enabled: true,
            is_system: system,
            side_effect: "read".into(),
            policy: None,
            display: None,
            created_at: String::new(),
            updated_at: String::new(),
        }
    }

    #[test]
    fn display_text_is_kept_and_replaced_by_a_sync() {
        use deskmate_core::Localized;
        let store = Store::open_in_memory().unwrap_or_else(|e| panic!("{e}"));
        let shown = |name: &str| ToolDisplay {
            name: Localized::new("计算器", name),
            description: Localized::new("计算。", "Works it out."),
        };
        let mut calculator = resource("calculator", true);
        calculator.display = Some(shown("Calculator"));
        store
            .sync_system_resources(std::slice::from_ref(&calculator))
            .unwrap_or_else(|e| panic!("{e}"));
        let read = |id: &str| store.resource(id).ok().flatten().and_then(|r| r.display);
        assert_eq!(read("calculator"), Some(shown("Calculator")));
        calculator.display = Some(shown("Calc"));
        store
            .sync_system_resources(&[calculator])
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(read("calculator"), Some(shown("Calc")));
        let mut orders = store
            .insert_resource(&resource("orders", false))
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(orders.display, None);
        orders.display = Some(shown("Orders"));
        store
            .update_resource(&orders)
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(read("orders"), Some(shown("Orders")));
    }

    #[test]
    fn crud_and_listing() {
        let store = Store::open_in_memory().unwrap_or_else(|e| panic!("{e}"));
        store
            .sync_system_resources(&[resource("calculator", true), resource("current_time", true)])
            .unwrap_or_else(|e| panic!("{e}"));
        let created = store
            .insert_resource(&resource("orders", false))
            .unwrap_or_else(|e| panic!("{e}"));
        assert!(created.created_at.ends_with('Z'));
        assert!(
            store.insert_resource(&resource("orders", false)).is_err(),
            "ids are unique"
        );
        let (total, list) = store
            .list_resources(&ResourceFilter::default())
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(total, 3);
        assert_eq!(list[0].id, "calculator", "system tools first");
        let user_only = ResourceFilter {
            include_system: false,
            ..ResourceFilter::default()
        };
        assert_eq!(store.list_resources(&user_only).map(|r| r.0).ok(), Some(1));
        let query = ResourceFilter {
            category: Some("query".into()),
            ..ResourceFilter::default()
        };
        assert_eq!(store.list_resources(&query).map(|r| r.0).ok(), Some(1));

        let mut changed = created.clone();
        changed.enabled = false;
        changed.parameter_defaults = json!({"q": "x"});
        let updated = store
            .update_resource(&changed)
            .ok()
            .flatten()
            .unwrap_or_else(|| panic!("updated"));
        assert!(!updated.enabled);
        assert_eq!(updated.parameter_defaults, json!({"q": "x"}));
        assert_eq!(updated.created_at, created.created_at);
        assert_eq!(
            store.update_resource(&resource("nope", false)).ok(),
            Some(None)
        );
        let disabled = ResourceFilter {
            enabled: Some(false),
            ..ResourceFilter::default()
        };
        assert_eq!(store.list_resources(&disabled).map(|r| r.0).ok(), Some(1));
        assert_eq!(store.delete_resource("orders").ok(), Some(true));
        assert_eq!(store.delete_resource("orders").ok(), Some(false));
    }

    #[test]
    fn the_schema_refuses_bad_rows() {
        let store = Store::open_in_memory().unwrap_or_else(|e| panic!("{e}"));
        for bad in [
            ToolResource {
                id: "Bad-Id".into(),
                ..resource("x", false)
            },
            ToolResource {
                category: "other".into(),
                ..resource("x", false)
            },
            ToolResource {
                http_method: "TRACE".into(),
                ..resource("x", false)
            },
            ToolResource {
                http_timeout_ms: 5,
                ..resource("x", false)
            },
            ToolResource {
                name: String::new(),
                ..resource("x", false)
            },
        ] {
            assert!(store.insert_resource(&bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn system_sync_keeps_user_choices() {
        let store = Store::open_in_memory().unwrap_or_else(|e| panic!("{e}"));
        store
            .sync_system_resources(&[resource("calculator", true), resource("gone", true)])
            .unwrap_or_else(|e| panic!("{e}"));
        let mut calc = store
            .resource("calculator")
            .ok()
            .flatten()
            .unwrap_or_else(|| panic!("calc"));
        calc.enabled = false;
        calc.policy = Some("ask".into());
        store
            .update_resource(&calc)
            .unwrap_or_else(|e| panic!("{e}"));
        let mut newer = resource("calculator", true);
        newer.description = "new description".into();
        store
            .sync_system_resources(&[newer])
            .unwrap_or_else(|e| panic!("{e}"));
        let calc = store
            .resource("calculator")
            .ok()
            .flatten()
            .unwrap_or_else(|| panic!("calc"));
        assert_eq!(
            (
                calc.enabled,
                calc.policy.as_deref(),
                calc.description.as_str()
            ),
            (false, Some("ask"), "new description")
        );
        assert_eq!(store.resource("gone").ok(), Some(None));
    }
}
