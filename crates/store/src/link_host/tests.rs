//! The SQL function gives what the SQL of migrations 0008/0011 gave, for every kind of link.

use sqlx::Connection;

use super::*;

/// The old rule, as migration 0011's view spelt it: one-value `json_each` calls as variables.
const OLD_SQL: &str = "
SELECT CASE WHEN host.value LIKE 'www.%' THEN substr(host.value, 5) ELSE host.value END
FROM json_each(json_array(COALESCE(NULLIF(json_extract(?1, '$.expanded_url'), ''),
                                   json_extract(?1, '$.url')))) link,
     json_each(json_array(replace(replace(replace(
         CASE WHEN instr(link.value, '://') > 0
              THEN substr(link.value, instr(link.value, '://') + 3) ELSE link.value END,
         '?', '/'), '#', '/'), ':', '/') || '/')) rest,
     json_each(json_array(sightline_fold(substr(rest.value, 1, instr(rest.value, '/') - 1)))) host
WHERE link.type = 'text'";

/// The new one, as migration 0027's view calls it.
const NEW_SQL: &str = "
SELECT sightline_link_host(COALESCE(NULLIF(json_extract(?1, '$.expanded_url'), ''),
                                    json_extract(?1, '$.url')))";

async fn connection() -> SqliteConnection {
    let mut conn = SqliteConnection::connect("sqlite::memory:").await.unwrap();
    crate::fold::register(&mut conn).await.unwrap();
    register(&mut conn).await.unwrap();
    conn
}

#[tokio::test]
async fn the_function_gives_what_the_old_sql_gave() {
    let mut conn = connection().await;
    let links = [
        "https://example.org/a",
        "https://WWW.Example.org:8080/path?q=1#frag",
        "http://www.bbc.co.uk",
        "example.com/no-scheme",
        "www.example.com",
        "https://münchen.example/straße",
        "https://MÜNCHEN.EXAMPLE",
        "https://user@host.example/x",
        "ftp://files.example:21",
        "https://example.org?only=query",
        "https://example.org#only-fragment",
        "mailto:someone@example.org",
        "://",
        "https://",
        "",
        "wwwexample.com",
        "https://www.",
        "https://ΑΘΗΝΑ.gr/δρόμος",
        "https://t.co/abc",
        "a://b://c/d",
    ];
    let mut records: Vec<String> = Vec::new();
    for link in links {
        records
            .push(serde_json::json!({ "expanded_url": link, "url": "https://t.co/x" }).to_string());
        records.push(serde_json::json!({ "url": link }).to_string());
    }
    records.extend(
        [
            r#"{"expanded_url": null, "url": null}"#,
            r#"{"expanded_url": 42, "url": "https://t.co/x"}"#,
            r#"{"expanded_url": "", "url": 7.5}"#,
            r#"{"expanded_url": {"href": "https://example.org"}}"#,
            r#"{"expanded_url": ["https://example.org"]}"#,
            r#"{"expanded_url": true}"#,
            r#"{}"#,
        ]
        .map(str::to_owned),
    );
    let mut hosts_seen = 0;
    for record in &records {
        let old: Option<Option<String>> = sqlx::query_scalar(OLD_SQL)
            .bind(record)
            .fetch_optional(&mut conn)
            .await
            .unwrap();
        let new: Option<String> = sqlx::query_scalar(NEW_SQL)
            .bind(record)
            .fetch_one(&mut conn)
            .await
            .unwrap();
        // The old SQL gave no row where the new gives NULL: both mean no host.
        assert_eq!(old.flatten(), new, "{record}");
        hosts_seen += usize::from(new.is_some());
    }
    assert!(hosts_seen > 30, "most records have a host: {hosts_seen}");
}

#[test]
fn hosts_as_the_analysis_counts_them() {
    assert_eq!(link_host("https://WWW.Example.org:8080/a?b"), "example.org");
    assert_eq!(link_host("example.com/x"), "example.com");
    assert_eq!(link_host("https://MÜNCHEN.example"), "münchen.example");
    assert_eq!(link_host("https://"), "");
    assert_eq!(link_host("wwwexample.com"), "wwwexample.com");
}
