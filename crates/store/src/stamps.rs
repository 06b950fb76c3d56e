//! Trusted timestamps (RFC 3161) of captures: one row per capture to be stamped over its
//! SHA-256 (migration `0015_timestamps.sql`), its state (waiting, stamped, failed and why),
//! the timestamp authority (TSA) asked, the attempts, the next try, and once stamped the
//! authority's token exactly as received, its time and name and the certificates it carried.
//!
//! A capture is queued in its own record's transaction when it is recorded while a TSA is set
//! ([`crate::NewProvenance::stamp_with`]), so none is lost between the two; an investigation's
//! captures are queued on the user's "Stamp now" ([`Store::stamp_investigation`]), which also
//! puts its failed ones back in the queue. The stamper reads only the next waiting row
//! ([`Store::next_stamp`], one indexed look). A failed attempt holds every waiting capture
//! until the time the stamper gives (the authority is down for all of them, so none is asked
//! before then); that hold is in the rows, so it outlives a restart. A stamped row is never
//! edited again (a trigger refuses it).

use chrono::{DateTime, Utc};
use serde::Serialize;
use sqlx::{QueryBuilder, Row, Sqlite, SqliteConnection};
use ts_rs::TS;

use crate::error::Result;
use crate::time::{from_ms, to_ms};
use crate::Store;

/// What is known of a capture's trusted timestamp.
#[derive(Serialize, TS, Clone, Debug, PartialEq, Eq)]
#[serde(tag = "state", rename_all = "snake_case")]
#[ts(export)]
pub enum StampState {
    /// None was asked for: no timestamp authority was set when it was captured, and no one
    /// asked since.
    NotAsked,
    /// Queued: the authority will be asked at `next_try_at`.
    Waiting {
        /// The authority to ask.
        tsa_url: String,
        /// When it will be asked (this computer's clock).
        next_try_at: DateTime<Utc>,
        /// Requests sent for it so far.
        attempts: i64,
        /// Why the last attempt failed, if one did.
        problem: Option<String>,
    },
    /// The authority's token is stored.
    Stamped {
        /// The authority that stamped it.
        tsa_url: String,
        /// The time inside the token: the authority's clock.
        stamped_at: DateTime<Utc>,
        /// The name the authority gives itself in the token.
        authority: String,
    },
    /// The authority refused it or answered with something that is no token; asked again only
    /// when the user asks.
    Failed {
        /// The authority asked.
        tsa_url: String,
        /// Requests sent for it.
        attempts: i64,
        /// Why, in words.
        problem: String,
    },
}

/// A capture's stamp state, for a list of captures.
#[derive(Serialize, TS, Clone, Debug, PartialEq, Eq)]
#[ts(export)]
pub struct CaptureStamp {
    /// The capture's history row.
    pub history_id: i64,
    /// Its trusted timestamp's state.
    pub stamp: StampState,
}

/// How many of an investigation's captures are in each state.
#[derive(Serialize, TS, Clone, Copy, Debug, Default, PartialEq, Eq)]
#[ts(export)]
pub struct StampCounts {
    /// Captures whose token is stored.
    pub stamped: i64,
    /// Captures queued for the authority.
    pub waiting: i64,
    /// Captures the authority refused (or answered with no token).
    pub failed: i64,
    /// Captures no timestamp was asked for.
    pub not_asked: i64,
}

/// A stored token, as a bundle carries it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StampToken {
    /// The capture's history row.
    pub history_id: i64,
    /// The SHA-256 it stamps (the capture's), lower-case hex.
    pub sha256: String,
    /// The authority asked.
    pub tsa_url: String,
    /// The authority's reply, a DER `TimeStampResp`, exactly as received.
    pub reply_der: Vec<u8>,
    /// The time inside the token (the authority's clock).
    pub stamped_at: DateTime<Utc>,
    /// The name the authority gives itself.
    pub authority: String,
    /// The certificates the reply carried, PEM.
    pub certificates_pem: String,
}

/// The authority's answer for one capture, to store.
#[derive(Clone, Debug)]
pub struct NewStampToken {
    /// The reply, a DER `TimeStampResp`, exactly as received.
    pub reply_der: Vec<u8>,
    /// The time inside the token.
    pub stamped_at: DateTime<Utc>,
    /// The name the authority gives itself.
    pub authority: String,
    /// The certificates the reply carried, PEM.
    pub certificates_pem: String,
}

/// A capture due to be stamped now.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DueStamp {
    /// The capture's history row.
    pub history_id: i64,
    /// Its SHA-256, lower-case hex.
    pub sha256: String,
    /// Requests sent for it so far.
    pub attempts: i64,
}

/// What the stamper should do next.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NextStamp {
    /// Ask for this capture now.
    Due(DueStamp),
    /// Nothing is due before this time.
    At(DateTime<Utc>),
    /// Nothing is waiting.
    Idle,
}

/// Ids per query: far below SQLite's limit on bound values.
const BATCH: usize = 500;

/// Queues capture `history_id` for `tsa_url`, inside the caller's transaction (the capture's
/// own record); due at once.
pub(crate) async fn enqueue(
    conn: &mut SqliteConnection,
    history_id: i64,
    sha256: &str,
    tsa_url: &str,
    now: DateTime<Utc>,
) -> Result<()> {
    sqlx::query(
        "INSERT OR IGNORE INTO stamps (history_id, sha256, state, tsa_url, next_try_at, enqueued_at)
         VALUES (?, ?, 'waiting', ?, ?, ?)",
    )
    .bind(history_id)
    .bind(sha256)
    .bind(tsa_url)
    .bind(to_ms(now))
    .bind(to_ms(now))
    .execute(conn)
    .await?;
    Ok(())
}

fn state_of(row: &sqlx::sqlite::SqliteRow) -> Result<StampState> {
    let state: Option<String> = row.try_get("state")?;
    let tsa_url = || -> Result<String> { Ok(row.try_get("tsa_url")?) };
    Ok(match state.as_deref() {
        Some("waiting") => StampState::Waiting {
            tsa_url: tsa_url()?,
            next_try_at: from_ms(row.try_get("next_try_at")?),
            attempts: row.try_get("attempts")?,
            problem: row.try_get("problem")?,
        },
        Some("stamped") => StampState::Stamped {
            tsa_url: tsa_url()?,
            stamped_at: from_ms(row.try_get("stamped_at")?),
            authority: row
                .try_get::<Option<String>, _>("authority")?
                .unwrap_or_default(),
        },
        Some("failed") => StampState::Failed {
            tsa_url: tsa_url()?,
            attempts: row.try_get("attempts")?,
            problem: row
                .try_get::<Option<String>, _>("problem")?
                .unwrap_or_default(),
        },
        _ => StampState::NotAsked,
    })
}

/// The captures of investigation `?1`: those of its requests, and for each of its posts the
/// earliest capture that brought it (the one its card and its bundle show).
const INVESTIGATION_CAPTURES: &str = "
    SELECT p.history_id, p.sha256
      FROM investigation_requests ir
      JOIN provenance p ON p.history_id = ir.history_id
     WHERE ir.investigation_id = ?1
    UNION
    SELECT history_id, sha256 FROM (
        SELECT pr.history_id AS history_id, MIN(pr.captured_at), pr.sha256 AS sha256
          FROM investigation_posts ip
          JOIN post_sightings s ON s.post_pk = ip.post_pk
          JOIN provenance pr ON pr.history_id = s.history_id
         WHERE ip.investigation_id = ?1
         GROUP BY ip.post_pk)";

impl Store {
    /// What the stamper should do at `now`: the waiting capture due soonest (the oldest first
    /// among equals), if it is due; else when the next one is.
    pub async fn next_stamp(&self, now: DateTime<Utc>) -> Result<NextStamp> {
        let row: Option<(i64, String, i64, i64)> = sqlx::query_as(
            "SELECT history_id, sha256, attempts, next_try_at FROM stamps
             WHERE state = 'waiting' ORDER BY next_try_at, history_id LIMIT 1",
        )
        .fetch_optional(&self.pool)
        .await?;
        Ok(match row {
            None => NextStamp::Idle,
            Some((history_id, sha256, attempts, at)) if at <= to_ms(now) => {
                NextStamp::Due(DueStamp {
                    history_id,
                    sha256,
                    attempts,
                })
            }
            Some((_, _, _, at)) => NextStamp::At(from_ms(at)),
        })
    }

    /// Stores the authority's token for a waiting capture: it is stamped, for good. False when
    /// the capture was not waiting (stamped already, failed, gone).
    pub async fn stamp_done(
        &self,
        history_id: i64,
        tsa_url: &str,
        token: &NewStampToken,
    ) -> Result<bool> {
        let done = sqlx::query(
            "UPDATE stamps SET state = 'stamped', tsa_url = ?, attempts = attempts + 1,
                 next_try_at = NULL, problem = NULL, token = ?, stamped_at = ?, authority = ?,
                 certificates_pem = ?
             WHERE history_id = ? AND state = 'waiting'",
        )
        .bind(tsa_url)
        .bind(&token.reply_der)
        .bind(to_ms(token.stamped_at))
        .bind(&token.authority)
        .bind(&token.certificates_pem)
        .bind(history_id)
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// An attempt for a waiting capture failed. `retry`: it stays waiting (the authority could
    /// not be reached); otherwise it fails with `problem` until the user asks again. Either
    /// way, no waiting capture is asked before `hold_until`.
    pub async fn stamp_attempt_failed(
        &self,
        history_id: i64,
        tsa_url: &str,
        problem: &str,
        retry: bool,
        hold_until: DateTime<Utc>,
    ) -> Result<()> {
        let until = to_ms(hold_until);
        let mut tx = self.begin_write().await?;
        sqlx::query(
            "UPDATE stamps SET state = CASE WHEN ? THEN 'waiting' ELSE 'failed' END,
                 next_try_at = CASE WHEN ? THEN ? END, tsa_url = ?,
                 attempts = attempts + 1, problem = ?
             WHERE history_id = ? AND state = 'waiting'",
        )
        .bind(retry)
        .bind(retry)
        .bind(until)
        .bind(tsa_url)
        .bind(problem)
        .bind(history_id)
        .execute(&mut *tx)
        .await?;
        sqlx::query(
            "UPDATE stamps SET next_try_at = ? WHERE state = 'waiting' AND next_try_at < ?",
        )
        .bind(until)
        .bind(until)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(())
    }

    /// "Stamp now" for investigation `id`: queues each of its captures that has no stamp yet
    /// for `tsa_url`, puts its failed ones back in the queue (their attempts counted afresh),
    /// and makes its waiting ones due now. How many captures are now waiting.
    pub async fn stamp_investigation(
        &self,
        id: i64,
        tsa_url: &str,
        now: DateTime<Utc>,
    ) -> Result<i64> {
        let now = to_ms(now);
        let mut tx = self.begin_write().await?;
        sqlx::query(&format!(
            "INSERT OR IGNORE INTO stamps (history_id, sha256, state, tsa_url, next_try_at, enqueued_at)
             SELECT history_id, sha256, 'waiting', ?2, ?3, ?3 FROM ({INVESTIGATION_CAPTURES})"
        ))
        .bind(id)
        .bind(tsa_url)
        .bind(now)
        .execute(&mut *tx)
        .await?;
        let waiting = sqlx::query(&format!(
            "UPDATE stamps SET state = 'waiting', tsa_url = ?2, next_try_at = ?3,
                 attempts = CASE WHEN state = 'failed' THEN 0 ELSE attempts END
             WHERE state IN ('waiting', 'failed')
               AND history_id IN (SELECT history_id FROM ({INVESTIGATION_CAPTURES}))"
        ))
        .bind(id)
        .bind(tsa_url)
        .bind(now)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(i64::try_from(waiting.rows_affected()).unwrap_or(i64::MAX))
    }

    /// How many of investigation `id`'s captures are stamped, waiting, failed or not asked.
    pub async fn investigation_stamp_counts(&self, id: i64) -> Result<StampCounts> {
        let rows: Vec<(Option<String>, i64)> = sqlx::query_as(&format!(
            "SELECT s.state, COUNT(*) FROM ({INVESTIGATION_CAPTURES}) c
             LEFT JOIN stamps s ON s.history_id = c.history_id GROUP BY s.state"
        ))
        .bind(id)
        .fetch_all(&self.pool)
        .await?;
        let mut counts = StampCounts::default();
        for (state, n) in rows {
            match state.as_deref() {
                Some("stamped") => counts.stamped += n,
                Some("waiting") => counts.waiting += n,
                Some("failed") => counts.failed += n,
                _ => counts.not_asked += n,
            }
        }
        Ok(counts)
    }

    /// The stamp state of each capture asked for (ids with no capture are left out).
    pub async fn capture_stamps(&self, history_ids: &[i64]) -> Result<Vec<CaptureStamp>> {
        let mut out = Vec::with_capacity(history_ids.len());
        for ids in history_ids.chunks(BATCH) {
            let mut query = QueryBuilder::<Sqlite>::new(
                "SELECT p.history_id, s.state, s.tsa_url, s.attempts, s.next_try_at, s.problem,
                        s.stamped_at, s.authority
                 FROM provenance p LEFT JOIN stamps s ON s.history_id = p.history_id
                 WHERE p.history_id IN (",
            );
            let mut list = query.separated(", ");
            for id in ids {
                list.push_bind(*id);
            }
            list.push_unseparated(")");
            for row in query.build().fetch_all(&self.pool).await? {
                out.push(CaptureStamp {
                    history_id: row.try_get("history_id")?,
                    stamp: state_of(&row)?,
                });
            }
        }
        Ok(out)
    }

    /// The stored tokens of the captures asked for (those not stamped are left out), in the
    /// order of their history ids.
    pub async fn stamp_tokens(&self, history_ids: &[i64]) -> Result<Vec<StampToken>> {
        let mut out = Vec::new();
        for ids in history_ids.chunks(BATCH) {
            let mut query = QueryBuilder::<Sqlite>::new(
                "SELECT history_id, sha256, tsa_url, token, stamped_at, authority,
                        certificates_pem
                 FROM stamps WHERE state = 'stamped' AND history_id IN (",
            );
            let mut list = query.separated(", ");
            for id in ids {
                list.push_bind(*id);
            }
            list.push_unseparated(")");
            for row in query.build().fetch_all(&self.pool).await? {
                out.push(StampToken {
                    history_id: row.try_get("history_id")?,
                    sha256: row.try_get("sha256")?,
                    tsa_url: row.try_get("tsa_url")?,
                    reply_der: row.try_get("token")?,
                    stamped_at: from_ms(row.try_get("stamped_at")?),
                    authority: row
                        .try_get::<Option<String>, _>("authority")?
                        .unwrap_or_default(),
                    certificates_pem: row
                        .try_get::<Option<String>, _>("certificates_pem")?
                        .unwrap_or_default(),
                });
            }
        }
        out.sort_by_key(|token| token.history_id);
        Ok(out)
    }
}

#[cfg(test)]
mod tests;
