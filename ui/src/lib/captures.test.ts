import { describe, expect, it } from 'vitest';
import { mockBackend } from '../test/backend';
import { historyCaptures, loadHistoryCaptures, loadPostCaptures, postCaptures, shortHash } from './captures.svelte';

const summary = (historyId: number) => ({ history_id: historyId, captured_at: '2026-11-23T18:04:12.000Z', sha256: 'c'.repeat(64) });

describe('capture lines', () => {
  it('asks once per page for the posts not known yet, never once per card', async () => {
    const calls = mockBackend({
      provenance_posts: (args) =>
        (args.postIds as string[]).map((postId) => ({ post_id: postId, capture: postId === 'old' ? null : summary(3) })),
    });
    await loadPostCaptures(['1', '2', 'old', '2']);
    await loadPostCaptures(['1', '2', 'old', '3']);
    expect(calls.provenance_posts).toEqual([{ postIds: ['1', '2', 'old'] }, { postIds: ['3'] }]);
    expect(postCaptures.get('1')).toEqual(summary(3));
    expect(postCaptures.get('old')).toBeNull();
  });

  it('asks for history rows in one call, and keeps what it learnt', async () => {
    const calls = mockBackend({
      provenance_history: (args) =>
        (args.historyIds as number[]).map((historyId) => ({
          history_id: historyId,
          capture: historyId === 1 ? { state: 'before_provenance' } : { state: 'captured', capture: summary(historyId) },
        })),
    });
    await loadHistoryCaptures([1, 2]);
    await loadHistoryCaptures([2]);
    expect(calls.provenance_history).toEqual([{ historyIds: [1, 2] }]);
    expect(historyCaptures.get(1)).toEqual({ state: 'before_provenance' });
    expect(historyCaptures.get(2)).toEqual({ state: 'captured', capture: summary(2) });
  });

  it('shortens a hash to its first eight digits', () => {
    expect(shortHash('1f3a9c0b'.repeat(8))).toBe('1f3a9c0b…');
  });
});
