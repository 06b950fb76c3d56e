//! What a bundle holds, read from the store: an investigation (its requests oldest first with
//! their provenance, every post with its note and tags, its notebook and cost), or a
//! hand-picked selection of history rows and posts (its cost, too, from the ledger rows of its
//! requests). Each capture comes with its trusted timestamp's state from the stamp queue and,
//! once stamped, its token; the posts come with their pictures and videos (`media_items`),
//! whose kept files [`StoredBodies`] finds in this computer's media folder, and each post an
//! import brought with its import's mark (no capture of its own).

use std::collections::{BTreeMap, BTreeSet, HashMap};

use chrono::Utc;
use sightline_store::{HistoryEntry, HistoryQuery, MediaItemRecord, Store, Tz};
use sightline_store::{InvestigationCost, InvestigationPostQuery};
use sightline_store::{PostImportMark, Provenance, ProvenanceRecord, StampState as StoreStamp};

use super::{
    Bundle, BundleCost, BundlePost, BundleRequest, CaptureRecord, CaptureToken, CostLine,
    ResponseBodies, StampState,
};
use crate::errors::CommandError;
use crate::export::history_rows;
use crate::media::files::MediaFolder;

/// Posts read per page.
const PAGE: u32 = 1_000;

/// The bodies kept in the store's provenance table, exactly as received, and the media files
/// kept in the data folder's media folder.
pub struct StoredBodies<'s>(pub &'s Store, pub &'s MediaFolder);

impl ResponseBodies for StoredBodies<'_> {
    async fn body(&self, history_id: i64) -> Result<Option<Vec<u8>>, CommandError> {
        Ok(self.0.provenance_body(history_id).await?)
    }

    async fn headers(
        &self,
        history_id: i64,
    ) -> Result<Option<Vec<(String, String)>>, CommandError> {
        Ok(self.0.response_headers(history_id).await?)
    }

    fn media_path(&self, sha256: &str) -> Option<std::path::PathBuf> {
        self.1.path(sha256).ok()
    }
}

/// What "Export evidence" asked for: investigation `investigation_id` when one is named (the
/// picked rows and posts are then not looked at), else the picked history rows and posts.
pub async fn requested(
    store: &Store,
    investigation_id: Option<i64>,
    history_ids: Vec<i64>,
    post_ids: Vec<String>,
    zone: Tz,
    app_version: &str,
) -> Result<Bundle, CommandError> {
    match investigation_id {
        Some(id) => investigation(store, id, zone, app_version).await,
        None => selection(store, history_ids, post_ids, zone, app_version).await,
    }
}

/// Everything investigation `id` holds.
pub async fn investigation(
    store: &Store,
    id: i64,
    zone: Tz,
    app_version: &str,
) -> Result<Bundle, CommandError> {
    let detail = store
        .investigation_detail(id, zone)
        .await?
        .ok_or_else(|| CommandError::not_found("That investigation no longer exists."))?;
    let query = HistoryQuery {
        investigation_id: Some(id),
        ..HistoryQuery::default()
    };
    let mut entries = history_rows(store, &query, None).await?;
    entries.reverse();
    let mut requests = with_provenance(store, entries).await?;

    let mut posts = Vec::new();
    loop {
        let page = store
            .investigation_posts(
                id,
                &InvestigationPostQuery {
                    offset: u32::try_from(posts.len()).unwrap_or(u32::MAX),
                    limit: PAGE,
                    after: posts.last().map(|p: &BundlePost| p.post.id.clone()),
                    ..InvestigationPostQuery::default()
                },
            )
            .await?;
        let last = page.posts.len() < PAGE as usize;
        posts.extend(page.posts.into_iter().map(|p| BundlePost {
            post: p.post,
            note: p.note,
            tags: p.tags,
            found_by: p.found_by,
            imported: None,
        }));
        if last {
            break;
        }
    }
    // The case's cost is its own requests'; computed before the responses of posts added on
    // their own join the bundle.
    let cost = cost_of(detail.cost, currency_of(&requests));
    with_post_captures(store, &mut requests, &mut posts).await?;
    with_import_marks(store, &mut posts).await?;
    let media = media_of(store, &posts).await?;
    Ok(Bundle {
        investigation_id: Some(id),
        name: detail.summary.name,
        description: detail.summary.description,
        notebook: detail.notebook,
        custody: None,
        cost,
        requests,
        posts,
        media,
        zone,
        app_version: app_version.to_owned(),
        created_at: Utc::now(),
        package: None,
    })
}

/// A hand-picked selection: these history rows (oldest first) and these posts.
pub async fn selection(
    store: &Store,
    history_ids: Vec<i64>,
    post_ids: Vec<String>,
    zone: Tz,
    app_version: &str,
) -> Result<Bundle, CommandError> {
    let mut entries = history_rows(store, &HistoryQuery::default(), Some(history_ids)).await?;
    entries.sort_by_key(|e| (e.started_at, e.id));
    let mut requests = with_provenance(store, entries).await?;
    let mut posts = Vec::with_capacity(post_ids.len());
    for id in &post_ids {
        if let Some(post) = store.post(id).await? {
            posts.push(BundlePost {
                post,
                note: String::new(),
                tags: Vec::new(),
                found_by: None,
                imported: None,
            });
        }
    }
    // From the ledger, as an investigation's: a request may have been billed more than once
    // (a forecast's polls), and its history row shows only the first charge.
    let ids: Vec<i64> = requests.iter().map(|r| r.entry.id).collect();
    let cost = cost_of(
        store.requests_cost(&ids, zone).await?,
        currency_of(&requests),
    );
    with_post_captures(store, &mut requests, &mut posts).await?;
    with_import_marks(store, &mut posts).await?;
    let media = media_of(store, &posts).await?;
    Ok(Bundle {
        investigation_id: None,
        name: "Selection".into(),
        description: format!(
            "{} requests and {} posts picked by hand.",
            requests.len(),
            posts.len()
        ),
        notebook: String::new(),
        custody: None,
        cost,
        requests,
        posts,
        media,
        zone,
        app_version: app_version.to_owned(),
        created_at: Utc::now(),
        package: None,
    })
}

/// Gives each post that has no response among the bundle's requests the capture the app shows
/// for it (the earliest captured response that found it), and adds those responses to the
/// bundle, oldest first after its own and marked as such: every post in a bundle carries the
/// response it came in, checkable like any other.
async fn with_post_captures(
    store: &Store,
    requests: &mut Vec<BundleRequest>,
    posts: &mut [BundlePost],
) -> Result<(), CommandError> {
    let held: BTreeSet<i64> = requests.iter().map(|r| r.entry.id).collect();
    let lacking: Vec<String> = posts
        .iter()
        .filter(|p| p.found_by.is_none_or(|id| !held.contains(&id)))
        .map(|p| p.post.id.clone())
        .collect();
    if lacking.is_empty() {
        return Ok(());
    }
    let found_by: BTreeMap<String, i64> = store
        .post_captures(&lacking)
        .await?
        .into_iter()
        .filter_map(|c| Some((c.post_id, c.capture?.history_id)))
        .collect();
    let mut extra = BTreeSet::new();
    for post in posts.iter_mut() {
        if let Some(&id) = found_by.get(&post.post.id) {
            post.found_by = Some(id);
            if !held.contains(&id) {
                extra.insert(id);
            }
        }
    }
    let mut entries = history_rows(
        store,
        &HistoryQuery::default(),
        Some(extra.into_iter().collect()),
    )
    .await?;
    entries.sort_by_key(|e| (e.started_at, e.id));
    for mut request in with_provenance(store, entries).await? {
        request.only_brought_posts = true;
        requests.push(request);
    }
    Ok(())
}

/// Marks each post an import brought with that import (its file's name and SHA-256, the
/// line): such a post came in no response of this installation, and the bundle says so.
async fn with_import_marks(store: &Store, posts: &mut [BundlePost]) -> Result<(), CommandError> {
    for chunk in posts.chunks_mut(PAGE as usize) {
        let ids: Vec<String> = chunk.iter().map(|p| p.post.id.clone()).collect();
        let mut marks: HashMap<String, PostImportMark> = store
            .import_for_posts(&ids)
            .await?
            .into_iter()
            .map(|mark| (mark.post_id.clone(), mark))
            .collect();
        for post in chunk.iter_mut() {
            post.imported = marks.remove(&post.post.id);
        }
    }
    Ok(())
}

/// The posts' pictures and videos, in post order then position, each with what became of it.
async fn media_of(
    store: &Store,
    posts: &[BundlePost],
) -> Result<Vec<MediaItemRecord>, CommandError> {
    let ids: Vec<String> = posts.iter().map(|p| p.post.id.clone()).collect();
    Ok(store.media_for_posts(&ids).await?)
}

async fn with_provenance(
    store: &Store,
    entries: Vec<HistoryEntry>,
) -> Result<Vec<BundleRequest>, CommandError> {
    let ids: Vec<i64> = entries.iter().map(|e| e.id).collect();
    let mut stamps = stamps_of(store, &ids).await?;
    let mut requests = Vec::with_capacity(entries.len());
    for entry in entries {
        let capture = match store.provenance(entry.id).await? {
            Provenance::Captured { record } => Some(capture_of(&entry, record)),
            Provenance::BeforeProvenance | Provenance::NotReceived => None,
        };
        let stamp = stamps.remove(&entry.id).unwrap_or(StampState::NotAsked);
        requests.push(BundleRequest {
            entry,
            capture,
            only_brought_posts: false,
            stamp,
        });
    }
    Ok(requests)
}

/// Each capture's stamp state from the store's stamp queue, with the token of each stamped
/// one (captures never queued are left out: not asked).
async fn stamps_of(store: &Store, ids: &[i64]) -> Result<HashMap<i64, StampState>, CommandError> {
    let mut tokens: HashMap<i64, CaptureToken> = store
        .stamp_tokens(ids)
        .await?
        .into_iter()
        .map(|t| {
            (
                t.history_id,
                CaptureToken {
                    reply_der: t.reply_der,
                    stamped_at: t.stamped_at,
                    authority: t.authority,
                    certificates_pem: t.certificates_pem,
                },
            )
        })
        .collect();
    Ok(store
        .capture_stamps(ids)
        .await?
        .into_iter()
        .map(|c| {
            let state = match c.stamp {
                StoreStamp::NotAsked => StampState::NotAsked,
                StoreStamp::Waiting { .. } => StampState::Waiting,
                StoreStamp::Failed { problem, .. } => StampState::Failed(problem),
                // Stamped: its token, read in the same export (a row once stamped is never
                // edited, so the two reads agree).
                StoreStamp::Stamped { .. } => tokens
                    .remove(&c.history_id)
                    .map_or(StampState::Waiting, StampState::Stamped),
            };
            (c.history_id, state)
        })
        .collect())
}

fn capture_of(entry: &HistoryEntry, record: ProvenanceRecord) -> CaptureRecord {
    // A streamed AI answer's bytes are its event stream; its parameters say it streamed.
    let streamed = entry.operation == "ai_search"
        && serde_json::from_str::<serde_json::Value>(&entry.params_json)
            .is_ok_and(|p| p["streaming"] == serde_json::Value::Bool(true));
    CaptureRecord {
        captured_at: record.captured_at,
        service_address: record.service_url,
        response_url: record.response_url,
        http_status: record.http_status,
        from_cache: record.from_cache,
        billing_headers: record.billing_headers,
        app_version: record.app_version,
        sha256: record.sha256,
        streamed,
    }
}

fn currency_of(requests: &[BundleRequest]) -> String {
    requests
        .iter()
        .find_map(|r| r.entry.billing.as_ref().map(|b| b.currency.clone()))
        .unwrap_or_else(|| "USD".into())
}

fn cost_of(cost: InvestigationCost, currency: String) -> BundleCost {
    BundleCost {
        total: cost.total,
        currency,
        by_day: cost
            .by_day
            .into_iter()
            .map(|d| CostLine {
                label: d.day,
                cost: d.cost,
                requests: d.requests,
            })
            .collect(),
        by_operation: cost
            .by_operation
            .into_iter()
            .map(|o| CostLine {
                label: o.operation,
                cost: o.cost,
                requests: o.requests,
            })
            .collect(),
    }
}
