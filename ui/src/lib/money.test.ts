import { describe, expect, it } from 'vitest';
import { formatMoney } from './money';

describe('formatMoney', () => {
  it('keeps every decimal the amount needs, exactly as sent', () => {
    expect(formatMoney('0.006')).toBe('$0.006');
    expect(formatMoney('0.00015')).toBe('$0.00015');
    expect(formatMoney('0.000000001')).toBe('$0.000000001');
    expect(formatMoney('0.1')).toBe('$0.10');
    expect(formatMoney('2')).toBe('$2.00');
    expect(formatMoney('3.100')).toBe('$3.10');
  });

  it('does not lose digits that a float would', () => {
    // 0.1 + 0.2 style amounts and more digits than a double holds stay exact.
    expect(formatMoney('0.30000000000000000001')).toBe('$0.30000000000000000001');
    expect(formatMoney('123456789012345678.99')).toBe('$123,456,789,012,345,678.99');
  });

  it('groups thousands and handles signs and other currencies', () => {
    expect(formatMoney('1234.5')).toBe('$1,234.50');
    expect(formatMoney('-0.25')).toBe('-$0.25');
    expect(formatMoney('-0.000')).toBe('$0.00');
    expect(formatMoney('1.5', 'EUR')).toBe('1.50 EUR');
  });

  it('shows unexpected text as it came rather than inventing a number', () => {
    expect(formatMoney('abc')).toBe('$abc');
  });
});
