//! X API v2 tweets, as twarc2 writes them: raw pages (`data` with `includes.users`,
//! `includes.tweets`, `includes.media` beside it) and `twarc2 flatten` lines (one tweet, its
//! `author`, `in_reply_to_user` and each referenced tweet's `tweet` inside it). 4CAT's
//! NDJSON of a v2 collection holds the same flattened tweet under `data`.
//!
//! Field names are the v2 API's: `id`, `text`, `created_at`, `author_id`, `conversation_id`,
//! `lang`, `public_metrics` (`retweet_count`, `reply_count`, `like_count`, `quote_count`,
//! `bookmark_count`, `impression_count`), `entities` (`hashtags[].tag`, `cashtags[].tag`,
//! `mentions[].username`, `urls[].expanded_url`), `referenced_tweets[]` (`type`:
//! `replied_to`, `quoted`, `retweeted`; `id`), `in_reply_to_user_id`; a user's `username`,
//! `name`, `verified`, `public_metrics.followers_count`.

use std::collections::HashMap;

use serde_json::Value;
use sightline_api::model::{parse_created_at, Post};

use super::record::{bare_post, count, opt_count, post_url, text, Author, Tags};
use super::Item;

/// A page's `includes`: users and referenced tweets by id.
#[derive(Default)]
pub(super) struct Includes<'a> {
    users: HashMap<&'a str, &'a Value>,
    tweets: HashMap<&'a str, &'a Value>,
}

impl<'a> Includes<'a> {
    pub(super) fn of_page(page: &'a Value) -> Self {
        let by_id = |list: Option<&'a Value>| {
            list.and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(|item| Some((item.get("id")?.as_str()?, item)))
                .collect::<HashMap<_, _>>()
        };
        let includes = page.get("includes");
        Includes {
            users: by_id(includes.and_then(|i| i.get("users"))),
            tweets: by_id(includes.and_then(|i| i.get("tweets"))),
        }
    }
}

/// The items of one raw page: each tweet of `data`, or why the page holds none.
pub(super) fn page_items(page: &Value) -> Vec<Item> {
    let includes = Includes::of_page(page);
    match page.get("data") {
        Some(Value::Array(tweets)) if !tweets.is_empty() => tweets
            .iter()
            .map(|tweet| tweet_item(tweet, &includes))
            .collect(),
        Some(Value::Object(_)) => vec![tweet_item(&page["data"], &includes)],
        _ if page.get("errors").is_some() => vec![Item::NotAPost(
            "an error page from the X API, with no posts".into(),
        )],
        _ => vec![Item::NotAPost("a page with no posts".into())],
    }
}

/// One tweet (flattened, or of a page with its `includes`).
pub(super) fn tweet_item(tweet: &Value, includes: &Includes) -> Item {
    if !tweet.is_object() {
        return Item::Unreadable("not a JSON object".into());
    }
    if tweet.get("text").is_none() && tweet.get("username").is_some() {
        return Item::NotAPost("an account, not a post".into());
    }
    match tweet_post(tweet, includes, true) {
        Ok(post) => Item::Post(Box::new(post)),
        Err(why) => Item::Unreadable(why),
    }
}

fn author_of(user: &Value) -> Author {
    Author {
        id: text(user.get("id")).unwrap_or_default(),
        username: text(user.get("username")).unwrap_or_default(),
        name: text(user.get("name")),
        verified: user.get("verified").and_then(Value::as_bool),
        is_blue_verified: user
            .get("verified_type")
            .and_then(Value::as_str)
            .map(|kind| kind == "blue"),
        followers_count: opt_count(user.pointer("/public_metrics/followers_count")),
        description: text(user.get("description")),
        profile_image_url: text(user.get("profile_image_url")),
        created_at: text(user.get("created_at")),
    }
}

fn tags_of(entities: Option<&Value>) -> Tags {
    let list = |key: &str| -> Vec<&Value> {
        entities
            .and_then(|e| e.get(key))
            .and_then(Value::as_array)
            .map(|items| items.iter().collect())
            .unwrap_or_default()
    };
    Tags {
        hashtags: list("hashtags")
            .into_iter()
            .filter_map(|t| text(t.get("tag")))
            .collect(),
        cashtags: list("cashtags")
            .into_iter()
            .filter_map(|t| text(t.get("tag")))
            .collect(),
        mentions: list("mentions")
            .into_iter()
            .filter_map(|m| {
                Some((
                    text(m.get("username"))?,
                    text(m.get("id")).unwrap_or_default(),
                ))
            })
            .collect(),
        urls: list("urls")
            .into_iter()
            .filter_map(|u| Some((text(u.get("url"))?, text(u.get("expanded_url")))))
            .collect(),
    }
}

/// The v2 tweet as the service's record; `nest` maps the tweets it replies to, quotes or
/// reposts one level down.
fn tweet_post(tweet: &Value, includes: &Includes, nest: bool) -> Result<Post, String> {
    let id = text(tweet.get("id")).ok_or("a post without an id")?;
    let created_at = text(tweet.get("created_at")).unwrap_or_default();
    if parse_created_at(&created_at).is_none() {
        return Err(format!("post {id} has no readable time"));
    }
    let mut post = bare_post(id, text(tweet.get("text")).unwrap_or_default(), created_at);
    let metrics = tweet.get("public_metrics");
    let metric = |key: &str| metrics.and_then(|m| m.get(key));
    post.retweet_count = count(metric("retweet_count"));
    post.reply_count = count(metric("reply_count"));
    post.like_count = count(metric("like_count"));
    post.quote_count = count(metric("quote_count"));
    post.bookmark_count = count(metric("bookmark_count"));
    post.view_count = opt_count(metric("impression_count"));
    post.lang = text(tweet.get("lang"));
    post.conversation_id = text(tweet.get("conversation_id"));
    post.in_reply_to_user_id = text(tweet.get("in_reply_to_user_id"));

    let author_id = text(tweet.get("author_id"));
    let author = tweet.get("author").or_else(|| {
        author_id
            .as_deref()
            .and_then(|id| includes.users.get(id).copied())
    });
    if let Some(author) = author {
        post.user = Some(author_of(author).user());
    } else if let Some(id) = author_id {
        post.user = Some(
            Author {
                id,
                ..Author::default()
            }
            .user(),
        );
    }
    let username = post.user.as_ref().map(|u| u.username.clone());
    post.url = post_url(username.as_deref().unwrap_or_default(), &post.id);
    post.entities = tags_of(tweet.get("entities")).entities();

    let replied_user = tweet.get("in_reply_to_user").or_else(|| {
        post.in_reply_to_user_id
            .as_deref()
            .and_then(|id| includes.users.get(id).copied())
    });
    post.in_reply_to_screen_name = replied_user.and_then(|u| text(u.get("username")));

    for reference in tweet
        .get("referenced_tweets")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let Some(ref_id) = text(reference.get("id")) else {
            continue;
        };
        let inner = reference
            .get("tweet")
            .or_else(|| includes.tweets.get(ref_id.as_str()).copied())
            .filter(|_| nest)
            .and_then(|inner| tweet_post(inner, includes, false).ok())
            .map(Box::new);
        match reference.get("type").and_then(Value::as_str) {
            Some("replied_to") => post.in_reply_to_status_id = Some(ref_id),
            Some("quoted") => {
                post.quoted_status_id = Some(ref_id);
                post.is_quote_tweet = Some(true);
                post.quote = inner;
            }
            Some("retweeted") => {
                post.is_retweet = Some(true);
                post.retweet = inner;
            }
            _ => {}
        }
    }
    Ok(post)
}
