//! What to keep of a post: its attached pictures and videos, read from the post's record as
//! the archive keeps it (`posts.raw_json`, the service's Tweet record with every field it
//! sent). Nothing here touches the network.
//!
//! The record's richest description is X's `extended_entities.media[]` (each entry's `type`,
//! `media_url_https`, and for a video or GIF its `video_info.variants[]`); older or thinner
//! records carry only `entities.media[]` or the service's flat `media: [{media_url, type}]`.
//! The first of these that lists anything is read; a post's own media only (a quoted or
//! reposted post is archived as a post of its own, and planned from its own record).
//!
//! A video's file is its best MP4 variant: the highest bitrate first, the next lower one kept
//! as a fallback for when the best is over the size limit ([`PlannedMedia::variants`]; the
//! limit is applied while fetching, where the size is learnt). HLS playlists are not files and
//! are never fetched. A video's poster picture is kept beside it.
//!
//! Where an address may be fetched from is [`fetchable`]'s rule: HTTPS anywhere, or plain HTTP
//! only on the service's own host (the sandbox serves its media on loopback). Nothing else (no
//! `file:`, no `data:`, no plain HTTP elsewhere) is ever fetched, and the plan says why.

use serde_json::Value;
use url::Url;

pub use sightline_store::MediaKind;

/// One file variant of an attached media entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Variant {
    /// Its address.
    pub url: String,
    /// Its bitrate in bits per second, when the record gives one (videos).
    pub bitrate: Option<u64>,
}

/// One attached media entry of a post, and what to fetch for it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlannedMedia {
    /// Its place among the post's media (0 first), the queue's key with the post's id.
    pub position: u32,
    /// Photo, video or animated GIF.
    pub kind: MediaKind,
    /// The files that may be kept, best first: a photo's one picture, a video's MP4 variants
    /// from the highest bitrate down. Empty when nothing can be fetched ([`Self::refused`]).
    pub variants: Vec<Variant>,
    /// A video's or GIF's poster picture (`media_url_https`), kept beside it (its address is
    /// checked when it is fetched).
    pub poster_url: Option<String>,
    /// Why the file itself is not fetched, in plain words (`None`: it is).
    pub refused: Option<String>,
    /// The address the record names for the entry (the best variant, or what was refused).
    pub source_url: String,
}

/// The service's host, the one place plain HTTP is fetched from (on any port: the sandbox, on
/// loopback, may serve its media beside its API).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServiceOrigin {
    host: String,
}

impl ServiceOrigin {
    /// The host of the service address `base_url` (`None` when it is no URL with a host).
    pub fn of(base_url: &str) -> Option<Self> {
        let url = Url::parse(base_url.trim()).ok()?;
        Some(Self {
            host: url.host_str()?.to_ascii_lowercase(),
        })
    }

    fn holds(&self, url: &Url) -> bool {
        url.host_str()
            .is_some_and(|host| host.eq_ignore_ascii_case(&self.host))
    }
}

/// Whether `address` may be fetched: an `https` URL, or an `http` one on the service's own
/// host. The reason in plain words when it may not.
pub fn fetchable(address: &str, service: Option<&ServiceOrigin>) -> Result<Url, String> {
    let url = Url::parse(address.trim())
        .map_err(|_| format!("The record's media address is not a web address: {address}"))?;
    let scheme = url.scheme().to_owned();
    if scheme != "https" && scheme != "http" {
        return Err(format!(
            "Not fetched: only web addresses are fetched, not '{scheme}': {address}"
        ));
    }
    if url.host_str().is_none_or(str::is_empty) {
        return Err(format!("The media address names no host: {address}"));
    }
    match scheme.as_str() {
        "https" => Ok(url),
        "http" if service.is_some_and(|service| service.holds(&url)) => Ok(url),
        _ => Err(format!(
            "Not fetched: the media address is not secure (http, not https): {address}"
        )),
    }
}

/// The media of the post whose record is `raw_json`, each with what to fetch; `service` is
/// the service's origin (plain HTTP is fetched from it alone). A record that is no JSON, or
/// lists no media, plans nothing.
pub fn plan(raw_json: &str, service: Option<&ServiceOrigin>) -> Vec<PlannedMedia> {
    let Ok(record) = serde_json::from_str::<Value>(raw_json) else {
        return Vec::new();
    };
    plan_record(&record, service)
}

/// [`plan`] of a record already read.
pub fn plan_record(record: &Value, service: Option<&ServiceOrigin>) -> Vec<PlannedMedia> {
    let listed = |path: &[&str]| -> Option<&Vec<Value>> {
        let mut at = record;
        for key in path {
            at = at.get(key)?;
        }
        at.as_array().filter(|list| !list.is_empty())
    };
    let entries = listed(&["extended_entities", "media"])
        .or_else(|| listed(&["entities", "media"]))
        .map(|list| (list, false))
        .or_else(|| listed(&["media"]).map(|list| (list, true)));
    let Some((entries, flat)) = entries else {
        return Vec::new();
    };
    entries
        .iter()
        .enumerate()
        .filter_map(|(position, entry)| {
            let position = u32::try_from(position).ok()?;
            let planned = if flat {
                flat_entry(entry)
            } else {
                rich_entry(entry)
            };
            planned.map(|entry| checked(position, entry, service))
        })
        .collect()
}

/// An entry as the record describes it, before its addresses are checked.
struct Entry {
    kind: MediaKind,
    variants: Vec<Variant>,
    poster: Option<String>,
    refused: Option<String>,
    /// What the record names when no variant is kept (a video's playlist).
    named: Option<String>,
}

impl Entry {
    fn photo(url: String) -> Self {
        Self {
            kind: MediaKind::Photo,
            variants: vec![Variant { url, bitrate: None }],
            poster: None,
            refused: None,
            named: None,
        }
    }
}

/// An `extended_entities` / `entities` entry.
fn rich_entry(entry: &Value) -> Option<Entry> {
    let text = |key: &str| {
        entry
            .get(key)
            .and_then(Value::as_str)
            .map(str::trim)
            .filter(|text| !text.is_empty())
            .map(str::to_owned)
    };
    let picture = text("media_url_https").or_else(|| text("media_url"));
    let kind = kind_of(entry.get("type").and_then(Value::as_str).unwrap_or("photo"))?;
    if kind == MediaKind::Photo {
        return Some(Entry::photo(picture?));
    }
    let listed = entry
        .pointer("/video_info/variants")
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or_default();
    let mut variants: Vec<Variant> = listed
        .iter()
        .filter(|variant| {
            variant
                .get("content_type")
                .and_then(Value::as_str)
                .is_some_and(|kind| kind.eq_ignore_ascii_case("video/mp4"))
        })
        .filter_map(|variant| {
            let url = variant.get("url")?.as_str()?.trim();
            (!url.is_empty()).then(|| Variant {
                url: url.to_owned(),
                bitrate: variant.get("bitrate").and_then(bitrate),
            })
        })
        .collect();
    // Highest bitrate first; one without a bitrate after those with one.
    variants.sort_by_key(|variant| std::cmp::Reverse(variant.bitrate));
    variants.dedup_by(|a, b| a.url == b.url);
    let refused = variants.is_empty().then(|| {
        "Not fetched: the record lists no MP4 file of this video (a stream playlist is not a \
         file)."
            .to_owned()
    });
    let named = listed
        .iter()
        .find_map(|variant| variant.get("url")?.as_str().map(str::to_owned));
    Some(Entry {
        kind,
        variants,
        poster: picture,
        refused,
        named,
    })
}

/// A flat `media: [{media_url, type}]` entry: a photo's picture, or a video's poster alone
/// (the flat form names no video file).
fn flat_entry(entry: &Value) -> Option<Entry> {
    let url = entry
        .get("media_url")
        .and_then(Value::as_str)
        .map(str::trim)
        .filter(|url| !url.is_empty())?
        .to_owned();
    let kind = kind_of(entry.get("type").and_then(Value::as_str).unwrap_or("photo"))?;
    if kind == MediaKind::Photo {
        return Some(Entry::photo(url));
    }
    let refused = "Not fetched: the record names only this video's poster picture, not its \
                   file."
        .to_owned();
    Some(Entry {
        kind,
        variants: Vec::new(),
        poster: Some(url),
        refused: Some(refused),
        named: None,
    })
}

/// Checks every variant against [`fetchable`]: refused ones dropped (the first refusal said
/// when none is left). The poster is named as the record gives it; the fetcher checks it.
fn checked(position: u32, entry: Entry, service: Option<&ServiceOrigin>) -> PlannedMedia {
    let Entry {
        kind,
        variants,
        poster,
        refused,
        named,
    } = entry;
    let source_url = variants
        .first()
        .map(|variant| variant.url.clone())
        .or(named)
        .or_else(|| poster.clone())
        .unwrap_or_default();
    let mut first_refusal = None;
    let variants: Vec<Variant> = variants
        .into_iter()
        .filter(|variant| match fetchable(&variant.url, service) {
            Ok(_) => true,
            Err(why) => {
                first_refusal.get_or_insert(why);
                false
            }
        })
        .collect();
    let refused = match (&refused, variants.is_empty()) {
        (Some(_), _) => refused,
        (None, true) => first_refusal,
        (None, false) => None,
    };
    PlannedMedia {
        position,
        kind,
        source_url: variants
            .first()
            .map(|variant| variant.url.clone())
            .unwrap_or(source_url),
        variants,
        poster_url: poster,
        refused,
    }
}

fn kind_of(word: &str) -> Option<MediaKind> {
    match word.trim().to_ascii_lowercase().as_str() {
        "photo" | "image" => Some(MediaKind::Photo),
        "video" => Some(MediaKind::Video),
        "animated_gif" | "gif" => Some(MediaKind::AnimatedGif),
        _ => None,
    }
}

/// A bitrate written as a number or as digits.
fn bitrate(value: &Value) -> Option<u64> {
    value
        .as_u64()
        .or_else(|| value.as_str().and_then(|text| text.trim().parse().ok()))
}

#[cfg(test)]
mod tests;
