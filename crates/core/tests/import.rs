//! Imports of each format against a real store: every line's outcome matches the fixture line
//! by line; imported posts are searched and analysed like fetched ones, filed with a custody
//! entry, marked with their file, and never get a capture or a ledger row; the same file again
//! is all already held; a cancelled import resumes without a line twice; Sightline's own export
//! comes back as it was stored.

use std::path::{Path, PathBuf};

use chrono::{TimeZone, Utc};
use sightline_api::cancel::CancelToken;
use sightline_core::import::{self, ImportPhase, ImportProgress};

use sightline_store::custody::CustodyAction;
use sightline_store::{
    AnalysisScope, ImportFormat, ImportOutcome, ImportState, PostQuery, ScopeFilters, ScopeSource,
    Store, StoredImport, Tz,
};

mod fixtures;
use fixtures::Expected;

async fn store(dir: &Path) -> Store {
    Store::open(dir.join("sightline.db")).await.unwrap()
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

async fn run(store: &Store, path: &Path, investigation: Option<i64>) -> StoredImport {
    let mut seen = Vec::new();
    let import = import::start(
        store,
        path,
        investigation,
        &mut |p| seen.push(p),
        &CancelToken::new(),
    )
    .await
    .unwrap()
    .unwrap();
    assert!(seen.iter().any(|p| p.phase == ImportPhase::Hashing));
    assert!(seen.iter().any(|p| p.phase == ImportPhase::Reading));
    import
}

/// The stored outcomes match the fixture's, line by line.
async fn assert_outcomes(store: &Store, import: &StoredImport, expected: &[Expected]) {
    let rows = store
        .import_lines(import.id, None, None, 1_000)
        .await
        .unwrap();
    let got: Vec<_> = rows
        .iter()
        .map(|r| (r.line, r.item, r.outcome, r.post_id.as_deref()))
        .collect();
    let want: Vec<_> = expected.iter().map(|e| (e.0, e.1, e.2, e.3)).collect();
    assert_eq!(got, want);
    for (row, e) in rows.iter().zip(expected) {
        assert!(
            row.reason.starts_with(e.4),
            "line {}: {:?} should start {:?}",
            row.line,
            row.reason,
            e.4
        );
    }
    let count = |o: ImportOutcome| expected.iter().filter(|e| e.2 == o).count() as i64;
    assert_eq!(
        (
            import.imported,
            import.already_held,
            import.not_a_post,
            import.unreadable
        ),
        (
            count(ImportOutcome::Imported),
            count(ImportOutcome::AlreadyHeld),
            count(ImportOutcome::NotAPost),
            count(ImportOutcome::Unreadable)
        )
    );
    assert_eq!(import.state, ImportState::Done);
}

#[tokio::test]
async fn each_format_gives_every_line_its_outcome() {
    let dir = tempfile::tempdir().unwrap();
    let store = store(dir.path()).await;
    let cases = [
        (
            "flat.jsonl",
            fixtures::twarc2_flat(),
            ImportFormat::Twarc2Flat,
        ),
        (
            "pages.jsonl",
            fixtures::twarc2_pages(),
            ImportFormat::Twarc2Pages,
        ),
        (
            "zeeschuimer.ndjson",
            fixtures::zeeschuimer(),
            ImportFormat::Zeeschuimer,
        ),
        (
            "4cat.ndjson",
            fixtures::fourcat_ndjson(),
            ImportFormat::FourcatNdjson,
        ),
        (
            "4cat.csv",
            fixtures::fourcat_csv(),
            ImportFormat::FourcatCsv,
        ),
    ];
    for (name, (text, expected), format) in cases {
        let path = write(dir.path(), name, &text);
        assert_eq!(import::detect(&path).unwrap(), format, "{name}");
        let import = run(&store, &path, None).await;
        assert_eq!(import.format, format);
        assert_eq!(import.file_size, text.len() as i64);
        assert_outcomes(&store, &import, &expected).await;
        // Each line is kept as it was read.
        let first = text.lines().next().unwrap();
        assert_eq!(
            store
                .import_line_source(import.id, 1)
                .await
                .unwrap()
                .as_deref(),
            Some(first)
        );
    }

    // Mapped as the service's record: author, counts, reply, quote, repost and tags.
    let reply = store.post("1600000000000000002").await.unwrap().unwrap();
    assert_eq!(
        (reply.author_username.as_str(), reply.like_count),
        ("bob", 5)
    );
    let raw: serde_json::Value = serde_json::from_str(&reply.raw_json).unwrap();
    assert_eq!(raw["in_reply_to_status_id"], "1600000000000000001");
    assert_eq!(raw["in_reply_to_screen_name"], "alice");
    let quote: serde_json::Value = serde_json::from_str(
        &store
            .post("1600000000000000003")
            .await
            .unwrap()
            .unwrap()
            .raw_json,
    )
    .unwrap();
    assert_eq!(quote["quote"]["user"]["username"], "alice");
    let paged = store.post("1600000000000000012").await.unwrap().unwrap();
    assert_eq!(
        paged.author_username, "bob",
        "the page's includes name the author"
    );
    let repost: serde_json::Value = serde_json::from_str(
        &store
            .post("1700000000000000003")
            .await
            .unwrap()
            .unwrap()
            .raw_json,
    )
    .unwrap();
    assert_eq!(repost["retweet"]["user"]["username"], "dora");
    let zee = store.post("1700000000000000001").await.unwrap().unwrap();
    assert_eq!(
        (zee.author_username.as_str(), zee.view_count),
        ("dora", Some(1234))
    );
    assert_eq!(
        zee.created_at,
        Utc.with_ymd_and_hms(2018, 10, 10, 20, 19, 24).unwrap()
    );
    let two_lines = store.post("1800000000000000002").await.unwrap().unwrap();
    assert_eq!(two_lines.text, "two\nlines, one post");
    assert_eq!(two_lines.lang.as_deref(), Some("nl"));

    // Searched like any post.
    let query = PostQuery {
        text: Some("verkiezingen".into()),
        ..PostQuery::default()
    };
    let found = store.posts(&query).await.unwrap();
    assert_eq!(
        found.iter().map(|p| p.id.as_str()).collect::<Vec<_>>(),
        ["1800000000000000001"]
    );
}

#[tokio::test]
async fn imported_posts_are_filed_analysed_marked_and_never_billed() {
    let dir = tempfile::tempdir().unwrap();
    let store = store(dir.path()).await;
    let case = store
        .create_investigation("Harbour", "", Utc::now())
        .await
        .unwrap();
    let (text, _) = fixtures::twarc2_flat();
    let path = write(dir.path(), "flat.jsonl", &text);
    let import = run(&store, &path, Some(case)).await;

    let scope = AnalysisScope {
        source: ScopeSource::Investigation { id: case },
        from: None,
        to: None,
        filters: ScopeFilters::default(),
    };
    let top = store.analysis_top(&scope, 10).await.unwrap().unwrap();
    let keys = |list: &sightline_store::TopList| {
        list.entries
            .iter()
            .map(|e| (e.key.clone(), e.count))
            .collect::<Vec<_>>()
    };
    assert_eq!(keys(&top.hashtags), [("osint".to_owned(), 3)]);
    assert_eq!(keys(&top.mentions), [("bob".to_owned(), 3)]);
    assert_eq!(keys(&top.domains), [("example.org".to_owned(), 3)]);

    let log = store.custody_log(case).await.unwrap();
    let entry = log.last().unwrap();
    assert_eq!(entry.action, CustodyAction::PostAdded);
    assert_eq!(entry.ids.len(), 3);
    assert!(
        entry.detail.contains(&import.file_sha256),
        "{}",
        entry.detail
    );
    assert!(entry.detail.contains("not captured by Sightline"));

    let ids = [
        "1600000000000000001".to_owned(),
        "1600000000000000003".to_owned(),
    ];
    let marks = store.import_for_posts(&ids).await.unwrap();
    assert_eq!(marks.len(), 2);
    assert!(marks
        .iter()
        .all(|m| m.file_name == "flat.jsonl" && !m.also_captured));
    assert_eq!(marks[0].line, 1);
    assert_eq!(store.ledger(Tz::UTC, None).await.unwrap().len(), 0);
    let captures = store.post_captures(&ids).await.unwrap();
    assert_eq!(captures.len(), 2);
    assert!(
        captures.iter().all(|c| c.capture.is_none()),
        "no capture it did not earn"
    );

    // The same file again: every post is already held, nothing new is marked or filed.
    let again = run(&store, &path, Some(case)).await;
    assert_eq!((again.imported, again.already_held), (0, 4));
    assert_eq!(store.custody_log(case).await.unwrap().len(), log.len());
    assert_eq!(
        store.import_for_posts(&ids).await.unwrap()[0].import_id,
        import.id
    );
}

#[tokio::test]
async fn a_cancelled_import_resumes_where_it_stopped_without_a_line_twice() {
    let dir = tempfile::tempdir().unwrap();
    let store = store(dir.path()).await;
    let lines: Vec<String> = (0..12_000)
        .map(|i| {
            let id = format!("16{:017}", i);
            fixtures::flat_tweet(&id, ("11", "alice"), &format!("post {i}")).to_string()
        })
        .collect();
    let path = write(dir.path(), "big.jsonl", &(lines.join("\n") + "\n"));

    // Cancelled once the first batch is recorded.
    let cancel = CancelToken::new();
    let stop = cancel.clone();
    let mut on_progress = |p: ImportProgress| {
        if p.phase == ImportPhase::Reading && p.lines_done > 0 {
            stop.cancel();
        }
    };
    let cancelled = import::start(&store, &path, None, &mut on_progress, &cancel)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(cancelled.state, ImportState::Cancelled);
    assert_eq!(cancelled.lines_done, 5_000);
    assert_eq!(cancelled.imported, 5_000);

    // Another file is refused; the same one goes on from line 5,001.
    let other = write(dir.path(), "other.jsonl", &lines[0]);
    let refused = import::resume(
        &store,
        cancelled.id,
        &other,
        &mut |_| {},
        &CancelToken::new(),
    )
    .await;
    assert!(refused
        .unwrap_err()
        .message()
        .contains("not the file this import began with"));
    let done = import::resume(
        &store,
        cancelled.id,
        &path,
        &mut |_| {},
        &CancelToken::new(),
    )
    .await
    .unwrap()
    .unwrap();
    assert_eq!(done.state, ImportState::Done);
    assert_eq!(
        (done.lines_done, done.imported, done.already_held),
        (12_000, 12_000, 0)
    );
    let rows = store
        .import_lines(done.id, None, None, 20_000)
        .await
        .unwrap();
    let numbers: Vec<i64> = rows.iter().map(|r| r.line).collect();
    assert_eq!(numbers, (1..=12_000).collect::<Vec<_>>());
    assert_eq!(
        done.offset_done,
        std::fs::metadata(&path).unwrap().len() as i64
    );
}

#[tokio::test]
async fn sightlines_own_export_comes_back_as_it_was_stored() {
    let dir = tempfile::tempdir().unwrap();
    let first = store(&dir.path().join("a").tap_dir()).await;
    let (text, _) = fixtures::twarc2_flat();
    let path = write(dir.path(), "flat.jsonl", &text);
    run(&first, &path, None).await;
    let posts = first.posts(&PostQuery::default()).await.unwrap();
    assert_eq!(posts.len(), 3);
    let mut out = Vec::new();
    sightline_store::export::posts_jsonl(&posts, Tz::Europe__Paris, &mut out).unwrap();
    let exported = write(dir.path(), "export.jsonl", &String::from_utf8(out).unwrap());

    let second = store(&dir.path().join("b").tap_dir()).await;
    assert_eq!(
        import::detect(&exported).unwrap(),
        ImportFormat::SightlineJsonl
    );
    let import = run(&second, &exported, None).await;
    assert_eq!(import.imported, 3);
    for post in &posts {
        let again = second.post(&post.id).await.unwrap().unwrap();
        assert_eq!(again.raw_json, post.raw_json, "the record as stored");
        assert_eq!(
            (again.text.as_str(), again.created_at),
            (post.text.as_str(), post.created_at)
        );
    }
}

trait TapDir {
    fn tap_dir(self) -> PathBuf;
}

impl TapDir for PathBuf {
    /// The folder, made.
    fn tap_dir(self) -> PathBuf {
        std::fs::create_dir_all(&self).unwrap();
        self
    }
}
