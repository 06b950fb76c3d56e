import { describe, expect, it } from 'vitest';
import countTable from '../../../crates/api/tests/fixtures/count-cases.json';
import { compactCount, compactNumber, countOf, exactUtc, initials, nounFor, parseCreatedAt, relativeTime } from './format';

describe('compactNumber', () => {
  it('abbreviates like X does', () => {
    expect(compactNumber(0)).toBe('0');
    expect(compactNumber(999)).toBe('999');
    expect(compactNumber(1000)).toBe('1K');
    expect(compactNumber(1234)).toBe('1.2K');
    expect(compactNumber(1299)).toBe('1.2K');
    expect(compactNumber(15300)).toBe('15K');
    expect(compactNumber(999_999)).toBe('999K');
    expect(compactNumber(2_500_000)).toBe('2.5M');
    expect(compactNumber(3_000_000_000)).toBe('3B');
  });
});

describe('parseCreatedAt', () => {
  it('reads ISO-8601 and the legacy X form to the same instant', () => {
    const iso = parseCreatedAt('2026-03-16T07:01:23.000Z');
    const legacy = parseCreatedAt('Mon Mar 16 07:01:23 +0000 2026');
    expect(iso?.toISOString()).toBe('2026-03-16T07:01:23.000Z');
    expect(legacy?.toISOString()).toBe('2026-03-16T07:01:23.000Z');
  });

  it('applies the legacy offset', () => {
    expect(parseCreatedAt('Mon Mar 16 09:01:23 +0200 2026')?.toISOString()).toBe('2026-03-16T07:01:23.000Z');
  });

  it('returns null for text that is not a date', () => {
    expect(parseCreatedAt('yesterday-ish')).toBeNull();
  });
});

describe('relativeTime and exactUtc', () => {
  const now = new Date('2026-03-16T12:00:00Z');
  it('counts recent times and dates older ones', () => {
    expect(relativeTime(new Date('2026-03-16T11:59:50Z'), now)).toBe('now');
    expect(relativeTime(new Date('2026-03-16T11:55:00Z'), now)).toBe('5m');
    expect(relativeTime(new Date('2026-03-16T09:00:00Z'), now)).toBe('3h');
    expect(relativeTime(new Date('2026-03-14T12:00:00Z'), now)).toBe('2d');
    expect(relativeTime(new Date('2026-01-02T12:00:00Z'), now)).toBe('Jan 2');
    expect(relativeTime(new Date('2025-12-31T12:00:00Z'), now)).toBe('Dec 31, 2025');
  });
  it('writes the exact time in UTC', () => {
    expect(exactUtc(new Date('2026-02-16T18:33:57.000Z'))).toBe('2026-02-16 18:33:57 UTC');
  });
});

describe('initials', () => {
  it('takes the first letter of the first two words, whole characters only', () => {
    expect(initials('Ana Lima')).toBe('AL');
    expect(initials('ana maria lima')).toBe('AM');
    expect(initials('Émile')).toBe('É');
    expect(initials('𝒜lpha Beta')).toBe('𝒜B');
    expect(initials('   ')).toBe('?');
  });
});

describe('countOf', () => {
  it('pairs a count with the right noun, grouped', () => {
    expect(countOf(1, 'reply', 'replies')).toBe('1 reply');
    expect(countOf(0, 'reply', 'replies')).toBe('0 replies');
    expect(countOf(100000, 'request', 'requests')).toBe('100,000 requests');
  });

  it('says every count of the table Rust shares, word for word', () => {
    expect(countTable.cases.length).toBeGreaterThan(0);
    for (const { count, one, many, says } of countTable.cases) expect(countOf(count, one, many)).toBe(says);
  });

  it('keeps the noun of a compact figure right', () => {
    expect(compactCount(1, 'reply', 'replies')).toEqual({ figure: '1', noun: 'reply', exact: '1 reply' });
    expect(compactCount(1234, 'like', 'likes')).toEqual({ figure: '1.2K', noun: 'likes', exact: '1,234 likes' });
    expect(nounFor(0, 'view', 'views')).toBe('views');
  });
});
