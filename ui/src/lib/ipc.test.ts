import { describe, expect, it } from 'vitest';
import { mockIPC } from '@tauri-apps/api/mocks';
import { asCommandError, historyList, twitterSearch } from './ipc';

describe('ipc', () => {
  it('sends each operation with its request and a fresh request id', async () => {
    const calls: Array<{ cmd: string; args: unknown }> = [];
    mockIPC((cmd, args) => {
      calls.push({ cmd, args });
      return { historyId: 1, body: [], billing: null, fromCache: false, replayed: false, hasMore: false };
    });
    await twitterSearch({ query: 'rain' } as never);
    await twitterSearch({ query: 'rain' } as never, { requestId: 'fixed', confirmBudget: true });
    expect(calls[0]?.cmd).toBe('twitter_search');
    const first = calls[0]?.args as { request: unknown; send: { requestId: string; confirmBudget: boolean } };
    expect(first.request).toEqual({ query: 'rain' });
    expect(first.send.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(first.send.confirmBudget).toBe(false);
    expect((calls[1]?.args as { send: unknown }).send).toEqual({ requestId: 'fixed', confirmBudget: true });
  });

  it('passes history filters through as the query', async () => {
    let seen: unknown;
    mockIPC((_cmd, args) => {
      seen = args;
      return { entries: [], total: 0 };
    });
    await historyList({ operation: 'twitter_search' });
    expect(seen).toEqual({ query: { operation: 'twitter_search' } });
  });

  it('keeps structured command errors and wraps anything else', () => {
    const structured = { kind: 'invalid', message: 'Check count', fields: [] };
    expect(asCommandError(structured)).toBe(structured);
    expect(asCommandError(new Error('boom'))).toEqual({ kind: 'internal', message: 'boom' });
  });
});
