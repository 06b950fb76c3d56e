//! Cursor pagination for reposters and user posts: a request whose answer names the next
//! page's cursor. The app pages one request at a time (core's `paging.rs`, the cursor
//! kept in history); the API tests walk every page with their own `common::pages::Pages`.

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
