import { describe, expect, it } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import { emit } from '@tauri-apps/api/event';
import { mockIPC } from '@tauri-apps/api/mocks';
import Spend from './Spend.svelte';
import type { BudgetLimits } from '$lib/bindings/BudgetLimits';
import { holdable } from '../../test/backend';

const none = { unreadable_today: 0, unreadable_this_month: 0, unreadable_all_time: 0 };

/** `totals`: the ledger's sums as asked, when a test changes them. */
function mockSpend(
  budget: { current: BudgetLimits; saved: BudgetLimits[] },
  calls: [string, unknown][] = [],
  unreadable = none,
  totals: () => unknown = () => ({ today: '0.00015', this_month: '12.3456789', all_time: '1234.5', ...unreadable }),
) {
  mockIPC((cmd, args) => {
    calls.push([cmd, args]);
    switch (cmd) {
      case 'spend_totals':
        return totals();
      case 'spend_by_day':
        return [
          { date: '2026-11-20', total: '0.0025', by_service: [{ key: 'web', cost: '0.0025', requests: 1, usage_count: 1 }] },
          {
            date: '2026-11-21',
            total: '0.00415',
            by_service: [
              { key: 'ai', cost: '0.004', requests: 1, usage_count: 1 },
              { key: 'twitter', cost: '0.00015', requests: 1, usage_count: 10 },
            ],
          },
        ];
      case 'spend_breakdown': {
        const { dimension } = args as { dimension: string };
        const unknown = unreadable.unreadable_this_month;
        if (dimension === 'monitor') {
          const climate = { key: '3', label: 'Climate', cost: '0.000105', requests: 1, usage_count: 7 };
          return { dimension, total: '0.000105', unreadable: 0, lines: [climate] };
        }
        if (dimension === 'collection') {
          const deleted = { key: '12', cost: '0.0003', requests: 1, usage_count: 1 };
          return { dimension, total: '0.0003', unreadable: unknown, lines: [deleted] };
        }
        return dimension === 'operation'
          ? { dimension, total: '0.00665', unreadable: unknown, lines: [{ key: 'ai_search', cost: '0.004', requests: 1, usage_count: 1 }, { key: 'twitter_search', cost: '0.00015', requests: 1, usage_count: 10 }] }
          : { dimension, total: '0.00665', unreadable: unknown, lines: [{ key: 'work', cost: '0.00665', requests: 3, usage_count: 12 }] };
      }
      case 'learned_rates':
        return [
          { service: 'x', rate_per_1000: '0.30', samples: 4, last_billed_at: '2026-11-21T10:00:00Z' },
          { service: 'ai_search', rate_per_1000: '4.00', samples: 1, last_billed_at: '2026-11-21T10:00:00Z' },
        ];
      case 'budget_get':
        return budget.current;
      case 'budget_set': {
        const { limits } = args as { limits: BudgetLimits };
        budget.saved.push(limits);
        budget.current = limits;
        return limits;
      }
      case 'export_ledger':
        return '/home/reader/sightline-ledger.csv';
      default:
        return undefined;
    }
  }, { shouldMockEvents: true });
}

describe('Spend', () => {
  it('shows the totals exactly as the ledger sums them', async () => {
    mockSpend({ current: { daily: null, monthly: null, warn_percent: 80 }, saved: [] });
    render(Spend);
    expect(await screen.findByText('$1,234.50')).toHaveAttribute('data-testid', 'spend-all');
    expect(screen.getByTestId('spend-today')).toHaveTextContent(/^\$0\.00015$/);
    expect(screen.getByTestId('spend-month')).toHaveTextContent('$12.3456789');
  });

  it('counts answers whose cost could not be read beside the totals, never in them', async () => {
    mockSpend({ current: { daily: null, monthly: null, warn_percent: 80 }, saved: [] }, [], {
      unreadable_today: 0,
      unreadable_this_month: 2,
      unreadable_all_time: 3,
    });
    render(Spend);
    expect(await screen.findByText('$1,234.50')).toHaveAttribute('data-testid', 'spend-all');
    expect(screen.getByTestId('spend-unreadable-all')).toHaveTextContent('and 3 answers whose cost could not be read');
    expect(screen.getByTestId('spend-unreadable-month')).toHaveTextContent('and 2 answers whose cost could not be read');
    expect(screen.queryByTestId('spend-unreadable-today')).toBeNull();
    expect(screen.getByText(/billed 3 answers at a cost that is not a number/)).toBeInTheDocument();
    const byOperation = await screen.findByRole('region', { name: 'By operation' });
    expect(await within(byOperation).findByRole('row', { name: 'Cost unreadable 2 unknown' })).toBeInTheDocument();
  });

  it('says nothing of unreadable costs when there are none', async () => {
    mockSpend({ current: { daily: null, monthly: null, warn_percent: 80 }, saved: [] });
    render(Spend);
    await screen.findByText('$1,234.50');
    expect(screen.queryByTestId('spend-unreadable-all')).toBeNull();
    expect(screen.queryByText(/not a number/)).toBeNull();
    const byOperation = await screen.findByRole('region', { name: 'By operation' });
    expect(within(byOperation).queryByRole('row', { name: /Cost unreadable/ })).toBeNull();
  });

  it('breaks spend down by operation and by key, with learned rates and a labelled chart', async () => {
    mockSpend({ current: { daily: null, monthly: null, warn_percent: 80 }, saved: [] });
    render(Spend);
    const byOperation = await screen.findByRole('region', { name: 'By operation' });
    expect(await within(byOperation).findByRole('row', { name: /X search 1 \$0\.00015/ })).toBeInTheDocument();
    expect(within(byOperation).getByRole('row', { name: /Total \$0\.00665/ })).toBeInTheDocument();
    expect(within(screen.getByRole('region', { name: 'By key' })).getByText('work')).toBeInTheDocument();
    const rates = screen.getByRole('region', { name: 'Learned rates' });
    expect(within(rates).getByRole('row', { name: /^X searches and lookups \$0\.30 4 responses / })).toBeInTheDocument();
    expect(within(rates).getByRole('row', { name: /^AI search \$4\.00 1 response / })).toBeInTheDocument();
    expect(screen.getByRole('img', { name: /2026-11-20 to 2026-11-21; highest day \$0\.00415/ })).toBeInTheDocument();
  });

  it('breaks spend down by monitor and by collection, a deleted one by its number', async () => {
    mockSpend({ current: { daily: null, monthly: null, warn_percent: 80 }, saved: [] }, [], {
      unreadable_today: 0,
      unreadable_this_month: 1,
      unreadable_all_time: 1,
    });
    render(Spend);
    const byMonitor = await screen.findByRole('region', { name: 'By monitor' });
    expect(await within(byMonitor).findByRole('row', { name: 'Climate 1 $0.000105' })).toBeInTheDocument();
    const byCollection = screen.getByRole('region', { name: 'By collection' });
    expect(within(byCollection).getByRole('row', { name: 'A deleted collection (no. 12) 1 $0.0003' })).toBeInTheDocument();
    expect(within(byCollection).getByRole('row', { name: 'Cost unreadable 1 unknown' })).toBeInTheDocument();
  });

  it('tells a budget overrun as it is, never clipped', async () => {
    mockSpend({ current: { daily: '0.00001', monthly: '10', warn_percent: 80 }, saved: [] });
    render(Spend);
    expect(await screen.findByText(/Today: \$0\.00015 of \$0\.00001 \(15× the limit\)/)).toBeInTheDocument();
    expect(screen.getByText(/This month: \$12\.3456789 of \$10\.00 \(123%\)/)).toBeInTheDocument();
  });

  it('exports the ledger of the range shown, or all of it', async () => {
    const calls: [string, unknown][] = [];
    mockSpend({ current: { daily: null, monthly: null, warn_percent: 80 }, saved: [] }, calls);
    render(Spend);
    await screen.findByText('$1,234.50');
    await userEvent.click(screen.getByRole('button', { name: 'Export this range (CSV)' }));
    expect(await screen.findByText('Saved the ledger to /home/reader/sightline-ledger.csv')).toBeInTheDocument();
    const ranged = calls.filter(([cmd]) => cmd === 'export_ledger').at(-1)?.[1] as { first: string; last: string };
    expect(Math.round((Date.parse(ranged.last) - Date.parse(ranged.first)) / 86_400_000)).toBe(29);

    await userEvent.click(screen.getByRole('button', { name: 'Export all (CSV)' }));
    expect(calls.filter(([cmd]) => cmd === 'export_ledger').at(-1)?.[1]).toMatchObject({ first: null, last: null });
  });

  it('asks for the chosen range', async () => {
    const calls: [string, unknown][] = [];
    mockSpend({ current: { daily: null, monthly: null, warn_percent: 80 }, saved: [] }, calls);
    render(Spend);
    await screen.findByText('$1,234.50');
    await userEvent.selectOptions(screen.getByLabelText('Range'), 'Last 7 days');
    const last = calls.filter(([cmd]) => cmd === 'spend_by_day').at(-1)?.[1] as { first: string; last: string };
    const span = (Date.parse(last.last) - Date.parse(last.first)) / 86_400_000;
    expect(Math.round(span)).toBe(6);
  });

  it('keeps the newest totals when a read asked before a request was billed answers last', async () => {
    let allTime = '1234.5';
    const totals = holdable(() => ({ today: '0', this_month: '0', all_time: allTime, ...none }));
    mockSpend({ current: { daily: null, monthly: null, warn_percent: 80 }, saved: [] }, [], none, totals.handler);
    render(Spend);
    await screen.findByText('$1,234.50');

    // Records change: Spend reads again, and that read is slow to answer.
    totals.hold();
    await emit('records-changed');
    await waitFor(() => expect(totals.held).toBe(1));

    // A request is billed: records change again, and this read answers at once.
    allTime = '1235.5';
    await emit('records-changed');
    expect(await screen.findByText('$1,235.50')).toHaveAttribute('data-testid', 'spend-all');

    // The slow read, asked before the request was billed, answers only now.
    await totals.release();
    expect(screen.getByTestId('spend-all')).toHaveTextContent('$1,235.50');
  });

  it('saves budgets and shows how close each is', async () => {
    const budget = { current: { daily: '0.001', monthly: null, warn_percent: 80 } as BudgetLimits, saved: [] as BudgetLimits[] };
    mockSpend(budget);
    render(Spend);
    expect(await screen.findByText(/Today: \$0\.00015 of \$0\.001 \(15%\)/)).toBeInTheDocument();
    expect(screen.getByText('This month: no limit.')).toBeInTheDocument();

    const monthly = screen.getByLabelText('Monthly limit (USD)');
    await userEvent.type(monthly, 'lots');
    await userEvent.click(screen.getByRole('button', { name: 'Save budgets' }));
    expect(screen.getByText(/Enter an amount in dollars, like 50/)).toBeInTheDocument();
    expect(budget.saved).toHaveLength(0);

    await userEvent.clear(monthly);
    await userEvent.type(monthly, '20');
    const warn = screen.getByLabelText('Warn at (% of a limit)');
    await userEvent.clear(warn);
    await userEvent.type(warn, '90');
    await userEvent.click(screen.getByRole('button', { name: 'Save budgets' }));
    expect(await screen.findByText('Budgets saved.')).toBeInTheDocument();
    expect(budget.saved).toEqual([{ daily: '0.001', monthly: '20', warn_percent: 90 }]);
    expect(screen.getByText(/This month: \$12\.3456789 of \$20\.00 \(62%\)/)).toBeInTheDocument();
  });
});
