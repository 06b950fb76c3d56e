//! What every command shares: where data lives, the keychain, preferences, each mode's
//! database, and the current session (client + store of the live or demo mode). Each is
//! opened on first use, not at start-up; reading records opens only the database, so the demo
//! service (a whole synthetic world in memory) starts with the first request, not with the
//! status bar's spend.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use sightline_api::CancelToken;
use sightline_store::Store;
use tokio::sync::{Mutex as AsyncMutex, OnceCell};

use serde::Serialize;
use ts_rs::TS;

use crate::database::gate::Gate;
use crate::environment::Environment;
use crate::errors::CommandError;
use crate::keychain::{KeychainStatus, SecretStore};
use crate::session::{DemoService, Mode, Session};
use crate::settings::{AppSettings, JsonFile, KeyList, KeyMeta};

/// What Settings shows about this installation.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct AppInfo {
    /// The app's version, as built.
    pub version: String,
    /// The folder holding the databases and settings.
    pub data_dir: String,
    /// The folder of the log files (`logging`), shown beside "Open the log folder".
    pub log_dir: String,
    /// Whether the OS keychain can be used, and which one it is.
    pub keychain: KeychainStatus,
    /// True when `SIGHTLINE_DEMO=1` forces demo mode.
    pub demo_forced: bool,
}

/// Which mode the app is in and with which key: what the sidebar foot shows.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct AppStatus {
    /// The mode requests use now.
    pub mode: Mode,
    /// True when `SIGHTLINE_DEMO=1` forces demo mode.
    pub demo_forced: bool,
    /// The stored keys, masked.
    pub keys: Vec<KeyMeta>,
    /// The label of the key live requests use.
    pub active_key: Option<String>,
    /// A live service address is set (or given by `SIGHTLINE_BASE_URL`).
    pub service_configured: bool,
}

/// The app's state for its whole life, shared by every command: the data folder, settings,
/// keys, each mode's database and the current session.
pub struct AppState {
    /// The folder holding the databases, settings and logs.
    pub data_dir: PathBuf,
    /// The `SIGHTLINE_*` overrides read at start-up.
    pub environment: Environment,
    /// Where key values live: the OS keychain in the app, memory in tests.
    pub secrets: Arc<dyn SecretStore>,
    settings: Mutex<AppSettings>,
    keys: Mutex<KeyList>,
    session: AsyncMutex<Option<Arc<Session>>>,
    /// Each mode's database, opened once: settings changes rebuild the session, not the store.
    pub(crate) stores: AsyncMutex<HashMap<Mode, Store>>,
    /// Each mode's database as the start and recovery screens see it (`database`).
    pub(crate) database: Gate,
    demo: OnceCell<DemoService>,
    /// Streams in flight, by client request id, so a cancel command can stop them.
    pub streams: Mutex<HashMap<String, CancelToken>>,
}

impl AppState {
    /// Loads the settings and key list from `data_dir` (a damaged file is an error in words);
    /// no database is opened and no session made until first needed.
    pub fn new(
        data_dir: PathBuf,
        environment: Environment,
        secrets: Arc<dyn SecretStore>,
    ) -> Result<Self, String> {
        let settings: AppSettings = JsonFile::new(&data_dir, "settings.json").load()?;
        crate::zone::follow(settings.display_zone.as_deref());
        let keys = JsonFile::new(&data_dir, "keys.json").load()?;
        Ok(Self {
            data_dir,
            environment,
            secrets,
            settings: Mutex::new(settings),
            keys: Mutex::new(keys),
            session: AsyncMutex::new(None),
            stores: AsyncMutex::new(HashMap::new()),
            database: Gate::default(),
            demo: OnceCell::new(),
            streams: Mutex::new(HashMap::new()),
        })
    }

    /// The app's version, data folder and keychain, for Settings. `version` is the app's own,
    /// given by the caller (the core's crate version is not the app's).
    pub async fn info(&self, version: &str) -> Result<AppInfo, CommandError> {
        let secrets = self.secrets.clone();
        // The keychain answers over D-Bus (or the OS equivalent): keep it off the async workers.
        let keychain = tokio::task::spawn_blocking(move || secrets.status())
            .await
            .map_err(|error| CommandError::Keychain {
                message: format!("Could not check the keychain: {error}"),
            })?;
        Ok(AppInfo {
            version: version.to_owned(),
            data_dir: self.data_dir.display().to_string(),
            log_dir: crate::logging::log_dir(&self.data_dir)
                .display()
                .to_string(),
            keychain,
            demo_forced: self.environment.force_demo,
        })
    }

    /// The mode and keys, for the sidebar foot and Settings.
    pub fn status(&self) -> AppStatus {
        let keys = self.keys();
        AppStatus {
            mode: self.mode(),
            demo_forced: self.environment.force_demo,
            keys: keys.keys,
            active_key: keys.active,
            service_configured: self.environment.base_url.is_some()
                || self.settings().base_url.is_some(),
        }
    }

    /// The settings as last saved.
    pub fn settings(&self) -> AppSettings {
        self.settings
            .lock()
            .expect("settings lock poisoned")
            .clone()
    }

    /// Checks settings the window sends and keeps them (the session follows them); a field that
    /// fails its check is refused with its words, and nothing is saved. "Collected by" stays as
    /// it is: the Preferences form sends the settings it read, which may predate a name saved
    /// since in the signing section ([`crate::signing::set_collector`]).
    pub async fn save_checked_settings(
        &self,
        settings: AppSettings,
    ) -> Result<AppSettings, CommandError> {
        let current = self.settings();
        let settings = AppSettings {
            collected_by: current.collected_by,
            // The timestamp authority is Settings' own section's ([`crate::stamper::set_authority`]).
            tsa_url: current.tsa_url,
            tsa_certificate_pem: current.tsa_certificate_pem,
            ..settings
        };
        settings.validate().map_err(CommandError::invalid)?;
        self.save_settings(settings.clone()).await?;
        Ok(settings)
    }

    /// Saves `settings` as they are, follows their display zone, and drops the session so the
    /// next request uses the new address and timeouts.
    pub async fn save_settings(&self, settings: AppSettings) -> Result<(), CommandError> {
        JsonFile::new(&self.data_dir, "settings.json")
            .save(&settings)
            .map_err(CommandError::file)?;
        crate::zone::follow(settings.display_zone.as_deref());
        for store in self.open_stores().await {
            store.set_collector(settings.collected_by.as_deref());
        }
        *self.settings.lock().expect("settings lock poisoned") = settings;
        self.reset_session().await;
        Ok(())
    }

    /// The stored keys (never their values) and which one is active.
    pub fn keys(&self) -> KeyList {
        self.keys.lock().expect("keys lock poisoned").clone()
    }

    /// Applies `change` to the key list and saves it; the session is rebuilt on next use. Every
    /// key change answers with this: the app's status as it now stands, for Settings and the
    /// mode badge.
    pub async fn update_keys(
        &self,
        change: impl FnOnce(&mut KeyList),
    ) -> Result<AppStatus, CommandError> {
        {
            let mut keys = self.keys.lock().expect("keys lock poisoned");
            let mut updated = keys.clone();
            change(&mut updated);
            JsonFile::new(&self.data_dir, "keys.json")
                .save(&updated)
                .map_err(CommandError::file)?;
            *keys = updated;
        }
        self.reset_session().await;
        Ok(self.status())
    }

    /// Demo when forced by the environment, chosen by the user, or when no key is stored.
    pub fn mode(&self) -> Mode {
        let keys = self.keys();
        if self.environment.force_demo || keys.use_demo || keys.active.is_none() {
            Mode::Demo
        } else {
            Mode::Live
        }
    }

    /// The session of the current mode, opened (and the demo service started) if needed.
    pub async fn session(&self) -> Result<Arc<Session>, CommandError> {
        let mut current = self.session.lock().await;
        let mode = self.mode();
        if self.database.is_read_only(mode) {
            // An answer could not be recorded, so nothing is sent: no charge can go unrecorded.
            return Err(CommandError::ReadOnly {
                message: crate::errors::READ_ONLY.into(),
            });
        }
        if let Some(session) = current.as_ref().filter(|session| session.mode == mode) {
            return Ok(session.clone());
        }
        let demo = match mode {
            Mode::Demo => Some(
                self.demo
                    .get_or_try_init(|| DemoService::start(&self.data_dir))
                    .await?,
            ),
            Mode::Live => None,
        };
        let session = Arc::new(Session::open(
            mode,
            self.store_of(mode).await?,
            &self.settings(),
            self.environment.base_url.as_deref(),
            demo,
        )?);
        *current = Some(session.clone());
        Ok(session)
    }

    /// The current mode's database, for reading and editing records without the network.
    pub async fn store(&self) -> Result<Store, CommandError> {
        self.store_of(self.mode()).await
    }

    /// `mode`'s database, opened once; one its background check found damaged is closed and
    /// opened again through the gate (which refuses it for the recovery screen).
    pub async fn store_of(&self, mode: Mode) -> Result<Store, CommandError> {
        let mut stores = self.stores.lock().await;
        if let Some(store) = stores.get(&mode) {
            if !self.database.is_problem(mode) {
                return Ok(store.clone());
            }
            // Its check in the background found it damaged: closed, for the recovery screen.
            if let Some(store) = stores.remove(&mode) {
                store.close().await;
            }
        }
        let store = self.database.open(mode, &self.data_dir).await?;
        // Custody log entries name the collector Settings name (`custody`).
        store.set_collector(self.settings().collected_by.as_deref());
        stores.insert(mode, store.clone());
        Ok(store)
    }

    /// The databases opened so far (one per mode used), for what concerns them all.
    pub async fn open_stores(&self) -> Vec<Store> {
        self.stores.lock().await.values().cloned().collect()
    }

    /// Drops the session; the next request builds one from the current mode, key and settings.
    pub async fn reset_session(&self) {
        *self.session.lock().await = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::keychain::MemoryStore;

    fn demo_state(dir: &std::path::Path) -> AppState {
        let environment = Environment {
            force_demo: true,
            ..Environment::default()
        };
        AppState::new(
            dir.to_owned(),
            environment,
            Arc::new(MemoryStore::default()),
        )
        .unwrap()
    }

    #[tokio::test]
    async fn reading_records_opens_the_database_without_starting_the_demo_service() {
        let dir = tempfile::tempdir().unwrap();
        let state = demo_state(dir.path());
        let store = state.store().await.unwrap();
        store
            .spend_totals(crate::zone::time_zone(), chrono::Utc::now())
            .await
            .unwrap();
        assert!(dir.path().join("demo.db").exists());
        assert!(
            !state.demo.initialized(),
            "the status bar's spend started the demo"
        );
        assert!(state.session.lock().await.is_none());

        // The first request starts it, over the same database.
        let session = state.session().await.unwrap();
        assert!(state.demo.initialized());
        assert!(session.demo_key.is_some());
        let limits = sightline_store::BudgetLimits {
            daily: Some("5".parse().unwrap()),
            monthly: None,
            warn_percent: 80,
        };
        store.set_budget(&limits).await.unwrap();
        assert_eq!(session.store.budget().await.unwrap(), limits);
    }
}
