import { describe, expect, it } from 'vitest';
import countTable from '../../../crates/api/tests/fixtures/count-cases.json';
import zoneNames from '../../../crates/store/tests/fixtures/zone-names.json';
import { compactCount, compactNumber, countOf, exactUtc, initials, nounFor, parseCreatedAt, relativeTime, timeTitle, utcOffset, zoneAbbreviation, zonedDay, zoneDay, zoneDayStart, zonedTime, zoneLabel, zoneWallClock } from './format';

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
  it('dates older times by the display zone calendar', () => {
    // 23:30 UTC on 2 Jan is already 3 Jan in India.
    expect(relativeTime(new Date('2026-01-02T23:30:00Z'), now, 'Asia/Kolkata')).toBe('Jan 3');
    expect(relativeTime(new Date('2026-01-02T23:30:00Z'), now, 'UTC')).toBe('Jan 2');
  });
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

describe('times in the display zone', () => {
  const evening = new Date('2026-11-23T18:04:12Z');

  it('names the zone beside every time, in several zones', () => {
    expect(zonedTime(evening, 'Europe/Paris')).toBe('23 Nov 2026, 19:04 CET');
    expect(zonedTime(evening, 'Asia/Kolkata')).toBe('23 Nov 2026, 23:34 GMT+5:30');
    expect(zonedTime(evening, 'America/New_York')).toBe('23 Nov 2026, 13:04 EST');
    expect(zonedTime(evening, 'UTC')).toBe('23 Nov 2026, 18:04 UTC');
    expect(zonedTime(evening, 'Pacific/Kiritimati')).toBe('24 Nov 2026, 08:04 GMT+14');
    expect(zonedTime('2026-11-23T18:04:12Z', 'Europe/Paris', true)).toBe('23 Nov 2026, 19:04:12 CET');
    expect(zonedTime('Mon Nov 23 18:04:12 +0000 2026', 'Asia/Kolkata')).toBe('23 Nov 2026, 23:34 GMT+5:30');
    expect(zonedTime('not a time', 'UTC')).toBe('not a time');
    expect(zonedDay(evening, 'Asia/Tokyo')).toBe('24 Nov 2026');
  });

  it('names zones by the rule the exported files follow, case for case', () => {
    // The table crates/store/src/zone_names.rs runs too: letters only where they cannot be
    // misread (CET, EST), else the offset (India's, China's and Cuba's own letters are other zones').
    expect(zoneNames.cases.length).toBeGreaterThanOrEqual(40);
    for (const { zone, utc, name } of zoneNames.cases) expect(`${zone} ${utc} ${zoneAbbreviation(new Date(utc), zone)}`).toBe(`${zone} ${utc} ${name}`);
    expect(zoneLabel(evening, 'Asia/Kathmandu')).toBe('GMT+5:45 (Asia/Kathmandu)');
  });

  it('gives UTC one hover away', () => {
    expect(timeTitle(evening, 'Asia/Kolkata')).toBe('23 Nov 2026, 23:34:12 GMT+5:30 (Asia/Kolkata) · 2026-11-23 18:04:12 UTC');
    expect(timeTitle(evening, 'UTC')).toBe('2026-11-23 18:04:12 UTC');
    expect(zoneLabel(evening, 'Europe/Paris')).toBe('CET (Europe/Paris)');
    expect(zoneLabel(evening, 'UTC')).toBe('UTC');
    expect(zoneLabel(evening, 'Etc/UTC')).toBe('UTC');
    expect(timeTitle(evening, 'Etc/UTC')).toBe('2026-11-23 18:04:12 UTC');
    expect(utcOffset('Asia/Kolkata', evening)).toBe('UTC+05:30');
    expect(utcOffset('America/Sao_Paulo', evening)).toBe('UTC−03:00');
  });

  it('follows a DST change: London on the night clocks go forward and back', () => {
    // 29 March 2026, 01:00 UTC: GMT becomes BST.
    expect(zonedTime(new Date('2026-03-29T00:59:00Z'), 'Europe/London')).toBe('29 Mar 2026, 00:59 GMT');
    expect(zonedTime(new Date('2026-03-29T01:00:00Z'), 'Europe/London')).toBe('29 Mar 2026, 02:00 BST');
    expect(zoneAbbreviation(new Date('2026-10-25T00:30:00Z'), 'Europe/London')).toBe('BST');
    expect(zoneAbbreviation(new Date('2026-10-25T01:30:00Z'), 'Europe/London')).toBe('GMT');
  });

  it('counts calendar days in the zone, which may last 23 or 25 hours', () => {
    expect(zoneDay(evening, 0, 'Asia/Kolkata')).toBe('2026-11-23');
    expect(zoneDay(evening, 0, 'Asia/Tokyo')).toBe('2026-11-24');
    expect(zoneDay(evening, -30, 'UTC')).toBe('2026-10-24');
    expect(zoneDayStart('2026-11-23', 'Asia/Kolkata')?.toISOString()).toBe('2026-11-22T18:30:00.000Z');
    const spring = zoneDayStart('2026-03-29', 'Europe/London')!.getTime();
    const next = zoneDayStart('2026-03-30', 'Europe/London')!.getTime();
    expect(new Date(spring).toISOString()).toBe('2026-03-29T00:00:00.000Z');
    expect((next - spring) / 3_600_000).toBe(23);
    const autumn = zoneDayStart('2026-10-25', 'Europe/London')!.getTime();
    expect((zoneDayStart('2026-10-26', 'Europe/London')!.getTime() - autumn) / 3_600_000).toBe(25);
    // Chile skipped midnight on 3 Sep 2023: the day began at 01:00 local (04:00 UTC).
    expect(zoneDayStart('2023-09-03', 'America/Santiago')?.toISOString()).toBe('2023-09-03T04:00:00.000Z');
    expect(zoneDayStart('2026-13-01', 'UTC')).toBeNull();
  });

  it('reads a typed wall-clock time in the zone, the first of a repeated hour', () => {
    expect(zoneWallClock('2026-11-23T23:34', 'Asia/Kolkata')?.toISOString()).toBe('2026-11-23T18:04:00.000Z');
    expect(zoneWallClock('2026-10-25T01:30', 'Europe/London')?.toISOString()).toBe('2026-10-25T00:30:00.000Z');
    expect(zoneWallClock('2026-03-29T12:00', 'Europe/London')?.toISOString()).toBe('2026-03-29T11:00:00.000Z');
    expect(zoneWallClock('2026-02-30T10:00', 'UTC')).toBeNull();
    expect(zoneWallClock('tomorrow', 'UTC')).toBeNull();
  });

  it('falls back to UTC, saying so, for a zone this engine does not know', () => {
    expect(zonedTime(evening, 'Europe/Atlantis')).toBe('23 Nov 2026, 18:04 UTC');
    expect(timeTitle(evening, 'Europe/Atlantis')).toBe('2026-11-23 18:04:12 UTC');
  });
});
