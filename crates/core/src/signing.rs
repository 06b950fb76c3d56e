//! This installation's signing identity: an Ed25519 key pair made at first use, with which
//! later work (bundle manifests, WACZ) signs what it writes, so a reader can tell who made a
//! file and that nobody changed it since.
//!
//! * The private key lives only in the OS keychain, beside the API keys (same service, its own
//!   entry [`KEYCHAIN_LABEL`]), as PKCS#8 PEM. [`Signer`] holds it in memory: it is neither
//!   `Clone` nor `Serialize`, prints itself redacted, and its bytes are wiped when it drops.
//!   Nothing that crosses IPC ([`SigningIdentity`], [`KeptKey`]) can hold it.
//! * Public keys are not secret: the current one and every earlier one are kept in
//!   `signing-keys.json` in the data folder, with their fingerprints and dates, so a signature
//!   made before a rotation still verifies ([`known_key`]).
//! * A public key is written as PEM SubjectPublicKeyInfo (`-----BEGIN PUBLIC KEY-----`), the
//!   form `openssl pkeyutl -verify -pubin -rawin` reads. Its fingerprint is the SHA-256 of that
//!   key's DER bytes (the PEM's body), in lowercase hex: anyone can recompute it with
//!   `openssl pkey -pubin -in key.pem -outform DER | sha256sum`, and it names the algorithm too.
//! * The collector's name ("Collected by") is a setting ([`AppSettings::collected_by`]).

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use chrono::Utc;
use ed25519_dalek::pkcs8::spki::der::pem::LineEnding;
use ed25519_dalek::pkcs8::{DecodePrivateKey, DecodePublicKey, EncodePrivateKey, EncodePublicKey};
use ed25519_dalek::{SigningKey, VerifyingKey};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use sightline_api::FieldError;
use ts_rs::TS;

use crate::errors::CommandError;
use crate::keychain::{Secret, SecretError, SecretStore};
use crate::settings::{collector_problem, AppSettings, JsonFile};
use crate::state::AppState;

/// The keychain entry of the private key, in the app's keychain service. API key labels may not
/// take this name ([`crate::keys`]).
pub const KEYCHAIN_LABEL: &str = "sightline-signing-key";

/// The public keys, current and earlier, in the data folder.
const KEPT_KEYS_FILE: &str = "signing-keys.json";

/// One Ed25519 public key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PublicKey(VerifyingKey);

impl PublicKey {
    /// PEM SubjectPublicKeyInfo, as exported and as openssl reads it.
    pub fn to_pem(&self) -> String {
        self.0
            .to_public_key_pem(LineEnding::LF)
            .expect("an Ed25519 public key always encodes")
    }

    /// Reads a PEM SubjectPublicKeyInfo holding an Ed25519 key.
    pub fn from_pem(pem: &str) -> Result<Self, CommandError> {
        VerifyingKey::from_public_key_pem(pem.trim())
            .map(Self)
            .map_err(|error| {
                CommandError::file(format!("This is not an Ed25519 public key ({error})."))
            })
    }

    /// SHA-256 of the key's SubjectPublicKeyInfo DER, lowercase hex (64 characters).
    pub fn fingerprint(&self) -> String {
        let der = self
            .0
            .to_public_key_der()
            .expect("an Ed25519 public key always encodes");
        Sha256::digest(der.as_bytes())
            .iter()
            .map(|byte| format!("{byte:02x}"))
            .collect()
    }

    /// The raw 32 bytes (RFC 8032).
    pub fn to_bytes(&self) -> [u8; 32] {
        self.0.to_bytes()
    }
}

/// A signature, and the fingerprint of the key that made it (to find that key among the kept
/// ones when checking it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Signature {
    /// The 64-byte Ed25519 signature (RFC 8032), as openssl writes and reads it.
    pub bytes: [u8; 64],
    /// [`PublicKey::fingerprint`] of the signing key.
    pub key_fingerprint: String,
}

/// The private key, read from the keychain for as long as a signing takes.
pub struct Signer {
    key: SigningKey,
}

impl std::fmt::Debug for Signer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Signer({})", self.public_key().fingerprint())
    }
}

impl Signer {
    /// A new key from 32 bytes of the operating system's randomness.
    fn generate() -> Result<Self, CommandError> {
        let mut seed = ed25519_dalek::SecretKey::default();
        getrandom::getrandom(&mut seed).map_err(|error| {
            CommandError::system(format!(
                "The system gave no randomness for a new signing key: {error}"
            ))
        })?;
        let key = SigningKey::from_bytes(&seed);
        seed.fill(0);
        Ok(Self { key })
    }

    /// The public half.
    pub fn public_key(&self) -> PublicKey {
        PublicKey(self.key.verifying_key())
    }

    /// Signs `bytes` (Ed25519, no pre-hash).
    pub fn sign(&self, bytes: &[u8]) -> Signature {
        use ed25519_dalek::Signer as _;
        Signature {
            bytes: self.key.sign(bytes).to_bytes(),
            key_fingerprint: self.public_key().fingerprint(),
        }
    }

    /// An ECDSA P-384 key derived from this identity's private key, for a format whose readers
    /// check only ECDSA: a WACZ's `signedData`, which ReplayWeb.page checks with WebCrypto's
    /// ECDSA P-384 (`crate::wacz`). Derived, not stored: it is made, kept and rotated with the
    /// identity, and the archive states whose it is with an Ed25519 signature over it.
    pub fn derived_p384(&self) -> p384::ecdsa::SigningKey {
        use sha2::Sha384;
        let mut seed = self.key.to_bytes();
        // A 48-byte hash is a valid scalar but for odds of about 2^-190; the counter moves on.
        let key = (0u32..)
            .find_map(|counter| {
                let mut digest = Sha384::new();
                digest.update(b"sightline/wacz-signing/p384/v1");
                digest.update(seed);
                digest.update(counter.to_be_bytes());
                p384::ecdsa::SigningKey::from_bytes(&digest.finalize()).ok()
            })
            .expect("some counter gives a valid scalar");
        seed.fill(0);
        key
    }

    fn to_secret(&self) -> Secret {
        let pem = self
            .key
            .to_pkcs8_pem(LineEnding::LF)
            .expect("an Ed25519 private key always encodes");
        Secret::new(pem.as_str())
    }

    fn from_secret(secret: &Secret) -> Result<Self, CommandError> {
        // The error says nothing of the value: it may be a part of the key.
        SigningKey::from_pkcs8_pem(secret.expose())
            .map(|key| Self { key })
            .map_err(|_| CommandError::Keychain {
                message: format!(
                    "The signing key in the keychain (entry “{KEYCHAIN_LABEL}”) cannot be read. \
                     Rotate it in Settings → Signing identity to make a new one; what it \
                     signed before still verifies with its kept public key."
                ),
            })
    }
}

/// Whether `signature` is `public_key`'s over exactly `bytes` (strict RFC 8032 checks: a weak
/// key or a malleated signature is refused).
pub fn verify(public_key: &PublicKey, bytes: &[u8], signature: &Signature) -> bool {
    let signature = ed25519_dalek::Signature::from_bytes(&signature.bytes);
    public_key.0.verify_strict(bytes, &signature).is_ok()
}

/// Why a key is no longer the one that signs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub enum RetiredBecause {
    /// The user rotated it.
    Rotated,
    /// Its private key was no longer in the keychain (it was removed or the keychain was
    /// reset), so a new key was made.
    NotInKeychain,
}

/// A public key Sightline keeps: the current one or an earlier one.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct KeptKey {
    /// [`PublicKey::fingerprint`].
    pub fingerprint: String,
    /// PEM SubjectPublicKeyInfo (public: it is what a reader checks signatures with).
    pub public_key_pem: String,
    /// When the key was made (RFC 3339, UTC).
    pub created_at: String,
    /// When it stopped signing; `None` for the current key.
    pub retired_at: Option<String>,
    /// Why it stopped signing; `None` for the current key.
    pub retired_because: Option<RetiredBecause>,
}

impl KeptKey {
    fn new(key: &PublicKey) -> Self {
        Self {
            fingerprint: key.fingerprint(),
            public_key_pem: key.to_pem(),
            created_at: Utc::now().to_rfc3339(),
            retired_at: None,
            retired_because: None,
        }
    }
}

/// The public keys on file.
#[derive(Debug, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
struct KeptKeys {
    current: Option<KeptKey>,
    /// Newest first.
    earlier: Vec<KeptKey>,
}

impl KeptKeys {
    fn retire_current(&mut self, because: RetiredBecause) {
        if let Some(mut key) = self.current.take() {
            key.retired_at = Some(Utc::now().to_rfc3339());
            key.retired_because = Some(because);
            self.earlier.insert(0, key);
        }
    }
}

/// What Settings shows: the current key, the earlier ones and the collector's name.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct SigningIdentity {
    /// The key that signs now.
    pub current: KeptKey,
    /// Keys that signed before, newest first.
    pub earlier: Vec<KeptKey>,
    /// "Collected by", from Settings.
    pub collected_by: Option<String>,
}

/// One change to the identity at a time in this process: two first uses at once must not
/// make two keys, the second replacing the first in the keychain.
static CHANGING: Mutex<()> = Mutex::new(());

/// The keychain and the kept public keys of one data folder.
struct Keys {
    secrets: Arc<dyn SecretStore>,
    file: JsonFile,
}

impl Keys {
    fn of(state: &AppState) -> Self {
        Self::new(state.secrets.clone(), &state.data_dir)
    }

    fn new(secrets: Arc<dyn SecretStore>, data_dir: &Path) -> Self {
        Self {
            secrets,
            file: JsonFile::new(data_dir, KEPT_KEYS_FILE),
        }
    }

    fn load(&self) -> Result<KeptKeys, CommandError> {
        self.file.load().map_err(CommandError::file)
    }

    fn save(&self, kept: &KeptKeys) -> Result<(), CommandError> {
        self.file.save(kept).map_err(CommandError::file)
    }

    /// The signer, made and stored at first use; the file follows the keychain, which holds
    /// the one key that can sign.
    fn signer(&self) -> Result<(Signer, KeptKeys), CommandError> {
        let _changing = CHANGING.lock().unwrap_or_else(|e| e.into_inner());
        let mut kept = self.load()?;
        let signer = match self.secrets.get(KEYCHAIN_LABEL).map_err(keychain)? {
            Some(secret) => Signer::from_secret(&secret)?,
            None => {
                let signer = Signer::generate()?;
                self.secrets
                    .set(KEYCHAIN_LABEL, &signer.to_secret())
                    .map_err(keychain)?;
                signer
            }
        };
        self.follow(&mut kept, &signer.public_key())?;
        Ok((signer, kept))
    }

    /// Makes `key` the current one on file, keeping a different current key as an earlier one.
    fn follow(&self, kept: &mut KeptKeys, key: &PublicKey) -> Result<(), CommandError> {
        let fingerprint = key.fingerprint();
        if kept.current.as_ref().map(|k| &k.fingerprint) != Some(&fingerprint) {
            kept.retire_current(RetiredBecause::NotInKeychain);
            kept.current = Some(KeptKey::new(key));
            self.save(kept)?;
        }
        Ok(())
    }

    /// A new key replaces the current one, which is kept as an earlier key. The keychain is
    /// written first: if the file then fails, the next use finds the new key there and keeps
    /// the old public key as an earlier one all the same.
    fn rotate(&self) -> Result<KeptKeys, CommandError> {
        let _changing = CHANGING.lock().unwrap_or_else(|e| e.into_inner());
        let mut kept = self.load()?;
        // A key in the keychain the file does not know yet is kept before it is replaced; an
        // unreadable one cannot sign anyway and is replaced.
        if let Some(secret) = self.secrets.get(KEYCHAIN_LABEL).map_err(keychain)? {
            if let Ok(old) = Signer::from_secret(&secret) {
                self.follow(&mut kept, &old.public_key())?;
            }
        }
        let signer = Signer::generate()?;
        self.secrets
            .set(KEYCHAIN_LABEL, &signer.to_secret())
            .map_err(keychain)?;
        kept.retire_current(RetiredBecause::Rotated);
        kept.current = Some(KeptKey::new(&signer.public_key()));
        self.save(&kept)?;
        Ok(kept)
    }
}

/// The keychain's error, saying what it was needed for.
fn keychain(error: SecretError) -> CommandError {
    CommandError::Keychain {
        message: format!("{error}. Sightline keeps its signing key there."),
    }
}

async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, CommandError> + Send + 'static,
) -> Result<T, CommandError> {
    // The keychain may answer slowly (D-Bus): keep it off the async workers.
    tokio::task::spawn_blocking(work)
        .await
        .map_err(|error| CommandError::internal(format!("The keychain did not answer: {error}")))?
}

fn identity_of(kept: KeptKeys, settings: &AppSettings) -> SigningIdentity {
    SigningIdentity {
        current: kept.current.expect("a signer's key is on file"),
        earlier: kept.earlier,
        collected_by: settings.collected_by.clone(),
    }
}

/// The identity Settings shows, the key pair made at first use.
pub async fn identity(state: &AppState) -> Result<SigningIdentity, CommandError> {
    let keys = Keys::of(state);
    let (_, kept) = blocking(move || keys.signer()).await?;
    Ok(identity_of(kept, &state.settings()))
}

/// This installation's signer, for signing a manifest (the key made at first use).
pub async fn signer(state: &AppState) -> Result<Signer, CommandError> {
    let keys = Keys::of(state);
    Ok(blocking(move || keys.signer()).await?.0)
}

/// Signs `bytes` with this installation's current key.
pub async fn sign(state: &AppState, bytes: &[u8]) -> Result<Signature, CommandError> {
    Ok(signer(state).await?.sign(bytes))
}

/// Makes a new key pair; the old public key is kept, so what it signed still verifies. Every
/// investigation's custody log records the change ([`crate::custody::record_key_rotated`]).
pub async fn rotate(state: &AppState) -> Result<SigningIdentity, CommandError> {
    let keys = Keys::of(state);
    let kept = blocking(move || keys.rotate()).await?;
    let identity = identity_of(kept, &state.settings());
    let old = identity.earlier.first().map(|key| key.fingerprint.as_str());
    crate::custody::record_key_rotated(state, old, &identity.current.fingerprint).await?;
    Ok(identity)
}

/// A kept public key, current or earlier, by its fingerprint.
pub fn known_key(state: &AppState, fingerprint: &str) -> Result<Option<PublicKey>, CommandError> {
    let kept = Keys::of(state).load()?;
    kept.current
        .iter()
        .chain(&kept.earlier)
        .find(|key| key.fingerprint == fingerprint)
        .map(|key| PublicKey::from_pem(&key.public_key_pem))
        .transpose()
}

/// Whose a key is, as this installation sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub enum KeyStanding {
    /// This installation's key that signs now.
    Current,
    /// One of its earlier keys (rotated, or replaced when the keychain lost it).
    Earlier,
    /// No key this installation has had.
    Unknown,
}

/// The fingerprints of the keys on file, read once for a check (without making a key: a check
/// on a data folder that never signed anything must not create one).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct KnownKeys {
    /// The current key's fingerprint, when there is one.
    pub current: Option<String>,
    /// The earlier keys' fingerprints, newest first.
    pub earlier: Vec<String>,
}

impl KnownKeys {
    /// Whose the key with `fingerprint` is.
    pub fn standing(&self, fingerprint: &str) -> KeyStanding {
        if self.current.as_deref() == Some(fingerprint) {
            KeyStanding::Current
        } else if self.earlier.iter().any(|f| f == fingerprint) {
            KeyStanding::Earlier
        } else {
            KeyStanding::Unknown
        }
    }
}

/// The keys this installation has on file (current and earlier), without making one.
pub fn known_keys(state: &AppState) -> Result<KnownKeys, CommandError> {
    let kept = Keys::of(state).load()?;
    Ok(KnownKeys {
        current: kept.current.map(|key| key.fingerprint),
        earlier: kept
            .earlier
            .into_iter()
            .map(|key| key.fingerprint)
            .collect(),
    })
}

/// Names the collector ("Collected by"; empty clears it), checked like every setting.
pub async fn set_collector(
    state: &AppState,
    collected_by: Option<String>,
) -> Result<SigningIdentity, CommandError> {
    let collected_by = collected_by
        .map(|name| name.trim().to_owned())
        .filter(|name| !name.is_empty());
    if let Some(problem) = collected_by.as_deref().and_then(collector_problem) {
        return Err(CommandError::invalid(vec![FieldError::new(
            "collectedBy",
            problem,
        )]));
    }
    let settings = AppSettings {
        collected_by,
        ..state.settings()
    };
    state.save_settings(settings).await?;
    identity(state).await
}

/// Writes the current public key (PEM SubjectPublicKeyInfo) to `path`, atomically.
pub async fn export_public_key(state: &AppState, path: PathBuf) -> Result<(), CommandError> {
    let pem = signer(state).await?.public_key().to_pem();
    crate::export::write_atomically(&path, |out| {
        use std::io::Write;
        Ok(out.write_all(pem.as_bytes())?)
    })
}
