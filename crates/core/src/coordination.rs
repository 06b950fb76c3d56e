//! Coordinated behaviour in a scope, with the evidence behind every link: accounts that did the
//! same thing at nearly the same time, again and again. Groups, never verdicts: nothing here
//! says why accounts acted together, and ordinary communities also act together around news.
//!
//! Each signal is an edge type between two accounts (one signal per file):
//! * co-post (`coordination/co_post.rs`): the same text, once case, whitespace, mentions and
//!   links are taken out (`coordination/text.rs`), within the window;
//! * near-duplicate (`coordination/near_duplicate.rs`): texts whose word-pair shingles have a
//!   Jaccard similarity of at least [`NEAR_DUPLICATE_JACCARD`] (but not the same text), within
//!   the window, found by MinHash with LSH bands and checked exactly;
//! * co-link (`coordination/co_link.rs`): the same expanded link within the window;
//! * co-hashtag (`coordination/co_hashtag.rs`): the same set of hashtags within the window;
//! * co-reply (`coordination/co_reply.rs`): replies to the same post within the window;
//! * co-repost (`coordination/co_repost.rs`): TF-IDF cosine of the sets of posts two accounts
//!   reposted (reposters lists and reposts in timelines; no times, so no window);
//! * fast repost (`coordination/fast_repost.rs`): both reposted the same post within so many
//!   seconds of it being written (reposts in timelines).
//!
//! A windowed signal's shared event is a pair of posts, one by each account, with the same key
//! (text, link, tag set, post answered, post reposted) written at most the window apart
//! (`coordination/window.rs`); an edge's weight is its number of shared events and it is kept
//! from [`CoordinationOptions::min_events`] up. The fused view (`coordination/fused.rs`) adds
//! the signals' normalised weights with weights the user sees; groups
//! (`coordination/groups.rs`) are the connected components of the fused graph above a
//! threshold, each with a plain-words reason; the baseline (`coordination/baseline.rs`) says
//! how unusual a group's synchrony is against its own members' activity shifted in time; the
//! exports (`coordination/export.rs`) are the QUT coordination-network toolkit's edge CSV
//! columns with ours after them, and GEXF 1.3.
//!
//! The work runs on a blocking thread ([`find`]) with progress and a cancel; the store hands the
//! scope's posts over a page at a time with only the fields read here.

mod baseline;
mod co_hashtag;
mod co_link;
mod co_post;
mod co_reply;
mod co_repost;
pub mod export;
mod fast_repost;
mod fused;
mod groups;
mod input;
mod near_duplicate;
mod random;
mod text;
mod window;

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use sightline_api::CancelToken;
use sightline_store::{AnalysisScope, Store};
use ts_rs::TS;

pub use baseline::CO_REPOST_ONLY_BAR;
pub use input::{link_form, ScopePosts};
pub use text::normalise;

use crate::errors::CommandError;

/// The near-duplicate bar: the Jaccard similarity of two texts' word-pair shingles. At 0.6 a
/// 15-word text with one word swapped (0.75), or two words added at its end (0.78), is a near
/// duplicate; two texts about the same news in different words share far fewer word pairs.
pub const NEAR_DUPLICATE_JACCARD: f64 = 0.6;

/// Posts read from the store at a time.
pub const PAGE: u32 = 20_000;

/// One kind of coordination between two accounts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export)]
pub enum Signal {
    /// The same text (case, spaces, mentions and links aside) within the window.
    CoPost,
    /// Nearly the same text within the window.
    NearDuplicate,
    /// The same expanded link within the window.
    CoLink,
    /// The same set of hashtags within the window.
    CoHashtag,
    /// Replies to the same post within the window.
    CoReply,
    /// Reposting the same posts (TF-IDF cosine of what each reposted; no window).
    CoRepost,
    /// Reposting the same post within seconds of it being written.
    FastRepost,
}

/// Every signal, in the order they are computed and listed.
pub const SIGNALS: [Signal; 7] = [
    Signal::CoPost,
    Signal::NearDuplicate,
    Signal::CoLink,
    Signal::CoHashtag,
    Signal::CoReply,
    Signal::CoRepost,
    Signal::FastRepost,
];

impl Signal {
    /// The edge type in the CSV and GEXF: the QUT toolkit's name where it has the signal.
    pub fn edge_type(self) -> &'static str {
        match self {
            Signal::CoPost => "co_tweet",
            Signal::NearDuplicate => "co_similar_tweet",
            Signal::CoLink => "co_link",
            Signal::CoHashtag => "co_hashtag",
            Signal::CoReply => "co_reply",
            Signal::CoRepost => "co_repost",
            Signal::FastRepost => "fast_repost",
        }
    }

    /// The default weight of the signal in the fused view.
    pub fn default_weight(self) -> f64 {
        match self {
            Signal::CoPost | Signal::FastRepost => 1.0,
            Signal::NearDuplicate => 0.8,
            Signal::CoLink | Signal::CoReply | Signal::CoRepost => 0.6,
            // Shared hashtag sets are the commonest among ordinary users of one topic.
            Signal::CoHashtag => 0.4,
        }
    }
}

/// What the user sets; every field has a stated default ([`CoordinationOptions::default`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", default)]
#[ts(export)]
pub struct CoordinationOptions {
    /// The window, in seconds: two posts at most this far apart are "at the same time" (60).
    pub window_seconds: u32,
    /// The fewest shared events an edge needs (3).
    pub min_events: u32,
    /// A repost this many seconds or less after the post it reposts is fast (10).
    pub fast_repost_seconds: u32,
    /// The near-duplicate Jaccard bar ([`NEAR_DUPLICATE_JACCARD`]).
    pub near_duplicate_jaccard: f64,
    /// The co-repost cosine bar (0.5): at least half the weight of what both reposted is shared.
    pub co_repost_cosine: f64,
    /// The signals to compute; empty: all.
    pub signals: Vec<Signal>,
    /// Each signal's weight in the fused view; a signal left out has its default weight.
    pub weights: Vec<SignalWeight>,
    /// The fused score an edge needs to join two accounts in a group (0: any edge kept).
    pub group_threshold: f64,
    /// Runs of the time-shifted baseline (199).
    pub baseline_runs: u32,
    /// Which draw of random shifts the baseline uses: the same draw gives the same figures (1).
    pub baseline_draw: u64,
    /// How far, at most, the baseline moves each account's posts in time, in seconds (600: ten
    /// times the window, and well inside a news burst of an hour or more).
    pub baseline_shift_seconds: u32,
    /// A group is unusual when its baseline p is at most this (0.01).
    pub unusual_p: f64,
    /// ... and when at least this share of the accounts acting alike at its moments are its
    /// own (0.5): a crowd reacting to the same news is not shown by default.
    pub min_share: f64,
}

impl Default for CoordinationOptions {
    fn default() -> Self {
        Self {
            window_seconds: 60,
            min_events: 3,
            fast_repost_seconds: 10,
            near_duplicate_jaccard: NEAR_DUPLICATE_JACCARD,
            co_repost_cosine: 0.5,
            signals: Vec::new(),
            weights: Vec::new(),
            group_threshold: 0.0,
            baseline_runs: 199,
            baseline_draw: 1,
            baseline_shift_seconds: 600,
            unusual_p: 0.01,
            min_share: 0.5,
        }
    }
}

impl CoordinationOptions {
    /// Whether `signal` is computed.
    pub fn wants(&self, signal: Signal) -> bool {
        self.signals.is_empty() || self.signals.contains(&signal)
    }

    /// `signal`'s weight in the fused view.
    pub fn weight(&self, signal: Signal) -> f64 {
        self.weights
            .iter()
            .find(|w| w.signal == signal)
            .map_or(signal.default_weight(), |w| w.weight)
    }
}

/// One signal's weight in the fused view.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct SignalWeight {
    /// The signal.
    pub signal: Signal,
    /// Its weight (0 leaves it out of the fused view).
    pub weight: f64,
}

/// A post behind an edge: who wrote it, when, and what it says.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct PostRef {
    /// The service's post id.
    pub id: String,
    /// Its author's handle, folded.
    pub author: String,
    /// When it was written.
    pub at: DateTime<Utc>,
    /// Its text as written.
    pub text: String,
}

/// Two accounts tied by one signal.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct CoordinationEdge {
    /// One account (the first by handle).
    pub source: String,
    /// The other.
    pub target: String,
    /// What they did alike.
    pub signal: Signal,
    /// Shared events (for co-repost: posts both reposted).
    pub weight: u32,
    /// Co-repost: the cosine; every other signal: the weight over the signal's heaviest edge.
    pub score: f64,
    /// The first shared event's time.
    pub first: DateTime<Utc>,
    /// The last shared event's time.
    pub last: DateTime<Utc>,
    /// Each shared event as two indexes into [`Coordination::posts`] (source's post, target's
    /// post; for a co-repost from a reposters list, the reposted post twice).
    pub pairs: Vec<[u32; 2]>,
}

/// Two accounts in the fused view: their signals' normalised weights, weighted and added.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct FusedEdge {
    /// One account (the first by handle).
    pub source: String,
    /// The other.
    pub target: String,
    /// Σ weight × score over the pair's signals, over Σ of the weights (0 to 1).
    pub score: f64,
    /// The pair's signals.
    pub signals: Vec<Signal>,
}

/// How unusual a group's synchrony is: its shared events against the same members' posts
/// with each account's times moved by a random shift, many times.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct Baseline {
    /// Shared events among the members, as written (windowed signals).
    pub observed: u32,
    /// Their mean over the shifted runs.
    pub mean: f64,
    /// Their standard deviation over the shifted runs.
    pub sd: f64,
    /// (observed − mean) / sd; `None` when every run gave the same count.
    pub z: Option<f64>,
    /// (1 + runs with at least as many) / (1 + runs).
    pub p: f64,
    /// Runs made.
    pub runs: u32,
    /// Of the accounts that posted the same key (text, link, tag set, post answered or
    /// reposted) within the window of the group's shared events, the share that are members:
    /// near 1 when the group acted alone, low when it was part of a crowd (a goal, a breaking
    /// story) that many others joined.
    pub share: f64,
}

/// Accounts joined by the fused view's edges.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct CoordinationGroup {
    /// Its number in this result, from 1, largest group first.
    pub id: u32,
    /// Its accounts' handles, folded, sorted.
    pub members: Vec<String>,
    /// How many accounts.
    pub size: u32,
    /// The signals of its edges.
    pub signals: Vec<Signal>,
    /// Its first shared event's time.
    pub first: DateTime<Utc>,
    /// Its last shared event's time.
    pub last: DateTime<Utc>,
    /// Indexes into [`Coordination::edges`] of the edges between its members.
    pub edges: Vec<u32>,
    /// What was observed, in plain words, one sentence per signal.
    pub reason: String,
    /// The time-shifted baseline; `None` when the group has only co-repost edges (no times).
    pub baseline: Option<Baseline>,
    /// Above the bar: a baseline p at most [`CoordinationOptions::unusual_p`] and a share of at
    /// least [`CoordinationOptions::min_share`]; or (co-repost only) a mean cosine of its
    /// edges of at least [`CO_REPOST_ONLY_BAR`] and a [`repost_share`] of at least
    /// [`CoordinationOptions::min_share`]. The default view shows only these.
    pub unusual: bool,
}

/// What the finder found in a scope.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct Coordination {
    /// The options used.
    pub options: CoordinationOptions,
    /// Posts looked at.
    pub posts_read: u64,
    /// Accounts that wrote or reposted them.
    pub accounts: u64,
    /// Every edge kept, heaviest first within each signal.
    pub edges: Vec<CoordinationEdge>,
    /// The fused view, highest score first.
    pub fused: Vec<FusedEdge>,
    /// The groups, largest first; the default view shows the unusual ones.
    pub groups: Vec<CoordinationGroup>,
    /// The posts the edges point at.
    pub posts: Vec<PostRef>,
}

/// One shared event, with both posts.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct SharedEvent {
    /// The signal it is an event of.
    pub signal: Signal,
    /// The one account's post.
    pub first: PostRef,
    /// The other account's post.
    pub second: PostRef,
    /// Seconds between the two.
    pub apart_seconds: f64,
}

/// Where the finder is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export)]
pub enum CoordinationStage {
    /// Reading the scope's posts.
    Reading,
    /// Computing one signal.
    Signal,
    /// Fusing the signals and grouping accounts.
    Grouping,
    /// Running the baseline.
    Baseline,
}

/// Progress of a search for coordination.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct CoordinationProgress {
    /// The stage.
    pub stage: CoordinationStage,
    /// The signal being computed, in the signal stage.
    pub signal: Option<Signal>,
    /// Steps done in the stage (posts read, signals, groups).
    pub done: u64,
    /// Steps in the stage.
    pub total: u64,
}

/// How a search for coordination ended.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[serde(tag = "outcome", rename_all = "snake_case")]
#[ts(export)]
pub enum CoordinationOutcome {
    /// It finished.
    Done {
        /// What it found.
        result: Box<Coordination>,
    },
    /// The user cancelled it; nothing was kept.
    Cancelled,
}

/// Looks for coordination in `scope`: reads its posts a page at a time, then computes on a
/// blocking thread, calling `progress` as it goes; stops soon after `cancel`.
pub async fn find(
    store: &Store,
    scope: &AnalysisScope,
    options: &CoordinationOptions,
    progress: &mut (dyn FnMut(CoordinationProgress) + Send),
    cancel: &CancelToken,
) -> Result<CoordinationOutcome, CommandError> {
    let gone = || CommandError::NotFound {
        message: "What this analysis looked at is no longer stored: the request was deleted \
                  from History, or the investigation was deleted."
            .into(),
    };
    let total = store
        .coordination_post_count(scope)
        .await?
        .ok_or_else(gone)?;
    let total = u64::try_from(total).unwrap_or(0);
    let mut posts = ScopePosts::default();
    let mut after = 0;
    progress(CoordinationProgress {
        stage: CoordinationStage::Reading,
        signal: None,
        done: 0,
        total,
    });
    loop {
        if cancel.is_cancelled() {
            return Ok(CoordinationOutcome::Cancelled);
        }
        let page = store
            .coordination_page(scope, after, PAGE)
            .await?
            .ok_or_else(gone)?;
        let Some(last) = page.last() else { break };
        after = last.pk;
        for row in page {
            posts.push(row);
        }
        progress(CoordinationProgress {
            stage: CoordinationStage::Reading,
            signal: None,
            done: posts.len() as u64,
            total,
        });
    }
    for (post_id, reposter, at_ms) in store
        .coordination_reposters(scope)
        .await?
        .ok_or_else(gone)?
    {
        posts.push_reposter(&post_id, &reposter, at_ms);
    }

    let (sender, mut receiver) = tokio::sync::mpsc::unbounded_channel();
    let options = options.clone();
    let worker_cancel = cancel.clone();
    let work = tokio::task::spawn_blocking(move || {
        analyse(
            &posts,
            &options,
            &mut |step| {
                let _ = sender.send(step);
            },
            &worker_cancel,
        )
    });
    while let Some(step) = receiver.recv().await {
        progress(step);
    }
    let found = work.await.map_err(|error| CommandError::Internal {
        message: format!("The search for coordination stopped unexpectedly: {error}"),
    })?;
    Ok(match found {
        Some(result) => CoordinationOutcome::Done {
            result: Box::new(result),
        },
        None => CoordinationOutcome::Cancelled,
    })
}

/// Computes every wanted signal over `posts`, fuses, groups and runs the baseline; `None`
/// when cancelled. Synchronous: [`find`] runs it on a blocking thread.
pub fn analyse(
    posts: &ScopePosts,
    options: &CoordinationOptions,
    progress: &mut dyn FnMut(CoordinationProgress),
    cancel: &CancelToken,
) -> Option<Coordination> {
    let mut found = groups::Found::default();
    let wanted: Vec<Signal> = SIGNALS.into_iter().filter(|s| options.wants(*s)).collect();
    for (done, signal) in wanted.iter().copied().enumerate() {
        if cancel.is_cancelled() {
            return None;
        }
        progress(CoordinationProgress {
            stage: CoordinationStage::Signal,
            signal: Some(signal),
            done: done as u64,
            total: wanted.len() as u64,
        });
        let edges = signal_edges(posts, options, signal);
        found.add(signal, edges);
    }
    if cancel.is_cancelled() {
        return None;
    }
    progress(CoordinationProgress {
        stage: CoordinationStage::Grouping,
        signal: None,
        done: 0,
        total: 1,
    });
    let mut result = found.finish(posts, options);
    baseline::judge(posts, options, &mut result, progress, cancel)?;
    Some(result)
}

/// One signal's edges over `posts`, as built before fusing: kept from `min_events` up.
fn signal_edges(
    posts: &ScopePosts,
    options: &CoordinationOptions,
    signal: Signal,
) -> Vec<window::RawEdge> {
    let window_ms = i64::from(options.window_seconds) * 1000;
    let raw = match signal {
        Signal::CoPost => window::pairs(co_post::events(posts), window_ms),
        Signal::NearDuplicate => near_duplicate::pairs(posts, window_ms, options),
        Signal::CoLink => window::pairs(co_link::events(posts), window_ms),
        Signal::CoHashtag => window::pairs(co_hashtag::events(posts), window_ms),
        Signal::CoReply => window::pairs(co_reply::events(posts), window_ms),
        Signal::CoRepost => return co_repost::edges(posts, options),
        Signal::FastRepost => {
            let fast_ms = i64::from(options.fast_repost_seconds) * 1000;
            window::pairs(fast_repost::events(posts, fast_ms), fast_ms)
        }
    };
    window::edges(posts, raw, options.min_events)
}

/// For each post two of `group`'s members both reposted, the share of its reposters that are
/// members, averaged over the group's shared events (the co-repost-only groups' crowd test;
/// see `coordination/baseline.rs`).
pub fn repost_share(posts: &ScopePosts, result: &Coordination, group: &CoordinationGroup) -> f64 {
    co_repost::share(posts, &co_repost::reposters(posts), result, group)
}

/// Every shared event behind `edge`, with both posts and their times.
pub fn edge_events(result: &Coordination, edge: &CoordinationEdge) -> Vec<SharedEvent> {
    edge.pairs
        .iter()
        .filter_map(|[a, b]| {
            let first = result.posts.get(*a as usize)?.clone();
            let second = result.posts.get(*b as usize)?.clone();
            let apart_seconds = (second.at - first.at).num_milliseconds().abs() as f64 / 1000.0;
            Some(SharedEvent {
                signal: edge.signal,
                first,
                second,
                apart_seconds,
            })
        })
        .collect()
}

/// Every shared event behind the group numbered `group` (its edges' events, oldest first);
/// empty when there is no such group.
pub fn group_events(result: &Coordination, group: u32) -> Vec<SharedEvent> {
    let Some(group) = result.groups.iter().find(|g| g.id == group) else {
        return Vec::new();
    };
    let mut events: Vec<SharedEvent> = group
        .edges
        .iter()
        .filter_map(|i| result.edges.get(*i as usize))
        .flat_map(|edge| edge_events(result, edge))
        .collect();
    events.sort_by(|a, b| {
        (a.first.at.min(a.second.at), &a.first.id, &a.second.id).cmp(&(
            b.first.at.min(b.second.at),
            &b.first.id,
            &b.second.id,
        ))
    });
    events
}
