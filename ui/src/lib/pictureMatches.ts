/**
 * What "Same picture elsewhere" and the most-shared pictures say of what they found. The words
 * of each match ("the same file", "a near copy (distance 12 of 256)") come from Rust.
 */
import type { PictureMatch } from './bindings/PictureMatch';
import { countOf } from './format';

/** "3 other posts hold this picture: 1 the same file, 2 a near copy (within 31 of 256 bits)." */
export function sameElsewhereSummary(matches: PictureMatch[], nearDistance: number, nearSearched: boolean): string {
  const within = `within ${nearDistance} of 256 bits`;
  if (matches.length === 0) {
    return nearSearched
      ? `No other post holds this picture or a near copy of it (${within}).`
      : 'No other post holds this same file. Near copies cannot be looked for: this file has no picture hash good enough to match on.';
  }
  const same = matches.filter((match) => match.relation === 'same_file').length;
  const near = matches.length - same;
  const parts = [
    ...(same > 0 ? [`${countOf(same, 'holds', 'hold')} the same file`] : []),
    ...(near > 0 ? [`${countOf(near, 'holds', 'hold')} a near copy (${within})`] : []),
  ];
  return `${countOf(matches.length, 'other post', 'other posts')}: ${parts.join(', ')}.`;
}

/** "Shared by 4 posts, as 2 files (near copies)" for one of the most-shared pictures. */
export function sharedWords(postCount: number, files: number): string {
  const posts = `Shared by ${countOf(postCount, 'post', 'posts')}`;
  return files > 1 ? `${posts}, as ${countOf(files, 'file', 'files')} (the same picture resized, re-encoded or cropped)` : `${posts}, all the same file`;
}
