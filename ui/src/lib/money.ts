/**
 * Money arrives from Rust as exact decimal strings ("0.00015"). We format the string itself and
 * never parse it into a float, so what the user sees is exactly what the ledger holds.
 */

const DECIMAL = /^(-)?(\d+)(?:\.(\d+))?$/;

/** Currency symbols we can show in front of the amount; others are written after it ("1.00 EUR"). */
const SYMBOLS: Record<string, string> = { USD: '$' };

/**
 * "0.006" → "$0.006", "1234.5" → "$1,234.50", "0.00015" → "$0.00015".
 * At least two decimals, and as many more as the amount needs (trailing zeros beyond two dropped).
 * Text that is not a plain decimal is shown as it came, so nothing is silently invented.
 */
export function formatMoney(amount: string, currency = 'USD'): string {
  const match = DECIMAL.exec(amount.trim());
  if (!match) return currency === 'USD' ? `$${amount}` : `${amount} ${currency}`;
  const [, sign = '', whole = '0', fraction = ''] = match;
  const wholeDigits = whole.replace(/^0+(?=\d)/, '');
  const trimmed = fraction.replace(/0+$/, '');
  const decimals = trimmed.length >= 2 ? trimmed : trimmed.padEnd(2, '0');
  const grouped = wholeDigits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const isZero = /^0*$/.test(wholeDigits) && /^0*$/.test(fraction);
  const number = `${isZero ? '' : sign}${grouped}.${decimals}`;
  const symbol = SYMBOLS[currency];
  if (symbol) return number.startsWith('-') ? `-${symbol}${number.slice(1)}` : `${symbol}${number}`;
  return `${number} ${currency}`;
}
