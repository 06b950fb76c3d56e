import { beforeEach, describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/svelte';
import PostMedia from './PostMedia.svelte';
import PostCard from './PostCard.svelte';
import type { MediaItemRecord } from '$lib/bindings/MediaItemRecord';
import { mockBackend } from '../test/backend';
import { makePost } from '../test/fixtures';
import { postMedia } from '$lib/postMedia.svelte';
import { loadMediaViewSetting } from '$lib/mediaSetting.svelte';

const sha = (n: number) => n.toString(16).padStart(2, '0').repeat(32);

function kept(post_id: string, position: number): MediaItemRecord {
  return {
    id: Number(post_id) * 10 + position,
    post_id,
    position,
    kind: 'photo',
    source_url: `https://media.example/${post_id}-${position}.jpg`,
    poster_url: null,
    state: 'kept',
    attempts: 1,
    next_try_at: null,
    reason: null,
    http_status: 200,
    response_headers: null,
    fetched_at: '2026-11-28T01:00:00Z',
    queued_at: '2026-11-28T00:59:00Z',
    file: { sha256: sha(position + 1), size: 1000, content_type: 'image/jpeg', pdq: null, pdq_quality: null, width: 10, height: 10, first_kept_at: '2026-11-28T01:00:00Z' },
    poster: null,
  };
}

const photos = [
  { media_url: 'https://pbs.example/1.jpg', type: 'photo' },
  { media_url: 'https://pbs.example/2.jpg', type: 'photo' },
];

describe('PostMedia', () => {
  beforeEach(() => postMedia.clear());

  it('asks for every card on screen in one call and shows each kept picture veiled, the rest as their state', async () => {
    const calls = mockBackend({
      settings_get: () => ({ mediaSafeView: true }),
      media_for_posts: ({ postIds }) =>
        (postIds as string[]).flatMap((id) => (id === '11' ? [kept('11', 0), { ...kept('11', 1), state: 'gone', file: null, http_status: 404 }] : [])),
    });
    await loadMediaViewSetting(true);
    render(PostCard, { post: makePost({ id: '11', media: photos }) });
    render(PostCard, { post: makePost({ id: '12', media: photos.slice(0, 1) }) });
    const first = await screen.findByRole('img', { name: 'Image 1 of 2' });
    expect(calls.media_for_posts).toEqual([{ postIds: ['11', '12'] }]);
    expect(first).toHaveAttribute('src', `sightline-media://localhost/${sha(1)}`);
    expect(first).toHaveClass('media-veiled');
    expect(screen.getByRole('button', { name: 'Reveal image 1 of 2' })).toBeInTheDocument();
    expect(screen.getByText(/gone/)).toBeInTheDocument();
    // Post 12's picture was never queued: named, not loaded from its host.
    expect(screen.getByText(/not kept here/)).toBeInTheDocument();
    expect(document.querySelectorAll('img')).toHaveLength(1);
    for (const image of document.querySelectorAll('img')) expect(image.getAttribute('src')).toMatch(/^sightline-media:\/\/localhost\/[0-9a-f]{64}$/);
  });

  it('shows pictures plainly when safe view is off in Settings', async () => {
    mockBackend({ settings_get: () => ({ mediaSafeView: false }), media_for_posts: () => [kept('21', 0)] });
    await loadMediaViewSetting(true);
    render(PostMedia, { postId: '21', media: photos.slice(0, 1) });
    expect(await screen.findByRole('img', { name: 'Image 1 of 1' })).not.toHaveClass('media-veiled');
    expect(screen.queryByRole('button', { name: /Reveal/ })).toBeNull();
  });

  it('keeps safe view when the settings cannot be read', async () => {
    mockBackend({ settings_get: () => { throw new Error('no settings'); }, media_for_posts: () => [kept('31', 0)] });
    await loadMediaViewSetting(true);
    render(PostMedia, { postId: '31', media: [] });
    expect(await screen.findByRole('img', { name: 'Image 1 of 1' })).toHaveClass('media-veiled');
  });
});
