//! What every command shares: where data lives, the keychain, preferences, and the current
//! session (client + store of the live or demo mode), opened on first use, not at start-up.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use sightline_api::{ApiKey, CancelToken};
use tokio::sync::{Mutex as AsyncMutex, OnceCell};

use crate::environment::Environment;
use crate::errors::CommandError;
use crate::keychain::SecretStore;
use crate::session::{DemoService, Mode, Session};
use crate::settings::{AppSettings, JsonFile, KeyList};

pub struct AppState {
    pub data_dir: PathBuf,
    pub environment: Environment,
    pub secrets: Arc<dyn SecretStore>,
    settings: Mutex<AppSettings>,
    keys: Mutex<KeyList>,
    session: AsyncMutex<Option<Arc<Session>>>,
    demo: OnceCell<DemoService>,
    /// Streams in flight, by client request id, so a cancel command can stop them.
    pub streams: Mutex<HashMap<String, CancelToken>>,
}

/// The key a request is sent with, and the label history records instead of it.
pub struct KeyForRequest {
    pub key: ApiKey,
    pub label: Option<String>,
}

impl AppState {
    pub fn new(
        data_dir: PathBuf,
        environment: Environment,
        secrets: Arc<dyn SecretStore>,
    ) -> Result<Self, String> {
        let settings = JsonFile::new(&data_dir, "settings.json").load()?;
        let keys = JsonFile::new(&data_dir, "keys.json").load()?;
        Ok(Self {
            data_dir,
            environment,
            secrets,
            settings: Mutex::new(settings),
            keys: Mutex::new(keys),
            session: AsyncMutex::new(None),
            demo: OnceCell::new(),
            streams: Mutex::new(HashMap::new()),
        })
    }

    pub fn settings(&self) -> AppSettings {
        self.settings
            .lock()
            .expect("settings lock poisoned")
            .clone()
    }

    pub async fn save_settings(&self, settings: AppSettings) -> Result<(), CommandError> {
        JsonFile::new(&self.data_dir, "settings.json")
            .save(&settings)
            .map_err(CommandError::storage)?;
        *self.settings.lock().expect("settings lock poisoned") = settings;
        self.reset_session().await;
        Ok(())
    }

    pub fn keys(&self) -> KeyList {
        self.keys.lock().expect("keys lock poisoned").clone()
    }

    /// Applies `change` to the key list and saves it; the session is rebuilt on next use.
    pub async fn update_keys(
        &self,
        change: impl FnOnce(&mut KeyList),
    ) -> Result<KeyList, CommandError> {
        let updated = {
            let mut keys = self.keys.lock().expect("keys lock poisoned");
            let mut updated = keys.clone();
            change(&mut updated);
            JsonFile::new(&self.data_dir, "keys.json")
                .save(&updated)
                .map_err(CommandError::storage)?;
            *keys = updated.clone();
            updated
        };
        self.reset_session().await;
        Ok(updated)
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
        if let Some(session) = current.as_ref().filter(|session| session.mode == mode) {
            return Ok(session.clone());
        }
        let demo = match mode {
            Mode::Demo => Some(self.demo.get_or_try_init(DemoService::start).await?),
            Mode::Live => None,
        };
        let session = Arc::new(
            Session::open(
                mode,
                &self.data_dir,
                &self.settings(),
                self.environment.base_url.as_deref(),
                demo,
            )
            .await?,
        );
        *current = Some(session.clone());
        Ok(session)
    }

    pub async fn reset_session(&self) {
        *self.session.lock().await = None;
    }

    /// The key for the next request: the demo key in demo mode, else the active key from the
    /// keychain (read on a blocking thread: the keychain may answer slowly).
    pub async fn key_for_request(&self, session: &Session) -> Result<KeyForRequest, CommandError> {
        if let Some(key) = &session.demo_key {
            return Ok(KeyForRequest {
                key: key.clone(),
                label: Some("demo".into()),
            });
        }
        let label = self.keys().active.ok_or_else(|| CommandError::Keychain {
            message: "No API key is active. Add your key in Settings → Keys.".into(),
        })?;
        let key = crate::keys::read_key(self.secrets.clone(), label.clone()).await?;
        Ok(KeyForRequest {
            key,
            label: Some(label),
        })
    }
}
