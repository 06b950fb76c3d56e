//! 4CAT's X/Twitter CSV export: one post a row, the columns its X data source maps each item
//! to: `id`, `thread_id`, `timestamp` (`YYYY-MM-DD HH:MM:SS`, UTC), `unix_timestamp`, `link`,
//! `body`, `author`, `author_fullname`, `author_id`, `author_avatar_url`, `source`,
//! `language_guess`, `possibly_sensitive`, `retweet_count`, `reply_count`, `like_count`,
//! `quote_count`, `impression_count`, `is_retweet`, `retweeted_user`, `is_quote_tweet`,
//! `quoted_user`, `is_reply`, `replied_user`, `hashtags`, `urls`, `images`, `videos`,
//! `mentions` (lists comma-separated), `long_lat`, `place_name`. Only what a row holds is kept:
//! a row names the account it replies to, not the post.

use chrono::{DateTime, NaiveDateTime, SecondsFormat, Utc};
use serde_json::Value;
use sightline_api::model::Post;

use super::record::{bare_post, count, flag, is_post_id, opt_count, text, Author, Tags};
use super::Item;

/// The columns that tell a 4CAT X/Twitter CSV apart.
pub(super) const KEY_COLUMNS: [&str; 4] = ["id", "thread_id", "body", "author"];

/// A CSV row, by its header's names.
pub(super) struct Row<'a> {
    pub header: &'a [String],
    pub cells: Vec<String>,
}

impl Row<'_> {
    fn get(&self, column: &str) -> Option<Value> {
        let at = self.header.iter().position(|name| name == column)?;
        let cell = self.cells.get(at)?.trim();
        (!cell.is_empty()).then(|| Value::String(cell.to_owned()))
    }

    fn list(&self, column: &str) -> Vec<String> {
        self.get(column)
            .and_then(|v| v.as_str().map(str::to_owned))
            .map(|cell| {
                cell.split(',')
                    .map(str::trim)
                    .filter(|s| !s.is_empty())
                    .map(str::to_owned)
                    .collect()
            })
            .unwrap_or_default()
    }
}

/// When the row says it was posted: `unix_timestamp`, else `timestamp` read as UTC.
fn posted(row: &Row) -> Option<String> {
    let from_unix = opt_count(row.get("unix_timestamp").as_ref())
        .and_then(|s| DateTime::<Utc>::from_timestamp(i64::try_from(s).ok()?, 0));
    let from_text = || {
        let cell = row.get("timestamp")?;
        let naive = NaiveDateTime::parse_from_str(cell.as_str()?, "%Y-%m-%d %H:%M:%S").ok()?;
        Some(naive.and_utc())
    };
    from_unix
        .or_else(from_text)
        .map(|t| t.to_rfc3339_opts(SecondsFormat::Secs, true))
}

/// One row: a post, or why it is none.
pub(super) fn item(row: &Row) -> Item {
    if row.cells.iter().all(|cell| cell.trim().is_empty()) {
        return Item::NotAPost("an empty row".into());
    }
    let Some(id) = text(row.get("id").as_ref()) else {
        return Item::Unreadable("a row without an id".into());
    };
    if !is_post_id(&id) {
        return Item::NotAPost(format!("{id:?} is not an X post id"));
    }
    let Some(created_at) = posted(row) else {
        return Item::Unreadable(format!("post {id} has no readable time"));
    };
    Item::Post(Box::new(post(row, id, created_at)))
}

fn post(row: &Row, id: String, created_at: String) -> Post {
    let cell = |column: &str| row.get(column);
    let mut post = bare_post(
        id,
        text(cell("body").as_ref()).unwrap_or_default(),
        created_at,
    );
    post.retweet_count = count(cell("retweet_count").as_ref());
    post.reply_count = count(cell("reply_count").as_ref());
    post.like_count = count(cell("like_count").as_ref());
    post.quote_count = count(cell("quote_count").as_ref());
    post.view_count = opt_count(cell("impression_count").as_ref());
    post.lang = text(cell("language_guess").as_ref()).or_else(|| text(cell("lang").as_ref()));
    post.conversation_id = text(cell("thread_id").as_ref());
    post.url = text(cell("link").as_ref());
    let username = text(cell("author").as_ref()).unwrap_or_default();
    post.user = Some(
        Author {
            id: text(cell("author_id").as_ref()).unwrap_or_default(),
            username,
            name: text(cell("author_fullname").as_ref()),
            verified: flag(cell("verified").as_ref()),
            profile_image_url: text(cell("author_avatar_url").as_ref()),
            ..Author::default()
        }
        .user(),
    );
    if flag(cell("is_reply").as_ref()) == Some(true) {
        post.in_reply_to_screen_name = text(cell("replied_user").as_ref());
    }
    post.is_retweet = flag(cell("is_retweet").as_ref());
    post.is_quote_tweet = flag(cell("is_quote_tweet").as_ref());
    post.entities = Tags {
        hashtags: row.list("hashtags"),
        cashtags: Vec::new(),
        mentions: row
            .list("mentions")
            .into_iter()
            .map(|m| (m, String::new()))
            .collect(),
        urls: row
            .list("urls")
            .into_iter()
            .map(|u| (u.clone(), Some(u)))
            .collect(),
    }
    .entities();
    post
}
