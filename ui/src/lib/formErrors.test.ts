import { describe, expect, it } from 'vitest';
import { describedBy } from './formErrors';

describe('describedBy', () => {
  it('names the hint, and the error only while it is shown', () => {
    expect(describedBy('key-hint', false)).toBe('key-hint');
    expect(describedBy('key-hint', 'key-error')).toBe('key-hint key-error');
    expect(describedBy(undefined, null, '')).toBeUndefined();
  });
});
