/**
 * The time bounds of an X search query, `since_time:<seconds>` and `until_time:<seconds>`: a
 * monitor adds one to ask only for what is new, a collection pages back with them. A reader
 * sees the query they wrote and the bound in words ("posts since 27 Nov 2026, 14:05:09 CET"),
 * never the raw number. The one home of that rule (History's rows and detail use it).
 */
import { zonedTime } from './format';
import { zoneSetting } from './displayZone.svelte';

export type QueryBounds = {
  /** The query without its time bounds. */
  query: string;
  /** Posts from this time on (`since_time:`), or null. */
  since: Date | null;
  /** Posts before this time (`until_time:`), or null. */
  until: Date | null;
};

/** A whole `since_time:`/`until_time:` word with whole seconds since 1970 (the service's form). */
const BOUND = /(^|\s)(since_time|until_time):(\d{1,12})(?=\s|$)/g;

/** Takes the time bounds out of a query; the last of each kind counts, as the service reads it. */
export function splitBounds(query: string): QueryBounds {
  let since: Date | null = null;
  let until: Date | null = null;
  const rest = query.replace(BOUND, (_word, space: string, kind: string, seconds: string) => {
    const at = new Date(Number(seconds) * 1000);
    if (kind === 'since_time') since = at;
    else until = at;
    return space;
  });
  return { query: rest.replace(/\s+/g, ' ').trim(), since, until };
}

/** The bounds in words, e.g. "posts since 27 Nov 2026, 14:05:09 CET"; "" when there are none. */
export function boundWords(bounds: QueryBounds, zone: string = zoneSetting.zone): string {
  const since = bounds.since && `since ${zonedTime(bounds.since, zone, true)}`;
  const until = bounds.until && `before ${zonedTime(bounds.until, zone, true)}`;
  const parts = [since, until].filter(Boolean);
  return parts.length ? `posts ${parts.join(', ')}` : '';
}
