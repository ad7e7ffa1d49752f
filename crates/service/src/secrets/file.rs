//! The owner-only (0600) JSON file under the data dir, written atomically: the secrets'
//! store where no OS keyring answers, and the keyring's index of names.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};

use super::SecretsError;

/// Reads a JSON file (a missing file is `T::default()`).
pub(crate) fn read<T: serde::de::DeserializeOwned + Default>(
    path: &Path,
) -> Result<T, SecretsError> {
    match std::fs::read_to_string(path) {
        Ok(text) if text.trim().is_empty() => Ok(T::default()),
        Ok(text) => serde_json::from_str(&text).map_err(|source| SecretsError::Malformed {
            path: path.to_path_buf(),
            source,
        }),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(T::default()),
        Err(source) => Err(SecretsError::Io {
            path: path.to_path_buf(),
            source,
        }),
    }
}

/// Writes `value` as JSON readable by the owner only; a reader sees the old file or the
/// new one, never half of one.
pub(crate) fn write<T: serde::Serialize>(path: &Path, value: &T) -> Result<(), SecretsError> {
    let io = |source| SecretsError::Io {
        path: path.to_path_buf(),
        source,
    };
    let text = serde_json::to_vec_pretty(value).map_err(|source| SecretsError::Malformed {
        path: path.to_path_buf(),
        source,
    })?;
    let tmp = path.with_extension("json.tmp");
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
    std::fs::rename(&tmp, path).map_err(io)
}

/// `<data-dir>/secrets.json`: name → value.
#[derive(Debug)]
pub(crate) struct SecretsFile {
    pub(crate) path: PathBuf,
}

impl SecretsFile {
    pub(crate) fn new(data_dir: &Path) -> Self {
        Self {
            path: data_dir.join("secrets.json"),
        }
    }

    pub(crate) fn load(&self) -> Result<BTreeMap<String, String>, SecretsError> {
        read(&self.path)
    }

    pub(crate) fn save(&self, values: &BTreeMap<String, String>) -> Result<(), SecretsError> {
        write(&self.path, values)
    }
}
