import { describe, expect, it } from 'vitest';
import { addMoney, costAsSent, formatCharge, formatMoney, formatSpent, isDecimal, percentOf, shareWords } from './money';

describe('formatMoney', () => {
  it('keeps every digit the service sent', () => {
    expect(formatMoney('0.00015')).toBe('$0.00015');
    expect(formatMoney('0.000150')).toBe('$0.00015');
    expect(formatMoney('12.3456789012')).toBe('$12.3456789012');
  });

  it('shows at least cents, with thousands separated', () => {
    expect(formatMoney('0')).toBe('$0.00');
    expect(formatMoney('4.5')).toBe('$4.50');
    expect(formatMoney('1234567.1')).toBe('$1,234,567.10');
  });

  it('names currencies it has no symbol for', () => {
    expect(formatMoney('2.5', 'CHF')).toBe('2.50 CHF');
  });
});

describe('budget helpers', () => {
  it('computes progress only against a positive limit', () => {
    expect(percentOf('2.5', '10')).toBe(25);
    expect(percentOf('1', null)).toBeNull();
    expect(percentOf('1', '0')).toBeNull();
    // An overrun is told as it is, never clipped at 999%.
    expect(percentOf('120', '10')).toBe(1200);
    expect(shareWords(percentOf('2.5', '10')!)).toBe('25%');
    expect(shareWords(percentOf('25', '10')!)).toBe('250%');
    expect(shareWords(percentOf('99.9', '10')!)).toBe('999%');
    expect(shareWords(percentOf('120', '10')!)).toBe('12× the limit');
    expect(shareWords(percentOf('12345', '10')!)).toBe('1234× the limit');
  });

  it('accepts plain decimals only', () => {
    expect(isDecimal('5')).toBe(true);
    expect(isDecimal('0.25')).toBe(true);
    expect(isDecimal('-1')).toBe(false);
    expect(isDecimal('1e3')).toBe(false);
  });
});

describe('formatMoney keeps what a float would lose', () => {
  it('keeps every decimal the amount needs, exactly as sent', () => {
    expect(formatMoney('0.006')).toBe('$0.006');
    expect(formatMoney('0.000000001')).toBe('$0.000000001');
    expect(formatMoney('3.100')).toBe('$3.10');
  });

  it('does not lose digits beyond what a double holds', () => {
    expect(formatMoney('0.30000000000000000001')).toBe('$0.30000000000000000001');
    expect(formatMoney('123456789012345678.99')).toBe('$123,456,789,012,345,678.99');
  });
});

describe('addMoney', () => {
  it('adds decimal strings exactly, where floats would not', () => {
    expect(addMoney('0.1', '0.2')).toBe('0.3');
    expect(addMoney('0.006', '0.0003')).toBe('0.0063');
    expect(addMoney('0', '0.00015')).toBe('0.00015');
    expect(addMoney('1.50', '2.5')).toBe('4');
    expect(addMoney('999.999', '0.001')).toBe('1000');
  });

  it('keeps refunds (negative amounts) right', () => {
    expect(addMoney('0.01', '-0.02')).toBe('-0.01');
    expect(addMoney('-0.5', '0.5')).toBe('0');
  });
});

describe('a charge as the service stated it', () => {
  it('shows the amount, or "cost unreadable" for a cost that is no number: never zero', () => {
    expect(formatCharge({ cost: '0.000105', currency: 'USD' })).toBe('$0.000105');
    expect(formatCharge({ cost: null, currency: 'USD' })).toBe('cost unreadable');
  });

  it('gives the text as sent only where it says more than the amount', () => {
    expect(costAsSent({ cost: '0.000105', cost_text: '0.00010499999999999999', currency: 'USD' })).toBe('0.00010499999999999999');
    expect(costAsSent({ cost: '0.000015', cost_text: '1.5e-05', currency: 'USD' })).toBe('1.5e-05');
    expect(costAsSent({ cost: null, cost_text: 'n/a', currency: 'USD' })).toBe('n/a');
    expect(costAsSent({ cost: null, cost_text: '', currency: 'USD' })).toBe('(none given)');
    expect(costAsSent({ cost: '0.006', cost_text: '0.006', currency: 'USD' })).toBeNull();
    expect(costAsSent({ cost: '0.006', cost_text: null, currency: 'USD' })).toBeNull();
    expect(costAsSent({ cost: '0.006', currency: 'USD' })).toBeNull();
  });

  it('adds the pages whose cost could not be read beside a sum, not into it', () => {
    expect(formatSpent('0.0063', 'USD', 0)).toBe('$0.0063');
    expect(formatSpent('0.0063', 'USD', 2)).toBe('$0.0063 + 2 unreadable');
  });
});
