/**
 * The custody log in words: each action as a person says it, each id as it is named, a hash
 * shortened for the table (the whole one on hover and read aloud). The table is a Record over
 * the generated CustodyAction, so a new action in Rust does not compile here until it has words.
 */
import type { CustodyAction } from '$lib/bindings/CustodyAction';
import type { ChainCheck } from '$lib/bindings/ChainCheck';

export const actionWords: Record<CustodyAction, string> = {
  log_started: 'Log began',
  created: 'Created',
  renamed: 'Renamed',
  description_changed: 'Description changed',
  notebook_changed: 'Notebook changed',
  archived: 'Archived',
  restored: 'Restored',
  deleted: 'Deleted',
  request_filed: 'Request filed',
  request_removed: 'Request taken out',
  post_added: 'Posts added',
  post_removed: 'Posts taken out',
  note_changed: 'Note changed',
  tag_added: 'Tag added',
  tag_removed: 'Tag taken off',
  check_run: 'Still-there check run',
  bundle_exported: 'Evidence bundle exported',
  export_not_finished: 'Export not finished (no file kept)',
  wacz_exported: 'Web archive exported',
  key_rotated: 'Signing key replaced',
  package_imported: 'Package imported',
  package_merged: 'Case package merged',
};

const kinds: Record<string, string> = {
  post: 'post',
  request: 'request',
  check: 'check',
  key: 'key',
  export: 'export',
  file: 'file',
  package: 'package',
};

/** `post:1790…` → `post 1790…`; an id of a kind this build does not know is shown as stored. */
export function idWords(id: string): string {
  const colon = id.indexOf(':');
  const kind = colon > 0 ? kinds[id.slice(0, colon)] : undefined;
  return kind ? `${kind} ${id.slice(colon + 1)}` : id;
}

/** The first characters of a hash, enough to tell entries apart by eye. */
export function shortHash(hash: string): string {
  return hash.length > 12 ? `${hash.slice(0, 12)}…` : hash;
}

/** A check's verdict in a few words, for the badge beside its sentence. */
export function checkVerdict(check: ChainCheck): string {
  return check.state === 'unbroken' ? 'Unbroken' : `Broken at entry ${check.at_seq}`;
}
