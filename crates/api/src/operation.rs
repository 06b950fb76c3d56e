//! The service's operations, with stable names used in history and by the UI.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// HTTP method of an operation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    Get,
    Post,
}

/// Every operation of the contract. The snake_case names are stable: they are stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum Operation {
    AiSearch,
    LinksWeb,
    LinksTwitter,
    TwitterSearch,
    TwitterUrls,
    TwitterPost,
    TwitterPostUser,
    TwitterRetweeters,
    TwitterUserPosts,
    TwitterReplies,
    TwitterRepliesPost,
    TwitterTrends,
    WebSearch,
    WebCrawl,
    Forecast,
    ForecastStatus,
}

impl Operation {
    pub const ALL: [Operation; 16] = [
        Operation::AiSearch,
        Operation::LinksWeb,
        Operation::LinksTwitter,
        Operation::TwitterSearch,
        Operation::TwitterUrls,
        Operation::TwitterPost,
        Operation::TwitterPostUser,
        Operation::TwitterRetweeters,
        Operation::TwitterUserPosts,
        Operation::TwitterReplies,
        Operation::TwitterRepliesPost,
        Operation::TwitterTrends,
        Operation::WebSearch,
        Operation::WebCrawl,
        Operation::Forecast,
        Operation::ForecastStatus,
    ];

    /// The stable name, e.g. `twitter_post_user`.
    pub fn as_str(self) -> &'static str {
        match self {
            Operation::AiSearch => "ai_search",
            Operation::LinksWeb => "links_web",
            Operation::LinksTwitter => "links_twitter",
            Operation::TwitterSearch => "twitter_search",
            Operation::TwitterUrls => "twitter_urls",
            Operation::TwitterPost => "twitter_post",
            Operation::TwitterPostUser => "twitter_post_user",
            Operation::TwitterRetweeters => "twitter_retweeters",
            Operation::TwitterUserPosts => "twitter_user_posts",
            Operation::TwitterReplies => "twitter_replies",
            Operation::TwitterRepliesPost => "twitter_replies_post",
            Operation::TwitterTrends => "twitter_trends",
            Operation::WebSearch => "web_search",
            Operation::WebCrawl => "web_crawl",
            Operation::Forecast => "forecast",
            Operation::ForecastStatus => "forecast_status",
        }
    }

    /// The operation in words a reader recognises, for history rows, filters, spend lines and
    /// reports. The UI's table (`ui/src/lib/bindings/operationNames.ts`) is written from this
    /// one when the tests export the bindings.
    pub fn label(self) -> &'static str {
        match self {
            Operation::AiSearch => "AI search",
            Operation::LinksWeb => "Web links",
            Operation::LinksTwitter => "X links",
            Operation::TwitterSearch => "X search",
            Operation::TwitterUrls => "Posts by link",
            Operation::TwitterPost => "One post",
            Operation::TwitterPostUser => "A user's posts",
            Operation::TwitterRetweeters => "Reposters",
            Operation::TwitterUserPosts => "Timeline",
            Operation::TwitterReplies => "A user's replies",
            Operation::TwitterRepliesPost => "Replies to a post",
            Operation::TwitterTrends => "Trends",
            Operation::WebSearch => "Web search",
            Operation::WebCrawl => "Page text",
            Operation::Forecast => "Forecast",
            Operation::ForecastStatus => "Forecast status",
        }
    }

    /// The label of a stored operation name; one this version does not know is shown as stored.
    pub fn label_of(name: &str) -> &str {
        match Operation::from_name(name) {
            Some(op) => op.label(),
            None => name,
        }
    }

    /// Inverse of [`Operation::as_str`].
    pub fn from_name(name: &str) -> Option<Operation> {
        Operation::ALL.into_iter().find(|op| op.as_str() == name)
    }

    /// The path below the base URL.
    pub fn path(self) -> &'static str {
        match self {
            Operation::AiSearch => "/service/ai/search",
            Operation::LinksWeb => "/service/ai/search/links/web",
            Operation::LinksTwitter => "/service/ai/search/links/twitter",
            Operation::TwitterSearch => "/twitter",
            Operation::TwitterUrls => "/twitter/urls",
            Operation::TwitterPost => "/twitter/post",
            Operation::TwitterPostUser => "/twitter/post/user",
            Operation::TwitterRetweeters => "/twitter/post/retweeters",
            Operation::TwitterUserPosts => "/twitter/user/posts",
            Operation::TwitterReplies => "/twitter/replies",
            Operation::TwitterRepliesPost => "/twitter/replies/post",
            Operation::TwitterTrends => "/twitter/trends",
            Operation::WebSearch => "/web",
            Operation::WebCrawl => "/web/crawl",
            Operation::Forecast => "/numinous/forecasts",
            // The id follows: see ForecastStatusRequest::path.
            Operation::ForecastStatus => "/numinous/forecasts/{prediction_id}",
        }
    }

    pub fn method(self) -> Method {
        match self {
            Operation::AiSearch
            | Operation::LinksWeb
            | Operation::LinksTwitter
            | Operation::Forecast => Method::Post,
            _ => Method::Get,
        }
    }
}

impl std::fmt::Display for Operation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_stable_and_round_trip() {
        for op in Operation::ALL {
            assert_eq!(Operation::from_name(op.as_str()), Some(op));
            let json = serde_json::to_string(&op).unwrap();
            assert_eq!(json, format!("\"{}\"", op.as_str()));
        }
        assert_eq!(
            Operation::TwitterRepliesPost.as_str(),
            "twitter_replies_post"
        );
        assert_eq!(Operation::AiSearch.method(), Method::Post);
        assert_eq!(Operation::WebCrawl.method(), Method::Get);
    }
}
