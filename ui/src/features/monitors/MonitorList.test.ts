import { describe, expect, it } from 'vitest';
import { render, screen, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import MonitorList from './MonitorList.svelte';
import { mockBackend } from '../../test/backend';
import { makeMonitor } from '$lib/testMonitors';

describe('MonitorList', () => {
  it('shows each monitor with what it watches, its state, next run and unseen count', async () => {
    mockBackend({
      monitor_list: () => [makeMonitor(), makeMonitor({ id: 2, name: 'Met Office', target: { kind: 'account', request: { username: 'metoffice', cursor: null } }, state: 'paused', stateReason: 'Paused by you.', unseen: 0, intervalMinutes: 1440 })],
      investigation_list: () => [],
      investigation_active: () => null,
    });
    render(MonitorList);
    const items = within(await screen.findByRole('list', { name: 'Monitors' })).getAllByRole('listitem');
    expect(within(items[0]!).getByRole('link', { name: 'Storm watch' })).toHaveAttribute('href', '#/monitors?id=1');
    expect(items[0]).toHaveTextContent('X search “#StormEowyn” · every hour · up to 20 a run');
    expect(items[0]).toHaveTextContent(/Active · next run .*2026/);
    expect(items[0]).toHaveTextContent('(3 unseen)');
    expect(items[1]).toHaveTextContent('Posts by @metoffice · once a day');
    expect(items[1]).toHaveTextContent('Paused by you.');
    expect(within(items[1]!).getByText('Paused by you.')).toHaveAttribute('data-tone', 'note');
    expect(within(items[1]!).getByRole('button', { name: 'Resume Met Office' })).toBeInTheDocument();
    expect(within(items[1]!).queryByRole('button', { name: 'Pause Met Office' })).not.toBeInTheDocument();
  });

  it('says a monitor paused by the budget goes on by itself, and offers Resume and Keep paused', async () => {
    const reason = 'Paused by the budget: a run would go over your daily limit. It goes on by itself once the budget allows a run: raise or remove the limit in Spend, or wait for tomorrow.';
    mockBackend({
      monitor_list: () => [makeMonitor({ state: 'budget_paused', stateReason: reason })],
      investigation_list: () => [],
      investigation_active: () => null,
    });
    render(MonitorList);
    const card = within(await screen.findByRole('list', { name: 'Monitors' })).getAllByRole('listitem')[0]!;
    expect(card).toHaveTextContent('Paused by the budget');
    expect(within(card).getByText(reason)).toHaveAttribute('data-tone', 'warn');
    expect(within(card).getByRole('button', { name: 'Resume Storm watch' })).toBeInTheDocument();
    expect(within(card).getByRole('button', { name: 'Keep Storm watch paused' })).toBeInTheDocument();
  });

  it('shows on the card why the last run failed and when the next one is', async () => {
    const failed =
      'Sightline could not use its local database: the ledger refuses this row. Your earlier history is untouched. The next run is in 30 minutes (2 failed runs in a row: each waits twice as long, up to a day).';
    mockBackend({
      monitor_list: () => [makeMonitor({ stateReason: failed, nextRunAt: '2026-11-23T18:45:00Z' })],
      investigation_list: () => [],
      investigation_active: () => null,
    });
    render(MonitorList);
    const card = within(await screen.findByRole('list', { name: 'Monitors' })).getAllByRole('listitem')[0]!;
    expect(card).toHaveTextContent(/Active · next run .*2026/);
    expect(card).toHaveTextContent(`Last run: ${failed}`);
  });

  it('offers Confirm and Skip for a run waiting on a budget warning, and deletes only after saying what stays', async () => {
    let list = [makeMonitor({ state: 'needs_confirmation', stateReason: 'Monthly budget: $9.00 of $10.00 spent; this run would make $9.01.' })];
    const calls = mockBackend({
      monitor_list: () => list,
      investigation_list: () => [],
      investigation_active: () => null,
      monitor_confirm: () => (list = [makeMonitor({ running: true })])[0],
      monitor_delete: () => {
        list = [];
      },
    });
    render(MonitorList);
    expect(await screen.findByText('Waiting for your confirmation')).toBeInTheDocument();
    expect(screen.getByText(/Monthly budget: \$9\.00/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Skip this run' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Confirm run' }));
    expect(calls.monitor_confirm?.[0]).toEqual({ id: 1 });
    expect(await screen.findByText('Running now')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Run now: Storm watch' })).toBeDisabled();

    await userEvent.click(screen.getByRole('button', { name: 'Delete Storm watch' }));
    const confirm = screen.getByRole('alertdialog', { name: 'Delete Storm watch?' });
    expect(confirm).toHaveTextContent('the posts it found stay in History and the Archive');
    expect(calls.monitor_delete).toBeUndefined();
    await userEvent.click(within(confirm).getByRole('button', { name: 'Delete monitor' }));
    expect(calls.monitor_delete?.[0]).toEqual({ id: 1 });
    expect(screen.queryByRole('list', { name: 'Monitors' })).not.toBeInTheDocument();
  });
});
