//! A received case's posts: archived when this archive lacks them (a post held already keeps
//! its stored copy: nothing is overwritten), traced to the requests that found them, filed
//! under the case with who filed them, their notes and tags merged with the removals both
//! sides made (`merge.rs`), each attributed.

use std::collections::HashMap;

use sqlx::SqliteConnection;

use super::merge::{self, Merging};
use super::removals;
use super::unfiled::Unfiled;
use super::{from_ms, By, CasePost, CaseReceived, CaseRemoval, ReceivedCase, RemovedKind};
use crate::archive::{write_posts, NewPost};
use crate::custody::Custody;
use crate::error::Result;

fn new_post(post: &CasePost) -> NewPost {
    NewPost {
        id: post.id.clone(),
        conversation_id: post.conversation_id.clone(),
        author_id: post.author_id.clone(),
        author_username: post.author_username.clone(),
        author_name: post.author_name.clone(),
        author_verified: post.author_verified,
        text: post.text.clone(),
        lang: post.lang.clone(),
        created_at: from_ms(post.created_at),
        like_count: post.like_count,
        retweet_count: post.retweet_count,
        reply_count: post.reply_count,
        quote_count: post.quote_count,
        view_count: post.view_count,
        bookmark_count: post.bookmark_count,
        hashtags: post
            .hashtags
            .split(' ')
            .filter(|t| !t.is_empty())
            .map(str::to_owned)
            .collect(),
        url: post.url.clone(),
        raw_json: post.raw_json.clone(),
        nested: false,
    }
}

fn split(by: &Option<By>) -> (Option<&str>, Option<&str>) {
    (
        by.as_ref().map(|b| b.name.as_str()),
        by.as_ref().map(|b| b.key.as_str()),
    )
}

/// What the posts are received with.
pub(super) struct Received<'a, W: Fn(&Option<By>) -> Option<By>> {
    /// Who did something, as stored here.
    pub whose: &'a W,
    /// The package's requests' history ids here, by request id.
    pub history: &'a HashMap<String, i64>,
    /// Posts taken out of the case, here or there.
    pub unfiled: &'a Unfiled,
    /// The custody log's writer.
    pub custody: &'a Custody,
}

/// Writes the case's posts; see the module.
pub(super) async fn receive<W: Fn(&Option<By>) -> Option<By>>(
    conn: &mut SqliteConnection,
    id: i64,
    case: &ReceivedCase,
    with: &Received<'_, W>,
    out: &mut CaseReceived,
) -> Result<()> {
    let (whose, history, custody) = (with.whose, with.history, with.custody);
    let at = custody.at();
    let posts = &case.contents.posts;
    let mut pks: HashMap<&str, i64> = HashMap::with_capacity(posts.len());
    let mut missing = Vec::new();
    for post in posts {
        let pk: Option<i64> = sqlx::query_scalar("SELECT pk FROM posts WHERE id = ?")
            .bind(&post.id)
            .fetch_optional(&mut *conn)
            .await?;
        match pk {
            Some(pk) => {
                pks.insert(&post.id, pk);
            }
            None => missing.push(new_post(post)),
        }
    }
    if !missing.is_empty() {
        write_posts(conn, None, at, &missing).await?;
        let added: Vec<&CasePost> = posts
            .iter()
            .filter(|p| !pks.contains_key(p.id.as_str()))
            .collect();
        for post in added {
            let pk: i64 = sqlx::query_scalar("SELECT pk FROM posts WHERE id = ?")
                .bind(&post.id)
                .fetch_one(&mut *conn)
                .await?;
            pks.insert(&post.id, pk);
        }
    }

    for post in posts {
        let pk = pks[post.id.as_str()];
        for (request, nested) in &post.found_by {
            if let Some(history_id) = history.get(request) {
                sqlx::query(
                    "INSERT INTO post_sightings (post_pk, history_id, nested) VALUES (?, ?, ?)
                     ON CONFLICT (post_pk, history_id) DO UPDATE SET
                         nested = min(nested, excluded.nested)",
                )
                .bind(pk)
                .bind(history_id)
                .bind(nested)
                .execute(&mut *conn)
                .await?;
            }
        }
        let note_by = whose(&post.note_by);
        let filed: Option<(String, Option<String>, Option<String>)> = sqlx::query_as(
            "SELECT note, note_by_name, note_by_key FROM investigation_posts
             WHERE investigation_id = ? AND post_pk = ?",
        )
        .bind(id)
        .bind(pk)
        .fetch_optional(&mut *conn)
        .await?;
        // Taken out of the case, here or there: not filed again.
        let taken_out = with
            .unfiled
            .keeps_out(RemovedKind::Post, &post.id, post.filing.added_at);
        if filed.is_none() && taken_out {
            continue;
        }
        let held = removals::of_post(conn, id, pk).await?;
        let theirs: Vec<CaseRemoval> = post
            .removed
            .iter()
            .map(|r| CaseRemoval {
                by: whose(&r.by),
                ..r.clone()
            })
            .collect();
        let merging = Merging {
            id,
            pk,
            post,
            held: &held,
            theirs: &theirs,
            from: &case.from,
            package: (&case.package_sha256, &case.file_name),
            custody,
        };
        match filed {
            None => {
                let filed_by = whose(&post.filing.by);
                let (name, key) = split(&filed_by);
                let (note_name, note_key) = if post.note.is_empty() {
                    (None, None)
                } else {
                    split(&note_by)
                };
                sqlx::query(
                    "INSERT INTO investigation_posts (investigation_id, post_pk, created_at,
                         added_at, by_hand, note, by_name, by_key, note_by_name, note_by_key)
                     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                )
                .bind(id)
                .bind(pk)
                .bind(post.created_at)
                .bind(post.filing.added_at)
                .bind(post.filing.how == "by_hand")
                .bind(&post.note)
                .bind(name)
                .bind(key)
                .bind(note_name)
                .bind(note_key)
                .execute(&mut *conn)
                .await?;
                out.posts_added += 1;
                out.notes_added += u32::from(!post.note.is_empty());
            }
            Some((ours, ours_name, ours_key)) => {
                out.posts_held += 1;
                let ours_by = ours_key.map(|key| By {
                    name: ours_name.unwrap_or_default(),
                    key,
                });
                merge::note(conn, &merging, (ours, ours_by), note_by, out).await?;
            }
        }
        // Notes by others the package kept beside its own: kept here too (not this
        // installation's own, which it holds already).
        for (by, note) in &post.other_notes {
            if let Some(by) = whose(&Some(by.clone())) {
                other_note(conn, id, pk, &by, note, &case.package_sha256, at).await?;
            }
        }
        merge::tags(conn, &merging, whose, out).await?;
    }
    Ok(())
}

/// Keeps `by`'s note on a post beside the one held (one per person: their latest received).
pub(super) async fn other_note(
    conn: &mut SqliteConnection,
    id: i64,
    pk: i64,
    by: &By,
    note: &str,
    package_sha256: &str,
    at: i64,
) -> Result<()> {
    sqlx::query(
        "INSERT INTO investigation_other_notes (investigation_id, post_pk, by_name, by_key,
             note, package_sha256, received_at) VALUES (?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (investigation_id, post_pk, by_key) DO UPDATE SET
             by_name = excluded.by_name, note = excluded.note,
             package_sha256 = excluded.package_sha256, received_at = excluded.received_at",
    )
    .bind(id)
    .bind(pk)
    .bind(&by.name)
    .bind(&by.key)
    .bind(note)
    .bind(package_sha256)
    .bind(at)
    .execute(conn)
    .await?;
    Ok(())
}
