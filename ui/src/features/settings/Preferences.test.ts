import { describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import { mockIPC } from '@tauri-apps/api/mocks';
import Preferences from './Preferences.svelte';
import type { AppSettings } from '$lib/bindings/AppSettings';
import { TIME_ZONE_NAMES } from '$lib/bindings/TimeZoneNames';
import { setDisplayZone, zoneSetting } from '$lib/displayZone.svelte';

const settings: AppSettings = {
  baseUrl: null,
  connectTimeoutSecs: 10,
  requestTimeoutSecs: 120,
  streamIdleTimeoutSecs: 60,
  retryAttempts: 3,
  mediaKeepAllArchived: false,
  mediaSizeLimitMb: 100,
  mediaSafeView: true,
  theme: 'system',
  exportFolder: null,
  displayZone: null,
  collectedBy: null,
  tsaUrl: null,
  tsaCertificatePem: null,
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

  it("shows the media size limit's problem under it and says who fetches media", async () => {
    mockIPC((cmd) => {
      if (cmd === 'settings_get') return settings;
      if (cmd === 'settings_set') {
        throw {
          kind: 'invalid',
          message: '1 field needs changing before this can be sent.',
          fields: [{ field: 'mediaSizeLimitMb', message: 'Choose between 1 and 2048 MB.' }],
        };
      }
      return undefined;
    });
    render(Preferences);
    const media = await screen.findByRole('group', { name: 'Media' });
    expect(media).toHaveAccessibleDescription(expect.stringContaining('never from the window you read in'));
    expect(screen.getByLabelText(/^Safe view/)).toBeChecked();
    await userEvent.click(screen.getByRole('button', { name: 'Save settings' }));
    expect(await screen.findByText('Choose between 1 and 2048 MB.')).toBeInTheDocument();
    expect(screen.getByLabelText('Largest media file kept (MB)')).toHaveAttribute('aria-invalid', 'true');
  });

  it('saves the settings and applies the chosen theme', async () => {
    let sent: AppSettings | null = null;
    const asked: string[] = [];
    mockIPC((cmd, args) => {
      asked.push(cmd);
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
    await userEvent.click(screen.getByLabelText(/^Safe view/));
    await userEvent.click(screen.getByLabelText(/^Keep the media of every archived post/));
    const limit = screen.getByLabelText('Largest media file kept (MB)');
    await userEvent.clear(limit);
    await userEvent.type(limit, '250');
    await userEvent.type(screen.getByLabelText('Save exports in this folder'), '/home/reader/Exports');
    await userEvent.click(screen.getByRole('button', { name: 'Save settings' }));
    expect(await screen.findByText('Saved.')).toBeInTheDocument();
    expect(sent).toEqual({
      ...settings,
      baseUrl: 'https://api.example.org',
      theme: 'dark',
      mediaSafeView: false,
      mediaKeepAllArchived: true,
      mediaSizeLimitMb: 250,
      exportFolder: '/home/reader/Exports',
    });
    expect(document.documentElement.dataset.theme).toBe('dark');
    // Every archived post's media kept from now: those archived before are queued too.
    await vi.waitFor(() => expect(asked).toContain('media_backfill_start'));
    expect(asked).not.toContain('media_backfill_stop');
  });

  it('picks a zone from the list Rust gives, narrowed by a search, saves it and shows times in it', async () => {
    setDisplayZone('Europe/Paris', 'Europe/Paris');
    let sent: AppSettings | null = null;
    mockIPC((cmd, args) => {
      if (cmd === 'settings_get') return settings;
      if (cmd === 'settings_set') {
        sent = (args as { settings: AppSettings }).settings;
        return sent;
      }
      if (cmd === 'display_zone') return { zone: sent?.displayZone ?? 'Europe/Paris', system: 'Europe/Paris' };
      return undefined;
    });
    render(Preferences);
    const list = await screen.findByLabelText('Time zone');
    const options = () => Array.from(list.querySelectorAll('option'));
    // System first, named; then exactly the zones Rust accepts.
    expect(options()[0]).toHaveTextContent('System (Europe/Paris)');
    expect((list as HTMLSelectElement).value).toBe('');
    expect(options().slice(1).map((option) => option.value)).toEqual([...TIME_ZONE_NAMES]);
    expect(screen.getByText(/Every time is shown in this zone/)).toHaveTextContent(/CES?T\)/);

    await userEvent.type(screen.getByLabelText('Find a time zone'), 'kolk');
    expect(options().map((option) => option.value)).toEqual(['', 'Asia/Kolkata']);
    expect(options()[1]).toHaveTextContent('Asia/Kolkata · UTC+05:30');
    await userEvent.selectOptions(list, 'Asia/Kolkata');
    await userEvent.type(screen.getByLabelText('Find a time zone'), 'zzz');
    expect(screen.getByText(/No zone matches/)).toBeInTheDocument();
    // The chosen zone stays listed while nothing else matches.
    expect(options().map((option) => option.value)).toEqual(['', 'Asia/Kolkata']);

    await userEvent.click(screen.getByRole('button', { name: 'Save settings' }));
    expect(await screen.findByText('Saved.')).toBeInTheDocument();
    expect(sent).toEqual({ ...settings, displayZone: 'Asia/Kolkata' });
    await vi.waitFor(() => expect(zoneSetting.zone).toBe('Asia/Kolkata'));
  });

  it('shows an unknown zone as an error beside the list', async () => {
    mockIPC((cmd) => {
      if (cmd === 'settings_get') return { ...settings, displayZone: 'Europe/Atlantis' };
      if (cmd === 'settings_set') {
        throw {
          kind: 'invalid',
          message: '1 field needs changing before this can be sent.',
          fields: [{ field: 'displayZone', message: '“Europe/Atlantis” is not a time zone Sightline knows.' }],
        };
      }
      return undefined;
    });
    render(Preferences);
    await userEvent.click(await screen.findByRole('button', { name: 'Save settings' }));
    expect(await screen.findByLabelText('Time zone')).toHaveAccessibleDescription(expect.stringContaining('is not a time zone Sightline knows'));
    expect(screen.getByLabelText('Time zone')).toHaveAttribute('aria-invalid', 'true');
  });
});
