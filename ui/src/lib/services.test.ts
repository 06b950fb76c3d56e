import { describe, expect, it } from 'vitest';
import { serviceName } from './services';

describe('service names', () => {
  it('names the price lists in words, and an unknown one as sent', () => {
    expect(serviceName('x')).toBe('X searches and lookups');
    expect(serviceName('ai_links_x')).toBe('AI X links');
    expect(serviceName('premium_x')).toBe('premium_x');
    expect(serviceName('')).toBe('Service not named');
  });
});
