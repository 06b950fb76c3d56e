//! Which service the app talks to and where it keeps records: live (the real service with a
//! key from the keychain, `sightline.db`) or demo (the embedded sandbox with its demo key,
//! `demo.db`, so demo spending never mixes with real spending).

use std::path::Path;

use serde::{Deserialize, Serialize};
use std::sync::Arc;

use sightline_api::{ApiKey, CacheFuture, CachedBody, Client, EtagCache};
use sightline_sandbox::Sandbox;
use sightline_store::Store;
use ts_rs::TS;

use crate::errors::CommandError;
use crate::settings::AppSettings;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "lowercase")]
/// Which service requests go to and which database records go in; never mixed.
pub enum Mode {
    /// The real service with a key from the keychain; records in `sightline.db`.
    Live,
    /// The embedded sandbox with its demo key; records in `demo.db`.
    Demo,
}

impl Mode {
    /// The mode's word, as serde writes it (`live`, `demo`).
    pub fn as_str(self) -> &'static str {
        match self {
            Mode::Live => "live",
            Mode::Demo => "demo",
        }
    }

    pub(crate) fn database_name(self) -> &'static str {
        match self {
            Mode::Live => "sightline.db",
            Mode::Demo => "demo.db",
        }
    }
}

/// Where the demo service keeps its forecast jobs, in the data folder beside `demo.db`.
pub const DEMO_JOBS_FILE: &str = "demo-forecast-jobs.json";

/// The embedded sandbox of demo mode: started on first use, kept for the life of the app.
pub struct DemoService {
    sandbox: Sandbox,
}

impl DemoService {
    /// Builds the synthetic world and serves it on 127.0.0.1, on a free port. Its forecast
    /// jobs are kept in `data_dir` ([`DEMO_JOBS_FILE`]), so one still running when the app
    /// closed is known, and finished, after the next start.
    pub async fn start(data_dir: &Path) -> Result<Self, CommandError> {
        let sandbox = Sandbox::builder()
            .seed(42)
            .port(0)
            // A forecast in demo mode is over in seconds: long enough to watch it move.
            .forecast_duration(std::time::Duration::from_secs(4))
            .jobs_file(data_dir.join(DEMO_JOBS_FILE))
            // New posts keep arriving, so a demo monitor finds something within a minute.
            .live_rate(sightline_sandbox::DEFAULT_LIVE_RATE)
            .start()
            .await
            .map_err(|error| {
                CommandError::internal(format!("The demo service could not start: {error}"))
            })?;
        Ok(Self { sandbox })
    }

    /// The sandbox's loopback address, the demo session's service address.
    pub fn base_url(&self) -> &str {
        self.sandbox.base_url()
    }

    /// The sandbox's demo key: demo requests never read the keychain.
    pub fn key(&self) -> ApiKey {
        ApiKey::parse(self.sandbox.demo_key()).expect("the sandbox's demo key is well formed")
    }
}

/// The client and store of one mode. Rebuilt when the mode, address or timeouts change.
pub struct Session {
    /// The mode this session's requests and records belong to.
    pub mode: Mode,
    /// The mode's database.
    pub store: Store,
    /// The service client, with the settings' address, timeouts and retries.
    pub client: Client,
    /// Set in demo mode: requests use the sandbox's key instead of the keychain.
    pub demo_key: Option<ApiKey>,
    /// The timestamp authority set in Settings: each capture is queued for it as it is
    /// recorded ([`crate::stamper`]).
    pub tsa_url: Option<String>,
}

impl Session {
    /// The session of `mode` over its already opened `store` (see [`crate::database`]).
    pub fn open(
        mode: Mode,
        store: Store,
        settings: &AppSettings,
        base_url_override: Option<&str>,
        demo: Option<&DemoService>,
    ) -> Result<Self, CommandError> {
        let (base_url, demo_key) = match (mode, demo) {
            (Mode::Demo, Some(demo)) => (demo.base_url().to_owned(), Some(demo.key())),
            (Mode::Demo, None) => unreachable!("demo sessions are opened with their sandbox"),
            (Mode::Live, _) => {
                let url = base_url_override
                    .map(str::to_owned)
                    .or_else(|| settings.base_url.clone());
                let url = url.ok_or_else(|| CommandError::NotConfigured {
                    message: "Set the service address in Settings before searching with your key, \
                              or switch to demo data."
                        .into(),
                })?;
                (url, None)
            }
        };
        let client = Client::new(settings.client_config(&base_url)).map_err(|error| {
            CommandError::NotConfigured {
                message: format!("The service address cannot be used: {error}"),
            }
        })?;
        // GETs revalidate with the ETag of the copy we hold: a 304 is free.
        let client = client.with_etag_cache(Arc::new(StoreCache(store.clone())));
        Ok(Self {
            mode,
            store,
            client,
            demo_key,
            tsa_url: settings
                .tsa_url
                .as_deref()
                .map(str::trim)
                .filter(|url| !url.is_empty())
                .map(str::to_owned),
        })
    }
}

/// The client's ETag cache, kept in the mode's database (keyed by URL, which never holds the key).
struct StoreCache(Store);

impl EtagCache for StoreCache {
    fn get<'a>(&'a self, url: &'a str) -> CacheFuture<'a, Option<CachedBody>> {
        Box::pin(async move {
            match self.0.cached_response(url).await {
                Ok(found) => found.and_then(|cached| {
                    let body = String::from_utf8(cached.body).ok()?;
                    Some(CachedBody {
                        etag: cached.etag,
                        body,
                    })
                }),
                Err(error) => {
                    // A cache that cannot be read only costs a full answer, never a failure.
                    tracing::warn!(%error, "ETag cache unreadable");
                    None
                }
            }
        })
    }

    fn put<'a>(&'a self, url: &'a str, etag: &'a str, body: &'a str) -> CacheFuture<'a, ()> {
        Box::pin(async move {
            if let Err(error) = self
                .0
                .cache_response(url, etag, body.as_bytes(), chrono::Utc::now())
                .await
            {
                tracing::warn!(%error, "ETag cache not written");
            }
        })
    }
}
