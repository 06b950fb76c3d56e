/**
 * What the start screen and the recovery screen say: each step of opening the archive, the copy
 * made before an upgrade, and what happened when it could not be opened.
 */
import type { BackupOutcome } from '$lib/bindings/BackupOutcome';
import type { ProblemKind } from '$lib/bindings/ProblemKind';
import type { UpgradeStep } from '$lib/bindings/UpgradeStep';

/** The start screen shows itself only for an opening longer than this. */
export const SHOW_AFTER_MS = 1000;

export function megabytes(bytes: number): string {
  if (bytes < 1_000_000) return `${Math.max(1, Math.round(bytes / 1000))} kB`;
  const digits = bytes < 10_000_000 ? 1 : 0;
  return `${(bytes / 1_000_000).toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits })} MB`;
}

const count = (n: number) => n.toLocaleString('en-US');

/** The step under way, in one line. */
export function stepWords(step: UpgradeStep | null): string {
  if (!step) return 'Opening your archive…';
  switch (step.step) {
    case 'checking':
      // Read bytes are an estimate (what the app has read since the check began): "about".
      if (!step.read_bytes || step.total_bytes === 0) return 'Checking your archive…';
      return `Checking your archive: about ${megabytes(step.read_bytes)} of ${megabytes(step.total_bytes)} read`;
    case 'backing_up':
      return `Saving a copy of your archive before upgrading it: ${megabytes(step.written_bytes)} of ${megabytes(step.expected_bytes)}`;
    case 'migrating': {
      const of = step.count > 1 ? ` (step ${step.number} of ${step.count})` : '';
      if (step.posts_done === null || step.posts_total === 0) return `Upgrading your archive${of}…`;
      const about = step.posts_done < step.posts_total ? 'about ' : '';
      return `Upgrading your archive: ${about}${count(step.posts_done)} of ${count(step.posts_total)} posts${of}`;
    }
    case 'finishing':
      return 'Writing the upgraded archive to disk…';
  }
}

/** How far the step is, from 0 to 1; `null` when it cannot be told (a bar that only moves). */
export function stepFraction(step: UpgradeStep | null): number | null {
  if (!step) return null;
  switch (step.step) {
    case 'checking':
      return step.read_bytes !== null && step.total_bytes > 0 ? Math.min(1, step.read_bytes / step.total_bytes) : null;
    case 'backing_up':
      return step.expected_bytes > 0 ? Math.min(1, step.written_bytes / step.expected_bytes) : null;
    case 'migrating':
      return step.posts_done !== null && step.posts_total > 0 ? Math.min(1, step.posts_done / step.posts_total) : null;
    default:
      return null;
  }
}

/** What became of the copy made before the upgrade; `null` when none was needed. */
export function backupWords(outcome: BackupOutcome): string | null {
  switch (outcome.outcome) {
    case 'not_needed':
      return null;
    case 'made':
      return `A copy of your archive as it was is kept in ${outcome.file} (${megabytes(outcome.bytes)}).`;
    case 'no_room':
      return `No copy was made first: the disk has ${megabytes(outcome.free_bytes)} free, and the copy and the upgrade need ${megabytes(outcome.needed_bytes)}.`;
    case 'failed':
      return `No copy was made first: ${outcome.reason}.`;
  }
}

export function problemTitle(kind: ProblemKind): string {
  switch (kind) {
    case 'newer':
      return 'This archive is from a newer Sightline';
    case 'damaged':
      return 'This archive’s file is damaged';
    case 'unopenable':
      return 'Sightline could not open its archive';
  }
}
