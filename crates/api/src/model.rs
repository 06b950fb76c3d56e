//! Records the service returns. Every record tolerates nulls and missing optional fields;
//! Post and User keep unknown fields in `extra` so that nothing that arrived is lost.
//!
//! **Names: this is where the service's words become the app's.** The service says tweet,
//! retweet and retweeters; the app says post, repost and reposters. The rule:
//! - What the service spells stays as it spells it: request paths (`/twitter/post/retweeters`),
//!   wire field names (`retweet_count`, `is_quote_tweet`, `miner_tweets`, a post's nested
//!   `retweet`; serde reads and writes them unchanged, so archives stored earlier read back),
//!   the stream's event kinds (`tweets`), operation ids (`twitter_retweeters`, which history
//!   rows store) and every name made from an operation id (`Operation::TwitterRetweeters`,
//!   `TwitterRetweetersRequest`, the `twitter_retweeters` command). The archive's columns that
//!   copy a wire field keep its name too (`posts.retweet_count`). The sandbox, which stands in
//!   for the service, and `docs/service.md`, which describes it, speak the service's words.
//! - Every name the app coins says post, repost, reposters: the record types here ([`Post`],
//!   the service's `TwitterScraperTweet`; [`Posts`], a list of them; [`RepostersPage`]), their
//!   TypeScript bindings (`Post.ts`), commands not named after an operation
//!   (`reposters_next_page`), functions, variables and the UI's ids (`post-tab-reposters`).

use std::collections::BTreeMap;

use chrono::{DateTime, Utc};
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::{Map, Value};
use ts_rs::TS;

use crate::lenient;

mod forecast;
pub use forecast::*;

/// One X post: the service's Tweet record (`TwitterScraperTweet`), its wire names kept.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct Post {
    #[serde(deserialize_with = "lenient::string")]
    pub id: String,
    #[serde(default, deserialize_with = "lenient::string")]
    pub text: String,
    #[serde(default, deserialize_with = "lenient::count")]
    pub reply_count: u64,
    #[serde(default, deserialize_with = "lenient::count")]
    pub retweet_count: u64,
    #[serde(default, deserialize_with = "lenient::count")]
    pub like_count: u64,
    #[serde(default, deserialize_with = "lenient::count")]
    pub quote_count: u64,
    #[serde(default, deserialize_with = "lenient::count")]
    pub bookmark_count: u64,
    /// As sent: ISO-8601 or X's legacy form; see [`Post::created_at_utc`].
    #[serde(default, deserialize_with = "lenient::string")]
    pub created_at: String,
    #[serde(default, deserialize_with = "lenient::opt_lenient")]
    pub user: Option<User>,
    #[serde(default, deserialize_with = "lenient::opt_string")]
    pub url: Option<String>,
    #[serde(default, deserialize_with = "lenient::opt_count")]
    pub view_count: Option<u64>,
    #[serde(default, deserialize_with = "lenient::opt_string")]
    pub lang: Option<String>,
    #[serde(default, deserialize_with = "media_list")]
    pub media: Vec<Media>,
    #[serde(default, deserialize_with = "lenient::opt_bool")]
    pub is_retweet: Option<bool>,
    #[serde(default, deserialize_with = "lenient::opt_bool")]
    pub is_quote_tweet: Option<bool>,
    #[serde(default, deserialize_with = "lenient::opt_string")]
    pub conversation_id: Option<String>,
    #[serde(default, deserialize_with = "lenient::opt_string")]
    pub in_reply_to_screen_name: Option<String>,
    #[serde(default, deserialize_with = "lenient::opt_string")]
    pub in_reply_to_status_id: Option<String>,
    #[serde(default, deserialize_with = "lenient::opt_string")]
    pub in_reply_to_user_id: Option<String>,
    #[serde(default, deserialize_with = "lenient::opt_string")]
    pub quoted_status_id: Option<String>,
    #[serde(default, deserialize_with = "lenient::opt_lenient")]
    #[ts(as = "Option<Box<Post>>")]
    pub quote: Option<Box<Post>>,
    /// The original post, on timeline reposts.
    #[serde(default, deserialize_with = "lenient::opt_lenient")]
    #[ts(as = "Option<Box<Post>>")]
    pub retweet: Option<Box<Post>>,
    #[serde(default, deserialize_with = "lenient::opt_lenient")]
    pub entities: Option<Entities>,
    /// Fields this version does not model (e.g. `extended_entities`), kept as received.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl Post {
    /// `created_at` as a UTC instant, from either form the service uses.
    pub fn created_at_utc(&self) -> Option<DateTime<Utc>> {
        parse_created_at(&self.created_at)
    }
}

/// Parses `2026-02-16T18:33:57.000Z` (any RFC 3339) or `Mon Mar 16 07:01:23 +0000 2026`.
pub fn parse_created_at(text: &str) -> Option<DateTime<Utc>> {
    let text = text.trim();
    DateTime::parse_from_rfc3339(text)
        .or_else(|_| DateTime::parse_from_str(text, "%a %b %d %H:%M:%S %z %Y"))
        .map(|t| t.with_timezone(&Utc))
        .ok()
}

fn media_list<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Media>, D::Error> {
    Ok(lenient::opt_lenient::<D, Vec<Media>>(d)?.unwrap_or_default())
}

/// An X account (`TwitterScraperUser`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct User {
    #[serde(deserialize_with = "lenient::string")]
    pub id: String,
    #[serde(default, deserialize_with = "lenient::string")]
    pub username: String,
    #[serde(default, deserialize_with = "lenient::opt_string")]
    pub name: Option<String>,
    #[serde(default, deserialize_with = "lenient::opt_string")]
    pub url: Option<String>,
    #[serde(default, deserialize_with = "lenient::opt_string")]
    pub created_at: Option<String>,
    #[serde(default, deserialize_with = "lenient::opt_string")]
    pub description: Option<String>,
    #[serde(default, deserialize_with = "lenient::opt_string")]
    pub location: Option<String>,
    #[serde(default, deserialize_with = "lenient::opt_count")]
    pub followers_count: Option<u64>,
    #[serde(default, deserialize_with = "lenient::opt_count")]
    pub followings_count: Option<u64>,
    #[serde(default, deserialize_with = "lenient::opt_count")]
    pub favourites_count: Option<u64>,
    #[serde(default, deserialize_with = "lenient::opt_count")]
    pub statuses_count: Option<u64>,
    #[serde(default, deserialize_with = "lenient::opt_count")]
    pub listed_count: Option<u64>,
    #[serde(default, deserialize_with = "lenient::opt_count")]
    pub media_count: Option<u64>,
    #[serde(default, deserialize_with = "lenient::opt_string")]
    pub profile_image_url: Option<String>,
    #[serde(default, deserialize_with = "lenient::opt_string")]
    pub profile_banner_url: Option<String>,
    #[serde(default, deserialize_with = "lenient::opt_bool")]
    pub verified: Option<bool>,
    #[serde(default, deserialize_with = "lenient::opt_bool")]
    pub is_blue_verified: Option<bool>,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// A post's attached media (`TwitterScraperMedia`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct Media {
    #[serde(default, deserialize_with = "lenient::string")]
    pub media_url: String,
    #[serde(rename = "type", default, deserialize_with = "lenient::string")]
    pub media_type: String,
}

/// Hashtags, cashtags, links and mentions of a post (`TwitterScraperEntities`).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, TS)]
pub struct Entities {
    #[serde(default, deserialize_with = "lenient::opt_lenient")]
    pub hashtags: Option<Vec<EntityText>>,
    #[serde(default, deserialize_with = "lenient::opt_lenient")]
    pub symbols: Option<Vec<EntityText>>,
    #[serde(default, deserialize_with = "lenient::opt_lenient")]
    pub urls: Option<Vec<EntityUrl>>,
    #[serde(default, deserialize_with = "lenient::opt_lenient")]
    pub user_mentions: Option<Vec<UserMention>>,
    /// Rich media descriptions, kept as received.
    #[serde(default)]
    #[ts(type = "unknown")]
    pub media: Option<Value>,
}

/// A hashtag or cashtag.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct EntityText {
    #[serde(default, deserialize_with = "lenient::string")]
    pub text: String,
    #[serde(default)]
    pub indices: Vec<i64>,
}

/// A link inside a post.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct EntityUrl {
    #[serde(default, deserialize_with = "lenient::string")]
    pub url: String,
    #[serde(default, deserialize_with = "lenient::opt_string")]
    pub expanded_url: Option<String>,
    #[serde(default, deserialize_with = "lenient::string")]
    pub display_url: String,
    #[serde(default)]
    pub indices: Vec<i64>,
}

/// An @mention inside a post.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct UserMention {
    #[serde(default, deserialize_with = "lenient::string")]
    pub id_str: String,
    #[serde(default, deserialize_with = "lenient::string")]
    pub name: String,
    #[serde(default, deserialize_with = "lenient::string")]
    pub screen_name: String,
    #[serde(default)]
    pub indices: Vec<i64>,
}

/// One link result of a search tool: `{title, snippet, link}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(from = "lenient::LinkFields")]
pub struct LinkResult {
    pub title: String,
    pub snippet: String,
    pub link: String,
    /// Fields this version does not model, kept as received.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl From<lenient::LinkFields> for LinkResult {
    fn from(f: lenient::LinkFields) -> Self {
        LinkResult {
            title: f.title,
            snippet: f.snippet,
            link: f.link,
            extra: f.extra,
        }
    }
}

/// The service's judgement of a link's quality.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "UPPERCASE")]
pub enum LinkScore {
    High,
    Medium,
    Low,
    /// A grade this version does not know.
    #[serde(other)]
    Unknown,
}

/// Non-streaming answer of `POST /service/ai/search`; every key is optional.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, TS)]
pub struct AiSearchResult {
    #[serde(default, deserialize_with = "lenient::opt_lenient")]
    pub search: Option<Vec<LinkResult>>,
    #[serde(default, deserialize_with = "lenient::opt_lenient")]
    pub hacker_news_search: Option<Vec<LinkResult>>,
    #[serde(default, deserialize_with = "lenient::opt_lenient")]
    pub reddit_search: Option<Vec<LinkResult>>,
    #[serde(default, deserialize_with = "lenient::opt_lenient")]
    pub youtube_search: Option<Vec<LinkResult>>,
    #[serde(default, deserialize_with = "lenient::opt_lenient")]
    pub wikipedia_search: Option<Vec<LinkResult>>,
    #[serde(default, deserialize_with = "lenient::opt_lenient")]
    pub arxiv_search: Option<Vec<LinkResult>>,
    #[serde(default, deserialize_with = "lenient::opt_lenient")]
    pub tweets: Option<Vec<Post>>,
    /// URL or bare post id → grade.
    #[serde(default, deserialize_with = "lenient::opt_lenient")]
    pub miner_link_scores: Option<BTreeMap<String, LinkScore>>,
    #[serde(default, deserialize_with = "lenient::opt_string")]
    pub text: Option<String>,
    /// The Markdown summary; `""` when summarising failed.
    #[serde(default, deserialize_with = "lenient::opt_string")]
    pub completion: Option<String>,
    /// Unknown result kinds (and the body's billing fields), kept as received.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// Answer of `POST /service/ai/search/links/web`: six arrays, each possibly null.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, TS)]
pub struct WebLinksResult {
    #[serde(default, deserialize_with = "lenient::opt_lenient")]
    pub search_results: Option<Vec<LinkResult>>,
    #[serde(default, deserialize_with = "lenient::opt_lenient")]
    pub youtube_search_results: Option<Vec<LinkResult>>,
    #[serde(default, deserialize_with = "lenient::opt_lenient")]
    pub hacker_news_search_results: Option<Vec<LinkResult>>,
    #[serde(default, deserialize_with = "lenient::opt_lenient")]
    pub reddit_search_results: Option<Vec<LinkResult>>,
    #[serde(default, deserialize_with = "lenient::opt_lenient")]
    pub arxiv_search_results: Option<Vec<LinkResult>>,
    #[serde(default, deserialize_with = "lenient::opt_lenient")]
    pub wikipedia_search_results: Option<Vec<LinkResult>>,
}

/// Answer of `POST /service/ai/search/links/twitter`.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, TS)]
pub struct TwitterLinksResult {
    #[serde(default, deserialize_with = "post_vec")]
    pub miner_tweets: Vec<Post>,
}

/// A list of posts. The list endpoints answer an array, but an object wrapping the array
/// (`{"tweets": […]}`, `{"data": […]}`, with billing fields beside it) is read too.
#[derive(Debug, Clone, PartialEq, Default, Serialize, TS)]
#[serde(transparent)]
pub struct Posts(pub Vec<Post>);

impl<'de> Deserialize<'de> for Posts {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        post_vec(d).map(Posts)
    }
}

const LIST_KEYS: [&str; 5] = ["tweets", "data", "results", "miner_tweets", "posts"];

fn post_vec<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Post>, D::Error> {
    use serde::de::Error;
    let items = match Value::deserialize(d)? {
        Value::Array(items) => items,
        Value::Null => Vec::new(),
        Value::Object(mut map) => {
            let key = LIST_KEYS
                .iter()
                .find(|k| map.get(**k).is_some_and(Value::is_array))
                .map(|k| k.to_string())
                .or_else(|| {
                    let arrays: Vec<_> = map.iter().filter(|(_, v)| v.is_array()).collect();
                    (arrays.len() == 1).then(|| arrays[0].0.clone())
                });
            match key.and_then(|k| map.remove(&k)) {
                Some(Value::Array(items)) => items,
                _ => return Err(D::Error::custom("expected a list of posts")),
            }
        }
        _ => return Err(D::Error::custom("expected a list of posts")),
    };
    items
        .into_iter()
        .map(|v| serde_json::from_value(v).map_err(D::Error::custom))
        .collect()
}

/// One page of `GET /twitter/post/retweeters`: the accounts that reposted a post.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct RepostersPage {
    #[serde(default, deserialize_with = "user_vec")]
    pub users: Vec<User>,
    #[serde(default, deserialize_with = "lenient::opt_string")]
    pub next_cursor: Option<String>,
}

/// One page of `GET /twitter/user/posts`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct UserPostsPage {
    #[serde(default, deserialize_with = "lenient::opt_lenient")]
    pub user: Option<User>,
    #[serde(default, deserialize_with = "post_vec")]
    pub tweets: Vec<Post>,
    #[serde(default, deserialize_with = "lenient::opt_string")]
    pub next_cursor: Option<String>,
}

fn user_vec<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<User>, D::Error> {
    Ok(Option::<Vec<User>>::deserialize(d)?.unwrap_or_default())
}

fn trend_vec<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Trend>, D::Error> {
    Ok(Option::<Vec<Trend>>::deserialize(d)?.unwrap_or_default())
}

/// Answer of `GET /twitter/trends`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct Trends {
    #[serde(default, deserialize_with = "trend_vec")]
    pub trends: Vec<Trend>,
    #[serde(default, deserialize_with = "lenient::opt_lenient")]
    pub woeid: Option<TrendPlace>,
}

/// One trending topic.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct Trend {
    #[serde(default, deserialize_with = "lenient::string")]
    pub name: String,
    #[serde(default, deserialize_with = "lenient::opt_string")]
    pub query: Option<String>,
    #[serde(default, deserialize_with = "lenient::opt_count")]
    pub rank: Option<u64>,
}

/// The place trends were computed for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct TrendPlace {
    #[serde(default, deserialize_with = "lenient::string")]
    pub name: String,
    #[serde(default)]
    pub id: i64,
}

/// Answer of `GET /web`.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, TS)]
pub struct WebSearchResults {
    #[serde(default, deserialize_with = "lenient::opt_lenient")]
    #[ts(as = "Option<Vec<LinkResult>>")]
    pub data: Option<Vec<LinkResult>>,
}

#[cfg(test)]
mod tests {
    use super::*;

    const FULL_POST: &str = r#"{
        "id": "1891234567890", "text": "RT @x_data: data: hello", "reply_count": 1,
        "retweet_count": 2, "like_count": 3, "quote_count": 4, "bookmark_count": 5,
        "created_at": "2026-02-16T18:33:57.000Z", "view_count": null, "lang": "en",
        "url": "https://x.com/alice/status/1891234567890", "media": null,
        "user": {"id": "42", "username": "alice", "followers_count": "1200",
                 "brand_new_field": {"a": 1}},
        "quote": {"id": 77, "text": "q", "created_at": "Mon Mar 16 07:01:23 +0000 2026"},
        "entities": {"hashtags": [{"text": "rust", "indices": [0, 5]}], "urls": null},
        "extended_entities": {"media": []},
        "future_field": [1, 2, 3]
    }"#;

    #[test]
    fn post_tolerates_nulls_and_keeps_unknown_fields() {
        let t: Post = serde_json::from_str(FULL_POST).unwrap();
        assert_eq!(t.id, "1891234567890");
        assert_eq!(t.bookmark_count, 5);
        assert_eq!(t.view_count, None);
        assert!(t.media.is_empty());
        let user = t.user.as_ref().unwrap();
        assert_eq!(user.followers_count, Some(1200));
        assert_eq!(user.extra["brand_new_field"]["a"], 1);
        assert_eq!(t.extra["future_field"], serde_json::json!([1, 2, 3]));
        assert!(t.extra.contains_key("extended_entities"));
        let quote = t.quote.as_ref().unwrap();
        assert_eq!(quote.id, "77");
        assert_eq!(quote.like_count, 0);
        assert_eq!(t.entities.unwrap().hashtags.unwrap()[0].text, "rust");
        // Round trip keeps the unknown fields.
        let again = serde_json::to_value(serde_json::from_str::<Post>(FULL_POST).unwrap()).unwrap();
        assert_eq!(again["future_field"], serde_json::json!([1, 2, 3]));
    }

    #[test]
    fn both_created_at_forms_parse_to_the_same_instant_shape() {
        let iso = parse_created_at("2026-03-16T07:01:23.000Z").unwrap();
        let legacy = parse_created_at("Mon Mar 16 07:01:23 +0000 2026").unwrap();
        assert_eq!(iso, legacy);
        assert_eq!(parse_created_at("yesterday"), None);
    }

    #[test]
    fn post_list_reads_array_or_wrapping_object() {
        let one = r#"{"id":"1","text":"a","created_at":"x"}"#;
        let arr: Posts = serde_json::from_str(&format!("[{one}]")).unwrap();
        assert_eq!(arr.0.len(), 1);
        for wrapped in [
            format!(r#"{{"tweets":[{one},{one}],"cost_usd":"0.0006"}}"#),
            format!(r#"{{"data":[{one},{one}]}}"#),
            format!(r#"{{"whatever":[{one},{one}],"usage_count":2}}"#),
        ] {
            let list: Posts = serde_json::from_str(&wrapped).unwrap();
            assert_eq!(list.0.len(), 2, "{wrapped}");
        }
        assert!(serde_json::from_str::<Posts>(r#"{"a":1}"#).is_err());
        assert!(serde_json::from_str::<Posts>("null").unwrap().0.is_empty());
    }

    #[test]
    fn ai_result_keeps_unknown_kinds_and_reads_scores() {
        let body = r#"{"search":[{"title":"T","snippet":null,"link":"https://a"}],
            "miner_link_scores":{"https://a":"HIGH","123":"LOW","x":"SUPERB"},
            "completion":"", "tiktok_search": [1], "cost_usd": "0.004"}"#;
        let r: AiSearchResult = serde_json::from_str(body).unwrap();
        assert_eq!(r.search.as_ref().unwrap()[0].snippet, "");
        let scores = r.miner_link_scores.unwrap();
        assert_eq!(scores["https://a"], LinkScore::High);
        assert_eq!(scores["x"], LinkScore::Unknown);
        assert_eq!(r.completion.as_deref(), Some(""));
        assert!(r.extra.contains_key("tiktok_search"));
        assert_eq!(r.tweets, None);
    }

    #[test]
    fn pages_trends_and_web_results_parse() {
        let p: RepostersPage =
            serde_json::from_str(r#"{"users":[{"id":"1","username":"u"}],"next_cursor":null}"#)
                .unwrap();
        assert_eq!((p.users.len(), p.next_cursor), (1, None));
        let p: UserPostsPage = serde_json::from_str(
            r#"{"user":{"id":"1","username":"u"},"tweets":[],"next_cursor":"c2"}"#,
        )
        .unwrap();
        assert_eq!(p.next_cursor.as_deref(), Some("c2"));
        let t: Trends = serde_json::from_str(
            r##"{"trends":[{"name":"#a","query":"%23a","rank":1}],"woeid":{"name":"Worldwide","id":1}}"##,
        )
        .unwrap();
        assert_eq!(t.woeid.unwrap().id, 1);
        let w: WebSearchResults =
            serde_json::from_str(r#"{"data":[{"title":"a","snippet":"b","link":"c"}]}"#).unwrap();
        assert_eq!(w.data.unwrap().len(), 1);
        let l: WebLinksResult = serde_json::from_str(
            r#"{"search_results":null,"youtube_search_results":[],"arxiv_search_results":null,
                "reddit_search_results":null,"hacker_news_search_results":null,
                "wikipedia_search_results":null}"#,
        )
        .unwrap();
        assert_eq!(l.youtube_search_results, Some(vec![]));
    }
}
