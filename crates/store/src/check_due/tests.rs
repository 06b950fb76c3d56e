use std::path::Path;

use chrono::{TimeDelta, Utc};

use super::*;
use crate::{Check, Upgrade};

/// The app's way of opening: checked before migrating, otherwise when due.
async fn open_as_the_app(path: &Path) -> Store {
    let upgrade = Upgrade {
        check: Check::BeforeMigrating,
        ..Upgrade::default()
    };
    Store::open_upgrading(path, &upgrade).await.unwrap()
}

/// A file up to date whose check passed and which was closed cleanly.
async fn checked_and_closed(path: &Path) {
    let store = open_as_the_app(path).await;
    assert_eq!(store.quick_check().await.unwrap(), ["ok"]);
    store.close().await;
}

/// What an opening says is due; the store closed again.
async fn due_at_opening(path: &Path) -> Option<CheckDue> {
    let store = open_as_the_app(path).await;
    let due = store.check_due();
    store.close().await;
    due
}

/// Records the last clean check `age` ago, as a check then would have.
async fn last_checked_ago(path: &Path, age: TimeDelta) {
    let store = open_as_the_app(path).await;
    store
        .set_archive_state(LAST_CLEAN_CHECK, &(Utc::now() - age))
        .await
        .unwrap();
    store.close().await;
}

#[tokio::test]
async fn a_clean_close_then_an_opening_does_not_check() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("sightline.db");
    // A new file has never been checked.
    let store = open_as_the_app(&path).await;
    assert_eq!(store.check_due(), Some(CheckDue::NeverChecked));
    assert!(marker_path(&path).exists(), "no marker while open");
    assert_eq!(store.quick_check().await.unwrap(), ["ok"]);
    assert_eq!(store.check_due(), None);
    let last = store.last_clean_check().await.unwrap().expect("recorded");
    assert!(Utc::now() - last < TimeDelta::minutes(1), "{last}");
    store.close().await;
    assert!(!marker_path(&path).exists(), "the marker outlived close");

    for _ in 0..2 {
        assert_eq!(due_at_opening(&path).await, None);
    }
}

#[tokio::test]
async fn a_store_dropped_without_closing_is_checked_at_its_next_opening() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("sightline.db");
    checked_and_closed(&path).await;
    // A crash: the store is never closed.
    drop(open_as_the_app(&path).await);

    let store = open_as_the_app(&path).await;
    assert_eq!(store.check_due(), Some(CheckDue::UncleanClose));
    assert_eq!(store.quick_check().await.unwrap(), ["ok"]);
    assert_eq!(store.check_due(), None);
    store.close().await;
    assert_eq!(due_at_opening(&path).await, None);
}

#[tokio::test]
async fn an_unclean_close_is_checked_until_its_check_has_passed() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("sightline.db");
    checked_and_closed(&path).await;
    drop(open_as_the_app(&path).await);
    // Closed cleanly this time, but before its check ran: still due at the next opening.
    let store = open_as_the_app(&path).await;
    assert_eq!(store.check_due(), Some(CheckDue::UncleanClose));
    store.close().await;
    assert!(marker_path(&path).exists());
    let store = open_as_the_app(&path).await;
    assert_eq!(store.check_due(), Some(CheckDue::UncleanClose));
    store.quick_check().await.unwrap();
    store.close().await;
    assert!(!marker_path(&path).exists());
}

#[tokio::test]
async fn a_last_check_a_week_old_is_due_and_a_younger_one_is_not() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("sightline.db");
    checked_and_closed(&path).await;

    last_checked_ago(&path, CHECK_EVERY - TimeDelta::minutes(5)).await;
    assert_eq!(due_at_opening(&path).await, None);

    last_checked_ago(&path, CHECK_EVERY + TimeDelta::minutes(5)).await;
    let store = open_as_the_app(&path).await;
    let Some(CheckDue::Overdue { last }) = store.check_due() else {
        panic!("{:?}", store.check_due());
    };
    assert!(Utc::now() - last > CHECK_EVERY, "{last}");
    // Still due at the next opening until a check passes.
    store.close().await;
    let store = open_as_the_app(&path).await;
    assert!(matches!(store.check_due(), Some(CheckDue::Overdue { .. })));
    store.quick_check().await.unwrap();
    store.close().await;
    assert_eq!(due_at_opening(&path).await, None);

    // A time later than now (a clock set back) vouches for nothing.
    last_checked_ago(&path, TimeDelta::days(-2)).await;
    assert!(matches!(
        due_at_opening(&path).await,
        Some(CheckDue::Overdue { .. })
    ));
}

#[tokio::test]
async fn a_check_that_finds_damage_reports_it_and_stays_due() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("sightline.db");
    let store = open_as_the_app(&path).await;
    // About 200 pages of rows, for a garbled one to sit among.
    sqlx::query(
        "CREATE TABLE filler AS WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n \
         WHERE i < 2000) SELECT i, randomblob(400) AS bytes FROM n",
    )
    .execute(&store.pool)
    .await
    .unwrap();
    assert_eq!(store.quick_check().await.unwrap(), ["ok"]);
    store.close().await;
    // A crash that damaged the file.
    drop(open_as_the_app(&path).await);
    garble_middle_page(&path);

    let store = open_as_the_app(&path).await;
    assert_eq!(store.check_due(), Some(CheckDue::UncleanClose));
    // SQLite reports the damage, or stops at it as "malformed".
    match store.quick_check().await {
        Ok(report) => assert_ne!(report, ["ok"]),
        Err(error) => assert!(error.is_damage(), "{error:?}"),
    }
    assert_eq!(store.check_due(), Some(CheckDue::UncleanClose));
    store.close().await;
    assert!(
        marker_path(&path).exists(),
        "damage found, yet marked clean"
    );
}

#[tokio::test]
async fn an_upgrade_checks_first_and_that_check_counts() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("sightline.db");
    Store::open_at_version(&path, 7)
        .await
        .unwrap()
        .close()
        .await;
    assert!(!marker_path(&path).exists());
    // Even after an unclean close: the check before migrating was the opening's.
    std::fs::write(marker_path(&path), b"").unwrap();

    let store = open_as_the_app(&path).await;
    assert_eq!(store.check_due(), None);
    let last = store.last_clean_check().await.unwrap().expect("recorded");
    assert!(Utc::now() - last < TimeDelta::minutes(1), "{last}");
    store.close().await;
    assert!(!marker_path(&path).exists());
}

#[test]
fn the_rule_puts_an_unclean_close_first_then_the_age() {
    let now = Utc::now();
    let fresh = Some(now - TimeDelta::hours(1));
    assert_eq!(due(true, fresh, now), Some(CheckDue::UncleanClose));
    assert_eq!(due(false, None, now), Some(CheckDue::NeverChecked));
    assert_eq!(due(false, fresh, now), None);
    let week = now - CHECK_EVERY;
    assert_eq!(
        due(false, Some(week), now),
        Some(CheckDue::Overdue { last: week })
    );
}

/// Overwrites the page in the middle of the file with bytes no SQLite page holds.
fn garble_middle_page(path: &Path) {
    use std::io::{Seek, SeekFrom, Write};
    let len = std::fs::metadata(path).unwrap().len();
    let page = len / 4096 / 2;
    let mut file = std::fs::OpenOptions::new().write(true).open(path).unwrap();
    file.seek(SeekFrom::Start(page * 4096)).unwrap();
    file.write_all(&[0xA5; 4096]).unwrap();
    file.sync_all().unwrap();
}
