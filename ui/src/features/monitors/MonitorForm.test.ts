import { describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import MonitorForm from './MonitorForm.svelte';
import { mockBackend } from '../../test/backend';
import { makeEstimate, makeMonitor } from '$lib/testMonitors';

describe('MonitorForm', () => {
  it('refuses to save a blank form, naming each field, and sends nothing', async () => {
    const calls = mockBackend({ investigation_list: () => [], investigation_active: () => null });
    render(MonitorForm, { onsaved: vi.fn(), oncancel: vi.fn() });
    await userEvent.click(screen.getByRole('button', { name: 'Create monitor' }));
    expect(screen.getByRole('textbox', { name: 'Name' })).toHaveAccessibleDescription('Give the monitor a name.');
    expect(screen.getByRole('textbox', { name: 'Search X for' })).toHaveAccessibleDescription('Type what to search for on X.');
    expect(calls.monitor_create).toBeUndefined();
    expect(calls.monitor_estimate).toBeUndefined();
    expect(screen.getByText('The cost is estimated once the form is complete.')).toBeInTheDocument();
  });

  it('shows the cost per run and per month and the share of the monthly budget before saving, then creates it', async () => {
    const saved = vi.fn();
    const calls = mockBackend({
      investigation_list: () => [],
      investigation_active: () => null,
      monitor_estimate: () => makeEstimate(),
      monitor_create: () => makeMonitor({ id: 9, name: 'Floods' }),
    });
    render(MonitorForm, { onsaved: saved, oncancel: vi.fn() });
    await userEvent.type(screen.getByRole('textbox', { name: 'Name' }), 'Floods');
    await userEvent.type(screen.getByRole('textbox', { name: 'Search X for' }), '#flood');
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'How often' }), 'Every 2 hours');
    expect(await screen.findByText(/a run and/)).toHaveTextContent(
      'At most about $0.003 a run and $2.16 a month (720 runs in 30 days), at the rate the service last charged and if every run brings back as many posts as it may; Run now adds runs.',
    );
    expect(screen.getByText('21.6% of your monthly budget of $10.00.')).toBeInTheDocument();
    expect(calls.monitor_estimate?.at(-1)?.draft).toMatchObject({ name: 'Floods', intervalMinutes: 120, target: { kind: 'search', request: { query: '#flood', sort: 'Latest' } } });

    await userEvent.click(screen.getByRole('button', { name: 'Create monitor' }));
    expect(saved).toHaveBeenCalledWith(expect.objectContaining({ id: 9 }));
    expect(calls.monitor_create?.[0]?.draft).toMatchObject({ name: 'Floods', cap: 20, intervalMinutes: 120 });
  });

  it('says the cost is unknown until a rate is learned, and warns when the budget would', async () => {
    mockBackend({
      investigation_list: () => [],
      investigation_active: () => null,
      monitor_estimate: () =>
        makeEstimate({ perRun: null, perMonth: null, shareOfMonthlyBudget: null, monthlyLimit: null, budget: { verdict: 'warn', estimate: '0', warn_percent: 80, daily: null, monthly: null } }),
    });
    render(MonitorForm, { monitor: makeMonitor(), onsaved: vi.fn(), oncancel: vi.fn() });
    expect(screen.getByRole('textbox', { name: 'Name' })).toHaveValue('Storm watch');
    expect(await screen.findByText(/unknown until a rate is learned/)).toBeInTheDocument();
    expect(screen.getByText('No monthly budget is set (Spend → Budgets).')).toBeInTheDocument();
    expect(screen.getByText(/each such run waits for your confirmation/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Save changes' })).toBeInTheDocument();
  });

  it('names the daily limit that blocks a run, and says the monitor would go on by itself', async () => {
    const daily = { verdict: 'block' as const, limit: '1', spent: '0.999', remaining: '0.001', after_request: '1.005' };
    mockBackend({
      investigation_list: () => [],
      investigation_active: () => null,
      monitor_estimate: () => makeEstimate({ monthlyLimit: null, shareOfMonthlyBudget: null, budget: { verdict: 'block', estimate: '0.006', warn_percent: 80, daily, monthly: null } }),
    });
    render(MonitorForm, { monitor: makeMonitor(), onsaved: vi.fn(), oncancel: vi.fn() });
    expect(await screen.findByText(/would block a run now/)).toHaveTextContent(
      'The budget would block a run now: it would go over your daily limit of $1.00 ($0.999 spent today). The monitor would pause, and go on by itself once the budget allows a run',
    );
    expect(screen.getByText(/A run pays only for the posts it brings back/)).toHaveTextContent('again any post of the very second the last run ended on (asked again by design');
  });

  it("shows Rust's field error under its field when the save is refused", async () => {
    mockBackend({
      investigation_list: () => [],
      investigation_active: () => null,
      monitor_estimate: () => makeEstimate(),
      monitor_update: () => {
        throw { kind: 'invalid', message: 'invalid', fields: [{ field: 'name', message: 'A monitor with this name exists already.' }] };
      },
    });
    render(MonitorForm, { monitor: makeMonitor(), onsaved: vi.fn(), oncancel: vi.fn() });
    await userEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('A monitor with this name exists already.')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Name' })).toHaveAccessibleDescription('A monitor with this name exists already.');
  });
});
