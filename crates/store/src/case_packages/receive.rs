//! Writing a received case package, in one transaction: a new case (its custody log continued
//! from the received one) or a merge into the case with the same id. A merge adds what is
//! missing by request and post ids and never overwrites: a note that differs is kept beside
//! the one held and returned as a difference; tags are joined; what either side removed stays
//! removed (`merge.rs`); a check is added once. Every
//! received request gets a `received_requests` row and no ledger row.

use std::collections::HashMap;

use chrono::{DateTime, Utc};
use sqlx::SqliteConnection;

use super::unfiled::Unfiled;
use super::{
    from_ms, By, CaseDifference, CaseMedia, CaseMediaFile, CaseReceived, ReceivedCase, RemovedKind,
};
use crate::custody::CustodyAction;
use crate::error::{Result, StoreError};
use crate::investigations::MAX_NAME_CHARS;
use crate::provenance::{self, Asked, NewProvenance};
use crate::time::to_ms;
use crate::Store;

/// Who did something, as stored here: `None` when it is this installation's own work (one of
/// its keys), else the person (a package's `None` being its signer).
struct Whose<'r> {
    from: &'r By,
    own: &'r [String],
}

impl Whose<'_> {
    fn stored(&self, by: &Option<By>) -> Option<By> {
        let by = by.as_ref().unwrap_or(self.from);
        (!self.own.contains(&by.key)).then(|| by.clone())
    }
}

fn split(by: &Option<By>) -> (Option<&str>, Option<&str>) {
    (
        by.as_ref().map(|b| b.name.as_str()),
        by.as_ref().map(|b| b.key.as_str()),
    )
}

impl Store {
    /// Writes `case` (read from a verified package) into the store at `now`: see the module.
    pub async fn receive_case(
        &self,
        case: &ReceivedCase,
        now: DateTime<Utc>,
    ) -> Result<CaseReceived> {
        let contents = &case.contents;
        let whose = Whose {
            from: &case.from,
            own: &case.own_keys,
        };
        let packed: Vec<Option<NewProvenance>> = contents
            .requests
            .iter()
            .map(|r| {
                r.capture.as_ref().map(|c| NewProvenance {
                    captured_at: from_ms(c.captured_at),
                    service_url: c.service_url.clone(),
                    response_url: c.response_url.clone(),
                    http_status: c.http_status,
                    billing_headers: c.billing_headers.clone(),
                    response_headers: c.response_headers.clone(),
                    app_version: c.app_version.clone(),
                    sha256: c.sha256.clone(),
                    body: c.body.clone(),
                    from_cache: c.from_cache,
                    stamp_with: None,
                })
            })
            .collect();
        let packed = packed
            .iter()
            .map(|p| p.as_ref().map(provenance::pack).transpose())
            .collect::<Result<Vec<_>>>()?;
        let at = to_ms(now);
        let mut tx = self.begin_write().await?;
        let mut out = CaseReceived::default();

        let held: Option<(i64, String, String, String)> = sqlx::query_as(
            "SELECT id, name, description, notebook FROM investigations WHERE case_id = ?",
        )
        .bind(&contents.case_id)
        .fetch_optional(&mut *tx)
        .await?;
        let id = match held {
            Some((id, name, description, notebook)) => {
                out.merged = true;
                out.name = name.clone();
                for (kind, ours, theirs) in [
                    ("name", name, &contents.name),
                    ("description", description, &contents.description),
                    ("notebook", notebook, &contents.notebook),
                ] {
                    if !theirs.is_empty() && &ours != theirs {
                        out.differences.push(CaseDifference {
                            kind: kind.into(),
                            post_id: None,
                            ours,
                            ours_by: None,
                            theirs: theirs.clone(),
                            theirs_by: case.from.clone(),
                        });
                    }
                }
                id
            }
            None => {
                let name = free_name(&mut tx, &contents.name, &case.from).await?;
                out.name = name.clone();
                let id: i64 = sqlx::query_scalar(
                    // A new id past every one a custody log holds (a deleted case's log
                    // keeps its id), as `create_investigation` numbers them.
                    "INSERT INTO investigations (id, name, description, notebook, created_at,
                         updated_at, media_full_view, case_id)
                     VALUES (max(COALESCE((SELECT max(id) FROM investigations), 0),
                                 COALESCE((SELECT max(investigation_id) FROM custody_log), 0)) + 1,
                             ?, ?, ?, ?, ?, ?, ?) RETURNING id",
                )
                .bind(&name)
                .bind(&contents.description)
                .bind(&contents.notebook)
                .bind(at)
                .bind(at)
                .bind(contents.media_full_view)
                .bind(&contents.case_id)
                .fetch_one(&mut *tx)
                .await?;
                // The received log, entry for entry: the table's trigger checks each one
                // follows the last and carries its own hash, so it stays verifiable here.
                for entry in &case.custody {
                    sqlx::query(
                        "INSERT INTO custody_log (investigation_id, seq, at, collector, action,
                             ids, detail, prev_hash, hash)
                         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    )
                    .bind(id)
                    .bind(entry.seq)
                    .bind(entry.at)
                    .bind(&entry.collector)
                    .bind(entry.action.as_str())
                    .bind(serde_json::to_string(&entry.ids)?)
                    .bind(&entry.detail)
                    .bind(&entry.prev_hash)
                    .bind(&entry.hash)
                    .execute(&mut *tx)
                    .await?;
                }
                id
            }
        };
        out.investigation_id = id;
        let whose_of = whose_fn(&whose);
        let unfiled = Unfiled::load(&mut tx, id, &contents.unfiled, &whose_of).await?;

        // Requests, by request id.
        let mut history: HashMap<String, i64> = HashMap::new();
        for (request, packed) in contents.requests.iter().zip(&packed) {
            let found: Option<i64> =
                sqlx::query_scalar("SELECT id FROM history WHERE request_id = ?")
                    .bind(&request.request_id)
                    .fetch_optional(&mut *tx)
                    .await?;
            let history_id = match found {
                Some(history_id) => {
                    out.requests_held += 1;
                    history_id
                }
                None => {
                    out.requests_added += 1;
                    let parent = match &request.parent_request_id {
                        Some(parent) => lookup(&mut tx, &history, parent).await?,
                        None => None,
                    };
                    let history_id = insert_history(&mut tx, request, parent).await?;
                    let result = match (&request.result_body, &request.capture) {
                        (Some(text), _) => Some(text.clone()),
                        (None, Some(c)) if request.has_result => {
                            Some(String::from_utf8_lossy(&c.body).into_owned())
                        }
                        _ => None,
                    };
                    if let Some(body) = result {
                        sqlx::query("INSERT INTO results (history_id, body) VALUES (?, ?)")
                            .bind(history_id)
                            .bind(body)
                            .execute(&mut *tx)
                            .await?;
                    }
                    if let Some(packed) = packed {
                        let asked = Asked {
                            operation: &request.operation,
                            params_json: &request.params_json,
                        };
                        provenance::write(&mut tx, history_id, asked, packed).await?;
                    }
                    if let (Some(stamp), Some(capture)) = (&request.stamp, &request.capture) {
                        sqlx::query(
                            "INSERT INTO stamps (history_id, sha256, state, tsa_url, enqueued_at,
                                 token, stamped_at, authority, certificates_pem)
                             VALUES (?, ?, 'stamped', ?, ?, ?, ?, ?, ?)",
                        )
                        .bind(history_id)
                        .bind(&capture.sha256)
                        .bind(&stamp.tsa_url)
                        .bind(stamp.stamped_at)
                        .bind(&stamp.token)
                        .bind(stamp.stamped_at)
                        .bind(&stamp.authority)
                        .bind(&stamp.certificates_pem)
                        .execute(&mut *tx)
                        .await?;
                    }
                    let by = request.collected_by.as_ref().unwrap_or(&case.from);
                    sqlx::query(
                        "INSERT INTO received_requests (history_id, package_sha256, by_name,
                             by_key, received_at) VALUES (?, ?, ?, ?, ?)",
                    )
                    .bind(history_id)
                    .bind(&case.package_sha256)
                    .bind(&by.name)
                    .bind(&by.key)
                    .bind(at)
                    .execute(&mut *tx)
                    .await?;
                    history_id
                }
            };
            history.insert(request.request_id.clone(), history_id);
            let filing = request.filing.as_ref().filter(|f| {
                !unfiled.keeps_out(RemovedKind::Request, &request.request_id, f.added_at)
            });
            if let Some(filing) = filing {
                let filed_by = whose.stored(&filing.by);
                let (name, key) = split(&filed_by);
                sqlx::query(
                    "INSERT OR IGNORE INTO investigation_requests
                         (investigation_id, history_id, added_at, how, by_name, by_key)
                     VALUES (?, ?, ?, ?, ?, ?)",
                )
                .bind(id)
                .bind(history_id)
                .bind(filing.added_at)
                .bind(&filing.how)
                .bind(name)
                .bind(key)
                .execute(&mut *tx)
                .await?;
            }
        }

        let custody = self.custody_at(at);
        let posts = super::posts::Received {
            whose: &whose_of,
            history: &history,
            unfiled: &unfiled,
            custody: &custody,
        };
        super::posts::receive(&mut tx, id, case, &posts, &mut out).await?;
        let package = (case.package_sha256.as_str(), case.file_name.as_str());
        unfiled
            .apply(&mut tx, id, (&case.from, package), &custody, &mut out)
            .await?;
        receive_checks(&mut tx, id, case, &whose, &history, &mut out).await?;
        for item in &contents.media {
            out.media_added += receive_media(&mut tx, item, at).await?;
        }

        let (action, detail) = if out.merged {
            (
                CustodyAction::PackageMerged,
                format!(
                    "case package {} merged, signed by {} (key {}); its custody log: {} entries, \
                     head {}; {} requests and {} posts added, {} removals made there taken on \
                     here, {} differences kept on both sides",
                    case.file_name,
                    case.from.name,
                    case.from.key,
                    case.custody.len(),
                    case.custody.last().map_or("none", |e| e.hash.as_str()),
                    out.requests_added,
                    out.posts_added,
                    out.removed.len(),
                    out.differences.len()
                ),
            )
        } else {
            (
                CustodyAction::PackageImported,
                format!(
                    "case package {} opened, signed by {} (key {}); the {} entries above are its \
                     custody log as received; {} requests and {} posts",
                    case.file_name,
                    case.from.name,
                    case.from.key,
                    case.custody.len(),
                    out.requests_added + out.requests_held,
                    out.posts_added + out.posts_held
                ),
            )
        };
        let ids = vec![
            format!("file:{}", case.file_name),
            format!("package:{}", case.package_sha256),
        ];
        custody.append(&mut tx, id, action, ids, &detail).await?;
        sqlx::query(
            "INSERT INTO case_packages_received (investigation_id, package_sha256,
                 manifest_sha256, received_at, merged, by_name, by_key, custody_jsonl,
                 custody_head, summary_json)
             VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        )
        .bind(id)
        .bind(&case.package_sha256)
        .bind(&case.manifest_sha256)
        .bind(at)
        .bind(out.merged)
        .bind(&case.from.name)
        .bind(&case.from.key)
        .bind(crate::custody::to_jsonl(&case.custody))
        .bind(
            case.custody
                .last()
                .map_or(crate::custody::GENESIS_HASH, |e| e.hash.as_str()),
        )
        .bind(serde_json::to_string(&out)?)
        .execute(&mut *tx)
        .await?;
        sqlx::query("UPDATE investigations SET updated_at = max(updated_at, ?) WHERE id = ?")
            .bind(at)
            .bind(id)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(out)
    }
}

/// The attribution rule as a plain function, for the posts' module.
fn whose_fn<'a>(whose: &'a Whose<'a>) -> impl Fn(&Option<By>) -> Option<By> + 'a {
    move |by| whose.stored(by)
}

/// A request's history id by request id: received just now, or held before.
async fn lookup(
    conn: &mut SqliteConnection,
    history: &HashMap<String, i64>,
    request_id: &str,
) -> Result<Option<i64>> {
    if let Some(id) = history.get(request_id) {
        return Ok(Some(*id));
    }
    Ok(
        sqlx::query_scalar("SELECT id FROM history WHERE request_id = ?")
            .bind(request_id)
            .fetch_optional(conn)
            .await?,
    )
}

async fn insert_history(
    conn: &mut SqliteConnection,
    r: &super::CaseRequest,
    parent: Option<i64>,
) -> Result<i64> {
    Ok(sqlx::query_scalar(
        "INSERT INTO history (request_id, started_at, operation, params_json, key_label, mode,
             status, error_class, error_message, duration_ms, result_count, cost_nanos,
             cost_text, cost_unreadable, usage_count, service, currency, cursor, next_cursor,
             parent_id)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
    )
    .bind(&r.request_id)
    .bind(r.started_at)
    .bind(&r.operation)
    .bind(&r.params_json)
    .bind(&r.key_label)
    .bind(&r.mode)
    .bind(&r.status)
    .bind(&r.error_class)
    .bind(&r.error_message)
    .bind(r.duration_ms)
    .bind(r.result_count)
    .bind(r.cost_nanos)
    .bind(&r.cost_text)
    .bind(r.cost_unreadable)
    .bind(r.usage_count)
    .bind(&r.service)
    .bind(&r.currency)
    .bind(&r.cursor)
    .bind(&r.next_cursor)
    .bind(parent)
    .fetch_one(conn)
    .await?)
}

/// The case's name, or, when another case here has it, the name with whom it came from.
async fn free_name(conn: &mut SqliteConnection, name: &str, from: &By) -> Result<String> {
    let who = if from.name.is_empty() {
        "a colleague".to_owned()
    } else {
        from.name.clone()
    };
    for n in 0..1000 {
        let suffix = match n {
            0 => String::new(),
            1 => format!(" (from {who})"),
            n => format!(" (from {who}, {n})"),
        };
        // Within the longest name an investigation may have, the suffix kept whole.
        let room = MAX_NAME_CHARS.saturating_sub(suffix.chars().count());
        let candidate: String = name.chars().take(room).chain(suffix.chars()).collect();
        let taken: Option<i64> =
            sqlx::query_scalar("SELECT id FROM investigations WHERE name = ? COLLATE NOCASE")
                .bind(&candidate)
                .fetch_optional(&mut *conn)
                .await?;
        if taken.is_none() {
            return Ok(candidate);
        }
    }
    Err(StoreError::InvalidInput(format!(
        "every name for the received case {name} is taken"
    )))
}

async fn receive_checks(
    conn: &mut SqliteConnection,
    id: i64,
    case: &ReceivedCase,
    whose: &Whose<'_>,
    history: &HashMap<String, i64>,
    out: &mut CaseReceived,
) -> Result<()> {
    for check in &case.contents.checks {
        let by = whose.stored(&check.by);
        let (name, key) = split(&by);
        let held: Option<i64> = sqlx::query_scalar(
            "SELECT id FROM investigation_checks
             WHERE investigation_id = ? AND checked_at = ? AND by_key IS ?",
        )
        .bind(id)
        .bind(check.checked_at)
        .bind(key)
        .fetch_optional(&mut *conn)
        .await?;
        if let Some(check_id) = held {
            let items: Vec<(String, String, String)> = sqlx::query_as(
                "SELECT post_id, outcome, changes FROM investigation_check_items
                 WHERE check_id = ? ORDER BY post_id",
            )
            .bind(check_id)
            .fetch_all(&mut *conn)
            .await?;
            if items != check.items {
                out.differences.push(CaseDifference {
                    kind: "check".into(),
                    post_id: None,
                    ours: format!("{} lines", items.len()),
                    ours_by: by.clone(),
                    theirs: format!("{} lines", check.items.len()),
                    theirs_by: check.by.clone().unwrap_or_else(|| case.from.clone()),
                });
            }
            continue;
        }
        let mut ids = Vec::new();
        for request in &check.request_ids {
            ids.extend(lookup(conn, history, request).await?);
        }
        let check_id: i64 = sqlx::query_scalar(
            "INSERT INTO investigation_checks (investigation_id, checked_at, cost_nanos,
                 history_ids, by_name, by_key) VALUES (?, ?, ?, ?, ?, ?) RETURNING id",
        )
        .bind(id)
        .bind(check.checked_at)
        .bind(check.cost_nanos)
        .bind(serde_json::to_string(&ids)?)
        .bind(name)
        .bind(key)
        .fetch_one(&mut *conn)
        .await?;
        for (post_id, outcome, changes) in &check.items {
            sqlx::query(
                "INSERT OR IGNORE INTO investigation_check_items (check_id, post_id, outcome,
                     changes) VALUES (?, ?, ?, ?)",
            )
            .bind(check_id)
            .bind(post_id)
            .bind(outcome)
            .bind(changes)
            .execute(&mut *conn)
            .await?;
        }
        out.checks_added += 1;
    }
    Ok(())
}

async fn receive_file(conn: &mut SqliteConnection, file: &CaseMediaFile) -> Result<()> {
    let pdq = file
        .pdq
        .as_deref()
        .map(|hex| {
            (0..hex.len() / 2)
                .map(|i| u8::from_str_radix(hex.get(2 * i..2 * i + 2).unwrap_or("zz"), 16))
                .collect::<std::result::Result<Vec<u8>, _>>()
                .map_err(|_| StoreError::InvalidInput("a media file's PDQ is not hex".into()))
        })
        .transpose()?;
    sqlx::query(
        "INSERT OR IGNORE INTO media_files (sha256, size, content_type, pdq, pdq_quality, width,
             height, first_kept_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
    )
    .bind(&file.sha256)
    .bind(file.size)
    .bind(&file.content_type)
    .bind(pdq)
    .bind(file.pdq_quality)
    .bind(file.width)
    .bind(file.height)
    .bind(file.first_kept_at)
    .execute(conn)
    .await?;
    Ok(())
}

/// One media item, unless the post's item at that position is held already (1 when added).
async fn receive_media(conn: &mut SqliteConnection, item: &CaseMedia, at: i64) -> Result<u32> {
    for file in [&item.file, &item.poster].into_iter().flatten() {
        receive_file(conn, file).await?;
    }
    let next_try_at = (item.state == "waiting").then_some(at);
    let done = sqlx::query(
        "INSERT OR IGNORE INTO media_items (post_id, position, kind, source_url, poster_url,
             state, attempts, next_try_at, reason, http_status, response_headers, fetched_at,
             sha256, poster_sha256, queued_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
    )
    .bind(&item.post_id)
    .bind(item.position)
    .bind(&item.kind)
    .bind(&item.source_url)
    .bind(&item.poster_url)
    .bind(&item.state)
    .bind(item.attempts)
    .bind(next_try_at)
    .bind(&item.reason)
    .bind(item.http_status)
    .bind(&item.response_headers)
    .bind(item.fetched_at)
    .bind(item.file.as_ref().map(|f| &f.sha256))
    .bind(item.poster.as_ref().map(|f| &f.sha256))
    .bind(item.queued_at)
    .execute(conn)
    .await?;
    Ok(u32::from(done.rows_affected() > 0))
}
