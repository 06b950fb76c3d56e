//! "Next page" for reposters and timelines: the cursor chain lives in history, never in the UI.

use serde::de::DeserializeOwned;
use serde::Serialize;
use sightline_api::{ExpectedUnits, Paged};

use crate::errors::CommandError;
use crate::findings::Findable;
use crate::pipeline::{self, Outcome, Paging, SendOptions};
use crate::session::Session;
use crate::state::AppState;

/// Fetches the page after history entry `history_id`, linked to it in the chain.
pub async fn next_page<R>(
    state: &AppState,
    session: &Session,
    history_id: i64,
    request_id: String,
    confirm_budget: bool,
) -> Result<Outcome<R::Output>, CommandError>
where
    R: Paged + ExpectedUnits + Serialize + DeserializeOwned,
    R::Output: Findable,
{
    let entry = session
        .store
        .history_entry(history_id)
        .await?
        .ok_or_else(|| CommandError::not_found("That result is no longer in History."))?;
    if entry.operation != R::OPERATION.as_str() {
        return Err(CommandError::not_found(
            "That history entry is not a list with pages.",
        ));
    }
    let cursor = entry.next_cursor.clone().ok_or_else(|| {
        CommandError::not_found("There are no more pages: this was the last one.")
    })?;
    let request: R = serde_json::from_str(&entry.params_json).map_err(|error| {
        CommandError::database(format!("The stored request could not be read: {error}"))
    })?;
    let options = SendOptions {
        request_id,
        confirm_budget,
        paging: Paging {
            cursor: Some(cursor.clone()),
            parent_id: Some(history_id),
        },
    };
    pipeline::execute(state, session, request.with_cursor(cursor), options, None).await
}
