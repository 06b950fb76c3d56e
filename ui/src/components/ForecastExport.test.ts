import { afterEach, describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import { clearMocks, mockIPC } from '@tauri-apps/api/mocks';
import ForecastExport from '$components/ForecastExport.svelte';
import { forecastExportFormats, forecastExportNote } from '$lib/forecastExport';

afterEach(() => clearMocks());

describe('exporting forecasts', () => {
  it('offers the citation first, then CSV and JSON Lines', () => {
    expect(forecastExportFormats.map((f) => f.value)).toEqual(['markdown', 'csv', 'jsonl']);
  });

  it('says what was saved where', () => {
    expect(forecastExportNote('/tmp/f.md', 1)).toBe('Saved this forecast to /tmp/f.md');
    expect(forecastExportNote('/tmp/f.csv', 3)).toBe('Saved 3 forecasts to /tmp/f.csv');
    expect(forecastExportNote('/tmp/f.csv', null)).toBe('Saved all forecasts to /tmp/f.csv');
  });

  it('exports the given forecast in the chosen format and says where it went', async () => {
    const calls: unknown[] = [];
    mockIPC((cmd, args) => {
      if (cmd === 'export_forecasts') {
        calls.push(args);
        return '/home/me/sightline-forecasts.csv';
      }
    });
    render(ForecastExport, { ids: [7], label: 'Export this forecast', idPrefix: 't' });
    await userEvent.selectOptions(screen.getByLabelText('Export as'), 'csv');
    await userEvent.click(screen.getByRole('button', { name: 'Export this forecast' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Saved this forecast to /home/me/sightline-forecasts.csv');
    expect(calls).toEqual([{ query: {}, format: 'csv', ids: [7] }]);
  });

  it('exports every forecast when none is named, and says plainly when it fails', async () => {
    const calls: unknown[] = [];
    mockIPC((cmd, args) => {
      if (cmd === 'export_forecasts') {
        calls.push(args);
        throw { kind: 'file', message: 'The export folder /gone does not exist.' };
      }
    });
    render(ForecastExport, { label: 'Export all forecasts', idPrefix: 't' });
    await userEvent.click(screen.getByRole('button', { name: 'Export all forecasts' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The export failed: The export folder /gone does not exist.');
    expect(calls).toEqual([{ query: {}, format: 'markdown', ids: null }]);
  });

  it('says nothing when the save dialog is cancelled', async () => {
    mockIPC((cmd) => (cmd === 'export_forecasts' ? null : undefined));
    render(ForecastExport, { ids: [1, 2], idPrefix: 't' });
    await userEvent.click(screen.getByRole('button', { name: 'Export' }));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(screen.queryByRole('status')).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
