/**
 * The Coordination view's words and rules: the groups shown by default, the background in words,
 * the shared events behind an edge (both posts, how far apart, oldest first), the options
 * checked before a run, and the progress line.
 */
import { describe, expect, it } from 'vitest';
import type { Coordination } from '$lib/bindings/Coordination';
import type { CoordinationGroup } from '$lib/bindings/CoordinationGroup';
import type { CoordinationOptions } from '$lib/bindings/CoordinationOptions';
import { apartWords, backgroundWords, edgeEvents, groupEdges, optionProblems, progressFraction, progressWords, shownGroups, SIGNALS, SIGNAL_WORDS } from './coordination';

const group = (id: number, unusual: boolean, baseline: CoordinationGroup['baseline']): CoordinationGroup => ({
  id,
  members: ['ann', 'bob'],
  size: 2,
  signals: ['co_post'],
  first: '2026-11-26T10:00:00Z',
  last: '2026-11-26T12:00:00Z',
  edges: [0],
  reason: '2 accounts posted the same text within 40 s, 3 times.',
  baseline,
  unusual,
});

const result: Coordination = {
  options: {} as CoordinationOptions,
  postsRead: 10,
  accounts: 4,
  edges: [
    {
      source: 'ann',
      target: 'bob',
      signal: 'co_post',
      weight: 2,
      score: 1,
      first: '2026-11-26T10:00:00Z',
      last: '2026-11-26T12:00:00Z',
      pairs: [
        [2, 3],
        [0, 1],
      ],
    },
    {
      source: 'ann',
      target: 'cy',
      signal: 'co_repost',
      weight: 5,
      score: 0.9,
      first: '2026-11-26T10:00:00Z',
      last: '2026-11-26T10:00:00Z',
      pairs: [[4, 4]],
    },
  ],
  fused: [],
  groups: [
    group(1, true, { observed: 12, mean: 1.25, sd: 0.9, z: 11.9, p: 0.005, runs: 199, share: 0.8 }),
    group(2, false, { observed: 4, mean: 3.9, sd: 1.2, z: 0.08, p: 0.42, runs: 199, share: 0.2 }),
  ],
  posts: [
    { id: '1', author: 'ann', at: '2026-11-26T10:00:00Z', text: 'same' },
    { id: '2', author: 'bob', at: '2026-11-26T10:00:40Z', text: 'same' },
    { id: '3', author: 'ann', at: '2026-11-26T12:00:00Z', text: 'again' },
    { id: '4', author: 'bob', at: '2026-11-26T11:59:59.500Z', text: 'again' },
    { id: '5', author: 'dee', at: '2026-11-26T09:00:00Z', text: 'reposted' },
  ],
};

describe('the coordination view', () => {
  it('names every signal', () => {
    for (const signal of SIGNALS) expect(SIGNAL_WORDS[signal].name.length).toBeGreaterThan(0);
  });

  it('shows the unusual groups by default, and every group on asking', () => {
    expect(shownGroups(result, false).map((g) => g.id)).toEqual([1]);
    expect(shownGroups(result, true).map((g) => g.id)).toEqual([1, 2]);
  });

  it('says how a group stands against its background', () => {
    expect(backgroundWords(result.groups[0]!)).toBe(
      "Unusual vs background: 12 shared events, where 1.3 were expected with each account's posts moved at random in time (199 runs, p = 0.005); its accounts were 80% of those acting alike at its moments.",
    );
    expect(backgroundWords(result.groups[1]!)).toMatch(/^Not unusual vs background: 4 shared events, where 3.9 were expected/);
    expect(backgroundWords(group(3, true, null))).toMatch(/^Unusual: its accounts reposted nearly the same posts, and were most of those who reposted them/);
  });

  it("opens an edge's shared events with both posts, oldest first, and how far apart", () => {
    const events = edgeEvents(result, result.edges[0]!);
    expect(events.map((e) => [e.first.id, e.second.id])).toEqual([
      ['1', '2'],
      ['3', '4'],
    ]);
    expect(events.map((e) => apartWords(e.apartSeconds))).toEqual(['40 s apart', 'under a second apart']);
    const reposts = edgeEvents(result, result.edges[1]!);
    expect(reposts).toHaveLength(1);
    expect(apartWords(reposts[0]!.apartSeconds)).toBe('the same post, from a reposters list');
    expect(apartWords(600)).toBe('10 min apart');
  });

  it("lists a group's edges heaviest first", () => {
    const both = { ...result.groups[0]!, edges: [0, 1] };
    expect(groupEdges(result, both).map((item) => item.index)).toEqual([1, 0]);
  });

  it('checks the options before a run', () => {
    const options = { windowSeconds: 60, minEvents: 3, weights: [{ signal: 'co_post', weight: 1 }] } as CoordinationOptions;
    expect(optionProblems(options)).toEqual({});
    expect(Object.keys(optionProblems({ ...options, windowSeconds: 0, minEvents: 2.5 })).sort()).toEqual(['minEvents', 'windowSeconds']);
    expect(optionProblems({ ...options, weights: [{ signal: 'co_link', weight: -1 }] })).toEqual({ 'weight-co_link': 'Same link: a weight from 0 to 10.' });
  });

  it('says where a run is', () => {
    expect(progressWords(null)).toBe('Starting…');
    expect(progressWords({ stage: 'reading', signal: null, done: 1200, total: 5000 })).toBe('Reading the posts: 1,200 of 5,000');
    expect(progressWords({ stage: 'signal', signal: 'co_link', done: 2, total: 7 })).toBe('Looking for same link (3 of 7)');
    expect(progressFraction({ stage: 'reading', signal: null, done: 1200, total: 5000 })).toBe(0.24);
    expect(progressFraction({ stage: 'grouping', signal: null, done: 0, total: 0 })).toBeNull();
  });
});
