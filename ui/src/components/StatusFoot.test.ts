import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/svelte';
import { mockIPC } from '@tauri-apps/api/mocks';
import StatusFoot from './StatusFoot.svelte';
import { refreshStatus } from '$lib/status.svelte';
import type { AppStatus } from '$lib/ipc';

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
});
