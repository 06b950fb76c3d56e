/**
 * Case packages in plain words: what "Export for a colleague" carries and wrote, how far an
 * export or an open is, who signed a package, what opening it added, and each difference a merge
 * kept on both sides. The verification's own sentences come worded from Rust (the evidence
 * verifier's `BundleCheck`), as "Verify a bundle" shows them.
 */
import type { CaseConflict } from './bindings/CaseConflict';
import type { CaseExportOutcome } from './bindings/CaseExportOutcome';
import type { CaseOpened } from './bindings/CaseOpened';
import type { CaseProgress } from './bindings/CaseProgress';
import type { CaseRemoved } from './bindings/CaseRemoved';
import type { CaseStage } from './bindings/CaseStage';
import type { Collector } from './bindings/Collector';
import type { ConflictKind } from './bindings/ConflictKind';
import type { MadeBy } from './bindings/MadeBy';
import { fingerprintGroups } from './fingerprint';
import { countOf } from './format';

/** What a package carries, said once: beside the export button and in its help. */
export const PACKAGE_CARRIES =
  'One file a colleague opens in their own Sightline to carry on the case: its requests and the exact responses, the posts, notes, tags, still-there checks, kept media, capture receipts and the custody log, signed by this installation’s key. Opening it needs no API key.';

const stageWords: Record<CaseStage, string> = {
  writing: 'Writing',
  verifying: 'Checking every hash and the signature',
  reading: 'Reading each file again',
  importing: 'Importing',
};

/** `42`: how far the stage is, in percent, never past 100. */
export function casePercent(progress: CaseProgress | null): number {
  if (!progress || progress.total === 0) return 0;
  return Math.min(100, Math.round((progress.done / progress.total) * 100));
}

/** `Checking every hash and the signature: 12 of 40 · responses/0012.json`. */
export function caseProgressWords(progress: CaseProgress | null, before = 'Opening the package…'): string {
  if (!progress) return before;
  const file = progress.file ? ` · ${progress.file}` : '';
  return `${stageWords[progress.stage]}: ${progress.done} of ${progress.total}${file}`;
}

/** The first 16 digits of a fingerprint, in groups, as a name for a key. */
export function shortKey(fingerprint: string): string {
  return `${fingerprintGroups(fingerprint.slice(0, 16))}…`;
}

/** Who someone is, as the case says it: their "Collected by" name, else their key. */
export function collectorName(collector: Collector): string {
  const name = collector.name.trim();
  return name ? name : `someone who named no one (key ${shortKey(collector.fingerprint)})`;
}

/** A colleague named as the store records them (a note's or a tag's author). */
export function madeByName(by: MadeBy): string {
  return collectorName({ name: by.name, fingerprint: by.key });
}

/** `by Ana Ruiz` beside a note, a tag or a post received from a colleague; `''` for this installation's. */
export function byWords(collector: Collector | null | undefined): string {
  return collector ? `by ${collectorName(collector)}` : '';
}

function megabytes(bytes: number): string {
  return bytes < 1_000_000 ? `${Math.max(1, Math.round(bytes / 1000))} kB` : `${(bytes / 1_000_000).toFixed(1)} MB`;
}

/** What "Export for a colleague" wrote. */
export function caseWrittenWords(outcome: CaseExportOutcome): string {
  if (outcome.outcome === 'cancelled') return 'Export cancelled. Nothing was saved.';
  return `Saved ${outcome.path}: ${countOf(outcome.requests, 'request', 'requests')}, ${countOf(outcome.responses, 'response', 'responses')} as received, ${countOf(outcome.posts, 'post', 'posts')} and ${countOf(outcome.mediaFiles, 'media file', 'media files')}, ${megabytes(outcome.bytes)}, signed by this installation’s key ${shortKey(outcome.signedBy)}. Send it to your colleague as it is: any change to it is caught when it is opened.`;
}

/** The headline of an opened package: a new case, or a merge into the one held here. */
export function openedHeadline(opened: CaseOpened): string {
  return opened.merged
    ? `Merged into ${opened.name}, the case this installation already held: nothing here was overwritten.`
    : `Opened as a new case, ${opened.name}.`;
}

/** What opening added, one line each, leaving out what it found nothing of. */
export function addedLines(opened: CaseOpened): string[] {
  const lines: string[] = [];
  const pair = (added: number, held: number, one: string, many: string) =>
    held > 0 ? `${countOf(added, one, many)} added, ${held} already here` : `${countOf(added, one, many)} added`;
  lines.push(pair(opened.requestsAdded, opened.requestsHeld, 'request', 'requests'));
  lines.push(pair(opened.postsAdded, opened.postsHeld, 'post', 'posts'));
  if (opened.notesAdded > 0) lines.push(`${countOf(opened.notesAdded, 'note', 'notes')} added`);
  if (opened.tagsAdded > 0) lines.push(`${countOf(opened.tagsAdded, 'tag', 'tags')} added`);
  if (opened.checksAdded > 0) lines.push(`${countOf(opened.checksAdded, 'still-there check', 'still-there checks')} added`);
  if (opened.mediaFilesAdded > 0) lines.push(`${countOf(opened.mediaFilesAdded, 'media file', 'media files')} kept`);
  lines.push(
    `${countOf(opened.custodyEntriesReceived, 'custody log entry', 'custody log entries')} received as written, and this installation’s log continued with the ${opened.merged ? 'merge' : 'import'}`,
  );
  return lines;
}

const conflictWhat: Record<ConflictKind, string> = {
  note: 'Note',
  noteRemoved: 'Note removed on one side, rewritten on the other',
  postRemoved: 'Taken out of the case on the other side',
  check: 'Still-there check',
  notebook: 'Notebook',
  description: 'Description',
  name: 'Name',
};

/** A difference's heading: `Note on post 1790…`, `Notebook`. */
export function conflictTitle(conflict: CaseConflict): string {
  const what = conflictWhat[conflict.kind];
  if (conflict.kind === 'postRemoved') return `Post ${conflict.postId} ${what.toLowerCase()}`;
  return conflict.postId ? `${what} on post ${conflict.postId}` : what;
}

/** Whose each side is: `Yours` (this installation) or `Ana Ruiz's`. */
export function sideOwner(collector: Collector | null): string {
  return collector ? `${collectorName(collector)}’s` : 'Yours';
}

/** What became of both sides: each is kept, neither written over. */
export function conflictKept(conflict: CaseConflict): string {
  const theirs = collectorName(conflict.theirsBy);
  switch (conflict.kind) {
    case 'note':
      return `Both kept: the note here stays on the post, ${theirs}’s beside it.`;
    case 'noteRemoved':
      return 'The rewritten note is kept: a removal never drops what the other side wrote meanwhile.';
    case 'postRemoved':
      return `Kept here, because it carries your note or tags; ${theirs} took it out of the case.`;
    case 'check':
      return 'Both checks kept.';
    default:
      return `The ${conflictWhat[conflict.kind].toLowerCase()} here is kept; ${theirs}’s is shown here.`;
  }
}

/** A side of a difference in words: its text, or what an empty side means. */
export function sideText(conflict: CaseConflict, text: string): string {
  if (text) return text;
  if (conflict.kind === 'noteRemoved') return '(removed)';
  return conflict.kind === 'postRemoved' ? '(taken out)' : '(empty)';
}

/** The number of removals taken on, as a heading. */
export function removedHeading(count: number): string {
  return `${countOf(count, 'removal', 'removals')} taken on: removed there after it came here, so removed here too`;
}

/**
 * What a merge took off here because the colleague had removed it there, without its time
 * (shown beside it): `Tag “lead” taken off post 1790: Ben Okafor took it off`.
 */
export function removedWords(removed: CaseRemoved): string {
  const who = removed.by ? collectorName(removed.by) : 'this installation';
  if (removed.what === 'tag') return `Tag “${removed.text}” taken off post ${removed.postId}: ${who} took it off`;
  if (removed.what === 'post') return `Post ${removed.postId} taken out of the case: ${who} took it out`;
  if (removed.what === 'request') return `Request ${removed.postId} taken out of the case: ${who} took it out`;
  return removed.writtenOver
    ? `Note on post ${removed.postId} (“${removed.text}”) replaced by ${who}’s: ${who} wrote over it`
    : `Note on post ${removed.postId} (“${removed.text}”) removed: ${who} removed it`;
}

/**
 * The verification an opened package passed, before anything was written: what the open checked
 * (`open` refuses a package that fails any of it), and which key signed it. The signer's name is
 * what the package says: a signature proves the key, never the name (anyone can make a key under
 * any name), so the words send the reader to the key's fingerprint.
 */
export function verifiedWords(opened: CaseOpened): string {
  const name = opened.from.name.trim();
  const key = name ? `a key the package names as ${name}’s` : 'a key the package names no one for';
  const whose = name ? `${name}’s` : 'its owner’s';
  return `Every file's hash reproduced, each response's bytes matched its capture's SHA-256, the custody log's chain is unbroken and the signature holds, made with ${key}. The name proves nothing by itself: compare the key below with the one ${whose} Settings shows.`;
}
