import { describe, expect, it } from 'vitest';
import { countError } from './countField';

describe('countError', () => {
  it('accepts whole numbers from 1 to 100 only', () => {
    expect(countError('1')).toBeNull();
    expect(countError(' 100 ')).toBeNull();
    for (const bad of ['0', '101', '', '2.5', '-3', 'ten']) expect(countError(bad)).toBe('Choose a number from 1 to 100.');
  });
});
