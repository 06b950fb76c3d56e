//! Which format a file is, from its first lines; and what one JSON line holds in a format.

use std::io::{BufRead, BufReader, Read};

use serde::Deserialize;
use serde_json::Value;
use sightline_api::model::Post;
use sightline_store::ImportFormat;

use super::{fourcat, graphql, v2, Item};

/// Lines looked at before a file is called unknown: a file may open with accounts or error
/// pages before its first post.
const LINES_LOOKED_AT: usize = 200;

/// The format of a file, from its first lines; `None` when no line looks like any known one.
pub(super) fn detect(file: impl Read) -> std::io::Result<Option<ImportFormat>> {
    let mut lines = BufReader::new(file);
    let mut line = Vec::new();
    let mut first = true;
    for _ in 0..LINES_LOOKED_AT {
        line.clear();
        if lines.read_until(b'\n', &mut line)? == 0 {
            break;
        }
        let text = String::from_utf8_lossy(&line);
        let text = text.trim_start_matches('\u{feff}').trim();
        if text.is_empty() {
            continue;
        }
        if first && !text.starts_with('{') {
            return Ok(csv_format(text));
        }
        first = false;
        if let Ok(value) = serde_json::from_str::<Value>(text) {
            if let Some(format) = json_format(&value) {
                return Ok(Some(format));
            }
        }
    }
    Ok(None)
}

/// A CSV's header row names its format.
fn csv_format(header: &str) -> Option<ImportFormat> {
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .from_reader(header.as_bytes());
    let record = reader.records().next()?.ok()?;
    let names: Vec<&str> = record.iter().map(str::trim).collect();
    let has = |column: &str| names.contains(&column);
    if fourcat::KEY_COLUMNS.iter().all(|c| has(c)) {
        Some(ImportFormat::FourcatCsv)
    } else {
        None
    }
}

/// The format one JSON line speaks, when it tells.
fn json_format(value: &Value) -> Option<ImportFormat> {
    let has = |key: &str| value.get(key).is_some();
    if has("item_id") && has("source_platform") {
        return Some(ImportFormat::Zeeschuimer);
    }
    if has("raw") && has("first_seen") && has("author_username") {
        return Some(ImportFormat::SightlineJsonl);
    }
    match value.get("data") {
        Some(Value::Array(_)) => return Some(ImportFormat::Twarc2Pages),
        Some(Value::Object(_)) => return Some(ImportFormat::FourcatNdjson),
        _ => {}
    }
    if has("includes") || (has("meta") && has("__twarc")) {
        return Some(ImportFormat::Twarc2Pages);
    }
    if has("id") && has("text") && (has("author_id") || has("author") || has("public_metrics")) {
        return Some(ImportFormat::Twarc2Flat);
    }
    None
}

/// What one line of a JSON Lines file holds, in `format`.
pub(super) fn json_line(format: ImportFormat, text: &str) -> Vec<Item> {
    if text.trim().is_empty() {
        return vec![Item::NotAPost("an empty line".into())];
    }
    let value: Value = match serde_json::from_str(text) {
        Ok(value) => value,
        Err(error) if error.is_eof() => {
            return vec![Item::Unreadable(
                "cut short: the line ends inside its JSON".into(),
            )]
        }
        Err(error) => return vec![Item::Unreadable(format!("not JSON: {error}"))],
    };
    if !value.is_object() {
        return vec![Item::Unreadable("not a JSON object".into())];
    }
    vec![match format {
        ImportFormat::Twarc2Pages if value.get("data").is_some() || value.get("id").is_none() => {
            return v2::page_items(&value)
        }
        ImportFormat::Twarc2Pages | ImportFormat::Twarc2Flat => {
            v2::tweet_item(&value, &v2::Includes::default())
        }
        ImportFormat::FourcatNdjson | ImportFormat::Zeeschuimer => wrapped_item(&value),
        ImportFormat::SightlineJsonl => sightline_item(&value),
        ImportFormat::FourcatCsv | ImportFormat::DmrcCsv => {
            Item::Unreadable("a JSON line in a CSV file".into())
        }
    }]
}

/// A 4CAT or Zeeschuimer item: the original record under `data`, X's web record or a v2 tweet.
fn wrapped_item(value: &Value) -> Item {
    if let Some(platform) = value.get("source_platform").and_then(Value::as_str) {
        let host = platform.trim_start_matches("www.");
        if !matches!(host, "twitter.com" | "x.com") {
            return Item::NotAPost(format!("an item from {platform}, not an X post"));
        }
    }
    let Some(data) = value.get("data").filter(|d| d.is_object()) else {
        return Item::NotAPost("an item without its original record under data".into());
    };
    if data.get("legacy").is_some()
        || data.get("rest_id").is_some()
        || data.get("__typename").is_some()
    {
        graphql::item(data)
    } else {
        v2::tweet_item(data, &v2::Includes::default())
    }
}

/// A line of Sightline's own export: the service's record as stored, under `raw`.
fn sightline_item(value: &Value) -> Item {
    let Some(raw) = value.get("raw").filter(|raw| raw.is_object()) else {
        return Item::Unreadable("a line without the post's record under raw".into());
    };
    match Post::deserialize(raw) {
        Ok(post) => Item::Post(Box::new(post)),
        Err(error) => Item::Unreadable(format!("the post's record cannot be read: {error}")),
    }
}
