/** Words for history rows: what was asked, in a form a reader recognises. */
import type { RequestStatus } from '$lib/bindings/RequestStatus';
import { bareHandle } from '$lib/rules';
import { placeName } from '../trends/places';

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

/** A one-line form of the request's parameters, e.g. `"climate" · from nasa`. */
export function shortQuery(paramsJson: string, max = 90): string {
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
    if (field === 'prompt' || field === 'query' || field === 'title') parts.push(`"${String(value)}"`);
    else if (field === 'user' || field === 'username') parts.push(`@${bareHandle(String(value))}`);
    else if (Array.isArray(value)) parts.push(value.map(String).join(', '));
    else if (field === 'woeid') parts.push(placeName(Number(value)));
    else parts.push(String(value));
  }
  return clip(parts.join(' · ') || paramsJson, max);
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
