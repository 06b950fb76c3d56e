//! Shared set-up for the integration tests: a real sandbox on 127.0.0.1, port 0.

#![allow(dead_code)]

pub mod pages;

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Duration;

use sightline_api::{
    ApiKey, CacheFuture, CachedBody, Client, ClientConfig, EtagCache, RetryPolicy,
};
use sightline_sandbox::Sandbox;

pub async fn sandbox() -> Sandbox {
    Sandbox::builder()
        .seed(42)
        .port(0)
        .pace_ms(0)
        .faults(true)
        .start()
        .await
        .expect("sandbox starts")
}

/// Quick retries so tests stay fast.
pub fn config(base_url: &str) -> ClientConfig {
    ClientConfig {
        request_timeout: Duration::from_secs(10),
        stream_idle_timeout: Duration::from_secs(10),
        retry: RetryPolicy {
            max_attempts: 3,
            base_backoff: Duration::from_millis(10),
            max_backoff: Duration::from_secs(2),
        },
        ..ClientConfig::new(base_url)
    }
}

pub fn client(sb: &Sandbox) -> Client {
    Client::new(config(sb.base_url())).expect("client builds")
}

pub fn key(sb: &Sandbox) -> ApiKey {
    ApiKey::parse(sb.demo_key()).expect("demo key is well formed")
}

/// A post that has reposts, and its author's name.
pub fn post_with_reposts(sb: &Sandbox) -> (String, String) {
    let w = sb.world();
    let (index, _) = w
        .retweets_of
        .iter()
        .enumerate()
        .max_by_key(|(_, r)| r.len())
        .expect("some post has reposts");
    let post = &w.posts[index];
    let author = &w.users[post.author as usize];
    (post.id.to_string(), author.username.clone())
}

/// A user with a long timeline.
pub fn busy_user(sb: &Sandbox) -> String {
    let w = sb.world();
    let (index, _) = w
        .timelines
        .iter()
        .enumerate()
        .max_by_key(|(_, t)| t.len())
        .expect("some timeline");
    w.users[index].username.clone()
}

/// A post that has replies.
pub fn post_with_replies(sb: &Sandbox) -> String {
    let w = sb.world();
    let (index, _) = w
        .children
        .iter()
        .enumerate()
        .max_by_key(|(_, c)| c.len())
        .expect("some post has replies");
    w.posts[index].id.to_string()
}

/// An in-memory ETag cache, standing in for the app's SQLite one.
#[derive(Default)]
pub struct MemoryCache {
    pub entries: Mutex<HashMap<String, CachedBody>>,
}

impl EtagCache for MemoryCache {
    fn get<'a>(&'a self, url: &'a str) -> CacheFuture<'a, Option<CachedBody>> {
        let found = self.entries.lock().unwrap().get(url).cloned();
        Box::pin(std::future::ready(found))
    }
    fn put<'a>(&'a self, url: &'a str, etag: &'a str, body: &'a str) -> CacheFuture<'a, ()> {
        self.entries.lock().unwrap().insert(
            url.to_owned(),
            CachedBody {
                etag: etag.to_owned(),
                body: body.to_owned(),
            },
        );
        Box::pin(std::future::ready(()))
    }
}
