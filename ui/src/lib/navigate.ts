/**
 * The location hash is the app's only router. Screens hand work to each other through it:
 * `#/x?q=<query>` runs an X search (the X screen reads `q` when it opens or when the hash
 * changes, runs the search, then drops `q`); `#/ask?q=<question>` fills Ask's question without
 * sending it; `#/post?id=<id>` and `#/user?handle=<handle>` open
 * the detail views of a post and of an account; `#/investigations?id=<id>` opens one investigation's page; `#/imports` imports a file of posts
 * (`?into=<investigation id>` into that investigation, `?id=<import id>` one import's report);
 * `#/analysis?source=<scope as JSON>&view=<view>` the analysis of a scope, `#/analysis?post=<id>`
 * a post's conversation tree. Links use the `…Href` forms, code the `open…` ones.
 */

import type { ScopeSource } from './bindings/ScopeSource';
import { bareHandle } from './rules';

/** The analysis screen's views (its tabs). */
export type AnalysisView = 'activity' | 'hours' | 'top' | 'network' | 'coordination' | 'pictures' | 'conversation';

/** The hash that opens Ask with `question` filled in. It never sends: an answer is billed. */
export function askHref(question: string): string {
  return `#/ask?q=${encodeURIComponent(question)}`;
}

/** Opens the X screen and searches for `query` there. */
export function openXSearch(query: string): void {
  window.location.hash = `#/x?q=${encodeURIComponent(query)}`;
}

/** The hash of a post's detail view. */
export function postHref(id: string): string {
  return `#/post?id=${encodeURIComponent(id)}`;
}

/** The hash of an account's detail view; a leading `@` is dropped. */
export function userHref(handle: string): string {
  return `#/user?handle=${encodeURIComponent(bareHandle(handle))}`;
}

/** The hash of one investigation's page (the Investigations screen without `id`: the list). */
export function investigationHref(id: number): string {
  return `#/investigations?id=${id}`;
}

/** The hash of one import's progress and report ("Import posts", `#/imports?id=`). */
export function importHref(id: number): string {
  return `#/imports?id=${id}`;
}

/** The hash of a new import into investigation `into` (none: the archive alone). */
export function newImportHref(into: number | null = null): string {
  return into === null ? '#/imports' : `#/imports?into=${into}`;
}

/** The hash of the analysis of a scope (the results on screen, an investigation, an Archive query), opened on `view`. */
export function analysisHref(source: ScopeSource, view: AnalysisView = 'activity'): string {
  return `#/analysis?source=${encodeURIComponent(JSON.stringify(source))}&view=${view}`;
}

/** The hash of a post's conversation tree (the analysis screen with that view alone). */
export function conversationHref(postId: string): string {
  return `#/analysis?post=${encodeURIComponent(postId)}&view=conversation`;
}

export function openAnalysis(source: ScopeSource, view: AnalysisView = 'activity'): void {
  window.location.hash = analysisHref(source, view);
}

export function openPost(id: string): void {
  window.location.hash = postHref(id);
}

export function openUser(handle: string): void {
  window.location.hash = userHref(handle);
}

/** The parameters after `?` in a hash like `#/x?q=a`. */
export function hashParams(hash: string): URLSearchParams {
  const at = hash.indexOf('?');
  return new URLSearchParams(at < 0 ? '' : hash.slice(at + 1));
}

/**
 * The `q` that a hash like `#/x?q=a` hands to screen `screenId`, taken out of the address so
 * that going back or reloading does not act on it (and charge) again. Null for other screens.
 */
export function takeHandedQuery(screenId: string): string | null {
  const hash = window.location.hash;
  if (!hash.startsWith(`#/${screenId}?`)) return null;
  const query = hashParams(hash).get('q');
  if (query) history.replaceState(null, '', `#/${screenId}`);
  return query;
}

/**
 * Back to where the user came from (a detail view's Back button and Esc). A view opened with
 * nothing behind it (the app started on it) goes to the X screen instead of leaving the app.
 */
export function goBack(fallback = '#/x'): void {
  if (window.history.length > 1) window.history.back();
  else window.location.hash = fallback;
}
