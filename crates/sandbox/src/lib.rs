//! # sightline-sandbox
//!
//! A local stand-in of the Sightline service over real HTTP: a deterministic synthetic world
//! (users, posts, threads, a small web), every operation of the contract with its auth table,
//! 422 rules, per-key rate limit, billing metadata, ETags and streaming, forecasts as jobs that
//! run for a configurable time (`ops::forecast`; the jobs kept in a file when given one, so a
//! restarted sandbox still knows them, `ops/forecast/jobs.rs`), plus fault injection and an
//! opt-in log of the SHA-256 of every body sent (`body_log.rs`). New posts keep arriving while
//! it runs (a seeded trickle, `world/live.rs`, seen through `posts.rs`), on a clock tests can
//! stop and move forward (`clock.rs`). Its last two days hold news that many unrelated
//! accounts post about at once and, hidden among it, a few groups of accounts acting in concert
//! (`world/campaigns.rs`), for a coordination finder to be measured on: which accounts those
//! are is written only in `tests/fixtures/planted_campaigns.json`, read by tests alone; no
//! answer of the service tells them apart. The posts' photos and videos are served by the
//! sandbox at its own address (`media`), drawn from a seed on request, with planted copies of a
//! few pictures across posts and some links gone (404/410), written only in
//! `tests/fixtures/planted_media.json`; `media::picture` makes pictures and their resized,
//! recompressed and cropped copies for tests without HTTP. Requests are bounded
//! (query and prompt lengths, URL and body sizes) and their work runs on the blocking pool, so
//! one heavy request never delays a cheap one.
//! With the `test-tsa` feature (tests only), `tsa` is a local RFC 3161 timestamp authority
//! whose tokens `openssl ts -reply` makes.
//!
//! It owns the service's side of the interface (docs/service.md says what it simulates and
//! where it chooses for itself) and must never depend on Sightline's other crates: it stands for
//! a third party, so a client bug cannot hide in a shared type. The app embeds it for demo mode;
//! the tests of `api`, `core` and the e2e suite talk to it over loopback.
//!
//! ```no_run
//! # async fn demo() -> std::io::Result<()> {
//! let sb = sightline_sandbox::Sandbox::builder().seed(42).port(0).pace_ms(0).start().await?;
//! println!("{} {}", sb.base_url(), sb.demo_key());
//! sb.shutdown().await;
//! # Ok(()) }
//! ```

pub mod auth;
pub mod balance;
pub mod billed;
pub mod billing;
pub mod body_log;
pub mod cli;
pub mod clock;
pub mod faults;
mod fxhash;
pub mod media;
pub mod ops;
pub mod posts;
pub mod rate_limit;
pub mod render;
pub mod rng;
pub mod search;
mod server;
#[cfg(feature = "test-tsa")]
pub mod tsa;
pub mod validate;
pub mod world;

pub use billing::{CostStyle, Rates, Service};
pub use clock::Clock;
pub use faults::{Fault, FaultQueue};
pub use world::live::DEFAULT_LIVE_RATE;
pub use world::World;

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

/// Delay between streamed text deltas when none is configured: close to a real model.
pub const DEFAULT_PACE_MS: u64 = 30;

/// Options of a sandbox; see [`Sandbox::builder`].
#[derive(Debug, Clone)]
pub struct SandboxBuilder {
    seed: u64,
    port: u16,
    host: IpAddr,
    pace_ms: u64,
    faults: bool,
    keys: Option<Vec<String>>,
    rate_limit: Option<u32>,
    rates: Rates,
    cost_style: billing::CostStyle,
    now: Option<chrono::DateTime<chrono::Utc>>,
    balance_usd: Option<rust_decimal::Decimal>,
    forecast_duration: Duration,
    jobs_file: Option<std::path::PathBuf>,
    body_log: Option<std::path::PathBuf>,
    live_rate: u32,
    manual_clock: bool,
}

impl Default for SandboxBuilder {
    fn default() -> Self {
        SandboxBuilder {
            seed: 42,
            port: 0,
            host: IpAddr::V4(Ipv4Addr::LOCALHOST),
            pace_ms: DEFAULT_PACE_MS,
            faults: false,
            keys: None,
            rate_limit: None,
            rates: Rates::default(),
            cost_style: billing::CostStyle::Exact,
            now: None,
            balance_usd: None,
            forecast_duration: ops::forecast::DEFAULT_DURATION,
            jobs_file: None,
            body_log: None,
            // Off unless asked for, so a test's answers do not depend on how long it ran.
            live_rate: 0,
            manual_clock: false,
        }
    }
}

impl SandboxBuilder {
    /// Seed of the synthetic world (default 42).
    pub fn seed(mut self, seed: u64) -> Self {
        self.seed = seed;
        self
    }
    /// Port on 127.0.0.1; 0 (default) picks a free one.
    pub fn port(mut self, port: u16) -> Self {
        self.port = port;
        self
    }
    /// Pause between streamed text deltas (0 for tests).
    pub fn pace_ms(mut self, ms: u64) -> Self {
        self.pace_ms = ms;
        self
    }
    /// Enables the `/__sandbox/faults` routes. [`Sandbox::faults`] works either way.
    pub fn faults(mut self, enabled: bool) -> Self {
        self.faults = enabled;
        self
    }
    /// The valid API keys. By default only the demo key is valid.
    pub fn keys(mut self, keys: Vec<String>) -> Self {
        self.keys = Some(keys);
        self
    }
    /// Requests per key per minute (token bucket); `None` (default) for no limit.
    pub fn rate_limit(mut self, per_minute: Option<u32>) -> Self {
        self.rate_limit = per_minute;
        self
    }
    /// Prices per 1,000 units (default: the contract's public price list).
    pub fn rates(mut self, rates: Rates) -> Self {
        self.rates = rates;
        self
    }
    /// Computes each cost in binary floating point and writes it as a Python service does
    /// (`0.00010499999999999999`, `1.5e-05`), in the header and the body alike, instead of as
    /// an exact decimal (the default). See [`billing::CostStyle`].
    pub fn float_costs(mut self, float: bool) -> Self {
        self.cost_style = if float {
            billing::CostStyle::Float
        } else {
            billing::CostStyle::Exact
        };
        self
    }
    /// The world's "now" (default: the current time; a world of the same seed generated in the
    /// last ten minutes is reused, its clock running on). Fixing it makes every id and date
    /// reproducible across runs.
    pub fn now(mut self, now: chrono::DateTime<chrono::Utc>) -> Self {
        self.now = Some(now);
        self
    }

    /// A prepaid balance per key in USD: once a key has spent it, requests get 402
    /// `{"detail": "Insufficient balance…"}`. `None` (default) for no balance.
    pub fn balance_usd(mut self, balance: Option<rust_decimal::Decimal>) -> Self {
        self.balance_usd = balance;
        self
    }

    /// How long a forecast job takes from PENDING to its end (default 20 s): a quarter waiting,
    /// the rest running.
    pub fn forecast_duration(mut self, duration: Duration) -> Self {
        self.forecast_duration = duration;
        self
    }

    /// Keeps the forecast jobs in this JSON file (written atomically at each new job), so a
    /// sandbox started again on it still knows them, as the real service would. By default jobs
    /// live in memory and a restarted sandbox answers 404 for them.
    pub fn jobs_file(mut self, file: impl Into<std::path::PathBuf>) -> Self {
        self.jobs_file = Some(file.into());
        self
    }

    /// Appends one JSON line per response sent to this file: method, path and query, status,
    /// and the SHA-256 of the body bytes exactly as sent (a stream's, all of them); see
    /// [`body_log`]. Off by default.
    pub fn body_log(mut self, file: impl Into<std::path::PathBuf>) -> Self {
        self.body_log = Some(file.into());
        self
    }

    /// New posts per minute while the sandbox runs (the live trickle, `world/live.rs`), at
    /// most 6,000. Off (0) by default here, so tests see a world that never changes unless they
    /// ask; the command line and demo mode use [`DEFAULT_LIVE_RATE`].
    pub fn live_rate(mut self, per_minute: u32) -> Self {
        self.live_rate = per_minute;
        self
    }

    /// A clock that stands at the world's "now" until advanced ([`Sandbox::advance_clock`] or
    /// `POST /__sandbox/clock`), instead of running with real time. With `.now(…)` every
    /// answer is then the same on every run.
    pub fn manual_clock(mut self) -> Self {
        self.manual_clock = true;
        self
    }

    /// Generates the world and starts serving on the current tokio runtime.
    pub async fn start(self) -> std::io::Result<Sandbox> {
        let fixed_now_ms = self.now.map(|n| n.timestamp_millis());
        let seed = self.seed;
        let world = tokio::task::spawn_blocking(move || World::shared(seed, fixed_now_ms))
            .await
            .map_err(std::io::Error::other)?;
        let demo_key = auth::demo_key(self.seed);
        let body_log = self
            .body_log
            .as_deref()
            .map(body_log::BodyLog::open)
            .transpose()?;
        // Bound first: the posts' media links point to this address.
        let listener = tokio::net::TcpListener::bind(SocketAddr::new(self.host, self.port)).await?;
        let addr = listener.local_addr()?;
        let base_url = format!("http://{addr}");
        let faults = Arc::new(FaultQueue::default());
        let media_log = Arc::new(media::MediaLog::default());
        let billed = Arc::new(billed::BilledLog::default());
        let clock = Arc::new(if self.manual_clock {
            Clock::manual()
        } else {
            Clock::running()
        });
        let state = Arc::new(server::AppState {
            world: world.clone(),
            keys: self.keys.unwrap_or_else(|| vec![demo_key.clone()]),
            limiter: self.rate_limit.map(rate_limit::RateLimiter::new),
            faults: faults.clone(),
            faults_enabled: self.faults,
            pace: Duration::from_millis(self.pace_ms),
            rates: self.rates,
            cost_style: self.cost_style,
            tweets: render::TweetCache::new(&world, &base_url),
            balances: self.balance_usd.map(balance::Balances::new),
            billed: billed.clone(),
            jobs: match self.jobs_file {
                Some(file) => ops::forecast::Jobs::kept_in(self.forecast_duration, file),
                None => ops::forecast::Jobs::new(self.forecast_duration),
            },
            clock: clock.clone(),
            live: world::live::Live::new(&world, self.live_rate),
            media: media::serve::MediaIndex::default(),
            media_log: media_log.clone(),
        });
        let world = state.world.clone();
        let (tx, rx) = oneshot::channel::<()>();
        let app = match body_log {
            Some(log) => {
                server::router(state).layer(axum::middleware::from_fn(move |req, next| {
                    body_log::record(log.clone(), req, next)
                }))
            }
            None => server::router(state),
        };
        let task = tokio::spawn(async move {
            let served = axum::serve(listener, app)
                .with_graceful_shutdown(async {
                    let _ = rx.await;
                })
                .await;
            if let Err(e) = served {
                tracing::warn!("sandbox server stopped with an error: {e}");
            }
        });
        Ok(Sandbox {
            base_url,
            media_log,
            addr,
            demo_key,
            faults,
            billed,
            world,
            clock,
            stop: Mutex::new(Some(tx)),
            task: Mutex::new(Some(task)),
        })
    }
}

/// A running sandbox. Dropping it stops the server.
pub struct Sandbox {
    base_url: String,
    addr: SocketAddr,
    demo_key: String,
    faults: Arc<FaultQueue>,
    billed: Arc<billed::BilledLog>,
    media_log: Arc<media::MediaLog>,
    world: Arc<World>,
    clock: Arc<Clock>,
    stop: Mutex<Option<oneshot::Sender<()>>>,
    task: Mutex<Option<JoinHandle<()>>>,
}

impl std::fmt::Debug for Sandbox {
    // The demo key is a credential like any other: never in Debug output.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Sandbox")
            .field("base_url", &self.base_url)
            .finish_non_exhaustive()
    }
}

impl Sandbox {
    pub fn builder() -> SandboxBuilder {
        SandboxBuilder::default()
    }

    /// `http://127.0.0.1:PORT`, without a trailing slash.
    pub fn base_url(&self) -> &str {
        &self.base_url
    }

    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// The built-in demo key (`dt_$` + 43 url-safe characters), the same for the same seed.
    pub fn demo_key(&self) -> &str {
        &self.demo_key
    }

    /// The fault queue, for tests in Rust that need no HTTP to set faults up.
    pub fn faults(&self) -> &FaultQueue {
        &self.faults
    }

    /// Every response that carried a cost header, as sent.
    pub fn billed(&self) -> &billed::BilledLog {
        &self.billed
    }

    /// Every request the media routes answered (`/media/…`, `/video/…`), oldest first.
    pub fn media_hits(&self) -> Vec<media::MediaHit> {
        self.media_log.hits()
    }

    /// The generated world, read-only (to pick real ids and names in tests).
    pub fn world(&self) -> &World {
        &self.world
    }

    /// The service's "now" (ms since the epoch), as its answers see it.
    pub fn now_ms(&self) -> i64 {
        self.clock.now_ms(&self.world)
    }

    /// Moves the service's clock forward: the trickle's posts up to the new "now" exist.
    pub fn advance_clock(&self, by: Duration) {
        self.clock
            .advance(i64::try_from(by.as_millis()).unwrap_or(i64::MAX));
    }

    fn signal_stop(&self) -> Option<JoinHandle<()>> {
        if let Some(tx) = self.stop.lock().unwrap_or_else(|e| e.into_inner()).take() {
            let _ = tx.send(());
        }
        self.task.lock().unwrap_or_else(|e| e.into_inner()).take()
    }

    /// Stops accepting connections and waits for in-flight responses to finish.
    pub async fn shutdown(self) {
        if let Some(task) = self.signal_stop() {
            let _ = task.await;
        }
    }
}

impl Drop for Sandbox {
    fn drop(&mut self) {
        let _ = self.signal_stop();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn assert_send_sync<T: Send + Sync>() {}

    #[test]
    fn sandbox_is_send_and_sync() {
        assert_send_sync::<Sandbox>();
    }

    #[tokio::test]
    async fn sandboxes_of_a_seed_share_a_recent_world() {
        let a = Sandbox::builder().seed(9).pace_ms(0).start().await.unwrap();
        let b = Sandbox::builder().seed(9).pace_ms(0).start().await.unwrap();
        assert!(std::ptr::eq(a.world(), b.world()));
        assert_ne!(a.base_url(), b.base_url());
        let clock = a.world().clock_ms();
        assert!(clock >= a.world().now_ms);
        assert!(clock <= chrono::Utc::now().timestamp_millis() + 1);
        let generated_for = a.world().now_ms;
        a.shutdown().await;
        drop(b);
        // The most recent world outlives its sandboxes, for the next one.
        let c = Sandbox::builder().seed(9).pace_ms(0).start().await.unwrap();
        assert_eq!(c.world().now_ms, generated_for);
    }
}
