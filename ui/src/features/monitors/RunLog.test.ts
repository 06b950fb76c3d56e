import { describe, expect, it } from 'vitest';
import { render, screen, within } from '@testing-library/svelte';
import RunLog from './RunLog.svelte';
import { makeRun } from './testMonitors';

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

  it('says so when there has been no run', () => {
    render(RunLog, { label: 'Runs', runs: [] });
    expect(screen.getByText('No runs yet.')).toBeInTheDocument();
  });
});
