import { describe, expect, it } from 'vitest';
import { compactPercent, compactWords, diskWarning, outcomeWords, share, tookWords } from './storageWords';

describe('storage words', () => {
  it('gives each part its share, a sliver never reading as none', () => {
    expect(share({ part: 'posts', bytes: 750 }, 1000)).toBe('75%');
    expect(share({ part: 'media', bytes: 3 }, 1000)).toBe('< 1%');
    expect(share({ part: 'free', bytes: 0 }, 1000)).toBe('0%');
    expect(share({ part: 'other', bytes: 5 }, 0)).toBe('0%');
  });

  it('says how long measuring took', () => {
    expect(tookWords(420)).toBe('0.4 s');
    expect(tookWords(12_300)).toBe('12 s');
    expect(tookWords(125_000)).toBe('2 min 5 s');
  });

  it('shows copying as a bar without a value, then the writing back', () => {
    expect(compactPercent(null)).toBeNull();
    expect(compactPercent({ stage: 'copying', doneBytes: 0, totalBytes: 5e9 })).toBeNull();
    expect(compactPercent({ stage: 'writingBack', doneBytes: 2.5e9, totalBytes: 5e9 })).toBe(50);
    expect(compactPercent({ stage: 'writingBack', doneBytes: 6e9, totalBytes: 5e9 })).toBe(100);
    expect(compactWords({ stage: 'copying', doneBytes: 0, totalBytes: 1_200_000_000 })).toBe('Step 1 of 2: copying the 1.20 GB in use…');
    expect(compactWords({ stage: 'writingBack', doneBytes: 600_000_000, totalBytes: 1_200_000_000 })).toBe(
      'Step 2 of 2: writing it back, 600.0 MB of 1.20 GB',
    );
  });

  it('says what a compaction did, was stopped, or why it did not start', () => {
    expect(outcomeWords({ outcome: 'done', beforeBytes: 3_000_000_000, afterBytes: 2_000_000_000, orphanedFiles: 2, orphanedBytes: 5_000_000 })).toBe(
      'Compacted: the archive went from 3.00 GB to 2.00 GB, 1.00 GB given back to the disk. 2 media files no record named were removed.',
    );
    expect(outcomeWords({ outcome: 'done', beforeBytes: 1000, afterBytes: 1000, orphanedFiles: 0, orphanedBytes: 0 })).toBe(
      'Compacted: the archive went from 1 kB to 1 kB, 0 bytes given back to the disk.',
    );
    expect(outcomeWords({ outcome: 'cancelled' })).toBe('Compacting was stopped. The archive is as it was.');
    expect(outcomeWords({ outcome: 'noRoom', folder: '/home/me/.local/share/app', neededBytes: 4_000_000_000, freeBytes: 1_000_000_000 })).toBe(
      'There is not enough free room to compact: it needs 4.00 GB free in /home/me/.local/share/app, and 1.00 GB is. Free some space there, then try again. Nothing was changed.',
    );
  });

  it('warns only when the disk is low, saying what to do', () => {
    const disk = { freeBytes: 800_000_000, totalBytes: 100e9, low: true, warnBelowBytes: 1_073_741_824, folder: '/data' };
    expect(diskWarning({ ...disk, low: false })).toBeNull();
    const words = diskWarning(disk) ?? '';
    expect(words).toContain('800.0 MB free');
    expect(words).toContain('Below 1.07 GB');
    expect(words).toContain('Compact the archive in Settings → Storage');
  });
});
