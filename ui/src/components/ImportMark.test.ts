import { describe, expect, it, vi } from 'vitest';
import { render, screen, within } from '@testing-library/svelte';
import { emit } from '@tauri-apps/api/event';
import { mockIPC } from '@tauri-apps/api/mocks';
import PostCard from './PostCard.svelte';
import { makePost } from '../test/fixtures';
import type { CaptureState } from '$lib/bindings/CaptureState';
import type { PostImportMark } from '$lib/bindings/PostImportMark';

const fileSha = '9e1c2d3f'.repeat(8);

function mark(postId: string, alsoCaptured = false): PostImportMark {
  return { post_id: postId, import_id: 4, file_name: 'floods-flat.jsonl', file_sha256: fileSha, line: 12, imported_at: '2026-11-28T04:30:00.000Z', also_captured: alsoCaptured };
}

/** The backend's marks, by post id; every `import_marks` call recorded. */
function marksBackend(marks: Record<string, PostImportMark>) {
  const asked: string[][] = [];
  mockIPC(
    (cmd, args) => {
      if (cmd !== 'import_marks') return undefined;
      const ids = (args as { postIds: string[] }).postIds;
      asked.push(ids);
      return ids.flatMap((id) => (marks[id] ? [marks[id]] : []));
    },
    { shouldMockEvents: true },
  );
  return asked;
}

const beforeProvenance: CaptureState = { state: 'before_provenance' };

describe('an imported post on its card', () => {
  // First: the marks follow records-changed from the first card on, and each test's mock
  // backend holds its own listeners.
  it('asks for every card shown at once in one call, and again after records change', async () => {
    const marks: Record<string, PostImportMark> = { '81': mark('81') };
    const asked = marksBackend(marks);
    render(PostCard, { post: makePost({ id: '81' }) });
    render(PostCard, { post: makePost({ id: '82' }) });
    render(PostCard, { post: makePost({ id: '83' }) });
    await vi.waitFor(() => expect(screen.getAllByRole('link', { name: /^Imported from/ })).toHaveLength(1));
    expect(asked).toEqual([['81', '82', '83']]);

    // An import brought post 83 since: the cards shown learn it at the next change of records.
    marks['83'] = mark('83');
    await emit('records-changed');
    await vi.waitFor(() => expect(screen.getAllByRole('link', { name: /^Imported from/ })).toHaveLength(2));
    expect(asked).toHaveLength(2);
    expect([...(asked[1] ?? [])].sort()).toEqual(['81', '82', '83']);
  });
  it('says which file it came from, with the hash, and never a capture wording it did not earn', async () => {
    marksBackend({ '71': mark('71') });
    render(PostCard, { post: makePost({ id: '71' }), capture: beforeProvenance });
    const card = screen.getByRole('article');
    const link = await within(card).findByRole('link', { name: /^Imported from/ });
    expect(link).toHaveTextContent('Imported from floods-flat.jsonl (sha256 9e1c2d3f…), not captured by Sightline');
    expect(link).toHaveAttribute('href', '#/imports?id=4');
    expect(link).toHaveAttribute('title', expect.stringContaining(`line 12 of floods-flat.jsonl, SHA-256 ${fileSha}`));
    expect(card).not.toHaveTextContent(/captured before provenance|captured \d/);
  });

  it('says nothing of a capture before it knows whether an import brought the post', async () => {
    marksBackend({});
    render(PostCard, { post: makePost({ id: '72' }), capture: beforeProvenance });
    const card = screen.getByRole('article');
    // Not answered yet: no line at all; answered (no import): the capture line as before.
    expect(card).not.toHaveTextContent('captured before provenance was kept');
    await vi.waitFor(() => expect(card).toHaveTextContent('captured before provenance was kept'));
    expect(within(card).queryByRole('link', { name: /imported from/i })).toBeNull();
  });

  it('keeps the earned capture line of a post a request found too, and says it was also imported', async () => {
    marksBackend({ '73': mark('73', true) });
    const capture: CaptureState = { state: 'captured', capture: { history_id: 9, captured_at: '2026-11-28T05:00:00.000Z', sha256: 'a'.repeat(64) } };
    render(PostCard, { post: makePost({ id: '73' }), capture });
    const card = screen.getByRole('article');
    const link = await within(card).findByRole('link', { name: /^Also imported from/ });
    expect(link).toHaveTextContent('Also imported from floods-flat.jsonl (sha256 9e1c2d3f…)');
    expect(link).not.toHaveTextContent('not captured');
    expect(within(card).getByRole('button', { name: /captured 2026-11-28 05:00:00 UTC/ })).toBeInTheDocument();
  });

});
