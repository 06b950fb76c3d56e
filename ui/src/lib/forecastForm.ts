/**
 * The Forecast form and the words around an answer. The form holds the question in plain words,
 * or a title with a description, a resolution time typed in the user's own zone (YYYY-MM-DD HH:MM,
 * the app's order) and topics as chips; the rules are the request's own (lib/validate.ts), plus
 * the typed time's format, which only the form can get wrong. Times go to the service in UTC and are shown back with their zone.
 */
import type { ForecastJob } from '$lib/bindings/ForecastJob';
import type { ForecastRequest } from '$lib/bindings/ForecastRequest';
import type { ForecastState } from '$lib/bindings/ForecastState';
import type { FieldMessages } from '$lib/rules';
import { formProblems } from '$lib/validate';
import { usableZone, zoneDay, zoneLabel, zoneWallClock } from '$lib/format';
import { zoneSetting } from '$lib/displayZone.svelte';

export interface ForecastForm {
  query: string;
  title: string;
  description: string;
  /** As typed, `YYYY-MM-DD HH:MM` in the display zone (a `T` for the space is read too); empty for none. */
  cutoff: string;
  topics: string[];
}

export function emptyForm(): ForecastForm {
  return { query: '', title: '', description: '', cutoff: '', topics: [] };
}

/** The typed time (in the display zone) as the service takes it: `2027-03-01T08:30:00Z`, or null if unreadable. */
export function localToUtc(local: string, zone: string = zoneSetting.zone): string | null {
  const date = zoneWallClock(local.trim().replace(/^(\d{4}-\d{2}-\d{2}) +/, '$1T'), zone);
  return date ? `${date.toISOString().slice(0, 19)}Z` : null;
}

/** `2027-03-01T08:30:00Z` as typed in the form in the display zone: `2027-03-01 09:30` (Paris); '' if unreadable. */
export function utcToLocal(utc: string, zone: string = zoneSetting.zone): string {
  const date = new Date(utc);
  if (Number.isNaN(date.getTime())) return '';
  const clock = new Intl.DateTimeFormat('en-GB', { timeZone: usableZone(zone), hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(date);
  return `${zoneDay(date, 0, zone)} ${clock}`;
}

/**
 * The form as an earlier forecast asked it (its History row's parameters), so the question box
 * shows the forecast opened, not the last one typed; an empty form if they cannot be read.
 */
export function formFromParams(paramsJson: string, zone: string = zoneSetting.zone): ForecastForm {
  try {
    const asked = JSON.parse(paramsJson) as Partial<Record<keyof ForecastRequest, unknown>>;
    const text = (value: unknown) => (typeof value === 'string' ? value : '');
    return {
      query: text(asked.query),
      title: text(asked.title),
      description: text(asked.description),
      cutoff: typeof asked.cutoff === 'string' ? utcToLocal(asked.cutoff, zone) : '',
      topics: Array.isArray(asked.topics) ? asked.topics.filter((topic): topic is string => typeof topic === 'string') : [],
    };
  } catch {
    return emptyForm();
  }
}

export function toRequest(form: ForecastForm): ForecastRequest {
  const text = (value: string) => value.trim() || null;
  const cutoff = form.cutoff.trim();
  return {
    query: text(form.query),
    title: text(form.title),
    description: text(form.description),
    // An unreadable time is sent to the check as typed (validate() says how to write it).
    cutoff: cutoff ? (localToUtc(cutoff) ?? cutoff) : null,
    topics: form.topics,
    agent_version_id: null,
  };
}

export function validate(form: ForecastForm): FieldMessages {
  const problems = formProblems('forecast', toRequest(form));
  const cutoff = form.cutoff.trim();
  // The service's rule speaks of UTC (2027-03-01T00:00:00Z); the field is typed in the user's zone.
  if (cutoff && !localToUtc(cutoff)) problems.cutoff = `Write the time as YYYY-MM-DD HH:MM, for example 2027-03-01 09:30 (you entered "${cutoff}").`;
  return problems;
}

/** Adds a topic typed in the chip field (trimmed, once); returns the new list. */
export function addTopic(topics: string[], typed: string): string[] {
  const topic = typed.trim().replace(/,+$/, '').trim();
  return topic && !topics.some((t) => t.toLowerCase() === topic.toLowerCase()) ? [...topics, topic] : topics;
}

/** The display zone (Settings → Preferences) as the other screens name it: "UTC", "CET (Europe/Paris)". */
export function displayZone(): string {
  return zoneLabel(new Date(), zoneSetting.zone);
}


/** 0.25 → "25%"; one decimal only below 1% and above 99%. */
export function percent(p: number): string {
  const value = p * 100;
  return value < 1 || value > 99 ? `${value.toFixed(1)}%` : `${Math.round(value)}%`;
}

/**
 * A probability in plain words, how likely first and then as odds a reader can picture:
 * 0.06 → "very unlikely (about 1 in 17)", 0.25 → "unlikely (about 1 in 4)", 0.5 → "as likely as
 * not", 0.8 → "likely (about 4 in 5)", 0.97 → "very likely (about 1 in 33 that it does not
 * happen)".
 */
export function plainOdds(p: number): string {
  if (!(p >= 0 && p <= 1)) return '';
  if (Math.abs(p - 0.5) < 0.06) return 'as likely as not';
  if (p < 0.1) return `very unlikely (about 1 in ${Math.round(1 / Math.max(p, 0.001))})`;
  if (p > 0.9) return `very likely (about 1 in ${Math.round(1 / Math.max(1 - p, 0.001))} that it does not happen)`;
  return `${p < 0.5 ? 'unlikely' : 'likely'} (${nearestFraction(p)})`;
}

/** "about 3 in 10": the nearest fraction people count in (thirds, quarters, fifths, tenths; halves are "as likely as not"). */
function nearestFraction(p: number): string {
  let best = { top: 1, bottom: 3, gap: Infinity };
  for (const bottom of [3, 4, 5, 10]) {
    const top = Math.round(p * bottom);
    const gap = Math.abs(p - top / bottom);
    if (top > 0 && top < bottom && gap < best.gap - 1e-9) best = { top, bottom, gap };
  }
  return `about ${best.top} in ${best.bottom}`;
}

/** The job's state in the screen's words. */
export const stateNames: Record<ForecastState, string> = {
  PENDING: 'Waiting',
  RUNNING: 'Running',
  COMPLETED: 'Done',
  FAILED: 'Failed',
  OTHER: 'Running',
};

/** "42 s", "3 min 05 s": time since the forecast was asked. */
export function elapsed(ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  if (seconds < 60) return `${seconds} s`;
  return `${Math.floor(seconds / 60)} min ${String(seconds % 60).padStart(2, '0')} s`;
}

/** A stored answer read as a forecast's job (the 202's or a poll's), or null when it is not one. */
export function forecastJob(body: unknown): ForecastJob | null {
  if (!body || typeof body !== 'object' || !('prediction_id' in body) || !('status' in body)) return null;
  const job = body as Partial<ForecastJob>;
  return { prediction_id: String(job.prediction_id), status: job.status ?? 'OTHER', created_at: job.created_at ?? null, result: job.result ?? null, error: job.error ?? null };
}
