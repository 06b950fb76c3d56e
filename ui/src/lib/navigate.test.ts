import { describe, expect, it } from 'vitest';
import { askHref, hashParams, investigationHref, openPost, openUser, postHref, takeHandedQuery, userHref } from './navigate';
import { screenFromHash } from './screens';

describe('navigate', () => {
  it('builds detail-view hashes that read back to the same values', () => {
    expect(postHref('1890000000000000001')).toBe('#/post?id=1890000000000000001');
    expect(hashParams(postHref('12&x=1')).get('id')).toBe('12&x=1');
    expect(userHref('@ana_reports')).toBe('#/user?handle=ana_reports');
    expect(hashParams(userHref('a b')).get('handle')).toBe('a b');
    expect(investigationHref(7)).toBe('#/investigations?id=7');
    expect(screenFromHash(investigationHref(7)).id).toBe('investigations');
  });

  it('opens the post and user views through the hash', () => {
    openPost('42');
    expect(window.location.hash).toBe('#/post?id=42');
    expect(screenFromHash(window.location.hash).id).toBe('post');
    openUser('@ana');
    expect(window.location.hash).toBe('#/user?handle=ana');
    expect(screenFromHash(window.location.hash).id).toBe('user');
  });

  it('hands a query to the screen it names, once', () => {
    window.location.hash = askHref('Why is #Eclipse2026 trending?');
    expect(takeHandedQuery('x')).toBeNull();
    expect(window.location.hash).toBe(askHref('Why is #Eclipse2026 trending?'));
    expect(takeHandedQuery('ask')).toBe('Why is #Eclipse2026 trending?');
    expect(window.location.hash).toBe('#/ask');
    expect(takeHandedQuery('ask')).toBeNull();
  });
});
