//! The SQL function folds as Rust does, on a plain connection.

use sqlx::Connection;

use super::*;

async fn connection() -> SqliteConnection {
    let mut conn = SqliteConnection::connect("sqlite::memory:").await.unwrap();
    register(&mut conn).await.unwrap();
    conn
}

#[tokio::test]
async fn the_sql_function_folds_as_rust_does() {
    let mut conn = connection().await;
    for text in [
        "ÉLECTIONS",
        "Élections",
        "élections",
        "Ünal_ÖMER",
        "ΟΔΟΣ ΑΘΗΝΑ",
        "MÜNCHEN.example",
        "İstanbul",
        "ǅemal",
        "東京 ＡＢＣ",
        "already lower",
        "",
    ] {
        let (folded,): (String,) = sqlx::query_as("SELECT sightline_fold(?)")
            .bind(text)
            .fetch_one(&mut conn)
            .await
            .unwrap();
        assert_eq!(folded, fold(text), "{text}");
    }
    assert_eq!(fold("ÉLECTIONS"), "élections");
    assert_eq!(fold("ΟΔΟΣ"), "οδο\u{3c2}", "a final sigma stays final");
    // SQLite's own lower() leaves the accented capital: the reason this function exists.
    let (lower,): (String,) = sqlx::query_as("SELECT lower('ÉLECTIONS')")
        .fetch_one(&mut conn)
        .await
        .unwrap();
    assert_eq!(lower, "Élections");
}

#[tokio::test]
async fn null_stays_null_and_numbers_read_as_text() {
    let mut conn = connection().await;
    let (null, number): (Option<String>, String) =
        sqlx::query_as("SELECT sightline_fold(NULL), sightline_fold(42)")
            .fetch_one(&mut conn)
            .await
            .unwrap();
    assert_eq!((null, number.as_str()), (None, "42"));
}

#[tokio::test]
async fn a_connection_without_it_does_not_know_the_name() {
    let mut conn = SqliteConnection::connect("sqlite::memory:").await.unwrap();
    let error = sqlx::query("SELECT sightline_fold('A')")
        .execute(&mut conn)
        .await
        .unwrap_err();
    assert!(error.to_string().contains("no such function"), "{error}");
}
