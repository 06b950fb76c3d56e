//! Building the service's post record ([`Post`]) from another tool's fields, so an imported post
//! is stored, searched and analysed exactly as a fetched one (the analysis facts read the
//! record's `user`, `entities`, `in_reply_to_*`, `quote` and `retweet`).

use serde_json::{Map, Value};
use sightline_api::model::{Entities, EntityText, EntityUrl, Post, User, UserMention};

/// A field as text: a string as it is, a number written out; `None` for null, missing or empty.
pub(super) fn text(value: Option<&Value>) -> Option<String> {
    match value? {
        Value::String(s) if !s.is_empty() => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

/// A count: a number, or digits in a string (X writes view counts as text); 0 when missing.
pub(super) fn count(value: Option<&Value>) -> u64 {
    opt_count(value).unwrap_or(0)
}

/// A count that may be missing.
pub(super) fn opt_count(value: Option<&Value>) -> Option<u64> {
    match value? {
        Value::Number(n) => n.as_u64(),
        Value::String(s) => s.trim().parse().ok(),
        _ => None,
    }
}

/// A flag: `true`, or the words 4CAT writes (`yes`).
pub(super) fn flag(value: Option<&Value>) -> Option<bool> {
    match value? {
        Value::Bool(b) => Some(*b),
        Value::String(s) => match s.as_str() {
            "yes" | "true" | "True" | "1" => Some(true),
            "no" | "false" | "False" | "0" => Some(false),
            _ => None,
        },
        _ => None,
    }
}

/// The author as the service describes an account.
#[derive(Default)]
pub(super) struct Author {
    pub id: String,
    pub username: String,
    pub name: Option<String>,
    pub verified: Option<bool>,
    pub is_blue_verified: Option<bool>,
    pub followers_count: Option<u64>,
    pub description: Option<String>,
    pub profile_image_url: Option<String>,
    pub created_at: Option<String>,
}

impl Author {
    pub(super) fn user(self) -> User {
        User {
            id: self.id,
            username: self.username,
            name: self.name,
            url: None,
            created_at: self.created_at,
            description: self.description,
            location: None,
            followers_count: self.followers_count,
            followings_count: None,
            favourites_count: None,
            statuses_count: None,
            listed_count: None,
            media_count: None,
            profile_image_url: self.profile_image_url,
            profile_banner_url: None,
            verified: self.verified,
            is_blue_verified: self.is_blue_verified,
            extra: Map::new(),
        }
    }
}

/// A post's tags, mentions, cashtags and links, as plain lists.
#[derive(Default)]
pub(super) struct Tags {
    pub hashtags: Vec<String>,
    pub cashtags: Vec<String>,
    /// (handle, account id when known)
    pub mentions: Vec<(String, String)>,
    /// (the link as written, the address it leads to when known)
    pub urls: Vec<(String, Option<String>)>,
}

impl Tags {
    pub(super) fn entities(self) -> Option<Entities> {
        let tag = |text: String| EntityText {
            text,
            indices: Vec::new(),
        };
        let entities = Entities {
            hashtags: some(self.hashtags.into_iter().map(tag).collect()),
            symbols: some(self.cashtags.into_iter().map(tag).collect()),
            urls: some(
                self.urls
                    .into_iter()
                    .map(|(url, expanded)| EntityUrl {
                        display_url: url.clone(),
                        url,
                        expanded_url: expanded,
                        indices: Vec::new(),
                    })
                    .collect(),
            ),
            user_mentions: some(
                self.mentions
                    .into_iter()
                    .map(|(screen_name, id_str)| UserMention {
                        id_str,
                        name: String::new(),
                        screen_name,
                        indices: Vec::new(),
                    })
                    .collect(),
            ),
            media: None,
        };
        Some(entities)
    }
}

/// A list, or `None` for an empty one (as the service leaves it out).
fn some<T>(list: Vec<T>) -> Option<Vec<T>> {
    (!list.is_empty()).then_some(list)
}

/// A post with nothing but its id, text and time; the mappers fill in the rest.
pub(super) fn bare_post(id: String, text: String, created_at: String) -> Post {
    Post {
        id,
        text,
        reply_count: 0,
        retweet_count: 0,
        like_count: 0,
        quote_count: 0,
        bookmark_count: 0,
        created_at,
        user: None,
        url: None,
        view_count: None,
        lang: None,
        media: Vec::new(),
        is_retweet: None,
        is_quote_tweet: None,
        conversation_id: None,
        in_reply_to_screen_name: None,
        in_reply_to_status_id: None,
        in_reply_to_user_id: None,
        quoted_status_id: None,
        quote: None,
        retweet: None,
        entities: None,
        extra: Map::new(),
    }
}

/// The post's address on X, when its author's handle is known.
pub(super) fn post_url(username: &str, id: &str) -> Option<String> {
    (!username.is_empty()).then(|| format!("https://x.com/{username}/status/{id}"))
}

/// Whether `id` can be an X post id: digits only.
pub(super) fn is_post_id(id: &str) -> bool {
    !id.is_empty() && id.len() <= 20 && id.bytes().all(|b| b.is_ascii_digit())
}
