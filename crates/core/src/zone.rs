//! The display zone: the one time zone every time is shown in, Spend's days and budgets are
//! counted in, and exports write their local times in. The system's zone unless Settings names
//! another IANA zone ([`crate::settings::AppSettings::display_zone`]).

use std::sync::RwLock;

use serde::Serialize;
use sightline_store::Tz;
use ts_rs::TS;

/// The zone Settings chose; `None` follows the system's. Process-wide, like the system zone it
/// stands in for: Spend, budgets and exports all read it through [`time_zone`].
static CHOSEN: RwLock<Option<Tz>> = RwLock::new(None);

/// The zone times are shown and days are counted in: the chosen one, else the system's.
pub fn time_zone() -> Tz {
    let chosen = *CHOSEN
        .read()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    chosen.unwrap_or_else(system_zone)
}

/// The system's zone; UTC when the system does not say or names one chrono-tz does not know.
pub fn system_zone() -> Tz {
    iana_time_zone::get_timezone()
        .ok()
        .and_then(|name| parse_zone(&name))
        .unwrap_or(Tz::UTC)
}

/// An IANA zone name as Settings accepts it (exactly as the list spells it), or `None`.
pub fn parse_zone(name: &str) -> Option<Tz> {
    name.parse().ok()
}

/// Makes `setting` (an IANA name, or `None` for the system's) the display zone. Called when the
/// settings are loaded and saved; a name that does not parse (a hand-edited file) falls back to
/// the system's zone rather than to a wrong one.
pub(crate) fn follow(setting: Option<&str>) {
    *CHOSEN
        .write()
        .unwrap_or_else(|poisoned| poisoned.into_inner()) = setting.and_then(parse_zone);
}

/// The zones Settings offers: every `Area/Location` zone chrono-tz knows, and UTC. chrono-tz
/// also accepts old aliases (`EST5EDT`, `GB`, `Etc/GMT+5`); they stay valid in a settings file
/// but are not offered, as their names mislead (`Etc/GMT+5` is five hours *behind* UTC). The
/// list reaches the UI as a generated file (the test below writes it), not through a call.
#[cfg(test)]
fn offered_zones() -> Vec<&'static str> {
    const AREAS: [&str; 10] = [
        "Africa/",
        "America/",
        "Antarctica/",
        "Arctic/",
        "Asia/",
        "Atlantic/",
        "Australia/",
        "Europe/",
        "Indian/",
        "Pacific/",
    ];
    let mut names: Vec<&'static str> = sightline_store::TZ_VARIANTS
        .iter()
        .map(|tz| tz.name())
        .filter(|name| *name == "UTC" || AREAS.iter().any(|area| name.starts_with(area)))
        .collect();
    names.sort_unstable();
    names
}

/// The zone in use and the system's, for the UI's formatting and the picker's "System (…)".
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct DisplayZone {
    /// The IANA name times are shown in now.
    pub zone: String,
    /// The system's IANA name, shown beside "System" in the picker.
    pub system: String,
}

/// The zone in use and the system's, as Settings and the UI's formatting read them.
pub fn display_zone() -> DisplayZone {
    DisplayZone {
        zone: time_zone().name().to_owned(),
        system: system_zone().name().to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_offered_zone_is_accepted_and_the_aliases_are_not_offered() {
        let offered = offered_zones();
        assert!(offered.len() > 300, "{} zones", offered.len());
        for name in &offered {
            assert_eq!(parse_zone(name).map(|tz| tz.name()), Some(*name));
        }
        for name in [
            "Europe/London",
            "Asia/Kolkata",
            "America/Argentina/Buenos_Aires",
            "UTC",
        ] {
            assert!(offered.contains(&name), "{name} is not offered");
        }
        for alias in ["EST5EDT", "GB", "Etc/GMT+5", "US/Pacific"] {
            assert!(parse_zone(alias).is_some(), "{alias} is still accepted");
            assert!(!offered.contains(&alias), "{alias} is offered");
        }
        for unknown in [
            "",
            "Mars/Olympus_Mons",
            "europe/london",
            "UTC+1",
            " Europe/Paris",
        ] {
            assert!(parse_zone(unknown).is_none(), "{unknown:?} was accepted");
        }
    }

    /// The picker's list is Rust's own, written beside the ts-rs bindings when the tests run;
    /// `make test` fails if the committed copy differs (scripts/test-all.sh), and the UI's test
    /// (ui/src/lib/zones.test.ts) checks the webview can format every one of them.
    #[test]
    fn the_offered_zones_are_exported_for_the_picker() {
        let folder =
            std::env::var("TS_RS_EXPORT_DIR").expect("TS_RS_EXPORT_DIR (.cargo/config.toml)");
        let mut text = String::from(
            "// Written by crates/core/src/zone.rs when its tests run: the display zones Rust \
             accepts and Settings offers. Do not edit.\n\nexport const TIME_ZONE_NAMES: readonly string[] = [\n",
        );
        for name in offered_zones() {
            text.push_str(&format!("  '{name}',\n"));
        }
        text.push_str("];\n");
        let path = std::path::Path::new(&folder).join("TimeZoneNames.ts");
        if std::fs::read_to_string(&path).ok().as_deref() != Some(text.as_str()) {
            std::fs::write(&path, text).expect("could not write TimeZoneNames.ts");
        }
    }
}
