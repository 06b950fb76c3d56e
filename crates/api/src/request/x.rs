//! The X family (GET, billed per post returned): search, posts by link or id, a user's
//! posts and replies, reposters, trends.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::{push_bool, push_text, ApiRequest, Encoded};
use crate::lenient;
use crate::model::{Post, Posts, RepostersPage, Trends, UserPostsPage};
use crate::operation::Operation;
use crate::validation::{parse_day, Checks, FieldError};

wire_enum!(
    /// Ordering of the X search.
    Sort { Top = "Top", Latest = "Latest" } default Top
);

/// X handles are typed with or without `@`; the service wants them without.
fn handle(value: &str) -> String {
    crate::validation::bare_handle(value).to_owned()
}

/// `GET /twitter`: the X search.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(default)]
pub struct TwitterSearchRequest {
    pub query: String,
    pub sort: Sort,
    pub user: Option<String>,
    pub start_date: Option<String>,
    pub end_date: Option<String>,
    pub lang: Option<String>,
    pub verified: Option<bool>,
    pub blue_verified: Option<bool>,
    pub is_quote: Option<bool>,
    pub is_video: Option<bool>,
    pub is_image: Option<bool>,
    /// An integer, as number or numeric text.
    #[serde(deserialize_with = "lenient::opt_text_number")]
    pub min_retweets: Option<String>,
    #[serde(deserialize_with = "lenient::opt_text_number")]
    pub min_replies: Option<String>,
    #[serde(deserialize_with = "lenient::opt_text_number")]
    pub min_likes: Option<String>,
    pub count: i64,
}

impl Default for TwitterSearchRequest {
    fn default() -> Self {
        TwitterSearchRequest {
            query: String::new(),
            sort: Sort::Top,
            user: None,
            start_date: None,
            end_date: None,
            lang: None,
            verified: None,
            blue_verified: None,
            is_quote: None,
            is_video: None,
            is_image: None,
            min_retweets: None,
            min_replies: None,
            min_likes: None,
            count: 20,
        }
    }
}

impl TwitterSearchRequest {
    pub fn new(query: impl Into<String>) -> Self {
        TwitterSearchRequest {
            query: query.into(),
            ..Default::default()
        }
    }
}

impl ApiRequest for TwitterSearchRequest {
    type Output = Posts;
    const OPERATION: Operation = Operation::TwitterSearch;

    fn validate(&self) -> Result<(), Vec<FieldError>> {
        let mut checks = Checks::default();
        checks.required("query", &self.query, "Type what to search for on X.");
        checks.range("count", self.count, 1, 100);
        checks.day("start_date", self.start_date.as_deref());
        checks.day("end_date", self.end_date.as_deref());
        if let (Some(start), Some(end)) = (
            self.start_date.as_deref().and_then(|s| parse_day(s.trim())),
            self.end_date.as_deref().and_then(|s| parse_day(s.trim())),
        ) {
            if start > end {
                checks.add("end_date", "The end date is before the start date.");
            }
        }
        checks.whole_number("min_retweets", self.min_retweets.as_deref());
        checks.whole_number("min_replies", self.min_replies.as_deref());
        checks.whole_number("min_likes", self.min_likes.as_deref());
        checks.finish()
    }

    fn encode(&self) -> Encoded {
        let mut q = vec![
            ("query", self.query.trim().to_owned()),
            ("sort", self.sort.as_str().to_owned()),
        ];
        push_text(&mut q, "user", &self.user.as_deref().map(handle));
        push_text(&mut q, "start_date", &self.start_date);
        push_text(&mut q, "end_date", &self.end_date);
        push_text(&mut q, "lang", &self.lang);
        push_bool(&mut q, "verified", self.verified);
        push_bool(&mut q, "blue_verified", self.blue_verified);
        push_bool(&mut q, "is_quote", self.is_quote);
        push_bool(&mut q, "is_video", self.is_video);
        push_bool(&mut q, "is_image", self.is_image);
        push_text(&mut q, "min_retweets", &self.min_retweets);
        push_text(&mut q, "min_replies", &self.min_replies);
        push_text(&mut q, "min_likes", &self.min_likes);
        q.push(("count", self.count.to_string()));
        Encoded::Query(q)
    }
}

/// `GET /twitter/urls`: posts by their links.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, TS)]
#[serde(default)]
pub struct TwitterUrlsRequest {
    pub urls: Vec<String>,
}

/// True for `https://x.com/{user}/status/{digits}` and its twitter.com/mobile forms.
pub fn is_post_url(value: &str) -> bool {
    let Ok(url) = reqwest::Url::parse(value.trim()) else {
        return false;
    };
    let host_ok = matches!(
        url.host_str(),
        Some(
            "x.com"
                | "www.x.com"
                | "mobile.x.com"
                | "twitter.com"
                | "www.twitter.com"
                | "mobile.twitter.com"
        )
    );
    let segments: Vec<&str> = url.path_segments().map(|s| s.collect()).unwrap_or_default();
    // `/{user}/status/{id}`, or `/i/web/status/{id}`, the form X uses where it names no user.
    let id = match segments.as_slice() {
        ["i", "web", "status", id, ..] => Some(*id),
        [user, "status", id, ..] if !user.is_empty() => Some(*id),
        _ => None,
    };
    let path_ok = id.is_some_and(|id| !id.is_empty() && id.chars().all(|c| c.is_ascii_digit()));
    matches!(url.scheme(), "http" | "https") && host_ok && path_ok
}

impl ApiRequest for TwitterUrlsRequest {
    type Output = Posts;
    const OPERATION: Operation = Operation::TwitterUrls;

    fn validate(&self) -> Result<(), Vec<FieldError>> {
        let mut checks = Checks::default();
        let urls: Vec<&str> = self
            .urls
            .iter()
            .map(|u| u.trim())
            .filter(|u| !u.is_empty())
            .collect();
        if urls.is_empty() {
            checks.add("urls", "Add at least one link to a post on X.");
        }
        for url in urls {
            if !is_post_url(url) {
                checks.add(
                    "urls",
                    format!(
                        "\"{url}\" is not a link to a post on X. It should look like \
                         https://x.com/name/status/1234567890."
                    ),
                );
            }
        }
        checks.finish()
    }

    fn encode(&self) -> Encoded {
        Encoded::Query(
            self.urls
                .iter()
                .map(|u| u.trim())
                .filter(|u| !u.is_empty())
                .map(|u| ("urls", u.to_owned()))
                .collect(),
        )
    }
}

/// `GET /twitter/post`: one post by id.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, TS)]
#[serde(default)]
pub struct TwitterPostRequest {
    pub id: String,
}

impl ApiRequest for TwitterPostRequest {
    type Output = Post;
    const OPERATION: Operation = Operation::TwitterPost;

    fn validate(&self) -> Result<(), Vec<FieldError>> {
        let mut checks = Checks::default();
        checks.post_id("id", &self.id);
        checks.finish()
    }

    fn encode(&self) -> Encoded {
        Encoded::Query(vec![("id", self.id.trim().to_owned())])
    }
}

/// `GET /twitter/post/user`: a user's posts matching a query.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(default)]
pub struct TwitterPostUserRequest {
    pub user: String,
    pub query: String,
    pub count: i64,
}

impl Default for TwitterPostUserRequest {
    fn default() -> Self {
        TwitterPostUserRequest {
            user: String::new(),
            query: String::new(),
            count: 10,
        }
    }
}

impl ApiRequest for TwitterPostUserRequest {
    type Output = Posts;
    const OPERATION: Operation = Operation::TwitterPostUser;

    fn validate(&self) -> Result<(), Vec<FieldError>> {
        let mut checks = Checks::default();
        checks.handle("user", &self.user);
        checks.range("count", self.count, 1, 100);
        checks.finish()
    }

    fn encode(&self) -> Encoded {
        let mut q = vec![("user", handle(&self.user))];
        push_text(&mut q, "query", &Some(self.query.clone()));
        q.push(("count", self.count.to_string()));
        Encoded::Query(q)
    }
}

/// `GET /twitter/post/retweeters`: one page of the users who reposted a post.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, TS)]
#[serde(default)]
pub struct TwitterRetweetersRequest {
    pub id: String,
    pub cursor: Option<String>,
}

impl ApiRequest for TwitterRetweetersRequest {
    type Output = RepostersPage;
    const OPERATION: Operation = Operation::TwitterRetweeters;

    fn validate(&self) -> Result<(), Vec<FieldError>> {
        let mut checks = Checks::default();
        checks.post_id("id", &self.id);
        checks.finish()
    }

    fn encode(&self) -> Encoded {
        let mut q = vec![("id", self.id.trim().to_owned())];
        push_text(&mut q, "cursor", &self.cursor);
        Encoded::Query(q)
    }
}

/// `GET /twitter/user/posts`: one page of a user's timeline.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, TS)]
#[serde(default)]
pub struct TwitterUserPostsRequest {
    pub username: String,
    pub cursor: Option<String>,
}

impl ApiRequest for TwitterUserPostsRequest {
    type Output = UserPostsPage;
    const OPERATION: Operation = Operation::TwitterUserPosts;

    fn validate(&self) -> Result<(), Vec<FieldError>> {
        let mut checks = Checks::default();
        checks.handle("username", &self.username);
        checks.finish()
    }

    fn encode(&self) -> Encoded {
        let mut q = vec![("username", handle(&self.username))];
        push_text(&mut q, "cursor", &self.cursor);
        Encoded::Query(q)
    }
}

/// `GET /twitter/replies`: replies written by a user.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(default)]
pub struct TwitterRepliesRequest {
    pub user: String,
    pub count: i64,
    pub query: String,
}

impl Default for TwitterRepliesRequest {
    fn default() -> Self {
        TwitterRepliesRequest {
            user: String::new(),
            count: 10,
            query: String::new(),
        }
    }
}

impl ApiRequest for TwitterRepliesRequest {
    type Output = Posts;
    const OPERATION: Operation = Operation::TwitterReplies;

    fn validate(&self) -> Result<(), Vec<FieldError>> {
        let mut checks = Checks::default();
        checks.handle("user", &self.user);
        checks.range("count", self.count, 1, 100);
        checks.finish()
    }

    fn encode(&self) -> Encoded {
        let mut q = vec![
            ("user", handle(&self.user)),
            ("count", self.count.to_string()),
        ];
        push_text(&mut q, "query", &Some(self.query.clone()));
        Encoded::Query(q)
    }
}

/// `GET /twitter/replies/post`: replies to one post.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(default)]
pub struct TwitterRepliesPostRequest {
    pub post_id: String,
    pub count: i64,
    pub query: String,
}

impl Default for TwitterRepliesPostRequest {
    fn default() -> Self {
        TwitterRepliesPostRequest {
            post_id: String::new(),
            count: 10,
            query: String::new(),
        }
    }
}

impl ApiRequest for TwitterRepliesPostRequest {
    type Output = Posts;
    const OPERATION: Operation = Operation::TwitterRepliesPost;

    fn validate(&self) -> Result<(), Vec<FieldError>> {
        let mut checks = Checks::default();
        checks.post_id("post_id", &self.post_id);
        checks.range("count", self.count, 1, 100);
        checks.finish()
    }

    fn encode(&self) -> Encoded {
        let mut q = vec![
            ("post_id", self.post_id.trim().to_owned()),
            ("count", self.count.to_string()),
        ];
        push_text(&mut q, "query", &Some(self.query.clone()));
        Encoded::Query(q)
    }
}

/// `GET /twitter/trends`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(default)]
pub struct TwitterTrendsRequest {
    /// Where On Earth ID; 1 is worldwide. Required.
    pub woeid: Option<i64>,
    pub count: i64,
}

impl Default for TwitterTrendsRequest {
    fn default() -> Self {
        TwitterTrendsRequest {
            woeid: Some(1),
            count: 30,
        }
    }
}

impl ApiRequest for TwitterTrendsRequest {
    type Output = Trends;
    const OPERATION: Operation = Operation::TwitterTrends;

    fn validate(&self) -> Result<(), Vec<FieldError>> {
        let mut checks = Checks::default();
        match self.woeid {
            None => checks.add("woeid", "Enter a place number (WOEID); 1 means worldwide."),
            Some(w) if w < 1 => checks.add(
                "woeid",
                format!(
                    "A place number (WOEID) is 1 or more; 1 means worldwide (you entered {w})."
                ),
            ),
            Some(_) => {}
        }
        checks.range("count", self.count, 30, 100);
        checks.finish()
    }

    fn encode(&self) -> Encoded {
        Encoded::Query(vec![
            ("woeid", self.woeid.unwrap_or(1).to_string()),
            ("count", self.count.to_string()),
        ])
    }
}
