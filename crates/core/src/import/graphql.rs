//! X's own web records (its GraphQL `Tweet` results), as Zeeschuimer captures them and 4CAT
//! keeps them under `data`: `rest_id`; `core.user_results.result` (the author: `rest_id`,
//! `legacy.screen_name`, `legacy.name`, `legacy.verified`, `legacy.followers_count`,
//! `is_blue_verified`; newer pages put `screen_name` and `name` under `core`); `legacy`
//! (`full_text`, `created_at` in X's legacy form, `conversation_id_str`,
//! `in_reply_to_status_id_str`, `in_reply_to_screen_name`, `in_reply_to_user_id_str`,
//! `quoted_status_id_str`, `lang`, `favorite_count`, `retweet_count`, `reply_count`,
//! `quote_count`, `bookmark_count`, `entities`, `retweeted_status_result`);
//! `quoted_status_result`; `views.count`; a long post's text in `note_tweet`. A result wrapped
//! as `TweetWithVisibilityResults` holds the tweet under `tweet`.

use serde_json::Value;
use sightline_api::model::{parse_created_at, Post};

use super::record::{bare_post, count, flag, opt_count, post_url, text, Author, Tags};
use super::Item;

/// The tweet inside a result, unwrapped from `TweetWithVisibilityResults`.
fn unwrap(result: &Value) -> &Value {
    match result.get("tweet") {
        Some(tweet) if result.get("rest_id").is_none() => tweet,
        _ => result,
    }
}

/// One GraphQL record: a post, or why it is none.
pub(super) fn item(record: &Value) -> Item {
    let record = unwrap(record);
    if !record.is_object() {
        return Item::Unreadable("not a JSON object".into());
    }
    match record.get("__typename").and_then(Value::as_str) {
        Some("User") => return Item::NotAPost("an account, not a post".into()),
        Some("TweetTombstone") => {
            return Item::NotAPost("a post X no longer shows (a tombstone)".into())
        }
        _ => {}
    }
    if record.get("legacy").is_none() {
        return Item::NotAPost("a record that is not a post".into());
    }
    match post(record, true) {
        Ok(post) => Item::Post(Box::new(post)),
        Err(why) => Item::Unreadable(why),
    }
}

fn author(result: &Value) -> Author {
    let legacy = result.get("legacy");
    let core = result.get("core");
    let field = |key: &str| text(core.and_then(|c| c.get(key))).or_else(|| text(legacy?.get(key)));
    Author {
        id: text(result.get("rest_id")).unwrap_or_default(),
        username: field("screen_name").unwrap_or_default(),
        name: field("name"),
        verified: legacy.and_then(|l| flag(l.get("verified"))),
        is_blue_verified: flag(result.get("is_blue_verified")),
        followers_count: legacy.and_then(|l| opt_count(l.get("followers_count"))),
        description: legacy.and_then(|l| text(l.get("description"))),
        profile_image_url: legacy.and_then(|l| text(l.get("profile_image_url_https"))),
        created_at: field("created_at"),
    }
}

fn tags(entities: Option<&Value>) -> Tags {
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
            .filter_map(|t| text(t.get("text")))
            .collect(),
        cashtags: list("symbols")
            .into_iter()
            .filter_map(|t| text(t.get("text")))
            .collect(),
        mentions: list("user_mentions")
            .into_iter()
            .filter_map(|m| {
                Some((
                    text(m.get("screen_name"))?,
                    text(m.get("id_str")).unwrap_or_default(),
                ))
            })
            .collect(),
        urls: list("urls")
            .into_iter()
            .filter_map(|u| Some((text(u.get("url"))?, text(u.get("expanded_url")))))
            .collect(),
    }
}

fn post(record: &Value, nest: bool) -> Result<Post, String> {
    let legacy = &record["legacy"];
    let id = text(record.get("rest_id"))
        .or_else(|| text(legacy.get("id_str")))
        .ok_or("a post without an id")?;
    let created_at = text(legacy.get("created_at")).unwrap_or_default();
    if parse_created_at(&created_at).is_none() {
        return Err(format!("post {id} has no readable time"));
    }
    let long_text = record.pointer("/note_tweet/note_tweet_results/result/text");
    let body = text(long_text)
        .or_else(|| text(legacy.get("full_text")))
        .unwrap_or_default();
    let mut post = bare_post(id, body, created_at);
    post.retweet_count = count(legacy.get("retweet_count"));
    post.reply_count = count(legacy.get("reply_count"));
    post.like_count = count(legacy.get("favorite_count"));
    post.quote_count = count(legacy.get("quote_count"));
    post.bookmark_count = count(legacy.get("bookmark_count"));
    post.view_count = opt_count(record.pointer("/views/count"));
    post.lang = text(legacy.get("lang"));
    post.conversation_id = text(legacy.get("conversation_id_str"));
    post.in_reply_to_status_id = text(legacy.get("in_reply_to_status_id_str"));
    post.in_reply_to_screen_name = text(legacy.get("in_reply_to_screen_name"));
    post.in_reply_to_user_id = text(legacy.get("in_reply_to_user_id_str"));
    post.quoted_status_id = text(legacy.get("quoted_status_id_str"));
    if let Some(user) = record.pointer("/core/user_results/result") {
        post.user = Some(author(user).user());
    }
    let username = post.user.as_ref().map(|u| u.username.clone());
    post.url = post_url(username.as_deref().unwrap_or_default(), &post.id);
    post.entities = tags(legacy.get("entities")).entities();
    if nest {
        if let Some(quoted) = record.pointer("/quoted_status_result/result") {
            post.is_quote_tweet = Some(true);
            post.quote = post_inside(unwrap(quoted));
        }
        if let Some(reposted) = legacy.pointer("/retweeted_status_result/result") {
            post.is_retweet = Some(true);
            post.retweet = post_inside(unwrap(reposted));
        }
    }
    Ok(post)
}

fn post_inside(record: &Value) -> Option<Box<Post>> {
    record.get("legacy")?;
    post(record, false).ok().map(Box::new)
}
