//! Importing a 1,000,000-line `twarc2 flatten` file (issue 33: at most 3 minutes on the 2-core
//! machine, memory bounded): the file is made once in `SIGHTLINE_BENCH_DATA` (default
//! `/work/bench-data`, outside the repository), then imported into a fresh database beside it
//! through `import::start` as the app does it (hashed whole, read in batches on a thread of its
//! own, every line's outcome and the line itself kept). Prints the time to hash and in all,
//! lines a second, the file's and the database's size, and the process's peak memory
//! (VmHWM). Run: `nice cargo bench -p sightline-core --bench import`;
//! `SIGHTLINE_IMPORT_LINES=<n>` makes and imports a smaller file of the same lines (a trial, or
//! a profile).
//!
//! On this 2-core machine shared with other work (load 2.5-3 besides the bench; 79% of a
//! core's time given to it): the 1,235 MiB file hashed in 2.3 s, 1,000,000 lines imported in
//! 243 s (4,116 lines/s; 144 s user and 51 s system CPU over the reading thread and SQLite's),
//! a 4,358 MiB database (the post, its analysis facts and index entries, and the line as read),
//! peak memory 366 MiB (three batches of 5,000 lines at most in memory). Above the 3-minute aim
//! here; at batches of 1,000 lines it took 461 s and wrote 59 GB (35 GB now) for the same file.
//! With the network's edge tallies and the list counts (migrations 0022, 0023) kept too, on the
//! quiet machine (load under 1): hashed in 3.5 s, imported in 266.6 s (3,751 lines/s), a
//! 4,360 MiB database, peak memory 367 MiB.
//! With migration 0027 (entities in one pass, a link's host by a Rust function, tallies by
//! upserts), on another 2-core machine of the same kind, quiet (load about 1), the same file,
//! one run each: before 0027 417.2 s (305 s user, 94 s system CPU), after 345.5 s (2,895
//! lines/s), a 4,361 MiB database, peak memory 368 MiB. 10,000 lines under callgrind: 10.76 G
//! instructions before, 7.55 G after. Still above the 3-minute aim; the system time (SQLite
//! reading pages back through a 32 MiB cache, the write-ahead log) grows with the file.
//! Every write transaction on one connection of its own with a 256 MiB cache (the pool handed
//! out its least recently used connection, whose cache another's write had voided), another
//! machine of the kind, quiet, one run each: 369.6 s before (259 s user, 91 s system CPU, peak
//! memory 368 MiB), 335.8 s after (2,978 lines/s; 252 s user, 65 s system, 444 MiB); with the
//! one connection's cache at 32 MiB, 360.1 s (225 MiB). 200,000 lines: 56.8 s -> 50.8 s at
//! 32 MiB.
//! On a faster machine of the same kind (2 cores), quiet, one run, the same file, stop 45's store:
//! 179.5 s (5,570 lines/s) and 185.6 s (5,389 lines/s), peak memory 445 MiB: at the 3-minute
//! aim, not within it.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

use serde_json::json;
use sightline_api::cancel::CancelToken;
use sightline_core::import::{self, ImportPhase};
use sightline_store::Store;

/// 1,000,000 lines, or `SIGHTLINE_IMPORT_LINES` for a trial.
fn lines() -> u64 {
    std::env::var("SIGHTLINE_IMPORT_LINES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1_000_000)
}

/// One flattened tweet as `twarc2 flatten` writes it: the v2 tweet with its author inside,
/// one in ten a reply, one in twenty a quote with the quoted tweet inside.
fn line(i: u64) -> String {
    let id = format!("{}", 1_500_000_000_000_000_000u64 + i);
    let author = i % 10_000;
    let user = |n: u64| {
        json!({"id": format!("{}", 9_000_000 + n), "username": format!("account{n}"),
               "name": format!("Account {n}"), "verified": n % 50 == 0,
               "created_at": "2015-01-01T00:00:00.000Z", "description": "an account's bio",
               "profile_image_url": format!("https://pbs.twimg.com/profile_images/{n}/a.jpg"),
               "public_metrics": {"followers_count": n * 3, "following_count": 10,
                                  "tweet_count": 100, "listed_count": 1}})
    };
    let tag = format!("tag{}", i % 500);
    let mut tweet = json!({
        "id": id, "author_id": format!("{}", 9_000_000 + author),
        "text": format!("Post {i} about #{tag} with @account{} https://t.co/{i}", (i * 7) % 10_000),
        "created_at": format!("2022-{:02}-{:02}T{:02}:{:02}:00.000Z",
                              1 + i % 12, 1 + i % 28, i % 24, i % 60),
        "conversation_id": id, "lang": "en", "edit_history_tweet_ids": [id],
        "possibly_sensitive": false, "reply_settings": "everyone", "source": "Twitter Web App",
        "public_metrics": {"retweet_count": i % 13, "reply_count": i % 5, "like_count": i % 97,
                           "quote_count": i % 3, "bookmark_count": 0, "impression_count": i % 1000},
        "entities": {"hashtags": [{"start": 20, "end": 25, "tag": tag}],
                     "mentions": [{"start": 30, "end": 40, "username": format!("account{}", (i * 7) % 10_000),
                                   "id": format!("{}", 9_000_000 + (i * 7) % 10_000)}],
                     "urls": [{"start": 41, "end": 60, "url": format!("https://t.co/{i}"),
                               "expanded_url": format!("https://site{}.example/{i}", i % 300),
                               "display_url": format!("site{}.example/{i}", i % 300)}]},
        "author": user(author),
        "__twarc": {"url": "https://api.twitter.com/2/tweets/search/all?query=bench",
                    "version": "2.13.0", "retrieved_at": "2022-12-06T10:05:00+00:00"}
    });
    if i % 10 == 1 {
        let parent = format!("{}", 1_500_000_000_000_000_000u64 + i - 1);
        tweet["referenced_tweets"] = json!([{"type": "replied_to", "id": parent}]);
        tweet["in_reply_to_user_id"] = json!(format!("{}", 9_000_000 + (i - 1) % 10_000));
        tweet["in_reply_to_user"] = user((i - 1) % 10_000);
    } else if i % 20 == 2 {
        let quoted = json!({"id": "1400000000000000000", "text": "the quoted post",
                            "created_at": "2021-01-01T00:00:00.000Z", "author_id": "9000001",
                            "author": user(1)});
        tweet["referenced_tweets"] =
            json!([{"type": "quoted", "id": "1400000000000000000", "tweet": quoted}]);
    }
    tweet.to_string()
}

/// The file, made once.
fn bench_file(folder: &Path, lines: u64) -> PathBuf {
    let name = match lines {
        1_000_000 => "import-twarc2-flat-1m.jsonl".to_owned(),
        n => format!("import-twarc2-flat-{n}.jsonl"),
    };
    let path = folder.join(name);
    if path.exists() {
        return path;
    }
    let started = Instant::now();
    let partial = path.with_extension("jsonl.partial");
    let mut out = std::io::BufWriter::new(std::fs::File::create(&partial).unwrap());
    for i in 0..lines {
        writeln!(out, "{}", line(i)).unwrap();
    }
    out.flush().unwrap();
    drop(out);
    std::fs::rename(&partial, &path).unwrap();
    println!("made {} in {:.1?}", path.display(), started.elapsed());
    path
}

fn peak_rss_mib() -> f64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|status| {
            let line = status.lines().find(|l| l.starts_with("VmHWM:"))?.to_owned();
            line.split_whitespace().nth(1)?.parse::<f64>().ok()
        })
        .map_or(0.0, |kib| kib / 1024.0)
}

fn mib(bytes: u64) -> f64 {
    bytes as f64 / (1024.0 * 1024.0)
}

#[tokio::main]
async fn main() {
    let folder = PathBuf::from(
        std::env::var("SIGHTLINE_BENCH_DATA").unwrap_or_else(|_| "/work/bench-data".into()),
    );
    std::fs::create_dir_all(&folder).unwrap();
    let lines = lines();
    let file = bench_file(&folder, lines);
    let db_dir = folder.join("import-bench-db");
    let _ = std::fs::remove_dir_all(&db_dir);
    std::fs::create_dir_all(&db_dir).unwrap();
    let store = Store::open(db_dir.join("sightline.db")).await.unwrap();

    let started = Instant::now();
    let mut hashed_at = None;
    let mut on_progress = |p: import::ImportProgress| {
        if p.phase == ImportPhase::Reading && hashed_at.is_none() {
            hashed_at = Some(started.elapsed());
        }
    };
    let done = import::start(&store, &file, None, &mut on_progress, &CancelToken::new())
        .await
        .unwrap()
        .unwrap();
    let total = started.elapsed();
    let db_size: u64 = std::fs::read_dir(&db_dir)
        .unwrap()
        .map(|e| e.unwrap().metadata().unwrap().len())
        .sum();
    println!(
        "{} lines ({:.0} MiB): hashed in {:.1?}, imported in {:.1?} all told ({:.0} lines/s); \
         {} imported, {} already held, {} not posts, {} unreadable; database {:.0} MiB; \
         peak resident memory {:.0} MiB",
        done.lines_done,
        mib(done.file_size as u64),
        hashed_at.unwrap_or_default(),
        total,
        done.lines_done as f64 / total.as_secs_f64(),
        done.imported,
        done.already_held,
        done.not_a_post,
        done.unreadable,
        mib(db_size),
        peak_rss_mib(),
    );
    assert_eq!(done.imported as u64, lines);
    drop(store);
    let _ = std::fs::remove_dir_all(&db_dir);
}
