import { afterEach, describe, expect, it } from 'vitest';
import { clearMocks, mockIPC } from '@tauri-apps/api/mocks';
import type { HistoryEntry } from '$lib/bindings/HistoryEntry';
import type { HistoryQuery } from '$lib/bindings/HistoryQuery';
import { HistoryView, PAGE } from './historyView.svelte';

function entry(id: number, operation = 'twitter_search'): HistoryEntry {
  return {
    id,
    request_id: `r${id}`,
    started_at: '2026-11-01T10:00:00Z',
    operation,
    params_json: '{"query":"climate"}',
    key_label: 'work',
    mode: 'live',
    status: 'ok',
    error_class: null,
    error_message: null,
    duration_ms: 1200,
    result_count: 2,
    billing: null,
    cursor: null,
    next_cursor: null,
    parent_id: null,
    pinned: false,
    has_result: true,
    origin: null,
  };
}

afterEach(() => clearMocks());

describe('HistoryView', () => {
  it('keeps the rows of the latest query when an earlier answer arrives after it', async () => {
    const answers: Array<{ query: Partial<HistoryQuery>; answer: (rows: HistoryEntry[]) => void }> = [];
    mockIPC((cmd, args) => {
      if (cmd === 'history_list') {
        const query = (args as { query: Partial<HistoryQuery> }).query;
        return new Promise((resolve) => answers.push({ query, answer: (rows) => resolve({ entries: rows, total: rows.length }) }));
      }
      return [];
    });
    const view = new HistoryView(() => 7);
    const first = view.reload();
    view.operation = 'web_search';
    const second = view.reload();
    expect(answers.map(({ query }) => [query.operation, query.investigation_id, query.offset, query.limit])).toEqual([
      [null, 7, 0, PAGE],
      ['web_search', 7, 0, PAGE],
    ]);
    answers[1]!.answer([entry(2, 'web_search')]);
    await second;
    answers[0]!.answer([entry(3), entry(2, 'web_search'), entry(1)]);
    await first;
    expect(view.total).toBe(1);
    expect(view.rowAt(0)?.id).toBe(2);
    expect(view.rowAt(1)).toBeUndefined();
    expect(view.loaded).toBe(true);
  });

  it('moves the selection row by row and asks for the display zone days, the last one whole', async () => {
    mockIPC((cmd) => (cmd === 'history_list' ? { entries: [entry(3), entry(2), entry(1)], total: 3 } : []));
    const view = new HistoryView(() => null);
    await view.reload();
    view.select(view.rowAt(0)!);
    expect(view.step(1)).toMatchObject({ index: 1, entry: { id: 2 } });
    expect(view.selected?.id).toBe(2);
    expect(view.step(-2)).toBeNull();
    expect(view.selected?.id).toBe(2);

    view.fromDay = '2026-11-01';
    view.toDay = '2026-11-02';
    const { from, to } = view.query();
    // The display zone here is UTC: the range ends where the day after the last one starts.
    expect([from, to]).toEqual(['2026-11-01T00:00:00.000Z', '2026-11-03T00:00:00.000Z']);
    expect(view.filtered).toBe(true);
  });
  it('asks for a page after the last row of the page before it, unless that page is of an older query', async () => {
    const queries: Array<Partial<HistoryQuery>> = [];
    mockIPC((cmd, args) => {
      if (cmd !== 'history_list') return [];
      const query = (args as { query: Partial<HistoryQuery> }).query;
      queries.push(query);
      const first = (query.offset ?? 0) === 0 ? 1000 : 500;
      return { entries: Array.from({ length: PAGE }, (_, n) => entry(first - n)), total: 2 * PAGE };
    });
    const view = new HistoryView(() => null);
    await view.reload();
    await view.loadPage(1);
    expect(queries.map((q) => [q.offset, q.after])).toEqual([
      [0, null],
      [PAGE, 1000 - PAGE + 1],
    ]);
    expect(view.rowAt(PAGE)?.id).toBe(500);

    // A new query: until its first page is here, the next page is asked for by offset.
    view.operation = 'web_search';
    const reloaded = view.reload();
    await view.loadPage(1);
    await reloaded;
    expect(queries.slice(2).map((q) => [q.operation, q.offset, q.after])).toEqual([
      ['web_search', 0, null],
      ['web_search', PAGE, null],
    ]);
  });
});
