/**
 * Money as the service sends it: a decimal string. It is only ever formatted as text, never
 * turned into a binary float, so "0.00015" stays "$0.00015" to the last digit.
 */

const symbols: Record<string, string> = { USD: '$', EUR: '€', GBP: '£' };

/** `"1234.5"` → `"$1,234.50"`, `"0.00015"` → `"$0.00015"`: at least two decimals, no trailing zeros beyond. */
export function formatMoney(amount: string, currency = 'USD'): string {
  const trimmed = amount.trim();
  const match = /^(-?)(\d*)(?:\.(\d*))?$/.exec(trimmed);
  if (!match) return `${trimmed} ${currency}`;
  const [, sign = '', whole = '', fraction = ''] = match;
  const digits = (whole.replace(/^0+(?=\d)/, '') || '0').replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const decimals = fraction.replace(/0+$/, '').padEnd(2, '0');
  const symbol = symbols[currency];
  const isZero = /^[0,]+$/.test(digits) && /^0*$/.test(decimals);
  const shownSign = sign && !isZero ? '−' : '';
  return symbol ? `${shownSign}${symbol}${digits}.${decimals}` : `${shownSign}${digits}.${decimals} ${currency}`;
}

/** A charge as the service stated it: its amount (rounded to the nano-dollar) and its text as sent. */
export type StatedCost = { cost: string | null; cost_text?: string | null; currency: string };

/**
 * What an answer cost, in words: its amount, or "cost unreadable" when the service's cost was
 * not a number (such a charge is counted apart in Spend, never as zero).
 */
export function formatCharge(charge: StatedCost): string {
  return charge.cost === null ? 'cost unreadable' : formatMoney(charge.cost, charge.currency);
}

/** A total over pages: its sum, and how many pages' cost could not be read (not in the sum). */
export function formatSpent(spent: string, currency: string, unreadable: number): string {
  const sum = formatMoney(spent, currency);
  return unreadable > 0 ? `${sum} + ${unreadable} unreadable` : sum;
}

/**
 * The cost exactly as the service wrote it, when that differs from the amount recorded (a float's
 * `0.00010499999999999999`, recorded as `0.000105`; `1.5e-05`; any text that is not a number).
 * Null when they are the same text, or the text was not kept.
 */
export function costAsSent(charge: StatedCost): string | null {
  const text = charge.cost_text ?? null;
  if (text === null || text === charge.cost) return null;
  return text === '' ? '(none given)' : text;
}

/**
 * How far `spent` is through `limit`, in percent, for a progress bar and words only (never
 * summed or stored), however far past the limit. Null when there is no positive limit.
 */
export function percentOf(spent: string, limit: string | null): number | null {
  if (limit === null) return null;
  const limitValue = Number(limit);
  if (!(limitValue > 0)) return null;
  return Math.round((Number(spent) / limitValue) * 100);
}

/**
 * A budget's share in words: "42%", "250%"; from ten times the limit on, the multiple
 * ("12× the limit"), which reads at a glance where "1200%" does not, and never clips as a
 * capped percentage did ("999%" for any overrun past it).
 */
export function shareWords(percent: number): string {
  return percent < 1000 ? `${percent}%` : `${Math.floor(percent / 100)}× the limit`;
}

/** Whether a budget field's text is a plain non-negative decimal ("", "5", "0.25"). */
export function isDecimal(text: string): boolean {
  return /^\d+(\.\d+)?$/.test(text.trim());
}

/**
 * The exact sum of two decimal strings (`"0.006" + "0.0003"` → `"0.0063"`), for totals over
 * pages the UI adds up itself. Integer arithmetic on the digits: no float ever rounds a cent.
 */
export function addMoney(a: string, b: string): string {
  const parse = (text: string) => {
    const match = /^(-?)(\d*)(?:\.(\d*))?$/.exec(text.trim());
    if (!match) throw new Error(`Not a decimal amount: ${text}`);
    const [, sign = '', whole = '', fraction = ''] = match;
    return { negative: sign === '-', digits: `${whole || '0'}${fraction}`, scale: fraction.length };
  };
  const x = parse(a);
  const y = parse(b);
  const scale = Math.max(x.scale, y.scale);
  const scaled = (n: { negative: boolean; digits: string; scale: number }) =>
    (n.negative ? -1n : 1n) * BigInt(n.digits) * 10n ** BigInt(scale - n.scale);
  const sum = scaled(x) + scaled(y);
  const negative = sum < 0n;
  const digits = (negative ? -sum : sum).toString().padStart(scale + 1, '0');
  const whole = digits.slice(0, digits.length - scale);
  const fraction = digits.slice(digits.length - scale).replace(/0+$/, '');
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}
