import { describe, expect, it } from 'vitest';
import { makeStoredImport } from '../test/fixtures';
import { importMarkWords, liveWords, percentRead, progressWords, resumable, stoppedWords } from './importWords';

const progress = {
  importId: 3,
  fileName: 'floods.jsonl',
  format: 'twarc2_flat' as const,
  bytesDone: 12_300_000,
  fileSize: 40_000_000,
  linesDone: 0,
  imported: 0,
  alreadyHeld: 0,
  notAPost: 0,
  unreadable: 0,
};

describe('imports in words', () => {
  it('marks a post not captured by Sightline as such, and one captured since only as also imported', () => {
    const mark = { post_id: '1', import_id: 3, file_name: 'floods.jsonl', file_sha256: '1f3a9c0b'.repeat(8), line: 7, imported_at: '2026-11-28T04:30:00.000Z', also_captured: false };
    expect(importMarkWords(mark)).toBe('Imported from floods.jsonl (sha256 1f3a9c0b…), not captured by Sightline');
    expect(importMarkWords({ ...mark, also_captured: true })).toBe('Also imported from floods.jsonl (sha256 1f3a9c0b…)');
  });

  it('counts lines and each outcome, stored or live', () => {
    expect(progressWords(makeStoredImport())).toBe('1,204 lines read · 1,190 imported · 10 already held · 2 not a post · 2 unreadable');
    expect(liveWords({ ...progress, phase: 'reading', linesDone: 1, imported: 1 })).toBe('1 line read · 1 imported · 0 already held · 0 not a post · 0 unreadable');
    expect(liveWords({ ...progress, phase: 'hashing' })).toBe('Hashing the file before reading it: 12.3 MB of 40.0 MB');
    // Its size not told yet: no "of 0 bytes".
    expect(liveWords({ ...progress, phase: 'hashing', fileSize: 0 })).toBe('Hashing the file before reading it: 12.3 MB so far');
  });

  it('says how far a stopped import got and that Resume goes on from there', () => {
    expect(percentRead(makeStoredImport({ state: 'cancelled', offset_done: 500 }))).toBe(25);
    expect(percentRead(makeStoredImport())).toBe(100);
    expect(resumable(makeStoredImport({ state: 'failed' }))).toBe(true);
    expect(resumable(makeStoredImport())).toBe(false);
    expect(stoppedWords(makeStoredImport({ state: 'failed', lines_done: 1, error: 'the disk is full' }))).toBe(
      'Stopped after 1 line: the disk is full. Everything read so far is kept; fix this, then Resume goes on from the next line.',
    );
    expect(stoppedWords(makeStoredImport())).toBeNull();
  });
});
