//! The media queue's worker: fetches each waiting item of the `media_items` table (queued by
//! [`super::queue`]) one at a time, with a short gap between fetches, and records what came of
//! it: kept (the file in the media folder by its SHA-256, with its PDQ), gone (404/410, with
//! its time), too large for the limit in Settings, or failed (tried again later, given up
//! after [`MOST_ATTEMPTS`]).
//!
//! It cannot loop: after a failure to reach a host nothing is fetched before a hold that
//! doubles with each failure in a row (from [`Pace::first_hold`] up to [`Pace::longest_hold`]),
//! kept in memory and in the failed item's row (its next try, which also doubles with its own
//! attempts, so it outlives a restart). Nothing is scanned at start-up: each look reads the
//! next due row alone, and with nothing waiting it reads nothing until something is queued.
//!
//! Resumable: an item is marked only once its fetch is over, so one cut by a restart is still
//! waiting and is fetched again; its file is kept by content (the same bytes are one file),
//! so nothing is kept twice. It never blocks a search: it has its own HTTP client and task,
//! hashes pictures on a blocking thread, and holds no database lock while it fetches.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use sightline_api::wait;
use sightline_store::{
    MediaCounts, MediaFailure, MediaItemRecord, MediaKept, MediaKind, NextMedia, Store,
};
use tokio::sync::Notify;

use super::fetch::{Download, MediaClient};
use super::files::MediaFolder;
use super::keep;
use super::plan::{self, ServiceOrigin, Variant};
use crate::backoff::Hold;
use crate::errors::CommandError;
use crate::monitors::SchedulerClock;
use crate::session::Mode;
use crate::state::AppState;

pub use crate::backoff::Pace;

/// The worker's pace: a short gap (media hosts are CDNs, and each item is one file), and after a
/// failure a hold from 30 s up to an hour.
pub const PACE: Pace = Pace {
    gap: Duration::from_millis(250),
    first_hold: Duration::from_secs(30),
    longest_hold: Duration::from_secs(60 * 60),
};

/// Fetches an item at most this many times before it is given up (failed, with why): with the
/// doubling wait, about two and a half hours after its first try.
pub const MOST_ATTEMPTS: i64 = 8;

/// The longest sleep with nothing waiting; an item queued meanwhile wakes the worker at once.
const IDLE_NAP: Duration = Duration::from_secs(5 * 60);
/// The longest sleep while something waits (a hold, an item due later).
const LONGEST_NAP: Duration = Duration::from_secs(60);
/// Progress is told at most this often while fetching (and once when the queue empties).
const PROGRESS_EVERY: Duration = Duration::from_secs(1);

/// Items queued anywhere in the app wake the worker ([`queued`]).
static QUEUED: Notify = Notify::const_new();

/// Tells the worker something was queued: it looks at once instead of after its nap.
pub fn queued() {
    QUEUED.notify_one();
}

/// How the worker tells the window its progress (the app sends `media-progress`).
pub type Progress = Box<dyn Fn(&MediaCounts) + Send + Sync>;

/// What the worker did in one look, for its progress.
#[derive(Debug, Default)]
struct Told {
    last: Option<Instant>,
    dirty: bool,
}

/// Fetches waiting media for as long as the app is open ([`MediaWorker::serve`]).
pub struct MediaWorker {
    pace: Pace,
    clock: Arc<dyn SchedulerClock>,
    hold: Hold,
    client: Mutex<Option<MediaClient>>,
    wake: Notify,
    progress: Option<Progress>,
    told: Mutex<Told>,
}

impl Default for MediaWorker {
    fn default() -> Self {
        Self::new(PACE, crate::monitors::system_clock(), None)
    }
}

impl MediaWorker {
    /// A worker at `pace` on `clock`, telling `progress` its counts as it goes.
    pub fn new(pace: Pace, clock: Arc<dyn SchedulerClock>, progress: Option<Progress>) -> Self {
        Self {
            pace,
            clock,
            hold: Hold::default(),
            client: Mutex::new(None),
            wake: Notify::new(),
            progress,
            told: Mutex::default(),
        }
    }

    /// Looks at the queue again now.
    pub fn wake(&self) {
        self.wake.notify_one();
    }

    /// Fetches the next due item, if one is due and no hold is on; how long to wait before
    /// the next look.
    pub async fn step(&self, state: &AppState) -> Duration {
        let now = self.clock.now();
        if let Some(left) = self.hold.left(now) {
            return left.min(LONGEST_NAP);
        }
        let store = match state.store().await {
            Ok(store) => store,
            Err(error) => {
                tracing::warn!(error = error.message(), "the media queue could not be read");
                return LONGEST_NAP;
            }
        };
        let item = match store.next_media_due(now).await {
            Ok(NextMedia::Idle) => {
                self.tell(&store, true).await;
                return IDLE_NAP;
            }
            Ok(NextMedia::At(at)) => {
                self.tell(&store, true).await;
                return wait::until(now, at).clamp(self.pace.gap, LONGEST_NAP);
            }
            Ok(NextMedia::Due(item)) => item,
            Err(error) => {
                tracing::warn!(%error, "the media queue could not be read");
                return LONGEST_NAP;
            }
        };
        let limit = u64::from(state.settings().media_size_limit_mb).saturating_mul(1024 * 1024);
        let client = self.client(state);
        let folder = keep::folder(state);
        let wait = match self.fetch(&store, &client, &folder, &item, limit).await {
            Ok(()) => self.pace.gap,
            Err(why) => {
                tracing::warn!(%why, item = item.id, "a media outcome could not be recorded");
                let now = self.clock.now();
                self.hold.strike(&self.pace, now)
            }
        };
        self.told.lock().expect("told lock").dirty = true;
        self.tell(&store, false).await;
        wait
    }

    /// Fetches `item` (its best variant under `limit`, then a video's poster) and records
    /// what came of it; an error only when the outcome could not be recorded.
    async fn fetch(
        &self,
        store: &Store,
        client: &MediaClient,
        folder: &MediaFolder,
        item: &MediaItemRecord,
        limit: u64,
    ) -> Result<(), String> {
        let planned = replan(store, item, client.service()).await;
        if planned.variants.is_empty() {
            let reason = planned
                .refused
                .unwrap_or_else(|| "Not fetched: the record names no file to fetch.".into());
            return self.give_up(store, item, reason).await;
        }
        let mut too_large = None;
        for variant in &planned.variants {
            let partial = keep::partial(folder, item.id, "file");
            match client.download(&variant.url, limit, &partial).await {
                Download::Complete(received) => {
                    let answered = received.answered.clone();
                    let file = match keep::keep(folder, received).await {
                        Ok(file) => file,
                        Err(reason) => return self.failed(store, item, reason, None).await,
                    };
                    let poster = match &planned.poster_url {
                        Some(url) if item.kind != MediaKind::Photo => {
                            self.poster(client, folder, item.id, url, limit).await
                        }
                        _ => None,
                    };
                    self.hold.clear();
                    let kept = MediaKept {
                        fetched_at: answered.at,
                        http_status: answered.status,
                        response_headers: answered.headers,
                        file,
                        poster,
                    };
                    return store
                        .record_media_kept(item.id, &kept)
                        .await
                        .map(drop)
                        .map_err(|error| error.to_string());
                }
                Download::Gone(answered) => {
                    return store
                        .record_media_gone(item.id, answered.status, &answered.headers, answered.at)
                        .await
                        .map(drop)
                        .map_err(|error| error.to_string());
                }
                // The next variant down may fit.
                Download::TooLarge(answered) => too_large = Some((answered, variant.clone())),
                Download::Failed {
                    reason,
                    answered,
                    retry,
                } => {
                    if !retry {
                        return self.give_up(store, item, reason).await;
                    }
                    return self.failed(store, item, reason, answered).await;
                }
            }
        }
        let (answered, smallest) = too_large.expect("every variant was too large");
        let failure = MediaFailure {
            at: answered.at,
            reason: over_limit(&planned.variants, &smallest, limit),
            http_status: Some(answered.status),
            response_headers: Some(answered.headers),
            retry_at: None,
            too_large: true,
        };
        record_failure(store, item.id, &failure).await
    }

    /// A video's poster, kept when it can be (a poster that fails leaves the video kept
    /// without it).
    async fn poster(
        &self,
        client: &MediaClient,
        folder: &MediaFolder,
        item_id: i64,
        url: &str,
        limit: u64,
    ) -> Option<sightline_store::NewMediaFile> {
        tokio::time::sleep(self.pace.gap).await;
        let partial = keep::partial(folder, item_id, "poster");
        match client.download(url, limit, &partial).await {
            Download::Complete(received) => match keep::keep(folder, received).await {
                Ok(file) => Some(file),
                Err(reason) => {
                    tracing::warn!(%reason, "a video's poster could not be kept");
                    None
                }
            },
            _ => None,
        }
    }

    /// Records a fetch that may succeed later: the item waits for the hold it earns (and its
    /// own doubling wait), or is given up after [`MOST_ATTEMPTS`].
    async fn failed(
        &self,
        store: &Store,
        item: &MediaItemRecord,
        reason: String,
        answered: Option<super::fetch::Answered>,
    ) -> Result<(), String> {
        let now = self.clock.now();
        let hold = self.hold.strike(&self.pace, now);
        let attempts = item.attempts.saturating_add(1);
        let own = self
            .pace
            .hold_for(u32::try_from(attempts).unwrap_or(u32::MAX));
        let retry_at = (attempts < MOST_ATTEMPTS).then(|| wait::after(now, own.max(hold)));
        let reason = match retry_at {
            Some(_) => reason,
            None => format!("Given up after {attempts} tries. {reason}"),
        };
        let failure = MediaFailure {
            at: answered.as_ref().map_or(now, |answered| answered.at),
            reason,
            http_status: answered.as_ref().map(|answered| answered.status),
            response_headers: answered.map(|answered| answered.headers),
            retry_at,
            too_large: false,
        };
        record_failure(store, item.id, &failure).await
    }

    /// Records an item that is never fetched (its address refused, no file named).
    async fn give_up(
        &self,
        store: &Store,
        item: &MediaItemRecord,
        reason: String,
    ) -> Result<(), String> {
        let failure = MediaFailure {
            at: self.clock.now(),
            reason,
            http_status: None,
            response_headers: None,
            retry_at: None,
            too_large: false,
        };
        record_failure(store, item.id, &failure).await
    }

    /// The client for the service now in use (plain HTTP is fetched from its host alone),
    /// made again when the service address changes.
    fn client(&self, state: &AppState) -> MediaClient {
        let service = service_origin(state);
        let mut client = self.client.lock().expect("client lock");
        match client.as_ref() {
            Some(made) if made.service() == service.as_ref() => made.clone(),
            _ => client.insert(MediaClient::new(service)).clone(),
        }
    }

    /// Tells the counts: at most once a [`PROGRESS_EVERY`] while fetching, and once when the
    /// queue has nothing more due (`settled`) after fetching.
    async fn tell(&self, store: &Store, settled: bool) {
        let Some(progress) = &self.progress else {
            return;
        };
        {
            let mut told = self.told.lock().expect("told lock");
            if !told.dirty {
                return;
            }
            let recent = told
                .last
                .is_some_and(|last| last.elapsed() < PROGRESS_EVERY);
            if recent && !settled {
                return;
            }
            told.dirty = false;
            told.last = Some(Instant::now());
        }
        match store.media_counts().await {
            Ok(counts) => progress(&counts),
            Err(error) => tracing::warn!(%error, "the media counts could not be read"),
        }
    }

    /// Fetches media as they wait, for as long as the app is open.
    pub async fn serve(&self, state: &AppState) {
        loop {
            let nap = self.step(state).await;
            tokio::select! {
                _ = self.clock.nap(nap) => {}
                _ = self.wake.notified() => {}
                _ = QUEUED.notified() => {}
            }
        }
    }
}

/// The item's plan read again from its post's record (all its variants, best first, for
/// stepping down past one over the limit); the queued addresses alone when the record is not
/// there or no longer lists it.
async fn replan(
    store: &Store,
    item: &MediaItemRecord,
    service: Option<&ServiceOrigin>,
) -> plan::PlannedMedia {
    let from_record = match store.post(&item.post_id).await {
        Ok(Some(post)) => plan::plan(&post.raw_json, service)
            .into_iter()
            .find(|planned| {
                i64::from(planned.position) == item.position && planned.kind == item.kind
            }),
        Ok(None) => None,
        Err(error) => {
            tracing::warn!(%error, "a media item's post could not be read");
            None
        }
    };
    from_record.unwrap_or_else(|| {
        let queued = plan::fetchable(&item.source_url, service);
        plan::PlannedMedia {
            position: u32::try_from(item.position).unwrap_or_default(),
            kind: item.kind,
            variants: match queued {
                Ok(_) => vec![Variant {
                    url: item.source_url.clone(),
                    bitrate: None,
                }],
                Err(_) => Vec::new(),
            },
            poster_url: item.poster_url.clone(),
            refused: plan::fetchable(&item.source_url, service).err(),
            source_url: item.source_url.clone(),
        }
    })
}

/// The service's host in the current mode, read without opening a session (which would start
/// the demo service): demo mode's sandbox always listens on loopback.
fn service_origin(state: &AppState) -> Option<ServiceOrigin> {
    let address = match state.mode() {
        Mode::Demo => Some(DEMO_HOST.to_owned()),
        Mode::Live => state
            .environment
            .base_url
            .clone()
            .or_else(|| state.settings().base_url),
    };
    ServiceOrigin::of(&address?)
}

/// Where demo mode's sandbox listens (`DemoService::start`, on a free port).
const DEMO_HOST: &str = "http://127.0.0.1/";

/// Why nothing was kept when every variant is over the limit, in words.
fn over_limit(variants: &[Variant], smallest: &Variant, limit: u64) -> String {
    let mb = limit / (1024 * 1024);
    match variants.len() {
        1 => format!("Not kept: the file is larger than the {mb} MB limit set in Settings."),
        n => format!(
            "Not kept: all {n} versions of this video are larger than the {mb} MB limit set in \
             Settings (the smallest: {}).",
            smallest.url
        ),
    }
}

/// The queue's counts now, for the window's progress.
pub async fn counts(store: &Store) -> Result<MediaCounts, CommandError> {
    Ok(store.media_counts().await?)
}

/// Writes an item's failure; what went wrong, in words, if the write did not take.
async fn record_failure(store: &Store, item_id: i64, failure: &MediaFailure) -> Result<(), String> {
    store
        .record_media_failed(item_id, failure)
        .await
        .map(drop)
        .map_err(|error| error.to_string())
}
