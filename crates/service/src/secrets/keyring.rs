//! Secrets in the OS keyring through the `keyring` crate: the Secret Service on Linux
//! (GNOME Keyring, KWallet), the Keychain on macOS, the Credential Manager on Windows.
//!
//! Each secret is one keyring entry (service `deskmate <data dir>`, user = the secret's
//! name), so two data dirs never share one. A keyring cannot list its entries, so the
//! names (never the values) are kept in `<data-dir>/secrets.index.json`.
//!
//! Every keyring call runs on its own thread with a time limit: a keyring that waits for
//! a person to unlock it (a prompt) must not hang Deskmate. On Linux the session bus is
//! asked first whether a Secret Service runs; one that is only activatable is not started
//! (starting one can take minutes, or start one without a login collection).

use std::path::{Path, PathBuf};
use std::time::Duration;

use super::SecretsError;
use super::file;

/// How long one keyring call may take.
const CALL_LIMIT: Duration = Duration::from_secs(5);

/// The keyring entries of one data dir.
#[derive(Debug)]
pub(crate) struct OsKeyring {
    service: String,
    index: PathBuf,
    /// What answers (for the GUI and the autotest).
    pub(crate) describe: String,
}

/// Runs a blocking keyring call on its own thread, at most `CALL_LIMIT`.
fn limited<T: Send + 'static>(
    what: &str,
    call: impl FnOnce() -> Result<T, keyring::Error> + Send + 'static,
) -> Result<T, String> {
    let (tx, rx) = std::sync::mpsc::channel();
    let spawned = std::thread::Builder::new()
        .name("deskmate-keyring".into())
        .spawn(move || {
            let _ = tx.send(call());
        });
    if let Err(e) = spawned {
        return Err(format!("cannot start a thread for the keyring: {e}"));
    }
    match rx.recv_timeout(CALL_LIMIT) {
        Ok(Ok(value)) => Ok(value),
        Ok(Err(e)) => Err(format!("the keyring refused to {what}: {e}")),
        Err(_) => Err(format!(
            "the keyring did not {what} within {} s (is it locked and waiting for a password?)",
            CALL_LIMIT.as_secs()
        )),
    }
}

/// Whether a Secret Service runs on the session bus (Linux).
#[cfg(target_os = "linux")]
fn service_running() -> Result<(), String> {
    let check = || -> Result<bool, String> {
        let connection = zbus::blocking::Connection::session()
            .map_err(|e| format!("no D-Bus session bus ({e})"))?;
        let bus = zbus::blocking::fdo::DBusProxy::new(&connection)
            .map_err(|e| format!("the session bus does not answer ({e})"))?;
        let name =
            zbus::names::BusName::try_from("org.freedesktop.secrets").map_err(|e| e.to_string())?;
        bus.name_has_owner(name).map_err(|e| e.to_string())
    };
    let (tx, rx) = std::sync::mpsc::channel();
    let _ = std::thread::Builder::new()
        .name("deskmate-keyring-probe".into())
        .spawn(move || {
            let _ = tx.send(check());
        });
    match rx.recv_timeout(Duration::from_secs(3)) {
        Ok(Ok(true)) => Ok(()),
        Ok(Ok(false)) => Err(
            "no Secret Service runs on the session bus (GNOME Keyring or KWallet is not started)"
                .into(),
        ),
        Ok(Err(why)) => Err(why),
        Err(_) => Err("the session bus did not answer within 3 s".into()),
    }
}

#[cfg(not(target_os = "linux"))]
fn service_running() -> Result<(), String> {
    Ok(())
}

impl OsKeyring {
    /// The keyring, when one answers: the platform store opens and a probe entry can be
    /// written and deleted. `Err` says why not.
    pub(crate) fn connect(data_dir: &Path) -> Result<Self, String> {
        service_running()?;
        let ring = Self {
            service: format!("deskmate {}", data_dir.display()),
            index: data_dir.join("secrets.index.json"),
            describe: if cfg!(target_os = "macos") {
                "macOS Keychain".into()
            } else if cfg!(windows) {
                "Windows Credential Manager".into()
            } else {
                "Secret Service (org.freedesktop.secrets)".into()
            },
        };
        limited("open", || match keyring::Entry::store_status() {
            Ok(()) => Ok(()),
            // The store's own error is not clonable; its text is what matters.
            Err(e) => Err(keyring::Error::Invalid("store".into(), e.to_string())),
        })?;
        ring.put(".deskmate-probe", "probe")?;
        ring.delete(".deskmate-probe")?;
        Ok(ring)
    }

    fn entry(&self, name: &str) -> Result<keyring::Entry, String> {
        keyring::Entry::new(&self.service, name)
            .map_err(|e| format!("the keyring has no entry for '{name}': {e}"))
    }

    /// Stores a value.
    pub(crate) fn put(&self, name: &str, value: &str) -> Result<(), String> {
        let entry = self.entry(name)?;
        let value = value.to_string();
        limited("store a secret", move || entry.set_password(&value))
    }

    /// Removes an entry (a missing one is fine).
    pub(crate) fn delete(&self, name: &str) -> Result<(), String> {
        let entry = self.entry(name)?;
        limited("delete a secret", move || match entry.delete_credential() {
            Err(keyring::Error::NoEntry) => Ok(()),
            other => other,
        })
    }

    /// A value, `None` when the keyring has no such entry.
    pub(crate) fn get(&self, name: &str) -> Result<Option<String>, String> {
        let entry = self.entry(name)?;
        limited("read a secret", move || match entry.get_password() {
            Ok(value) => Ok(Some(value)),
            Err(keyring::Error::NoEntry) => Ok(None),
            Err(e) => Err(e),
        })
    }

    /// The names stored by this data dir.
    pub(crate) fn names(&self) -> Result<Vec<String>, SecretsError> {
        file::read(&self.index)
    }

    /// Records the names stored.
    pub(crate) fn save_names(&self, names: &[String]) -> Result<(), SecretsError> {
        file::write(&self.index, &names)
    }
}
