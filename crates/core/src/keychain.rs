//! Where API keys live: the OS keychain, behind a small trait so tests can swap in memory.
//!
//! Keys never leave Rust: nothing here implements `Serialize`, and [`Secret`] hides itself
//! from `Debug` and `Display`, so a key cannot slip into a log line, an error or an IPC reply.

use std::collections::HashMap;
use std::fmt;
use std::sync::Mutex;

use serde::Serialize;
use ts_rs::TS;

/// A secret value that refuses to print itself.
#[derive(Clone, PartialEq, Eq)]
pub struct Secret(String);

impl Secret {
    /// Wraps `value`; from here on it prints as `<redacted>`.
    pub fn new(value: impl Into<String>) -> Self {
        Self(value.into())
    }

    /// The raw value, for the one place that needs it: the request header.
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl Drop for Secret {
    /// Overwrites the value before its memory is freed, so an API key or the signing key's PEM
    /// does not linger in freed heap for a crash dump or a swap file to keep.
    fn drop(&mut self) {
        // SAFETY: the bytes are overwritten with zeros, which are valid UTF-8, and the String is
        // dropped right after; volatile writes so the compiler cannot drop the stores as dead.
        let bytes = unsafe { self.0.as_mut_vec() };
        for byte in bytes.iter_mut() {
            unsafe { std::ptr::write_volatile(byte, 0) };
        }
        std::sync::atomic::compiler_fence(std::sync::atomic::Ordering::SeqCst);
    }
}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Secret(<redacted>)")
    }
}

impl fmt::Display for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("<redacted>")
    }
}

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
/// What went wrong with the keychain, in words the user can act on.
pub enum SecretError {
    /// The keychain could not be reached or is locked; the message says which, in plain words.
    #[error("The system keychain is not available: {0}")]
    Unavailable(String),
    /// The keychain answered but refused (denied, or the entry could not be written).
    #[error("The system keychain refused the operation: {0}")]
    Failed(String),
}

/// Whether the OS keychain answers, shown in Settings.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct KeychainStatus {
    /// The keychain answered a harmless read.
    pub reachable: bool,
    /// Which keychain this is, or why it could not be reached, in plain words.
    pub detail: String,
}

/// A store of named secrets (one entry per key label).
pub trait SecretStore: Send + Sync {
    /// The secret stored under `label`, or `None` when there is none.
    fn get(&self, label: &str) -> Result<Option<Secret>, SecretError>;
    /// Stores `secret` under `label`, replacing any earlier value.
    fn set(&self, label: &str, secret: &Secret) -> Result<(), SecretError>;
    /// Removes `label`; answers whether there was anything to remove.
    fn delete(&self, label: &str) -> Result<bool, SecretError>;
    /// Checks that the store answers, without writing anything.
    fn status(&self) -> KeychainStatus;
}

/// The platform keychain through `keyring`: Secret Service on Linux, Keychain on macOS,
/// Credential Manager on Windows.
pub struct KeyringStore {
    service: String,
}

impl KeyringStore {
    /// `service` names the app's entries in the keychain (the app identifier).
    pub fn new(service: impl Into<String>) -> Self {
        Self {
            service: service.into(),
        }
    }

    fn entry(&self, label: &str) -> Result<keyring::Entry, SecretError> {
        keyring::Entry::new(&self.service, label).map_err(classify)
    }
}

/// Sorts keyring's errors into "cannot reach the keychain" and "it said no".
fn classify(error: keyring::Error) -> SecretError {
    match error {
        keyring::Error::NoStorageAccess(inner) => {
            SecretError::Unavailable(format!("it may be locked or not running ({inner})"))
        }
        keyring::Error::PlatformFailure(inner) => SecretError::Unavailable(inner.to_string()),
        other => SecretError::Failed(other.to_string()),
    }
}

impl SecretStore for KeyringStore {
    fn get(&self, label: &str) -> Result<Option<Secret>, SecretError> {
        match self.entry(label)?.get_password() {
            Ok(value) => Ok(Some(Secret(value))),
            Err(keyring::Error::NoEntry) => Ok(None),
            Err(error) => Err(classify(error)),
        }
    }

    fn set(&self, label: &str, secret: &Secret) -> Result<(), SecretError> {
        self.entry(label)?
            .set_password(secret.expose())
            .map_err(classify)
    }

    fn delete(&self, label: &str) -> Result<bool, SecretError> {
        match self.entry(label)?.delete_credential() {
            Ok(()) => Ok(true),
            Err(keyring::Error::NoEntry) => Ok(false),
            Err(error) => Err(classify(error)),
        }
    }

    fn status(&self) -> KeychainStatus {
        // Reading an entry that does not exist proves the keychain answers without changing it.
        match self.get("sightline-keychain-probe") {
            Ok(_) => KeychainStatus {
                reachable: true,
                detail: platform_keychain_name().into(),
            },
            Err(error) => KeychainStatus {
                reachable: false,
                detail: error.to_string(),
            },
        }
    }
}

fn platform_keychain_name() -> &'static str {
    if cfg!(target_os = "macos") {
        "macOS Keychain"
    } else if cfg!(target_os = "windows") {
        "Windows Credential Manager"
    } else {
        "Secret Service (GNOME Keyring or KWallet)"
    }
}

/// Keeps secrets in memory: for unit tests that need speed, never for the product.
#[derive(Default)]
pub struct MemoryStore {
    entries: Mutex<HashMap<String, Secret>>,
}

impl SecretStore for MemoryStore {
    fn get(&self, label: &str) -> Result<Option<Secret>, SecretError> {
        Ok(self
            .entries
            .lock()
            .expect("memory store poisoned")
            .get(label)
            .cloned())
    }

    fn set(&self, label: &str, secret: &Secret) -> Result<(), SecretError> {
        self.entries
            .lock()
            .expect("memory store poisoned")
            .insert(label.into(), secret.clone());
        Ok(())
    }

    fn delete(&self, label: &str) -> Result<bool, SecretError> {
        Ok(self
            .entries
            .lock()
            .expect("memory store poisoned")
            .remove(label)
            .is_some())
    }

    fn status(&self) -> KeychainStatus {
        KeychainStatus {
            reachable: true,
            detail: "in-memory store".into(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const KEY_A: &str = "dt_$abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQ";
    const KEY_B: &str = "dt_$QPONMLKJIHGFEDCBAzyxwvutsrqponmlkjihgfedcba";

    /// The life of one key: store, read, replace, delete. Shared by the fake and the real store.
    fn exercise(store: &dyn SecretStore, label: &str) {
        assert_eq!(store.get(label).unwrap(), None, "the label starts empty");
        store.set(label, &Secret::new(KEY_A)).unwrap();
        assert_eq!(store.get(label).unwrap(), Some(Secret::new(KEY_A)));
        store.set(label, &Secret::new(KEY_B)).unwrap();
        assert_eq!(
            store.get(label).unwrap(),
            Some(Secret::new(KEY_B)),
            "set replaces"
        );
        assert!(store.delete(label).unwrap());
        assert_eq!(store.get(label).unwrap(), None);
        assert!(
            !store.delete(label).unwrap(),
            "deleting twice reports nothing removed"
        );
    }

    #[test]
    fn memory_store_keeps_replaces_and_deletes() {
        exercise(&MemoryStore::default(), "work");
    }

    #[test]
    fn secret_never_prints_itself() {
        let secret = Secret::new(KEY_A);
        assert!(!format!("{secret:?}").contains("abcdef"));
        assert!(!format!("{secret}").contains("abcdef"));
        assert!(!format!("{:?}", Some(&secret)).contains("abcdef"));
    }

    /// Runs against the real Secret Service. `make test` provides one (a private D-Bus session
    /// with an unlocked gnome-keyring, see scripts/with-keyring.sh); without it this fails, on
    /// purpose, rather than silently testing nothing.
    #[test]
    fn real_keychain_keeps_replaces_and_deletes() {
        let store = KeyringStore::new("app.sightline.desktop.tests");
        let status = store.status();
        assert!(
            status.reachable,
            "no Secret Service: {} (run via scripts/with-keyring.sh)",
            status.detail
        );
        let label = format!("roundtrip-{}", std::process::id());
        exercise(&store, &label);
    }
}
