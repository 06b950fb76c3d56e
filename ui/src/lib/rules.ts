/**
 * The service's input rules and their words, in one place. Each message is, word for word, the
 * one crates/api's `validate()` gives: the table crates/api/tests/fixtures/validation-cases.json
 * holds both sides to it. validate.ts applies these rules per operation; the few checks that only
 * a form can make (a count field holding no number, a range with no dates) are here too.
 */
import type { FieldError } from './bindings/FieldError';

/** Field name → the first message about it, as a form shows them. */
export type FieldMessages = Record<string, string>;

/** The number ranges of the contract, for the checks and for the fields' min/max. */
export const LIMITS = {
  /** `count` of the AI search and both link searches. */
  aiCount: { min: 10, max: 200 },
  /** `count` of the X lists: search, a user's posts, replies. */
  xCount: { min: 1, max: 100 },
  /** `count` of the trends. */
  trendsCount: { min: 30, max: 100 },
  /** `start` of the web search (10 is page 2). */
  webStart: { min: 0, max: 100 },
} as const;

export type Limit = { readonly min: number; readonly max: number };

export function firstPerField(errors: FieldError[]): FieldMessages {
  const messages: FieldMessages = {};
  for (const { field, message } of errors) messages[field] ??= message;
  return messages;
}

export function rangeMessage(limit: Limit, entered: string | number): string {
  return `Choose a number from ${limit.min} to ${limit.max} (you entered ${entered}).`;
}

/**
 * Form-only: a count field whose text is not a whole number (empty, `2.5`, `-3`) has no number
 * to send. A whole number out of range is the request's rule, worded by `rangeMessage`.
 */
export function countFieldError(text: string, limit: Limit): string | null {
  const value = text.trim();
  if (/^\d+$/.test(value)) return null;
  return value ? rangeMessage(limit, value) : `Choose a number from ${limit.min} to ${limit.max}.`;
}

/** `countFieldError` as a form's problems: none, or one for `field`. */
export function countField(text: string, limit: Limit, field = 'count'): FieldMessages {
  const problem = countFieldError(text, limit);
  return problem ? { [field]: problem } : {};
}

/** The count field's number, once `countFieldError` passed. */
export function countValue(text: string): number {
  return Number(text.trim());
}

/** X handles are typed with or without `@`; the service wants them without. */
export function bareHandle(text: string): string {
  return text.trim().replace(/^@+/, '');
}

/** A post id: digits only, as in the last part of a post's link. */
export function isPostId(text: string): boolean {
  return /^\d+$/.test(text.trim());
}

/** True for `https://x.com/{user}/status/{digits}` (or `/i/web/status/…`), on x.com or twitter.com. */
export function isPostUrl(text: string): boolean {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return false;
  }
  const hostOk = /^(?:www\.|mobile\.)?(?:x|twitter)\.com$/.test(url.hostname);
  const segments = url.pathname.slice(1).split('/');
  const [first = '', second = '', third = '', fourth = ''] = segments;
  const digits = (value: string) => /^\d+$/.test(value);
  const pathOk = (first !== '' && second === 'status' && digits(third)) || (first === 'i' && second === 'web' && third === 'status' && digits(fourth));
  return (url.protocol === 'http:' || url.protocol === 'https:') && hostOk && pathOk;
}

export function postUrlMessage(url: string): string {
  return `"${url}" is not a link to a post on X. It should look like https://x.com/name/status/1234567890.`;
}

/** True for an absolute http(s) address with a host, as the crawl requires. */
export function isWebAddress(text: string): boolean {
  try {
    const url = new URL(text.trim());
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

/** `YYYY-MM-DD`, a real day. */
export function isDay(text: string): boolean {
  return /^\d{4}-\d{2}-\d{2}$/.test(text) && realDay(text);
}

/** `YYYY-MM-DDTHH:MM:SSZ`, a real day and time. */
export function isInstant(text: string): boolean {
  const match = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2}):(\d{2})Z$/.exec(text);
  return !!match && realDay(match[1] ?? '') && Number(match[2]) < 24 && Number(match[3]) < 60 && Number(match[4]) < 60;
}

function realDay(text: string): boolean {
  const date = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(text);
}

export function dayMessage(entered: string): string {
  return `Write the date as YYYY-MM-DD, for example 2026-03-01 (you entered "${entered}").`;
}

/**
 * Form-only: a pair of date filters (History, the Archive, an investigation's posts), either
 * empty: each a real `YYYY-MM-DD` day, in the words and order the requests' own rules use (the
 * format first, then the end not before the start). A message per field, or null.
 */
export function dayRangeProblems(from: string, to: string): { from: string | null; to: string | null } {
  const [start, end] = [from.trim(), to.trim()];
  const fromProblem = start && !isDay(start) ? dayMessage(start) : null;
  if (end && !isDay(end)) return { from: fromProblem, to: dayMessage(end) };
  return { from: fromProblem, to: !fromProblem && start && end && end < start ? MESSAGES.endBeforeStart : null };
}

export const MESSAGES = {
  prompt: 'Type what you want to search for.',
  xQuery: 'Type what to search for on X.',
  webQuery: 'Type what to search the web for.',
  tools: 'Pick at least one source to search.',
  twitterInWebLinks: 'X (twitter) cannot be used in the web links search; use the X links search for posts.',
  endBeforeStart: 'The end date is before the start date.',
  urls: 'Add at least one link to a post on X.',
  postId: "Enter the post's id (the number at the end of its link).",
  handle: 'Enter the X username, for example nasa.',
  woeid: 'Enter a place number (WOEID); 1 means worldwide.',
  pageUrl: 'Enter the address of the page to read.',
  webAddress: 'Enter a full web address starting with https://, for example https://example.com/page.',
  /** Form-only: a custom range with neither date. */
  noDates: 'Pick a start or end date, or a named range.',
  forecastQuestion: 'Type the question, or give the event a title below.',
  cutoffPassed: 'The resolution time has passed: choose a time in the future.',
  forecastId: "Give the forecast's id.",
} as const;

export function cutoffMessage(entered: string): string {
  return `Write the resolution time as a date and time, for example 2027-03-01T00:00:00Z (you entered "${entered}").`;
}

export function forecastIdMessage(entered: string): string {
  return `A forecast id is letters, digits and dashes (you entered "${entered}").`;
}

/**
 * An RFC 3339 date and time, as a forecast's `cutoff` takes it (`2027-03-01T00:00:00Z`, or with an
 * offset such as `+01:00`): the time it names, or null.
 */
export function parseRfc3339(text: string): Date | null {
  const match = /^(\d{4}-\d{2}-\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/.exec(text.trim());
  if (!match || !realDay(match[1] ?? '') || Number(match[2]) > 23 || Number(match[3]) > 59 || Number(match[4]) > 59) return null;
  const time = new Date(text.trim()).getTime();
  return Number.isNaN(time) ? null : new Date(time);
}

export function postIdMessage(entered: string): string {
  return `A post id is digits only, like 1890000000000000001 (you entered "${entered}").`;
}

export function woeidMessage(entered: number): string {
  return `A place number (WOEID) is 1 or more; 1 means worldwide (you entered ${entered}).`;
}

/** Collects every problem, as crates/api's `Checks` does: a form shows them all at once. */
export class Checks {
  readonly errors: FieldError[] = [];

  add(field: string, message: string): void {
    this.errors.push({ field, message });
  }

  /** A required text: present and not only white space. */
  required(field: string, value: string, message: string): boolean {
    if (value.trim()) return true;
    this.add(field, message);
    return false;
  }

  range(field: string, value: number, limit: Limit): void {
    if (value < limit.min || value > limit.max) this.add(field, rangeMessage(limit, value));
  }

  /** `YYYY-MM-DD`, as the X search takes; blank is no filter. */
  day(field: string, value: string | null | undefined): void {
    const text = value?.trim();
    if (text && !isDay(text)) this.add(field, dayMessage(text));
  }

  /** `YYYY-MM-DDTHH:MM:SSZ`, as the AI search takes; blank is no filter. */
  instant(field: string, value: string | null | undefined): void {
    const text = value?.trim();
    if (text && !isInstant(text)) {
      this.add(
        field,
        `Write the date and time as YYYY-MM-DDTHH:MM:SSZ, for example 2026-03-01T00:00:00Z (you entered "${text}").`,
      );
    }
  }

  /** Both ends given and readable: the end must not come first. Same-format texts sort as dates. */
  order(start: string | null | undefined, end: string | null | undefined, readable: (text: string) => boolean): void {
    const from = start?.trim() ?? '';
    const to = end?.trim() ?? '';
    if (readable(from) && readable(to) && from > to) this.add('end_date', MESSAGES.endBeforeStart);
  }

  /** A whole number of at least zero, as text; blank is no filter. */
  wholeNumber(field: string, value: string | null | undefined): void {
    const text = value?.trim();
    if (text && !isWholeNumber(text)) this.add(field, `Enter a whole number of 0 or more (you entered "${text}").`);
  }
}

/** What Rust's `u64` parse takes: digits with an optional `+`, up to 2^64 − 1. */
function isWholeNumber(text: string): boolean {
  return /^\+?\d+$/.test(text) && BigInt(text) <= 18_446_744_073_709_551_615n;
}
