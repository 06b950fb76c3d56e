//! Reading a case for its package: every row it is made of, with who did what (`by`: `None`
//! for this installation, a colleague's name and key for work received from them).

use std::collections::{HashMap, HashSet};

use sqlx::sqlite::SqliteRow;
use sqlx::Row;

use super::{
    By, CaseCapture, CaseCheck, CaseContents, CaseFiling, CaseMedia, CaseMediaFile, CasePost,
    CaseRemoval, CaseRequest, CaseStamp, CaseTag,
};
use crate::error::{Result, StoreError};
use crate::Store;

/// `by` from a pair of nullable columns.
pub(super) fn by_of(row: &SqliteRow, name: &str, key: &str) -> Result<Option<By>> {
    let name: Option<String> = row.try_get(name)?;
    let key: Option<String> = row.try_get(key)?;
    Ok(key.map(|key| By {
        name: name.unwrap_or_default(),
        key,
    }))
}

const REQUEST_SQL: &str = "SELECT h.request_id, h.started_at, h.operation, h.params_json,
    h.key_label, h.mode, h.status, h.error_class, h.error_message, h.duration_ms,
    h.result_count, h.cost_nanos, h.cost_text, h.cost_unreadable, h.usage_count, h.service,
    h.currency, h.cursor, h.next_cursor, par.request_id AS parent_request_id,
    res.body AS result_body,
    ir.added_at AS filed_at, ir.how AS filed_how, ir.by_name AS filed_by_name,
    ir.by_key AS filed_by_key, rr.by_name AS got_by_name, rr.by_key AS got_by_key,
    pv.captured_at, pv.service_url, pv.response_url, pv.http_status, pv.billing_headers,
    pv.app_version, pv.sha256, pv.body_size, pv.body, pv.from_cache, rh.headers,
    st.tsa_url, st.stamped_at, st.authority, st.certificates_pem, st.token
    FROM history h
    LEFT JOIN history par ON par.id = h.parent_id
    LEFT JOIN results res ON res.history_id = h.id
    LEFT JOIN investigation_requests ir ON ir.history_id = h.id AND ir.investigation_id = ?
    LEFT JOIN received_requests rr ON rr.history_id = h.id
    LEFT JOIN provenance pv ON pv.history_id = h.id
    LEFT JOIN response_headers rh ON rh.history_id = h.id
    LEFT JOIN stamps st ON st.history_id = h.id AND st.state = 'stamped'
    WHERE h.id = ?";

fn request_of(row: &SqliteRow) -> Result<CaseRequest> {
    let capture = match row.try_get::<Option<i64>, _>("captured_at")? {
        None => None,
        Some(captured_at) => {
            let stored: Vec<u8> = row.try_get("body")?;
            let size: i64 = row.try_get("body_size")?;
            let headers: Option<String> = row.try_get("headers")?;
            let billing: String = row.try_get("billing_headers")?;
            Some(CaseCapture {
                captured_at,
                service_url: row.try_get("service_url")?,
                response_url: row.try_get("response_url")?,
                http_status: u16::try_from(row.try_get::<i64, _>("http_status")?).unwrap_or(0),
                billing_headers: serde_json::from_str(&billing)?,
                response_headers: headers.map(|h| serde_json::from_str(&h)).transpose()?,
                app_version: row.try_get("app_version")?,
                sha256: row.try_get("sha256")?,
                body_size: size,
                from_cache: row.try_get("from_cache")?,
                file: None,
                body: crate::provenance::decompress(&stored, size)?,
            })
        }
    };
    let stamp = match row.try_get::<Option<Vec<u8>>, _>("token")? {
        None => None,
        Some(token) => Some(CaseStamp {
            tsa_url: row.try_get("tsa_url")?,
            stamped_at: row.try_get("stamped_at")?,
            authority: row
                .try_get::<Option<String>, _>("authority")?
                .unwrap_or_default(),
            certificates_pem: row
                .try_get::<Option<String>, _>("certificates_pem")?
                .unwrap_or_default(),
            file: None,
            token,
        }),
    };
    let result: Option<String> = row.try_get("result_body")?;
    // The stored result is most often the response's bytes as text: then it is not carried
    // twice, and the receiver takes it from the capture.
    let same = match (&result, &capture) {
        (Some(text), Some(c)) => text.as_bytes() == c.body.as_slice(),
        _ => false,
    };
    let filing = match row.try_get::<Option<i64>, _>("filed_at")? {
        None => None,
        Some(added_at) => Some(CaseFiling {
            added_at,
            how: row.try_get("filed_how")?,
            by: by_of(row, "filed_by_name", "filed_by_key")?,
        }),
    };
    Ok(CaseRequest {
        request_id: row.try_get("request_id")?,
        started_at: row.try_get("started_at")?,
        operation: row.try_get("operation")?,
        params_json: row.try_get("params_json")?,
        key_label: row.try_get("key_label")?,
        mode: row.try_get("mode")?,
        status: row.try_get("status")?,
        error_class: row.try_get("error_class")?,
        error_message: row.try_get("error_message")?,
        duration_ms: row.try_get("duration_ms")?,
        result_count: row.try_get("result_count")?,
        cost_nanos: row.try_get("cost_nanos")?,
        cost_text: row.try_get("cost_text")?,
        cost_unreadable: row.try_get("cost_unreadable")?,
        usage_count: row.try_get("usage_count")?,
        service: row.try_get("service")?,
        currency: row.try_get("currency")?,
        cursor: row.try_get("cursor")?,
        next_cursor: row.try_get("next_cursor")?,
        parent_request_id: row.try_get("parent_request_id")?,
        has_result: result.is_some(),
        result_body: if same { None } else { result },
        capture,
        stamp,
        filing,
        collected_by: by_of(row, "got_by_name", "got_by_key")?,
    })
}

fn media_file(row: &SqliteRow, prefix: &str) -> Result<Option<CaseMediaFile>> {
    let col = |name: &str| format!("{prefix}{name}");
    let Some(sha256) = row.try_get::<Option<String>, _>(col("sha256").as_str())? else {
        return Ok(None);
    };
    let pdq: Option<Vec<u8>> = row.try_get(col("pdq").as_str())?;
    Ok(Some(CaseMediaFile {
        sha256,
        size: row.try_get(col("size").as_str())?,
        content_type: row.try_get(col("content_type").as_str())?,
        pdq: pdq.map(|p| crate::media::hex(&p)),
        pdq_quality: row.try_get(col("pdq_quality").as_str())?,
        width: row.try_get(col("width").as_str())?,
        height: row.try_get(col("height").as_str())?,
        first_kept_at: row.try_get(col("first_kept_at").as_str())?,
    }))
}

/// Posts read per page.
const POST_PAGE: i64 = 1_000;

/// What a page of posts carries besides their rows.
#[derive(Default)]
struct Page {
    found: HashMap<i64, Vec<(String, bool)>>,
    tags: HashMap<i64, Vec<CaseTag>>,
    others: HashMap<i64, Vec<(By, String)>>,
    removed: HashMap<i64, Vec<CaseRemoval>>,
}

/// The sightings (by the case's own requests), tags, other notes and removals of the posts `pks` (a
/// JSON array).
async fn page_of(
    conn: &mut sqlx::SqliteConnection,
    investigation_id: i64,
    pks: &str,
    in_case: &HashSet<&str>,
) -> Result<Page> {
    let mut page = Page::default();
    for row in sqlx::query(
        "SELECT s.post_pk, h.request_id, s.nested FROM post_sightings s
         JOIN history h ON h.id = s.history_id
         WHERE s.post_pk IN (SELECT value FROM json_each(?)) ORDER BY s.post_pk, h.id",
    )
    .bind(pks)
    .fetch_all(&mut *conn)
    .await?
    {
        let request: String = row.try_get("request_id")?;
        if in_case.contains(request.as_str()) {
            page.found
                .entry(row.try_get("post_pk")?)
                .or_default()
                .push((request, row.try_get("nested")?));
        }
    }
    for row in sqlx::query(
        "SELECT t.post_pk, t.tag, t.by_name, t.by_key, COALESCE(tt.added_at, 0) AS added_at
         FROM investigation_tags t
         LEFT JOIN investigation_tag_times tt ON tt.investigation_id = t.investigation_id
             AND tt.post_pk = t.post_pk AND tt.tag = t.tag
         WHERE t.investigation_id = ? AND t.post_pk IN (SELECT value FROM json_each(?))
         ORDER BY t.post_pk, t.tag",
    )
    .bind(investigation_id)
    .bind(pks)
    .fetch_all(&mut *conn)
    .await?
    {
        page.tags
            .entry(row.try_get("post_pk")?)
            .or_default()
            .push(CaseTag {
                tag: row.try_get("tag")?,
                by: by_of(&row, "by_name", "by_key")?,
                added_at: row.try_get("added_at")?,
            });
    }
    for row in sqlx::query(
        "SELECT post_pk, by_name, by_key, note FROM investigation_other_notes
         WHERE investigation_id = ? AND post_pk IN (SELECT value FROM json_each(?))
         ORDER BY post_pk, by_key",
    )
    .bind(investigation_id)
    .bind(pks)
    .fetch_all(&mut *conn)
    .await?
    {
        let by = By {
            name: row.try_get("by_name")?,
            key: row.try_get("by_key")?,
        };
        page.others
            .entry(row.try_get("post_pk")?)
            .or_default()
            .push((by, row.try_get("note")?));
    }
    page.removed = super::removals::of_posts(conn, investigation_id, pks).await?;
    Ok(page)
}

/// One post's line from its row and its page.
fn post_of(row: &SqliteRow, page: &Page) -> Result<CasePost> {
    let pk: i64 = row.try_get("pk")?;
    let by_hand: bool = row.try_get("by_hand")?;
    Ok(CasePost {
        id: row.try_get("id")?,
        conversation_id: row.try_get("conversation_id")?,
        author_id: row.try_get("author_id")?,
        author_username: row.try_get("author_username")?,
        author_name: row.try_get("author_name")?,
        author_verified: row.try_get("author_verified")?,
        text: row.try_get("text")?,
        lang: row.try_get("lang")?,
        created_at: row.try_get("created_at")?,
        like_count: row.try_get("like_count")?,
        retweet_count: row.try_get("retweet_count")?,
        reply_count: row.try_get("reply_count")?,
        quote_count: row.try_get("quote_count")?,
        view_count: row.try_get("view_count")?,
        bookmark_count: row.try_get("bookmark_count")?,
        hashtags: row.try_get("hashtags")?,
        url: row.try_get("url")?,
        raw_json: row.try_get("raw_json")?,
        found_by: page.found.get(&pk).cloned().unwrap_or_default(),
        filing: CaseFiling {
            added_at: row.try_get("filed_at")?,
            how: if by_hand { "by_hand" } else { "found" }.into(),
            by: by_of(row, "filed_by_name", "filed_by_key")?,
        },
        note: row.try_get("note")?,
        note_by: by_of(row, "note_by_name", "note_by_key")?,
        other_notes: page.others.get(&pk).cloned().unwrap_or_default(),
        tags: page.tags.get(&pk).cloned().unwrap_or_default(),
        removed: page.removed.get(&pk).cloned().unwrap_or_default(),
    })
}

impl Store {
    /// The case investigation `investigation_id` is, as its package carries it: the requests
    /// `history_ids` in that order (its own and those that only brought posts), with their
    /// exact bytes read back; every post filed, its checks and its posts' media.
    pub async fn case_contents(
        &self,
        investigation_id: i64,
        history_ids: &[i64],
    ) -> Result<CaseContents> {
        let mut conn = self.pool.acquire().await?;
        let row = sqlx::query(
            "SELECT case_id, name, description, notebook, media_full_view
             FROM investigations WHERE id = ?",
        )
        .bind(investigation_id)
        .fetch_optional(&mut *conn)
        .await?
        .ok_or_else(|| StoreError::InvalidInput("that investigation no longer exists".into()))?;
        let mut contents = CaseContents {
            case_id: row.try_get("case_id")?,
            name: row.try_get("name")?,
            description: row.try_get("description")?,
            notebook: row.try_get("notebook")?,
            media_full_view: row.try_get("media_full_view")?,
            ..CaseContents::default()
        };
        contents.unfiled = super::removals::unfiled_of(&mut conn, investigation_id).await?;
        for id in history_ids {
            let row = sqlx::query(REQUEST_SQL)
                .bind(investigation_id)
                .bind(id)
                .fetch_optional(&mut *conn)
                .await?;
            if let Some(row) = row {
                contents.requests.push(request_of(&row)?);
            }
        }
        let in_case: HashSet<&str> = contents
            .requests
            .iter()
            .map(|r| r.request_id.as_str())
            .collect();

        // A page of posts at a time (with their sightings, tags and other notes), so a case
        // of many posts is never held twice as rows.
        let mut after = (i64::MIN, i64::MIN);
        loop {
            let rows = sqlx::query(
                "SELECT p.*, ip.added_at AS filed_at, ip.by_hand, ip.by_name AS filed_by_name,
                        ip.by_key AS filed_by_key, ip.note, ip.note_by_name, ip.note_by_key
                 FROM investigation_posts ip JOIN posts p ON p.pk = ip.post_pk
                 WHERE ip.investigation_id = ? AND (p.created_at, p.pk) > (?, ?)
                 ORDER BY p.created_at, p.pk LIMIT ?",
            )
            .bind(investigation_id)
            .bind(after.0)
            .bind(after.1)
            .bind(POST_PAGE)
            .fetch_all(&mut *conn)
            .await?;
            let Some(last) = rows.last() else {
                break;
            };
            after = (last.try_get("created_at")?, last.try_get("pk")?);
            let pks: Vec<i64> = rows
                .iter()
                .map(|row| row.try_get("pk"))
                .collect::<std::result::Result<_, _>>()?;
            let pks = serde_json::to_string(&pks)?;
            let page = page_of(&mut conn, investigation_id, &pks, &in_case).await?;
            for row in &rows {
                contents.posts.push(post_of(row, &page)?);
            }
            if rows.len() < POST_PAGE as usize {
                break;
            }
        }

        let checks = sqlx::query(
            "SELECT id, checked_at, cost_nanos, history_ids, by_name, by_key
             FROM investigation_checks WHERE investigation_id = ? ORDER BY checked_at, id",
        )
        .bind(investigation_id)
        .fetch_all(&mut *conn)
        .await?;
        for row in checks {
            let check_id: i64 = row.try_get("id")?;
            let ids: Vec<i64> = serde_json::from_str(&row.try_get::<String, _>("history_ids")?)?;
            let mut request_ids = Vec::with_capacity(ids.len());
            for id in ids {
                let found: Option<String> =
                    sqlx::query_scalar("SELECT request_id FROM history WHERE id = ?")
                        .bind(id)
                        .fetch_optional(&mut *conn)
                        .await?;
                request_ids.extend(found);
            }
            let items: Vec<(String, String, String)> = sqlx::query_as(
                "SELECT post_id, outcome, changes FROM investigation_check_items
                 WHERE check_id = ? ORDER BY post_id",
            )
            .bind(check_id)
            .fetch_all(&mut *conn)
            .await?;
            contents.checks.push(CaseCheck {
                checked_at: row.try_get("checked_at")?,
                cost_nanos: row.try_get("cost_nanos")?,
                request_ids,
                by: by_of(&row, "by_name", "by_key")?,
                items,
            });
        }

        let media = sqlx::query(
            "SELECT m.post_id, m.position, m.kind, m.source_url, m.poster_url, m.state,
                    m.attempts, m.reason, m.http_status, m.response_headers, m.fetched_at,
                    m.queued_at,
                    f.sha256 AS f_sha256, f.size AS f_size, f.content_type AS f_content_type,
                    f.pdq AS f_pdq, f.pdq_quality AS f_pdq_quality, f.width AS f_width,
                    f.height AS f_height, f.first_kept_at AS f_first_kept_at,
                    pf.sha256 AS p_sha256, pf.size AS p_size, pf.content_type AS p_content_type,
                    pf.pdq AS p_pdq, pf.pdq_quality AS p_pdq_quality, pf.width AS p_width,
                    pf.height AS p_height, pf.first_kept_at AS p_first_kept_at
             FROM investigation_posts ip JOIN posts p ON p.pk = ip.post_pk
             JOIN media_items m ON m.post_id = p.id
             LEFT JOIN media_files f ON f.sha256 = m.sha256
             LEFT JOIN media_files pf ON pf.sha256 = m.poster_sha256
             WHERE ip.investigation_id = ? ORDER BY p.created_at, p.pk, m.position",
        )
        .bind(investigation_id)
        .fetch_all(&mut *conn)
        .await?;
        for row in media {
            contents.media.push(CaseMedia {
                post_id: row.try_get("post_id")?,
                position: row.try_get("position")?,
                kind: row.try_get("kind")?,
                source_url: row.try_get("source_url")?,
                poster_url: row.try_get("poster_url")?,
                state: row.try_get("state")?,
                attempts: row.try_get("attempts")?,
                reason: row.try_get("reason")?,
                http_status: row.try_get("http_status")?,
                response_headers: row.try_get("response_headers")?,
                fetched_at: row.try_get("fetched_at")?,
                queued_at: row.try_get("queued_at")?,
                file: media_file(&row, "f_")?,
                poster: media_file(&row, "p_")?,
            });
        }
        Ok(contents)
    }

    /// The investigation holding case `case_id` (its id and name), if any.
    pub async fn investigation_of_case(&self, case_id: &str) -> Result<Option<(i64, String)>> {
        Ok(
            sqlx::query_as("SELECT id, name FROM investigations WHERE case_id = ?")
                .bind(case_id)
                .fetch_optional(&self.pool)
                .await?,
        )
    }

    /// The case id of investigation `investigation_id`, `None` when there is no such one.
    pub async fn case_id(&self, investigation_id: i64) -> Result<Option<String>> {
        Ok(
            sqlx::query_scalar("SELECT case_id FROM investigations WHERE id = ?")
                .bind(investigation_id)
                .fetch_optional(&self.pool)
                .await?
                .flatten(),
        )
    }

    /// The differences still standing in a case: a colleague's note that is not the one kept.
    pub async fn case_other_notes(
        &self,
        investigation_id: i64,
    ) -> Result<Vec<super::CaseDifference>> {
        let rows = sqlx::query(
            "SELECT p.id AS post_id, ip.note, ip.note_by_name, ip.note_by_key,
                    o.note AS theirs, o.by_name, o.by_key
             FROM investigation_other_notes o
             JOIN investigation_posts ip
               ON ip.investigation_id = o.investigation_id AND ip.post_pk = o.post_pk
             JOIN posts p ON p.pk = o.post_pk
             WHERE o.investigation_id = ? AND o.note <> ip.note
             ORDER BY p.created_at, p.pk, o.by_key",
        )
        .bind(investigation_id)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|row| {
                Ok(super::CaseDifference {
                    kind: "note".into(),
                    post_id: row.try_get("post_id")?,
                    ours: row.try_get("note")?,
                    ours_by: by_of(row, "note_by_name", "note_by_key")?,
                    theirs: row.try_get("theirs")?,
                    theirs_by: By {
                        name: row.try_get("by_name")?,
                        key: row.try_get("by_key")?,
                    },
                })
            })
            .collect()
    }
}
