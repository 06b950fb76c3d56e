/**
 * Imports in words: a post's mark (components/ImportMark.svelte, on every card), an import's
 * outcomes and states, and its progress line (features/imports). The unions are the store's,
 * exported by ts-rs, so a new outcome or state does not compile until it has its words here.
 */
import type { ImportFormat } from './bindings/ImportFormat';
import type { ImportOutcome } from './bindings/ImportOutcome';
import type { ImportProgress } from './bindings/ImportProgress';
import type { ImportState } from './bindings/ImportState';
import type { PostImportMark } from './bindings/PostImportMark';
import type { StoredImport } from './bindings/StoredImport';
import { byteSize, countOf } from './format';

/** "1f3a9c0b…": the file's hash as a mark shows it; the whole one is in its title. */
export function shortFileHash(sha256: string): string {
  return `${sha256.slice(0, 8)}…`;
}

/**
 * A post's mark in words. A post an import brought and no request of this installation found
 * says it was not captured by Sightline; one a request has captured since says only that it was
 * also imported (its capture line beside it is earned).
 */
export function importMarkWords(mark: PostImportMark): string {
  const from = `${mark.file_name} (sha256 ${shortFileHash(mark.file_sha256)})`;
  return mark.also_captured ? `Also imported from ${from}` : `Imported from ${from}, not captured by Sightline`;
}

/** The mark's hover text: the whole hash and the line the post was read from. */
export function importMarkTitle(mark: PostImportMark): string {
  return `Read from line ${mark.line.toLocaleString('en')} of ${mark.file_name}, SHA-256 ${mark.file_sha256}. Open the import's report.`;
}

/** Each format as the screens name it (the store's `ImportFormat::label`). */
export const formatWords: Record<ImportFormat, string> = {
  twarc2_pages: 'twarc2 API pages',
  twarc2_flat: 'twarc2 flattened tweets',
  fourcat_csv: '4CAT CSV',
  fourcat_ndjson: '4CAT NDJSON',
  zeeschuimer: 'Zeeschuimer NDJSON',
  sightline_jsonl: 'Sightline JSON Lines',
  dmrc_csv: 'QUT DMRC CSV',
};

/** Each outcome, as the report's table and its filter say it. */
export const outcomeWords: Record<ImportOutcome, string> = {
  imported: 'Imported',
  already_held: 'Already held',
  not_a_post: 'Not a post',
  unreadable: 'Unreadable',
};

/** The outcomes in the order the report counts them. */
export const OUTCOMES: ImportOutcome[] = ['imported', 'already_held', 'not_a_post', 'unreadable'];

/** Where an import stands, in words. */
export const stateWords: Record<ImportState, string> = {
  running: 'Importing',
  cancelled: 'Cancelled',
  done: 'Done',
  failed: 'Stopped by an error',
};

/** An import's count of one outcome. */
export function outcomeCount(entry: StoredImport, outcome: ImportOutcome): number {
  switch (outcome) {
    case 'imported':
      return entry.imported;
    case 'already_held':
      return entry.already_held;
    case 'not_a_post':
      return entry.not_a_post;
    case 'unreadable':
      return entry.unreadable;
  }
}

/** "1,204 lines read · 1,190 imported · 10 already held · 2 not a post · 2 unreadable". */
function countsWords(lines: number, count: (outcome: ImportOutcome) => number): string {
  const counts = OUTCOMES.map((outcome) => `${count(outcome).toLocaleString('en')} ${outcomeWords[outcome].toLowerCase()}`);
  return [countOf(lines, 'line read', 'lines read'), ...counts].join(' · ');
}

/** A stored import's lines and counts in words. */
export function progressWords(entry: StoredImport): string {
  return countsWords(entry.lines_done, (outcome) => outcomeCount(entry, outcome));
}

/** How much of the file is read, 0–100 (a file read to its end is 100). */
export function percentRead(entry: StoredImport): number {
  if (entry.state === 'done' || entry.file_size <= 0) return entry.state === 'done' ? 100 : 0;
  return Math.min(100, Math.floor((entry.offset_done / entry.file_size) * 100));
}

/** Whether an import stopped before its end and can go on from where it stopped. */
export function resumable(entry: StoredImport): boolean {
  return entry.state === 'cancelled' || entry.state === 'failed';
}

/** What an import that stopped says about it, and what to do. */
export function stoppedWords(entry: StoredImport): string | null {
  switch (entry.state) {
    case 'cancelled':
      return `Cancelled after ${countOf(entry.lines_done, 'line', 'lines')}. Everything read so far is kept; Resume goes on from the next line.`;
    case 'failed':
      return `Stopped after ${countOf(entry.lines_done, 'line', 'lines')}: ${entry.error ?? 'an error'}. Everything read so far is kept; fix this, then Resume goes on from the next line.`;
    default:
      return null;
  }
}

/** How far the import running now is, 0–100: through the file's bytes, hashing then reading. */
export function livePercent(progress: ImportProgress): number {
  if (progress.fileSize <= 0) return 0;
  return Math.min(100, Math.floor((progress.bytesDone / progress.fileSize) * 100));
}

/** The import running now in words: "Hashing the file: 12.3 MB of 40.0 MB", then the counts. */
export function liveWords(progress: ImportProgress): string {
  if (progress.phase === 'hashing') {
    const size = progress.fileSize > 0 ? ` of ${byteSize(progress.fileSize)}` : ' so far';
    return `Hashing the file before reading it: ${byteSize(progress.bytesDone)}${size}`;
  }
  const counts: Record<ImportOutcome, number> = {
    imported: progress.imported,
    already_held: progress.alreadyHeld,
    not_a_post: progress.notAPost,
    unreadable: progress.unreadable,
  };
  return countsWords(progress.linesDone, (outcome) => counts[outcome]);
}
