//! What a response found, in the store's terms: posts, users and links to archive, how many
//! results it had, and the cursor of the next page. One implementation per response type.

use sightline_api::model::{
    AiSearchResult, LinkResult, LinkScore, Post, Posts, RepostersPage, Trends, TwitterLinksResult,
    User, UserPostsPage, WebLinksResult, WebSearchResults,
};
use sightline_store::{LinkSource, NewLink, NewPost, NewUser};

#[derive(Debug, Default)]
pub struct Findings {
    pub posts: Vec<NewPost>,
    pub users: Vec<NewUser>,
    pub links: Vec<NewLink>,
    /// Results the user sees (posts, users, links, trends or pages).
    pub result_count: i64,
    pub next_cursor: Option<String>,
}

pub trait Findable {
    fn findings(&self) -> Findings;
}

fn count(n: usize) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

fn to_i64(n: u64) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

/// A post and, inside it, the posts it quotes or reposts: each is archived on its own, the
/// ones inside marked `nested`.
fn push_post(post: &Post, nested: bool, posts: &mut Vec<NewPost>) {
    let Some(stored) = new_post(post, nested) else {
        tracing::warn!(post = %post.id, "post without a readable time was not archived");
        return;
    };
    posts.push(stored);
    for inside in [&post.quote, &post.retweet].into_iter().flatten() {
        push_post(inside, true, posts);
    }
}

/// One post in the archive's shape, its record kept whole as `raw_json` (what an import
/// stores too); `None` for a post without a readable time.
pub(crate) fn new_post(post: &Post, nested: bool) -> Option<NewPost> {
    let created_at = post.created_at_utc()?;
    let user = post.user.as_ref();
    let hashtags = post
        .entities
        .as_ref()
        .and_then(|entities| entities.hashtags.as_ref())
        .map(|tags| tags.iter().map(|tag| tag.text.clone()).collect())
        .unwrap_or_default();
    Some(NewPost {
        id: post.id.clone(),
        conversation_id: post.conversation_id.clone(),
        author_id: user.map(|u| u.id.clone()),
        author_username: user.map(|u| u.username.clone()).unwrap_or_default(),
        author_name: user.and_then(|u| u.name.clone()).unwrap_or_default(),
        author_verified: user
            .is_some_and(|u| u.verified == Some(true) || u.is_blue_verified == Some(true)),
        text: post.text.clone(),
        lang: post.lang.clone(),
        created_at,
        like_count: to_i64(post.like_count),
        retweet_count: to_i64(post.retweet_count),
        reply_count: to_i64(post.reply_count),
        quote_count: to_i64(post.quote_count),
        view_count: post.view_count.map(to_i64),
        bookmark_count: to_i64(post.bookmark_count),
        hashtags,
        url: post.url.clone(),
        raw_json: serde_json::to_string(post).unwrap_or_default(),
        nested,
    })
}

fn new_user(user: &User) -> NewUser {
    NewUser {
        id: user.id.clone(),
        username: user.username.clone(),
        name: user.name.clone().unwrap_or_default(),
        verified: user.verified == Some(true) || user.is_blue_verified == Some(true),
        followers_count: user.followers_count.map(to_i64),
        description: user.description.clone(),
        raw_json: serde_json::to_string(user).unwrap_or_default(),
    }
}

fn post_findings<'a>(posts: impl IntoIterator<Item = &'a Post>) -> Findings {
    let mut findings = Findings::default();
    let mut shown = 0;
    for post in posts {
        shown += 1;
        push_post(post, false, &mut findings.posts);
        if let Some(user) = &post.user {
            findings.users.push(new_user(user));
        }
    }
    findings.result_count = count(shown);
    findings
}

fn push_links(
    source: LinkSource,
    results: &Option<Vec<LinkResult>>,
    scores: Option<&AiScores>,
    out: &mut Vec<NewLink>,
) {
    for result in results.iter().flatten() {
        let score = scores
            .and_then(|scores| scores.get(&result.link))
            .map(|score| score_name(*score));
        out.push(NewLink {
            source,
            title: result.title.clone(),
            snippet: result.snippet.clone(),
            link: result.link.clone(),
            score: score.map(str::to_owned),
        });
    }
}

type AiScores = std::collections::BTreeMap<String, LinkScore>;

fn score_name(score: LinkScore) -> &'static str {
    match score {
        LinkScore::High => "HIGH",
        LinkScore::Medium => "MEDIUM",
        LinkScore::Low => "LOW",
        LinkScore::Unknown => "UNKNOWN",
    }
}

impl Findable for AiSearchResult {
    fn findings(&self) -> Findings {
        let mut findings = post_findings(self.tweets.iter().flatten());
        let scores = self.miner_link_scores.as_ref();
        for (source, results) in [
            (LinkSource::Web, &self.search),
            (LinkSource::Hackernews, &self.hacker_news_search),
            (LinkSource::Reddit, &self.reddit_search),
            (LinkSource::Youtube, &self.youtube_search),
            (LinkSource::Wikipedia, &self.wikipedia_search),
            (LinkSource::Arxiv, &self.arxiv_search),
        ] {
            push_links(source, results, scores, &mut findings.links);
        }
        findings.result_count += count(findings.links.len());
        findings
    }
}

impl Findable for WebLinksResult {
    fn findings(&self) -> Findings {
        let mut findings = Findings::default();
        for (source, results) in [
            (LinkSource::Web, &self.search_results),
            (LinkSource::Youtube, &self.youtube_search_results),
            (LinkSource::Hackernews, &self.hacker_news_search_results),
            (LinkSource::Reddit, &self.reddit_search_results),
            (LinkSource::Arxiv, &self.arxiv_search_results),
            (LinkSource::Wikipedia, &self.wikipedia_search_results),
        ] {
            push_links(source, results, None, &mut findings.links);
        }
        findings.result_count = count(findings.links.len());
        findings
    }
}

impl Findable for TwitterLinksResult {
    fn findings(&self) -> Findings {
        post_findings(&self.miner_tweets)
    }
}

impl Findable for Posts {
    fn findings(&self) -> Findings {
        post_findings(&self.0)
    }
}

impl Findable for Post {
    fn findings(&self) -> Findings {
        post_findings([self])
    }
}

impl Findable for RepostersPage {
    fn findings(&self) -> Findings {
        Findings {
            users: self.users.iter().map(new_user).collect(),
            result_count: count(self.users.len()),
            next_cursor: self.next_cursor.clone(),
            ..Findings::default()
        }
    }
}

impl Findable for UserPostsPage {
    fn findings(&self) -> Findings {
        let mut findings = post_findings(&self.tweets);
        findings.users.extend(self.user.iter().map(new_user));
        findings.next_cursor = self.next_cursor.clone();
        findings
    }
}

impl Findable for Trends {
    fn findings(&self) -> Findings {
        Findings {
            result_count: count(self.trends.len()),
            ..Findings::default()
        }
    }
}

impl Findable for WebSearchResults {
    fn findings(&self) -> Findings {
        let mut findings = Findings::default();
        push_links(LinkSource::Web, &self.data, None, &mut findings.links);
        findings.result_count = count(findings.links.len());
        findings
    }
}

/// A crawled page: one result, nothing to archive beyond the stored body.
impl Findable for String {
    fn findings(&self) -> Findings {
        Findings {
            result_count: 1,
            ..Findings::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn post(id: &str, quote: Option<Post>) -> Post {
        let mut value = serde_json::json!({
            "id": id, "text": "Rivers rise #flood", "reply_count": 1, "retweet_count": 2,
            "like_count": 3, "quote_count": 0, "bookmark_count": 0,
            "created_at": "Mon Mar 16 07:01:23 +0000 2026",
            "user": {"id": "u1", "username": "hydro", "name": "Hydro Desk", "verified": true},
            "entities": {"hashtags": [{"text": "flood", "indices": [12, 18]}]},
            "surprise_field": {"kept": true}
        });
        if let Some(quote) = quote {
            value["quote"] = serde_json::to_value(quote).unwrap();
        }
        serde_json::from_value(value).unwrap()
    }

    #[test]
    fn posts_quotes_and_authors_are_archived_with_the_raw_record() {
        let list = Posts(vec![post("2", Some(post("1", None)))]);
        let findings = list.findings();
        assert_eq!(
            findings.result_count, 1,
            "the quoted post is archived but not counted"
        );
        let ids: Vec<&str> = findings.posts.iter().map(|p| p.id.as_str()).collect();
        assert_eq!(ids, ["2", "1"]);
        let nested: Vec<bool> = findings.posts.iter().map(|p| p.nested).collect();
        assert_eq!(
            nested,
            [false, true],
            "the quoted post was found inside the result"
        );
        let post = &findings.posts[0];
        assert_eq!(post.author_username, "hydro");
        assert_eq!(post.hashtags, ["flood"]);
        assert!(post.author_verified);
        assert!(
            post.raw_json.contains("surprise_field"),
            "unknown fields survive in the archive"
        );
        assert_eq!(findings.users.len(), 1);
    }

    #[test]
    fn link_scores_are_attached_to_their_links() {
        let result: AiSearchResult = serde_json::from_value(serde_json::json!({
            "search": [{"title": "A", "snippet": "s", "link": "https://a.example/1"}],
            "arxiv_search": [{"title": "B", "snippet": "s", "link": "https://arxiv.org/abs/1"}],
            "miner_link_scores": {"https://a.example/1": "HIGH"}
        }))
        .unwrap();
        let findings = result.findings();
        assert_eq!(findings.result_count, 2);
        assert_eq!(findings.links[0].score.as_deref(), Some("HIGH"));
        assert_eq!(findings.links[1].source, LinkSource::Arxiv);
        assert_eq!(findings.links[1].score, None);
    }
}
