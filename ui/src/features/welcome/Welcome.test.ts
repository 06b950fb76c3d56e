import { beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import { mockIPC } from '@tauri-apps/api/mocks';
import Welcome from './Welcome.svelte';
import { welcomeDismissed } from './welcome';
import type { AppStatus } from '../../lib/ipc';

const live: AppStatus = {
  mode: 'live',
  demoForced: false,
  keys: [{ label: 'My key', masked: 'dt_…f3a9', addedAt: '2026-11-21T10:00:00Z', verifiedAt: null }],
  activeKey: 'My key',
  serviceConfigured: true,
};

beforeEach(() => localStorage.clear());

describe('Welcome', () => {
  it('explores with demo data and remembers the choice', async () => {
    const calls: unknown[] = [];
    mockIPC((cmd, args) => {
      calls.push([cmd, args]);
      if (cmd === 'use_demo') return { ...live, mode: 'demo', keys: [], activeKey: null };
      return { today: '0', this_month: '0', all_time: '0' };
    });
    const onDone = vi.fn();
    render(Welcome, { onDone });
    await userEvent.click(screen.getByRole('button', { name: 'Explore with demo data' }));
    expect(onDone).toHaveBeenCalled();
    expect(calls).toContainEqual(['use_demo', { demo: true }]);
    expect(welcomeDismissed()).toBe(true);
  });

  it('refuses a placeholder in plain words under the key field', async () => {
    mockIPC((cmd) => {
      if (cmd === 'key_add') {
        throw {
          kind: 'invalid',
          message: 'Check value: …',
          fields: [
            {
              field: 'value',
              message:
                'This looks like the example text from the documentation, not a real key. Paste the key from your account page instead.',
            },
          ],
        };
      }
      return undefined;
    });
    const onDone = vi.fn();
    render(Welcome, { onDone });
    await userEvent.type(screen.getByLabelText('API key'), 'YOUR_API_KEY');
    await userEvent.click(screen.getByRole('button', { name: 'Use this key' }));
    expect(await screen.findByText(/not a real key/)).toBeInTheDocument();
    expect(screen.getByLabelText('API key')).toHaveAccessibleDescription(/not a real key/);
    expect(onDone).not.toHaveBeenCalled();
    expect(welcomeDismissed()).toBe(false);
  });

  it('adds a pasted key under its name and goes on', async () => {
    let added: unknown = null;
    mockIPC((cmd, args) => {
      if (cmd === 'key_add') {
        added = args;
        return live;
      }
      return { today: '0', this_month: '0', all_time: '0' };
    });
    const onDone = vi.fn();
    render(Welcome, { onDone });
    await userEvent.type(screen.getByLabelText('API key'), 'dt_$abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG');
    await userEvent.click(screen.getByRole('button', { name: 'Use this key' }));
    expect(onDone).toHaveBeenCalled();
    expect(added).toEqual({ label: 'My key', value: 'dt_$abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG' });
    expect(screen.getByLabelText('API key')).toHaveValue('');
  });
});
