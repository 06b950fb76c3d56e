//! The JSON records of the reference schema (`TwitterScraperTweet`, `TwitterScraperUser`),
//! rendered from the world on demand.

use crate::media::{self, VIDEO_SIZES};
use crate::world::{corpus::LANGS, Media, MediaKind, Post, Retweet, User, World};
use serde::Serialize;
use std::sync::OnceLock;

/// Serialised Tweet records (with their quote) of the world's posts, rendered once per post on
/// first use: they never change, and rendering dominates the cost of a search. The trickle's
/// posts keep theirs beside them (`world/live.rs`); `posts.rs` reads both. The records' media
/// links point to `media_base`, the address of the sandbox that serves them (`media/`).
pub struct TweetCache {
    slots: Vec<OnceLock<Box<str>>>,
    media_base: Box<str>,
}

impl TweetCache {
    /// `media_base`: `http://127.0.0.1:PORT` of the sandbox, without a trailing slash.
    pub fn new(world: &World, media_base: &str) -> TweetCache {
        TweetCache {
            slots: (0..world.posts.len()).map(|_| OnceLock::new()).collect(),
            media_base: media_base.into(),
        }
    }

    /// Where the records' media links point.
    pub fn media_base(&self) -> &str {
        &self.media_base
    }

    /// The JSON of post `index` as `tweet(world, media_base, index, true)` renders it.
    pub fn get(&self, world: &World, index: u32) -> &str {
        self.slots[index as usize].get_or_init(|| {
            serde_json::to_string(&tweet(world, &self.media_base, index, true))
                .expect("records serialise")
                .into_boxed_str()
        })
    }
}

fn iso(ms: i64) -> String {
    chrono::DateTime::from_timestamp_millis(ms)
        .map(|d| d.format("%Y-%m-%dT%H:%M:%S%.3fZ").to_string())
        .unwrap_or_default()
}

/// X's legacy timestamp form, used for user records as the live service does.
fn legacy(ms: i64) -> String {
    chrono::DateTime::from_timestamp_millis(ms)
        .map(|d| d.format("%a %b %d %H:%M:%S +0000 %Y").to_string())
        .unwrap_or_default()
}

#[derive(Serialize)]
pub struct UserUrl {
    urls: Vec<EntityUrl>,
}

#[derive(Serialize)]
pub struct UserEntities {
    description: UserUrl,
}

#[derive(Serialize)]
pub struct Professional {
    professional_type: &'static str,
    category: Vec<serde_json::Value>,
}

#[derive(Serialize)]
pub struct UserJson<'a> {
    id: String,
    url: String,
    name: &'a str,
    username: &'a str,
    created_at: String,
    description: &'a str,
    favourites_count: u64,
    followers_count: u64,
    followings_count: u64,
    listed_count: u64,
    media_count: u64,
    profile_image_url: String,
    profile_banner_url: String,
    statuses_count: u64,
    verified: bool,
    is_blue_verified: bool,
    entities: UserEntities,
    can_dm: bool,
    can_media_tag: bool,
    location: &'a str,
    pinned_tweet_ids: Vec<String>,
    professional: Option<Professional>,
}

pub fn user<'a>(world: &World, u: &'a User) -> UserJson<'a> {
    UserJson {
        id: u.id.to_string(),
        url: format!("https://x.com/{}", u.username),
        name: &u.name,
        username: &u.username,
        created_at: legacy(u.created_at_ms),
        description: &u.description,
        favourites_count: u.favourites,
        followers_count: u.followers,
        followings_count: u.followings,
        listed_count: u.listed,
        media_count: u.media_count,
        profile_image_url: format!(
            "https://pbs.twimg.com/profile_images/{}/{}_normal.jpg",
            u.id, u.image_key
        ),
        profile_banner_url: format!(
            "https://pbs.twimg.com/profile_banners/{}/{}",
            u.id,
            u.created_at_ms / 1000
        ),
        statuses_count: u.statuses,
        verified: u.verified,
        is_blue_verified: u.blue_verified,
        entities: UserEntities {
            description: UserUrl { urls: Vec::new() },
        },
        can_dm: u.can_dm,
        can_media_tag: u.can_dm,
        location: u.location,
        pinned_tweet_ids: u
            .pinned
            .map(|p| vec![world.posts[p as usize].id.to_string()])
            .unwrap_or_default(),
        professional: u.professional.map(|t| Professional {
            professional_type: t,
            category: Vec::new(),
        }),
    }
}

#[derive(Serialize)]
pub struct MediaJson {
    media_url: String,
    #[serde(rename = "type")]
    kind: &'static str,
}

#[derive(Serialize)]
pub struct Symbol {
    indices: [usize; 2],
    text: String,
}

#[derive(Serialize)]
pub struct EntityUrl {
    display_url: String,
    expanded_url: String,
    url: String,
    indices: [usize; 2],
}

#[derive(Serialize)]
pub struct Mention<'a> {
    id_str: String,
    name: &'a str,
    screen_name: &'a str,
    indices: [usize; 2],
}

#[derive(Serialize, Clone)]
pub struct EntityMedia {
    display_url: String,
    expanded_url: String,
    id_str: String,
    indices: [usize; 2],
    media_key: String,
    media_url_https: String,
    #[serde(rename = "type")]
    kind: &'static str,
    url: String,
    original_info: OriginalInfo,
    #[serde(skip_serializing_if = "Option::is_none")]
    video_info: Option<VideoInfo>,
}

#[derive(Serialize, Clone)]
pub struct OriginalInfo {
    width: u32,
    height: u32,
}

#[derive(Serialize, Clone)]
pub struct VideoInfo {
    aspect_ratio: [u32; 2],
    duration_millis: u32,
    variants: Vec<VideoVariant>,
}

#[derive(Serialize, Clone)]
pub struct VideoVariant {
    bitrate: u32,
    content_type: &'static str,
    url: String,
}

#[derive(Serialize)]
pub struct Entities<'a> {
    hashtags: Vec<Symbol>,
    media: Vec<EntityMedia>,
    symbols: Vec<Symbol>,
    timestamps: Vec<serde_json::Value>,
    urls: Vec<EntityUrl>,
    user_mentions: Vec<Mention<'a>>,
}

#[derive(Serialize)]
pub struct ExtendedEntities {
    media: Vec<EntityMedia>,
}

#[derive(Serialize)]
pub struct TweetJson<'a> {
    user: UserJson<'a>,
    id: String,
    text: std::borrow::Cow<'a, str>,
    reply_count: u64,
    view_count: u64,
    retweet_count: u64,
    like_count: u64,
    quote_count: u64,
    bookmark_count: u64,
    url: String,
    created_at: String,
    media: Vec<MediaJson>,
    is_quote_tweet: bool,
    is_retweet: bool,
    lang: &'static str,
    conversation_id: String,
    in_reply_to_screen_name: Option<&'a str>,
    in_reply_to_status_id: Option<String>,
    in_reply_to_user_id: Option<String>,
    quoted_status_id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    quote: Option<Box<TweetJson<'a>>>,
    display_text_range: [usize; 2],
    entities: Entities<'a>,
    #[serde(skip_serializing_if = "Option::is_none")]
    extended_entities: Option<ExtendedEntities>,
    #[serde(skip_serializing_if = "Option::is_none")]
    retweet: Option<Box<TweetJson<'a>>>,
}

/// Code-point indices of the first occurrence of `needle` in `text`, starting at `from`.
fn find_indices(text: &str, needle: &str, from: &mut usize) -> [usize; 2] {
    match text[*from..].find(needle) {
        Some(pos) => {
            let start = *from + pos;
            *from = start + needle.len();
            let s = crate::world::text::char_index(text, start);
            [s, s + needle.chars().count()]
        }
        None => [0, 0],
    }
}

/// What the media of `post` are (`media::plan`).
fn plan(world: &World, post: &Post, m: &Media) -> media::Plan {
    media::plan(world.seed, world.now_ms, post.created_ms, m)
}

/// The picture's link: a photo, or a video's poster; on the sandbox at `base`.
fn media_url(base: &str, m: &Media, plan: &media::Plan) -> String {
    format!("{base}{}", media::picture_path(&m.file_key, plan.format))
}

/// A video's variants (MP4 in three sizes), smallest first, as X lists them.
fn video_info(base: &str, m: &Media) -> VideoInfo {
    VideoInfo {
        aspect_ratio: [16, 9],
        duration_millis: media::VIDEO_MS,
        variants: VIDEO_SIZES
            .iter()
            .map(|&size| VideoVariant {
                bitrate: size.bitrate,
                content_type: "video/mp4",
                url: format!("{base}{}", media::video_path(&m.file_key, size)),
            })
            .collect(),
    }
}

fn entities<'a>(
    world: &'a World,
    base: &str,
    post: &'a Post,
    author: &User,
    id: u64,
) -> (Entities<'a>, usize) {
    let text = &post.text;
    let mut cursor = 0;
    let user_mentions = post
        .mentions
        .iter()
        .map(|&m| {
            let u = &world.users[m as usize];
            Mention {
                id_str: u.id.to_string(),
                name: &u.name,
                screen_name: &u.username,
                indices: find_indices(text, &format!("@{}", u.username), &mut cursor),
            }
        })
        .collect();
    let hashtags = post
        .hashtags
        .iter()
        .map(|t| {
            let mut from = 0;
            Symbol {
                indices: find_indices(text, &format!("#{t}"), &mut from),
                text: t.to_string(),
            }
        })
        .collect();
    let symbols = post
        .symbols
        .iter()
        .map(|s| {
            let mut from = 0;
            Symbol {
                indices: find_indices(text, &format!("${s}"), &mut from),
                text: s.to_string(),
            }
        })
        .collect();
    let urls = post
        .links
        .iter()
        .map(|l| {
            let page = &world.pages[l.page as usize];
            let display: String = page
                .link
                .trim_start_matches("https://")
                .trim_start_matches("www.")
                .chars()
                .take(26)
                .collect();
            let mut from = 0;
            EntityUrl {
                display_url: if display.len() < page.link.len() - 8 {
                    format!("{display}…")
                } else {
                    display
                },
                expanded_url: page.link.clone(),
                url: l.short.clone(),
                indices: find_indices(text, &l.short, &mut from),
            }
        })
        .collect();
    let mut display_end = text.chars().count();
    let media: Vec<EntityMedia> = post
        .media
        .iter()
        .enumerate()
        .map(|(k, m)| {
            let mut from = 0;
            let indices = find_indices(text, &m.short, &mut from);
            display_end = display_end.min(indices[0].saturating_sub(1));
            let plan = plan(world, post, m);
            let (width, height) = match m.kind {
                MediaKind::Photo => media::copy_size(plan.picture, plan.variant),
                MediaKind::Video => {
                    let largest = VIDEO_SIZES[VIDEO_SIZES.len() - 1];
                    (u32::from(largest.width), u32::from(largest.height))
                }
            };
            let kind_path = if m.kind == MediaKind::Video {
                "video"
            } else {
                "photo"
            };
            EntityMedia {
                display_url: format!("pic.x.com/{}", &m.short[13..]),
                expanded_url: format!(
                    "https://x.com/{}/status/{id}/{kind_path}/{}",
                    author.username,
                    k + 1
                ),
                id_str: m.id.to_string(),
                indices,
                media_key: format!(
                    "{}_{}",
                    if m.kind == MediaKind::Video { 7 } else { 3 },
                    m.id
                ),
                media_url_https: media_url(base, m, &plan),
                kind: m.kind.as_str(),
                url: m.short.clone(),
                original_info: OriginalInfo { width, height },
                video_info: (m.kind == MediaKind::Video).then(|| video_info(base, m)),
            }
        })
        .collect();
    (
        Entities {
            hashtags,
            media,
            symbols,
            timestamps: Vec::new(),
            urls,
            user_mentions,
        },
        display_end,
    )
}

/// A post as a Tweet record, its media links on the sandbox at `base`. `with_quote` nests the
/// quoted post one level deep, as X does.
pub fn tweet<'a>(world: &'a World, base: &str, index: u32, with_quote: bool) -> TweetJson<'a> {
    tweet_record(world, base, &world.posts[index as usize], with_quote)
}

/// `tweet` for a post that may not be the world's own (a trickle post, `world/live.rs`): the
/// posts it replies to, quotes or starts from are.
pub fn tweet_record<'a>(
    world: &'a World,
    base: &str,
    post: &'a Post,
    with_quote: bool,
) -> TweetJson<'a> {
    let author = &world.users[post.author as usize];
    let (post_entities, display_end) = entities(world, base, post, author, post.id);
    let extended_entities = (!post.media.is_empty()).then(|| ExtendedEntities {
        media: post_entities.media.clone(),
    });
    let parent = post.reply_to.map(|p| &world.posts[p as usize]);
    let parent_author = parent.map(|p| &world.users[p.author as usize]);
    let quoted = post.quote_of.map(|q| &world.posts[q as usize]);
    TweetJson {
        user: user(world, author),
        id: post.id.to_string(),
        text: std::borrow::Cow::Borrowed(&post.text),
        reply_count: post.replies,
        view_count: post.views,
        retweet_count: post.retweets,
        like_count: post.likes,
        quote_count: post.quotes,
        bookmark_count: post.bookmarks,
        url: format!("https://x.com/{}/status/{}", author.username, post.id),
        created_at: iso(post.created_ms),
        media: post
            .media
            .iter()
            .map(|m| MediaJson {
                media_url: media_url(base, m, &plan(world, post, m)),
                kind: m.kind.as_str(),
            })
            .collect(),
        is_quote_tweet: post.quote_of.is_some(),
        is_retweet: false,
        lang: LANGS[post.lang as usize],
        // A post that replies to none starts its own conversation.
        conversation_id: match post.reply_to {
            None => post.id.to_string(),
            Some(_) => world.posts[post.conversation as usize].id.to_string(),
        },
        in_reply_to_screen_name: parent_author.map(|u| u.username.as_str()),
        in_reply_to_status_id: parent.map(|p| p.id.to_string()),
        in_reply_to_user_id: parent_author.map(|u| u.id.to_string()),
        quoted_status_id: quoted.map(|q| q.id.to_string()),
        quote: match post.quote_of {
            Some(q) if with_quote => Some(Box::new(tweet(world, base, q, false))),
            _ => None,
        },
        display_text_range: [0, display_end],
        entities: post_entities,
        extended_entities,
        retweet: None,
    }
}

/// A retweet as it appears in a timeline: the retweeter's entry wrapping the original, with the
/// original's counts, like X shows them.
pub fn retweet<'a>(world: &'a World, base: &str, r: &Retweet) -> TweetJson<'a> {
    let post = &world.posts[r.post as usize];
    let original_author = &world.users[post.author as usize];
    let retweeter = &world.users[r.user as usize];
    let text = format!("RT @{}: {}", original_author.username, post.text);
    let length = text.chars().count();
    TweetJson {
        user: user(world, retweeter),
        id: r.id.to_string(),
        text: std::borrow::Cow::Owned(text),
        reply_count: post.replies,
        view_count: post.views,
        retweet_count: post.retweets,
        like_count: post.likes,
        quote_count: post.quotes,
        bookmark_count: post.bookmarks,
        url: format!("https://x.com/{}/status/{}", retweeter.username, r.id),
        created_at: iso(r.created_ms),
        media: Vec::new(),
        is_quote_tweet: false,
        is_retweet: true,
        lang: LANGS[post.lang as usize],
        conversation_id: r.id.to_string(),
        in_reply_to_screen_name: None,
        in_reply_to_status_id: None,
        in_reply_to_user_id: None,
        quoted_status_id: None,
        quote: None,
        display_text_range: [0, length],
        entities: Entities {
            hashtags: Vec::new(),
            media: Vec::new(),
            symbols: Vec::new(),
            timestamps: Vec::new(),
            urls: Vec::new(),
            user_mentions: vec![Mention {
                id_str: original_author.id.to_string(),
                name: &original_author.name,
                screen_name: &original_author.username,
                indices: [3, 4 + original_author.username.chars().count()],
            }],
        },
        extended_entities: None,
        retweet: Some(Box::new(tweet(world, base, r.post, true))),
    }
}
