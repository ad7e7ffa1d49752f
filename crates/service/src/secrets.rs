//! Secrets for HTTP tool headers and model API keys.
//!
//! Kept in `<data-dir>/secrets.json`, created with mode 0600 (readable by the user only)
//! and rewritten atomically. Secret values are only read by the HTTP executor; the API,
//! the logs and the audit see names or `••••`. (An OS keyring backend — Secret Service,
//! Keychain, Credential Manager — is not used yet: these machines have no keyring daemon
//! to test it against.)

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::RwLock;

use deskmate_tools::http_tool::SecretStore;

/// The file-backed secret store.
#[derive(Debug)]
pub struct FileSecrets {
    path: PathBuf,
    values: RwLock<BTreeMap<String, String>>,
}

/// Why a secret could not be stored.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SecretsError {
    /// The file could not be read or written.
    #[error("cannot use the secrets file {path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The I/O failure.
        source: std::io::Error,
    },
    /// The file is not a JSON object of strings.
    #[error("the secrets file {path} is malformed: {source}")]
    Malformed {
        /// The file.
        path: PathBuf,
        /// The parse error.
        source: serde_json::Error,
    },
    /// Names are `[A-Za-z0-9_.-]{1,64}`.
    #[error("'{0}' is not a valid secret name (letters, digits, '_', '.', '-'; at most 64)")]
    BadName(String),
}

/// Whether a secret name is acceptable.
pub fn valid_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 64
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-'))
}

impl FileSecrets {
    /// Opens (or starts) the store in `data_dir`.
    pub fn open(data_dir: &Path) -> Result<Self, SecretsError> {
        let path = data_dir.join("secrets.json");
        let values = match std::fs::read_to_string(&path) {
            Ok(text) => serde_json::from_str(&text).map_err(|source| SecretsError::Malformed {
                path: path.clone(),
                source,
            })?,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => BTreeMap::new(),
            Err(source) => return Err(SecretsError::Io { path, source }),
        };
        Ok(Self {
            path,
            values: RwLock::new(values),
        })
    }

    /// Sets a secret.
    pub fn set(&self, name: &str, value: &str) -> Result<(), SecretsError> {
        if !valid_name(name) {
            return Err(SecretsError::BadName(name.to_string()));
        }
        let mut values = self
            .values
            .write()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        values.insert(name.to_string(), value.to_string());
        self.persist(&values)
    }

    /// Removes a secret; returns whether it existed.
    pub fn remove(&self, name: &str) -> Result<bool, SecretsError> {
        let mut values = self
            .values
            .write()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let existed = values.remove(name).is_some();
        if existed {
            self.persist(&values)?;
        }
        Ok(existed)
    }

    /// The names of the secrets that are set.
    pub fn names(&self) -> Vec<String> {
        self.values
            .read()
            .map(|v| v.keys().cloned().collect())
            .unwrap_or_default()
    }

    fn persist(&self, values: &BTreeMap<String, String>) -> Result<(), SecretsError> {
        let io = |source| SecretsError::Io {
            path: self.path.clone(),
            source,
        };
        let text = serde_json::to_vec_pretty(values).map_err(|source| SecretsError::Malformed {
            path: self.path.clone(),
            source,
        })?;
        let tmp = self.path.with_extension("json.tmp");
        let mut options = std::fs::OpenOptions::new();
        options.write(true).create(true).truncate(true);
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt;
            options.mode(0o600);
        }
        let mut file = options.open(&tmp).map_err(io)?;
        file.write_all(&text).map_err(io)?;
        file.sync_all().map_err(io)?;
        // Rename is atomic: a reader sees the old file or the new one, never half of one.
        std::fs::rename(&tmp, &self.path).map_err(io)
    }
}

impl SecretStore for FileSecrets {
    fn secret(&self, name: &str) -> Option<String> {
        self.values.read().ok()?.get(name).cloned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secrets_persist_with_owner_only_permissions() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let secrets = FileSecrets::open(dir.path()).unwrap_or_else(|e| panic!("{e}"));
        secrets
            .set("ORDERS_KEY", "sk-1")
            .unwrap_or_else(|e| panic!("{e}"));
        assert!(secrets.set("bad name!", "x").is_err());
        let again = FileSecrets::open(dir.path()).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(again.secret("ORDERS_KEY").as_deref(), Some("sk-1"));
        assert_eq!(again.names(), ["ORDERS_KEY"]);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(dir.path().join("secrets.json"))
                .map(|m| m.permissions().mode() & 0o777)
                .unwrap_or(0);
            assert_eq!(mode, 0o600);
        }
        assert_eq!(again.remove("ORDERS_KEY").ok(), Some(true));
        assert_eq!(
            FileSecrets::open(dir.path()).map(|s| s.names().len()).ok(),
            Some(0)
        );
    }
}
