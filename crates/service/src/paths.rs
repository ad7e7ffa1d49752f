//! Where Deskmate keeps its data.

use std::path::PathBuf;

use crate::Error;

/// The OS app-data dir for Deskmate (`~/.local/share/deskmate` on Linux).
pub fn default_data_dir() -> Result<PathBuf, Error> {
    directories::ProjectDirs::from("", "", "deskmate")
        .map(|dirs| dirs.data_dir().to_path_buf())
        .ok_or(Error::NoDefaultDataDir)
}
