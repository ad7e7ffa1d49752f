//! How to reach a running server: `<data-dir>/running.json` (`{url, token, pid}`, mode
//! 0600 like the token file), written once the API listens and removed when it stops.
//! `deskmate mcp` reads it to forward to the running app, so the app's dialogs ask the
//! person and its registry and audit are the ones in use.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

/// A running server.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Running {
    /// `http://127.0.0.1:PORT` (the API is under `/api/v1`, MCP at `/mcp`).
    pub url: String,
    /// Its bearer token.
    pub token: String,
    /// Its process id.
    pub pid: u32,
}

/// Where the file lives in a data dir.
pub fn path(data_dir: &Path) -> PathBuf {
    data_dir.join("running.json")
}

/// Writes the file (a temporary file renamed into place, so a reader never sees half).
pub fn write(data_dir: &Path, running: &Running) -> std::io::Result<()> {
    let text = serde_json::to_vec(running).map_err(std::io::Error::other)?;
    let temporary = data_dir.join(format!(".running.{}.json", running.pid));
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create(true).truncate(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    use std::io::Write;
    let mut file = options.open(&temporary)?;
    file.write_all(&text)?;
    file.sync_all()?;
    std::fs::rename(&temporary, path(data_dir))
}

/// The running server the file names, if the file exists and parses (whether it still
/// answers is for the caller to find out).
pub fn read(data_dir: &Path) -> Option<Running> {
    let text = std::fs::read(path(data_dir)).ok()?;
    serde_json::from_slice(&text).ok()
}

/// Removes the file if it names this process (a newer server may have replaced it).
pub fn remove(data_dir: &Path) {
    if read(data_dir).is_some_and(|r| r.pid == std::process::id()) {
        let _ = std::fs::remove_file(path(data_dir));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn written_read_and_removed_only_by_its_process() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(read(dir.path()), None);
        let mine = Running {
            url: "http://127.0.0.1:1".into(),
            token: "t".into(),
            pid: std::process::id(),
        };
        write(dir.path(), &mine).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(read(dir.path()), Some(mine.clone()));
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(path(dir.path()))
                .map(|m| m.permissions().mode() & 0o777)
                .unwrap_or(0);
            assert_eq!(mode, 0o600);
        }
        let other = Running {
            pid: mine.pid + 1,
            ..mine.clone()
        };
        write(dir.path(), &other).unwrap_or_else(|e| panic!("{e}"));
        remove(dir.path());
        assert_eq!(
            read(dir.path()),
            Some(other),
            "another process's file stays"
        );
        write(dir.path(), &mine).unwrap_or_else(|e| panic!("{e}"));
        remove(dir.path());
        assert_eq!(read(dir.path()), None);
    }
}
