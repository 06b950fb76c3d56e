import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import { mockIPC } from '@tauri-apps/api/mocks';
import Preferences from './Preferences.svelte';
import type { AppSettings } from '../../lib/bindings/AppSettings';

const settings: AppSettings = {
  baseUrl: null,
  connectTimeoutSecs: 10,
  requestTimeoutSecs: 120,
  streamIdleTimeoutSecs: 60,
  retryAttempts: 3,
  loadRemoteMedia: false,
  theme: 'system',
  exportFolder: null,
};

describe('Preferences', () => {
  it('shows field errors under their fields', async () => {
    mockIPC((cmd) => {
      if (cmd === 'settings_get') return settings;
      if (cmd === 'settings_set') {
        throw {
          kind: 'invalid',
          message: '2 fields need changing before this can be sent.',
          fields: [
            { field: 'baseUrl', message: 'Enter the full address, starting with https://' },
            { field: 'retryAttempts', message: 'Choose between 1 (no retry) and 10 attempts.' },
          ],
        };
      }
      return undefined;
    });
    render(Preferences);
    await userEvent.type(await screen.findByLabelText('Service address'), 'example');
    await userEvent.click(screen.getByRole('button', { name: 'Save settings' }));
    expect(await screen.findByText('Enter the full address, starting with https://')).toBeInTheDocument();
    expect(screen.getByLabelText('Attempts for reads that failed (1 = no retry)')).toHaveAccessibleDescription(
      'Choose between 1 (no retry) and 10 attempts.',
    );
  });

  it('saves the settings and applies the chosen theme', async () => {
    let sent: AppSettings | null = null;
    mockIPC((cmd, args) => {
      if (cmd === 'settings_get') return settings;
      if (cmd === 'settings_set') {
        sent = (args as { settings: AppSettings }).settings;
        return sent;
      }
      return undefined;
    });
    render(Preferences);
    await userEvent.type(await screen.findByLabelText('Service address'), 'https://api.example.org');
    await userEvent.click(screen.getByLabelText('Dark'));
    await userEvent.click(screen.getByLabelText('Load avatars and images from other sites'));
    await userEvent.type(screen.getByLabelText('Save exports in this folder'), '/home/reader/Exports');
    await userEvent.click(screen.getByRole('button', { name: 'Save settings' }));
    expect(await screen.findByText('Saved.')).toBeInTheDocument();
    expect(sent).toEqual({
      ...settings,
      baseUrl: 'https://api.example.org',
      theme: 'dark',
      loadRemoteMedia: true,
      exportFolder: '/home/reader/Exports',
    });
    expect(document.documentElement.dataset.theme).toBe('dark');
  });
});
