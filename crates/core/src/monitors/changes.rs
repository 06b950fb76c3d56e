//! The user's changes to monitors, as the window asks for them: each answers what the command
//! answers and what the window is told of it (`monitors-changed`): which monitor changed (`None`:
//! several) and the unseen counts as they now stand. The desktop shell sends that and wakes the
//! scheduler, for every one alike (its `monitor` kind of command).

use sightline_store::Store;

use super::{changed, Monitor, MonitorDraft, MonitorsChanged, UnseenCounts};
use crate::errors::CommandError;

/// What a change to monitors answers, and what the window is told of it.
#[derive(Debug)]
pub struct Changed<T> {
    /// The command's answer.
    pub answer: T,
    /// What the window is told; `None` when the unseen counts could not be read: the change
    /// stands all the same, and the window sees it at its next look.
    pub told: Option<MonitorsChanged>,
}

/// `answer`, with monitor `id`'s change (or several: `None`) as it now stands.
async fn of<T>(store: &Store, id: Option<i64>, answer: T) -> Changed<T> {
    Changed {
        answer,
        told: changed(store, id).await.ok(),
    }
}

/// Saves a monitor ([`super::create`]); the window hears of the new one.
pub async fn create(store: &Store, draft: &MonitorDraft) -> Result<Changed<Monitor>, CommandError> {
    let monitor = super::create(store, draft).await?;
    Ok(of(store, Some(monitor.id), monitor).await)
}

/// Changes a monitor ([`super::update`]).
pub async fn update(
    store: &Store,
    id: i64,
    draft: &MonitorDraft,
) -> Result<Changed<Monitor>, CommandError> {
    let monitor = super::update(store, id, draft).await?;
    Ok(of(store, Some(id), monitor).await)
}

/// Deletes a monitor ([`super::delete`]).
pub async fn delete(store: &Store, id: i64) -> Result<Changed<()>, CommandError> {
    super::delete(store, id).await?;
    Ok(of(store, Some(id), ()).await)
}

/// Pauses a monitor for the user ([`super::pause`]).
pub async fn pause(store: &Store, id: i64) -> Result<Changed<Monitor>, CommandError> {
    let monitor = super::pause(store, id).await?;
    Ok(of(store, Some(id), monitor).await)
}

/// Resumes a paused monitor ([`super::resume`]).
pub async fn resume(store: &Store, id: i64) -> Result<Changed<Monitor>, CommandError> {
    let monitor = super::resume(store, id).await?;
    Ok(of(store, Some(id), monitor).await)
}

/// Skips a run the budget warned about ([`super::skip`]).
pub async fn skip(store: &Store, id: i64) -> Result<Changed<Monitor>, CommandError> {
    let monitor = super::skip(store, id).await?;
    Ok(of(store, Some(id), monitor).await)
}

/// Marks a monitor's posts seen: those named, or all (`None`) ([`super::mark_seen`]).
pub async fn mark_seen(
    store: &Store,
    id: i64,
    post_ids: Option<&[String]>,
) -> Result<Changed<UnseenCounts>, CommandError> {
    let counts = super::mark_seen(store, id, post_ids).await?;
    Ok(of(store, Some(id), counts).await)
}

/// Marks every monitor's posts seen ([`super::mark_all_seen`]); several changed.
pub async fn mark_all_seen(store: &Store) -> Result<Changed<UnseenCounts>, CommandError> {
    let counts = super::mark_all_seen(store).await?;
    Ok(of(store, None, counts).await)
}
