//! Tauri commands: thin adapters that read the arguments, call the core, tell open screens
//! that records changed, and return the core's answer or error. No business logic lives here.

use chrono::{NaiveDate, Utc};
use sightline_api::model::*;
use sightline_api::request::*;
use sightline_api::{ApiRequest, Operation};
use sightline_core::errors::CommandError;
use sightline_core::estimate::{self, CostCheck};
use sightline_core::first_key::{self, FirstKey, FirstKeyOutcome};
use sightline_core::forecast::{
    self, Backoff, Following, ForecastStarted, ForecastUpdate, OnUpdate,
};
use sightline_core::pipeline::{self, Outcome, SendParams};
use sightline_core::records::{self, HistoryPage, PostPage};
use sightline_core::settings::AppSettings;
use sightline_core::state::{AppInfo, AppState, AppStatus};
use sightline_core::streaming::{self, StreamMessage};
use sightline_core::zone::{self, DisplayZone};
use sightline_core::{external, key_check, keys, logging, paging, time_zone};
use sightline_store::{
    BudgetLimits, DaySpend, HistoryQuery, LearnedRate, LinkQuery, PostQuery, SpendBreakdown,
    SpendDimension, SpendTotals, StoredLink, StoredResult,
};
use tauri::ipc::Channel;
use tauri::{AppHandle, Emitter, Runtime, State};

type CommandResult<T> = Result<T, CommandError>;

/// Sent after every request and every change to history or budgets, so open screens refresh.
pub const RECORDS_CHANGED: &str = "records-changed";

pub(crate) fn records_changed<R: Runtime>(app: &AppHandle<R>) {
    if let Err(error) = app.emit(RECORDS_CHANGED, ()) {
        tracing::warn!(%error, "could not tell the UI that records changed");
    }
}

#[tauri::command]
pub async fn app_info(state: State<'_, AppState>) -> CommandResult<AppInfo> {
    state.info(env!("CARGO_PKG_VERSION")).await
}

/// Opens an http(s) link in the system browser; any other scheme is refused.
#[tauri::command]
pub fn open_link<R: Runtime>(app: AppHandle<R>, url: String) -> CommandResult<()> {
    use tauri_plugin_opener::OpenerExt;
    let url = external::web_address(&url)?;
    app.opener()
        .open_url(url.as_str(), None::<&str>)
        .map_err(|error| {
            CommandError::system(format!("The system browser could not be opened: {error}"))
        })
}

/// Shows a file an export saved, selected in its folder in the system's file manager. Only a
/// file that is still there: the path is one an export returned.
#[tauri::command]
pub fn show_in_folder<R: Runtime>(app: AppHandle<R>, path: String) -> CommandResult<()> {
    use tauri_plugin_opener::OpenerExt;
    let file = std::path::Path::new(&path);
    if !file.is_absolute() || !file.is_file() {
        return Err(CommandError::not_found(format!(
            "{path} is not there any more: it was moved or deleted."
        )));
    }
    app.opener().reveal_item_in_dir(file).map_err(|error| {
        CommandError::system(format!("The file manager could not be opened: {error}"))
    })
}

/// Opens the log folder in the system's file manager, creating it first if it is missing.
#[tauri::command]
pub fn open_log_folder<R: Runtime>(
    app: AppHandle<R>,
    state: State<'_, AppState>,
) -> CommandResult<()> {
    use tauri_plugin_opener::OpenerExt;
    let dir = logging::log_dir(&state.data_dir);
    std::fs::create_dir_all(&dir).map_err(|error| {
        CommandError::io(
            &error,
            format!(
                "The log folder {} could not be created: {error}",
                dir.display()
            ),
        )
    })?;
    app.opener()
        .open_path(dir.to_string_lossy(), None::<&str>)
        .map_err(|error| {
            CommandError::system(format!(
                "No file manager could open the log folder ({error}). It is at {}",
                dir.display()
            ))
        })
}

#[tauri::command]
pub fn app_status(state: State<'_, AppState>) -> AppStatus {
    state.status()
}

// --- Keys -------------------------------------------------------------------------------

#[tauri::command]
pub async fn key_add(
    state: State<'_, AppState>,
    label: String,
    value: String,
) -> CommandResult<AppStatus> {
    keys::add(&state, &label, &value).await?;
    Ok(app_status(state))
}

/// The welcome's first key: checked with the service at the typed (or known) address, and kept
/// only when the check passes or the user chose to check later.
#[tauri::command]
pub async fn key_connect<R: Runtime>(
    app: AppHandle<R>,
    state: State<'_, AppState>,
    first: FirstKey,
) -> CommandResult<FirstKeyOutcome> {
    let outcome = first_key::connect(&state, first).await;
    // The check is a billed request in the live history, whatever its answer.
    records_changed(&app);
    outcome
}

#[tauri::command]
pub async fn key_rename(
    state: State<'_, AppState>,
    label: String,
    new_label: String,
) -> CommandResult<AppStatus> {
    keys::rename(&state, &label, &new_label).await?;
    Ok(app_status(state))
}

#[tauri::command]
pub async fn key_set_active(state: State<'_, AppState>, label: String) -> CommandResult<AppStatus> {
    keys::set_active(&state, &label).await?;
    Ok(app_status(state))
}

#[tauri::command]
pub async fn key_verify<R: Runtime>(
    app: AppHandle<R>,
    state: State<'_, AppState>,
    label: String,
) -> CommandResult<AppStatus> {
    let result = key_check::verify(&state, &label).await;
    records_changed(&app);
    result?;
    Ok(app_status(state))
}

#[tauri::command]
pub async fn key_rotate<R: Runtime>(
    app: AppHandle<R>,
    state: State<'_, AppState>,
    label: String,
    new_value: String,
) -> CommandResult<AppStatus> {
    let result = key_check::rotate(&state, &label, &new_value).await;
    records_changed(&app);
    result?;
    Ok(app_status(state))
}

#[tauri::command]
pub async fn key_delete(state: State<'_, AppState>, label: String) -> CommandResult<AppStatus> {
    keys::delete(&state, &label).await?;
    Ok(app_status(state))
}

#[tauri::command]
pub async fn use_demo<R: Runtime>(
    app: AppHandle<R>,
    state: State<'_, AppState>,
    demo: bool,
) -> CommandResult<AppStatus> {
    keys::use_demo(&state, demo).await?;
    records_changed(&app);
    Ok(app_status(state))
}

// --- Settings ---------------------------------------------------------------------------

#[tauri::command]
pub fn settings_get(state: State<'_, AppState>) -> AppSettings {
    state.settings()
}

#[tauri::command]
pub async fn settings_set(
    state: State<'_, AppState>,
    settings: AppSettings,
) -> CommandResult<AppSettings> {
    settings.validate().map_err(CommandError::invalid)?;
    state.save_settings(settings.clone()).await?;
    Ok(settings)
}

/// The zone times are shown in now (the saved setting, or the system's) and the system's.
#[tauri::command]
pub fn display_zone() -> DisplayZone {
    zone::display_zone()
}

// --- Store commands ---------------------------------------------------------------------

/// Commands that open the store and hand it to one core call: `read name(args) -> T =
/// |store| call;` only reads; `change ...` also tells open screens that records changed when
/// the call succeeded. Each argument is the command's own (the UI passes it by name).
macro_rules! store_commands {
    ($($(#[$doc:meta])* $effect:ident $name:ident($($arg:ident: $ty:ty),* $(,)?) -> $out:ty
        = |$store:ident| $call:expr;)*) => {$(
        store_commands!(@command $effect $(#[$doc])* $name($($arg: $ty),*) -> $out
            = |$store| $call);
    )*};
    (@command read $(#[$doc:meta])* $name:ident($($arg:ident: $ty:ty),*) -> $out:ty
        = |$store:ident| $call:expr) => {
        $(#[$doc])*
        #[tauri::command]
        pub async fn $name(
            state: tauri::State<'_, sightline_core::state::AppState>,
            $($arg: $ty),*
        ) -> Result<$out, sightline_core::errors::CommandError> {
            let $store = state.store().await?;
            $call.await
        }
    };
    (@command change $(#[$doc:meta])* $name:ident($($arg:ident: $ty:ty),*) -> $out:ty
        = |$store:ident| $call:expr) => {
        $(#[$doc])*
        #[tauri::command]
        pub async fn $name<R: tauri::Runtime>(
            app: tauri::AppHandle<R>,
            state: tauri::State<'_, sightline_core::state::AppState>,
            $($arg: $ty),*
        ) -> Result<$out, sightline_core::errors::CommandError> {
            let $store = state.store().await?;
            let result = $call.await;
            if result.is_ok() {
                $crate::commands::records_changed(&app);
            }
            result
        }
    };
}
pub(crate) use store_commands;

// --- Operations -------------------------------------------------------------------------

macro_rules! operation_commands {
    ($($name:ident => $request:ty),* $(,)?) => {$(
        #[tauri::command]
        pub async fn $name<R: Runtime>(
            app: AppHandle<R>,
            state: State<'_, AppState>,
            request: $request,
            send: SendParams,
        ) -> CommandResult<Outcome<<$request as ApiRequest>::Output>> {
            let session = state.session().await?;
            let outcome = pipeline::execute(&state, &session, request, send.into(), None).await;
            records_changed(&app);
            outcome
        }
    )*};
}

operation_commands! {
    ai_search => AiSearchRequest,
    links_web => LinksWebRequest,
    links_twitter => LinksTwitterRequest,
    twitter_search => TwitterSearchRequest,
    twitter_urls => TwitterUrlsRequest,
    twitter_post => TwitterPostRequest,
    twitter_post_user => TwitterPostUserRequest,
    twitter_retweeters => TwitterRetweetersRequest,
    twitter_user_posts => TwitterUserPostsRequest,
    twitter_replies => TwitterRepliesRequest,
    twitter_replies_post => TwitterRepliesPostRequest,
    twitter_trends => TwitterTrendsRequest,
    web_search => WebSearchRequest,
    web_crawl => WebCrawlRequest,
}

/// The AI search, streamed: events arrive on `channel`; the reply is the assembled result.
#[tauri::command]
pub async fn ai_search_stream<R: Runtime>(
    app: AppHandle<R>,
    state: State<'_, AppState>,
    request: AiSearchRequest,
    send: SendParams,
    channel: Channel<StreamMessage>,
) -> CommandResult<Outcome<AiSearchResult>> {
    let session = state.session().await?;
    let emit = move |message: StreamMessage| {
        if let Err(error) = channel.send(message) {
            tracing::warn!(%error, "a stream event could not reach the window");
        }
    };
    let outcome = streaming::ai_search(&state, &session, request, send.into(), emit).await;
    records_changed(&app);
    outcome
}

/// Stops a running stream; what arrived so far is kept. False when it had already ended.
#[tauri::command]
pub fn cancel_stream(state: State<'_, AppState>, request_id: String) -> bool {
    streaming::cancel(&state, &request_id)
}

/// Each step of a followed forecast, for the Forecast screen.
pub const FORECAST_UPDATE: &str = "forecast-update";

/// Forwards a followed forecast's steps to the window; an ended job changes the records too.
pub fn forecast_updates<R: Runtime>(app: AppHandle<R>) -> OnUpdate {
    std::sync::Arc::new(move |update: ForecastUpdate| {
        let ended = !update.following;
        if let Err(error) = app.emit(FORECAST_UPDATE, update) {
            tracing::warn!(%error, "a forecast's progress could not reach the window");
        }
        if ended {
            records_changed(&app);
        }
    })
}

/// Asks for a forecast (the billed request) and follows its job; steps arrive as events.
#[tauri::command]
pub async fn forecast<R: Runtime>(
    app: AppHandle<R>,
    state: State<'_, AppState>,
    following: State<'_, std::sync::Arc<Following>>,
    request: ForecastRequest,
    send: SendParams,
) -> CommandResult<ForecastStarted> {
    let session = state.session().await?;
    let asked = forecast::ask(&state, &session, &request, send.into()).await;
    records_changed(&app);
    let (started, key) = asked?;
    forecast::follow(
        session,
        key,
        following.inner().clone(),
        started.history_id,
        started.prediction_id.clone(),
        Backoff::default(),
        forecast_updates(app),
    );
    Ok(started)
}

/// Stops following a forecast's job; it stays recorded and can be resumed.
#[tauri::command]
pub fn forecast_stop(following: State<'_, std::sync::Arc<Following>>, history_id: i64) -> bool {
    following.stop(history_id)
}

/// Whether the app follows a forecast's job now (one resumed at start-up is), for a forecast
/// re-opened from the list.
#[tauri::command]
pub fn forecast_following(
    following: State<'_, std::sync::Arc<Following>>,
    history_id: i64,
) -> bool {
    following.is_following(history_id)
}

/// Follows a forecast's job again. True when it is followed now (again, or still: one
/// resumed at start-up is followed already); false when it is over.
#[tauri::command]
pub async fn forecast_resume<R: Runtime>(
    app: AppHandle<R>,
    state: State<'_, AppState>,
    following: State<'_, std::sync::Arc<Following>>,
    history_id: i64,
) -> CommandResult<bool> {
    let updates = forecast_updates(app);
    let following = following.inner().clone();
    forecast::resume(&state, following, history_id, Backoff::default(), updates).await
}

/// The page after a history entry of a paged list (retweeters, timelines): the cursor stays here.
macro_rules! next_page_commands {
    ($($name:ident => $request:ty),* $(,)?) => {$(
        #[tauri::command]
        pub async fn $name<R: Runtime>(
            app: AppHandle<R>,
            state: State<'_, AppState>,
            history_id: i64,
            send: SendParams,
        ) -> CommandResult<Outcome<<$request as ApiRequest>::Output>> {
            let session = state.session().await?;
            let outcome = paging::next_page::<$request>(
                &state,
                &session,
                history_id,
                send.request_id,
                send.confirm_budget,
            )
            .await;
            records_changed(&app);
            outcome
        }
    )*};
}

next_page_commands! {
    retweeters_next_page => TwitterRetweetersRequest,
    user_posts_next_page => TwitterUserPostsRequest,
}

#[tauri::command]
pub async fn estimate_cost(
    state: State<'_, AppState>,
    operation: Operation,
    request: serde_json::Value,
) -> CommandResult<CostCheck> {
    let store = state.store().await?;
    let units = sightline_api::units_for(operation, request);
    Ok(estimate::cost_check(&store, operation, units).await?)
}

// --- History, archive, spend: offline reads -----------------------------------------------

#[tauri::command]
pub async fn history_list(
    state: State<'_, AppState>,
    query: HistoryQuery,
) -> CommandResult<HistoryPage> {
    records::history_page(&state.store().await?, &query).await
}

/// A past result, from disk: no network, no cost.
#[tauri::command]
pub async fn history_result(
    state: State<'_, AppState>,
    history_id: i64,
) -> CommandResult<StoredResult> {
    records::stored_result(&state.store().await?, history_id).await
}

#[tauri::command]
pub async fn history_pin<R: Runtime>(
    app: AppHandle<R>,
    state: State<'_, AppState>,
    history_id: i64,
    pinned: bool,
) -> CommandResult<()> {
    state.store().await?.set_pinned(history_id, pinned).await?;
    records_changed(&app);
    Ok(())
}

#[tauri::command]
pub async fn history_delete<R: Runtime>(
    app: AppHandle<R>,
    state: State<'_, AppState>,
    history_id: i64,
) -> CommandResult<()> {
    state.store().await?.delete_history(history_id).await?;
    records_changed(&app);
    Ok(())
}

#[tauri::command]
pub async fn archive_posts(
    state: State<'_, AppState>,
    query: PostQuery,
) -> CommandResult<PostPage> {
    records::post_page(&state.store().await?, &query).await
}

#[tauri::command]
pub async fn archive_links(
    state: State<'_, AppState>,
    query: LinkQuery,
) -> CommandResult<Vec<StoredLink>> {
    Ok(state.store().await?.links(&query).await?)
}

#[tauri::command]
pub async fn spend_totals(state: State<'_, AppState>) -> CommandResult<SpendTotals> {
    Ok(state
        .store()
        .await?
        .spend_totals(time_zone(), Utc::now())
        .await?)
}

#[tauri::command]
pub async fn spend_by_day(
    state: State<'_, AppState>,
    first: NaiveDate,
    last: NaiveDate,
) -> CommandResult<Vec<DaySpend>> {
    Ok(state
        .store()
        .await?
        .spend_by_day(time_zone(), first, last)
        .await?)
}

#[tauri::command]
pub async fn spend_breakdown(
    state: State<'_, AppState>,
    dimension: SpendDimension,
    first: Option<NaiveDate>,
    last: Option<NaiveDate>,
) -> CommandResult<SpendBreakdown> {
    let days = first.zip(last);
    Ok(state
        .store()
        .await?
        .spend_breakdown(dimension, time_zone(), days)
        .await?)
}

#[tauri::command]
pub async fn learned_rates(state: State<'_, AppState>) -> CommandResult<Vec<LearnedRate>> {
    Ok(state.store().await?.learned_rates().await?)
}

#[tauri::command]
pub async fn budget_get(state: State<'_, AppState>) -> CommandResult<BudgetLimits> {
    Ok(state.store().await?.budget().await?)
}

#[tauri::command]
pub async fn budget_set<R: Runtime>(
    app: AppHandle<R>,
    state: State<'_, AppState>,
    limits: BudgetLimits,
) -> CommandResult<BudgetLimits> {
    state.store().await?.set_budget(&limits).await?;
    records_changed(&app);
    Ok(limits)
}
