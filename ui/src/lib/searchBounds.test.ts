import { describe, expect, it } from 'vitest';
import { boundWords, splitBounds } from './searchBounds';

describe('time bounds of an X search', () => {
  it('takes a monitor’s since_time out of the query and tells it in words', () => {
    const bounds = splitBounds('climate since_time:1764252309');
    expect(bounds.query).toBe('climate');
    expect(bounds.since?.toISOString()).toBe('2025-11-27T14:05:09.000Z');
    expect(bounds.until).toBeNull();
    expect(boundWords(bounds, 'UTC')).toBe('posts since 27 Nov 2025, 14:05:09 UTC');
    expect(boundWords(bounds, 'Europe/Paris')).toBe('posts since 27 Nov 2025, 15:05:09 CET');
  });

  it('tells a collection’s page back in time, both bounds', () => {
    const bounds = splitBounds('"Élections 2026" lang:fr until_time:1769409543 since_time:1764252309');
    expect(bounds.query).toBe('"Élections 2026" lang:fr');
    expect(boundWords(bounds, 'UTC')).toBe('posts since 27 Nov 2025, 14:05:09 UTC, before 26 Jan 2026, 06:39:03 UTC');
  });

  it('leaves everything else as written', () => {
    for (const query of ['climate', 'since_time:soon', 'xsince_time:123', 'since_time:12a', '']) {
      expect(splitBounds(query)).toEqual({ query, since: null, until: null });
    }
    expect(boundWords(splitBounds('climate'))).toBe('');
  });
});
