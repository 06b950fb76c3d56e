import { describe, expect, it } from 'vitest';
import type { CaseConflict } from './bindings/CaseConflict';
import type { CaseOpened } from './bindings/CaseOpened';
import {
  addedLines,
  byWords,
  casePercent,
  caseProgressWords,
  caseWrittenWords,
  collectorName,
  conflictKept,
  conflictTitle,
  openedHeadline,
  removedHeading,
  removedWords,
  sideOwner,
  sideText,
} from './caseWords';

const ana = { name: 'Ana Ruiz', fingerprint: '3f9a0c1e5b7d2a4c6e8f0a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f' };
const nameless = { name: '  ', fingerprint: ana.fingerprint };

function opened(overrides: Partial<CaseOpened> = {}): CaseOpened {
  return {
    investigationId: 7,
    caseId: 'c0ffee00-0000-4000-8000-000000000001',
    name: 'Harbour fire',
    merged: false,
    from: ana,
    packageSha256: 'ab'.repeat(32),
    requestsAdded: 2,
    requestsHeld: 0,
    postsAdded: 40,
    postsHeld: 0,
    notesAdded: 1,
    tagsAdded: 3,
    checksAdded: 0,
    mediaFilesAdded: 0,
    custodyEntriesReceived: 9,
    conflicts: [],
    removed: [],
    signedAt: '2026-11-28T05:16:27Z',
    ...overrides,
  } as CaseOpened;
}

describe('who did it', () => {
  it('names a colleague by their "Collected by", else by their key', () => {
    expect(collectorName(ana)).toBe('Ana Ruiz');
    expect(collectorName(nameless)).toBe('someone who named no one (key 3f9a 0c1e 5b7d 2a4c…)');
    expect(byWords(ana)).toBe('by Ana Ruiz');
    // This installation's own work carries no "by".
    expect(byWords(null)).toBe('');
    expect(sideOwner(null)).toBe('Yours');
    expect(sideOwner(ana)).toBe('Ana Ruiz’s');
  });
});

describe('progress', () => {
  it('says the stage and how far it is, never past 100 %', () => {
    expect(caseProgressWords(null)).toBe('Opening the package…');
    expect(caseProgressWords({ stage: 'verifying', done: 3, total: 12, file: 'responses/0003.json' })).toBe(
      'Checking every hash and the signature: 3 of 12 · responses/0003.json',
    );
    expect(casePercent({ stage: 'importing', done: 5, total: 4, file: '' })).toBe(100);
    expect(casePercent({ stage: 'writing', done: 0, total: 0, file: '' })).toBe(0);
  });
});

describe('what an export wrote', () => {
  it('counts what the package carries and whose key signed it', () => {
    const words = caseWrittenWords({
      outcome: 'written',
      path: '/exports/harbour-fire.zip',
      caseId: 'c',
      requests: 1,
      responses: 1,
      posts: 40,
      mediaFiles: 0,
      bytes: 52_000,
      manifestSha256: 'cd'.repeat(32),
      signedBy: ana.fingerprint,
    });
    expect(words).toBe(
      'Saved /exports/harbour-fire.zip: 1 request, 1 response as received, 40 posts and 0 media files, 52 kB, signed by this installation’s key 3f9a 0c1e 5b7d 2a4c…. Send it to your colleague as it is: any change to it is caught when it is opened.',
    );
    expect(caseWrittenWords({ outcome: 'cancelled' })).toBe('Export cancelled. Nothing was saved.');
  });
});

describe('what opening did', () => {
  it('says a new case, and counts only what it added', () => {
    expect(openedHeadline(opened())).toBe('Opened as a new case, Harbour fire.');
    expect(addedLines(opened())).toEqual([
      '2 requests added',
      '40 posts added',
      '1 note added',
      '3 tags added',
      '9 custody log entries received as written, and this installation’s log continued with the import',
    ]);
  });

  it('says a merge overwrote nothing and counts what it already held', () => {
    const merge = opened({ merged: true, requestsAdded: 0, requestsHeld: 2, postsAdded: 5, postsHeld: 40, notesAdded: 0, tagsAdded: 0 });
    expect(openedHeadline(merge)).toBe('Merged into Harbour fire, the case this installation already held: nothing here was overwritten.');
    expect(addedLines(merge).slice(0, 2)).toEqual(['0 requests added, 2 already here', '5 posts added, 40 already here']);
    expect(addedLines(merge).at(-1)).toMatch(/continued with the merge$/);
  });

  it('words each difference with both sides kept', () => {
    const note: CaseConflict = { kind: 'note', postId: '1790', ours: 'Mine', oursBy: null, theirs: 'Hers', theirsBy: ana };
    expect(conflictTitle(note)).toBe('Note on post 1790');
    expect(conflictKept(note)).toBe('Both kept: the note here stays on the post, Ana Ruiz’s beside it.');
    const notebook: CaseConflict = { kind: 'notebook', postId: null, ours: 'a', oursBy: null, theirs: 'b', theirsBy: ana };
    expect(conflictTitle(notebook)).toBe('Notebook');
    expect(conflictKept(notebook)).toBe('The notebook here is kept; Ana Ruiz’s is shown here.');
  });

  it('words a note removed on one side and rewritten on the other, its removed side as removed', () => {
    const removed: CaseConflict = { kind: 'noteRemoved', postId: '1790', ours: '', oursBy: null, theirs: 'Rewritten', theirsBy: ana };
    expect(conflictTitle(removed)).toBe('Note removed on one side, rewritten on the other on post 1790');
    expect(conflictKept(removed)).toBe('The rewritten note is kept: a removal never drops what the other side wrote meanwhile.');
    expect(sideText(removed, removed.ours)).toBe('(removed)');
    expect(sideText(removed, removed.theirs)).toBe('Rewritten');
  });

  it('says what a merge took off here, who removed it there, and how', () => {
    const at = '2026-11-28T09:30:00Z';
    expect(removedHeading(2)).toBe('2 removals taken on: removed there after it came here, so removed here too');
    expect(removedWords({ what: 'tag', postId: '1790', text: 'lead', writtenOver: false, by: ana, removedAt: at })).toBe(
      'Tag “lead” taken off post 1790: Ana Ruiz took it off',
    );
    expect(removedWords({ what: 'note', postId: '1790', text: 'Old', writtenOver: false, by: ana, removedAt: at })).toBe(
      'Note on post 1790 (“Old”) removed: Ana Ruiz removed it',
    );
    expect(removedWords({ what: 'note', postId: '1790', text: 'Old', writtenOver: true, by: ana, removedAt: at })).toBe(
      'Note on post 1790 (“Old”) replaced by Ana Ruiz’s: Ana Ruiz wrote over it',
    );
    expect(removedWords({ what: 'post', postId: '1790', text: '1790', writtenOver: false, by: ana, removedAt: at })).toBe(
      'Post 1790 taken out of the case: Ana Ruiz took it out',
    );
    expect(removedWords({ what: 'request', postId: 'req-4', text: 'req-4', writtenOver: false, by: ana, removedAt: at })).toBe(
      'Request req-4 taken out of the case: Ana Ruiz took it out',
    );
  });

  it('words a post taken out there that stays here because of work done on it here', () => {
    const kept: CaseConflict = { kind: 'postRemoved', postId: '1790', ours: 'Mine', oursBy: null, theirs: '', theirsBy: ana };
    expect(conflictTitle(kept)).toBe('Post 1790 taken out of the case on the other side');
    expect(conflictKept(kept)).toBe('Kept here, because it carries your note or tags; Ana Ruiz took it out of the case.');
    expect(sideText(kept, kept.theirs)).toBe('(taken out)');
  });
});
