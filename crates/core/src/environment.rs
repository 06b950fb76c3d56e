//! The environment hooks every test and power user relies on, read once at start-up.

use std::path::PathBuf;

/// Overrides the folder that holds the database and settings.
pub const DATA_DIR_VAR: &str = "SIGHTLINE_DATA_DIR";
/// Overrides the service's base URL (tests point it at a local sandbox).
pub const BASE_URL_VAR: &str = "SIGHTLINE_BASE_URL";
/// `1` forces demo mode: the embedded sandbox, even when a key is stored.
pub const DEMO_VAR: &str = "SIGHTLINE_DEMO";
/// Set: print `startup-probe: ready` once the page has loaded (start-up benchmark).
pub const STARTUP_PROBE_VAR: &str = "SIGHTLINE_STARTUP_PROBE";

#[derive(Debug, Clone, Default, PartialEq, Eq)]
/// The `SIGHTLINE_*` overrides as read at start-up; each is unset in normal use.
pub struct Environment {
    /// The data folder instead of the platform's (`SIGHTLINE_DATA_DIR`).
    pub data_dir: Option<PathBuf>,
    /// The service's address instead of the one in Settings (`SIGHTLINE_BASE_URL`), without a
    /// trailing slash.
    pub base_url: Option<String>,
    /// Demo mode whatever keys are stored (`SIGHTLINE_DEMO`).
    pub force_demo: bool,
}

impl Environment {
    /// Reads the overrides from this process's environment.
    pub fn from_process() -> Self {
        Self::from_lookup(|name| std::env::var(name).ok())
    }

    /// Reads the hooks through `lookup`, so tests need not touch the process environment.
    pub fn from_lookup(lookup: impl Fn(&str) -> Option<String>) -> Self {
        let non_empty = |name: &str| {
            lookup(name)
                .map(|v| v.trim().to_owned())
                .filter(|v| !v.is_empty())
        };
        Self {
            data_dir: non_empty(DATA_DIR_VAR).map(PathBuf::from),
            base_url: non_empty(BASE_URL_VAR).map(|url| url.trim_end_matches('/').to_owned()),
            force_demo: matches!(non_empty(DEMO_VAR).as_deref(), Some("1" | "true" | "yes")),
        }
    }

    /// The data folder: `SIGHTLINE_DATA_DIR` wins; otherwise the platform's per-user app data
    /// folder (`platform`, as the window's framework found it), or why there is none.
    pub fn data_dir_or<E: std::fmt::Display>(
        &self,
        platform: Result<PathBuf, E>,
    ) -> Result<PathBuf, String> {
        match &self.data_dir {
            Some(dir) => Ok(dir.clone()),
            None => platform.map_err(|error| format!("Could not find a data folder: {error}")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn env_of(pairs: &[(&str, &str)]) -> Environment {
        let map: HashMap<String, String> = pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        Environment::from_lookup(|name| map.get(name).cloned())
    }

    #[test]
    fn nothing_set_means_no_overrides() {
        assert_eq!(env_of(&[]), Environment::default());
    }

    #[test]
    fn reads_every_hook() {
        let env = env_of(&[
            (DATA_DIR_VAR, "/tmp/sightline-data"),
            (BASE_URL_VAR, "http://127.0.0.1:8787/"),
            (DEMO_VAR, "1"),
        ]);
        assert_eq!(env.data_dir, Some(PathBuf::from("/tmp/sightline-data")));
        assert_eq!(env.base_url.as_deref(), Some("http://127.0.0.1:8787"));
        assert!(env.force_demo);
    }

    #[test]
    fn blank_values_and_other_demo_values_are_ignored() {
        let env = env_of(&[(DATA_DIR_VAR, "  "), (BASE_URL_VAR, ""), (DEMO_VAR, "0")]);
        assert_eq!(env, Environment::default());
    }

    #[test]
    fn the_data_folder_override_beats_the_platform_folder() {
        let over = env_of(&[(DATA_DIR_VAR, "/tmp/over")]);
        let platform = || Ok::<_, String>(PathBuf::from("/home/x/.local/share"));
        assert_eq!(
            over.data_dir_or(platform()).unwrap(),
            PathBuf::from("/tmp/over")
        );
        assert_eq!(
            over.data_dir_or(Err::<PathBuf, _>("no home")).unwrap(),
            PathBuf::from("/tmp/over")
        );
        let plain = Environment::default();
        assert_eq!(
            plain.data_dir_or(platform()).unwrap(),
            PathBuf::from("/home/x/.local/share")
        );
        assert_eq!(
            plain.data_dir_or(Err::<PathBuf, _>("no home")).unwrap_err(),
            "Could not find a data folder: no home"
        );
    }
}
