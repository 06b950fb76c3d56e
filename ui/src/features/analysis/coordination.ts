/**
 * The words and small rules of the Coordination view: what each signal is called and means,
 * how unusual a group is against its own background, which groups the default view shows, the
 * shared events behind an edge (its two posts each, and how far apart), the options checked
 * before a run, and the progress line. The finding itself is Rust's (core's `coordination`).
 */
import type { Baseline } from '$lib/bindings/Baseline';
import type { Coordination } from '$lib/bindings/Coordination';
import type { CoordinationEdge } from '$lib/bindings/CoordinationEdge';
import type { CoordinationGroup } from '$lib/bindings/CoordinationGroup';
import type { CoordinationOptions } from '$lib/bindings/CoordinationOptions';
import type { CoordinationProgress } from '$lib/bindings/CoordinationProgress';
import type { PostRef } from '$lib/bindings/PostRef';
import type { Signal } from '$lib/bindings/Signal';
import { countOf } from '$lib/format';

/** Every signal, in the order Rust computes and lists them. */
export const SIGNALS: Signal[] = ['co_post', 'near_duplicate', 'co_link', 'co_hashtag', 'co_reply', 'co_repost', 'fast_repost'];

/** Each signal's name on screen and what it observed, in plain words. */
export const SIGNAL_WORDS: Record<Signal, { name: string; what: string }> = {
  co_post: { name: 'Same text', what: 'posted the same text (case, spaces, mentions and links aside) within the window' },
  near_duplicate: { name: 'Near-same text', what: 'posted nearly the same words within the window' },
  co_link: { name: 'Same link', what: 'shared the same link within the window' },
  co_hashtag: { name: 'Same hashtags', what: 'used the same set of hashtags within the window' },
  co_reply: { name: 'Replies to one post', what: 'replied to the same post within the window' },
  co_repost: { name: 'Same reposts', what: 'reposted the same posts (reposters come without times, so no window)' },
  fast_repost: { name: 'Fast reposts', what: 'reposted the same post within seconds of it being written' },
};

export function signalNames(signals: Signal[]): string {
  return signals.map((signal) => SIGNAL_WORDS[signal].name).join(', ');
}

/** The groups a view shows: the unusual ones, or with `all` every group. */
export function shownGroups(result: Coordination, all: boolean): CoordinationGroup[] {
  return all ? result.groups : result.groups.filter((group) => group.unusual);
}

/** How unusual a group is against its own background, in words. */
export function backgroundWords(group: CoordinationGroup): string {
  const baseline: Baseline | null = group.baseline;
  if (!baseline) {
    return group.unusual
      ? 'Unusual: its accounts reposted nearly the same posts, and were most of those who reposted them (reposts carry no times to shift).'
      : 'Not unusual: its accounts reposted too few of the same posts, or were few among the many who reposted them (reposts carry no times to shift).';
  }
  const expected = baseline.mean.toFixed(1);
  const p = baseline.p < 0.001 ? '< 0.001' : `= ${baseline.p.toFixed(3)}`;
  const observed = countOf(baseline.observed, 'shared event', 'shared events');
  const verdict = group.unusual ? 'Unusual vs background' : 'Not unusual vs background';
  const share = `${Math.round(baseline.share * 100)}%`;
  return `${verdict}: ${observed}, where ${expected} were expected with each account's posts moved at random in time (${baseline.runs} runs, p ${p}); its accounts were ${share} of those acting alike at its moments.`;
}

/** One shared event behind an edge: both posts and how far apart they were. */
export interface SharedEvent {
  first: PostRef;
  second: PostRef;
  /** Seconds between the two; `null` for a reposters list (the same post twice, no times). */
  apartSeconds: number | null;
}

export function edgeEvents(result: Coordination, edge: CoordinationEdge): SharedEvent[] {
  const events: SharedEvent[] = [];
  for (const [a, b] of edge.pairs) {
    const first = result.posts[a];
    const second = result.posts[b];
    if (!first || !second) continue;
    const apart = a === b ? null : Math.abs(Date.parse(second.at) - Date.parse(first.at)) / 1000;
    events.push({ first, second, apartSeconds: apart });
  }
  return events.sort((x, y) => Date.parse(x.first.at) - Date.parse(y.first.at));
}

export function apartWords(seconds: number | null): string {
  if (seconds === null) return 'the same post, from a reposters list';
  if (seconds < 1) return 'under a second apart';
  if (seconds < 120) return `${Math.round(seconds)} s apart`;
  return `${Math.round(seconds / 60)} min apart`;
}

/** A group's edges, heaviest first. */
export function groupEdges(result: Coordination, group: CoordinationGroup): { index: number; edge: CoordinationEdge }[] {
  return group.edges
    .map((index) => ({ index, edge: result.edges[index] }))
    .filter((item): item is { index: number; edge: CoordinationEdge } => !!item.edge)
    .sort((x, y) => y.edge.weight - x.edge.weight || x.edge.source.localeCompare(y.edge.source));
}

/** Problems with the options, by field; empty when a run may start. */
export function optionProblems(options: CoordinationOptions): Record<string, string> {
  const problems: Record<string, string> = {};
  if (!Number.isInteger(options.windowSeconds) || options.windowSeconds < 1 || options.windowSeconds > 86_400) {
    problems.windowSeconds = 'The window is a whole number of seconds, from 1 to 86,400 (a day).';
  }
  if (!Number.isInteger(options.minEvents) || options.minEvents < 1 || options.minEvents > 1_000) {
    problems.minEvents = 'The fewest shared events is a whole number from 1 to 1,000.';
  }
  for (const weight of options.weights) {
    if (!Number.isFinite(weight.weight) || weight.weight < 0 || weight.weight > 10) {
      problems[`weight-${weight.signal}`] = `${SIGNAL_WORDS[weight.signal].name}: a weight from 0 to 10.`;
    }
  }
  return problems;
}

/** Where a run is, in words. */
export function progressWords(progress: CoordinationProgress | null): string {
  if (!progress) return 'Starting…';
  switch (progress.stage) {
    case 'reading':
      return `Reading the posts: ${progress.done.toLocaleString('en')} of ${progress.total.toLocaleString('en')}`;
    case 'signal':
      return `Looking for ${progress.signal ? SIGNAL_WORDS[progress.signal].name.toLowerCase() : 'signals'} (${progress.done + 1} of ${progress.total})`;
    case 'grouping':
      return 'Grouping the accounts';
    case 'baseline':
      return `Comparing each group with its background: ${progress.done} of ${progress.total}`;
  }
}

/** 0 to 1, for the progress bar; `null` when the stage has no count. */
export function progressFraction(progress: CoordinationProgress | null): number | null {
  if (!progress || progress.total <= 0) return null;
  return Math.min(1, progress.done / progress.total);
}
