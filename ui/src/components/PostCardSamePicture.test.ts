/**
 * "Same picture elsewhere" where the post card shows its kept media: under a kept picture, and
 * under a video by its kept still, never under media not (yet) kept; it asks for the picture's
 * file (a video's poster) and leaves the card's own post out.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { render, screen, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import type { MediaFile } from '$lib/bindings/MediaFile';
import type { MediaItemRecord } from '$lib/bindings/MediaItemRecord';
import PostCard from './PostCard.svelte';
import { mockBackend } from '../test/backend';
import { modalDialogs } from '../test/dialog';
import { makePost } from '../test/fixtures';

const POST = '1890000000000000777';

function file(byte: string, type = 'image/jpeg'): MediaFile {
  return { sha256: byte.repeat(32), size: 1000, content_type: type, pdq: null, pdq_quality: null, width: 640, height: 480, first_kept_at: '2026-11-28T01:00:00Z' };
}

function item(position: number, kind: MediaItemRecord['kind'], state: MediaItemRecord['state'], kept: MediaFile | null, poster: MediaFile | null = null): MediaItemRecord {
  return {
    id: position + 1,
    post_id: POST,
    position,
    kind,
    source_url: `https://media.example/${position}`,
    poster_url: poster ? `https://media.example/${position}.jpg` : null,
    state,
    attempts: 1,
    next_try_at: null,
    reason: null,
    http_status: state === 'kept' ? 200 : null,
    response_headers: null,
    fetched_at: '2026-11-28T01:00:00Z',
    queued_at: '2026-11-28T00:59:00Z',
    file: kept,
    poster,
  };
}

beforeAll(() => {
  modalDialogs();
});

describe('PostCard: Same picture elsewhere', () => {
  it('is offered under each kept picture and a video by its still, and asks for that file', async () => {
    const calls = mockBackend({
      media_for_posts: () => [
        item(0, 'photo', 'kept', file('a1')),
        item(1, 'video', 'kept', file('c1', 'video/mp4'), file('c2')),
        item(2, 'photo', 'waiting', null),
      ],
      media_same_picture: () => ({ file: file('c2'), nearDistance: 63, nearSearched: false, matches: [] }),
      post_captures: () => [],
    });
    const media = [
      { media_url: 'https://media.example/0', type: 'photo' },
      { media_url: 'https://media.example/1', type: 'video' },
      { media_url: 'https://media.example/2', type: 'photo' },
    ];
    render(PostCard, { post: makePost({ id: POST, media }) });
    const list = await screen.findByRole('list', { name: 'Media' });
    const buttons = await within(list).findAllByRole('button', { name: /^Same picture elsewhere/ });
    expect(buttons.map((button) => button.getAttribute('aria-label'))).toEqual([
      'Same picture elsewhere: other posts holding picture 1',
      'Same picture elsewhere: other posts holding picture 2',
    ]);

    await userEvent.click(buttons[1]!);
    expect(await screen.findByRole('dialog', { name: 'Same picture elsewhere' })).toBeInTheDocument();
    expect(calls.media_same_picture?.[0]).toEqual({ sha256: 'c2'.repeat(32), postId: POST });
  });
});
