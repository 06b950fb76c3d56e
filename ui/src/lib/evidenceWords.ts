/**
 * The evidence bundle's results in plain words: how far an export is, and what a check of a
 * bundle found, file by file.
 */
import type { BundleCheck } from './bindings/BundleCheck';
import type { BundleOutcome } from './bindings/BundleOutcome';
import type { BundleProgress } from './bindings/BundleProgress';
import type { FileOutcome } from './bindings/FileOutcome';
import { countOf } from './format';

export const outcomeWords: Record<FileOutcome, string> = {
  matches: 'Matches',
  changed: 'Changed since the bundle was made',
  missing: 'Missing from the bundle',
  extra: 'Added: not part of the bundle as made',
};

/** `42 %`: how far, never past 100. */
export function percentDone(progress: BundleProgress | null): number {
  if (!progress || progress.total === 0) return 0;
  return Math.min(100, Math.round((progress.done / progress.total) * 100));
}

/** `what`: what is being gathered before the first step ("the investigation", "the selection"). */
export function progressWords(progress: BundleProgress | null, what = 'the investigation'): string {
  if (!progress) return `Gathering ${what}…`;
  const file = progress.file ? ` · ${progress.file}` : '';
  return `Step ${progress.done} of ${progress.total}${file}`;
}

function megabytes(bytes: number): string {
  return bytes < 1_000_000 ? `${Math.max(1, Math.round(bytes / 1000))} kB` : `${(bytes / 1_000_000).toFixed(1)} MB`;
}

/**
 * What an export wrote. Its files are counted as a check counts them: every file SHA256SUMS lists
 * (a check's "all 8 match"), and SHA256SUMS itself, which holds their hashes.
 */
export function writtenWords(outcome: BundleOutcome): string {
  if (outcome.outcome === 'cancelled') return 'Export cancelled. Nothing was saved.';
  const listed = outcome.files - 1;
  return `Saved ${outcome.path}: ${countOf(outcome.posts, 'post', 'posts')}, ${countOf(outcome.responses, 'response', 'responses')} as received, ${megabytes(outcome.bytes)} in ${countOf(outcome.files, 'file', 'files')} (SHA256SUMS and the ${listed} it lists).`;
}

/** The one sentence that heads a check; its count is of the files SHA256SUMS lists, as the export's is. */
export function verdictWords(check: BundleCheck): string {
  if (check.intact) {
    return `All ${check.files.length} files SHA256SUMS lists match: this bundle is exactly as Sightline wrote it.`;
  }
  const wrong = check.files.filter((file) => file.outcome !== 'matches').length;
  const lists = check.listsAgree ? '' : ' Its two lists of hashes (SHA256SUMS and manifest.json) do not agree.';
  return wrong === 0
    ? `The files match SHA256SUMS, but the bundle was altered.${lists}`
    : `${countOf(wrong, 'file does', 'files do')} not match: this bundle was changed after it was made.${lists}`;
}
