import { describe, expect, it } from 'vitest';
import { render, screen, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import { mockIPC } from '@tauri-apps/api/mocks';
import Settings from './Settings.svelte';
import type { AppInfo } from '$lib/ipc';

const info: AppInfo = {
  version: '0.1.0',
  dataDir: '/home/reader/.local/share/app.sightline.desktop',
  logDir: '/home/reader/.local/share/app.sightline.desktop/logs',
  keychain: { reachable: true, detail: 'Secret Service (GNOME Keyring or KWallet)' },
  demoForced: false,
};

describe('Settings', () => {
  it('shows the version, the data folder and a reachable keychain', async () => {
    mockIPC((cmd) => (cmd === 'app_info' ? info : undefined));
    render(Settings);
    expect(await screen.findByTestId('app-version')).toHaveTextContent('0.1.0');
    expect(screen.getByTestId('data-dir')).toHaveTextContent(info.dataDir);
    expect(screen.getByTestId('keychain-status')).toHaveTextContent('Reachable');
    expect(screen.getByRole('heading', { name: 'Settings' })).toBeInTheDocument();
  });

  it('explains an unreachable keychain and lets the user check again', async () => {
    let calls = 0;
    mockIPC((cmd) => {
      if (cmd !== 'app_info') return undefined;
      calls += 1;
      return { ...info, keychain: { reachable: calls > 1, detail: 'it may be locked or not running' } };
    });
    render(Settings);
    expect(await screen.findByTestId('keychain-status')).toHaveTextContent('Not reachable');
    expect(screen.getByText(/unlock\s+or start it/)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Check again' }));
    expect(await screen.findByText('Reachable')).toBeInTheDocument();
  });

  it('opens the log folder, and says so when it cannot', async () => {
    const opened: string[] = [];
    let works = true;
    mockIPC((cmd) => {
      if (cmd === 'app_info') return info;
      if (cmd === 'open_log_folder') {
        opened.push(cmd);
        if (!works) throw { kind: 'system', message: 'No file manager could open the log folder.' };
      }
      return undefined;
    });
    render(Settings);
    expect(await screen.findByTestId('log-dir')).toHaveTextContent(info.logDir);
    expect(screen.getByText(/never holds your API key/)).toBeInTheDocument();
    const button = screen.getByRole('button', { name: 'Open the log folder' });
    await userEvent.click(button);
    expect(opened).toHaveLength(1);
    // Other sections (read from a backend this test leaves empty) may say they could not read
    // theirs: only the log folder's own alert counts here.
    const logAlert = () => screen.queryAllByRole('alert').find((shown) => shown.textContent?.includes('log folder'));
    expect(logAlert()).toBeUndefined();

    works = false;
    await userEvent.click(button);
    await expect.poll(() => logAlert()?.textContent).toContain('No file manager could open the log folder.');
  });

  it('says what failed when the command fails, with a retry', async () => {
    mockIPC(() => {
      throw new Error('the data folder is not writable');
    });
    render(Settings);
    // The signing section says it could not read its key too: this is the installation's alert.
    const alerts = await screen.findAllByRole('alert');
    const alert = alerts.find((shown) => shown.textContent?.includes('could not read its own settings'));
    expect(alert).toHaveTextContent('the data folder is not writable');
    expect(within(alert!).getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });
});
