import { describe, expect, it } from 'vitest';
import table from '../../../crates/core/tests/fixtures/markup-escape-cases.json';
import { escapeMarkup } from './markup';

describe('escapeMarkup mirrors the core rule of text in markup', () => {
  for (const testCase of table.cases) {
    it(testCase.name, () => {
      expect(escapeMarkup(testCase.input)).toBe(testCase.expected);
    });
  }

  it('leaves an SVG a browser reads back with the text as given', () => {
    const text = `a <tag> & "quote" 'apostrophe'\tend`;
    const svg = `<svg xmlns="http://www.w3.org/2000/svg"><text label="${escapeMarkup(text)}">${escapeMarkup(text)}</text></svg>`;
    const doc = new DOMParser().parseFromString(svg, 'image/svg+xml');
    expect(doc.getElementsByTagName('parsererror')).toHaveLength(0);
    const node = doc.getElementsByTagName('text')[0];
    expect(node?.textContent).toBe(text);
    expect(node?.getAttribute('label')).toBe(text);
  });
});
