/**
 * "Same picture elsewhere" over mocked commands: the button asks Rust for the kept picture's
 * matches leaving its own post out, the dialog says what was found in words and lists each post
 * (its picture's relation in words, author, time, the start of its text) with a link opening it,
 * reached by the keyboard; thumbnails veiled in safe view until each is revealed, plain when the
 * setting is off; Esc stays in the dialog; nothing found, no picture hash, and a
 * failure in words with Try again.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { render, screen, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import type { MediaFile } from '$lib/bindings/MediaFile';
import type { PictureMatch } from '$lib/bindings/PictureMatch';
import type { SamePicture } from '$lib/bindings/SamePicture';
import { loadMediaViewSetting } from '$lib/mediaSetting.svelte';
import SamePictureButton from './SamePictureButton.svelte';
import { mockBackend, reject } from '../test/backend';
import { modalDialogs } from '../test/dialog';

const SHA = 'a1'.repeat(32);

const file: MediaFile = {
  sha256: SHA,
  size: 48_000,
  content_type: 'image/jpeg',
  pdq: 'f0'.repeat(32),
  pdq_quality: 100,
  width: 640,
  height: 480,
  first_kept_at: '2026-11-20T08:00:00Z',
};

function match(postId: string, relation: PictureMatch['relation'], distance: number, author = `user${postId}`): PictureMatch {
  return {
    postId: postId,
    post: { authorUsername: author, authorName: `Name ${author}`, createdAt: '2026-11-20T08:07:00Z', snippet: `text of ${postId}` },
    position: 0,
    kind: 'photo',
    sha256: relation === 'same_file' ? SHA : 'b1'.repeat(32),
    contentType: 'image/jpeg',
    relation,
    distance,
    words: relation === 'same_file' ? 'the same file' : `a near copy (distance ${distance} of 256)`,
  };
}

const found: SamePicture = {
  file,
  nearDistance: 31,
  nearSearched: true,
  matches: [match('1864029172638449672', 'same_file', 0, 'ana'), match('1864029172638449668', 'near_copy', 12, 'bo'), { ...match('9', 'same_file', 0), post: null }],
};

beforeAll(() => {
  modalDialogs();
});

describe('SamePictureButton', () => {
  it('lists the other posts holding the picture, each in words, each opening its post', async () => {
    const calls = mockBackend({ media_same_picture: () => found });
    render(SamePictureButton, { sha256: SHA, postId: '1864029172638449665', position: 1 });
    const button = screen.getByRole('button', { name: /^Same picture elsewhere/ });
    expect(button).toHaveAccessibleName('Same picture elsewhere: other posts holding picture 2');

    // From the keyboard: focus the button, Enter.
    button.focus();
    await userEvent.keyboard('{Enter}');
    const dialog = await screen.findByRole('dialog', { name: 'Same picture elsewhere' });
    expect(calls.media_same_picture?.[0]).toEqual({ sha256: SHA, postId: '1864029172638449665' });
    expect(await within(dialog).findByRole('status')).toHaveTextContent(
      '3 other posts: 2 hold the same file, 1 holds a near copy (within 31 of 256 bits).',
    );

    const rows = within(dialog).getAllByTestId('picture-match');
    expect(rows.map((row) => within(row).getByTestId('picture-match-words').textContent)).toEqual([
      'The same file',
      'A near copy (distance 12 of 256)',
      'The same file',
    ]);
    expect(rows[0]).toHaveTextContent('@ana');
    expect(rows[0]).toHaveTextContent('text of 1864029172638449672');
    expect(rows[2]).toHaveTextContent('Post 9, not in the archive');
    const open = within(rows[1]!).getByRole('link', { name: 'Open post by @bo' });
    expect(open).toHaveAttribute('href', '#/post?id=1864029172638449668');

    // Tab walks from Close to each post's picture (revealed on its own) and its link.
    within(dialog).getByRole('button', { name: 'Close' }).focus();
    await userEvent.tab();
    expect(document.activeElement).toBe(within(dialog).getByRole('group', { name: 'Same picture elsewhere: the posts' }));
    await userEvent.tab();
    expect(document.activeElement).toBe(within(rows[0]!).getByRole('button', { name: 'Reveal: Picture 1 of the post by @ana' }));
    await userEvent.tab();
    expect(document.activeElement).toBe(within(rows[0]!).getByRole('link', { name: 'Open post by @ana' }));
  });

  it('shows the thumbnails in safe view, each veiled until its own button reveals it', async () => {
    mockBackend({ media_same_picture: () => found, settings_get: () => ({ mediaSafeView: true }) });
    await loadMediaViewSetting(true);
    render(SamePictureButton, { sha256: SHA, postId: '1', position: 0 });
    await userEvent.click(screen.getByRole('button', { name: /Same picture elsewhere/ }));
    const dialog = await screen.findByRole('dialog');
    const rows = await within(dialog).findAllByTestId('picture-match');
    const pictures = within(dialog).getAllByRole('img');
    // The picture compared, then one per post; all served by the app itself, all veiled.
    expect(pictures).toHaveLength(4);
    for (const picture of pictures) {
      expect(picture.getAttribute('src')).toMatch(/^sightline-media:\/\/localhost\/[0-9a-f]{64}$/);
      expect(picture).toHaveClass('media-veiled');
    }
    const reveal = within(rows[1]!).getByRole('button', { name: 'Reveal: Picture 1 of the post by @bo' });
    await userEvent.click(reveal);
    expect(within(rows[1]!).getByRole('img')).not.toHaveClass('media-veiled');
    expect(within(rows[1]!).getByRole('button', { name: 'Hide: Picture 1 of the post by @bo' })).toHaveAttribute('aria-pressed', 'true');
    expect(within(rows[0]!).getByRole('img')).toHaveClass('media-veiled');
  });

  it('shows the thumbnails plainly when safe view is off in Settings', async () => {
    mockBackend({ media_same_picture: () => found, settings_get: () => ({ mediaSafeView: false }) });
    await loadMediaViewSetting(true);
    render(SamePictureButton, { sha256: SHA, postId: '1', position: 0 });
    await userEvent.click(screen.getByRole('button', { name: /Same picture elsewhere/ }));
    const dialog = await screen.findByRole('dialog');
    await within(dialog).findAllByTestId('picture-match');
    for (const picture of within(dialog).getAllByRole('img')) expect(picture).not.toHaveClass('media-veiled');
    expect(within(dialog).queryByRole('button', { name: /^Reveal/ })).not.toBeInTheDocument();
    // Back to the default for the other tests.
    mockBackend({ settings_get: () => ({ mediaSafeView: true }) });
    await loadMediaViewSetting(true);
  });

  it('keeps Esc from the view behind it, and Close shuts it', async () => {
    mockBackend({ media_same_picture: () => found });
    render(SamePictureButton, { sha256: SHA, postId: '1', position: 0 });
    await userEvent.click(screen.getByRole('button', { name: /Same picture elsewhere/ }));
    const dialog = await screen.findByRole('dialog');
    let behind = 0;
    const count = () => (behind += 1);
    window.addEventListener('keydown', count);
    dialog.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
    window.removeEventListener('keydown', count);
    expect(behind).toBe(0);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('says when nothing else holds it, and when near copies could not be looked for', async () => {
    let answer: SamePicture = { ...found, matches: [] };
    mockBackend({ media_same_picture: () => answer });
    const { unmount } = render(SamePictureButton, { sha256: SHA, postId: '1', position: 0 });
    await userEvent.click(screen.getByRole('button', { name: /Same picture elsewhere/ }));
    expect(await screen.findByRole('status')).toHaveTextContent('No other post holds this picture or a near copy of it (within 31 of 256 bits).');
    expect(screen.queryByTestId('picture-match')).not.toBeInTheDocument();
    unmount();

    answer = { ...found, file: { ...file, pdq: null }, nearSearched: false, matches: [] };
    render(SamePictureButton, { sha256: SHA, postId: '1', position: 0 });
    await userEvent.click(screen.getByRole('button', { name: /Same picture elsewhere/ }));
    expect(await screen.findByRole('status')).toHaveTextContent('Near copies cannot be looked for: this file has no picture hash good enough to match on.');
  });

  it('says why in words when the pictures could not be compared, and tries again', async () => {
    let fail = true;
    const calls = mockBackend({
      media_same_picture: () => (fail ? reject({ kind: 'database', message: 'database is locked' }) : found),
    });
    render(SamePictureButton, { sha256: SHA, postId: '1', position: 0 });
    await userEvent.click(screen.getByRole('button', { name: /Same picture elsewhere/ }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The kept pictures could not be compared: database is locked');
    fail = false;
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findAllByTestId('picture-match')).toHaveLength(3);
    expect(calls.media_same_picture).toHaveLength(2);
  });
});
