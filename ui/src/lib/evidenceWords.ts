/**
 * The evidence bundle's results in plain words: how far an export or a check is, and what a
 * check found, file by file. A check's verdict and findings come worded from Rust
 * (`BundleCheck.verdict`, `Finding.words`): one home, claiming no more than the check proves.
 */
import type { BundleOutcome } from './bindings/BundleOutcome';
import type { BundleProgress } from './bindings/BundleProgress';
import type { CheckKind } from './bindings/CheckKind';
import type { CheckState } from './bindings/CheckState';
import type { FileOutcome } from './bindings/FileOutcome';
import type { ReadProgress } from './bindings/ReadProgress';
import type { WaczOutcome } from './bindings/WaczOutcome';
import { countOf } from './format';

export const outcomeWords: Record<FileOutcome, string> = {
  matches: 'Matches',
  changed: 'Changed since the bundle was made',
  missing: 'Missing from the bundle',
  extra: 'Added: not part of the bundle as made',
  unchecked: 'Not checked: the ZIP withholds it (see below)',
};

/** Each of a bundle check's checks, named as the list shows them. */
export const checkNames: Record<CheckKind, string> = {
  files: 'Files and their sums',
  signature: 'Signature',
  timestamps: 'Timestamps',
  custody: 'Custody log',
  export: "This computer's record",
};

/** Whether a check holds, in a word or two (beside its mark, never by colour alone). */
export const checkStateWords: Record<CheckState, string> = {
  holds: 'Holds',
  fails: 'Does not hold',
  absent: 'Nothing to check',
};

/** How far a check of a bundle is: `Read 12 of 40 files · responses/0012-….json`. */
export function checkProgressWords(progress: ReadProgress | null): string {
  if (!progress) return 'Opening the bundle…';
  const file = progress.file ? ` · ${progress.file}` : '';
  return `Read ${progress.done} of ${countOf(progress.total, 'file', 'files')}${file}`;
}

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
 * (a check's "all 8 match"), and SHA256SUMS itself, which holds their hashes. Then who signed it
 * (this installation's key, by the start of its fingerprint) and whether a timestamp authority
 * stamped its manifest, or why not: the bundle is complete either way.
 */
export function writtenWords(outcome: BundleOutcome): string {
  if (outcome.outcome === 'cancelled') return 'Export cancelled. Nothing was saved.';
  const listed = outcome.files - 1;
  const stamp =
    outcome.manifestStamp.state === 'stamped'
      ? `Its manifest is stamped by ${outcome.manifestStamp.authority} at ${utcWords(outcome.manifestStamp.stampedAt)}.`
      : `Its manifest is not stamped: ${outcome.manifestStamp.why}.`;
  return `Saved ${outcome.path}: ${countOf(outcome.posts, 'post', 'posts')}, ${countOf(outcome.responses, 'response', 'responses')} as received, ${megabytes(outcome.bytes)} in ${countOf(outcome.files, 'file', 'files')} (SHA256SUMS and the ${listed} it lists), signed by this installation's key ${outcome.signedBy.slice(0, 16)}…. ${stamp}`;
}

/** `2026-11-27T21:30:00.000Z` as `2026-11-27 21:30:00 UTC`. */
function utcWords(iso: string): string {
  return iso.replace('T', ' ').replace(/(\.\d+)?Z$/, ' UTC');
}

/** What a web-archive export wrote, and whose key signed it. */
export function waczWords(outcome: WaczOutcome): string {
  if (outcome.outcome === 'cancelled') return 'Export cancelled. Nothing was saved.';
  return `Saved ${outcome.path}: ${countOf(outcome.posts, 'post card', 'post cards')} and ${countOf(outcome.responses, 'response', 'responses')} with ${outcome.responses === 1 ? 'its request' : 'their requests'}, ${megabytes(outcome.bytes)}, signed by this installation's key ${outcome.signedBy.slice(0, 16)}…. It is a WACZ web archive, the format ReplayWeb.page opens.`;
}
