/**
 * Monitors' and collections' states and run outcomes in plain words. The words of each state
 * and outcome are the store's (`stateWords.ts`, written from Rust); the rest is said here.
 */
import type { CollectUntil } from '$lib/bindings/CollectUntil';
import type { CollectionSource } from '$lib/bindings/CollectionSource';
import type { CollectionState } from '$lib/bindings/CollectionState';
import type { Monitor } from '$lib/bindings/Monitor';
import type { MonitorState } from '$lib/bindings/MonitorState';
import type { RunOutcome } from '$lib/bindings/RunOutcome';
import { collectionStateLabels, monitorStateLabels, runOutcomeLabels } from '$lib/bindings/stateWords';
import { zonedDay } from '$lib/format';
import { INTERVALS } from './monitorDraft';

export function outcomeWords(outcome: RunOutcome): string {
  return runOutcomeLabels[outcome];
}

/**
 * How a run's words are drawn: `problem` (red) only when it failed; `warn` when the budget or
 * the service held it back; `note` (plain) when it ended as asked: done, skipped, paused or
 * cancelled by you.
 */
export type Tone = 'problem' | 'warn' | 'note';

const OUTCOME_TONES: Record<RunOutcome, Tone> = {
  running: 'note',
  done: 'note',
  budget_blocked: 'warn',
  needs_confirmation: 'warn',
  skipped: 'note',
  rate_limited: 'warn',
  paused: 'note',
  cancelled: 'note',
  failed: 'problem',
};

export function outcomeTone(outcome: RunOutcome): Tone {
  return OUTCOME_TONES[outcome];
}

export function collectionStateWords(state: CollectionState): string {
  return collectionStateLabels[state];
}

/** A monitor's state as its row says it (the reason, when there is one, goes below). */
export function monitorStateWords(monitor: Pick<Monitor, 'state' | 'running'>): string {
  return monitor.running ? 'Running now' : monitorStateLabels[monitor.state];
}

/**
 * How a monitor's reason is drawn: a failed last run's in red; the budget's pause or warning
 * as a warning; "Paused by you." plainly.
 */
export function monitorReasonTone(monitor: Pick<Monitor, 'state'>): Tone {
  if (monitor.state === 'active') return 'problem';
  return monitor.state === 'paused' ? 'note' : 'warn';
}

export function intervalWords(minutes: number): string {
  const preset = INTERVALS.find((each) => each.minutes === minutes);
  if (preset) return preset.label;
  return minutes % 60 === 0 ? `Every ${minutes / 60} hours` : `Every ${minutes} minutes`;
}

/** What a monitor watches, in a few words. */
export function targetWords(monitor: Pick<Monitor, 'target'>): string {
  return monitor.target.kind === 'account' ? `Posts by @${monitor.target.request.username}` : `X search “${monitor.target.request.query}”`;
}

export function sourceWords(source: CollectionSource): string {
  switch (source.kind) {
    case 'search':
      return `X search “${source.request.query}”`;
    case 'user_posts':
      return `Posts by @${source.request.username}`;
    case 'replies':
      return `Replies to post ${source.request.post_id}`;
    case 'reposters':
      return `Reposters of post ${source.request.id}`;
  }
}

/** Reposters are accounts, the rest posts: the noun a collection counts. */
export function itemNoun(source: CollectionSource): [string, string] {
  return source.kind === 'reposters' ? ['account', 'accounts'] : ['post', 'posts'];
}

export function untilWords(until: CollectUntil, source: CollectionSource): string {
  const [, many] = itemNoun(source);
  if (until.kind === 'count') return `until ${until.items.toLocaleString('en')} ${many}`;
  if (until.kind === 'date') return `back to ${zonedDay(until.date)}`;
  return 'to the end';
}
