import { describe, expect, it } from 'vitest';
import { ownerName } from './spendWords';

describe('Spend by monitor and collection', () => {
  it('names a line by its monitor or collection, a deleted one by its number', () => {
    const line = { key: '12', cost: '0.1', requests: 3, usage_count: 9 };
    expect(ownerName({ ...line, label: 'Climate' }, 'monitor')).toBe('Climate');
    expect(ownerName(line, 'monitor')).toBe('A deleted monitor (no. 12)');
    expect(ownerName(line, 'collection')).toBe('A deleted collection (no. 12)');
  });
});
