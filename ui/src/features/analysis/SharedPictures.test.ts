/**
 * The analysis's most-shared pictures over mocked commands: asked for the scope as shown, each
 * picture with how many posts share it (one file, or several near copies), its posts listed in a
 * dialog opened from the keyboard, each opening its post; the CSV asked of Rust; none shared said
 * in words; a failure with Retry.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { render, screen, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import type { AnalysisScope } from '$lib/bindings/AnalysisScope';
import type { MediaFile } from '$lib/bindings/MediaFile';
import type { PictureMatch } from '$lib/bindings/PictureMatch';
import type { SharedPictures as Shared } from '$lib/bindings/SharedPictures';
import SharedPictures from './SharedPictures.svelte';
import { mockBackend, reject } from '../../test/backend';
import { modalDialogs } from '../../test/dialog';

const scope: AnalysisScope = {
  source: { kind: 'investigation', id: 3 },
  from: null,
  to: null,
  filters: { account: null, hashtag: 'floods', mention: null, cashtag: null, domain: null, language: null },
};

function file(byte: string): MediaFile {
  return { sha256: byte.repeat(32), size: 1000, content_type: 'image/jpeg', pdq: 'f0'.repeat(32), pdq_quality: 100, width: 640, height: 480, first_kept_at: '2026-11-20T08:00:00Z' };
}

function post(id: string, sha: string, relation: PictureMatch['relation'], distance: number): PictureMatch {
  return {
    postId: id,
    post: { authorUsername: `user${id}`, authorName: `User ${id}`, createdAt: '2026-11-20T08:00:00Z', snippet: `post ${id}` },
    position: 0,
    kind: 'photo',
    sha256: sha,
    contentType: 'image/jpeg',
    relation,
    distance,
    words: relation === 'same_file' ? 'the same file' : `a near copy (distance ${distance} of 256)`,
  };
}

const shared: Shared = {
  nearDistance: 31,
  pictures: [
    {
      file: file('a1'),
      files: 2,
      postCount: 3,
      posts: [post('7', 'a1'.repeat(32), 'same_file', 0), post('2', 'a1'.repeat(32), 'same_file', 0), post('3', 'b1'.repeat(32), 'near_copy', 12)],
    },
    { file: file('d1'), files: 1, postCount: 2, posts: [post('11', 'd1'.repeat(32), 'same_file', 0), post('10', 'd1'.repeat(32), 'same_file', 0)] },
  ],
};

beforeAll(() => {
  modalDialogs();
});

describe('SharedPictures', () => {
  it('lists the pictures most posts share, and their posts from the keyboard', async () => {
    const calls = mockBackend({ analysis_shared_pictures: () => shared });
    render(SharedPictures, { scope });
    const list = await screen.findByTestId('shared-pictures');
    expect(calls.analysis_shared_pictures?.[0]).toEqual({ scope, limit: 20 });
    expect(screen.getByText(/within\s+31 of 256 bits/)).toBeInTheDocument();
    const pictures = within(list).getAllByTestId('shared-picture');
    expect(pictures[0]).toHaveTextContent('Shared by 3 posts, as 2 files (the same picture resized, re-encoded or cropped)');
    expect(pictures[1]).toHaveTextContent('Shared by 2 posts, all the same file');

    const show = within(pictures[0]!).getByRole('button', { name: 'Show the 3 posts sharing picture 1' });
    show.focus();
    await userEvent.keyboard('{Enter}');
    const dialog = await screen.findByRole('dialog', { name: 'Posts sharing picture 1' });
    const rows = within(dialog).getAllByTestId('picture-match');
    expect(rows.map((row) => within(row).getByTestId('picture-match-words').textContent)).toEqual([
      'The same file',
      'The same file',
      'A near copy (distance 12 of 256)',
    ]);
    expect(within(rows[2]!).getByRole('link', { name: 'Open post by @user3' })).toHaveAttribute('href', '#/post?id=3');

    await userEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('exports the list as CSV through Rust, every shared picture', async () => {
    const calls = mockBackend({ analysis_shared_pictures: () => shared, analysis_export_table: () => '/exports/sightline-shared-pictures.csv' });
    render(SharedPictures, { scope });
    await userEvent.click(await screen.findByRole('button', { name: "Export CSV of the most-shared pictures list's table" }));
    expect(calls.analysis_export_table?.[0]).toEqual({ scope, table: { table: 'shared_pictures', limit: null } });
    expect(await screen.findByText(/sightline-shared-pictures\.csv/)).toBeInTheDocument();
  });

  it('says so when no picture is shared, and a failure in words with Retry', async () => {
    let fail = true;
    mockBackend({
      analysis_shared_pictures: () => (fail ? reject({ kind: 'database', message: 'database is locked' }) : { nearDistance: 31, pictures: [] }),
    });
    render(SharedPictures, { scope });
    expect(await screen.findByRole('alert')).toHaveTextContent('database is locked');
    fail = false;
    await userEvent.click(screen.getByRole('button', { name: /Retry|Try again/ }));
    expect(await screen.findByTestId('shared-pictures-empty')).toHaveTextContent('No kept picture is held by more than one post of this scope.');
  });
});
