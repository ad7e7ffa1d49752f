//! Errors of the store.

/// A store operation failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// SQLite refused a statement.
    #[error("database error in `{sql}`: {source}")]
    Sql {
        /// The statement (or a short name of the operation).
        sql: String,
        /// SQLite's error.
        source: rusqlite::Error,
    },
    /// The schema could not be brought up to date.
    #[error("database migration failed: {0}")]
    Migration(#[from] rusqlite_migration::Error),
    /// The database file could not be opened.
    #[error("cannot open the database {path}: {source}")]
    Open {
        /// The file.
        path: String,
        /// SQLite's error.
        source: rusqlite::Error,
    },
    /// A stored JSON column did not hold the expected shape.
    #[error("stored JSON in {column} is malformed: {source}")]
    Json {
        /// The column.
        column: &'static str,
        /// The parse error.
        source: serde_json::Error,
    },
    /// A create named an id that is used.
    #[error("{table} already has a row with id '{id}'")]
    Taken {
        /// The table.
        table: &'static str,
        /// The id.
        id: String,
    },
    /// A create or update gave a column that holds one value per row (a model's file) a
    /// value another row has.
    #[error("{table} already has a row with this {column}")]
    Duplicate {
        /// The table.
        table: &'static str,
        /// The column.
        column: &'static str,
    },
    /// Another thread panicked while holding the connection.
    #[error("the database connection is unusable after a crash in another thread")]
    Poisoned,
}

/// Adds the failing statement to a rusqlite error.
pub(crate) trait Context<T> {
    fn sql(self, sql: &str) -> Result<T, Error>;
}

impl<T> Context<T> for Result<T, rusqlite::Error> {
    fn sql(self, sql: &str) -> Result<T, Error> {
        self.map_err(|source| Error::Sql {
            sql: sql.to_string(),
            source,
        })
    }
}
