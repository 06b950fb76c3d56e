import { describe, expect, it } from 'vitest';
import { LIMITS, bareHandle, countFieldError, dayMessage, dayRangeProblems, isPostUrl } from './rules';
import { parseTool } from './tools';
import { requestProblems } from './validate';

/** A count field of the X lists as a form checks it: its text first, then the request's range. */
function xCountProblem(text: string): string | null {
  return countFieldError(text, LIMITS.xCount) ?? requestProblems('twitter_replies', { user: 'nasa', query: '', count: Number(text.trim()) }).count ?? null;
}

describe('count fields', () => {
  it('accepts whole numbers from 1 to 100 only', () => {
    expect(xCountProblem('1')).toBeNull();
    expect(xCountProblem(' 100 ')).toBeNull();
    expect(xCountProblem('0')).toBe('Choose a number from 1 to 100 (you entered 0).');
    expect(xCountProblem('101')).toBe('Choose a number from 1 to 100 (you entered 101).');
    expect(xCountProblem('')).toBe('Choose a number from 1 to 100.');
    for (const bad of ['2.5', '-3', 'ten']) expect(xCountProblem(bad)).toBe(`Choose a number from 1 to 100 (you entered ${bad}).`);
  });
});

describe('handles and post links', () => {
  it('drops the @ a handle may be typed with', () => {
    expect(bareHandle(' @nasa ')).toBe('nasa');
    expect(bareHandle('nasa')).toBe('nasa');
    expect(bareHandle('@')).toBe('');
  });

  it('takes post links on x.com and twitter.com only', () => {
    for (const good of ['https://x.com/a/status/1', 'http://www.twitter.com/b/status/22/photo/1', 'https://x.com/i/web/status/3', 'https://X.com/a/status/1?s=20']) {
      expect(isPostUrl(good), good).toBe(true);
    }
    for (const bad of ['https://x.com/a/profile', 'https://x.com/a/status/1a', 'https://example.com/a/status/1', 'ftp://x.com/a/status/1', 'x.com/a/status/1', 'https://x.com//status/1']) {
      expect(isPostUrl(bad), bad).toBe(false);
    }
  });
});

describe('tool names', () => {
  it('reads the contract names and the legacy spellings', () => {
    expect(parseTool('Twitter Search')).toBe('twitter');
    expect(parseTool(' Google ')).toBe('web');
    expect(parseTool('Hacker-News')).toBe('hackernews');
    expect(parseTool('x')).toBe('twitter');
    expect(parseTool('search')).toBeNull();
    expect(parseTool('myspace')).toBeNull();
  });
});

describe('a pair of date filters', () => {
  it('reads empty fields as no filter, a real YYYY-MM-DD day as a day, and says what is wrong otherwise', () => {
    expect(dayRangeProblems('', '')).toEqual({ from: null, to: null });
    expect(dayRangeProblems(' 2026-11-02 ', '2026-11-30')).toEqual({ from: null, to: null });
    expect(dayRangeProblems('11/27/2026', '')).toEqual({ from: dayMessage('11/27/2026'), to: null });
    expect(dayRangeProblems('2026-02-30', '2026-13-01')).toEqual({ from: dayMessage('2026-02-30'), to: dayMessage('2026-13-01') });
    expect(dayRangeProblems('2026-11-30', '2026-11-02')).toEqual({ from: null, to: 'The end date is before the start date.' });
  });
});
