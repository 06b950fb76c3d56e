/**
 * Settings → Storage in words: each part of the data folder named and explained, a compaction's
 * progress and outcome, and the low-disk warning. Sizes in powers of 1,000 (`byteSize`).
 */
import type { CompactOutcome } from './bindings/CompactOutcome';
import type { CompactProgress } from './bindings/CompactProgress';
import type { DiskSpace } from './bindings/DiskSpace';
import type { PartSize } from './bindings/PartSize';
import type { StoragePart } from './bindings/StoragePart';
import { byteSize } from './format';

/** Each part's name and what it holds, in the order Storage lists them. */
export const PART_WORDS: Record<StoragePart, { name: string; holds: string }> = {
  posts: { name: 'Posts', holds: 'posts, accounts and links as stored, with the facts analysis counts' },
  responses: { name: 'Responses', holds: "each answer exactly as the service sent it, with its headers: the captures' evidence" },
  media: { name: 'Media', holds: 'pictures and videos kept, and their records' },
  indexes: { name: 'Indexes', holds: 'what makes search, lists and analysis fast, full-text search included' },
  free: { name: 'Free inside the archive', holds: 'room left by deleted rows, which Compact gives back to the disk' },
  other: { name: 'Other', holds: 'history, the spend ledger, investigations, logs, copies before upgrades, settings' },
};

/** A part's share of the whole, in whole percent ("< 1%" for a sliver, so no part reads as none). */
export function share(part: PartSize, total: number): string {
  if (total <= 0 || part.bytes <= 0) return '0%';
  const percent = (part.bytes / total) * 100;
  return percent < 1 ? '< 1%' : `${Math.round(percent)}%`;
}

/** How long measuring took: "0.4 s", "12 s", "2 min 5 s". */
export function tookWords(ms: number): string {
  if (ms < 10_000) return `${(ms / 1000).toFixed(1)} s`;
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds} s`;
  return `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
}

/** A compaction's progress bar value (0-100): copying is the first half, writing back the second. */
export function compactPercent(step: CompactProgress | null): number | null {
  if (!step) return null;
  // SQLite tells nothing while it copies: the bar waits at the start (no value: indeterminate).
  if (step.stage === 'copying') return null;
  if (step.totalBytes <= 0) return 100;
  return Math.min(100, Math.round((step.doneBytes / step.totalBytes) * 100));
}

/** A compaction's progress in words. */
export function compactWords(step: CompactProgress | null): string {
  if (!step) return 'Starting…';
  if (step.stage === 'copying') return `Step 1 of 2: copying the ${byteSize(step.totalBytes)} in use…`;
  return `Step 2 of 2: writing it back, ${byteSize(step.doneBytes)} of ${byteSize(step.totalBytes)}`;
}

/** What a compaction did, in words. */
export function outcomeWords(outcome: CompactOutcome): string {
  switch (outcome.outcome) {
    case 'done': {
      const saved = Math.max(0, outcome.beforeBytes - outcome.afterBytes) + outcome.orphanedBytes;
      const files =
        outcome.orphanedFiles > 0
          ? ` ${outcome.orphanedFiles.toLocaleString('en-US')} media ${outcome.orphanedFiles === 1 ? 'file' : 'files'} no record named ${outcome.orphanedFiles === 1 ? 'was' : 'were'} removed.`
          : '';
      return `Compacted: the archive went from ${byteSize(outcome.beforeBytes)} to ${byteSize(outcome.afterBytes)}, ${byteSize(saved)} given back to the disk.${files}`;
    }
    case 'cancelled':
      return 'Compacting was stopped. The archive is as it was.';
    case 'noRoom':
      return (
        `There is not enough free room to compact: it needs ${byteSize(outcome.neededBytes)} free in ${outcome.folder}, ` +
        `and ${byteSize(outcome.freeBytes)} is. Free some space there, then try again. Nothing was changed.`
      );
  }
}

/** The low-disk warning, or null when the disk has room. */
export function diskWarning(disk: DiskSpace): string | null {
  if (!disk.low) return null;
  return (
    `The disk holding Sightline's data is nearly full: ${byteSize(disk.freeBytes)} free. ` +
    `Below ${byteSize(disk.warnBelowBytes)} Sightline cannot keep a copy of the archive before an upgrade, and saving may fail. ` +
    'Compact the archive in Settings → Storage, free space on this disk, or move the data folder to a larger one.'
  );
}
