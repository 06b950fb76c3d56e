import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import { mockIPC } from '@tauri-apps/api/mocks';
import Keys from './Keys.svelte';
import type { AppStatus } from '$lib/ipc';

const fullKey = 'dt_$Zq3vN8xYk2LmP0aBcDeFgHiJkLmNoPqRsTuVwXyZ12f3a9';

function withKeys(): AppStatus {
  return {
    mode: 'live',
    demoForced: false,
    keys: [
      { label: 'work', masked: 'dt_…f3a9', addedAt: '2026-11-01T10:00:00Z', verifiedAt: '2026-11-02T09:30:00Z' },
      { label: 'spare', masked: 'dsr_…7c1d', addedAt: '2026-11-03T10:00:00Z', verifiedAt: null },
    ],
    activeKey: 'work',
    serviceConfigured: true,
  };
}

const totals = { today: '0', this_month: '0', all_time: '0' };

describe('Keys', () => {
  it('lists keys masked with the active one marked, never the full value', async () => {
    mockIPC((cmd) => (cmd === 'app_status' ? withKeys() : totals));
    const { container } = render(Keys);
    expect(await screen.findByText('dt_…f3a9')).toBeInTheDocument();
    expect(screen.getByText('dsr_…7c1d')).toBeInTheDocument();
    expect(screen.getByText('Active')).toBeInTheDocument();
    expect(screen.getByText('Not verified yet')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Make active: work' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Make active: spare' })).toBeInTheDocument();
    expect(container.textContent).not.toContain(fullKey);
  });

  it('refuses a placeholder in plain words under the key field and clears the value', async () => {
    mockIPC((cmd) => {
      if (cmd === 'app_status') return withKeys();
      if (cmd === 'key_add') {
        throw {
          kind: 'invalid',
          message: 'Check value',
          fields: [{ field: 'value', message: 'This looks like the example text from the documentation, not a real key.' }],
        };
      }
      return totals;
    });
    render(Keys);
    await userEvent.type(await screen.findByLabelText('Name'), 'home');
    await userEvent.type(screen.getByLabelText('Key'), 'YOUR_API_KEY');
    await userEvent.click(screen.getByRole('button', { name: 'Add key' }));
    expect(await screen.findByText(/not a real key/)).toBeInTheDocument();
    expect(screen.getByLabelText('Key')).toHaveValue('');
    // A screen reader hears the reason with the field, and the name field is not marked.
    expect(screen.getByLabelText('Key')).toHaveAccessibleDescription(/not a real key/);
    expect(screen.getByLabelText('Key')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByLabelText('Name')).not.toHaveAttribute('aria-describedby');
  });

  it('adds a key and shows it masked only', async () => {
    let status = withKeys();
    mockIPC((cmd, args) => {
      if (cmd === 'app_status') return status;
      if (cmd === 'key_add') {
        const { label } = args as { label: string };
        status = { ...status, keys: [...status.keys, { label, masked: 'dt_…f3a9', addedAt: '2026-11-21T10:00:00Z', verifiedAt: null }] };
        return status;
      }
      return totals;
    });
    const { container } = render(Keys);
    await userEvent.type(await screen.findByLabelText('Name'), 'home');
    await userEvent.type(screen.getByLabelText('Key'), fullKey);
    await userEvent.click(screen.getByRole('button', { name: 'Add key' }));
    expect(await screen.findByRole('button', { name: 'Verify home' })).toBeInTheDocument();
    expect(container.textContent).not.toContain(fullKey);
    expect(screen.getByLabelText('Key')).toHaveValue('');
  });

  it('explains a refused key (401) and a value that is not a key (403) in plain words', async () => {
    let kind = 'key_refused';
    mockIPC((cmd) => {
      if (cmd === 'app_status') return withKeys();
      if (cmd === 'key_verify') {
        throw {
          kind: 'service',
          message: 'Forbidden',
          error: { kind, message: 'Forbidden', fields: [], retry_after_secs: null, status: 401, received_events: null },
        };
      }
      return totals;
    });
    render(Keys);
    await userEvent.click(await screen.findByRole('button', { name: 'Verify work' }));
    expect(await screen.findByText(/refused this key/)).toBeInTheDocument();
    kind = 'not_an_api_key';
    await userEvent.click(screen.getByRole('button', { name: 'Verify work' }));
    expect(await screen.findByText(/not an API key at all/)).toBeInTheDocument();
  });

  it('rotates a key only through the service check, and deletes after confirmation', async () => {
    const calls: string[] = [];
    mockIPC((cmd, args) => {
      calls.push(cmd);
      if (cmd === 'app_status') return withKeys();
      if (cmd === 'key_rotate') {
        expect(args).toEqual({ label: 'work', newValue: fullKey });
        return withKeys();
      }
      if (cmd === 'key_delete') return { ...withKeys(), keys: withKeys().keys.slice(0, 1) };
      return totals;
    });
    render(Keys);
    await userEvent.click(await screen.findByRole('button', { name: 'Replace with a new key: work' }));
    await userEvent.type(screen.getByLabelText('New key'), fullKey);
    await userEvent.click(screen.getByRole('button', { name: 'Verify and replace' }));
    expect(await screen.findByText(/accepted the new key/)).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Delete spare' }));
    expect(calls).not.toContain('key_delete');
    await userEvent.click(screen.getByRole('button', { name: 'Delete key' }));
    expect(calls).toContain('key_delete');
    expect(screen.queryByText('dsr_…7c1d')).not.toBeInTheDocument();
  });
});
