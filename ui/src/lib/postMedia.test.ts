import { describe, expect, it, vi } from 'vitest';
import { mockIPC } from '@tauri-apps/api/mocks';
import { emit } from '@tauri-apps/api/event';
import type { MediaItemRecord } from './bindings/MediaItemRecord';
import { loadPostMedia, mediaSrc, postMedia } from './postMedia.svelte';

function item(post_id: string, state: MediaItemRecord['state']): MediaItemRecord {
  return {
    id: 1,
    post_id,
    position: 0,
    kind: 'photo',
    source_url: 'https://media.example/a.jpg',
    poster_url: null,
    state,
    attempts: 0,
    next_try_at: null,
    reason: null,
    http_status: null,
    response_headers: null,
    fetched_at: null,
    queued_at: '2026-11-28T00:59:00Z',
    file: null,
    poster: null,
  };
}

describe('postMedia', () => {
  it('names a kept file by the app protocol only, and only a SHA-256', () => {
    expect(mediaSrc('0f'.repeat(32))).toBe(`sightline-media://localhost/${'0f'.repeat(32)}`);
    expect(mediaSrc('0F'.repeat(32))).toBeNull();
    expect(mediaSrc('https://pbs.example/a.jpg')).toBeNull();
    expect(mediaSrc('../settings.json')).toBeNull();
  });

  it('asks once per tick for all posts, then again only for posts still waiting when the fetcher reports progress', async () => {
    const asked: string[][] = [];
    let states: Record<string, MediaItemRecord['state']> = { a: 'waiting', b: 'kept' };
    mockIPC(
      (cmd, args) => {
        if (cmd !== 'media_for_posts') return undefined;
        const ids = (args as { postIds: string[] }).postIds;
        asked.push(ids);
        return ids.flatMap((id) => (states[id] ? [item(id, states[id])] : []));
      },
      { shouldMockEvents: true },
    );
    loadPostMedia(['a']);
    loadPostMedia(['b', 'c']);
    loadPostMedia(['a']);
    await vi.waitFor(() => expect(postMedia.get('c')).toEqual([]));
    expect(asked).toEqual([['a', 'b', 'c']]);
    expect(postMedia.get('a')?.[0]?.state).toBe('waiting');

    // Known posts are not asked again.
    loadPostMedia(['b']);
    await Promise.resolve();
    expect(asked).toHaveLength(1);

    states = { a: 'kept', b: 'kept' };
    await emit('media-progress', { waiting: 0 });
    await vi.waitFor(() => expect(postMedia.get('a')?.[0]?.state).toBe('kept'));
    expect(asked).toEqual([['a', 'b', 'c'], ['a']]);
  });
});
