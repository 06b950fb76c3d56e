//! How a zone is named beside a local time: one rule for the screens and for every file.
//!
//! A few well-known letters (CET, BST, EST, …, [`LETTERS`]) are used where the tz database
//! gives a zone that name at that name's own offset, and where the zone has used that offset
//! under no other name since 2006 (the earliest posts there are); every other time is named by
//! its offset from GMT, as the screens write it: `GMT+5:30`, `GMT+5:45`, `GMT-3`, `GMT`. So a
//! name is never a guess between zones: `CST` is never China's or Cuba's, `IST` never India's,
//! Ireland's or Israel's, and `+0545` is `GMT+5:45`.
//!
//! The window reads the same names: this module's tests write [`zone_letters`] of every zone
//! to `ui/src/lib/bindings/ZoneLetters.ts`, and `ui/src/lib/format.ts` looks a time's offset
//! up there. Files add the zone's IANA name ([`zone_label`]): `CET (Europe/Paris)`,
//! `GMT+5:45 (Asia/Kathmandu)`, and plain `UTC`.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::{Arc, Mutex};

use chrono::{DateTime, Duration, NaiveDate, Offset, TimeZone, Utc};
use chrono_tz::{OffsetName, Tz};

/// The letters a zone may be named by, each with the only offset (minutes east of UTC) it
/// stands for.
pub const LETTERS: [(&str, i32); 23] = [
    ("UTC", 0),
    ("GMT", 0),
    ("WET", 0),
    ("BST", 60),
    ("WEST", 60),
    ("CET", 60),
    ("CEST", 120),
    ("EET", 120),
    ("EEST", 180),
    ("ADT", -180),
    ("AST", -240),
    ("EDT", -240),
    ("EST", -300),
    ("CDT", -300),
    ("CST", -360),
    ("MDT", -360),
    ("MST", -420),
    ("PDT", -420),
    ("PST", -480),
    ("AKDT", -480),
    ("AKST", -540),
    ("HDT", -540),
    ("HST", -600),
];

/// Offsets are read once a day over these years to find which names a zone has used.
const FIRST_YEAR: i32 = 2006;
const LAST_YEAR: i32 = 2040;

/// A zone's letters by offset in minutes east of UTC (`{60: "CET", 120: "CEST"}`).
pub type Letters = BTreeMap<i32, &'static str>;

/// Each zone's table, worked out once (a few thousand look-ups) and kept.
static TABLES: Mutex<Option<HashMap<Tz, Arc<Letters>>>> = Mutex::new(None);

/// The letters `tz` is named by, by offset; an offset not in it is named by [`offset_name`].
pub fn zone_letters(tz: Tz) -> Arc<Letters> {
    let mut tables = TABLES
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    tables
        .get_or_insert_with(HashMap::new)
        .entry(tz)
        .or_insert_with(|| Arc::new(work_out_letters(tz)))
        .clone()
}

fn work_out_letters(tz: Tz) -> Letters {
    // Every name (or none, for a numeric one) each offset has had.
    let mut seen: BTreeMap<i32, BTreeSet<Option<&'static str>>> = BTreeMap::new();
    let start = NaiveDate::from_ymd_opt(FIRST_YEAR, 1, 1).expect("a date");
    let end = NaiveDate::from_ymd_opt(LAST_YEAR, 12, 31).expect("a date");
    let mut day = start;
    while day <= end {
        let noon = day.and_hms_opt(12, 0, 0).expect("noon");
        let offset = tz.offset_from_utc_datetime(&noon);
        let minutes = offset.fix().local_minus_utc() / 60;
        let name = offset
            .abbreviation()
            .and_then(|name| LETTERS.iter().find(|(letters, _)| *letters == name))
            .map(|(letters, _)| *letters);
        seen.entry(minutes).or_default().insert(name);
        day += Duration::days(1);
    }
    seen.into_iter()
        .filter_map(
            |(minutes, names)| match names.into_iter().collect::<Vec<_>>()[..] {
                [Some(letters)] if LETTERS.contains(&(letters, minutes)) => {
                    Some((minutes, letters))
                }
                _ => None,
            },
        )
        .collect()
}

/// `GMT+5:30`, `GMT+5:45`, `GMT-3`, `GMT+14`, `GMT`: an offset as the screens write it.
pub fn offset_name(minutes: i32) -> String {
    if minutes == 0 {
        return "GMT".to_owned();
    }
    let sign = if minutes < 0 { '-' } else { '+' };
    let (hours, rest) = (minutes.abs() / 60, minutes.abs() % 60);
    if rest == 0 {
        format!("GMT{sign}{hours}")
    } else {
        format!("GMT{sign}{hours}:{rest:02}")
    }
}

/// The zone's name at an instant: `CET`, `EDT`, `UTC`, or its offset (`GMT+5:30`).
pub fn zone_abbreviation(t: DateTime<Utc>, tz: Tz) -> String {
    let minutes = t.with_timezone(&tz).offset().fix().local_minus_utc() / 60;
    match zone_letters(tz).get(&minutes) {
        Some(letters) => (*letters).to_owned(),
        None => offset_name(minutes),
    }
}

/// `CET (Europe/Paris)`, `GMT+5:45 (Asia/Kathmandu)`; plain `UTC` for UTC (and `Etc/UTC`),
/// which needs no zone after it.
pub fn zone_label(t: DateTime<Utc>, tz: Tz) -> String {
    let name = zone_abbreviation(t, tz);
    if name == "UTC" {
        name
    } else {
        format!("{name} ({})", tz.name())
    }
}

/// `2026-11-23 19:04:12 CET (Europe/Paris)`, `2026-11-23 18:04:12 UTC`: a time in `tz` to the
/// second, its zone named by [`zone_label`].
pub fn local_seconds(t: DateTime<Utc>, tz: Tz) -> String {
    let local = t.with_timezone(&tz).format("%Y-%m-%d %H:%M:%S");
    format!("{local} {}", zone_label(t, tz))
}

/// `2026-11-23 19:04 CET (Europe/Paris)`, `2026-11-23 18:04 UTC`: the same to the minute.
pub fn local_minutes(t: DateTime<Utc>, tz: Tz) -> String {
    let local = t.with_timezone(&tz).format("%Y-%m-%d %H:%M");
    format!("{local} {}", zone_label(t, tz))
}

#[cfg(test)]
mod tests;
