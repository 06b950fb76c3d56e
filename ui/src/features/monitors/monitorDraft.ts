/**
 * The monitor form: its values as typed, the draft's rules (the same words Rust gives, held to
 * it by crates/core/tests/fixtures/monitor-draft-cases.json), and the draft built from it. An X
 * search target reuses the X search form's values and rules (lib/xForm.ts); its `count`
 * is the cap per run, and a monitor always asks for the latest posts.
 */
import { monitorLimits } from '$lib/bindings/limits';
import type { Monitor } from '$lib/bindings/Monitor';
import type { MonitorDraft } from '$lib/bindings/MonitorDraft';
import { bareHandle, countFieldError, countValue, rangeMessage, type FieldMessages } from '$lib/rules';
import { formProblems } from '$lib/validate';
import { emptyForm as emptySearchForm, toRequest as toSearchRequest, type XForm } from '$lib/xForm';

/** The core's limits (generated from crates/core/src/monitors/rules.rs). */
export const MONITOR_LIMITS = monitorLimits;

export const MONITOR_MESSAGES = {
  name: 'Give the monitor a name.',
  nameLength: `Keep the name to ${MONITOR_LIMITS.nameChars} characters or fewer.`,
  interval: 'Choose an interval from 15 minutes to a day (1,440 minutes).',
} as const;

/** The intervals offered, from the shortest allowed to a day. */
export const INTERVALS: { minutes: number; label: string }[] = [
  { minutes: 15, label: 'Every 15 minutes' },
  { minutes: 30, label: 'Every 30 minutes' },
  { minutes: 60, label: 'Every hour' },
  { minutes: 120, label: 'Every 2 hours' },
  { minutes: 360, label: 'Every 6 hours' },
  { minutes: 720, label: 'Every 12 hours' },
  { minutes: 1440, label: 'Once a day' },
];

export interface MonitorFields {
  name: string;
  kind: 'search' | 'account';
  /** The X search's filters, as the X search form holds them (its `count` is unused: see `cap`). */
  search: XForm;
  account: string;
  intervalMinutes: number;
  cap: string;
  /** '' for none. */
  investigationId: string;
}

export function emptyMonitorForm(): MonitorFields {
  return { name: '', kind: 'search', search: { ...emptySearchForm(), sort: 'Latest' }, account: '', intervalMinutes: 60, cap: '20', investigationId: '' };
}

/** The form filled from a saved monitor, to edit it. */
export function formFromMonitor(monitor: Monitor): MonitorFields {
  const form = emptyMonitorForm();
  form.name = monitor.name;
  form.intervalMinutes = monitor.intervalMinutes;
  form.cap = String(monitor.cap);
  form.investigationId = monitor.investigationId === null ? '' : String(monitor.investigationId);
  if (monitor.target.kind === 'account') {
    form.kind = 'account';
    form.account = monitor.target.request.username;
  } else {
    const request = monitor.target.request;
    const text = (value: string | null) => value ?? '';
    form.search = {
      query: request.query,
      sort: request.sort,
      count: String(request.count),
      user: text(request.user),
      start_date: text(request.start_date),
      end_date: text(request.end_date),
      lang: text(request.lang),
      verified: request.verified === true,
      blue_verified: request.blue_verified === true,
      is_quote: request.is_quote === true,
      is_video: request.is_video === true,
      is_image: request.is_image === true,
      min_retweets: text(request.min_retweets),
      min_replies: text(request.min_replies),
      min_likes: text(request.min_likes),
    };
  }
  return form;
}

/** The draft as sent to Rust. Call once `validateMonitor` finds no problem. */
export function toDraft(form: MonitorFields): MonitorDraft {
  const cap = countValue(form.cap);
  const target: MonitorDraft['target'] =
    form.kind === 'account'
      ? { kind: 'account', request: { username: bareHandle(form.account), cursor: null } }
      : { kind: 'search', request: { ...toSearchRequest({ ...form.search, count: form.cap }), count: cap } };
  return {
    name: form.name.trim(),
    target,
    intervalMinutes: form.intervalMinutes,
    cap,
    investigationId: form.investigationId === '' ? null : Number(form.investigationId),
  };
}

/** The draft's own rules, as Rust checks a MonitorDraft (fields named as the draft names them). */
export function draftProblems(draft: Pick<MonitorDraft, 'name' | 'intervalMinutes' | 'cap'>): FieldMessages {
  const problems: FieldMessages = {};
  const name = draft.name.trim();
  if (!name) problems.name = MONITOR_MESSAGES.name;
  else if ([...name].length > MONITOR_LIMITS.nameChars) problems.name = MONITOR_MESSAGES.nameLength;
  const interval = MONITOR_LIMITS.intervalMinutes;
  if (!Number.isInteger(draft.intervalMinutes) || draft.intervalMinutes < interval.min || draft.intervalMinutes > interval.max) {
    problems.intervalMinutes = MONITOR_MESSAGES.interval;
  }
  if (draft.cap < MONITOR_LIMITS.cap.min || draft.cap > MONITOR_LIMITS.cap.max) problems.cap = rangeMessage(MONITOR_LIMITS.cap, draft.cap);
  return problems;
}

/**
 * Every problem of the form: the draft's rules, then the target's own (the X search's or the
 * account's, named as their forms name them). The cap field holding no number is the form's own.
 */
export function validateMonitor(form: MonitorFields): FieldMessages {
  const capText = countFieldError(form.cap, MONITOR_LIMITS.cap);
  const draft = toDraft(form);
  const problems = draftProblems({ ...draft, cap: capText ? MONITOR_LIMITS.cap.min : draft.cap });
  if (capText) problems.cap = capText;
  const target =
    draft.target.kind === 'account' ? formProblems('twitter_user_posts', draft.target.request, {}) : formProblems('twitter_search', draft.target.request, {});
  // The search's `count` is the cap, already checked by its own words.
  delete target.count;
  return { ...target, ...problems };
}
