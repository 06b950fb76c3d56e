//! The coordination finder on its real path: [`find`] reading a scope page by page from a real
//! SQLite archive (the store's `coordination_page` and `coordination_reposters`), then every
//! signal, grouping and the baseline, with the time of each stage and the peak memory (VmHWM,
//! reset between scopes). Two scopes of the store benches' archive (`crates/store/benches/
//! common/`: 1,000,000 posts by 20,000 accounts over a year, 200 reposters lists): a search
//! paged 100 times (100,000 posts, a request scope), then the whole archive.
//!
//! The archive takes minutes to build. With `ANALYSIS_BENCH_DB=<file>` it is built into that
//! file once and reused, by this bench and by the store's analysis bench alike.
//! Run: `cargo bench -p sightline-core --bench coordination_store` (release). It asserts nothing
//! about time; `benches/coordination.rs` times the finder on planted groups held in memory.

use std::time::Instant;

use sightline_api::CancelToken;
use sightline_core::coordination::{
    find, CoordinationOptions, CoordinationOutcome, CoordinationProgress, CoordinationStage,
};
use sightline_store::{AnalysisScope, PostQuery, ScopeFilters, ScopeSource, Store};

#[path = "../../store/benches/common/posts.rs"]
mod posts;

#[path = "../../store/benches/common/archive.rs"]
mod archive;

fn status(field: &str) -> String {
    std::fs::read_to_string("/proc/self/status")
        .unwrap_or_default()
        .lines()
        .find(|l| l.starts_with(field))
        .map(|l| l.split_whitespace().skip(1).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|| "unknown".into())
}

fn load() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|l| l.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "unknown".into())
}

/// The stage a progress step is in, as printed.
fn stage(step: &CoordinationProgress) -> String {
    match (step.stage, step.signal) {
        (CoordinationStage::Signal, Some(signal)) => format!("signal {}", signal.edge_type()),
        (stage, _) => format!("{stage:?}").to_lowercase(),
    }
}

async fn time(store: &Store, label: &str, scope: &AnalysisScope) {
    // Peak memory from here on (Linux: writing 5 to clear_refs resets VmHWM to the current RSS).
    let _ = std::fs::write("/proc/self/clear_refs", "5");
    println!(
        "{label} (load average {}, memory now {}):",
        load(),
        status("VmRSS")
    );
    let started = Instant::now();
    let mut stages: Vec<(String, Instant)> = Vec::new();
    let mut read = 0;
    let outcome = find(
        store,
        scope,
        &CoordinationOptions::default(),
        &mut |step| {
            if step.stage == CoordinationStage::Reading {
                read = step.done;
            }
            let name = stage(&step);
            if stages.last().is_none_or(|(last, _)| *last != name) {
                stages.push((name, Instant::now()));
            }
        },
        &CancelToken::new(),
    )
    .await
    .unwrap();
    let ended = Instant::now();
    let CoordinationOutcome::Done { result } = outcome else {
        panic!("not cancelled, yet it says so")
    };
    for (i, (name, at)) in stages.iter().enumerate() {
        let until = stages.get(i + 1).map_or(ended, |(_, next)| *next);
        println!("  {name:<28} {:>8.1} s", (until - *at).as_secs_f64());
    }
    println!(
        "  total {:.1} s for {read} posts; {} edges, {} groups ({} unusual); peak memory {}; \
         load average {}",
        (ended - started).as_secs_f64(),
        result.edges.len(),
        result.groups.len(),
        result.groups.iter().filter(|g| g.unusual).count(),
        status("VmHWM"),
        load()
    );
}

#[tokio::main]
async fn main() {
    let dir = tempfile::tempdir().unwrap();
    let path = std::env::var_os("ANALYSIS_BENCH_DB")
        .map_or_else(|| dir.path().join("bench.db"), std::path::PathBuf::from);
    let kept = path.exists();
    let store = Store::open(&path).await.unwrap();
    let (first_page, _case) = if kept {
        println!("reusing the archive in {}", path.display());
        archive::built(&store).await
    } else {
        archive::build(&store).await
    };
    let scope = |source| AnalysisScope {
        source,
        from: None,
        to: None,
        filters: ScopeFilters::default(),
    };
    time(
        &store,
        "request scope (a search, 100 pages), every signal",
        &scope(ScopeSource::Request {
            history_id: first_page,
        }),
    )
    .await;
    time(
        &store,
        "whole archive, every signal",
        &scope(ScopeSource::Archive {
            query: PostQuery::default(),
        }),
    )
    .await;
}
