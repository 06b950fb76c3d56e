import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import type { Channel } from '@tauri-apps/api/core';
import CaseExport from '$components/CaseExport.svelte';
import OpenCasePackage from './OpenCasePackage.svelte';
import StandingConflicts from './StandingConflicts.svelte';
import PostNotes from './PostNotes.svelte';
import { mockBackend } from '../../test/backend';
import type { BundleCheck } from '$lib/bindings/BundleCheck';
import type { CaseExportOutcome } from '$lib/bindings/CaseExportOutcome';
import type { CaseOpenOutcome } from '$lib/bindings/CaseOpenOutcome';
import type { CaseOpened } from '$lib/bindings/CaseOpened';
import type { CaseProgress } from '$lib/bindings/CaseProgress';

const ana = { name: 'Ana Ruiz', fingerprint: '3f9a0c1e'.repeat(8) };

function opened(overrides: Partial<CaseOpened> = {}): CaseOpened {
  return {
    investigationId: 4,
    caseId: 'c0ffee00-0000-4000-8000-000000000001',
    name: 'Harbour fire',
    merged: false,
    from: ana,
    packageSha256: 'ab'.repeat(32),
    requestsAdded: 1,
    requestsHeld: 0,
    postsAdded: 20,
    postsHeld: 0,
    notesAdded: 1,
    tagsAdded: 1,
    checksAdded: 0,
    mediaFilesAdded: 0,
    custodyEntriesReceived: 6,
    conflicts: [],
    removed: [],
    signedAt: '2026-11-28T05:16:27Z',
    ...overrides,
  };
}

const failedCheck = {
  checks: [
    { kind: 'files', state: 'fails', words: 'posts.jsonl does not match its sum.' },
    { kind: 'signature', state: 'holds', words: 'Signed by a key this computer does not know.' },
  ],
  signature: { state: 'valid', fingerprint: ana.fingerprint, standing: 'unknown', declaredFingerprint: ana.fingerprint, why: null },
} as unknown as BundleCheck;

describe('Export for a colleague', () => {
  it('says what the file carries, shows the stages while it is written, then where it was saved', async () => {
    let finish: (outcome: CaseExportOutcome) => void = () => {};
    let channel: Channel<CaseProgress> | undefined;
    const calls = mockBackend({
      case_package_export: (args) => {
        channel = args.progress as Channel<CaseProgress>;
        return new Promise((resolve) => (finish = resolve));
      },
    });
    render(CaseExport, { investigationId: 4 });
    expect(screen.getByText(/the exact responses, the posts, notes, tags, still-there checks, kept media, capture receipts and the custody log, signed by this installation’s key/)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Export for a colleague' }));
    expect(await screen.findByText('Gathering the investigation…')).toBeInTheDocument();
    channel?.onmessage({ stage: 'writing', done: 3, total: 12, file: 'case/posts.jsonl' });
    expect(await screen.findByText('Writing: 3 of 12 · case/posts.jsonl')).toBeInTheDocument();
    expect(screen.getByRole('progressbar', { name: 'Case package written' })).toHaveAttribute('value', '25');
    expect(calls.case_package_export?.[0]).toMatchObject({ investigationId: 4 });
    finish({
      outcome: 'written',
      path: '/exports/sightline-case-harbour-fire.zip',
      caseId: 'c',
      requests: 1,
      responses: 1,
      posts: 20,
      mediaFiles: 2,
      bytes: 1_500_000,
      manifestSha256: 'cd'.repeat(32),
      signedBy: ana.fingerprint,
    });
    expect(await screen.findByRole('status')).toHaveTextContent(/^Saved \/exports\/sightline-case-harbour-fire\.zip: 1 request, 1 response as received, 20 posts and 2 media files, 1\.5 MB/);
  });
});

describe('Open a case package', () => {
  async function openTyped(path: string) {
    await userEvent.type(screen.getByRole('textbox', { name: 'Case package file path' }), path);
    await userEvent.click(screen.getByRole('button', { name: 'Open' }));
  }

  it('says it needs no API key and that a colleague’s spending is not counted here', () => {
    mockBackend({});
    render(OpenCasePackage);
    expect(screen.getByRole('region', { name: 'Open a case package' })).toHaveTextContent('No API key is needed, and what the colleague spent is not counted in your Spend.');
  });

  it('shows the verification first, then what a new case brought, with a link to it', async () => {
    let channel: Channel<CaseProgress> | undefined;
    let finish: (outcome: CaseOpenOutcome) => void = () => {};
    const calls = mockBackend({
      case_package_open: (args) => {
        channel = args.progress as Channel<CaseProgress>;
        return new Promise((resolve) => (finish = resolve));
      },
      investigation_list: () => [],
      investigation_active: () => null,
    });
    render(OpenCasePackage);
    await openTyped('/in/harbour.zip');
    channel?.onmessage({ stage: 'verifying', done: 2, total: 8, file: 'manifest.json' });
    expect(await screen.findByText('Checking every hash and the signature: 2 of 8 · manifest.json')).toBeInTheDocument();
    expect(calls.case_package_open?.[0]).toMatchObject({ path: '/in/harbour.zip' });
    finish({ outcome: 'opened', opened: opened(), check: failedCheck });

    const verified = await screen.findByTestId('case-verified');
    expect(verified).toHaveTextContent("Every file's hash reproduced");
    expect(verified).toHaveTextContent('the signature holds, made with a key the package names as Ana Ruiz’s. The name proves nothing by itself: compare the key below with the one Ana Ruiz’s Settings shows.');
    expect(screen.getByTestId('case-signer')).toHaveTextContent(/^The package says Ana Ruiz signed it on 28 Nov 2026, \d\d:16 .* · key 3f9a 0c1e/);
    // The verification comes before what was imported.
    const headings = screen.getAllByRole('heading', { level: 3 }).map((heading) => heading.textContent);
    expect(headings).toEqual(['Verified', 'Imported']);
    expect(screen.getByTestId('case-headline')).toHaveTextContent('Opened as a new case, Harbour fire.');
    expect(screen.getByRole('list', { name: 'What opening the package added' })).toHaveTextContent('20 posts added');
    expect(screen.getByRole('link', { name: 'Open Harbour fire' })).toHaveAttribute('href', '#/investigations?id=4');
  });

  it('refuses a package that fails a check with why, and imports nothing', async () => {
    mockBackend({
      case_package_open: () => ({ outcome: 'refused', why: 'posts.jsonl does not match its sum.', check: failedCheck }),
    });
    render(OpenCasePackage);
    await openTyped('/in/changed.zip');
    expect(await screen.findByRole('alert')).toHaveTextContent('Refused: posts.jsonl does not match its sum. Nothing was imported.');
    expect(screen.getByRole('list', { name: 'The checks' })).toHaveTextContent('Files and their sums: Does not hold.');
    expect(screen.queryByRole('link')).toBeNull();
  });

  it('after a merge lists each difference with both sides and who wrote them', async () => {
    mockBackend({
      case_package_open: () => ({
        outcome: 'opened',
        check: failedCheck,
        opened: opened({
          merged: true,
          postsAdded: 2,
          postsHeld: 20,
          conflicts: [
            { kind: 'note', postId: '1790', ours: 'Started at the depot', oursBy: null, theirs: 'The port denies it', theirsBy: ana },
            { kind: 'noteRemoved', postId: '1791', ours: '', oursBy: null, theirs: 'Same photo as 1790', theirsBy: ana },
          ],
          removed: [{ what: 'tag', postId: '1792', text: 'lead', writtenOver: false, by: ana, removedAt: '2026-11-28T09:30:00Z' }],
        }),
      }),
      investigation_list: () => [],
      investigation_active: () => null,
    });
    render(OpenCasePackage);
    await openTyped('/in/back.zip');
    const removed = await screen.findByRole('list', { name: 'What the merge removed here, as it was removed there' });
    expect(removed).toHaveTextContent('Tag “lead” taken off post 1792: Ana Ruiz took it off on');
    expect(screen.getByText(/1 removal taken on/)).toBeTruthy();
    expect(await screen.findByTestId('case-headline')).toHaveTextContent('Merged into Harbour fire, the case this installation already held: nothing here was overwritten.');
    const list = screen.getByRole('list', { name: 'Differences kept on both sides' });
    expect(list).toHaveTextContent('Note on post 1790');
    expect(list).toHaveTextContent(/Yours\s*Started at the depot/);
    expect(list).toHaveTextContent(/Ana Ruiz’s\s*The port denies it/);
    expect(list).toHaveTextContent('Note removed on one side, rewritten on the other on post 1791');
    expect(list).toHaveTextContent(/Yours\s*\(removed\)/);
    expect(screen.getByRole('list', { name: 'What opening the package added' })).toHaveTextContent('2 posts added, 20 already here');
  });

  it('says in words when the package cannot be read at all', async () => {
    mockBackend({
      case_package_open: () => {
        throw { kind: 'file', message: 'No file at /in/gone.zip.' };
      },
    });
    render(OpenCasePackage);
    await openTyped('/in/gone.zip');
    expect(await screen.findByRole('alert')).toHaveTextContent('The package could not be opened: No file at /in/gone.zip. Nothing was imported.');
  });
});

describe('differences standing on a case', () => {
  it('shows nothing while there are none, and the list folded under one line when there are', async () => {
    mockBackend({ case_package_conflicts: () => [] });
    const { unmount } = render(StandingConflicts, { id: 4 });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(screen.queryByTestId('standing-conflicts')).toBeNull();
    unmount();

    mockBackend({
      case_package_conflicts: () => [{ kind: 'note', postId: '1790', ours: 'Mine', oursBy: null, theirs: 'Hers', theirsBy: ana }],
    });
    render(StandingConflicts, { id: 4 });
    expect(await screen.findByText("1 difference from a colleague's package, both sides kept")).toBeInTheDocument();
  });
});

describe('notes and tags received from a colleague', () => {
  const anaBy = { name: 'Ana Ruiz', key: ana.fingerprint };
  const ben = { name: 'Ben Okafor', key: '66b8069f'.repeat(8) };

  it('name who wrote them, until the note is written here', async () => {
    const calls = mockBackend({ investigation_post_set: () => undefined, investigation_tags: () => [] });
    render(PostNotes, {
      investigationId: 4,
      postId: '1790',
      note: 'Started at the depot',
      tags: ['claim', 'mine'],
      noteBy: anaBy,
      receivedTags: [{ tag: 'claim', by: anaBy }],
      otherNotes: [{ note: 'The port denies it', by: ben }],
    });
    expect(screen.getByTestId('note-by')).toHaveTextContent('by Ana Ruiz');
    expect(screen.getByRole('textbox', { name: 'Note by Ana Ruiz' })).toHaveValue('Started at the depot');
    const tags = screen.getByRole('list', { name: 'Tags' }).querySelectorAll('li');
    expect([...tags].map((tag) => tag.getAttribute('data-by'))).toEqual(['Ana Ruiz', null]);
    expect(tags[0]).toHaveTextContent('claim · by Ana Ruiz');
    expect(screen.getByRole('list', { name: "Colleagues' notes, kept beside this one" })).toHaveTextContent('Ben Okafor: The port denies it');

    // Written here, the note is this installation's: no "by" any more.
    await userEvent.type(screen.getByRole('textbox', { name: /^Note/ }), ', says the harbour master');
    await userEvent.click(screen.getByRole('button', { name: 'Save note' }));
    await expect.poll(() => calls.investigation_post_set?.length).toBe(1);
    await expect.poll(() => screen.queryByTestId('note-by')).toBeNull();
  });
});
