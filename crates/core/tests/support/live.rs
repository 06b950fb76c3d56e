//! A live app for a test: the test's sandbox on loopback as the service, unpaced, and an app on
//! a fresh data folder (real SQLite files) with the sandbox's demo key stored as key "work".

use std::sync::Arc;

use sightline_core::environment::Environment;
use sightline_core::keychain::{MemoryStore, SecretStore};
use sightline_core::state::AppState;
use sightline_sandbox::{Sandbox, SandboxBuilder};

pub struct Live {
    pub sandbox: Sandbox,
    pub state: AppState,
    /// Held so the data folder lasts as long as the app that writes in it.
    pub _data: tempfile::TempDir,
}

impl Live {
    /// Starts `sandbox` (the test's own options) without its pacing, then the app against it.
    pub async fn start(sandbox: SandboxBuilder) -> Live {
        let sandbox = sandbox.pace_ms(0).start().await.unwrap();
        let data = tempfile::tempdir().unwrap();
        let secrets: Arc<dyn SecretStore> = Arc::new(MemoryStore::default());
        let environment = Environment {
            base_url: Some(sandbox.base_url().into()),
            ..Environment::default()
        };
        let state = AppState::new(data.path().to_owned(), environment, secrets).unwrap();
        sightline_core::keys::add(&state, "work", sandbox.demo_key())
            .await
            .unwrap();
        Live {
            sandbox,
            state,
            _data: data,
        }
    }
}
