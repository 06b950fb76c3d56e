//! The app's own commands (installation, keys, settings, requests, history, spend), declared
//! in the table below (see `crate::surface`), and those written by hand because the window is
//! involved: the system browser and file manager (the opener plugin), the stream's channel, a
//! forecast's job followed in the background with its steps sent as events. No rule lives
//! here: each line calls one core function.

use std::sync::Arc;

use chrono::NaiveDate;
use sightline_api::model::*;
use sightline_api::request::*;
use sightline_api::Operation;
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
use sightline_core::{external, key_check, keys, logging, paging};
use sightline_store::{
    BudgetLimits, DaySpend, HistoryQuery, LearnedRate, LinkQuery, PostQuery, SpendBreakdown,
    SpendDimension, SpendTotals, StoredLink, StoredResult,
};
use tauri::ipc::Channel;
use tauri::{AppHandle, Emitter, Runtime, State};

use crate::surface::{define_commands, ok};

type CommandResult<T> = Result<T, CommandError>;

/// Sent after every request and every change to history or budgets, so open screens refresh.
pub const RECORDS_CHANGED: &str = "records-changed";

pub(crate) fn records_changed<R: Runtime>(app: &AppHandle<R>) {
    if let Err(error) = app.emit(RECORDS_CHANGED, ()) {
        tracing::warn!(%error, "could not tell the UI that records changed");
    }
}

define_commands! {
    // Installation, mode, keys, settings.
    read app_info() -> AppInfo = |state| state.info(env!("CARGO_PKG_VERSION")).await;
    read app_status() -> AppStatus = |state| ok(state.status());
    hand open_link(url: String) -> ();
    hand open_log_folder() -> ();
    hand show_in_folder(path: String) -> ();
    set key_add(label: String, value: String) -> AppStatus
        = |state| keys::add(state, &label, &value).await;
    send key_connect(first: FirstKey) -> FirstKeyOutcome
        = |state| first_key::connect(state, first).await;
    set key_rename(label: String, new_label: String) -> AppStatus
        = |state| keys::rename(state, &label, &new_label).await;
    set key_set_active(label: String) -> AppStatus
        = |state| keys::set_active(state, &label).await;
    send key_verify(label: String) -> AppStatus
        = |state| key_check::verify(state, &label).await;
    send key_rotate(label: String, new_value: String) -> AppStatus
        = |state| key_check::rotate(state, &label, &new_value).await;
    set key_delete(label: String) -> AppStatus
        = |state| keys::delete(state, &label).await;
    change use_demo(demo: bool) -> AppStatus
        = |state| keys::use_demo(state, demo).await;
    read settings_get() -> AppSettings = |state| ok(state.settings());
    set settings_set(settings: AppSettings) -> AppSettings
        = |state| state.save_checked_settings(settings).await;
    read display_zone() -> DisplayZone = |state| ok(zone::display_zone());

    // Operations: each validated, budget-checked, sent and recorded by the pipeline.
    send ai_search(request: AiSearchRequest, send: SendParams) -> Outcome<AiSearchResult>
        = |state, session| pipeline::execute(state, &session, request, send.into(), None).await;
    send links_web(request: LinksWebRequest, send: SendParams) -> Outcome<WebLinksResult>
        = |state, session| pipeline::execute(state, &session, request, send.into(), None).await;
    send links_twitter(request: LinksTwitterRequest, send: SendParams) -> Outcome<TwitterLinksResult>
        = |state, session| pipeline::execute(state, &session, request, send.into(), None).await;
    send twitter_search(request: TwitterSearchRequest, send: SendParams) -> Outcome<Posts>
        = |state, session| pipeline::execute(state, &session, request, send.into(), None).await;
    send twitter_urls(request: TwitterUrlsRequest, send: SendParams) -> Outcome<Posts>
        = |state, session| pipeline::execute(state, &session, request, send.into(), None).await;
    send twitter_post(request: TwitterPostRequest, send: SendParams) -> Outcome<Post>
        = |state, session| pipeline::execute(state, &session, request, send.into(), None).await;
    send twitter_post_user(request: TwitterPostUserRequest, send: SendParams) -> Outcome<Posts>
        = |state, session| pipeline::execute(state, &session, request, send.into(), None).await;
    send twitter_retweeters(request: TwitterRetweetersRequest, send: SendParams) -> Outcome<RepostersPage>
        = |state, session| pipeline::execute(state, &session, request, send.into(), None).await;
    send twitter_user_posts(request: TwitterUserPostsRequest, send: SendParams) -> Outcome<UserPostsPage>
        = |state, session| pipeline::execute(state, &session, request, send.into(), None).await;
    send twitter_replies(request: TwitterRepliesRequest, send: SendParams) -> Outcome<Posts>
        = |state, session| pipeline::execute(state, &session, request, send.into(), None).await;
    send twitter_replies_post(request: TwitterRepliesPostRequest, send: SendParams) -> Outcome<Posts>
        = |state, session| pipeline::execute(state, &session, request, send.into(), None).await;
    send twitter_trends(request: TwitterTrendsRequest, send: SendParams) -> Outcome<Trends>
        = |state, session| pipeline::execute(state, &session, request, send.into(), None).await;
    send web_search(request: WebSearchRequest, send: SendParams) -> Outcome<WebSearchResults>
        = |state, session| pipeline::execute(state, &session, request, send.into(), None).await;
    send web_crawl(request: WebCrawlRequest, send: SendParams) -> Outcome<String>
        = |state, session| pipeline::execute(state, &session, request, send.into(), None).await;
    hand ai_search_stream(request: AiSearchRequest, send: SendParams; channel: StreamMessage)
        -> Outcome<AiSearchResult>;
    set cancel_stream(request_id: String) -> bool
        = |state| ok(streaming::cancel(state, &request_id));
    hand forecast(request: ForecastRequest, send: SendParams) -> ForecastStarted;
    // Stops following a forecast's job; it stays recorded and can be resumed.
    set forecast_stop(history_id: i64) -> bool
        = |following: Arc<Following>| ok(following.stop(history_id));
    hand forecast_resume(history_id: i64) -> bool;
    // Whether the app follows a forecast's job now (one resumed at start-up is), for a forecast
    // re-opened from the list.
    read forecast_following(history_id: i64) -> bool
        = |following: Arc<Following>| ok(following.is_following(history_id));
    // The page after a history entry of a paged list (reposters, timelines): its cursor stays here.
    send reposters_next_page(history_id: i64, send: SendParams) -> Outcome<RepostersPage>
        = |state, session| paging::next_page::<TwitterRetweetersRequest>(
            state, &session, history_id, send.request_id, send.confirm_budget).await;
    send user_posts_next_page(history_id: i64, send: SendParams) -> Outcome<UserPostsPage>
        = |state, session| paging::next_page::<TwitterUserPostsRequest>(
            state, &session, history_id, send.request_id, send.confirm_budget).await;
    read estimate_cost(operation: Operation, request: serde_json::Value) -> CostCheck
        = |store| estimate::for_request(&store, operation, request).await;

    // History, the Archive, Spend: offline reads.
    read history_list(query: HistoryQuery) -> HistoryPage
        = |store| records::history_page(&store, &query).await;
    read history_result(history_id: i64) -> StoredResult
        = |store| records::stored_result(&store, history_id).await;
    change history_pin(history_id: i64, pinned: bool) -> ()
        = |store| records::pin(&store, history_id, pinned).await;
    change history_delete(history_id: i64) -> ()
        = |store| records::delete(&store, history_id).await;
    read archive_posts(query: PostQuery) -> PostPage
        = |store| records::post_page(&store, &query).await;
    read archive_links(query: LinkQuery) -> Vec<StoredLink>
        = |store| records::links(&store, &query).await;
    read spend_totals() -> SpendTotals = |store| records::spend_totals(&store).await;
    read spend_by_day(first: NaiveDate, last: NaiveDate) -> Vec<DaySpend>
        = |store| records::spend_by_day(&store, first, last).await;
    read spend_breakdown(dimension: SpendDimension, first: Option<NaiveDate>, last: Option<NaiveDate>)
        -> SpendBreakdown = |store| records::spend_breakdown(&store, dimension, first, last).await;
    read learned_rates() -> Vec<LearnedRate> = |store| records::learned_rates(&store).await;
    read budget_get() -> BudgetLimits = |store| records::budget(&store).await;
    change budget_set(limits: BudgetLimits) -> BudgetLimits
        = |store| records::set_budget(&store, limits).await;
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

/// Shows a file an export saved, selected in its folder in the system's file manager (only one
/// [`external::revealable`] allows).
#[tauri::command]
pub fn show_in_folder<R: Runtime>(app: AppHandle<R>, path: String) -> CommandResult<()> {
    use tauri_plugin_opener::OpenerExt;
    let file = external::revealable(&path)?;
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
    let dir = logging::ready_log_dir(&state.data_dir)?;
    app.opener()
        .open_path(dir.to_string_lossy(), None::<&str>)
        .map_err(|error| {
            CommandError::system(format!(
                "No file manager could open the log folder ({error}). It is at {}",
                dir.display()
            ))
        })
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

/// Each step of a followed forecast, for the Forecast screen.
pub const FORECAST_UPDATE: &str = "forecast-update";

/// Forwards a followed forecast's steps to the window; an ended job changes the records too.
pub fn forecast_updates<R: Runtime>(app: AppHandle<R>) -> OnUpdate {
    Arc::new(move |update: ForecastUpdate| {
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
    following: State<'_, Arc<Following>>,
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

/// Follows a forecast's job again. True when it is followed now (again, or still: one
/// resumed at start-up is followed already); false when it is over.
#[tauri::command]
pub async fn forecast_resume<R: Runtime>(
    app: AppHandle<R>,
    state: State<'_, AppState>,
    following: State<'_, Arc<Following>>,
    history_id: i64,
) -> CommandResult<bool> {
    let updates = forecast_updates(app);
    let following = following.inner().clone();
    forecast::resume(&state, following, history_id, Backoff::default(), updates).await
}
