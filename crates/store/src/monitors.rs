//! Monitors as stored: what each watches (the core's target as JSON), its interval, cap,
//! investigation, state and next run; the posts each has found, unseen until marked seen;
//! and a page of a run written with its new posts in one transaction, so a post is unseen in
//! the database before anything tells the user about it.

use std::sync::LazyLock;

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use sqlx::sqlite::SqliteRow;
use sqlx::{QueryBuilder, Row, Sqlite};
use ts_rs::TS;

use crate::archive::read::{post_from_row, POST_COLUMNS};
use crate::archive::StoredPost;
use crate::error::Result;
use crate::paging;
use crate::runs::{finish_run, record_run_page, RecordedPage, RunOutcome, RunOwner};
use crate::time::{from_ms, to_ms};
use crate::words::{stored_as_word, word};
use crate::Store;

// Stored as its serde word (`words.rs`), its one spelling.
/// Where a monitor stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export)]
pub enum MonitorState {
    /// Runs at `nextRunAt`.
    Active,
    /// Paused by the user: only the user resumes it.
    Paused,
    /// Paused by the budget's block (nothing was sent; `stateReason` says why in words): it
    /// resumes by itself once the budget allows a run (a limit raised or removed, or a new day
    /// or month), or when the user resumes it. Pausing it makes it the user's.
    BudgetPaused,
    /// The budget warned: the run waits for Confirm or Skip, never going on by itself.
    NeedsConfirmation,
}

stored_as_word!(MonitorState);

impl MonitorState {
    /// Every state, in the order the UI's table lists them.
    pub const ALL: [MonitorState; 4] = [
        MonitorState::Active,
        MonitorState::Paused,
        MonitorState::BudgetPaused,
        MonitorState::NeedsConfirmation,
    ];

    /// The state in the words a monitor's row shows (the UI's table is written from these).
    pub fn label(self) -> &'static str {
        match self {
            MonitorState::Active => "Active",
            MonitorState::Paused => "Paused",
            MonitorState::BudgetPaused => "Paused by the budget",
            MonitorState::NeedsConfirmation => "Waiting for your confirmation",
        }
    }
}

/// A monitor as the core saves it.
#[derive(Debug, Clone, PartialEq)]
pub struct NewMonitor {
    /// The name the user gave it.
    pub name: String,
    /// What it runs (a search or an account), as core's JSON of its target.
    pub target_json: String,
    /// Minutes between runs.
    pub interval_minutes: i64,
    /// At most this many posts a run asks for.
    pub cap: i64,
    /// The investigation its requests and posts are filed under, if any.
    pub investigation_id: Option<i64>,
}

/// A monitor as stored, with its unseen count and latest run.
#[derive(Debug, Clone, PartialEq)]
pub struct StoredMonitor {
    /// The monitor's id.
    pub id: i64,
    /// The name the user gave it.
    pub name: String,
    /// What it runs, as core's JSON of its target.
    pub target_json: String,
    /// Minutes between runs.
    pub interval_minutes: i64,
    /// At most this many posts a run asks for.
    pub cap: i64,
    /// The investigation its requests and posts are filed under, if any.
    pub investigation_id: Option<i64>,
    /// Where it stands.
    pub state: MonitorState,
    /// Why it is paused or waiting, in words, when it is.
    pub state_reason: Option<String>,
    /// When it runs next; `None` while it does not run by itself.
    pub next_run_at: Option<DateTime<Utc>>,
    /// The newest post a run saw: the next run asks from there.
    pub window_end: Option<DateTime<Utc>>,
    /// When its latest run began that sent anything: an attempt the budget blocked, one
    /// skipped or one waiting for the user's confirmation sent nothing, and is not a run here.
    pub last_run_at: Option<DateTime<Utc>>,
    /// Its latest run is still going (or was cut, and goes on at the next run).
    pub running: bool,
    /// Posts it found that the user has not marked seen.
    pub unseen: i64,
    /// When it was created.
    pub created_at: DateTime<Utc>,
}

/// A post a monitor found, with whether the user has seen it.
#[derive(Debug, Clone, PartialEq)]
pub struct FoundPost {
    /// The archived post.
    pub post: StoredPost,
    /// Whether the user marked it seen.
    pub seen: bool,
    /// When the monitor found it.
    pub found_at: DateTime<Utc>,
}

/// How a monitor's run ended, and when the next is.
#[derive(Debug, Clone, PartialEq)]
pub struct RunEnd<'a> {
    /// How the run ended.
    pub outcome: RunOutcome,
    /// What went wrong, in words.
    pub error: Option<&'a str>,
    /// The newest post the run saw: the next window starts there (`None`: it stays).
    pub window_end: Option<DateTime<Utc>>,
    /// When the next run is due.
    pub next_run_at: DateTime<Utc>,
}

/// A post of a page, as far as a monitor needs it: its id and time.
#[derive(Debug, Clone, PartialEq)]
pub struct PageItem {
    /// The post's id.
    pub id: String,
    /// When the post was written.
    pub created_at: DateTime<Utc>,
}

/// The columns [`monitor_from_row`] reads, from `monitors m`. The run outcomes they name are
/// the enum's own words ([`RunOutcome::sent_nothing`], `running`), written in once, at first
/// use: a word the store does not store can never be matched here.
fn monitor_columns() -> &'static str {
    static COLUMNS: LazyLock<String> = LazyLock::new(|| {
        let quoted = |outcome: &RunOutcome| format!("'{}'", word(outcome));
        let sent_nothing: Vec<String> = RunOutcome::ALL
            .iter()
            .filter(|outcome| outcome.sent_nothing())
            .map(quoted)
            .collect();
        format!(
            "m.id, m.name, m.target_json, m.interval_minutes, m.cap,
    m.investigation_id, m.state, m.state_reason, m.next_run_at, m.window_end, m.created_at,
    (SELECT max(r.started_at) FROM runs r WHERE r.monitor_id = m.id
     AND r.outcome NOT IN ({})) AS last_run_at,
    EXISTS (SELECT 1 FROM runs r WHERE r.monitor_id = m.id AND r.finished_at IS NULL
            AND r.outcome = {}) AS running,
    (SELECT count(*) FROM monitor_posts mp WHERE mp.monitor_id = m.id AND mp.seen = 0) AS unseen",
            sent_nothing.join(", "),
            quoted(&RunOutcome::Running),
        )
    });
    &COLUMNS
}

fn monitor_from_row(row: &SqliteRow) -> Result<StoredMonitor> {
    Ok(StoredMonitor {
        id: row.try_get("id")?,
        name: row.try_get("name")?,
        target_json: row.try_get("target_json")?,
        interval_minutes: row.try_get("interval_minutes")?,
        cap: row.try_get("cap")?,
        investigation_id: row.try_get("investigation_id")?,
        state: row.try_get("state")?,
        state_reason: row.try_get("state_reason")?,
        next_run_at: row.try_get::<Option<i64>, _>("next_run_at")?.map(from_ms),
        window_end: row.try_get::<Option<i64>, _>("window_end")?.map(from_ms),
        last_run_at: row.try_get::<Option<i64>, _>("last_run_at")?.map(from_ms),
        running: row.try_get("running")?,
        unseen: row.try_get("unseen")?,
        created_at: from_ms(row.try_get("created_at")?),
    })
}

impl Store {
    /// Saves a new monitor, active and due at once; its id.
    pub async fn create_monitor(&self, monitor: &NewMonitor, now: DateTime<Utc>) -> Result<i64> {
        let id = sqlx::query_scalar(
            "INSERT INTO monitors (name, target_json, interval_minutes, cap, investigation_id,
                 state, next_run_at, created_at, updated_at)
             VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
        )
        .bind(monitor.name.trim())
        .bind(&monitor.target_json)
        .bind(monitor.interval_minutes)
        .bind(monitor.cap)
        .bind(monitor.investigation_id)
        .bind(MonitorState::Active)
        .bind(to_ms(now))
        .bind(to_ms(now))
        .bind(to_ms(now))
        .fetch_one(&self.pool)
        .await?;
        Ok(id)
    }

    /// Changes what a monitor watches and how often. A changed target starts a new window
    /// (its first run asks afresh); the posts it found stay. False when there is no such monitor.
    pub async fn update_monitor(
        &self,
        id: i64,
        monitor: &NewMonitor,
        now: DateTime<Utc>,
    ) -> Result<bool> {
        let done = sqlx::query(
            "UPDATE monitors SET name = ?,
                 window_end = CASE WHEN target_json = ? THEN window_end END,
                 target_json = ?, interval_minutes = ?, cap = ?, investigation_id = ?,
                 next_run_at = CASE WHEN state = ?
                     THEN min(COALESCE(next_run_at, ?), ? + ? * 60000) ELSE next_run_at END,
                 updated_at = ?
             WHERE id = ?",
        )
        .bind(monitor.name.trim())
        .bind(&monitor.target_json)
        .bind(&monitor.target_json)
        .bind(monitor.interval_minutes)
        .bind(monitor.cap)
        .bind(monitor.investigation_id)
        .bind(MonitorState::Active)
        .bind(to_ms(now))
        .bind(to_ms(now))
        .bind(monitor.interval_minutes)
        .bind(to_ms(now))
        .bind(id)
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Deletes a monitor with its found posts and run log; history, the archive and the
    /// ledger keep everything it fetched. False when there is no such monitor.
    pub async fn delete_monitor(&self, id: i64) -> Result<bool> {
        let done = sqlx::query("DELETE FROM monitors WHERE id = ?")
            .bind(id)
            .execute(&self.pool)
            .await?;
        Ok(done.rows_affected() == 1)
    }

    /// One monitor by id, with its unseen count and latest run; `None` when there is none.
    pub async fn monitor(&self, id: i64) -> Result<Option<StoredMonitor>> {
        let row = sqlx::query(&format!(
            "SELECT {} FROM monitors m WHERE m.id = ?",
            monitor_columns()
        ))
        .bind(id)
        .fetch_optional(&self.pool)
        .await?;
        row.as_ref().map(monitor_from_row).transpose()
    }

    /// Every monitor, by name.
    pub async fn monitors(&self) -> Result<Vec<StoredMonitor>> {
        let rows = sqlx::query(&format!(
            "SELECT {} FROM monitors m ORDER BY m.name COLLATE NOCASE, m.id",
            monitor_columns()
        ))
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(monitor_from_row).collect()
    }

    /// Active monitors whose next run is due at `now`, the longest overdue first. A monitor
    /// overdue by many intervals is listed once: its run sets the next time from when it ran.
    pub async fn due_monitors(&self, now: DateTime<Utc>) -> Result<Vec<i64>> {
        let ids = sqlx::query_scalar(
            "SELECT id FROM monitors WHERE state = ? AND next_run_at <= ?
             ORDER BY next_run_at, id",
        )
        .bind(MonitorState::Active)
        .bind(to_ms(now))
        .fetch_all(&self.pool)
        .await?;
        Ok(ids)
    }

    /// The soonest next run of an active monitor, for the scheduler to sleep until.
    pub async fn next_monitor_due(&self) -> Result<Option<DateTime<Utc>>> {
        let at: Option<i64> =
            sqlx::query_scalar("SELECT min(next_run_at) FROM monitors WHERE state = ?")
                .bind(MonitorState::Active)
                .fetch_one(&self.pool)
                .await?;
        Ok(at.map(from_ms))
    }

    /// Sets a monitor's state, the reason in words (cleared with `None`) and, when given,
    /// its next run. False when there is no such monitor.
    pub async fn set_monitor_state(
        &self,
        id: i64,
        state: MonitorState,
        reason: Option<&str>,
        next_run_at: Option<DateTime<Utc>>,
        now: DateTime<Utc>,
    ) -> Result<bool> {
        let done = sqlx::query(
            "UPDATE monitors SET state = ?, state_reason = ?,
                 next_run_at = COALESCE(?, next_run_at), updated_at = ?
             WHERE id = ?",
        )
        .bind(state)
        .bind(reason)
        .bind(next_run_at.map(to_ms))
        .bind(to_ms(now))
        .bind(id)
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Writes one page of a monitor's run in one transaction: the request joins the run, the
    /// posts this monitor has not found before are stored unseen, the run moves on to
    /// `next_cursor`, its window's end to the newest post seen, and the request is filed under
    /// the monitor's investigation unless it is archived. Returns the posts that were new
    /// (already-found posts are dropped) and where the page was filed.
    pub async fn record_monitor_page(
        &self,
        monitor_id: i64,
        run_id: i64,
        history_id: i64,
        posts: &[PageItem],
        next_cursor: Option<&str>,
        now: DateTime<Utc>,
    ) -> Result<RecordedPage> {
        let mut tx = self.begin_write().await?;
        let mut new = Vec::new();
        for post in posts {
            let done = sqlx::query(
                "INSERT OR IGNORE INTO monitor_posts (monitor_id, post_id, created_at, found_at, run_id)
                 VALUES (?, ?, ?, ?, ?)",
            )
            .bind(monitor_id)
            .bind(&post.id)
            .bind(to_ms(post.created_at))
            .bind(to_ms(now))
            .bind(run_id)
            .execute(&mut *tx)
            .await?;
            if done.rows_affected() == 1 {
                new.push(post.id.clone());
            }
        }
        let owner = RunOwner::Monitor(monitor_id);
        let filing = record_run_page(
            &mut tx,
            owner,
            run_id,
            history_id,
            &new,
            next_cursor,
            &self.custody(now),
        )
        .await?;
        // The newest post the run has seen, in the service's own clock: the next run's window
        // starts there.
        if let Some(newest) = posts.iter().map(|post| post.created_at).max() {
            sqlx::query(
                "UPDATE runs SET window_end = max(COALESCE(window_end, 0), ?) WHERE id = ?",
            )
            .bind(to_ms(newest))
            .bind(run_id)
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
        Ok(RecordedPage {
            new_items: new,
            filing,
        })
    }

    /// Ends a monitor's run as `end` says; the monitor goes on from its next run (active,
    /// unless the user paused it meanwhile), its next window from the run's end when it had one.
    /// The run's error in words is the monitor's reason too (shown on its card) until a run
    /// ends without one.
    pub async fn finish_monitor_run(
        &self,
        monitor_id: i64,
        run_id: i64,
        end: &RunEnd<'_>,
        now: DateTime<Utc>,
    ) -> Result<()> {
        let mut tx = self.begin_write().await?;
        finish_run(&mut tx, run_id, end.outcome, end.error, now).await?;
        sqlx::query(
            // Paused while the run went on: it stays paused, with its reason.
            "UPDATE monitors SET state = CASE state WHEN ?1 THEN ?1 ELSE ?2 END,
                 state_reason = CASE state WHEN ?1 THEN state_reason ELSE ?3 END,
                 window_end = COALESCE(?4, window_end), next_run_at = ?5, updated_at = ?6
             WHERE id = ?7",
        )
        .bind(MonitorState::Paused)
        .bind(MonitorState::Active)
        .bind(end.error)
        .bind(end.window_end.map(to_ms))
        .bind(to_ms(end.next_run_at))
        .bind(to_ms(now))
        .bind(monitor_id)
        .execute(&mut *tx)
        .await?;
        tx.commit().await
    }

    /// Ends a monitor's run that the budget blocked and pauses the monitor for the budget
    /// ([`MonitorState::BudgetPaused`]), saying why. A monitor the user paused meanwhile stays the
    /// user's. Its next run stays where it was: once the budget allows, it is due at once.
    pub async fn pause_monitor_after_run(
        &self,
        monitor_id: i64,
        run_id: i64,
        outcome: RunOutcome,
        reason: &str,
        now: DateTime<Utc>,
    ) -> Result<()> {
        let mut tx = self.begin_write().await?;
        finish_run(&mut tx, run_id, outcome, Some(reason), now).await?;
        sqlx::query(
            "UPDATE monitors SET state = ?, state_reason = ?, updated_at = ?
             WHERE id = ? AND state <> ?",
        )
        .bind(MonitorState::BudgetPaused)
        .bind(reason)
        .bind(to_ms(now))
        .bind(monitor_id)
        .bind(MonitorState::Paused)
        .execute(&mut *tx)
        .await?;
        tx.commit().await
    }

    /// The monitors the budget paused, by id.
    pub async fn budget_paused_monitors(&self) -> Result<Vec<StoredMonitor>> {
        let rows = sqlx::query(&format!(
            "SELECT {} FROM monitors m WHERE m.state = ? ORDER BY m.id",
            monitor_columns()
        ))
        .bind(MonitorState::BudgetPaused)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(monitor_from_row).collect()
    }

    /// Makes a monitor the budget paused active again, due by `now` at the latest. Only a
    /// budget-paused one: a monitor the user paused (or resumed, or deleted) meanwhile is left
    /// as it is (false).
    pub async fn resume_budget_paused(&self, id: i64, now: DateTime<Utc>) -> Result<bool> {
        let done = sqlx::query(
            "UPDATE monitors SET state = ?, state_reason = NULL,
                 next_run_at = min(COALESCE(next_run_at, ?), ?), updated_at = ?
             WHERE id = ? AND state = ?",
        )
        .bind(MonitorState::Active)
        .bind(to_ms(now))
        .bind(to_ms(now))
        .bind(to_ms(now))
        .bind(id)
        .bind(MonitorState::BudgetPaused)
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// A monitor's posts, newest first: all, or only those not yet seen; and how many match.
    /// The page starts after the post `after` (the last of the page before: keyset paging, so
    /// a far page costs what the first does, and posts marked seen meanwhile shift nothing)
    /// while the monitor still holds it, else after skipping `offset` posts.
    pub async fn monitor_posts(
        &self,
        monitor_id: i64,
        only_unseen: bool,
        after: Option<&str>,
        offset: i64,
        limit: i64,
    ) -> Result<(Vec<FoundPost>, i64)> {
        let key: Option<(i64, String)> = match after {
            Some(post_id) => {
                sqlx::query_as(
                    "SELECT created_at, post_id FROM monitor_posts
                     WHERE monitor_id = ? AND post_id = ?",
                )
                .bind(monitor_id)
                .bind(post_id)
                .fetch_optional(&self.pool)
                .await?
            }
            None => None,
        };
        let mut sql = QueryBuilder::<Sqlite>::new(format!(
            "SELECT {POST_COLUMNS}, mp.seen AS mp_seen, mp.found_at AS mp_found_at
             FROM monitor_posts mp JOIN posts p ON p.id = mp.post_id
             WHERE mp.monitor_id = "
        ));
        sql.push_bind(monitor_id);
        if only_unseen {
            sql.push(" AND mp.seen = 0");
        }
        paging::push_newest_rows(
            &mut sql,
            ("mp.created_at", "mp.post_id"),
            key,
            limit.clamp(1, 500),
            offset.max(0),
        );
        let rows = sql.build().fetch_all(&self.pool).await?;
        let posts = rows
            .iter()
            .map(|row| {
                Ok(FoundPost {
                    post: post_from_row(row)?,
                    seen: row.try_get("mp_seen")?,
                    found_at: from_ms(row.try_get("mp_found_at")?),
                })
            })
            .collect::<Result<Vec<_>>>()?;
        let total = sqlx::query_scalar(
            "SELECT count(*) FROM monitor_posts mp JOIN posts p ON p.id = mp.post_id
             WHERE mp.monitor_id = ? AND (? = 0 OR mp.seen = 0)",
        )
        .bind(monitor_id)
        .bind(only_unseen)
        .fetch_one(&self.pool)
        .await?;
        Ok((posts, total))
    }

    /// Marks a monitor's posts seen: those named, or all of them (`None`). How many changed.
    pub async fn mark_monitor_seen(
        &self,
        monitor_id: i64,
        post_ids: Option<&[String]>,
    ) -> Result<u64> {
        let mut tx = self.begin_write().await?;
        let changed = match post_ids {
            None => {
                sqlx::query("UPDATE monitor_posts SET seen = 1 WHERE monitor_id = ? AND seen = 0")
                    .bind(monitor_id)
                    .execute(&mut *tx)
                    .await?
                    .rows_affected()
            }
            Some(ids) => {
                let mut changed = 0;
                for id in ids {
                    changed += sqlx::query(
                        "UPDATE monitor_posts SET seen = 1
                         WHERE monitor_id = ? AND post_id = ? AND seen = 0",
                    )
                    .bind(monitor_id)
                    .bind(id)
                    .execute(&mut *tx)
                    .await?
                    .rows_affected();
                }
                changed
            }
        };
        tx.commit().await?;
        Ok(changed)
    }

    /// Marks every monitor's posts seen. How many changed.
    pub async fn mark_all_monitors_seen(&self) -> Result<u64> {
        let done = sqlx::query("UPDATE monitor_posts SET seen = 1 WHERE seen = 0")
            .execute(&self.pool)
            .await?;
        Ok(done.rows_affected())
    }

    /// Unseen posts per monitor (monitors with none are left out).
    pub async fn unseen_counts(&self) -> Result<Vec<(i64, i64)>> {
        let rows = sqlx::query_as(
            "SELECT monitor_id, count(*) FROM monitor_posts WHERE seen = 0
             GROUP BY monitor_id ORDER BY monitor_id",
        )
        .fetch_all(&self.pool)
        .await?;
        Ok(rows)
    }
}

#[cfg(test)]
mod tests;
