//! The app's settings and key metadata that outlive a session: small JSON files in the data
//! folder (`settings.json` is the one home of every setting). Key *values* never come here;
//! they live in the keychain. The database keeps no setting: the active investigation is the
//! archive's own state (the store's `archive_state`), since its id means something only in
//! that file.

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use sightline_api::{ClientConfig, RetryPolicy};
use ts_rs::TS;

/// Light, dark, or whatever the system uses.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "lowercase")]
pub enum ThemePreference {
    #[default]
    /// Follow the system's light or dark setting.
    System,
    /// Always light.
    Light,
    /// Always dark.
    Dark,
}

/// What the user can change in Settings.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", default)]
#[ts(export)]
pub struct AppSettings {
    /// The live service's address. `SIGHTLINE_BASE_URL` overrides it.
    pub base_url: Option<String>,
    /// Longest wait to connect to the service, in seconds.
    pub connect_timeout_secs: u32,
    /// Longest wait for a whole answer (a streamed one: for its headers), in seconds.
    pub request_timeout_secs: u32,
    /// Longest silence tolerated inside a streamed answer.
    pub stream_idle_timeout_secs: u32,
    /// Attempts for free-to-repeat reads (GETs) on 429, 5xx and network errors; 1 = no retry.
    pub retry_attempts: u32,
    /// Keep the media of every archived post, not only of posts filed in an investigation.
    pub media_keep_all_archived: bool,
    /// Largest media file kept, in MB (1 to 2048); the best variant under it is fetched.
    pub media_size_limit_mb: u32,
    /// Show kept media greyscale and blurred until revealed one by one, videos muted and never
    /// playing by themselves (on by default: reviewers of violent material suffer for it).
    /// An investigation may be switched to full view on its own page.
    pub media_safe_view: bool,
    /// Light, dark or the system's.
    pub theme: ThemePreference,
    /// Save exports into this folder without asking; `None` asks each time with a save dialog.
    pub export_folder: Option<String>,
    /// The IANA zone times are shown in, days counted in and exports' local times written in;
    /// `None` follows the system's ([`crate::zone`]).
    pub display_zone: Option<String>,
    /// Who collects with this installation ("Collected by"), written beside its signatures;
    /// changed only through [`crate::signing::set_collector`] (see `save_checked_settings`).
    pub collected_by: Option<String>,
    /// The timestamp authority (RFC 3161) asked for a trusted timestamp of each capture's
    /// SHA-256 ([`crate::stamper`]); `None` (the default): captures are not stamped. A third
    /// party: it sees each hash, never the data.
    pub tsa_url: Option<String>,
    /// The authority's certificate (PEM, one or more), the root a token's chain is checked
    /// against ([`crate::timestamps::check`]); `None`: only what the token carries.
    pub tsa_certificate_pem: Option<String>,
}

impl Default for AppSettings {
    fn default() -> Self {
        Self {
            base_url: None,
            connect_timeout_secs: 10,
            request_timeout_secs: 120,
            stream_idle_timeout_secs: 60,
            retry_attempts: 3,
            media_keep_all_archived: false,
            media_size_limit_mb: 100,
            media_safe_view: true,
            theme: ThemePreference::System,
            export_folder: None,
            display_zone: None,
            collected_by: None,
            tsa_url: None,
            tsa_certificate_pem: None,
        }
    }
}

/// Largest media size limit, in MB (2 GB): a ceiling, so a slip of the keyboard cannot ask
/// for tens of gigabytes per item.
pub const MAX_MEDIA_SIZE_LIMIT_MB: u32 = 2048;

/// Longest "Collected by" name.
const MAX_COLLECTOR: usize = 120;

/// What is wrong with a collector's name, in words, or `None`. One line: it is written into
/// manifests and logs line by line.
pub fn collector_problem(name: &str) -> Option<String> {
    if name.chars().count() > MAX_COLLECTOR {
        Some(format!("Keep the name under {MAX_COLLECTOR} characters."))
    } else if name.chars().any(char::is_control) {
        Some("Write the name on one line, without tabs.".into())
    } else {
        None
    }
}

/// What is wrong with a timestamp authority's address, in words, or `None`: an http(s)
/// address with a host (many authorities answer on plain http: a token is signed, so it needs
/// no transport security to be checked).
pub fn tsa_url_problem(url: &str) -> Option<String> {
    let parsed = url::Url::parse(url.trim()).ok();
    let usable = parsed.as_ref().is_some_and(|parsed| {
        matches!(parsed.scheme(), "http" | "https")
            && parsed.host_str().is_some_and(|host| !host.is_empty())
            && parsed.username().is_empty()
            && parsed.password().is_none()
    });
    (!usable).then(|| {
        "Enter the authority's full address, starting with https:// or http://, like \
         https://freetsa.org/tsr."
            .into()
    })
}

/// What is wrong with an authority's certificate, in words, or `None`: one or more PEM
/// certificates, each readable.
pub fn tsa_certificate_problem(pem: &str) -> Option<String> {
    if !pem.contains("-----BEGIN CERTIFICATE-----") {
        return Some(
            "Paste the authority's certificate as PEM text, starting with -----BEGIN \
             CERTIFICATE-----, or choose its .pem or .crt file."
                .into(),
        );
    }
    match x509_cert::Certificate::load_pem_chain(pem.trim().as_bytes()) {
        Ok(chain) if !chain.is_empty() => None,
        Ok(_) | Err(_) => Some(
            "This certificate could not be read: check that the whole PEM text was pasted, \
             from -----BEGIN CERTIFICATE----- to -----END CERTIFICATE-----."
                .into(),
        ),
    }
}

impl AppSettings {
    /// Every problem with the values, each naming its field, or Ok.
    pub fn validate(&self) -> Result<(), Vec<sightline_api::FieldError>> {
        let mut problems = Vec::new();
        let mut field = |name: &str, message: String| {
            problems.push(sightline_api::FieldError {
                field: name.into(),
                message,
            })
        };
        if let Some(url) = &self.base_url {
            let trimmed = url.trim();
            if !(trimmed.starts_with("https://") || trimmed.starts_with("http://"))
                || trimmed.len() < 10
            {
                field(
                    "baseUrl",
                    "Enter the full address, starting with https://".into(),
                );
            }
        }
        for (name, value, max) in [
            ("connectTimeoutSecs", self.connect_timeout_secs, 120),
            ("requestTimeoutSecs", self.request_timeout_secs, 900),
            ("streamIdleTimeoutSecs", self.stream_idle_timeout_secs, 900),
        ] {
            if value == 0 || value > max {
                field(name, format!("Choose between 1 and {max} seconds."));
            }
        }
        if let Some(folder) = &self.export_folder {
            if !Path::new(folder.trim()).is_absolute() {
                field(
                    "exportFolder",
                    "Enter a full folder path, like /home/you/Documents, or leave it empty to be asked each time.".into(),
                );
            }
        }
        if let Some(zone) = &self.display_zone {
            if crate::zone::parse_zone(zone).is_none() {
                field(
                    "displayZone",
                    format!("“{zone}” is not a time zone Sightline knows. Choose one from the list, like Europe/Paris, or the system's."),
                );
            }
        }
        if let Some(problem) = self.collected_by.as_deref().and_then(collector_problem) {
            field("collectedBy", problem);
        }
        if let Some(problem) = self.tsa_url.as_deref().and_then(tsa_url_problem) {
            field("tsaUrl", problem);
        }
        if let Some(problem) = self
            .tsa_certificate_pem
            .as_deref()
            .and_then(tsa_certificate_problem)
        {
            field("tsaCertificatePem", problem);
        }
        if self.media_size_limit_mb == 0 || self.media_size_limit_mb > MAX_MEDIA_SIZE_LIMIT_MB {
            field(
                "mediaSizeLimitMb",
                format!("Choose between 1 and {MAX_MEDIA_SIZE_LIMIT_MB} MB."),
            );
        }
        if self.retry_attempts == 0 || self.retry_attempts > 10 {
            field(
                "retryAttempts",
                "Choose between 1 (no retry) and 10 attempts.".into(),
            );
        }
        if problems.is_empty() {
            Ok(())
        } else {
            Err(problems)
        }
    }

    /// The client configuration these settings describe, for a given service address.
    pub fn client_config(&self, base_url: &str) -> ClientConfig {
        ClientConfig {
            base_url: base_url.trim_end_matches('/').to_owned(),
            connect_timeout: Duration::from_secs(self.connect_timeout_secs.into()),
            request_timeout: Duration::from_secs(self.request_timeout_secs.into()),
            stream_idle_timeout: Duration::from_secs(self.stream_idle_timeout_secs.into()),
            retry: RetryPolicy {
                max_attempts: self.retry_attempts,
                ..RetryPolicy::default()
            },
        }
    }
}

/// A stored key as the UI sees it: never the value.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct KeyMeta {
    /// The name the user gave the key; its keychain entry is found by it.
    pub label: String,
    /// Prefix and last four characters, e.g. `dt_…f3a9`.
    pub masked: String,
    /// When the key was added (RFC 3339).
    pub added_at: String,
    /// When a verification call last succeeded.
    pub verified_at: Option<String>,
}

/// The list of keys and which one requests use.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct KeyList {
    /// Every stored key, in the order added.
    pub keys: Vec<KeyMeta>,
    /// The label of the key live requests use.
    pub active: Option<String>,
    /// The user chose demo data even though a key is stored.
    pub use_demo: bool,
}

/// A JSON document in the data folder, replaced atomically so a crash never leaves half a file.
pub struct JsonFile {
    path: PathBuf,
}

impl JsonFile {
    /// The document `name` in `dir`; nothing is read until [`JsonFile::load`].
    pub fn new(dir: &Path, name: &str) -> Self {
        Self {
            path: dir.join(name),
        }
    }

    /// The stored value, or the default when the file does not exist yet.
    pub fn load<T: DeserializeOwned + Default>(&self) -> Result<T, String> {
        match std::fs::read(&self.path) {
            Ok(bytes) => serde_json::from_slice(&bytes).map_err(|error| {
                format!(
                    "{} is damaged ({error}); fix or delete it",
                    self.path.display()
                )
            }),
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => Ok(T::default()),
            Err(error) => Err(format!("Could not read {}: {error}", self.path.display())),
        }
    }

    /// Writes `value` to a temporary file and renames it over the old one.
    pub fn save<T: Serialize>(&self, value: &T) -> Result<(), String> {
        let text = serde_json::to_vec_pretty(value).map_err(|error| error.to_string())?;
        let temporary = self.path.with_extension("json.tmp");
        std::fs::write(&temporary, text)
            .and_then(|()| std::fs::rename(&temporary, &self.path))
            .map_err(|error| format!("Could not save {}: {error}", self.path.display()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_valid_and_round_trip_through_a_file() {
        let dir = tempfile::tempdir().unwrap();
        let file = JsonFile::new(dir.path(), "settings.json");
        let loaded: AppSettings = file.load().unwrap();
        assert_eq!(loaded, AppSettings::default());
        assert!(loaded.validate().is_ok());

        let changed = AppSettings {
            media_keep_all_archived: true,
            media_size_limit_mb: 2048,
            media_safe_view: false,
            retry_attempts: 1,
            display_zone: Some("Asia/Kolkata".into()),
            ..loaded
        };
        file.save(&changed).unwrap();
        assert_eq!(file.load::<AppSettings>().unwrap(), changed);
    }

    #[test]
    fn every_bad_value_is_named() {
        let bad = AppSettings {
            base_url: Some("example.com".into()),
            connect_timeout_secs: 0,
            retry_attempts: 11,
            export_folder: Some("Documents/exports".into()),
            display_zone: Some("Europe/Atlantis".into()),
            collected_by: Some("Jane\nDoe".into()),
            tsa_url: Some("freetsa.org/tsr".into()),
            tsa_certificate_pem: Some(
                "-----BEGIN CERTIFICATE-----\nnot base64\n-----END CERTIFICATE-----\n".into(),
            ),
            media_size_limit_mb: 2049,
            ..AppSettings::default()
        };
        let fields: Vec<String> = bad
            .validate()
            .unwrap_err()
            .into_iter()
            .map(|f| f.field)
            .collect();
        assert_eq!(
            fields,
            [
                "baseUrl",
                "connectTimeoutSecs",
                "exportFolder",
                "displayZone",
                "collectedBy",
                "tsaUrl",
                "tsaCertificatePem",
                "mediaSizeLimitMb",
                "retryAttempts"
            ]
        );
        let zero = AppSettings {
            media_size_limit_mb: 0,
            ..AppSettings::default()
        };
        assert_eq!(
            zero.validate().unwrap_err()[0].message,
            "Choose between 1 and 2048 MB."
        );
    }

    #[test]
    fn an_old_file_with_the_remote_media_switch_still_loads() {
        // Settings files written before media were kept carry `loadRemoteMedia`; remote loads
        // are gone (the window's policy never let them appear), the rest of the file stands.
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("settings.json"),
            br#"{"loadRemoteMedia": true, "retryAttempts": 2, "theme": "dark"}"#,
        )
        .unwrap();
        let loaded: AppSettings = JsonFile::new(dir.path(), "settings.json").load().unwrap();
        assert_eq!(loaded.retry_attempts, 2);
        assert_eq!(loaded.theme, ThemePreference::Dark);
        assert!(loaded.media_safe_view);
        assert_eq!(loaded.media_size_limit_mb, 100);
        assert!(!loaded.media_keep_all_archived);
    }

    #[test]
    fn a_damaged_file_is_reported_not_silently_replaced() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("settings.json"), b"{ not json").unwrap();
        let error = JsonFile::new(dir.path(), "settings.json")
            .load::<AppSettings>()
            .unwrap_err();
        assert!(error.contains("damaged"), "{error}");
    }
}
