/**
 * The outcome table's words: where a row is in the file, and which rows a page shows.
 */
import type { ImportLineRow } from '$lib/bindings/ImportLineRow';

/**
 * A row's place: its line's number, and the post's place in the line when the line holds more
 * than one (a twarc2 page holds up to a hundred posts): "3", "3 · post 2".
 */
export function linePlace(row: ImportLineRow, page: ImportLineRow[]): string {
  const many = row.item > 0 || page.some((other) => other.line === row.line && other.item !== row.item);
  return many ? `${row.line.toLocaleString('en')} · post ${row.item + 1}` : row.line.toLocaleString('en');
}

/** "Outcomes 101–200 of 1,204" (`first` counts from 0). */
export function pageRange(first: number, shown: number, total: number): string {
  if (shown === 0) return '';
  const last = first + shown;
  return `Outcomes ${(first + 1).toLocaleString('en')}–${last.toLocaleString('en')} of ${Math.max(total, last).toLocaleString('en')}`;
}
