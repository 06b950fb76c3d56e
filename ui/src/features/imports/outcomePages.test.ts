import { describe, expect, it } from 'vitest';
import type { ImportLineRow } from '$lib/bindings/ImportLineRow';
import { linePlace, pageRange } from './outcomePages';

const row = (line: number, item = 0): ImportLineRow => ({ line, item, outcome: 'imported', post_id: String(line * 100 + item), reason: '' });

describe('the outcome table', () => {
  it("names a post's place in its line only when the line holds more than one", () => {
    const page = [row(1), row(2, 0), row(2, 1), row(1_204)];
    expect(page.map((r) => linePlace(r, page))).toEqual(['1', '2 · post 1', '2 · post 2', '1,204']);
    // A page that begins inside a twarc2 page still names the post's place.
    expect(linePlace(row(9, 3), [row(9, 3)])).toBe('9 · post 4');
  });

  it('says which outcomes a page shows', () => {
    expect(pageRange(100, 100, 1_204)).toBe('Outcomes 101–200 of 1,204');
    expect(pageRange(0, 0, 0)).toBe('');
    // Counts behind the rows (an import still reading): never "of" fewer than shown.
    expect(pageRange(0, 8, 5)).toBe('Outcomes 1–8 of 8');
  });
});
