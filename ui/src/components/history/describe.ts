/** Words for history rows: what was asked, in a form a reader recognises. */
import type { Billing } from '$lib/bindings/Billing';
import type { HistoryEntry } from '$lib/bindings/HistoryEntry';
import type { RequestOrigin } from '$lib/bindings/RequestOrigin';
import type { RequestStatus } from '$lib/bindings/RequestStatus';
import { boundWords, splitBounds } from '$lib/searchBounds';
import { countOf } from '$lib/format';
import { formatCharge } from '$lib/money';
import { serviceName } from '$lib/services';
import { bareHandle } from '$lib/rules';
import { placeName } from '$lib/places';
import { madeByName } from '$lib/caseWords';

export const statusNames: Record<RequestStatus, string> = {
  running: 'Running',
  ok: 'Done',
  not_modified: 'Unchanged',
  error: 'Failed',
  cancelled: 'Stopped',
  interrupted: 'Cut off',
};

/** The parameter that says most about a request, in the order people would name it. */
const leadingFields = ['prompt', 'query', 'title', 'username', 'user', 'urls', 'url', 'id', 'post_id', 'woeid'];

/**
 * A one-line form of the request's parameters, e.g. `"climate" · from nasa`. An X search's
 * time bounds (a monitor's or a collection's `since_time:`) are left out, or told in words
 * with `withBounds` ("posts since 27 Nov 2026, 14:05:09 CET").
 */
export function shortQuery(paramsJson: string, max = 90, withBounds = false): string {
  let params: unknown;
  try {
    params = JSON.parse(paramsJson);
  } catch {
    return clip(paramsJson, max);
  }
  if (!params || typeof params !== 'object') return clip(String(params ?? ''), max);
  const record = params as Record<string, unknown>;
  const parts: string[] = [];
  for (const field of leadingFields) {
    const value = record[field];
    if (value === undefined || value === null || value === '') continue;
    if (field === 'query') {
      const bounds = splitBounds(String(value));
      if (bounds.query) parts.push(`"${bounds.query}"`);
      if (withBounds && boundWords(bounds)) parts.push(boundWords(bounds));
    } else if (field === 'prompt' || field === 'title') parts.push(`"${String(value)}"`);
    else if (field === 'user' || field === 'username') parts.push(`@${bareHandle(String(value))}`);
    else if (Array.isArray(value)) parts.push(value.map(String).join(', '));
    else if (field === 'woeid') parts.push(placeName(Number(value)));
    else parts.push(String(value));
  }
  return clip(parts.join(' · ') || paramsJson, max);
}

/** Who sent a request for the user: "Monitor: Climate", "Collection: Élections 2026"; "" for the user's own. */
export function originWords(origin: RequestOrigin | null): string {
  if (!origin) return '';
  const kind = origin.kind === 'monitor' ? 'Monitor' : 'Collection';
  return origin.name === null ? `A deleted ${kind.toLowerCase()}` : `${kind}: ${origin.name}`;
}

/** A History row's words for what was asked: who sent it (a monitor, a collection), then the query. */
export function rowQuery(entry: HistoryEntry, max = 90): string {
  return [originWords(entry.origin), shortQuery(entry.params_json, max)].filter(Boolean).join(' · ');
}

/** A request's charge in its detail: "$0.000105 (7 units, X searches and lookups)". */
export function chargeWords(billing: Billing | null): string {
  if (!billing) return 'Nothing was charged';
  return `${formatCharge(billing)} (${countOf(billing.usage_count, 'unit', 'units')}, ${serviceName(billing.service)})`;
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** One line per post found in a stored body: who and what, or null when it holds no posts. */
export function postLines(body: unknown): { author: string; text: string }[] | null {
  const posts = findPosts(body);
  if (!posts) return null;
  return posts.map((post) => {
    const user = (post.user ?? {}) as Record<string, unknown>;
    const handle = typeof user.username === 'string' ? `@${user.username}` : '';
    const name = typeof user.name === 'string' ? user.name : '';
    return { author: [name, handle].filter(Boolean).join(' ') || 'Unknown author', text: String(post.text ?? '') };
  });
}

function isPost(value: unknown): value is Record<string, unknown> {
  return !!value && typeof value === 'object' && 'id' in value && 'text' in value;
}

function findPosts(body: unknown): Record<string, unknown>[] | null {
  if (Array.isArray(body)) return body.length > 0 && body.every(isPost) ? body : null;
  if (isPost(body)) return [body];
  if (body && typeof body === 'object') {
    for (const key of ['tweets', 'miner_tweets']) {
      const list = (body as Record<string, unknown>)[key];
      if (Array.isArray(list) && list.length > 0 && list.every(isPost)) return list;
    }
  }
  return null;
}

/**
 * A request received in a case package: whose its cost and key were, and that this
 * installation's Spend does not count it. `null` for a request this installation sent.
 */
export function receivedWords(entry: HistoryEntry): string | null {
  if (!entry.received_from) return null;
  const who = madeByName(entry.received_from);
  const key = entry.mode === 'demo' ? 'demo data' : entry.key_label ? `their key “${entry.key_label}”` : 'no key label';
  const cost = entry.billing ? `${formatCharge(entry.billing)} was charged to ${who}` : 'nothing was charged';
  return `Received from ${who} in a case package: sent with ${key}; ${cost}. A fact about the case, not counted in this installation's Spend or budgets.`;
}
