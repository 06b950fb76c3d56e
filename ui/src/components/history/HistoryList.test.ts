import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import { emit } from '@tauri-apps/api/event';
import { mockIPC } from '@tauri-apps/api/mocks';
import History from './HistoryList.svelte';
import type { HistoryEntry } from '$lib/bindings/HistoryEntry';
import type { HistoryQuery } from '$lib/bindings/HistoryQuery';
import type { HistoryCapture } from '$lib/bindings/HistoryCapture';
import { holdable, mockBackend } from '../../test/backend';

// jsdom lays nothing out: give the scrolling list a size so the virtualiser shows rows.
const sizes = { clientHeight: 600, clientWidth: 900 } as const;
const saved = Object.fromEntries(
  Object.keys(sizes).map((name) => [name, Object.getOwnPropertyDescriptor(Element.prototype, name)]),
);
beforeAll(() => {
  // jsdom has <dialog> but not its modal methods.
  HTMLDialogElement.prototype.showModal ??= function (this: HTMLDialogElement) {
    this.open = true;
  };
  for (const [name, value] of Object.entries(sizes)) {
    Object.defineProperty(Element.prototype, name, { configurable: true, get: () => value });
  }
});
afterAll(() => {
  for (const [name, descriptor] of Object.entries(saved)) {
    if (descriptor) Object.defineProperty(Element.prototype, name, descriptor);
  }
});

function entry(id: number, operation: string, params: object, overrides: Partial<HistoryEntry> = {}): HistoryEntry {
  return {
    id,
    request_id: `r${id}`,
    started_at: `2026-11-${String(id).padStart(2, '0')}T10:00:00Z`,
    operation,
    params_json: JSON.stringify(params),
    key_label: 'work',
    mode: 'live',
    status: 'ok',
    error_class: null,
    error_message: null,
    duration_ms: 1200,
    result_count: 2,
    billing: { cost: '0.0006', cost_text: '0.0006', usage_count: 2, service: 'twitter', currency: 'USD' },
    cursor: null,
    next_cursor: null,
    parent_id: null,
    pinned: false,
    has_result: true,
    origin: null,
    ...overrides,
  };
}

const rows = [
  entry(3, 'twitter_search', { query: 'climate', count: 2 }),
  entry(2, 'web_search', { query: 'solar', start: 0 }, { billing: { cost: '0.0025', cost_text: null, usage_count: 1, service: 'web', currency: 'USD' } }),
  entry(1, 'twitter_trends', { woeid: 1, count: 30 }, { status: 'error', has_result: false, billing: null, result_count: 0 }),
];

function mockHistory(queries: Partial<HistoryQuery>[], calls: string[] = []) {
  mockIPC((cmd, args) => {
    calls.push(cmd);
    if (cmd === 'history_list') {
      const query = (args as { query: Partial<HistoryQuery> }).query;
      queries.push(query);
      const matching = rows.filter(
        (row) =>
          (!query.operation || row.operation === query.operation) &&
          (!query.status || row.status === query.status) &&
          (!query.text || row.params_json.includes(query.text)),
      );
      return { entries: matching.slice(query.offset ?? 0, (query.offset ?? 0) + (query.limit ?? 100)), total: matching.length };
    }
    if (cmd === 'history_result') {
      return {
        entry: rows[0],
        body: JSON.stringify([
          { id: '11', text: 'Glaciers are melting', user: { username: 'ada', name: 'Ada' } },
          { id: '12', text: 'Heat record', user: { username: 'bo', name: 'Bo' } },
        ]),
      };
    }
    if (cmd === 'history_pin' || cmd === 'history_delete') return null;
    if (cmd === 'export_history') return '/home/reader/history.csv';
    return undefined;
  });
}

describe('History', () => {
  it('lists requests newest first with operation, query, status, results, cost', async () => {
    mockHistory([]);
    render(History);
    const list = await screen.findByRole('list', { name: 'Requests, newest first' });
    const buttons = await within(list).findAllByRole('button');
    expect(buttons).toHaveLength(3);
    expect(buttons[0]).toHaveTextContent('X search');
    expect(buttons[0]).toHaveTextContent('"climate"');
    expect(buttons[0]).toHaveTextContent('$0.0006');
    expect(buttons[1]).toHaveTextContent('$0.0025');
    expect(buttons[2]).toHaveTextContent('Failed');
    expect(buttons[2]).toHaveTextContent('no cost');
    expect(await screen.findByText('3 requests')).toBeInTheDocument();
  });

  it('filters by operation, status and text', async () => {
    const queries: Partial<HistoryQuery>[] = [];
    mockHistory(queries);
    render(History);
    await screen.findByText('3 requests');
    await userEvent.selectOptions(screen.getByLabelText('Operation'), 'Web search');
    expect(await screen.findByText('1 request')).toBeInTheDocument();
    expect(queries.at(-1)?.operation).toBe('web_search');

    await userEvent.selectOptions(screen.getByLabelText('Operation'), 'All operations');
    await userEvent.selectOptions(screen.getByLabelText('Status'), 'Failed');
    expect(await screen.findByText('1 request')).toBeInTheDocument();
    expect(queries.at(-1)).toMatchObject({ operation: null, status: 'error' });

    await userEvent.selectOptions(screen.getByLabelText('Status'), 'Any status');
    await userEvent.keyboard('{Control>}k{/Control}');
    expect(screen.getByLabelText('Text')).toHaveFocus();
    await userEvent.keyboard('nothing like this');
    expect(await screen.findByText(/No requests match/)).toBeInTheDocument();
    expect(queries.at(-1)?.text).toBe('nothing like this');
  });

  it('keeps the newest rows when a read asked before a request was made answers last', async () => {
    let stored = rows;
    const reads = holdable(() => ({ entries: stored, total: stored.length }));
    mockBackend({ history_list: reads.handler });
    render(History);
    await screen.findByText('3 requests');

    // Records change: the list is read again, and that read is slow to answer.
    reads.hold();
    await emit('records-changed');
    await waitFor(() => expect(reads.held).toBe(1));

    // A request is made: records change again, and this read answers at once.
    stored = [entry(4, 'web_search', { query: 'levee', start: 0 }), ...rows];
    await emit('records-changed');
    expect(await screen.findByText('4 requests')).toBeInTheDocument();

    // The slow read, asked before the request was made, answers only now.
    await reads.release();
    expect(screen.getByText('4 requests')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /"levee"/ })).toBeInTheDocument();
  });

  it('turns the date range into local day bounds, the last day included', async () => {
    const queries: Partial<HistoryQuery>[] = [];
    mockHistory(queries);
    render(History);
    await screen.findByText('3 requests');
    await userEvent.type(screen.getByLabelText('From'), '2026-11-02');
    await userEvent.type(screen.getByLabelText('To'), '2026-11-02');
    await screen.findByText('3 requests');
    const last = queries.at(-1);
    expect(last?.from).toBe(new Date(2026, 10, 2).toISOString());
    expect(last?.to).toBe(new Date(2026, 10, 3).toISOString());
  });

  it('shows empty date fields as empty, and says how to write a day it cannot read instead of filtering', async () => {
    const queries: Partial<HistoryQuery>[] = [];
    mockHistory(queries);
    render(History);
    await screen.findByText('3 requests');
    const from = screen.getByLabelText('From');
    // A plain field in the app's order: no greyed month-first date when empty.
    expect(from).toHaveAttribute('type', 'text');
    expect(from).toHaveValue('');
    expect(from).toHaveAttribute('placeholder', 'YYYY-MM-DD');
    const asked = queries.length;
    await userEvent.type(from, '11/27/2026');
    expect(screen.getByText('From: Write the date as YYYY-MM-DD, for example 2026-03-01 (you entered "11/27/2026").')).toBeInTheDocument();
    expect(from).toHaveAttribute('aria-invalid', 'true');
    // Nothing was asked with a day half-typed or unreadable.
    expect(queries.slice(asked).every((query) => !query.from)).toBe(true);
    await userEvent.clear(from);
    await userEvent.type(from, '2026-11-27');
    await waitFor(() => expect(queries.at(-1)?.from).toBe(new Date(2026, 10, 27).toISOString()));
    expect(from).not.toHaveAttribute('aria-invalid');
  });

  it('opens a stored result offline as readable post lines, pins and deletes after confirming', async () => {
    const calls: string[] = [];
    mockHistory([], calls);
    render(History);
    const list = await screen.findByRole('list', { name: 'Requests, newest first' });
    await userEvent.click((await within(list).findAllByRole('button'))[0]!);
    const detail = screen.getByRole('complementary', { name: 'X search' });
    expect(detail).toHaveTextContent('$0.0006 (2 units, twitter)');
    await userEvent.click(within(detail).getByRole('button', { name: 'Open result' }));
    const result = await screen.findByRole('region', { name: 'Stored result' });
    expect(result).toHaveTextContent('Ada @ada Glaciers are melting');
    expect(result).toHaveTextContent('no request was sent');
    expect(calls).not.toContain('twitter_search');

    await userEvent.click(within(detail).getByRole('button', { name: 'Pin' }));
    expect(await within(detail).findByRole('button', { name: 'Unpin' })).toBeInTheDocument();

    await userEvent.click(within(detail).getByRole('button', { name: 'Delete' }));
    expect(calls).not.toContain('history_delete');
    await userEvent.click(screen.getByRole('button', { name: 'Delete request' }));
    expect(calls).toContain('history_delete');
  });

  it('exports the filtered requests in the chosen format', async () => {
    let exported: unknown = null;
    mockIPC((cmd, args) => {
      if (cmd === 'history_list') return { entries: rows, total: rows.length };
      if (cmd === 'export_history') {
        exported = args;
        return '/home/reader/history.jsonl';
      }
      return undefined;
    });
    render(History);
    await screen.findByText('3 requests');
    await userEvent.selectOptions(screen.getByLabelText('Export as'), 'JSON Lines');
    await userEvent.click(screen.getByRole('button', { name: 'Export these requests' }));
    expect(await screen.findByText('Saved 3 requests to /home/reader/history.jsonl')).toBeInTheDocument();
    expect(exported).toMatchObject({ format: 'jsonl', query: { operation: null, text: null } });
  });

  it('exports a hand-picked selection instead of the whole filter', async () => {
    let exported: { ids?: number[] | null } | null = null;
    mockIPC((cmd, args) => {
      if (cmd === 'history_list') return { entries: rows, total: rows.length };
      if (cmd === 'export_history') {
        exported = args as { ids: number[] };
        return '/home/reader/history.csv';
      }
      return undefined;
    });
    render(History);
    await screen.findByText('3 requests');
    const boxes = await screen.findAllByRole('checkbox', { name: /^Select: / });
    await userEvent.click(boxes[0]!);
    await userEvent.click(boxes[2]!);
    await userEvent.click(screen.getByRole('button', { name: 'Export 2 selected' }));
    expect(await screen.findByText('Saved 2 requests to /home/reader/history.csv')).toBeInTheDocument();
    expect(exported).toMatchObject({ ids: [3, 1], format: 'csv' });

    await userEvent.click(screen.getByRole('button', { name: 'Clear selection' }));
    expect(screen.getByRole('button', { name: 'Export these requests' })).toBeInTheDocument();
  });

  it('runs a request again only after showing its estimate, as a new request', async () => {
    const sent: unknown[] = [];
    mockIPC((cmd, args) => {
      if (cmd === 'history_list') return { entries: rows, total: rows.length };
      if (cmd === 'estimate_cost') {
        return {
          estimate: { amount: '0.0006', currency: 'USD', units: 2 },
          budget: { verdict: 'allow', estimate: '0.0006', warn_percent: 80, daily: null, monthly: null },
        };
      }
      if (cmd === 'twitter_search') {
        sent.push(args);
        return {
          historyId: 4,
          body: [],
          billing: { cost: '0.0007', usage_count: 2, service: 'twitter', currency: 'USD' },
          fromCache: false,
          replayed: false,
          hasMore: false,
        };
      }
      return undefined;
    });
    render(History);
    const list = await screen.findByRole('list', { name: 'Requests, newest first' });
    await userEvent.click((await within(list).findAllByRole('button'))[0]!);
    const rerun = screen.getByRole('form', { name: 'Run this request again' });
    expect(await within(rerun).findByText('≈ $0.0006')).toBeInTheDocument();
    expect(sent).toHaveLength(0);

    await userEvent.click(within(rerun).getByRole('button', { name: 'Run again' }));
    expect(await within(rerun).findByText(/Sent again: \$0.0007/)).toBeInTheDocument();
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ request: { query: 'climate', count: 2 }, send: { confirmBudget: false } });
  });

  it("inside an investigation's page lists only its requests, and adds a selection to an investigation", async () => {
    const queries: { investigation_id?: number | null }[] = [];
    mockIPC((cmd, args) => {
      if (cmd === 'history_list') {
        queries.push((args as { query: { investigation_id?: number | null } }).query);
        return { entries: rows, total: rows.length };
      }
      if (cmd === 'investigation_list') return [];
      if (cmd === 'investigation_active') return null;
      if (cmd === 'investigation_memberships') return [];
      return undefined;
    });
    render(History, { investigationId: 7 });
    await screen.findByText('3 requests');
    expect(screen.queryByRole('heading', { level: 1 })).toBeNull();
    expect(queries.every((query) => query.investigation_id === 7)).toBe(true);
    const boxes = await screen.findAllByRole('checkbox', { name: /^Select: / });
    await userEvent.click(boxes[0]!);
    await userEvent.click(boxes[1]!);
    expect(screen.getByRole('button', { name: 'Add 2 selected to…' })).toBeEnabled();
  });

  it('exports a selection of requests as an evidence bundle', async () => {
    const calls = mockBackend({
      history_list: () => ({ entries: rows, total: rows.length }),
      evidence_export: () => ({ outcome: 'written', path: '/exports/requests.zip', files: 8, posts: 4, responses: 2, bytes: 2_400_000, manifestSha256: 'eeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee', signedBy: 'a1b2c3d4e5f60718000000000000000000000000000000000000000000000000', manifestStamp: { state: 'notStamped', why: 'no timestamp authority is set' } }),
    });
    render(History);
    await screen.findByText('3 requests');
    expect(screen.queryByRole('button', { name: 'Export evidence bundle…' })).toBeNull();
    const boxes = await screen.findAllByRole('checkbox', { name: /^Select: / });
    await userEvent.click(boxes[0]!);
    await userEvent.click(boxes[2]!);
    await userEvent.click(screen.getByRole('button', { name: 'Export evidence bundle…' }));
    expect(await screen.findByText("Saved /exports/requests.zip: 4 posts, 2 responses as received, 2.4 MB in 8 files (SHA256SUMS and the 7 it lists), signed by this installation's key a1b2c3d4e5f60718…. Its manifest is not stamped: no timestamp authority is set.")).toBeInTheDocument();
    expect(calls.evidence_export).toHaveLength(1);
    expect(calls.evidence_export?.[0]).toMatchObject({ investigationId: null, historyIds: [3, 1], postIds: [] });
  });

  // Last: the capture lines it loads are kept for the rest of the file, as in the app.
  it("shows each row's capture line under it, asked once per page, and opens the record from the keyboard", async () => {
    const sha256 = '1f3a9c0b5e7d2a4f6b8c0d1e2f3a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c';
    const captures: HistoryCapture[] = [
      { history_id: 3, capture: { state: 'captured', capture: { history_id: 3, captured_at: '2026-11-23T18:04:12.345Z', sha256 } } },
      { history_id: 2, capture: { state: 'before_provenance' } },
      { history_id: 1, capture: { state: 'not_received' } },
    ];
    const calls = mockBackend({
      history_list: () => ({ entries: rows, total: rows.length }),
      provenance_history: () => captures,
      provenance_get: () => ({ state: 'not_received' }),
    });
    render(History);
    const list = await screen.findByRole('list', { name: 'Requests, newest first' });
    const items = await within(list).findAllByRole('listitem');
    const line = await within(items[0]!).findByRole('button', { name: /^captured/ });
    expect(line).toHaveTextContent('captured 2026-11-23 18:04:12 UTC · sha256 1f3a9c0b…');
    expect(items[1]).toHaveTextContent('captured before provenance was kept');
    expect(items[2]).toHaveTextContent('no response was received');
    expect(calls.provenance_history).toEqual([{ historyIds: [3, 2, 1] }]);
    // Beside the row's button, never inside it.
    const row = within(items[0]!).getByRole('button', { name: /X search/ });
    expect(row).not.toContainElement(line);
    expect(row.querySelector('button')).toBeNull();

    row.focus();
    await userEvent.tab();
    expect(line).toHaveFocus();
    await userEvent.keyboard('{Enter}');
    expect(await screen.findByRole('dialog', { name: 'Where this response came from' })).toBeInTheDocument();
    expect(calls.provenance_get?.[0]).toMatchObject({ historyId: 3 });
  });
});

describe('History: a cost as the service sent it', () => {
  const stated = [
    entry(5, 'twitter_search', { query: 'floats', count: 7 }, {
      billing: { cost: '0.000105', cost_text: '0.00010499999999999999', usage_count: 7, service: 'x', currency: 'USD' },
    }),
    entry(4, 'twitter_search', { query: 'odd', count: 3 }, {
      billing: { cost: null, cost_text: 'n/a', usage_count: 3, service: 'x', currency: 'USD' },
    }),
  ];

  function mockStated() {
    mockIPC((cmd) => (cmd === 'history_list' ? { entries: stated, total: stated.length } : undefined));
  }

  it('shows the rounded cost, and the exact text as sent where it differs', async () => {
    mockStated();
    render(History);
    const list = await screen.findByRole('list', { name: 'Requests, newest first' });
    const buttons = await within(list).findAllByRole('button');
    expect(buttons[0]).toHaveTextContent('$0.000105');
    await userEvent.click(buttons[0]!);
    const detail = screen.getByRole('complementary', { name: 'X search' });
    expect(detail).toHaveTextContent('$0.000105 (7 units, X searches and lookups)');
    expect(within(detail).getByTestId('cost-as-sent')).toHaveTextContent('cost as sent: 0.00010499999999999999');
  });

  it('calls a cost that is no number unreadable, never zero, with its text', async () => {
    mockStated();
    render(History);
    const list = await screen.findByRole('list', { name: 'Requests, newest first' });
    const buttons = await within(list).findAllByRole('button');
    expect(buttons[1]).toHaveTextContent('cost unreadable');
    expect(buttons[1]).not.toHaveTextContent('$0');
    await userEvent.click(buttons[1]!);
    const detail = screen.getByRole('complementary', { name: 'X search' });
    expect(detail).toHaveTextContent('cost unreadable (3 units, X searches and lookups)');
    expect(within(detail).getByTestId('cost-as-sent')).toHaveTextContent('cost as sent: n/a');
  });

  it('names the monitor that sent a request and shows its query as written, the bound in words', async () => {
    const sent = entry(6, 'twitter_search', { query: 'climate since_time:1764252309', count: 50 }, {
      origin: { kind: 'monitor', id: 3, name: 'Climate' },
    });
    mockIPC((cmd) => (cmd === 'history_list' ? { entries: [sent], total: 1 } : undefined));
    render(History);
    const list = await screen.findByRole('list', { name: 'Requests, newest first' });
    const [row] = await within(list).findAllByRole('button');
    expect(row).toHaveTextContent('Monitor: Climate · "climate"');
    expect(row).not.toHaveTextContent('since_time');
    await userEvent.click(row!);
    const detail = screen.getByRole('complementary', { name: 'X search' });
    expect(detail).toHaveTextContent(/Asked"climate" · posts since 27 Nov 2025, \d\d:05:09/);
    expect(within(detail).getByRole('link', { name: 'Monitor: Climate' })).toHaveAttribute('href', '#/monitors');
  });

  it('says nothing more when the text is the amount', async () => {
    mockHistory([]);
    render(History);
    const list = await screen.findByRole('list', { name: 'Requests, newest first' });
    await userEvent.click((await within(list).findAllByRole('button'))[0]!);
    const detail = screen.getByRole('complementary', { name: 'X search' });
    expect(within(detail).queryByTestId('cost-as-sent')).toBeNull();
  });
});
