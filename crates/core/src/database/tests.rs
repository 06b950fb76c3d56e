use std::io::{Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use chrono::Utc;
use sightline_store::NewPost;
use sqlx::Connection;

use super::*;
use crate::environment::Environment;
use crate::errors::READ_ONLY;
use crate::keychain::MemoryStore;

/// The app's state over `dir`, in demo mode (so its database is `demo.db`), as at a start.
fn start(dir: &Path) -> AppState {
    let environment = Environment {
        force_demo: true,
        ..Environment::default()
    };
    AppState::new(
        dir.to_owned(),
        environment,
        Arc::new(MemoryStore::default()),
    )
    .unwrap()
}

fn posts(n: usize) -> Vec<NewPost> {
    (0..n)
        .map(|i| NewPost {
            id: format!("{}", 5_000 + i),
            conversation_id: None,
            author_id: Some("1".into()),
            author_username: "someone".into(),
            author_name: "Someone".into(),
            author_verified: false,
            text: format!("post {i} #flood"),
            lang: Some("en".into()),
            created_at: Utc::now(),
            like_count: 1,
            retweet_count: 0,
            reply_count: 0,
            quote_count: 0,
            view_count: None,
            bookmark_count: 0,
            hashtags: vec!["flood".into()],
            url: None,
            raw_json: "{}".into(),
            nested: false,
        })
        .collect()
}

async fn post_count(store: &Store) -> usize {
    store
        .posts_count(&sightline_store::PostQuery::default())
        .await
        .expect("posts can be counted") as usize
}

/// A `demo.db` in `dir` holding `n` posts, its pages all in the file (none in its log).
async fn archive(dir: &Path, n: usize, at_version: Option<i64>) -> PathBuf {
    let path = dir.join("demo.db");
    let store = match at_version {
        Some(version) => Store::open_at_version(&path, version).await.unwrap(),
        None => Store::open(&path).await.unwrap(),
    };
    store.archive_posts(Utc::now(), &posts(n)).await.unwrap();
    store.close().await;
    // Closing leaves the log for the next opening to copy in: copied now, by one more opening.
    let again = match at_version {
        Some(version) => Store::open_at_version(&path, version).await.unwrap(),
        None => Store::open(&path).await.unwrap(),
    };
    again.checkpoint().await.unwrap();
    again.close().await;
    path
}

/// The app opened `path` and ended without closing it (a crash, a kill, power lost): the
/// store's open marker stays, so the next opening checks the whole file.
async fn crashed(path: &Path) {
    let upgrade = sightline_store::Upgrade {
        check: sightline_store::Check::BeforeMigrating,
        ..Default::default()
    };
    drop(Store::open_upgrading(path, &upgrade).await.unwrap());
}

/// Overwrites a page in the middle of the file with bytes no SQLite page holds.
async fn garble(path: &Path) {
    // The middle one of the posts' pages: one no opening reads (the schema's pages, say, are).
    let mut conn = sqlx::SqliteConnection::connect(&format!("sqlite://{}?mode=ro", path.display()))
        .await
        .unwrap();
    let pages: Vec<i64> = sqlx::query_scalar(
        "SELECT pageno FROM dbstat WHERE name = 'posts' AND pagetype = 'leaf' ORDER BY pageno",
    )
    .fetch_all(&mut conn)
    .await
    .unwrap();
    conn.close().await.unwrap();
    // dbstat counts pages from 1.
    let page = (pages[pages.len() / 2] - 1) as u64;
    let mut file = std::fs::OpenOptions::new().write(true).open(path).unwrap();
    file.seek(SeekFrom::Start(page * 4096)).unwrap();
    file.write_all(&[0xA5; 4096]).unwrap();
    file.sync_all().unwrap();
}

async fn settled_status(state: &AppState) -> DatabaseStatus {
    for _ in 0..200 {
        let now = status(state);
        if !matches!(
            now,
            DatabaseStatus::Opening { .. } | DatabaseStatus::Ready { checking: true, .. }
        ) {
            return now;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    panic!("the database never settled: {:?}", status(state));
}

fn digest(path: &Path) -> Vec<u8> {
    use sha2::Digest;
    sha2::Sha256::digest(std::fs::read(path).unwrap()).to_vec()
}

#[tokio::test]
async fn a_database_from_a_newer_sightline_opens_the_recovery_screen_then_reads_read_only() {
    let dir = tempfile::tempdir().unwrap();
    let path = archive(dir.path(), 3, None).await;
    {
        let store = Store::open(&path).await.unwrap();
        store
            .set_archive_state("written-by", &"a newer Sightline")
            .await
            .unwrap();
        store.close().await;
    }
    // What a newer Sightline leaves: a migration this one does not know.
    let mut conn = sqlx_connection(&path).await;
    sqlx_exec(
        &mut conn,
        "INSERT INTO _sqlx_migrations (version, description, success, checksum, execution_time)
         VALUES (99, 'newer', TRUE, x'00', 0)",
    )
    .await;

    let state = start(dir.path());
    assert_eq!(status(&state), DatabaseStatus::Closed);
    let error = state.store().await.unwrap_err();
    assert!(
        error.message().contains("newer version of Sightline"),
        "{error}"
    );
    let DatabaseStatus::Problem { problem } = status(&state) else {
        panic!("{:?}", status(&state));
    };
    assert_eq!(problem.kind, ProblemKind::Newer);
    assert_eq!(problem.file, path.display().to_string());
    assert!(problem.backup.is_none());
    // Asked again, it answers from what it found, without opening the file again.
    assert!(state.store().await.is_err());

    let recovered = open_read_only(&state).await.unwrap();
    assert_eq!(
        recovered.status,
        DatabaseStatus::Ready {
            read_only: true,
            checking: false
        }
    );
    let store = state.store().await.unwrap();
    assert_eq!(post_count(&store).await, 3);
    let write = store
        .set_archive_state("mark", &"a write")
        .await
        .unwrap_err();
    assert_eq!(CommandError::from(write).message(), READ_ONLY);
    // Nothing is sent: an answer could not be recorded.
    let refused = state.session().await.err().expect("no session read-only");
    assert_eq!(refused.message(), READ_ONLY);
    // Background writers wait for a writable archive, which this session never has.
    let waited = tokio::time::timeout(Duration::from_millis(200), state.until_writable()).await;
    assert!(
        waited.is_err(),
        "background work started on a read-only archive"
    );
}

async fn sqlx_connection(path: &Path) -> sqlx::SqliteConnection {
    use sqlx::Connection;
    sqlx::SqliteConnection::connect(&format!("sqlite://{}", path.display()))
        .await
        .unwrap()
}

async fn sqlx_exec(conn: &mut sqlx::SqliteConnection, sql: &str) {
    sqlx::query(sql).execute(&mut *conn).await.unwrap();
}

#[tokio::test]
async fn a_damaged_database_turns_to_the_recovery_screen_and_starts_afresh_keeping_it() {
    let dir = tempfile::tempdir().unwrap();
    let path = archive(dir.path(), 2_000, None).await;
    crashed(&path).await;
    garble(&path).await;
    let damaged = digest(&path);

    let state = start(dir.path());
    // Up to date, it opens at once; after the crash, its check in the background finds the
    // damage.
    let _ = state.store().await;
    let DatabaseStatus::Problem { problem } = settled_status(&state).await else {
        panic!("{:?}", status(&state));
    };
    assert_eq!(problem.kind, ProblemKind::Damaged);
    assert!(!problem.details.is_empty());
    assert!(
        state.store().await.is_err(),
        "a damaged store stayed in use"
    );
    assert!(
        tokio::time::timeout(Duration::from_millis(100), state.until_writable())
            .await
            .is_err()
    );

    let recovered = start_afresh(&state).await.unwrap();
    assert_eq!(
        settled_status(&state).await,
        DatabaseStatus::Ready {
            read_only: false,
            checking: false
        }
    );
    let aside = PathBuf::from(recovered.set_aside.unwrap());
    assert!(
        aside
            .file_name()
            .unwrap()
            .to_string_lossy()
            .starts_with("demo-damaged-"),
        "{aside:?}"
    );
    assert_eq!(digest(&aside), damaged, "the damaged file was changed");
    let store = state.store().await.unwrap();
    assert_eq!(post_count(&store).await, 0);
    tokio::time::timeout(Duration::from_secs(1), state.until_writable())
        .await
        .expect("writable after starting afresh");
}

#[tokio::test]
async fn a_damaged_database_is_replaced_by_the_copy_made_before_its_upgrade() {
    let dir = tempfile::tempdir().unwrap();
    let path = archive(dir.path(), 500, Some(7)).await;
    // The first start upgrades it, making a copy first.
    let state = start(dir.path());
    let store = state.store().await.unwrap();
    assert_eq!(post_count(&store).await, 500);
    assert!(matches!(
        settled_status(&state).await,
        DatabaseStatus::Ready { .. }
    ));
    store.checkpoint().await.unwrap();
    store.close().await;
    drop(state);
    let copies = backup::list(&dir.path().join(BACKUPS_DIR), &path);
    assert_eq!(copies.len(), 1);

    crashed(&path).await;
    garble(&path).await;
    let state = start(dir.path());
    let _ = state.store().await;
    let DatabaseStatus::Problem { problem } = settled_status(&state).await else {
        panic!("{:?}", status(&state));
    };
    assert_eq!(
        problem.backup.as_ref().map(|b| b.file.clone()),
        Some(copies[0].path.display().to_string())
    );
    let recovered = restore_backup(&state).await.unwrap();
    assert!(recovered
        .set_aside
        .unwrap()
        .contains(&format!("{}demo-damaged-", std::path::MAIN_SEPARATOR)));
    assert_eq!(
        settled_status(&state).await,
        DatabaseStatus::Ready {
            read_only: false,
            checking: false
        }
    );
    let store = state.store().await.unwrap();
    assert_eq!(post_count(&store).await, 500);
    // The copy is kept, and the restored file was upgraded (and copied again first).
    assert!(copies[0].path.exists());
}

#[tokio::test]
async fn recovery_is_refused_when_nothing_waits_for_it() {
    let dir = tempfile::tempdir().unwrap();
    let state = start(dir.path());
    state.store().await.unwrap();
    for outcome in [
        start_afresh(&state).await,
        restore_backup(&state).await,
        open_read_only(&state).await,
    ] {
        assert!(
            matches!(outcome, Err(CommandError::Invalid { .. })),
            "{outcome:?}"
        );
    }
    assert!(std::fs::read_dir(dir.path()).unwrap().all(|e| !e
        .unwrap()
        .file_name()
        .to_string_lossy()
        .contains("-set-aside-")));
}

#[tokio::test]
async fn an_archive_closed_cleanly_and_checked_this_week_opens_without_its_check() {
    let dir = tempfile::tempdir().unwrap();
    // Checked as it opened, and closed.
    archive(dir.path(), 50, None).await;
    let state = start(dir.path());
    state.store().await.unwrap();
    let ready = DatabaseStatus::Ready {
        read_only: false,
        checking: false,
    };
    assert_eq!(status(&state), ready, "the whole file was read at start");
    // Quit: closed, so the next start need not check either.
    close_all(&state, Duration::from_secs(5)).await;
    drop(state);
    let state = start(dir.path());
    state.store().await.unwrap();
    assert_eq!(status(&state), ready);
    // Quit without closing: the next start checks.
    drop(state);
    let state = start(dir.path());
    state.store().await.unwrap();
    assert_eq!(
        status(&state),
        DatabaseStatus::Ready {
            read_only: false,
            checking: true
        }
    );
    assert_eq!(settled_status(&state).await, ready);
}

#[tokio::test]
async fn damage_after_a_clean_close_is_found_by_the_weekly_check() {
    let dir = tempfile::tempdir().unwrap();
    let path = archive(dir.path(), 2_000, None).await;
    garble(&path).await;
    // Closed cleanly and checked this week: this start does not read the whole file.
    let state = start(dir.path());
    state.store().await.unwrap();
    assert_eq!(
        status(&state),
        DatabaseStatus::Ready {
            read_only: false,
            checking: false
        }
    );
    // A week on (its last clean check set back eight days), the next start checks it.
    let store = state.store().await.unwrap();
    let week_ago = Utc::now() - chrono::TimeDelta::days(8);
    store
        .set_archive_state(sightline_store::LAST_CLEAN_CHECK, &week_ago)
        .await
        .unwrap();
    close_all(&state, Duration::from_secs(5)).await;
    drop(state);
    let state = start(dir.path());
    let _ = state.store().await;
    let DatabaseStatus::Problem { problem } = settled_status(&state).await else {
        panic!("{:?}", status(&state));
    };
    assert_eq!(problem.kind, ProblemKind::Damaged);
    assert!(!problem.details.is_empty());
}
