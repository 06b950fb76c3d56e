/** The Collect dialog's choice of when a collection stops, the form's own checks of it, and its cost in words. */
import type { CollectionSource } from './bindings/CollectionSource';
import { collectionLimits } from './bindings/limits';
import type { CostCheck } from './bindings/CostCheck';
import { countOf } from './format';
import { formatMoney } from './money';
import { dayMessage, isDay } from './rules';

/** Distinct posts (or accounts) a collection asks for, and its words: the core's (generated from crates/core/src/collections.rs). */
export const COLLECT_LIMITS = collectionLimits;

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
    if (!/^\d+$/.test(text) || value < min || value > max) return COLLECT_LIMITS.itemsMessage;
  }
  if (form.kind === 'date') {
    const day = form.date.trim();
    if (!day) return COLLECT_LIMITS.dateMissing;
    if (!isDay(day)) return dayMessage(day);
  }
  return null;
}

/** The singular of what the Collect dialog collects. */
const ONE: Record<string, string> = { posts: 'post', replies: 'reply', accounts: 'account' };

/**
 * The Collect dialog's cost before it starts, in words. The figure is the core's
 * (`collection_estimate`, by the monitor form's rule: the rate the service charged the latest
 * request of this kind, times the posts); a date or the end is priced per the core's
 * `ESTIMATE_PER` posts (the estimate's `units`), since how many there are cannot be known before.
 */
export function collectCostWords(check: CostCheck, kind: UntilForm['kind'], noun: string): { cost: string; budget: string | null } {
  const { amount, currency, units } = check.estimate;
  let cost: string;
  if (amount === null) {
    cost = 'Cost: unknown until a rate is learned (after the first request of this kind is billed).';
  } else if (kind === 'count') {
    cost = `Estimated cost: about ${formatMoney(amount, currency)} for ${countOf(units ?? 0, ONE[noun] ?? noun, noun)}, at the rate the service charged for your latest request of this kind; less if it runs out of ${noun} sooner.`;
  } else {
    const reach = kind === 'date' ? 'back to that day' : 'to the end';
    cost = `Estimated cost: about ${formatMoney(amount, currency)} per ${(units ?? 0).toLocaleString('en')} ${noun}, at the rate the service charged for your latest request of this kind. The total depends on how many there are ${reach}, which cannot be known before.`;
  }
  const verdict = check.budget.verdict;
  const budget =
    verdict === 'block'
      ? kind === 'count'
        ? 'At this estimate the budget would stop it before it finishes: it stops when its next page would go over.'
        : 'The budget would stop it now: its first pages would go over.'
      : verdict === 'warn'
        ? 'Near the budget’s limit: it will pause for your confirmation when a page passes the warning.'
        : null;
  return { cost, budget };
}

/** Said when an X search sorted by Top is collected: a collection pages back in time. */
export function sortNote(source: CollectionSource): string | null {
  if (source.kind !== 'search' || source.request.sort !== 'Top') return null;
  return 'This search is sorted by Top, but a collection goes back in time page by page, so it collects the newest posts first (as Latest does), not the top ones.';
}
