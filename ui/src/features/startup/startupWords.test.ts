import { describe, expect, it } from 'vitest';
import { backupWords, megabytes, stepFraction, stepWords } from './startupWords';

describe('startup words', () => {
  it('says each step of an opening, the posts estimated with "about" until done', () => {
    expect(stepWords(null)).toBe('Opening your archive…');
    // The check's bytes read are told where the system can tell them, with "about".
    expect(stepWords({ step: 'checking', read_bytes: null, total_bytes: 13_050_000_000 })).toBe('Checking your archive…');
    const checking = { step: 'checking' as const, read_bytes: 3_262_500_000, total_bytes: 13_050_000_000 };
    expect(stepWords(checking)).toBe('Checking your archive: about 3,263 MB of 13,050 MB read');
    expect(stepFraction(checking)).toBe(0.25);
    expect(stepWords({ ...checking, read_bytes: 0 })).toBe('Checking your archive…');
    expect(stepFraction({ ...checking, read_bytes: null })).toBeNull();
    expect(stepWords({ step: 'backing_up', written_bytes: 370_000_000, expected_bytes: 881_000_000, file: 'x' })).toBe(
      'Saving a copy of your archive before upgrading it: 370 MB of 881 MB',
    );
    const step = {
      step: 'migrating' as const,
      version: 8,
      description: 'analysis',
      number: 1,
      count: 1,
      posts_done: 999_999,
      posts_total: 1_000_000,
      backup: { outcome: 'not_needed' as const },
    };
    expect(stepWords(step)).toBe('Upgrading your archive: about 999,999 of 1,000,000 posts');
    expect(stepWords({ ...step, posts_done: 1_000_000 })).toBe('Upgrading your archive: 1,000,000 of 1,000,000 posts');
    // A migration whose work does not grow with posts has no count to tell.
    expect(stepWords({ ...step, version: 10, number: 3, count: 3, posts_done: null })).toBe('Upgrading your archive (step 3 of 3)…');
    expect(stepFraction({ ...step, posts_done: null })).toBeNull();
    expect(stepFraction({ ...step, posts_done: 250_000 })).toBe(0.25);
    expect(stepWords({ step: 'finishing' })).toBe('Writing the upgraded archive to disk…');
  });

  it('says what became of the copy before the upgrade', () => {
    expect(backupWords({ outcome: 'not_needed' })).toBeNull();
    expect(backupWords({ outcome: 'no_room', needed_bytes: 1_800_000_000, free_bytes: 1_200_000_000 })).toBe(
      'No copy was made first: the disk has 1,200 MB free, and the copy and the upgrade need 1,800 MB.',
    );
    expect(backupWords({ outcome: 'failed', reason: 'disk I/O error' })).toBe('No copy was made first: disk I/O error.');
    expect(megabytes(2_500_000)).toBe('2.5 MB');
    expect(megabytes(1_000)).toBe('1 kB');
  });
});
