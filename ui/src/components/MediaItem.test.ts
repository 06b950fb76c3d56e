import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import MediaItem from './MediaItem.svelte';
import type { MediaItemRecord } from '$lib/bindings/MediaItemRecord';
import type { MediaFile } from '$lib/bindings/MediaFile';

const SHA = 'a1'.repeat(32);
const POSTER = 'b2'.repeat(32);

function file(sha256: string, content_type = 'image/jpeg'): MediaFile {
  return { sha256, size: 48213, content_type, pdq: null, pdq_quality: null, width: 640, height: 480, first_kept_at: '2026-11-28T01:00:00Z' };
}

function record(changes: Partial<MediaItemRecord> = {}): MediaItemRecord {
  return {
    id: 1,
    post_id: '42',
    position: 0,
    kind: 'photo',
    source_url: 'https://media.example/a.jpg',
    poster_url: null,
    state: 'kept',
    attempts: 1,
    next_try_at: null,
    reason: null,
    http_status: 200,
    response_headers: null,
    fetched_at: '2026-11-28T01:00:00Z',
    queued_at: '2026-11-28T00:59:00Z',
    file: file(SHA),
    poster: null,
    ...changes,
  };
}

describe('MediaItem', () => {
  it('shows a kept picture from the app, veiled until its own button reveals it, from the keyboard', async () => {
    render(MediaItem, { item: record(), index: 0, count: 2, safe: true });
    const picture = screen.getByRole('img', { name: 'Image 1 of 2' });
    expect(picture).toHaveAttribute('src', `sightline-media://localhost/${SHA}`);
    expect(picture).toHaveClass('media-veiled');
    const reveal = screen.getByRole('button', { name: 'Reveal image 1 of 2' });
    expect(reveal).toHaveAttribute('aria-pressed', 'false');
    reveal.focus();
    await userEvent.keyboard('{Enter}');
    expect(picture).not.toHaveClass('media-veiled');
    const hide = screen.getByRole('button', { name: 'Hide image 1 of 2' });
    expect(hide).toHaveAttribute('aria-pressed', 'true');
    await userEvent.keyboard(' ');
    expect(picture).toHaveClass('media-veiled');
  });

  it('shows a picture plainly, with no reveal button, out of safe view', () => {
    render(MediaItem, { item: record(), index: 1, count: 2, safe: false });
    expect(screen.getByRole('img', { name: 'Image 2 of 2' })).not.toHaveClass('media-veiled');
    expect(screen.queryByRole('button')).toBeNull();
  });

  it('keeps a video muted and not playing by itself; nothing loads while veiled', async () => {
    const { container } = render(MediaItem, {
      item: record({ kind: 'video', file: file(SHA, 'video/mp4'), poster: file(POSTER) }),
      index: 0,
      count: 1,
      safe: true,
    });
    const video = container.querySelector('video')!;
    expect(video.muted).toBe(true);
    expect(video.autoplay).toBe(false);
    expect(video.hasAttribute('autoplay')).toBe(false);
    expect(video).toHaveAttribute('preload', 'none');
    expect(video).toHaveAttribute('poster', `sightline-media://localhost/${POSTER}`);
    expect(video).toHaveClass('media-veiled');
    expect(video.controls).toBe(false);
    await userEvent.click(screen.getByRole('button', { name: 'Reveal video 1 of 1' }));
    expect(video).not.toHaveClass('media-veiled');
    expect(video).toHaveAttribute('preload', 'metadata');
    expect(video.controls).toBe(true);
    expect(video.muted).toBe(true);
    expect(video.hasAttribute('autoplay')).toBe(false);
  });

  it('says what became of an item that is not kept, and loads nothing for it', () => {
    const cases: [Partial<MediaItemRecord>, RegExp][] = [
      [{ state: 'waiting', file: null, attempts: 0 }, /Image 1 of 1\s*waiting to be kept\./],
      [{ state: 'waiting', file: null, attempts: 2, reason: 'the site did not answer' }, /tried 2 times: the site did not answer/],
      [{ state: 'gone', file: null, http_status: 410 }, /gone\s*since .*2026.*\(the site answered 410\)\./],
      [{ state: 'failed', file: null, reason: 'the answer was not a picture or a video' }, /not kept: the answer was not a picture or a video\./],
      [{ state: 'too_large', file: null, reason: '312 MB' }, /not kept: larger than the limit set in Settings \(312 MB\)\./],
    ];
    for (const [changes, words] of cases) {
      const { container, unmount } = render(MediaItem, { item: record(changes), index: 0, count: 1, safe: true });
      expect(container).toHaveTextContent(words);
      expect(container.querySelector('img, video')).toBeNull();
      expect(container.querySelector('button')).toBeNull();
      unmount();
    }
  });

  it('offers the service link, opened outside, for media never queued; never an address that is not http(s)', () => {
    const { unmount } = render(MediaItem, { item: null, type: 'photo', link: 'https://pbs.example/photo.jpg', index: 0, count: 1, safe: true });
    expect(screen.getByText(/not kept here/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Open on its site' })).toHaveAttribute('target', '_blank');
    unmount();
    render(MediaItem, { item: null, type: 'photo', link: 'javascript:alert(1)', index: 0, count: 1, safe: true });
    expect(screen.queryByRole('link')).toBeNull();
  });

  it('refuses a kept name that is not a SHA-256 rather than build an address from it', () => {
    const { container } = render(MediaItem, { item: record({ file: file('../../settings.json') }), index: 0, count: 1, safe: false });
    expect(container.querySelector('img')).toBeNull();
    expect(container).toHaveTextContent(/file is missing/);
  });
});
