/**
 * The one typed wrapper around every Rust command. Screens call these functions, never `invoke`.
 * Each goes through `call`, typed by the map generated from Rust's command tables
 * (bindings/commands.ts): a misspelt name, a missing argument or a wrong type does not compile.
 * Every command rejects with a `CommandError` (see `asCommandError`).
 */
import { Channel, invoke, type InvokeArgs } from '@tauri-apps/api/core';
import { listen, type UnlistenFn } from '@tauri-apps/api/event';
import type { AiSearchRequest } from './bindings/AiSearchRequest';
import type { AiSearchResult } from './bindings/AiSearchResult';
import type { AppInfo } from './bindings/AppInfo';
import type { AppSettings } from './bindings/AppSettings';
import type { AppStatus } from './bindings/AppStatus';
import type { BackfillStatus } from './bindings/BackfillStatus';
import type { BudgetLimits } from './bindings/BudgetLimits';
import type { BundleCheck } from './bindings/BundleCheck';
import type { BundleOutcome } from './bindings/BundleOutcome';
import type { BundleProgress } from './bindings/BundleProgress';
import type { ImportOutcome } from './bindings/ImportOutcome';
import type { ImportProgress } from './bindings/ImportProgress';
import type { CaseProgress } from './bindings/CaseProgress';
import type { ReadProgress } from './bindings/ReadProgress';
import type { CheckReport } from './bindings/CheckReport';
import type { CheckSummary } from './bindings/CheckSummary';
import type { CommandError } from './bindings/CommandError';
import type { CoordinationFormat } from './bindings/CoordinationFormat';
import type { CoordinationOptions } from './bindings/CoordinationOptions';
import type { CoordinationProgress } from './bindings/CoordinationProgress';
import type { CostCheck } from './bindings/CostCheck';
import type { DisplayZone } from './bindings/DisplayZone';
import type { DatabaseStatus } from './bindings/DatabaseStatus';
import type { DaySpend } from './bindings/DaySpend';
import type { ExportFormat } from './bindings/ExportFormat';
import type { FirstKey } from './bindings/FirstKey';
import type { FirstKeyOutcome } from './bindings/FirstKeyOutcome';
import type { HistoryCapture } from './bindings/HistoryCapture';
import type { PostCapture } from './bindings/PostCapture';
import type { Provenance } from './bindings/Provenance';
import type { ProvenanceCheck } from './bindings/ProvenanceCheck';
import type { ForecastRequest } from './bindings/ForecastRequest';
import type { ForecastStarted } from './bindings/ForecastStarted';
import type { ForecastUpdate } from './bindings/ForecastUpdate';
import type { HistoryPage } from './bindings/HistoryPage';
import type { HistoryQuery } from './bindings/HistoryQuery';
import type { FilingChange } from './bindings/FilingChange';
import type { InvestigationChanges } from './bindings/InvestigationChanges';
import type { InvestigationDetail } from './bindings/InvestigationDetail';
import type { InvestigationItem } from './bindings/InvestigationItem';
import type { InvestigationPostPage } from './bindings/InvestigationPostPage';
import type { InvestigationPostQuery } from './bindings/InvestigationPostQuery';
import type { InvestigationSummary } from './bindings/InvestigationSummary';
import type { ItemMemberships } from './bindings/ItemMemberships';
import type { LearnedRate } from './bindings/LearnedRate';
import type { LinkQuery } from './bindings/LinkQuery';
import type { LinksTwitterRequest } from './bindings/LinksTwitterRequest';
import type { LinksWebRequest } from './bindings/LinksWebRequest';
import type { JsonValue } from './bindings/serde_json/JsonValue';
import type { Operation } from './bindings/Operation';
import type { Outcome } from './bindings/Outcome';
import type { PostPage } from './bindings/PostPage';
import type { Recovered } from './bindings/Recovered';
import type { PostQuery } from './bindings/PostQuery';
import type { RepostersPage } from './bindings/RepostersPage';
import type { SpendBreakdown } from './bindings/SpendBreakdown';
import type { SpendDimension } from './bindings/SpendDimension';
import type { SpendTotals } from './bindings/SpendTotals';
import type { CompactProgress } from './bindings/CompactProgress';
import type { StoredLink } from './bindings/StoredLink';
import type { StoredResult } from './bindings/StoredResult';
import type { StreamMessage } from './bindings/StreamMessage';
import type { Trends } from './bindings/Trends';
import type { Post } from './bindings/Post';
import type { Posts } from './bindings/Posts';
import type { TwitterLinksResult } from './bindings/TwitterLinksResult';
import type { TwitterPostRequest } from './bindings/TwitterPostRequest';
import type { TwitterPostUserRequest } from './bindings/TwitterPostUserRequest';
import type { TwitterRepliesPostRequest } from './bindings/TwitterRepliesPostRequest';
import type { TwitterRepliesRequest } from './bindings/TwitterRepliesRequest';
import type { TwitterRetweetersRequest } from './bindings/TwitterRetweetersRequest';
import type { TwitterSearchRequest } from './bindings/TwitterSearchRequest';
import type { TwitterTrendsRequest } from './bindings/TwitterTrendsRequest';
import type { TwitterUrlsRequest } from './bindings/TwitterUrlsRequest';
import type { TwitterUserPostsRequest } from './bindings/TwitterUserPostsRequest';
import type { UserPostsPage } from './bindings/UserPostsPage';
import type { WebCrawlRequest } from './bindings/WebCrawlRequest';
import type { WebLinksResult } from './bindings/WebLinksResult';
import type { WebSearchRequest } from './bindings/WebSearchRequest';
import type { WebSearchResults } from './bindings/WebSearchResults';
import type { Collection } from './bindings/Collection';
import type { CollectionDraft } from './bindings/CollectionDraft';
import type { CollectionPostPage } from './bindings/CollectionPostPage';
import type { Monitor } from './bindings/Monitor';
import type { MonitorDraft } from './bindings/MonitorDraft';
import type { MonitorEstimate } from './bindings/MonitorEstimate';
import type { MonitorPostPage } from './bindings/MonitorPostPage';
import type { MonitorPostQuery } from './bindings/MonitorPostQuery';
import type { MonitorsChanged } from './bindings/MonitorsChanged';
import type { RunLogEntry } from './bindings/RunLogEntry';
import type { UnseenCounts } from './bindings/UnseenCounts';
import type { ActivityOptions } from './bindings/ActivityOptions';
import type { ActivitySeries } from './bindings/ActivitySeries';
import type { AnalysisScope } from './bindings/AnalysisScope';
import type { AnalysisTable } from './bindings/AnalysisTable';
import type { ChartFormat } from './bindings/ChartFormat';
import type { ConversationFetch } from './bindings/ConversationFetch';
import type { ConversationFetchEstimate } from './bindings/ConversationFetchEstimate';
import type { ConversationTree } from './bindings/ConversationTree';
import type { Heatmap } from './bindings/Heatmap';
import type { Network } from './bindings/Network';
import type { NetworkFormat } from './bindings/NetworkFormat';
import type { NetworkQuery } from './bindings/NetworkQuery';
import type { ScopePostPage } from './bindings/ScopePostPage';
import type { ScopePostQuery } from './bindings/ScopePostQuery';
import type { ScopeSummary } from './bindings/ScopeSummary';
import type { TopLists } from './bindings/TopLists';
import type { CommandName, Commands } from './bindings/commands';
import { showNotice } from './notices.svelte';

export type { AppInfo } from './bindings/AppInfo';
export type { AppStatus } from './bindings/AppStatus';
export type { CommandError } from './bindings/CommandError';
export type { KeychainStatus } from './bindings/KeychainStatus';
export type { Outcome } from './bindings/Outcome';
export type { StreamMessage } from './bindings/StreamMessage';

type Args<K extends CommandName> = Commands[K]['args'];
type Answer<K extends CommandName> = Commands[K]['result'];
/** A command with no arguments is called with none. */
type ArgList<K extends CommandName> = keyof Args<K> extends never ? [] : [args: Args<K>];

/** Calls command `name`; its arguments and answer are the generated map's. */
function call<K extends CommandName>(name: K, ...args: ArgList<K>): Promise<Answer<K>> {
  return invoke<Answer<K>>(name, args[0] as InvokeArgs | undefined);
}

/** A query the window fills in part: Rust gives each field left out its default. */
function partial<T>(query: Partial<T>): T {
  return query as T;
}

/** A fresh client request id: a command replayed with the same id is never sent twice. */
export function newRequestId(): string {
  return crypto.randomUUID();
}

/** How a send names itself; `confirmBudget` after the user accepted a budget warning. */
export interface SendOptions {
  requestId?: string;
  confirmBudget?: boolean;
}

function sendParams(options: SendOptions = {}) {
  return { requestId: options.requestId ?? newRequestId(), confirmBudget: options.confirmBudget ?? false };
}

// --- Installation, mode, keys, settings -------------------------------------------------

export const appInfo = () => call('app_info');
export const appStatus = () => call('app_status');

// The archive at start-up: its opening (asking starts it), and the recovery screen's choices.
export const databaseStatus = () => call('database_status');
export const databaseOpenReadOnly = () => call('database_open_read_only');
export const databaseRestoreBackup = () => call('database_restore_backup');
export const databaseStartAfresh = () => call('database_start_afresh');
export const databaseRetry = () => call('database_retry');
/** Opens an http(s) address in the system browser; Rust refuses any other scheme. */
export const openLink = (url: string) => call('open_link', { url });
/** Opens the log folder (created if missing) in the system's file manager. */
export const openLogFolder = () => call('open_log_folder');
/** Shows a saved file selected in its folder, in the system's file manager. */
export const showInFolder = (path: string) => call('show_in_folder', { path });
export const keyAdd = (label: string, value: string) => call('key_add', { label, value });
/** The welcome's first key: checked with the service (at `first.address`, or the known one) before anything is kept. */
export const keyConnect = (first: FirstKey) => call('key_connect', { first });
export const keyRename = (label: string, newLabel: string) => call('key_rename', { label, newLabel });
export const keySetActive = (label: string) => call('key_set_active', { label });
export const keyVerify = (label: string) => call('key_verify', { label });
export const keyRotate = (label: string, newValue: string) => call('key_rotate', { label, newValue });
export const keyDelete = (label: string) => call('key_delete', { label });
/** Demo data (true) or the active key (false). */
export const useDemo = (demo: boolean) => call('use_demo', { demo });
export const settingsGet = () => call('settings_get');
export const settingsSet = (settings: AppSettings) => call('settings_set', { settings });
/** This installation's signing identity (the key pair made at first use), "Collected by", a new
 * key pair (the old public key kept), and the public key saved as PEM (null: the dialog was cancelled). */
export const signingIdentity = () => call('signing_identity');
export const signingCollectorSet = (collectedBy: string | null) => call('signing_collector_set', { collectedBy });
export const signingRotate = () => call('signing_rotate');
export const signingKeyExport = () => call('signing_key_export');
/** The public timestamp authorities Settings offers, and the authority set with its certificate (empty: none). */
export const stampAuthorities = () => call('stamp_authorities');
export const stampAuthoritySet = (tsaUrl: string | null, certificatePem: string | null) =>
  call('stamp_authority_set', { tsaUrl, certificatePem });
/** The zone times are shown in now, and the system's (for the picker's "System (…)"). */
export const displayZone = () => call('display_zone');

// --- Operations: each validated, budget-checked, sent, recorded ---------------------------

/** Raises the app-wide notice when an answer was shown but the disk was too full to keep it. */
function noticeIfNotSaved<Res>(outcome: Promise<Outcome<Res>>): Promise<Outcome<Res>> {
  return outcome.then((result) => {
    if (result?.notSaved) showNotice(result.notSaved);
    return result;
  });
}

/** The commands that send one request through the pipeline: `{ request, send }`. */
type OperationCommand = {
  [K in CommandName]: Args<K> extends { request: unknown; send: unknown } ? (keyof Args<K> extends 'request' | 'send' ? K : never) : never;
}[CommandName];

function operation<K extends OperationCommand>(command: K) {
  return (request: Args<K>['request'], options?: SendOptions): Promise<Answer<K>> =>
    noticeIfNotSaved(
      (call as (name: K, args: Args<K>) => Promise<Outcome<unknown>>)(command, {
        request,
        send: sendParams(options),
      } as Args<K>),
    ) as Promise<Answer<K>>;
}

export const aiSearch = operation('ai_search');
export const linksWeb = operation('links_web');
export const linksTwitter = operation('links_twitter');
export const twitterSearch = operation('twitter_search');
export const twitterUrls = operation('twitter_urls');
export const twitterPost = operation('twitter_post');
export const twitterPostUser = operation('twitter_post_user');
export const twitterRetweeters = operation('twitter_retweeters');
export const twitterUserPosts = operation('twitter_user_posts');
export const twitterReplies = operation('twitter_replies');
export const twitterRepliesPost = operation('twitter_replies_post');
export const twitterTrends = operation('twitter_trends');
export const webSearch = operation('web_search');
export const webCrawl = operation('web_crawl');

/** The page after a history entry of reposters or a timeline: no cursor in the UI. */
export const repostersNextPage = (historyId: number, options?: SendOptions) =>
  noticeIfNotSaved(call('reposters_next_page', { historyId, send: sendParams(options) }));
export const userPostsNextPage = (historyId: number, options?: SendOptions) =>
  noticeIfNotSaved(call('user_posts_next_page', { historyId, send: sendParams(options) }));

/**
 * The AI search, streamed: `onMessage` sees `started`, then each event as it arrives; the
 * promise resolves with the assembled result. `cancelStream(requestId)` stops it.
 */
export function aiSearchStream(
  request: AiSearchRequest,
  onMessage: (message: StreamMessage) => void,
  options?: SendOptions,
): { requestId: string; result: Promise<Outcome<AiSearchResult>> } {
  const send = sendParams(options);
  const channel = new Channel<StreamMessage>();
  channel.onmessage = onMessage;
  const result = noticeIfNotSaved(call('ai_search_stream', { request, send, channel }));
  return { requestId: send.requestId, result };
}

export const cancelStream = (requestId: string) => call('cancel_stream', { requestId });

/** Asks for a forecast (billed) and follows its job; its steps arrive through `onForecastUpdate`. */
export const forecast = (request: ForecastRequest, options: SendOptions) =>
  call('forecast', { request, send: sendParams(options) });
/** Stops following a forecast's job; it stays in History, still running, and can be resumed. */
export const forecastStop = (historyId: number) => call('forecast_stop', { historyId });
export const forecastResume = (historyId: number) => call('forecast_resume', { historyId });
/** Whether the app follows a forecast's job now (one resumed at start-up is). */
export const forecastFollowing = (historyId: number) => call('forecast_following', { historyId });

/** Each step of every followed forecast (waiting, running, done or failed). */
export function onForecastUpdate(listener: (update: ForecastUpdate) => void): Promise<UnlistenFn> {
  return listen<ForecastUpdate>('forecast-update', (event) => listener(event.payload));
}

/** The cost chip's numbers: estimate from learned rates and the budget's verdict. */
export const estimateCost = (operation: Operation, request: unknown) =>
  call('estimate_cost', { operation, request: request as JsonValue });

// --- Records: offline reads, no network, no cost ------------------------------------------

export const historyList = (query: Partial<HistoryQuery> = {}) => call('history_list', { query: partial(query) });
export const historyResult = (historyId: number) => call('history_result', { historyId });
/** A response's capture record (time, service, status, billing headers, SHA-256), or why there is none. */
export const provenanceGet = (historyId: number) => call('provenance_get', { historyId });
/** Hashes a response's stored bytes again; null when it has no provenance. */
export const provenanceVerify = (historyId: number) =>
  call('provenance_verify', { historyId });
/** The capture line of each history row on a page, in one call. */
export const provenanceHistory = (historyIds: number[]) =>
  call('provenance_history', { historyIds });
/** The capture line of each post on a page (the earliest response that brought it), in one call. */
export const provenancePosts = (postIds: string[]) => call('provenance_posts', { postIds });
/** Each post's media items, kept or not (state, file, poster), in the order of `postIds`. */
export const mediaForPosts = (postIds: string[]) => call('media_for_posts', { postIds });
/** Each capture's trusted timestamp: not asked, waiting (next try), stamped (by whom, when) or failed (why). */
export const stampCaptures = (historyIds: number[]) => call('stamp_captures', { historyIds });
/** A capture's stored token checked as `openssl ts -verify` would; null when it has none. */
export const stampCheck = (historyId: number) => call('stamp_check', { historyId });
/** How many of an investigation's captures are stamped, waiting, failed or not asked. */
export const stampInvestigationCounts = (id: number) => call('stamp_investigation_counts', { id });
/** "Stamp now": queues an investigation's unstamped (and failed) captures; how many now wait. */
export const stampInvestigation = (id: number) => call('stamp_investigation', { id });
export const historyPin = (historyId: number, pinned: boolean) => call('history_pin', { historyId, pinned });
export const historyDelete = (historyId: number) => call('history_delete', { historyId });
export const archivePosts = (query: Partial<PostQuery> = {}) => call('archive_posts', { query: partial(query) });
export const archiveLinks = (query: Partial<LinkQuery> = {}) => call('archive_links', { query: partial(query) });
export const spendTotals = () => call('spend_totals');
/** Dates as `YYYY-MM-DD`, both inclusive, in the user's time zone. */
export const spendByDay = (first: string, last: string) => call('spend_by_day', { first, last });
export const spendBreakdown = (dimension: SpendDimension, first?: string, last?: string) =>
  call('spend_breakdown', { dimension, first: first ?? null, last: last ?? null });
export const learnedRates = () => call('learned_rates');
export const budgetGet = () => call('budget_get');
export const budgetSet = (limits: BudgetLimits) => call('budget_set', { limits });
/**
 * Exports save into the export folder from Settings, or ask where with the system dialog.
 * Each resolves with the path written, or null when the user cancelled the dialog.
 * `ids` exports a hand-picked selection instead of everything the filters match.
 */
export const exportHistory = (query: Partial<HistoryQuery>, format: ExportFormat, ids?: number[]) =>
  call('export_history', { query: partial(query), format, ids: ids ?? null });
export const exportPosts = (query: Partial<PostQuery>, format: ExportFormat) =>
  call('export_posts', { query: partial(query), format });
/** Forecasts with their own fields (question, state, probability, forecaster, times, reasoning, job id, cost); `markdown` is the citation list. */
export const exportForecasts = (query: Partial<HistoryQuery>, format: ExportFormat, ids?: number[]) =>
  call('export_forecasts', { query: partial(query), format, ids: ids ?? null });

/** The ledger row by row as CSV, for local days `first..=last` (`YYYY-MM-DD`), or all of it. */
export const exportLedger = (first?: string, last?: string) =>
  call('export_ledger', { first: first ?? null, last: last ?? null });

// --- Investigations: cases that file requests and posts, with notes, tags and checks ------

export const investigationList = (includeArchived = false) =>
  call('investigation_list', { includeArchived });
/** Names are unique without regard to case; a taken name rejects with an `invalid` error on `name`. */
export const investigationCreate = (name: string, description = '') =>
  call('investigation_create', { name, description });
/** Changes only the fields given (name, description, notebook Markdown). */
export const investigationUpdate = (id: number, changes: Partial<InvestigationChanges>) =>
  call('investigation_update', { id, changes: partial(changes) });
/** Shows the investigation's media in full on its page (`full`), or in safe view. */
export const investigationMediaFullView = (id: number, full: boolean) => call('investigation_media_full_view', { id, full });
export const investigationArchive = (id: number, archived: boolean) =>
  call('investigation_archive', { id, archived });
/** Removes the investigation and its filing, notes, tags and checks; history and the ledger keep everything. */
export const investigationDelete = (id: number) => call('investigation_delete', { id });
/** The investigation every request sent now is filed under, or null. */
export const investigationActive = () => call('investigation_active');
export const investigationSetActive = (id: number | null) => call('investigation_set_active', { id });
/** Summary, notebook, cost (total, by day in the display zone, by operation), tag counts, latest check. */
export const investigationGet = (id: number) => call('investigation_get', { id });
export const investigationPosts = (id: number, query: Partial<InvestigationPostQuery> = {}) =>
  call('investigation_posts', { id, query: partial(query) });
/** Files items by hand; a request brings the posts it found. */
export const investigationAdd = (id: number, items: InvestigationItem[]) =>
  call('investigation_add', { id, items });
/** Takes items out; a request takes out the posts only it brought (posts added on their own stay). */
export const investigationRemove = (id: number, items: InvestigationItem[]) =>
  call('investigation_remove', { id, items });
/** Which investigations hold each item (the checkmarks of "Add to…"). */
export const investigationMemberships = (items: InvestigationItem[]) =>
  call('investigation_memberships', { items });
/** Sets a post's note and/or its tags (the whole list; tags compare without case). */
export const investigationPostSet = (id: number, postId: string, change: { note?: string; tags?: string[] }) =>
  call('investigation_post_set', { id, postId, note: change.note ?? null, tags: change.tags ?? null });
/** Tags of this investigation starting with `prefix` (any case), most used first. */
export const investigationTags = (id: number, prefix: string) =>
  call('investigation_tags', { id, prefix });
/** What re-fetching every post of the investigation would cost, and the budget's verdict. */
export const investigationCheckEstimate = (id: number) =>
  call('investigation_check_estimate', { id });
/** "Still there?": re-fetches the posts by id (billed, recorded like any request) and compares them with the stored copies. */
export const investigationCheck = (id: number, options?: SendOptions) =>
  call('investigation_check', { id, send: sendParams(options) });
/** The investigation's checks, newest first. */
export const investigationChecks = (id: number) => call('investigation_checks', { id });
/** The investigation's custody log, oldest entry first, with its chain checked as it stands in the database. */
export const investigationCustodyLog = (id: number) => call('investigation_custody_log', { id });
export const investigationCheckReport = (checkId: number) =>
  call('investigation_check_report', { checkId });

// --- Evidence bundles: one ZIP anyone can check, and the check ---------------------------

/** What an evidence bundle holds: an investigation, or a hand-picked selection. */
export type BundleSource = { investigationId: number } | { historyIds: number[]; postIds: string[] };

/**
 * Writes an evidence bundle into the export folder (or where the save dialog says), calling
 * `onProgress` as it goes. Null when the dialog was closed; `{ outcome: 'cancelled' }` after
 * `evidenceCancel`, which leaves no file.
 */
export function evidenceExport(source: BundleSource, onProgress: (progress: BundleProgress) => void) {
  const progress = new Channel<BundleProgress>();
  progress.onmessage = onProgress;
  return call('evidence_export', {
    investigationId: 'investigationId' in source ? source.investigationId : null,
    historyIds: 'historyIds' in source ? source.historyIds : null,
    postIds: 'postIds' in source ? source.postIds : null,
    progress,
  });
}
export const evidenceCancel = () => call('evidence_cancel');
/**
 * Reads a bundle strictly and re-hashes it: each file matches its sum, changed, missing, extra or
 * not checked, whether its two lists agree, what the ZIP hides, and the verdict's words. Calls
 * `onProgress` as it goes; null after `evidenceVerifyCancel`.
 */
export function evidenceVerify(path: string, onProgress: (progress: ReadProgress) => void) {
  const progress = new Channel<ReadProgress>();
  progress.onmessage = onProgress;
  return call('evidence_verify', { path, progress });
}
/**
 * Writes investigation `investigationId` as a web archive (WACZ) into the export folder (or where
 * the save dialog says), calling `onProgress` as it goes. Null when the dialog was closed;
 * `{ outcome: 'cancelled' }` after `waczCancel`, which leaves no file.
 */
export function waczExport(investigationId: number, onProgress: (progress: BundleProgress) => void) {
  const progress = new Channel<BundleProgress>();
  progress.onmessage = onProgress;
  return call('wacz_export', { investigationId, progress });
}
export const waczCancel = () => call('wacz_cancel');
/** The data folder's size by part, the disk's room (reads every page of the database: seconds on a large archive). */
export const storageReport = () => call('storage_report');
/** The disk's room and whether it is low (cheap: for the low-disk warning). */
export const storageDisk = () => call('storage_disk');
/**
 * Compacts the database (its free pages given back) and removes the media folder's orphaned
 * files, calling `onProgress` as it goes; `{ outcome: 'cancelled' }` after `storageCompactCancel`,
 * which leaves the database as it was.
 */
export function storageCompact(onProgress: (progress: CompactProgress) => void) {
  const progress = new Channel<CompactProgress>();
  progress.onmessage = onProgress;
  return call('storage_compact', { progress });
}
export const storageCompactCancel = () => call('storage_compact_cancel');
/** Stops the running check of a bundle. */
export const evidenceVerifyCancel = () => call('evidence_verify_cancel');
/** The system's open dialog for a bundle; null when closed. */
export const evidencePickBundle = () => call('evidence_pick_bundle');

// --- Case packages: a case handed to a colleague, and opened or merged back -------------

/**
 * "Export for a colleague": writes investigation `investigationId` as a case package into the
 * export folder (or where the save dialog says), calling `onProgress` as it goes. Null when the
 * dialog was closed; `{ outcome: 'cancelled' }` after `casePackageExportCancel`.
 */
export function casePackageExport(investigationId: number, onProgress: (progress: CaseProgress) => void) {
  const progress = new Channel<CaseProgress>();
  progress.onmessage = onProgress;
  return call('case_package_export', { investigationId, progress });
}
export const casePackageExportCancel = () => call('case_package_export_cancel');
/**
 * "Open a case package": verifies the package at `path`, then imports it (a new case) or merges
 * it (a case held here); refused with why when a check fails. Needs no API key.
 */
export function casePackageOpen(path: string, onProgress: (progress: CaseProgress) => void) {
  const progress = new Channel<CaseProgress>();
  progress.onmessage = onProgress;
  return call('case_package_open', { path, progress });
}
export const casePackageOpenCancel = () => call('case_package_open_cancel');
/** The system's open dialog for a case package; null when closed. */
export const casePackagePick = () => call('case_package_pick');
/** The differences merges left standing in an investigation, each kept on both sides. */
export const casePackageConflicts = (investigationId: number) => call('case_package_conflicts', { investigationId });

// --- Monitors and long collections: fetching in the background ------------------------

export const monitorList = () => call('monitor_list');
/** Saved and due at once: its first run starts right away. */
export const monitorCreate = (draft: MonitorDraft) => call('monitor_create', { draft });
export const monitorUpdate = (id: number, draft: MonitorDraft) => call('monitor_update', { id, draft });
export const monitorDelete = (id: number) => call('monitor_delete', { id });
export const monitorPause = (id: number) => call('monitor_pause', { id });
export const monitorResume = (id: number) => call('monitor_resume', { id });
/** Starts a run in the background; its progress arrives as `monitors-changed`. */
export const monitorRunNow = (id: number) => call('monitor_run_now', { id });
/** For a monitor waiting on a budget warning: run it anyway, or skip this run. */
export const monitorConfirm = (id: number) => call('monitor_confirm', { id });
export const monitorSkip = (id: number) => call('monitor_skip', { id });
/** A draft's cost per run and per month (null: unknown until a rate is learned) and budget share. */
export const monitorEstimate = (draft: MonitorDraft) => call('monitor_estimate', { draft });
export const monitorPosts = (id: number, query: Partial<MonitorPostQuery> = {}) =>
  call('monitor_posts', { id, query: partial(query) });
/** Marks these posts (null: all of this monitor's) seen; answers the new badge counts. */
export const monitorMarkSeen = (id: number, postIds: string[] | null) =>
  call('monitor_mark_seen', { id, postIds });
export const monitorMarkAllSeen = () => call('monitor_mark_all_seen');
export const monitorUnseen = () => call('monitor_unseen');
/** The run log, newest first. */
export const monitorRuns = (id: number, limit: number) => call('monitor_runs', { id, limit });

export const collectionStart = (draft: CollectionDraft) => call('collection_start', { draft });
/** Newest first. */
export const collectionList = () => call('collection_list');
export const collectionPause = (id: number) => call('collection_pause', { id });
/** Goes on from the last page saved (also after a restart); `confirmBudget` accepts a waiting budget warning. */
export const collectionResume = (id: number, confirmBudget: boolean) =>
  call('collection_resume', { id, confirmBudget });
export const collectionCancel = (id: number) => call('collection_cancel', { id });
/** Drops it from the list; History and the Archive keep everything it fetched. */
export const collectionDelete = (id: number) => call('collection_delete', { id });
export const collectionRuns = (id: number, limit: number) => call('collection_runs', { id, limit });
/** A collection's posts, newest first, `limit` from `offset`. */
export const collectionPosts = (id: number, after: string | null, offset: number, limit: number) =>
  call('collection_posts', { id, after, offset, limit });
/** What a draft collection would cost before it starts: for a number, all of it; for a date or the end, per 100. */
export const collectionEstimate = (draft: CollectionDraft) => call('collection_estimate', { draft });

// --- Imports: files of posts other tools collected, read into the archive ---------------

/** The system's open dialog for a file to import; null when closed. */
export const importPickFile = () => call('import_pick_file');
/** The file's format, read from its first lines; rejects in words when it is none Sightline reads. */
export const importDetect = (path: string) => call('import_detect', { path });
/**
 * Hashes the file at `path`, then reads it into investigation `investigationId` (null: the
 * archive alone); its progress arrives through `onImportProgress`. The import as it ended; null
 * when cancelled while the file was hashed.
 */
export const importStart = (path: string, investigationId: number | null) => call('import_start', { path, investigationId });
/** Goes on from the line after the last recorded, once the file at `path` hashes as before. */
export const importResume = (id: number, path: string) => call('import_resume', { id, path });
/** Stops the running import after its current batch; what it read is kept. */
export const importCancel = () => call('import_cancel');
/** The import running now, as last told; null when none runs. */
export const importRunning = () => call('import_running');
/** Every import, newest first. */
export const importList = () => call('import_list');
export const importGet = (id: number) => call('import_get', { id });
/** Up to `limit` outcomes after `after` (null: from the first line), in file order, only `outcome`'s when given. */
export const importLines = (id: number, after: { line: number; item: number } | null, outcome: ImportOutcome | null, limit: number) =>
  call('import_lines', { id, afterLine: after?.line ?? null, afterItem: after?.item ?? null, outcome, limit });
/** Saves the outcomes as CSV (export folder, else the save dialog); null when the dialog was closed. */
export const importExportOutcomes = (id: number) => call('import_export_outcomes', { id });
/** The imports that brought these posts, for those an import brought. */
export const importMarksFor = (postIds: string[]) => call('import_marks', { postIds });
/** An import's progress, while it hashes and reads the file. */
export function onImportProgress(listener: (progress: ImportProgress) => void): Promise<UnlistenFn> {
  return listen<ImportProgress>('import-progress', (event) => listener(event.payload));
}

/** Any monitor's state, unseen count or run log changed. */
export function onMonitorsChanged(listener: (change: MonitorsChanged) => void): Promise<UnlistenFn> {
  return listen<MonitorsChanged>('monitors-changed', (event) => listener(event.payload));
}

/** A collection's progress: after every page and every change of state. */
export function onCollectionProgress(listener: (collection: Collection) => void): Promise<UnlistenFn> {
  return listen<Collection>('collection-progress', (event) => listener(event.payload));
}

/** The media queue's counts: waiting, kept, gone, failed, too large; files and bytes kept. */
export const mediaProgress = () => call('media_progress');
/** "Retry failed": the items given up on wait again, fetched at the fetcher's pace; how many. */
export const mediaRetryFailed = () => call('media_retry_failed');
/** Where the queueing of archived posts' media is (for "keep every archived post's media"). */
export const mediaBackfillStatus = () => call('media_backfill_status');
/** Starts (or goes on with) queueing archived posts' media, when the setting is on. */
export const mediaBackfillStart = () => call('media_backfill_start');
/** Stops queueing archived posts' media after the current page; started again, it goes on. */
export const mediaBackfillStop = () => call('media_backfill_stop');
/** The queueing of archived posts' media read a page (or stopped, or finished). */
export function onMediaBackfill(listener: (status: BackfillStatus) => void): Promise<UnlistenFn> {
  return listen<BackfillStatus>('media-backfill', (event) => listener(event.payload));
}
/** The media fetcher kept, lost or gave up on an item (its queue's counts changed). */
export function onMediaProgress(refresh: () => void): Promise<UnlistenFn> {
  return listen('media-progress', () => refresh());
}

/** Runs `refresh` whenever a request anywhere changes history or spend. */
export function onRecordsChanged(refresh: () => void): Promise<UnlistenFn> {
  return listen('records-changed', () => refresh());
}

// --- Analysis: counts over stored posts, free and offline (only fetching replies is billed) --

/** The scope's name, post count and date span. */
export const analysisSummary = (scope: AnalysisScope) => call('analysis_summary', { scope });
/** Posts per hour or day, stacked, with engagement; bucket from the span and the display zone unless given. */
export const analysisActivity = (scope: AnalysisScope, options: ActivityOptions) =>
  call('analysis_activity', { scope, options });
/** Posts per weekday × hour; `zone` an IANA name or 'UTC', the display zone when omitted. */
export const analysisHeatmap = (scope: AnalysisScope, zone?: string | null) =>
  call('analysis_heatmap', { scope, zone: zone ?? null });
/** Every top list, `limit` entries each (20 when omitted). */
export const analysisTop = (scope: AnalysisScope, limit?: number) =>
  call('analysis_top', { scope, limit: limit ?? null });
export const analysisNetwork = (scope: AnalysisScope, query: Partial<NetworkQuery> = {}) =>
  call('analysis_network', { scope, query: partial(query) });
/** The kept pictures two or more of the scope's posts hold (near copies as one), most posts first, `limit` of them. */
export const analysisSharedPictures = (scope: AnalysisScope, limit?: number) =>
  call('analysis_shared_pictures', { scope, limit: limit ?? null });
/** A page of the scope's posts themselves, newest first, with how many it holds in all. */
export const analysisPosts = (scope: AnalysisScope, page: ScopePostQuery) =>
  call('analysis_posts', { scope, page });
/** A stored post's replies and quotes as a tree, with what is missing. */
export const analysisConversation = (postId: string) =>
  call('analysis_conversation', { postId });
/** What fetching the tree's missing replies would cost, before anything is sent. */
export const analysisConversationEstimate = (postId: string) =>
  call('analysis_conversation_estimate', { postId });
/** Fetches one more level of missing replies (billed); answers the tree as it now stands. */
export const analysisConversationFetch = (postId: string, options?: SendOptions) =>
  call('analysis_conversation_fetch', { postId, send: sendParams(options) });
/** Saves the network as GEXF or edge CSV; the path, or null when the dialog was closed. */
export const analysisExportNetwork = (scope: AnalysisScope, query: Partial<NetworkQuery>, format: NetworkFormat) =>
  call('analysis_export_network', { scope, query: partial(query), format });
/** Saves one table behind a chart as CSV; the path, or null when the dialog was closed. */
export const analysisExportTable = (scope: AnalysisScope, table: AnalysisTable) =>
  call('analysis_export_table', { scope, table });
/** Saves a chart picture the window drew (PNG bytes or SVG text as UTF-8 bytes). */
export const analysisSaveChart = (name: string, format: ChartFormat, data: Uint8Array) =>
  call('analysis_save_chart', { name, format, data: Array.from(data) });

// --- Media: "Same picture elsewhere", free and offline --------------------------------------

/** The other posts (all but `postId`) holding the kept picture `sha256` or a near copy of it. */
export const mediaSamePicture = (sha256: string, postId: string | null) =>
  call('media_same_picture', { sha256, postId });

// --- Coordination: accounts that did the same thing at nearly the same time ---------------

/** The options a search starts from, each signal's default weight written out. */
export const coordinationDefaults = () => call('coordination_defaults');
/**
 * Looks for coordination in a scope on a background thread, calling `onProgress` as it goes;
 * `{ outcome: 'cancelled' }` after `coordinationCancel`. The result is kept for the exports.
 */
export function coordinationFind(scope: AnalysisScope, options: CoordinationOptions, onProgress: (progress: CoordinationProgress) => void) {
  const progress = new Channel<CoordinationProgress>();
  progress.onmessage = onProgress;
  return call('coordination_find', { scope, options, progress });
}
/** Stops the running search for coordination; nothing of it is kept. */
export const coordinationCancel = () => call('coordination_cancel');
/** Saves the last search's edges as CSV or GEXF; the path, or null when the dialog was closed. */
export const coordinationExport = (format: CoordinationFormat) => call('coordination_export', { format });

// --- Errors -----------------------------------------------------------------------------

/** What a rejected command carried, as a `CommandError` (wrapping anything unexpected). */
export function asCommandError(error: unknown): CommandError {
  if (error && typeof error === 'object' && 'kind' in error && 'message' in error) {
    return error as CommandError;
  }
  return { kind: 'internal', message: errorMessage(error) };
}

/** Turns whatever a failed command threw into a sentence for the UI. */
export function errorMessage(error: unknown): string {
  if (typeof error === 'string') return error;
  if (error instanceof Error) return error.message;
  if (error && typeof error === 'object' && 'message' in error && typeof error.message === 'string') {
    return error.message;
  }
  return 'Something went wrong, and the app could not say what.';
}
