//! Settings: JSON values by key.

use rusqlite::{OptionalExtension, params};
use serde_json::Value;

use crate::error::Context;
use crate::{Error, NOW, Store, json_column};

impl Store {
    /// The value of a setting, if set.
    pub fn setting(&self, key: &str) -> Result<Option<Value>, Error> {
        let sql = "SELECT value FROM settings WHERE key = ?1";
        let text: Option<String> = self
            .conn()?
            .query_row(sql, [key], |row| row.get(0))
            .optional()
            .sql(sql)?;
        text.map(|t| json_column(&t, "settings.value")).transpose()
    }

    /// Sets a setting.
    pub fn set_setting(&self, key: &str, value: &Value) -> Result<(), Error> {
        let sql = format!(
            "INSERT INTO settings (key, value, updated_at) VALUES (?1, ?2, {NOW}) \
             ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at"
        );
        self.conn()?
            .execute(&sql, params![key, value.to_string()])
            .sql(&sql)?;
        Ok(())
    }
}
