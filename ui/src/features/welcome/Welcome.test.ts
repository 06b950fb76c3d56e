import { beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import { mockIPC } from '@tauri-apps/api/mocks';
import Welcome from './Welcome.svelte';
import { welcomeDismissed } from './welcome';
import type { AppStatus } from '$lib/ipc';
import type { FirstKeyOutcome } from '$lib/bindings/FirstKeyOutcome';
import { setStatus } from '$lib/status.svelte';

const KEY = 'dt_$abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG';
const SPEND = { today: '0', this_month: '0', all_time: '0' };

const live: AppStatus = {
  mode: 'live',
  demoForced: false,
  keys: [{ label: 'My key', masked: 'dt_…f3a9', addedAt: '2026-11-21T10:00:00Z', verifiedAt: '2026-11-21T10:00:01Z' }],
  activeKey: 'My key',
  serviceConfigured: true,
};

/** The status before the welcome: demo, no key, and the service address known or not. */
function firstRun(serviceConfigured: boolean) {
  mockIPC(() => SPEND);
  setStatus({ mode: 'demo', demoForced: false, keys: [], activeKey: null, serviceConfigured });
}

function notSaved(problem: Extract<FirstKeyOutcome, { outcome: 'not_saved' }>['problem'], extra: Partial<FirstKeyOutcome> = {}): FirstKeyOutcome {
  const field = ['key_refused', 'not_a_key'].includes(problem) ? 'key' : ['offline', 'unreachable', 'service_trouble'].includes(problem) ? null : 'address';
  const maySaveAnyway = ['no_answer', 'offline', 'unreachable', 'service_trouble'].includes(problem);
  return { outcome: 'not_saved', problem, field, status: null, maySaveAnyway, ...extra } as FirstKeyOutcome;
}

beforeEach(() => localStorage.clear());

describe('Welcome', () => {
  it('explores with demo data and remembers the choice', async () => {
    firstRun(true);
    const calls: unknown[] = [];
    mockIPC((cmd, args) => {
      calls.push([cmd, args]);
      if (cmd === 'use_demo') return { ...live, mode: 'demo', keys: [], activeKey: null };
      return SPEND;
    });
    const onDone = vi.fn();
    render(Welcome, { onDone });
    await userEvent.click(screen.getByRole('button', { name: 'Explore with demo data' }));
    expect(onDone).toHaveBeenCalled();
    expect(calls).toContainEqual(['use_demo', { demo: true }]);
    expect(welcomeDismissed()).toBe(true);
  });

  it('refuses a placeholder in plain words under the key field', async () => {
    firstRun(true);
    mockIPC((cmd) => {
      if (cmd === 'key_connect') {
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
      return SPEND;
    });
    const onDone = vi.fn();
    render(Welcome, { onDone });
    await userEvent.type(screen.getByLabelText('API key'), 'YOUR_API_KEY');
    await userEvent.click(screen.getByRole('button', { name: 'Use this key' }));
    expect(await screen.findByText(/not a real key/)).toBeInTheDocument();
    expect(screen.getByLabelText('API key')).toHaveAccessibleDescription(/not a real key/);
    expect(screen.getByLabelText('API key')).toHaveFocus();
    expect(onDone).not.toHaveBeenCalled();
    expect(welcomeDismissed()).toBe(false);
  });

  it('does not ask for the address when it is already known, and checks the key there', async () => {
    firstRun(true);
    let sent: unknown = null;
    mockIPC((cmd, args) => {
      if (cmd === 'key_connect') {
        sent = args;
        return { outcome: 'saved', status: live, checked: true } satisfies FirstKeyOutcome;
      }
      return SPEND;
    });
    const onDone = vi.fn();
    render(Welcome, { onDone });
    expect(screen.queryByLabelText('Service address')).toBeNull();
    await userEvent.type(screen.getByLabelText('API key'), KEY);
    await userEvent.click(screen.getByRole('button', { name: 'Use this key' }));
    expect(onDone).toHaveBeenCalled();
    expect(sent).toEqual({ first: { label: 'My key', value: KEY, address: null, checkLater: false } });
    expect(screen.getByLabelText('API key')).toHaveValue('');
  });

  it('asks for the address when none is known and names each failed check next to its field', async () => {
    firstRun(false);
    const answers: FirstKeyOutcome[] = [notSaved('no_such_host'), notSaved('not_this_service', { status: 404 }), notSaved('key_refused')];
    const sent: unknown[] = [];
    mockIPC((cmd, args) => {
      if (cmd === 'key_connect') {
        sent.push(args);
        return answers.shift();
      }
      return SPEND;
    });
    const onDone = vi.fn();
    render(Welcome, { onDone });
    const send = screen.getByRole('button', { name: 'Use this key' });
    await userEvent.type(screen.getByLabelText('API key'), KEY);
    expect(send).toBeDisabled();
    await userEvent.type(screen.getByLabelText('Service address'), 'https://api.exmaple.com');
    await userEvent.click(send);

    const address = screen.getByLabelText('Service address');
    expect(await screen.findByText(/No computer has this name/)).toBeInTheDocument();
    expect(address).toHaveAccessibleDescription(/No computer has this name/);
    expect(address).toHaveAttribute('aria-invalid', 'true');
    expect(address).toHaveFocus();
    expect(screen.queryByRole('button', { name: 'Save anyway, check later' })).toBeNull();

    await userEvent.click(send);
    expect(await screen.findByText(/not the search service.*\(It answered with code 404\.\)/)).toBeInTheDocument();

    await userEvent.click(send);
    const key = screen.getByLabelText('API key');
    expect(await screen.findByText(/refused this key \(401\)/)).toBeInTheDocument();
    expect(key).toHaveAccessibleDescription(/refused this key/);
    expect(address).not.toHaveAttribute('aria-invalid');
    expect(sent[0]).toEqual({ first: { label: 'My key', value: KEY, address: 'https://api.exmaple.com', checkLater: false } });
    expect(onDone).not.toHaveBeenCalled();
  });

  it('offers to save and check later only when the network may be at fault', async () => {
    firstRun(false);
    const sent: unknown[] = [];
    mockIPC((cmd, args) => {
      if (cmd === 'key_connect') {
        sent.push(args);
        return sent.length === 1 ? notSaved('offline') : ({ outcome: 'saved', status: live, checked: false } satisfies FirstKeyOutcome);
      }
      return SPEND;
    });
    const onDone = vi.fn();
    render(Welcome, { onDone });
    await userEvent.type(screen.getByLabelText('API key'), KEY);
    await userEvent.type(screen.getByLabelText('Service address'), 'https://api.example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Use this key' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(/seems to be offline/);
    await userEvent.click(screen.getByRole('button', { name: 'Save anyway, check later' }));
    expect(sent[1]).toEqual({ first: { label: 'My key', value: KEY, address: 'https://api.example.com', checkLater: true } });
    expect(onDone).toHaveBeenCalled();
  });
});
