//! The scope's posts as the signals read them: accounts numbered, every text, link, tag set
//! and post id reduced to a 64-bit key once, and the reposters lists of the scope's posts.

use std::collections::HashMap;

use sightline_store::CoordinationRow;

use super::text::{key, normalise};

/// One post, compactly.
pub(super) struct Post {
    pub(super) id: Box<str>,
    pub(super) author: u32,
    pub(super) at_ms: i64,
    pub(super) text: Box<str>,
    /// Its normalised text's key; `None` for a repost or a text with nothing left.
    pub(super) text_key: Option<u64>,
    /// Its links' keys, each once (none for a repost).
    pub(super) links: Box<[u64]>,
    /// Its hashtag set's key (none for a repost, or no tags).
    pub(super) tags: Option<u64>,
    /// The key of the post it answers.
    pub(super) reply_to: Option<u64>,
    /// The key of the post it reposts, and when that post was written when stored.
    pub(super) repost_of: Option<(u64, Option<i64>)>,
}

/// A reposters list's entry for a post of the scope.
pub(super) struct Listed {
    pub(super) account: u32,
    /// Index of the reposted post in [`ScopePosts::posts`].
    pub(super) post: u32,
}

/// A scope's posts and reposters, ready for the signals. Build it with [`ScopePosts::push`]
/// (each post once) and [`ScopePosts::push_reposter`] (after the posts).
#[derive(Default)]
pub struct ScopePosts {
    pub(super) handles: Vec<String>,
    numbers: HashMap<String, u32>,
    pub(super) posts: Vec<Post>,
    by_id: HashMap<u64, u32>,
    pub(super) listed: Vec<Listed>,
}

impl ScopePosts {
    /// Adds one of the scope's posts.
    pub fn push(&mut self, row: CoordinationRow) {
        let author = self.account(&row.author);
        let is_repost = row.repost_of.is_some();
        let normalised = normalise(&row.text);
        let text_key = (!is_repost && !normalised.is_empty()).then(|| key(&normalised));
        let mut links: Vec<u64> = if is_repost {
            Vec::new()
        } else {
            row.links.iter().map(|l| key(&link_form(l))).collect()
        };
        links.sort_unstable();
        links.dedup();
        let tags = (!is_repost && !row.hashtags.is_empty()).then(|| {
            let mut tags = row.hashtags.clone();
            tags.sort_unstable();
            tags.dedup();
            key(&tags.join(" "))
        });
        let index = u32::try_from(self.posts.len()).unwrap_or(u32::MAX);
        self.by_id.insert(key(&row.id), index);
        self.posts.push(Post {
            id: row.id.into(),
            author,
            at_ms: row.at_ms,
            text: row.text.into(),
            text_key,
            links: links.into(),
            tags,
            reply_to: row.reply_to_id.as_deref().map(key),
            repost_of: row
                .repost_of
                .as_deref()
                .map(|id| (key(id), row.repost_of_at_ms)),
        });
    }

    /// Adds one entry of a reposters list: `reposter` reposted the scope's post `post_id`
    /// (ignored when that post is not in the scope). `_at_ms` is the post's time, read from
    /// the post itself here.
    pub fn push_reposter(&mut self, post_id: &str, reposter: &str, _at_ms: i64) {
        let Some(&post) = self.by_id.get(&key(post_id)) else {
            return;
        };
        let account = self.account(&reposter.to_lowercase());
        self.listed.push(Listed { account, post });
    }

    /// Posts held.
    pub fn len(&self) -> usize {
        self.posts.len()
    }

    /// Whether no post is held.
    pub fn is_empty(&self) -> bool {
        self.posts.is_empty()
    }

    /// Accounts seen (authors and reposters).
    pub fn accounts(&self) -> usize {
        self.handles.len()
    }

    /// The index of the scope's post with this id.
    pub(super) fn index_of(&self, id: &str) -> Option<u32> {
        self.by_id.get(&key(id)).copied()
    }

    fn account(&mut self, handle: &str) -> u32 {
        if let Some(&n) = self.numbers.get(handle) {
            return n;
        }
        let n = u32::try_from(self.handles.len()).unwrap_or(u32::MAX);
        self.handles.push(handle.to_owned());
        self.numbers.insert(handle.to_owned(), n);
        n
    }
}

/// A link as compared: without its scheme, `www.`, a trailing `/`, and with its host in
/// lower case (`https://www.Example.org/a/` and `http://example.org/a` are one link).
pub fn link_form(link: &str) -> String {
    let link = link.trim();
    let rest = link
        .split_once("://")
        .map_or(link, |(_, rest)| rest)
        .trim_end_matches('/');
    let (host, path) = rest.split_once('/').map_or((rest, ""), |(h, p)| (h, p));
    let host = host.to_lowercase();
    let host = host.strip_prefix("www.").unwrap_or(&host);
    if path.is_empty() {
        host.to_owned()
    } else {
        format!("{host}/{path}")
    }
}
