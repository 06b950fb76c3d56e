//! Cursor pagination for reposters and user posts: follow `next_cursor` until it is
//! null, up to a page cap, exposing each page (and so its billing).

use crate::client::{Client, Response};
use crate::error::ApiError;
use crate::key::ApiKey;
use crate::model::{RepostersPage, UserPostsPage};
use crate::request::{ApiRequest, TwitterRetweetersRequest, TwitterUserPostsRequest};

/// A request whose answer carries a cursor to the next page.
pub trait Paged: ApiRequest + Clone {
    fn set_cursor(&mut self, cursor: Option<String>);
    fn next_cursor(page: &Self::Output) -> Option<&str>;

    /// The same request, continuing from `cursor` (a page the caller saved to resume later).
    fn with_cursor(mut self, cursor: String) -> Self {
        self.set_cursor(Some(cursor));
        self
    }
}

impl Paged for TwitterRetweetersRequest {
    fn set_cursor(&mut self, cursor: Option<String>) {
        self.cursor = cursor;
    }
    fn next_cursor(page: &RepostersPage) -> Option<&str> {
        page.next_cursor.as_deref()
    }
}

impl Paged for TwitterUserPostsRequest {
    fn set_cursor(&mut self, cursor: Option<String>) {
        self.cursor = cursor;
    }
    fn next_cursor(page: &UserPostsPage) -> Option<&str> {
        page.next_cursor.as_deref()
    }
}

/// Walks the pages of one request. Each page is a separate, separately billed call.
pub struct Pages<'a, R: Paged> {
    client: &'a Client,
    key: &'a ApiKey,
    request: R,
    max_pages: usize,
    fetched: usize,
    finished: bool,
    seen_cursors: Vec<String>,
}

impl<'a, R: Paged> Pages<'a, R> {
    /// Starts at the request's own cursor (None for the first page).
    pub fn new(client: &'a Client, key: &'a ApiKey, request: R, max_pages: usize) -> Self {
        Pages {
            client,
            key,
            request,
            max_pages,
            fetched: 0,
            finished: false,
            seen_cursors: Vec::new(),
        }
    }

    /// The next page, or None when the last page was reached or the cap was hit.
    pub async fn next_page(&mut self) -> Option<Result<Response<R::Output>, ApiError>> {
        if self.finished || self.fetched >= self.max_pages {
            return None;
        }
        let result = self.client.send(&self.request, self.key).await;
        self.fetched += 1;
        match &result {
            Ok(page) => match R::next_cursor(&page.body).filter(|c| !c.is_empty()) {
                // A cursor seen before would loop forever (and bill every lap).
                Some(cursor) if !self.seen_cursors.iter().any(|s| s == cursor) => {
                    self.seen_cursors.push(cursor.to_owned());
                    self.request.set_cursor(Some(cursor.to_owned()));
                }
                _ => self.finished = true,
            },
            Err(_) => self.finished = true,
        }
        Some(result)
    }

    /// Pages fetched so far.
    pub fn pages_fetched(&self) -> usize {
        self.fetched
    }

    /// True when more pages exist but the cap stopped us.
    pub fn stopped_at_cap(&self) -> bool {
        !self.finished && self.fetched >= self.max_pages
    }

    /// The cursor the next call would send (to resume later).
    pub fn next_cursor(&self) -> Option<&str> {
        self.seen_cursors
            .last()
            .map(String::as_str)
            .filter(|_| !self.finished)
    }
}

impl Client {
    /// Pages of users who reposted a post.
    pub fn reposter_pages<'a>(
        &'a self,
        request: TwitterRetweetersRequest,
        key: &'a ApiKey,
        max_pages: usize,
    ) -> Pages<'a, TwitterRetweetersRequest> {
        Pages::new(self, key, request, max_pages)
    }

    /// Pages of a user's timeline.
    pub fn user_post_pages<'a>(
        &'a self,
        request: TwitterUserPostsRequest,
        key: &'a ApiKey,
        max_pages: usize,
    ) -> Pages<'a, TwitterUserPostsRequest> {
        Pages::new(self, key, request, max_pages)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn with_cursor_continues_the_same_request_from_the_cursor() {
        let first = TwitterRetweetersRequest {
            id: "42".into(),
            cursor: None,
        };
        let next = first.clone().with_cursor("c2".into());
        assert_eq!(next.cursor.as_deref(), Some("c2"));
        assert_eq!(next.id, first.id);
        let timeline = TwitterUserPostsRequest {
            username: "nasa".into(),
            cursor: Some("c1".into()),
        }
        .with_cursor("c3".into());
        assert_eq!(timeline.cursor.as_deref(), Some("c3"));
        assert_eq!(timeline.username, "nasa");
    }
}
