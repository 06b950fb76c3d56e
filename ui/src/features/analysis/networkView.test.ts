import { describe, expect, it, vi } from 'vitest';
import { flushSync } from 'svelte';
import { mockBackend } from '../../test/backend';
import type { AnalysisScope } from '$lib/bindings/AnalysisScope';
import type { Network } from '$lib/bindings/Network';
import type { NetworkQuery } from '$lib/bindings/NetworkQuery';
import { NetworkView } from './networkView.svelte';

const scope: AnalysisScope = { source: { kind: 'request', history_id: 4 }, from: null, to: null, filters: { account: null, hashtag: null, mention: null, cashtag: null, domain: null, language: null } };

function networkOf(...ids: string[]): Network {
  return {
    nodes: ids.map((id) => ({ id, label: `@${id}`, posts: 1 })),
    edges: ids.slice(1).map((id, at) => ({ source: id, target: ids[0] ?? id, kind: 'reply', weight: at + 2, first: '2026-11-20T10:00:00Z', last: '2026-11-20T10:00:00Z' })),
    total_edges: Math.max(0, ids.length - 1),
    reposter_requests: 0,
  };
}

describe('NetworkView', () => {
  it('keeps only the answer to the filters shown, and unchooses an account the new network lacks', async () => {
    vi.useFakeTimers();
    try {
      // The first question (every kind) is answered after the second (replies only).
      const answers: Array<(network: Network) => void> = [];
      mockBackend({ analysis_network: () => new Promise<Network>((resolve) => answers.push(resolve)) });
      const view = new NetworkView(() => scope);
      const first = view.follow();
      vi.advanceTimersByTime(200);
      first();
      view.choose('bo');
      view.kinds = { repost: false, reply: true, quote: false, mention: false };
      flushSync();
      const second = view.follow();
      vi.advanceTimersByTime(200);
      await vi.waitFor(() => expect(answers).toHaveLength(2));

      answers[1]?.(networkOf('jordan', 'ana'));
      await vi.waitFor(() => expect(view.network?.nodes).toHaveLength(2));
      answers[0]?.(networkOf('jordan', 'ana', 'bo'));
      await Promise.resolve();
      await Promise.resolve();
      expect(view.network?.nodes.map((node) => node.id)).toEqual(['jordan', 'ana']);
      expect(view.selected).toBeNull();
      expect(view.heaviest).toBe(2);
      expect(view.query satisfies NetworkQuery).toEqual({ kinds: ['reply'], min_weight: 1, max_edges: 0 });
      second();
    } finally {
      vi.useRealTimers();
    }
  });

  it('asks nothing until the filters have rested', () => {
    vi.useFakeTimers();
    try {
      const calls = mockBackend({ analysis_network: () => networkOf('jordan') });
      const view = new NetworkView(() => scope);
      const cancel = view.follow();
      vi.advanceTimersByTime(150);
      cancel();
      vi.advanceTimersByTime(500);
      expect(calls.analysis_network ?? []).toHaveLength(0);
    } finally {
      vi.useRealTimers();
    }
  });
});
