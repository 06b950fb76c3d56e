/** The Collect dialog's choice of when a collection stops, and the form's own checks of it. */
import { dayMessage, isDay } from './rules';

export const COLLECT_LIMITS = {
  /** Distinct posts (or accounts) a collection asks for: at least one page's worth, at most 100,000. */
  items: { min: 1, max: 100_000 },
} as const;

export interface UntilForm {
  kind: 'count' | 'date' | 'end';
  /** The number, as typed. */
  items: string;
  /** `YYYY-MM-DD`, as typed in the date field. */
  date: string;
}

/** What is wrong with the choice, in words; null when it can start. */
export function untilProblem(form: UntilForm): string | null {
  if (form.kind === 'count') {
    const text = form.items.trim();
    const { min, max } = COLLECT_LIMITS.items;
    const value = Number(text);
    if (!/^\d+$/.test(text) || value < min || value > max) return `Choose a number from ${min} to ${max.toLocaleString('en')}.`;
  }
  if (form.kind === 'date') {
    const day = form.date.trim();
    if (!day) return 'Type the oldest day to collect, as YYYY-MM-DD.';
    if (!isDay(day)) return dayMessage(day);
  }
  return null;
}
