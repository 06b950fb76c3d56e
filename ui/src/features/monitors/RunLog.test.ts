import { describe, expect, it } from 'vitest';
import { render, screen, within } from '@testing-library/svelte';
import RunLog from './RunLog.svelte';
import { makeRun } from '$lib/testMonitors';

describe('RunLog', () => {
  it('lists each run with its outcome, new posts, requests, exact cost and error in words', () => {
    render(RunLog, {
      label: 'Runs of Storm watch',
      runs: [
        makeRun({ id: 2, outcome: 'rate_limited', newItems: 0, requests: 1, cost: '0', error: 'The service asked to wait 30 seconds; the next run is after that.' }),
        makeRun({ id: 1, newItems: 12, requests: 2, cost: '0.00180' }),
      ],
    });
    const rows = within(screen.getByRole('table', { name: 'Runs of Storm watch' })).getAllByRole('row');
    expect(rows).toHaveLength(3);
    expect(rows[1]).toHaveTextContent('Asked to wait by the service');
    expect(rows[1]).toHaveTextContent('The service asked to wait 30 seconds');
    expect(rows[2]).toHaveTextContent(/Done\s*12\s*2\s*\$0\.0018/);
  });

  it('draws only a failure in red: your pause is a note, the budget a warning', () => {
    render(RunLog, {
      label: 'Runs',
      runs: [
        makeRun({ id: 3, outcome: 'paused', error: 'Paused by you.' }),
        makeRun({ id: 2, outcome: 'budget_blocked', error: 'Paused by the budget: a run would go over your daily limit.' }),
        makeRun({ id: 1, outcome: 'failed', error: 'The service could not be reached.' }),
      ],
    });
    expect(screen.getByText('Paused by you.')).toHaveAttribute('data-tone', 'note');
    expect(screen.getByText(/over your daily limit/)).toHaveAttribute('data-tone', 'warn');
    expect(screen.getByText('The service could not be reached.')).toHaveAttribute('data-tone', 'problem');
  });

  it('tells runs of one minute apart by their seconds', () => {
    render(RunLog, {
      label: 'Runs',
      runs: [makeRun({ id: 2, startedAt: '2026-11-23T17:15:41Z' }), makeRun({ id: 1, startedAt: '2026-11-23T17:15:03Z' })],
    });
    const rows = within(screen.getByRole('table', { name: 'Runs' })).getAllByRole('row');
    expect(rows[1]).toHaveTextContent(/17:15:41/);
    expect(rows[2]).toHaveTextContent(/17:15:03/);
  });

  it("names a monitor's first run's posts its starting set, only when the log goes back to it", () => {
    const runs = [makeRun({ id: 3, newItems: 2 }), makeRun({ id: 2, newItems: 20 }), makeRun({ id: 1, outcome: 'budget_blocked', newItems: 0 })];
    const { unmount } = render(RunLog, { label: 'Runs', runs, fromFirstRun: true });
    const rows = within(screen.getByRole('table', { name: 'Runs' })).getAllByRole('row');
    expect(rows[2]).toHaveTextContent(/20\s*starting set/);
    expect(rows[1]).not.toHaveTextContent('starting set');
    expect(screen.getByText(/first run keeps the latest posts it finds/)).toBeInTheDocument();
    unmount();
    render(RunLog, { label: 'Runs', runs });
    expect(screen.queryByText('starting set')).not.toBeInTheDocument();
  });

  it('says so when there has been no run', () => {
    render(RunLog, { label: 'Runs', runs: [] });
    expect(screen.getByText('No runs yet.')).toBeInTheDocument();
  });
});
