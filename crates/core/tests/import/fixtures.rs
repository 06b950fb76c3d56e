//! Hand-made files of each format the import reads, written from the tools' published field
//! lists (the X API v2 tweet and user objects as twarc2 writes them, `twarc2 flatten`'s
//! embedded `author` and referenced `tweet`, 4CAT's X/Twitter CSV columns, Zeeschuimer's item
//! envelope around X's GraphQL tweet result), each with broken lines, and the outcome the
//! import must give each line.

use serde_json::{json, Value};
use sightline_store::ImportOutcome::{self, AlreadyHeld, Imported, NotAPost, Unreadable};

/// One expected outcome: line, item, outcome, post id, the start of the reason.
pub type Expected = (i64, i64, ImportOutcome, Option<&'static str>, &'static str);

pub fn v2_user(id: &str, username: &str) -> Value {
    json!({
        "id": id, "username": username, "name": format!("{username} name"),
        "verified": false, "created_at": "2015-01-01T00:00:00.000Z",
        "description": "an account", "profile_image_url": "https://pbs.twimg.com/p.jpg",
        "public_metrics": {"followers_count": 120, "following_count": 3, "tweet_count": 9, "listed_count": 0}
    })
}

/// A v2 tweet as the API sends it (no expansions inside).
pub fn v2_tweet(id: &str, author_id: &str, text: &str) -> Value {
    json!({
        "id": id, "text": text, "created_at": "2022-12-06T10:00:00.000Z",
        "author_id": author_id, "conversation_id": id, "lang": "en",
        "edit_history_tweet_ids": [id], "possibly_sensitive": false,
        "reply_settings": "everyone", "source": "Twitter Web App",
        "public_metrics": {"retweet_count": 2, "reply_count": 1, "like_count": 5,
                           "quote_count": 0, "bookmark_count": 1, "impression_count": 100},
        "entities": {
            "hashtags": [{"start": 0, "end": 6, "tag": "OSINT"}],
            "mentions": [{"start": 7, "end": 11, "username": "bob", "id": "12"}],
            "urls": [{"start": 12, "end": 35, "url": "https://t.co/abc",
                      "expanded_url": "https://example.org/a", "display_url": "example.org/a"}]
        }
    })
}

fn twarc_meta() -> Value {
    json!({"url": "https://api.twitter.com/2/tweets/search/recent?query=osint",
           "version": "2.13.0", "retrieved_at": "2022-12-06T10:05:00+00:00"})
}

/// A `twarc2 flatten` line: the tweet with its author and referenced tweets inside.
pub fn flat_tweet(id: &str, author: (&str, &str), text: &str) -> Value {
    let mut tweet = v2_tweet(id, author.0, text);
    tweet["author"] = v2_user(author.0, author.1);
    tweet["__twarc"] = twarc_meta();
    tweet
}

pub fn twarc2_flat() -> (String, Vec<Expected>) {
    let first = flat_tweet(
        "1600000000000000001",
        ("11", "alice"),
        "#OSINT @bob https://t.co/abc",
    );
    let mut reply = flat_tweet("1600000000000000002", ("12", "bob"), "@alice agreed");
    reply["conversation_id"] = json!("1600000000000000001");
    reply["in_reply_to_user_id"] = json!("11");
    reply["in_reply_to_user"] = v2_user("11", "alice");
    reply["referenced_tweets"] = json!([{"type": "replied_to", "id": "1600000000000000001",
                                         "tweet": first.clone()}]);
    let mut quote = flat_tweet("1600000000000000003", ("13", "carol"), "look at this");
    quote["referenced_tweets"] = json!([{"type": "quoted", "id": "1600000000000000001",
                                         "tweet": first.clone()}]);
    let mut no_time = flat_tweet("1600000000000000004", ("11", "alice"), "no time");
    no_time.as_object_mut().unwrap().remove("created_at");
    let lines = [
        first.to_string(),
        reply.to_string(),
        v2_user("12", "bob").to_string(),
        r#"{"id": "1600000000000000005", "text": oops}"#.to_owned(),
        String::new(),
        quote.to_string(),
        first.to_string(),
        no_time.to_string(),
        r#"{"id":"1600000000000000009","text":"cut sho"#.to_owned(),
    ];
    let expected = vec![
        (1, 0, Imported, Some("1600000000000000001"), ""),
        (2, 0, Imported, Some("1600000000000000002"), ""),
        (3, 0, NotAPost, None, "an account"),
        (4, 0, Unreadable, None, "not JSON"),
        (5, 0, NotAPost, None, "an empty line"),
        (6, 0, Imported, Some("1600000000000000003"), ""),
        (7, 0, AlreadyHeld, Some("1600000000000000001"), ""),
        (
            8,
            0,
            Unreadable,
            None,
            "post 1600000000000000004 has no readable time",
        ),
        (9, 0, Unreadable, None, "cut short"),
    ];
    // The last line has no line break: a file cut off mid-write.
    (lines.join("\n"), expected)
}

pub fn twarc2_pages() -> (String, Vec<Expected>) {
    let mut reply = v2_tweet("1600000000000000012", "12", "@alice replying");
    reply["in_reply_to_user_id"] = json!("11");
    reply["referenced_tweets"] = json!([{"type": "replied_to", "id": "1600000000000000011"}]);
    let page = json!({
        "data": [v2_tweet("1600000000000000011", "11", "first of the page"), reply],
        "includes": {"users": [v2_user("11", "alice"), v2_user("12", "bob")],
                     "tweets": [], "media": []},
        "meta": {"newest_id": "1600000000000000012", "oldest_id": "1600000000000000011",
                 "result_count": 2, "next_token": "b26v89c19zqg8o3f"},
        "__twarc": twarc_meta()
    });
    let errors = json!({"errors": [{"value": "99", "detail": "Could not find tweet with ids: [99].",
                                    "title": "Not Found Error", "resource_type": "tweet",
                                    "parameter": "ids", "resource_id": "99",
                                    "type": "https://api.twitter.com/2/problems/resource-not-found"}],
                        "__twarc": twarc_meta()});
    let users = json!({"data": [v2_user("13", "carol"), v2_user("14", "dan")],
                       "meta": {"result_count": 2}, "__twarc": twarc_meta()});
    let lines = [
        page.to_string(),
        errors.to_string(),
        "{\"data\": [".to_owned(),
        users.to_string(),
        page.to_string(),
    ];
    let expected = vec![
        (1, 0, Imported, Some("1600000000000000011"), ""),
        (1, 1, Imported, Some("1600000000000000012"), ""),
        (2, 0, NotAPost, None, "an error page"),
        (3, 0, Unreadable, None, "cut short"),
        (4, 0, NotAPost, None, "an account"),
        (4, 1, NotAPost, None, "an account"),
        (5, 0, AlreadyHeld, Some("1600000000000000011"), ""),
        (5, 1, AlreadyHeld, Some("1600000000000000012"), ""),
    ];
    (lines.join("\n") + "\n", expected)
}

/// X's GraphQL tweet result, as the website loads it (and Zeeschuimer keeps it).
pub fn graphql_tweet(id: &str, handle: &str, text: &str) -> Value {
    json!({
        "__typename": "Tweet", "rest_id": id,
        "core": {"user_results": {"result": {
            "__typename": "User", "id": "VXNlcjoyMQ==", "rest_id": "21",
            "is_blue_verified": true,
            "legacy": {"screen_name": handle, "name": format!("{handle} name"),
                       "verified": false, "followers_count": 300,
                       "description": "bio", "created_at": "Mon Jan 01 00:00:00 +0000 2018",
                       "profile_image_url_https": "https://pbs.twimg.com/q.jpg"}}}},
        "views": {"count": "1234", "state": "EnabledWithCount"},
        "source": "<a href=\"https://mobile.twitter.com\">Twitter Web App</a>",
        "legacy": {
            "id_str": id, "full_text": text, "created_at": "Wed Oct 10 20:19:24 +0000 2018",
            "conversation_id_str": id, "lang": "en", "user_id_str": "21",
            "favorite_count": 7, "retweet_count": 3, "reply_count": 2, "quote_count": 1,
            "bookmark_count": 0, "is_quote_status": false,
            "entities": {"hashtags": [{"indices": [0, 5], "text": "Vote"}],
                         "symbols": [], "user_mentions": [], "urls": []}
        }
    })
}

fn zeeschuimer_item(id: &str, platform: &str, data: Value) -> Value {
    json!({
        "nav_index": "1:1:1", "item_id": id, "timestamp_collected": 1_670_000_000_000_i64,
        "source_platform": platform, "source_platform_url": format!("https://{platform}/search"),
        "source_url": format!("https://{platform}/i/api/graphql/abc/SearchTimeline"),
        "user_agent": "Mozilla/5.0", "id": id, "data": data
    })
}

pub fn zeeschuimer() -> (String, Vec<Expected>) {
    let wrapped = json!({"__typename": "TweetWithVisibilityResults",
                         "tweet": graphql_tweet("1700000000000000002", "erin", "#Vote wrapped")});
    let mut reposted = graphql_tweet("1700000000000000003", "frank", "RT @dora: #Vote now");
    reposted["legacy"]["retweeted_status_result"] =
        json!({"result": graphql_tweet("1700000000000000001", "dora", "#Vote now")});
    let lines = [
        zeeschuimer_item(
            "1700000000000000001",
            "twitter.com",
            graphql_tweet("1700000000000000001", "dora", "#Vote now"),
        ),
        zeeschuimer_item("1700000000000000002", "x.com", wrapped),
        zeeschuimer_item(
            "7300000000000000000",
            "tiktok.com",
            json!({"id": "73", "desc": "a video"}),
        ),
        zeeschuimer_item(
            "1700000000000000009",
            "x.com",
            json!({"__typename": "TweetTombstone", "tombstone": {}}),
        ),
        zeeschuimer_item("1700000000000000003", "x.com", reposted),
    ]
    .map(|line| line.to_string());
    let lines = [&lines[..], &["not json at all".to_owned()]].concat();
    let expected = vec![
        (1, 0, Imported, Some("1700000000000000001"), ""),
        (2, 0, Imported, Some("1700000000000000002"), ""),
        (3, 0, NotAPost, None, "an item from tiktok.com"),
        (4, 0, NotAPost, None, "a post X no longer shows"),
        (5, 0, Imported, Some("1700000000000000003"), ""),
        (6, 0, Unreadable, None, "not JSON"),
    ];
    (lines.join("\n") + "\n", expected)
}

pub fn fourcat_ndjson() -> (String, Vec<Expected>) {
    // 4CAT keeps each original item under `data`, its own mapped fields beside it.
    let graphql = json!({"id": "1700000000000000011", "thread_id": "1700000000000000011",
                         "body": "#Vote mapped", "author": "gina",
                         "data": graphql_tweet("1700000000000000011", "gina", "#Vote original")});
    let v2 = json!({"id": "1600000000000000021",
                    "data": flat_tweet("1600000000000000021", ("11", "alice"), "a v2 tweet")});
    let lines = [
        graphql.to_string(),
        v2.to_string(),
        json!({"id": "5", "body": "no original"}).to_string(),
        "[1, 2, 3]".to_owned(),
    ];
    let expected = vec![
        (1, 0, Imported, Some("1700000000000000011"), ""),
        (2, 0, Imported, Some("1600000000000000021"), ""),
        (3, 0, NotAPost, None, "an item without its original record"),
        (4, 0, Unreadable, None, "not a JSON object"),
    ];
    (lines.join("\n") + "\n", expected)
}

pub fn fourcat_csv() -> (String, Vec<Expected>) {
    let header = "id,thread_id,timestamp,unix_timestamp,link,body,author,author_fullname,\
        author_id,author_avatar_url,author_banner_url,source,language_guess,possibly_sensitive,\
        retweet_count,reply_count,like_count,quote_count,impression_count,is_retweet,\
        retweeted_user,is_quote_tweet,quoted_user,is_quote_withheld,is_reply,replied_user,\
        is_withheld,hashtags,urls,images,videos,mentions,long_lat,place_name";
    let row = |id: &str, ts: &str, body: &str, tail: &str| {
        format!(
            "{id},{id},{ts},,https://x.com/hana/status/{id},{body},hana,Hana H,31,,,\
             Twitter Web App,nl,no,4,1,9,0,88,no,,no,,no,{tail}"
        )
    };
    let lines = [
        header.to_owned(),
        row(
            "1800000000000000001",
            "2023-03-01 12:00:00",
            "plain post",
            "no,,no,Verkiezingen,https://example.nl/x,,,ivo,,",
        ),
        // A body with a line break and a comma, quoted as CSV writers do: one record, two lines.
        row(
            "1800000000000000002",
            "2023-03-01 12:05:00",
            "\"two\nlines, one post\"",
            "yes,ivo,no,,,,,,,",
        ),
        row(
            "not-an-id",
            "2023-03-01 12:10:00",
            "a row of another platform",
            "no,,no,,,,,,,",
        ),
        row(
            "1800000000000000004",
            "yesterday",
            "bad time",
            "no,,no,,,,,,,",
        ),
        row(
            "1800000000000000001",
            "2023-03-01 12:00:00",
            "plain post again",
            "no,,no,,,,,,,",
        ),
        "1800000000000000006,1800000000000000006,2023-03-01".to_owned(),
    ];
    let expected = vec![
        (1, 0, NotAPost, None, "the CSV's header row"),
        (2, 0, Imported, Some("1800000000000000001"), ""),
        (3, 0, Imported, Some("1800000000000000002"), ""),
        (5, 0, NotAPost, None, "\"not-an-id\" is not an X post id"),
        (
            6,
            0,
            Unreadable,
            None,
            "post 1800000000000000004 has no readable time",
        ),
        (7, 0, AlreadyHeld, Some("1800000000000000001"), ""),
        (
            8,
            0,
            Unreadable,
            None,
            "post 1800000000000000006 has no readable time",
        ),
    ];
    (lines.join("\r\n") + "\r\n", expected)
}
