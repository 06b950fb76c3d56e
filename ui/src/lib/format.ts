/**
 * Numbers, counts and times as every screen shows them.
 *
 * Times: every time the UI shows goes through here, in the display zone (Settings →
 * Preferences, the system's by default; lib/displayZone.svelte.ts) with its zone named, and
 * UTC one hover away. In markup, use the `<Time>` component (components/Time.svelte): a `<time>`
 * whose `datetime` is the UTC instant, whose `title` gives the zoned time and UTC, and which
 * reads the UTC aloud. In text (exports, notes, aria labels) call:
 * - `zonedTime(t)` "23 Nov 2026, 19:04 CET"; `zonedDay(t)` "23 Nov 2026";
 * - `exactUtc(date)` "2026-11-23 18:04:12 UTC"; `timeTitle(t)` the hover text, both together;
 * - `relativeTime(date)` "5m" (keep the absolute time on hover: `<Time form="relative">` does);
 * - `citedTime(date)` "2026-11-23 18:04 UTC = 2026-11-23 19:04 CET (Europe/Paris)" for text
 *   that leaves the app (citations), in the form the Rust exports write;
 * - `zoneLabel()` "CET (Europe/Paris)"; `zoneDay(from, offset)` and `zoneDayStart(day)` for
 *   day ranges and date filters, which Rust counts in the same zone; `zoneWallClock(text)` for a
 *   time typed in the zone (a datetime-local picker's value).
 * Each takes an optional zone last (tests, and a time deliberately shown in another zone).
 */
import { zoneSetting } from './displayZone.svelte';
import { ZONE_LETTERS } from './bindings/ZoneLetters';

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

/** "2026-02-16 18:33:57 UTC": the exact time in UTC, one hover away from every shown time. */
export function exactUtc(date: Date): string {
  return `${date.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

/** A time as the stores and the service give it (ISO text, milliseconds or a Date); null when unreadable. */
export function toDate(value: Date | string | number): Date | null {
  const date = value instanceof Date ? value : typeof value === 'number' ? new Date(value) : parseCreatedAt(value);
  return date && !Number.isNaN(date.getTime()) ? date : null;
}

/** An instant's wall clock in a zone. */
type Fields = { year: number; month: number; day: number; hour: number; minute: number; second: number };

const fieldFormats = new Map<string, Intl.DateTimeFormat>();
const knownZones = new Map<string, boolean>();
let lastFields: { zone: string; time: number; fields: Fields } | null = null;

/**
 * The zone if this webview can convert times to it, else UTC (and every label then says UTC):
 * Rust's list is newer than some webviews' (ui/src/lib/zones.test.ts checks it against this one).
 */
export function usableZone(zone: string): string {
  let known = knownZones.get(zone);
  if (known === undefined) {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: zone });
      known = true;
    } catch {
      known = false;
    }
    knownZones.set(zone, known);
  }
  return known ? zone : 'UTC';
}

/** The wall-clock fields of an instant in a zone. */
function fieldsIn(date: Date, wanted: string): Fields {
  const zone = usableZone(wanted);
  // A shown time asks for the same instant several times (text, name, hover): answer it once.
  if (lastFields?.zone === zone && lastFields.time === date.getTime()) return lastFields.fields;
  let format = fieldFormats.get(zone);
  if (!format) {
    // One format per zone, kept: formatting is what a long list pays for.
    format = new Intl.DateTimeFormat('en-GB', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    fieldFormats.set(zone, format);
  }
  const parts = Object.fromEntries(format.formatToParts(date).map((part) => [part.type, part.value]));
  const fields = {
    year: Number(parts.year),
    month: Number(parts.month),
    day: Number(parts.day),
    hour: Number(parts.hour) % 24,
    minute: Number(parts.minute),
    second: Number(parts.second),
  };
  lastFields = { zone, time: date.getTime(), fields };
  return fields;
}

/** How far the zone's clocks are ahead of UTC at an instant, in milliseconds (India: +5:30). */
function offsetMs(date: Date, zone: string): number {
  const f = fieldsIn(date, zone);
  const wall = Date.UTC(f.year, f.month - 1, f.day, f.hour, f.minute, f.second);
  return wall - Math.floor(date.getTime() / 1000) * 1000;
}

/** "GMT+5:30", "GMT-3", "GMT": an offset in minutes east of UTC, as zones without letters are named. */
export function offsetName(minutes: number): string {
  if (minutes === 0) return 'GMT';
  const size = Math.abs(minutes);
  const rest = size % 60;
  return `GMT${minutes < 0 ? '-' : '+'}${Math.floor(size / 60)}${rest ? `:${pad(rest)}` : ''}`;
}

/**
 * The zone's short name at an instant, by the rule the exported files follow too
 * (crates/store/src/zone_names.rs, whose table of letters Rust writes to bindings/ZoneLetters.ts):
 * "CET", "BST", "EDT", "UTC" where those letters cannot be misread, else the offset ("GMT+5:30",
 * "GMT+9"); never a guess between zones.
 */
export function zoneAbbreviation(date: Date, wanted: string = zoneSetting.zone): string {
  const zone = usableZone(wanted);
  const minutes = Math.round(offsetMs(date, zone) / 60_000);
  return ZONE_LETTERS[zone]?.[String(minutes)] ?? offsetName(minutes);
}

/** "CET (Europe/Paris)", "UTC": the zone as the screens and hovers name it. */
export function zoneLabel(date: Date = new Date(), wanted: string = zoneSetting.zone): string {
  const zone = usableZone(wanted);
  const abbreviation = zoneAbbreviation(date, zone);
  // "UTC" needs no "(Etc/UTC)" after it.
  return abbreviation === 'UTC' || abbreviation === zone ? abbreviation : `${abbreviation} (${zone})`;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** "UTC+05:30", "UTC−03:00", "UTC": how far a zone's clocks are from UTC at an instant. */
export function utcOffset(zone: string, date: Date = new Date()): string {
  const minutes = Math.round(offsetMs(date, zone) / 60_000);
  if (minutes === 0) return 'UTC';
  const size = Math.abs(minutes);
  return `UTC${minutes < 0 ? '−' : '+'}${pad(Math.floor(size / 60))}:${pad(size % 60)}`;
}

/** "23 Nov 2026, 19:04 CET": a time in the display zone, with its zone; the text as given when it is no time. */
export function zonedTime(value: Date | string | number, zone: string = zoneSetting.zone, withSeconds = false): string {
  const date = toDate(value);
  if (!date) return String(value);
  const f = fieldsIn(date, zone);
  const seconds = withSeconds ? `:${pad(f.second)}` : '';
  return `${f.day} ${MONTHS[f.month - 1]} ${f.year}, ${pad(f.hour)}:${pad(f.minute)}${seconds} ${zoneAbbreviation(date, zone)}`;
}

/**
 * A time as citations and exported text give it, UTC first and the display zone's time beside it:
 * "2026-11-23 18:04 UTC = 2026-11-23 19:04 CET (Europe/Paris)" (the Rust exports' form).
 */
export function citedTime(date: Date, wanted: string = zoneSetting.zone): string {
  const utc = `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
  const zone = usableZone(wanted);
  if (zoneAbbreviation(date, zone) === 'UTC') return utc;
  const f = fieldsIn(date, zone);
  return `${utc} = ${f.year}-${pad(f.month)}-${pad(f.day)} ${pad(f.hour)}:${pad(f.minute)} ${zoneAbbreviation(date, zone)} (${zone})`;
}

/** "23 Nov 2026": the calendar day of a time in the display zone. */
export function zonedDay(value: Date | string | number, zone: string = zoneSetting.zone): string {
  const date = toDate(value);
  if (!date) return String(value);
  const f = fieldsIn(date, zone);
  return `${f.day} ${MONTHS[f.month - 1]} ${f.year}`;
}

/**
 * What a hover (and a screen reader) gives for a shown time: the zoned time to the second with the
 * zone's name, and UTC. "23 Nov 2026, 19:04:12 CET (Europe/Paris) · 2026-11-23 18:04:12 UTC".
 */
export function timeTitle(value: Date | string | number, wanted: string = zoneSetting.zone): string {
  const zone = usableZone(wanted);
  const date = toDate(value);
  if (!date) return String(value);
  if (zoneAbbreviation(date, zone) === 'UTC') return exactUtc(date);
  const zoned = zonedTime(date, zone, true);
  return `${zoned}${zoned.endsWith(zone) ? '' : ` (${zone})`} · ${exactUtc(date)}`;
}

/** "2026-11-23": the display zone's calendar day of `from`, moved by `offsetDays` (Spend's ranges). */
export function zoneDay(from: Date = new Date(), offsetDays = 0, zone: string = zoneSetting.zone): string {
  const f = fieldsIn(from, zone);
  const day = new Date(Date.UTC(f.year, f.month - 1, f.day + offsetDays));
  return `${day.getUTCFullYear()}-${pad(day.getUTCMonth() + 1)}-${pad(day.getUTCDate())}`;
}

/**
 * The instants a wall-clock time (its fields read as if UTC) may be in a zone, earliest first:
 * one per offset the zone uses within a day of it, so both sides of a DST change are tried.
 */
function candidates(wall: number, zone: string): number[] {
  const offsets = new Set([-86_400_000, 0, 86_400_000].map((shift) => offsetMs(new Date(wall + shift), zone)));
  return [...offsets].map((offset) => wall - offset).sort((x, y) => x - y);
}

/**
 * When a calendar day (`YYYY-MM-DD`) begins in the display zone, as an instant: a date filter's
 * bound. A day whose midnight falls in a DST gap begins at the first time that exists.
 */
export function zoneDayStart(day: string, zone: string = zoneSetting.zone): Date | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!match) return null;
  const wall = Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
  if (new Date(wall).toISOString().slice(0, 10) !== day) return null;
  const instants = candidates(wall, zone);
  return new Date(instants.find((instant) => zoneDay(new Date(instant), 0, zone) === day) ?? wall);
}

/**
 * A wall-clock time typed in the display zone (`YYYY-MM-DDTHH:MM`, as a datetime-local picker
 * gives it) as an instant; null when unreadable. Of a time that happens twice (clocks going back)
 * the first; one that never happens (clocks going forward) is read with the offset before the change.
 */
export function zoneWallClock(local: string, zone: string = zoneSetting.zone): Date | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(local);
  if (!match) return null;
  const [year, month, day, hour, minute, second] = match.slice(1).map((n) => Number(n ?? 0)) as [number, number, number, number, number, number];
  const wall = Date.UTC(year, month - 1, day, hour, minute, second);
  if (Number.isNaN(wall) || new Date(wall).getUTCDate() !== day || hour > 23 || minute > 59 || second > 59) return null;
  const exact = candidates(wall, zone).find((instant) => instant + offsetMs(new Date(instant), zone) === wall);
  return new Date(exact ?? wall - offsetMs(new Date(wall - 86_400_000), zone));
}

/** "now", "5m", "3h", "2d", then "Mar 16" this year and "Mar 16, 2025" before (days in the display zone). */
export function relativeTime(date: Date, now: Date = new Date(), zone: string = zoneSetting.zone): string {
  const seconds = Math.round((now.getTime() - date.getTime()) / 1000);
  if (seconds < 45) return seconds < -60 ? shortDate(date, now, zone) : 'now';
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes}m`;
  const hours = Math.round(minutes / 60);
  if (hours < 24) return `${hours}h`;
  const days = Math.round(hours / 24);
  if (days < 7) return `${days}d`;
  return shortDate(date, now, zone);
}

function shortDate(date: Date, now: Date, zone: string): string {
  const at = fieldsIn(date, zone);
  const month = MONTHS[at.month - 1];
  return at.year === fieldsIn(now, zone).year ? `${month} ${at.day}` : `${month} ${at.day}, ${at.year}`;
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

/** A file's size as people read it: "512 bytes", "48 kB", "12.3 MB", "1.25 GB" (powers of 1,000). */
export function byteSize(bytes: number): string {
  if (bytes < 1000) return countOf(bytes, 'byte', 'bytes');
  if (bytes < 1_000_000) return `${Math.round(bytes / 1000)} kB`;
  if (bytes < 1_000_000_000) return `${(bytes / 1_000_000).toFixed(1)} MB`;
  return `${(bytes / 1_000_000_000).toFixed(2)} GB`;
}
