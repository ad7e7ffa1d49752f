//! Secrets for HTTP tool headers and model API keys.
//!
//! They live in the OS keyring ([`keyring`]: Secret Service, Keychain, Credential Manager)
//! where one answers when Deskmate starts; only where none does, in the owner-only (0600)
//! file `<data-dir>/secrets.json` ([`file`]). Secrets found in that file when a keyring
//! answers are moved into the keyring and the file is emptied. `DESKMATE_SECRET_STORE=file`
//! chooses the file (hermetic tests do); `keyring` or `auto` (the default) try the keyring.
//!
//! Values are kept in memory once read, so a tool call never waits for the keyring.
//! Secret values are only read by the HTTP executor and model clients; the API, the logs
//! and the audit see names, the store in use, or `••••`.

mod file;
mod keyring;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::RwLock;

use deskmate_core::{Localized, said};
use deskmate_tools::http_tool::SecretStore;
use serde::Serialize;

/// The environment variable that chooses the store: `auto` (default), `keyring`, `file`.
pub const STORE_ENV: &str = "DESKMATE_SECRET_STORE";

/// Where the secrets are.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum StoreKind {
    /// The OS keyring.
    Keyring,
    /// The owner-only file in the data dir.
    File,
}

/// The store in use and why (shown in the GUI and the autotest).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct StoreInfo {
    /// Keyring or file.
    pub backend: StoreKind,
    /// Which keyring, or which file and why no keyring.
    pub detail: String,
    /// The same in Chinese.
    pub detail_zh: String,
}

/// The secrets: a keyring or the file behind an in-memory copy.
#[derive(Debug)]
pub struct Secrets {
    values: RwLock<BTreeMap<String, String>>,
    backend: Backend,
    info: StoreInfo,
}

#[derive(Debug)]
enum Backend {
    Keyring(keyring::OsKeyring),
    File(file::SecretsFile),
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
    /// The OS keyring refused or did not answer.
    #[error("{0}")]
    Keyring(String),
}

/// Whether a secret name is acceptable.
pub fn valid_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 64
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-'))
}

impl Secrets {
    /// Opens the store for `data_dir` as `DESKMATE_SECRET_STORE` says (default: the OS
    /// keyring when one answers, else the file).
    pub fn open(data_dir: &Path) -> Result<Self, SecretsError> {
        let file_only = std::env::var(STORE_ENV).is_ok_and(|v| v.eq_ignore_ascii_case("file"));
        Self::open_with(data_dir, !file_only)
    }

    /// Opens the store; `try_keyring` false means the file.
    pub fn open_with(data_dir: &Path, try_keyring: bool) -> Result<Self, SecretsError> {
        let file = file::SecretsFile::new(data_dir);
        let in_file = file.load()?;
        let why_file = if try_keyring {
            match keyring::OsKeyring::connect(data_dir) {
                Ok(ring) => match Self::on_keyring(ring, &file, &in_file) {
                    Ok(secrets) => return Ok(secrets),
                    Err(why) => why,
                },
                Err(why) => why,
            }
        } else {
            format!("{STORE_ENV}=file")
        };
        tracing::info!(file = %file.path.display(), reason = %why_file, "secrets are kept in the owner-only file");
        Ok(Self {
            values: RwLock::new(in_file),
            info: StoreInfo {
                backend: StoreKind::File,
                detail: format!(
                    "{} (readable by this user only); not the OS keyring: {why_file}",
                    file.path.display()
                ),
                detail_zh: format!(
                    "{}（仅当前用户可读）；没有使用系统钥匙串：{why_file}",
                    file.path.display()
                ),
            },
            backend: Backend::File(file),
        })
    }

    /// The keyring's secrets, after moving the file's into it (then emptying the file).
    /// `Err` says why the file stays in use; nothing is lost either way.
    fn on_keyring(
        ring: keyring::OsKeyring,
        file: &file::SecretsFile,
        in_file: &BTreeMap<String, String>,
    ) -> Result<Self, String> {
        let mut values = BTreeMap::new();
        for name in ring.names().map_err(|e| e.to_string())? {
            match ring.get(&name)? {
                Some(value) => {
                    values.insert(name, value);
                }
                None => tracing::warn!(secret = %name, "a secret is no longer in the OS keyring"),
            }
        }
        for (name, value) in in_file {
            ring.put(name, value)?;
            values.insert(name.clone(), value.clone());
        }
        let names: Vec<String> = values.keys().cloned().collect();
        ring.save_names(&names).map_err(|e| e.to_string())?;
        if !in_file.is_empty() {
            file.save(&BTreeMap::new()).map_err(|e| e.to_string())?;
            tracing::info!(
                moved = in_file.len(),
                "secrets moved from the file into the OS keyring"
            );
        }
        Ok(Self {
            values: RwLock::new(values),
            info: StoreInfo {
                backend: StoreKind::Keyring,
                detail: format!("OS keyring: {}", ring.describe),
                detail_zh: format!("系统钥匙串：“{}”", ring.describe),
            },
            backend: Backend::Keyring(ring),
        })
    }

    /// The store in use.
    pub fn store(&self) -> &StoreInfo {
        &self.info
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
        let mut next = values.clone();
        next.insert(name.to_string(), value.to_string());
        match &self.backend {
            Backend::File(file) => file.save(&next)?,
            Backend::Keyring(ring) => {
                ring.put(name, value).map_err(SecretsError::Keyring)?;
                ring.save_names(&next.keys().cloned().collect::<Vec<_>>())?;
            }
        }
        *values = next;
        Ok(())
    }

    /// Removes a secret; returns whether it existed.
    pub fn remove(&self, name: &str) -> Result<bool, SecretsError> {
        let mut values = self
            .values
            .write()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if !values.contains_key(name) {
            return Ok(false);
        }
        let mut next = values.clone();
        next.remove(name);
        match &self.backend {
            Backend::File(file) => file.save(&next)?,
            Backend::Keyring(ring) => {
                ring.delete(name).map_err(SecretsError::Keyring)?;
                ring.save_names(&next.keys().cloned().collect::<Vec<_>>())?;
            }
        }
        *values = next;
        Ok(true)
    }

    /// The names of the secrets that are set.
    pub fn names(&self) -> Vec<String> {
        self.values
            .read()
            .map(|v| v.keys().cloned().collect())
            .unwrap_or_default()
    }

    /// Reads every secret back from the store itself (not the in-memory copy): `Ok`
    /// with what was found, `Err` naming the secrets the store no longer has. Blocking.
    pub fn verify(&self) -> Result<Localized, Localized> {
        let names = self.names();
        let missing: Vec<String> = match &self.backend {
            Backend::File(file) => {
                let stored = file.load().map_err(|e| Localized::same(e.to_string()))?;
                names
                    .into_iter()
                    .filter(|n| !stored.contains_key(n))
                    .collect()
            }
            Backend::Keyring(ring) => {
                let mut missing = Vec::new();
                for name in names {
                    if ring.get(&name).map_err(Localized::same)?.is_none() {
                        missing.push(name);
                    }
                }
                missing
            }
        };
        let count = self.names().len();
        let (detail, detail_zh) = (&self.info.detail, &self.info.detail_zh);
        if missing.is_empty() {
            Ok(said!(
                "{count} 个密钥，全部可读；{detail_zh}",
                "{count} secret(s), all readable; {detail}"
            ))
        } else {
            let (gone, names) = (missing.len(), missing.join(", "));
            Err(said!(
                "{count} 个密钥中有 {gone} 个已不在存储中：{names}——请在“工具 → 密钥”中重新设置（{detail_zh}）",
                "{gone} of {count} secret(s) are no longer in the store: {names} — set them again under Tools → Secrets ({detail})"
            ))
        }
    }
}

impl SecretStore for Secrets {
    fn secret(&self, name: &str) -> Option<String> {
        self.values.read().ok()?.get(name).cloned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secrets_persist_in_the_file_with_owner_only_permissions() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let secrets = Secrets::open_with(dir.path(), false).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(secrets.store().backend, StoreKind::File);
        secrets
            .set("ORDERS_KEY", "sk-1")
            .unwrap_or_else(|e| panic!("{e}"));
        assert!(secrets.set("bad name!", "x").is_err());
        let again = Secrets::open_with(dir.path(), false).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(again.secret("ORDERS_KEY").as_deref(), Some("sk-1"));
        assert_eq!(again.names(), ["ORDERS_KEY"]);
        assert!(
            again
                .verify()
                .is_ok_and(|m| m.en.starts_with("1 secret(s)") && m.zh.starts_with("1 个密钥"))
        );
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(dir.path().join("secrets.json"))
                .map(|m| m.permissions().mode() & 0o777)
                .unwrap_or(0);
            assert_eq!(mode, 0o600);
        }
        // Removed behind Deskmate's back: the check names it.
        std::fs::write(dir.path().join("secrets.json"), "{}").unwrap_or_else(|e| panic!("{e}"));
        assert!(
            again
                .verify()
                .is_err_and(|m| m.en.contains("ORDERS_KEY") && m.zh.contains("ORDERS_KEY"))
        );
        assert_eq!(again.remove("ORDERS_KEY").ok(), Some(true));
        assert_eq!(again.remove("ORDERS_KEY").ok(), Some(false));
        assert_eq!(
            Secrets::open_with(dir.path(), false)
                .map(|s| s.names().len())
                .ok(),
            Some(0)
        );
    }

    #[test]
    fn without_a_keyring_the_file_is_used_and_the_reason_shown() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        // Not a keyring test: whatever this machine has, the file is asked for here.
        let secrets = Secrets::open_with(dir.path(), false).unwrap_or_else(|e| panic!("{e}"));
        assert!(
            secrets.store().detail.contains("secrets.json"),
            "{:?}",
            secrets.store()
        );
        assert!(
            secrets.store().detail.contains(STORE_ENV),
            "{:?}",
            secrets.store()
        );
    }
}
