use super::*;

fn at(text: &str) -> DateTime<Utc> {
    text.parse().unwrap()
}

fn zone(name: &str) -> Tz {
    name.parse().unwrap()
}

/// The cases the window's formatting runs too (ui/src/lib/format.test.ts): the tz database's
/// IST, CST and PST of India, China, Cuba and the Philippines name other zones' letters at other
/// offsets, and numeric names (`+0545`, `-03`) are written as offsets.
#[test]
fn letters_only_where_they_cannot_be_misread_else_the_offset() {
    let table: serde_json::Value =
        serde_json::from_str(include_str!("../../tests/fixtures/zone-names.json")).unwrap();
    let cases = table["cases"].as_array().unwrap();
    assert!(cases.len() >= 40, "{} cases", cases.len());
    for case in cases {
        let (name, utc) = (
            case["zone"].as_str().unwrap(),
            case["utc"].as_str().unwrap(),
        );
        assert_eq!(
            zone_abbreviation(at(utc), zone(name)),
            case["name"].as_str().unwrap(),
            "{name} at {utc}"
        );
    }
}

#[test]
fn offsets_are_written_as_the_screens_write_them() {
    assert_eq!(offset_name(0), "GMT");
    assert_eq!(offset_name(330), "GMT+5:30");
    assert_eq!(offset_name(345), "GMT+5:45");
    assert_eq!(offset_name(-180), "GMT-3");
    assert_eq!(offset_name(-570), "GMT-9:30");
    assert_eq!(offset_name(840), "GMT+14");
}

#[test]
fn files_name_the_zone_after_the_time_and_utc_alone() {
    let t = at("2026-11-23T18:04:12Z");
    assert_eq!(
        local_seconds(t, zone("Asia/Kathmandu")),
        "2026-11-23 23:49:12 GMT+5:45 (Asia/Kathmandu)"
    );
    assert_eq!(
        local_minutes(t, zone("Europe/Berlin")),
        "2026-11-23 19:04 CET (Europe/Berlin)"
    );
    assert_eq!(local_seconds(t, Tz::UTC), "2026-11-23 18:04:12 UTC");
    assert_eq!(local_minutes(t, zone("Etc/UTC")), "2026-11-23 18:04 UTC");
}

/// The letters each zone is named by, for the window's formatting to name zones as the files
/// do; an offset missing there is written `GMT+5:30`. Every zone chrono-tz knows, as a settings
/// file or the system may name an alias. `make test` fails if the committed copy differs.
#[test]
fn the_zone_letters_are_exported_for_the_window() {
    let folder = std::env::var("TS_RS_EXPORT_DIR").expect("TS_RS_EXPORT_DIR (.cargo/config.toml)");
    let mut text = String::from(
        "// Written by crates/store/src/zone_names/tests.rs when its tests run: the letters each \
         zone is named by,\n// by offset in minutes east of UTC (as text); any other offset is named \
         GMT+5:30. Do not edit.\n\nexport const ZONE_LETTERS: Readonly<Record<string, \
         Readonly<Record<string, string>>>> = {\n",
    );
    let mut zones: Vec<Tz> = chrono_tz::TZ_VARIANTS.to_vec();
    zones.sort_unstable_by_key(|tz| tz.name());
    for tz in zones {
        let letters = zone_letters(tz);
        if letters.is_empty() {
            continue;
        }
        let entries: Vec<String> = letters
            .iter()
            .map(|(minutes, name)| format!("'{minutes}': '{name}'"))
            .collect();
        text.push_str(&format!(
            "  '{}': {{ {} }},\n",
            tz.name(),
            entries.join(", ")
        ));
    }
    text.push_str("};\n");
    let path = std::path::Path::new(&folder).join("ZoneLetters.ts");
    if std::fs::read_to_string(&path).ok().as_deref() != Some(text.as_str()) {
        std::fs::write(&path, text).expect("could not write ZoneLetters.ts");
    }
}
