//! Walks every page of a paged request, for the tests: each page a separate, separately billed
//! call, stopping at a null or empty cursor, at a cursor seen before (a loop would bill every
//! lap) or at a page cap. The app itself pages one request at a time, from the cursor kept in
//! history (core's `paging.rs`), so this lives with the tests.

use sightline_api::pagination::Paged;
use sightline_api::{ApiError, ApiKey, Client, Response};

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
    pub fn new(client: &'a Client, request: R, key: &'a ApiKey, max_pages: usize) -> Self {
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
