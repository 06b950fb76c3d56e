//! What every command shares: where data lives and how to reach the keychain.

use std::path::PathBuf;
use std::sync::Arc;

use crate::environment::Environment;
use crate::keychain::SecretStore;

pub struct AppState {
    pub data_dir: PathBuf,
    pub environment: Environment,
    pub secrets: Arc<dyn SecretStore>,
}
