//! Migration 0020 against real SQLite files: investigations made before it get a case id each,
//! a new one gets its own, and no ledger row can be written for a received request.

use chrono::{TimeZone, Utc};

use crate::test_support::{database_at, record, temp_store};
use crate::Store;

fn is_uuid_v4(id: &str) -> bool {
    let parts: Vec<&str> = id.split('-').collect();
    let lengths: Vec<usize> = parts.iter().map(|p| p.len()).collect();
    lengths == [8, 4, 4, 4, 12]
        && id
            .chars()
            .all(|c| c == '-' || c.is_ascii_hexdigit() && !c.is_ascii_uppercase())
        && parts[2].starts_with('4')
        && "89ab".contains(&parts[3][..1])
}

#[tokio::test]
async fn investigations_made_before_get_a_case_id_each_and_new_ones_their_own() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("old.db");
    let pool = database_at(&path, 18).await;
    for name in ["Floods", "Fires", "Storms"] {
        sqlx::query("INSERT INTO investigations (name, created_at, updated_at) VALUES (?, 0, 0)")
            .bind(name)
            .execute(&pool)
            .await
            .unwrap();
    }
    pool.close().await;
    let store = Store::open(&path).await.unwrap();
    let new = store
        .create_investigation(
            "Heat",
            "",
            Utc.with_ymd_and_hms(2026, 11, 28, 5, 0, 0).unwrap(),
        )
        .await
        .unwrap();
    let mut ids = Vec::new();
    for id in 1..=new {
        let case_id = store.case_id(id).await.unwrap().expect("a case id");
        assert!(is_uuid_v4(&case_id), "{case_id}");
        ids.push(case_id);
    }
    assert_eq!(ids.len(), 4);
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), 4, "every case id is its own");
}

#[tokio::test]
async fn a_received_request_can_never_take_a_ledger_row() {
    let (store, _dir) = temp_store().await;
    let at = Utc.with_ymd_and_hms(2026, 11, 28, 5, 0, 0).unwrap();
    let history_id = store
        .record_request(&record("req-1", at))
        .await
        .unwrap()
        .history_id();
    let insert_ledger = || {
        sqlx::query(
            "INSERT INTO ledger (history_id, at, service, operation, key_label, cost_nanos,
                 usage_count, currency) VALUES (?, 0, 'twitter', 'twitter_search', '', 5, 1, 'USD')",
        )
        .bind(history_id)
    };
    sqlx::query(
        "INSERT INTO received_requests (history_id, package_sha256, by_name, by_key, received_at)
         VALUES (?, ?, 'Ana', 'ab:cd', 0)",
    )
    .bind(history_id)
    .bind("0".repeat(64))
    .execute(&store.pool)
    .await
    .unwrap();
    let refused = insert_ledger().execute(&store.pool).await.unwrap_err();
    assert!(
        refused.to_string().contains("never this installation"),
        "{refused}"
    );
    let rows: i64 = sqlx::query_scalar("SELECT count(*) FROM ledger")
        .fetch_one(&store.pool)
        .await
        .unwrap();
    assert_eq!(rows, 0);
}

/// A post line of the first layout (tags as `[tag, by]`, no removals) is still read: its tags
/// as put on before times were kept.
#[test]
fn a_post_line_of_the_first_layout_is_read() {
    let line = r#"{"id":"7","conversation_id":null,"author_id":"1","author_username":"ana",
        "author_name":"Ana","author_verified":false,"text":"t","lang":"en","created_at":0,
        "like_count":0,"retweet_count":0,"reply_count":0,"quote_count":0,"view_count":null,
        "bookmark_count":0,"hashtags":"","url":null,"raw_json":"{}","found_by":[],
        "filing":{"added_at":0,"how":"found","by":null},"note":"","note_by":null,
        "other_notes":[],"tags":[["lead",null],["flood",{"name":"Ben","key":"ab:cd"}]]}"#;
    let post: super::CasePost = serde_json::from_str(line).unwrap();
    assert_eq!(
        post.tags,
        [
            super::CaseTag {
                tag: "lead".into(),
                by: None,
                added_at: 0
            },
            super::CaseTag {
                tag: "flood".into(),
                by: Some(super::By {
                    name: "Ben".into(),
                    key: "ab:cd".into()
                }),
                added_at: 0
            },
        ]
    );
    assert!(post.removed.is_empty());
    // Written again, it is the second layout, and reads back the same.
    let again: super::CasePost =
        serde_json::from_str(&serde_json::to_string(&post).unwrap()).unwrap();
    assert_eq!(again, post);
}
