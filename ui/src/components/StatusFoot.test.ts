import { describe, expect, it } from 'vitest';
import { render, screen, waitFor } from '@testing-library/svelte';
import { mockIPC } from '@tauri-apps/api/mocks';
import StatusFoot from './StatusFoot.svelte';
import { refreshStatus, setStatus } from '$lib/status.svelte';
import type { AppStatus } from '$lib/ipc';
import { holdable, mockBackend } from '../test/backend';

function status(mode: AppStatus['mode']): AppStatus {
  return {
    mode,
    demoForced: false,
    keys: [{ label: 'work', masked: 'dt_…f3a9', addedAt: '2026-11-01T10:00:00Z', verifiedAt: null }],
    activeKey: 'work',
    serviceConfigured: true,
  };
}

function mockStatus(mode: AppStatus['mode'], today: string) {
  mockIPC((cmd) => {
    if (cmd === 'app_status') return status(mode);
    if (cmd === 'spend_totals') return { today, this_month: today, all_time: today };
    return undefined;
  });
}

describe('StatusFoot', () => {
  it('shows the active key and today\'s exact spend', async () => {
    mockStatus('live', '0.00015');
    await refreshStatus();
    render(StatusFoot);
    expect(screen.getByTestId('active-key')).toHaveTextContent('work');
    expect(screen.getByTestId('today-spend')).toHaveTextContent('$0.00015');
    expect(screen.queryByText('Demo data')).not.toBeInTheDocument();
  });

  it('shows the demo badge in demo mode', async () => {
    mockStatus('demo', '0');
    await refreshStatus();
    render(StatusFoot);
    expect(screen.getByText('Demo data')).toBeInTheDocument();
    expect(screen.getByTestId('today-spend')).toHaveTextContent('$0.00');
  });

  it('keeps the status a key change returned when a read asked before it answers last', async () => {
    const reads = holdable(() => status('demo'));
    mockBackend({ app_status: reads.handler, spend_totals: () => ({ today: '0', this_month: '0', all_time: '0' }) });
    await refreshStatus();
    render(StatusFoot);
    expect(screen.getByText('Demo data')).toBeInTheDocument();

    // Records change: the status is read again, and that read is slow to answer.
    reads.hold();
    const slow = refreshStatus();
    await waitFor(() => expect(reads.held).toBe(1));

    // A key is chosen: its command returns the new status.
    setStatus(status('live'));
    await waitFor(() => expect(screen.queryByText('Demo data')).toBeNull());

    // The slow read, asked before the key was chosen, answers only now.
    await reads.release();
    await slow;
    expect(screen.queryByText('Demo data')).toBeNull();
  });

  it("keeps today's newest spend when a read asked before a request was billed answers last", async () => {
    let today = '0.001';
    const reads = holdable(() => ({ today, this_month: today, all_time: today }));
    mockBackend({ app_status: () => status('live'), spend_totals: reads.handler });
    await refreshStatus();
    render(StatusFoot);
    expect(screen.getByTestId('today-spend')).toHaveTextContent('$0.001');

    // Records change: today's spend is read again, and that read is slow to answer.
    reads.hold();
    const slow = refreshStatus();
    await waitFor(() => expect(reads.held).toBe(1));

    // A request is billed: records change again, and this read answers at once.
    today = '0.002';
    await refreshStatus();
    expect(screen.getByTestId('today-spend')).toHaveTextContent('$0.002');

    // The slow read, asked before the request was billed, answers only now.
    await reads.release();
    await slow;
    expect(screen.getByTestId('today-spend')).toHaveTextContent('$0.002');
  });
});
