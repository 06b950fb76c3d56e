import { describe, expect, it, vi } from 'vitest';
import { Pager } from './pager.svelte';
import type { CommandError } from './bindings/CommandError';
import type { Outcome } from './bindings/Outcome';
import type { SendOptions } from './ipc';
import { outcome } from '../test/backend';

type Page = { users: { id: string }[] };

function page(ids: string[], historyId: number, hasMore: boolean, cost: string | null = '0.006'): Outcome<Page> {
  return outcome({ users: ids.map((id) => ({ id })) }, historyId, { cost, hasMore });
}

const rateLimited: CommandError = {
  kind: 'service',
  message: 'Too many requests.',
  error: { kind: 'rate_limited', message: 'slow down', fields: [], retry_after_secs: 30, status: 429, received_events: null },
};

function pager(first: (options: SendOptions) => Promise<Outcome<Page>>, next: (historyId: number, options: SendOptions) => Promise<Outcome<Page>>) {
  return new Pager<Page, { id: string }>(first, next, (body) => body.users, (user) => user.id);
}

describe('Pager', () => {
  it('pages on from the previous page’s history id and stops at the last page', async () => {
    const first = vi.fn(async () => page(['a', 'b'], 10, true));
    const next = vi.fn(async (historyId: number) => (historyId === 10 ? page(['c', 'd'], 11, true) : page(['e'], 12, false, null)));
    const list = pager(first, next);
    await list.start();
    await list.more();
    await list.more();
    await list.more();
    expect(first).toHaveBeenCalledTimes(1);
    expect(next.mock.calls.map(([historyId]) => historyId)).toEqual([10, 11]);
    expect(list.items.map((user) => user.id)).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(list.pages).toBe(3);
    expect(list.hasMore).toBe(false);
    // Exact sum of the billed pages; the third came from the local copy, free.
    expect(list.spent).toBe('0.012');
    expect(list.freePages).toBe(1);
  });

  it('counts a page billed at a cost that is no number beside the sum, never as zero', async () => {
    const odd = page(['c'], 11, false);
    odd.billing = { cost: null, cost_text: 'n/a', usage_count: 1, service: 'x', currency: 'USD' };
    const list = pager(async () => page(['a', 'b'], 10, true), async () => odd);
    await list.start();
    await list.more();
    expect(list.spent).toBe('0.006');
    expect(list.unreadable).toBe(1);
    expect(list.freePages).toBe(0);
  });

  it('keeps the loaded pages when a later one fails, and retries that page as a new request', async () => {
    const next = vi.fn<(historyId: number, options: SendOptions) => Promise<Outcome<Page>>>()
      .mockRejectedValueOnce(rateLimited)
      .mockResolvedValueOnce(page(['c'], 11, false));
    const list = pager(async () => page(['a', 'b'], 10, true), next);
    await list.start();
    await list.more();
    expect(list.error).toEqual(rateLimited);
    expect(list.items).toHaveLength(2);
    // Infinite scroll must not hammer a rate-limited service: more() waits for Retry.
    await list.more();
    expect(next).toHaveBeenCalledTimes(1);
    await list.retry();
    expect(next).toHaveBeenCalledTimes(2);
    expect(next.mock.calls[1]?.[0]).toBe(10);
    expect(next.mock.calls[1]?.[1].requestId).not.toBe(next.mock.calls[0]?.[1].requestId);
    expect(list.error).toBeNull();
    expect(list.items.map((user) => user.id)).toEqual(['a', 'b', 'c']);
  });

  it('resends the same request, confirmed, when the user accepts a budget warning', async () => {
    const warning: CommandError = {
      kind: 'budget_warning',
      message: 'Near your daily limit.',
      check: { verdict: 'warn', estimate: '0.006', warn_percent: 80, daily: null, monthly: null },
    };
    const first = vi.fn<(options: SendOptions) => Promise<Outcome<Page>>>()
      .mockRejectedValueOnce(warning)
      .mockResolvedValueOnce(page(['a'], 10, false));
    const list = pager(first, vi.fn());
    await list.start();
    expect(list.error?.kind).toBe('budget_warning');
    await list.confirm();
    expect(first.mock.calls[1]?.[0]).toEqual({ requestId: first.mock.calls[0]?.[0].requestId, confirmBudget: true });
    expect(list.items).toHaveLength(1);
  });

  it('shows an account repeated across pages once', async () => {
    const list = pager(async () => page(['a', 'b'], 10, true), async () => page(['b', 'c'], 11, false));
    await list.start();
    await list.more();
    expect(list.items.map((user) => user.id)).toEqual(['a', 'b', 'c']);
  });

  it('asks for one page at a time', async () => {
    let resolve: (outcome: Outcome<Page>) => void = () => {};
    const next = vi.fn(() => new Promise<Outcome<Page>>((done) => (resolve = done)));
    const list = pager(async () => page(['a'], 10, true), next);
    await list.start();
    const loading = list.more();
    void list.more();
    expect(next).toHaveBeenCalledTimes(1);
    resolve(page(['b'], 11, false));
    await loading;
    expect(list.busy).toBe(false);
  });
});
