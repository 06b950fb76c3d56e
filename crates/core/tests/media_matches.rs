//! "Same picture elsewhere" and the analysis's most-shared pictures on a real SQLite file:
//! posts stored through the archive, their media queued and kept through the store's own
//! queue with known SHA-256s and PDQ hashes (one picture, an exact copy, near copies at known
//! distances, one just past the bound, a video whose poster is a near copy, a post the archive
//! does not hold). What comes back, its order and its words, and the CSV of the shared list.

use chrono::{DateTime, Duration, TimeZone, Utc};
use sightline_core::analysis::{self, export};
use sightline_core::errors::CommandError;
use sightline_core::media::hash::NEAR_DISTANCE;
use sightline_core::media::matches::{same_picture, MatchRelation, PictureMatch, SNIPPET_CHARS};
use sightline_store::{
    AnalysisScope, MediaKept, MediaKind, NewMediaFile, NewMediaItem, NewPost, PostQuery,
    ScopeFilters, ScopeSource, Store, PDQ_BYTES,
};

use crate::support::evidence_seed;

fn at(minutes: i64) -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, 20, 8, 0, 0).unwrap() + Duration::minutes(minutes)
}

/// A SHA-256 made of one repeated byte: distinct per file, valid hex.
fn sha(byte: u8) -> String {
    format!("{byte:02x}").repeat(32)
}

/// A picture hash: the base pattern with `count` bits from bit `from` on turned over, so two
/// copies turned over in different places differ from each other by the sum of their counts.
fn pdq_off(from: u32, count: u32) -> [u8; PDQ_BYTES] {
    let mut hash = [0u8; PDQ_BYTES];
    for (i, byte) in hash.iter_mut().enumerate() {
        *byte = (i as u8).wrapping_mul(37) ^ 0x5a;
    }
    for bit in from as usize..(from + count) as usize {
        hash[bit / 8] ^= 1 << (bit % 8);
    }
    hash
}

/// The base picture's hash.
fn base() -> [u8; PDQ_BYTES] {
    pdq_off(0, 0)
}

/// Near copy B: 12 bits off the base.
fn b_copy() -> [u8; PDQ_BYTES] {
    pdq_off(0, 12)
}

/// The video's poster: 5 bits off the base, elsewhere than B's.
fn poster_copy() -> [u8; PDQ_BYTES] {
    pdq_off(12, 5)
}

/// A copy exactly at the bound from the base (and further from B and the poster).
fn at_bound() -> [u8; PDQ_BYTES] {
    pdq_off(17, NEAR_DISTANCE)
}

/// A copy one bit past the bound from the base, and past it from every other copy too.
fn past_bound() -> [u8; PDQ_BYTES] {
    pdq_off(17 + NEAR_DISTANCE, NEAR_DISTANCE + 1)
}

/// A hash far from the base in every way (its bits all turned over).
fn far_pdq() -> [u8; PDQ_BYTES] {
    base().map(|b| !b)
}

fn file(sha256: String, hash: Option<[u8; PDQ_BYTES]>) -> NewMediaFile {
    NewMediaFile {
        sha256,
        size: 1000,
        content_type: "image/jpeg".into(),
        pdq: hash,
        pdq_quality: hash.map(|_| 100),
        width: Some(640),
        height: Some(480),
    }
}

/// Post `n` (its id), written at minute `n`, with `text`.
fn post(n: usize, text: &str) -> NewPost {
    let mut post = evidence_seed::post(evidence_seed::FIRST_ID + n as u64, n);
    post.text = text.into();
    post.author_username = format!("user{n}");
    post.author_name = format!("User {n}");
    post
}

fn id(n: usize) -> String {
    (evidence_seed::FIRST_ID + n as u64).to_string()
}

/// Queues one item and records it kept with `kept` (and a video's `poster`).
async fn keep(
    store: &Store,
    post: usize,
    position: u32,
    kind: MediaKind,
    kept: NewMediaFile,
    poster: Option<NewMediaFile>,
) {
    let item = NewMediaItem {
        post_id: id(post),
        position,
        kind,
        source_url: format!("http://127.0.0.1:9/media/{post}/{position}"),
        poster_url: poster
            .as_ref()
            .map(|_| format!("http://127.0.0.1:9/media/{post}/{position}.jpg")),
    };
    store.queue_media(&[item], at(0)).await.unwrap();
    let record = store
        .media_for_posts(&[id(post)])
        .await
        .unwrap()
        .into_iter()
        .find(|r| r.position == i64::from(position))
        .unwrap();
    let done = store
        .record_media_kept(
            record.id,
            &MediaKept {
                fetched_at: at(100),
                http_status: 200,
                response_headers: vec![("content-type".into(), "image/jpeg".into())],
                file: kept,
                poster,
            },
        )
        .await
        .unwrap();
    assert!(done);
}

/// The archive: picture A in posts 1, 2 and 7 (7 also holds near copy B), and in post 9,
/// which the archive does not hold; near copy B (12 bits off) in post 3; a copy exactly at the
/// bound in post 6; one a bit past it in post 4; a video in post 5 whose poster is 5 bits off;
/// an unrelated picture D in posts 10 and 11; E, with no picture hash, in post 12 alone.
async fn archive(dir: &tempfile::TempDir) -> Store {
    let store = Store::open(dir.path().join("sightline.db")).await.unwrap();
    let long = "word ".repeat(100);
    let posts: Vec<NewPost> = [
        (1, "the first, with the picture"),
        (2, "the same picture\n\nagain"),
        (3, "a resized copy"),
        (4, "a copy too far off"),
        (5, "a video of it"),
        (6, "a copy at the bound"),
        (7, long.as_str()),
        (10, "another picture"),
        (11, "that other picture again"),
        (12, "a file with no picture hash"),
    ]
    .into_iter()
    .map(|(n, text)| post(n, text))
    .collect();
    store.archive_posts(at(200), &posts).await.unwrap();

    let photo = MediaKind::Photo;
    keep(&store, 1, 0, photo, file(sha(0xa1), Some(base())), None).await;
    keep(&store, 2, 0, photo, file(sha(0xa1), Some(base())), None).await;
    keep(&store, 3, 0, photo, file(sha(0xb1), Some(b_copy())), None).await;
    let past = file(sha(0xc1), Some(past_bound()));
    keep(&store, 4, 0, photo, past, None).await;
    let video = file(sha(0xf1), None);
    let poster = file(sha(0xf2), Some(poster_copy()));
    keep(&store, 5, 0, MediaKind::Video, video, Some(poster)).await;
    keep(&store, 6, 1, photo, file(sha(0xb2), Some(at_bound())), None).await;
    keep(&store, 7, 0, photo, file(sha(0xb1), Some(b_copy())), None).await;
    keep(&store, 7, 1, photo, file(sha(0xa1), Some(base())), None).await;
    keep(&store, 9, 0, photo, file(sha(0xa1), Some(base())), None).await;
    keep(&store, 10, 0, photo, file(sha(0xd1), Some(far_pdq())), None).await;
    keep(&store, 11, 0, photo, file(sha(0xd1), Some(far_pdq())), None).await;
    keep(&store, 12, 0, photo, file(sha(0xe1), None), None).await;
    store
}

fn seen(matches: &[PictureMatch]) -> Vec<(String, MatchRelation, u32)> {
    matches
        .iter()
        .map(|m| (m.post_id.clone(), m.relation, m.distance))
        .collect()
}

#[tokio::test]
async fn same_picture_elsewhere_lists_exact_copies_then_near_ones_closest_first() {
    let dir = tempfile::tempdir().unwrap();
    let store = archive(&dir).await;
    // The copies planted at the bound and one bit past it fit in a 256-bit hash.
    const { assert!(12 < NEAR_DISTANCE && 17 + 2 * NEAR_DISTANCE < 256) };

    let found = same_picture(&store, &sha(0xa1), Some(&id(1)))
        .await
        .unwrap();
    assert_eq!(found.file.sha256, sha(0xa1));
    assert_eq!(found.near_distance, NEAR_DISTANCE);
    assert!(found.near_searched);
    use MatchRelation::{NearCopy, SameFile};
    assert_eq!(
        seen(&found.matches),
        vec![
            // The same file: newest post first, the one not in the archive last.
            (id(7), SameFile, 0),
            (id(2), SameFile, 0),
            (id(9), SameFile, 0),
            // Near copies, closest first: the video's poster, then B, then the one at the bound.
            (id(5), NearCopy, 5),
            (id(3), NearCopy, 12),
            (id(6), NearCopy, NEAR_DISTANCE),
        ],
        "post 1 asked, post 4 is past the bound, D and E are other pictures"
    );

    // Each line says what it is in words, and carries its post.
    let words: Vec<&str> = found.matches.iter().map(|m| m.words.as_str()).collect();
    assert_eq!(words[0], "the same file");
    assert_eq!(words[3], "a near copy (distance 5 of 256)");
    assert_eq!(words[4], "a near copy (distance 12 of 256)");
    let post7 = found.matches[0].post.as_ref().unwrap();
    assert_eq!(post7.author_username, "user7");
    assert_eq!(post7.created_at, at(7));
    assert_eq!(post7.snippet.chars().count(), SNIPPET_CHARS);
    assert!(post7.snippet.ends_with('…'));
    // Post 7 holds A (exact, second) and B (near, first): its closest is shown, position 1.
    assert_eq!(found.matches[0].position, 1);
    assert_eq!(found.matches[0].sha256, sha(0xa1));
    assert_eq!(
        found.matches[1].post.as_ref().unwrap().snippet,
        "the same picture again",
        "white space run together"
    );
    assert!(found.matches[2].post.is_none(), "post 9 is not archived");
    // The video is matched by its poster, shown as its thumbnail.
    assert_eq!(found.matches[3].kind, MediaKind::Video);
    assert_eq!(found.matches[3].sha256, sha(0xf2));
    assert_eq!(found.matches[3].position, 0);
    assert_eq!(found.matches[5].position, 1);

    // Asked from a near copy, the original is a near copy of it, at the same distance.
    let from_b = same_picture(&store, &sha(0xb1), Some(&id(3)))
        .await
        .unwrap();
    let (post, relation, distance) = seen(&from_b.matches)
        .into_iter()
        .find(|(post, ..)| *post == id(1))
        .unwrap();
    assert_eq!((post, relation, distance), (id(1), NearCopy, 12));
    // Post 7 holds B itself: the same file, first.
    assert_eq!(seen(&from_b.matches)[0], (id(7), SameFile, 0));

    // With no post to leave out, the asking post is listed too.
    let all = same_picture(&store, &sha(0xa1), None).await.unwrap();
    assert_eq!(all.matches.len(), found.matches.len() + 1);
}

#[tokio::test]
async fn a_file_without_a_picture_hash_finds_only_its_exact_copies_and_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let store = archive(&dir).await;
    let found = same_picture(&store, &sha(0xe1), Some(&id(12)))
        .await
        .unwrap();
    assert!(!found.near_searched);
    assert!(found.matches.is_empty());

    // Upper case is read as the same hash; anything else is refused in words.
    let upper = same_picture(&store, &sha(0xd1).to_uppercase(), Some(&id(10)))
        .await
        .unwrap();
    assert_eq!(
        seen(&upper.matches),
        vec![(id(11), MatchRelation::SameFile, 0)]
    );
    let refused = same_picture(&store, "../etc/passwd", None)
        .await
        .unwrap_err();
    assert!(
        matches!(refused, CommandError::Invalid { .. }),
        "{refused:?}"
    );
    let unknown = same_picture(&store, &sha(0x99), None).await.unwrap_err();
    match unknown {
        CommandError::NotFound { message } => assert!(message.contains("not kept"), "{message}"),
        other => panic!("{other:?}"),
    }
}

fn archive_scope(query: PostQuery) -> AnalysisScope {
    AnalysisScope {
        source: ScopeSource::Archive { query },
        from: None,
        to: None,
        filters: ScopeFilters::default(),
    }
}

#[tokio::test]
async fn the_most_shared_pictures_of_a_scope_count_its_posts_with_near_copies_as_one() {
    let dir = tempfile::tempdir().unwrap();
    let store = archive(&dir).await;

    let everything = archive_scope(PostQuery::default());
    let shared = analysis::shared_pictures(&store, &everything, None)
        .await
        .unwrap();
    assert_eq!(shared.near_distance, NEAR_DISTANCE);
    let counts: Vec<(String, u32, u32)> = shared
        .pictures
        .iter()
        .map(|p| (p.file.sha256.clone(), p.post_count, p.files))
        .collect();
    // A's group: A (posts 1, 2, 7), B (3, 7), the video's poster (5) and the copy at the bound
    // (6), joined; post 9 is not archived, so in no scope; post 4's copy is past the bound of
    // all of them. D in two posts. E and post 4's copy are held by one post each.
    assert_eq!(
        counts,
        vec![(sha(0xa1), 6, 4), (sha(0xd1), 2, 1)],
        "{counts:?}"
    );
    let group = &shared.pictures[0];
    assert_eq!(
        seen(&group.posts),
        vec![
            (id(7), MatchRelation::SameFile, 0),
            (id(2), MatchRelation::SameFile, 0),
            (id(1), MatchRelation::SameFile, 0),
            (id(5), MatchRelation::NearCopy, 5),
            (id(3), MatchRelation::NearCopy, 12),
            (id(6), MatchRelation::NearCopy, NEAR_DISTANCE),
        ]
    );

    // A narrower scope counts only its own posts: posts 1 to 3 (minutes 1-3) leave A's group
    // with three posts and D with none.
    let mut early = archive_scope(PostQuery::default());
    early.from = Some(at(1));
    early.to = Some(at(4));
    let shared = analysis::shared_pictures(&store, &early, None)
        .await
        .unwrap();
    let counts: Vec<(String, u32)> = shared
        .pictures
        .iter()
        .map(|p| (p.file.sha256.clone(), p.post_count))
        .collect();
    assert_eq!(counts, vec![(sha(0xa1), 3)]);

    // The limit keeps the most shared.
    let one = analysis::shared_pictures(&store, &everything, Some(1))
        .await
        .unwrap();
    assert_eq!(one.pictures.len(), 1);
    assert_eq!(one.pictures[0].file.sha256, sha(0xa1));
}

#[tokio::test]
async fn the_shared_pictures_csv_has_a_line_per_picture_and_post() {
    let dir = tempfile::tempdir().unwrap();
    let store = archive(&dir).await;
    let path = dir.path().join("shared.csv");
    let table = export::AnalysisTable::SharedPictures(export::SharedPicturesOptions::default());
    export::write_table(&store, &archive_scope(PostQuery::default()), &table, &path)
        .await
        .unwrap();
    let mut csv = csv::Reader::from_path(&path).unwrap();
    let header: Vec<String> = csv.headers().unwrap().iter().map(str::to_owned).collect();
    assert_eq!(
        header,
        [
            "rank",
            "picture_sha256",
            "posts_sharing",
            "files_in_group",
            "post_id",
            "author",
            "created_utc",
            "created_local",
            "post_file_sha256",
            "relation",
            "pdq_distance"
        ]
    );
    let rows: Vec<csv::StringRecord> = csv.records().map(Result::unwrap).collect();
    assert_eq!(rows.len(), 8, "six posts share A, two share D");
    assert_eq!(&rows[0][0], "1");
    assert_eq!(&rows[0][1], sha(0xa1));
    assert_eq!(&rows[0][2], "6");
    // A 19-digit id is kept whole in a spreadsheet.
    assert!(rows[0][4].contains(&id(7)), "{:?}", &rows[0][4]);
    assert_eq!(&rows[0][5], "user7");
    assert_eq!(&rows[0][6], "2026-11-20T08:07:00Z");
    assert_eq!(&rows[4][8], sha(0xb1));
    assert_eq!(&rows[4][9], "a near copy (distance 12 of 256)");
    assert_eq!(&rows[4][10], "12");
    assert_eq!(&rows[7][0], "2");
    assert_eq!(&rows[7][1], sha(0xd1));
}
