/** Why the budget warns about or blocks a request, one sentence per period that does. */
import type { CostCheck } from './bindings/CostCheck';
import type { PeriodCheck } from './bindings/PeriodCheck';
import { formatMoney } from './money';

function periodReason(name: string, period: PeriodCheck | null): string | null {
  if (!period || period.verdict === 'allow') return null;
  return `${name} budget: ${formatMoney(period.spent)} of ${formatMoney(period.limit)} spent; this would make ${formatMoney(period.after_request)}.`;
}

export function budgetReasons(check: CostCheck | null): string[] {
  if (!check) return [];
  return [periodReason('Daily', check.budget.daily), periodReason('Monthly', check.budget.monthly)].filter((reason): reason is string => reason !== null);
}
