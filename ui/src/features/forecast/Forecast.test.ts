import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import Forecast from './Forecast.svelte';
import { mockBackend } from '../../test/backend';
import type { HistoryEntry } from '$lib/bindings/HistoryEntry';
import { setDisplayZone } from '$lib/displayZone.svelte';

const earlier: HistoryEntry = {
  id: 7,
  request_id: 'r7',
  started_at: '2026-11-20T10:00:00Z',
  operation: 'forecast',
  params_json: JSON.stringify({ query: 'Will the harbour dam hold through March?', title: null, description: null, cutoff: '2027-03-31T22:00:00Z', topics: ['floods'], agent_version_id: null }),
  key_label: 'work',
  mode: 'live',
  status: 'ok',
  error_class: null,
  error_message: null,
  duration_ms: 40_000,
  result_count: 1,
  billing: { cost: '0.05', cost_text: '0.05', usage_count: 1, service: 'forecast', currency: 'USD' },
  cursor: null,
  next_cursor: null,
  parent_id: null,
  pinned: false,
  has_result: true,
  origin: null,
};

describe('Forecast', () => {
  it('shows the question of an earlier forecast once it is opened, not the last one typed', async () => {
    setDisplayZone('UTC');
    mockBackend({
      history_list: () => ({ entries: [earlier], total: 1 }),
      history_result: () => ({ entry: earlier, body: JSON.stringify({ status: 'COMPLETED' }) }),
    });
    const { unmount } = render(Forecast);
    const question = screen.getByRole('textbox', { name: 'Your question' });
    await userEvent.type(question, 'A draft about something else');
    await userEvent.click(await screen.findByRole('button', { name: /Will the harbour dam hold through March\?/ }));
    await expect.poll(() => (question as HTMLTextAreaElement).value).toBe('Will the harbour dam hold through March?');
    expect(screen.getByLabelText(/Resolves by/)).toHaveValue('2027-03-31 22:00');
    expect(screen.getByText('floods')).toBeInTheDocument();

    // The screen stops listening for job steps as it closes, while the mocked event plugin is there.
    (window as unknown as { __TAURI_EVENT_PLUGIN_INTERNALS__: { unregisterListener?: () => void } }).__TAURI_EVENT_PLUGIN_INTERNALS__.unregisterListener ??= () => {};
    unmount();
    await new Promise((resolve) => setTimeout(resolve, 0));
  });

  it('shows an earlier forecast the app still follows as followed, and Follow again as followed', async () => {
    setDisplayZone('UTC');
    const running: HistoryEntry = { ...earlier, status: 'running', has_result: true };
    let followed = true;
    const calls = mockBackend({
      history_list: () => ({ entries: [running], total: 1 }),
      history_result: () => ({ entry: running, body: JSON.stringify({ status: 'PENDING', prediction_id: 'p-7' }) }),
      forecast_following: () => followed,
      forecast_stop: () => {
        followed = false;
        return true;
      },
      forecast_resume: () => true,
    });
    const { unmount } = render(Forecast);
    await userEvent.click(await screen.findByRole('button', { name: /Will the harbour dam hold through March\?/ }));
    await expect.poll(() => screen.queryByTestId('forecast-state')?.textContent?.trim()).toBe('Waiting…');
    expect(calls.forecast_following?.[0]).toEqual({ historyId: 7 });
    await userEvent.click(screen.getByRole('button', { name: 'Stop following' }));
    expect(screen.getByTestId('forecast-state')).toHaveTextContent('Waiting (not followed now)');
    await userEvent.click(screen.getByRole('button', { name: 'Follow again' }));
    await expect.poll(() => screen.queryByTestId('forecast-state')?.textContent?.trim()).toBe('Waiting…');
    expect(screen.queryByText('This forecast is no longer running.')).toBeNull();
    (window as unknown as { __TAURI_EVENT_PLUGIN_INTERNALS__: { unregisterListener?: () => void } }).__TAURI_EVENT_PLUGIN_INTERNALS__.unregisterListener ??= () => {};
    unmount();
    await new Promise((resolve) => setTimeout(resolve, 0));
  });
});
