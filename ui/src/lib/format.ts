/** Number and time formatting for post cards and lists. */

/** 999 → "999", 1234 → "1.2K", 15300 → "15K", 2_500_000 → "2.5M". */
export function compactNumber(value: number): string {
  const abs = Math.abs(value);
  const units: [number, string][] = [
    [1e9, 'B'],
    [1e6, 'M'],
    [1e3, 'K'],
  ];
  for (const [size, suffix] of units) {
    if (abs >= size) {
      const scaled = value / size;
      // One decimal below 10 (1.2K), none above (15K); never round 999.95K up to "1000K".
      const text = Math.abs(scaled) < 10 ? (Math.floor(scaled * 10) / 10).toFixed(1) : String(Math.floor(scaled));
      return `${text.replace(/\.0$/, '')}${suffix}`;
    }
  }
  return String(value);
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
/** X's legacy form: "Mon Mar 16 07:01:23 +0000 2026". */
const LEGACY = /^\w{3} (\w{3}) (\d{1,2}) (\d{2}):(\d{2}):(\d{2}) ([+-])(\d{2})(\d{2}) (\d{4})$/;

/** Reads `created_at` in either form the service sends; null when it is neither. */
export function parseCreatedAt(text: string): Date | null {
  const legacy = LEGACY.exec(text.trim());
  if (legacy) {
    const [, mon = '', day, hh, mm, ss, sign, oh, om, year] = legacy;
    const month = MONTHS.indexOf(mon);
    if (month < 0) return null;
    const offsetMinutes = (sign === '-' ? -1 : 1) * (Number(oh) * 60 + Number(om));
    const utc = Date.UTC(Number(year), month, Number(day), Number(hh), Number(mm), Number(ss));
    return new Date(utc - offsetMinutes * 60_000);
  }
  const date = new Date(text);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** "2026-02-16 18:33:57 UTC": the exact time, shown on hover. */
export function exactUtc(date: Date): string {
  return `${date.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

/** "now", "5m", "3h", "2d", then "Mar 16" this year and "Mar 16, 2025" before. */
export function relativeTime(date: Date, now: Date = new Date()): string {
  const seconds = Math.round((now.getTime() - date.getTime()) / 1000);
  if (seconds < 45) return seconds < -60 ? shortDate(date, now) : 'now';
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes}m`;
  const hours = Math.round(minutes / 60);
  if (hours < 24) return `${hours}h`;
  const days = Math.round(hours / 24);
  if (days < 7) return `${days}d`;
  return shortDate(date, now);
}

function shortDate(date: Date, now: Date): string {
  const month = MONTHS[date.getUTCMonth()];
  const day = date.getUTCDate();
  return date.getUTCFullYear() === now.getUTCFullYear() ? `${month} ${day}` : `${month} ${day}, ${date.getUTCFullYear()}`;
}

/** "Ana Lima" → "AL": the avatar when remote media is off. */
export function initials(name: string): string {
  return (
    name
      .split(/\s+/)
      .filter(Boolean)
      .slice(0, 2)
      .map((word) => Array.from(word)[0]?.toUpperCase() ?? '')
      .join('') || '?'
  );
}

/**
 * The noun that fits a count: `one` for exactly 1, `many` otherwise ("0 replies"). Every place
 * a number meets a noun goes through here; crates/api's `count_of` runs the same table
 * (crates/api/tests/fixtures/count-cases.json).
 */
export function nounFor(count: number, one: string, many: string): string {
  return count === 1 ? one : many;
}

/** A count with its noun: "1 reply", "2 replies", "100,000 requests". */
export function countOf(count: number, one: string, many: string): string {
  return `${count.toLocaleString('en-US')} ${nounFor(count, one, many)}`;
}

/** A count as cards show it: the short figure ("1.2K"), its noun, and the exact count for a tooltip. */
export function compactCount(count: number, one: string, many: string): { figure: string; noun: string; exact: string } {
  return { figure: compactNumber(count), noun: nounFor(count, one, many), exact: countOf(count, one, many) };
}
