//! Tauri commands: thin adapters that read state, call the module or crate that owns the
//! concern, and map errors. No business logic lives here.

use chrono::{NaiveDate, Utc};
use serde::{Deserialize, Serialize};
use sightline_api::model::*;
use sightline_api::request::*;
use sightline_api::{ApiRequest, Operation};
use sightline_store::archive::ranked_matches;
use sightline_store::{
    BudgetLimits, DaySpend, HistoryEntry, HistoryQuery, LearnedRate, LinkQuery, PostQuery,
    SpendBreakdown, SpendDimension, SpendTotals, StoredLink, StoredPost, StoredResult,
};
use tauri::ipc::Channel;
use tauri::{AppHandle, Emitter, Runtime, State};
use ts_rs::TS;

use crate::errors::CommandError;
use crate::estimate::{self, CostCheck};
use crate::keychain::KeychainStatus;
use crate::paging;
use crate::requests::{self, Outcome, Paging, SendOptions};
use crate::session::Mode;
use crate::settings::{AppSettings, KeyMeta};
use crate::state::AppState;
use crate::streaming::{self, StreamMessage};

type CommandResult<T> = Result<T, CommandError>;

/// Sent after every request and every change to history or budgets, so open screens refresh.
pub const RECORDS_CHANGED: &str = "records-changed";

fn records_changed<R: Runtime>(app: &AppHandle<R>) {
    if let Err(error) = app.emit(RECORDS_CHANGED, ()) {
        tracing::warn!(%error, "could not tell the UI that records changed");
    }
}

/// What Settings shows about this installation.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct AppInfo {
    pub version: String,
    pub data_dir: String,
    pub keychain: KeychainStatus,
    /// True when `SIGHTLINE_DEMO=1` forces demo mode.
    pub demo_forced: bool,
}

#[tauri::command]
pub async fn app_info(state: State<'_, AppState>) -> CommandResult<AppInfo> {
    let secrets = state.secrets.clone();
    // The keychain answers over D-Bus (or the OS equivalent): keep it off the UI thread.
    let keychain = tokio::task::spawn_blocking(move || secrets.status())
        .await
        .map_err(|error| CommandError::Keychain {
            message: format!("Could not check the keychain: {error}"),
        })?;
    Ok(AppInfo {
        version: env!("CARGO_PKG_VERSION").to_owned(),
        data_dir: state.data_dir.display().to_string(),
        keychain,
        demo_forced: state.environment.force_demo,
    })
}

/// Which mode the app is in and with which key: what the sidebar foot shows.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct AppStatus {
    pub mode: Mode,
    pub demo_forced: bool,
    pub keys: Vec<KeyMeta>,
    pub active_key: Option<String>,
    /// A live service address is set (or given by `SIGHTLINE_BASE_URL`).
    pub service_configured: bool,
}

/// Opens an http(s) link in the system browser; any other scheme is refused.
#[tauri::command]
pub fn open_link<R: Runtime>(app: AppHandle<R>, url: String) -> CommandResult<()> {
    use tauri_plugin_opener::OpenerExt;
    let url = crate::external::web_address(&url)?;
    app.opener()
        .open_url(url.as_str(), None::<&str>)
        .map_err(|error| CommandError::Storage {
            message: format!("The system browser could not be opened: {error}"),
        })
}

#[tauri::command]
pub fn app_status(state: State<'_, AppState>) -> AppStatus {
    let keys = state.keys();
    AppStatus {
        mode: state.mode(),
        demo_forced: state.environment.force_demo,
        keys: keys.keys,
        active_key: keys.active,
        service_configured: state.environment.base_url.is_some()
            || state.settings().base_url.is_some(),
    }
}

// --- Keys -------------------------------------------------------------------------------

#[tauri::command]
pub async fn key_add(
    state: State<'_, AppState>,
    label: String,
    value: String,
) -> CommandResult<AppStatus> {
    crate::keys::add(&state, &label, &value).await?;
    Ok(app_status(state))
}

#[tauri::command]
pub async fn key_rename(
    state: State<'_, AppState>,
    label: String,
    new_label: String,
) -> CommandResult<AppStatus> {
    crate::keys::rename(&state, &label, &new_label).await?;
    Ok(app_status(state))
}

#[tauri::command]
pub async fn key_set_active(state: State<'_, AppState>, label: String) -> CommandResult<AppStatus> {
    crate::keys::set_active(&state, &label).await?;
    Ok(app_status(state))
}

#[tauri::command]
pub async fn key_verify<R: Runtime>(
    app: AppHandle<R>,
    state: State<'_, AppState>,
    label: String,
) -> CommandResult<AppStatus> {
    let result = crate::keys::verify(&state, &label).await;
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
    let result = crate::keys::rotate(&state, &label, &new_value).await;
    records_changed(&app);
    result?;
    Ok(app_status(state))
}

#[tauri::command]
pub async fn key_delete(state: State<'_, AppState>, label: String) -> CommandResult<AppStatus> {
    crate::keys::delete(&state, &label).await?;
    Ok(app_status(state))
}

#[tauri::command]
pub async fn use_demo<R: Runtime>(
    app: AppHandle<R>,
    state: State<'_, AppState>,
    demo: bool,
) -> CommandResult<AppStatus> {
    crate::keys::use_demo(&state, demo).await?;
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

// --- Operations -------------------------------------------------------------------------

/// How every send names itself: a client request id (a repeat is never sent twice) and
/// whether the user confirmed a budget warning.
#[derive(Debug, Clone, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct SendParams {
    pub request_id: String,
    #[serde(default)]
    pub confirm_budget: bool,
}

impl SendParams {
    fn options(self) -> SendOptions {
        SendOptions {
            request_id: self.request_id,
            confirm_budget: self.confirm_budget,
            paging: Paging::default(),
        }
    }
}

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
            let outcome = requests::execute(&state, &session, request, send.options(), None).await;
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
    let outcome = streaming::ai_search(&state, &session, request, send.options(), emit).await;
    records_changed(&app);
    outcome
}

/// Stops a running stream; what arrived so far is kept. False when it had already ended.
#[tauri::command]
pub fn cancel_stream(state: State<'_, AppState>, request_id: String) -> bool {
    streaming::cancel(&state, &request_id)
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
    let units = estimate::units_for(operation, request);
    Ok(estimate::cost_check(&store, operation, units).await?)
}

// --- History, archive, spend: offline reads -----------------------------------------------

#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct HistoryPage {
    pub entries: Vec<HistoryEntry>,
    pub total: i64,
}

#[tauri::command]
pub async fn history_list(
    state: State<'_, AppState>,
    query: HistoryQuery,
) -> CommandResult<HistoryPage> {
    let store = &state.store().await?;
    Ok(HistoryPage {
        entries: store.history(&query).await?,
        total: store.history_count(&query).await?,
    })
}

/// A past result, from disk: no network, no cost.
#[tauri::command]
pub async fn history_result(
    state: State<'_, AppState>,
    history_id: i64,
) -> CommandResult<StoredResult> {
    state
        .store()
        .await?
        .result(history_id)
        .await?
        .ok_or_else(|| {
            CommandError::not_found(
                "No stored result for this entry: it failed before any answer arrived, or the disk was too full to keep it.",
            )
        })
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

#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct PostPage {
    pub posts: Vec<StoredPost>,
    pub total: i64,
    /// Set when a relevance search ranked only this many of `total`, the most recently saved.
    pub ranked: Option<i64>,
}

#[tauri::command]
pub async fn archive_posts(
    state: State<'_, AppState>,
    query: PostQuery,
) -> CommandResult<PostPage> {
    let store = &state.store().await?;
    let total = store.posts_count(&query).await?;
    Ok(PostPage {
        posts: store.posts(&query).await?,
        total,
        ranked: ranked_matches(&query, total),
    })
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
        .spend_totals(crate::time_zone(), Utc::now())
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
        .spend_by_day(crate::time_zone(), first, last)
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
        .spend_breakdown(dimension, crate::time_zone(), days)
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
