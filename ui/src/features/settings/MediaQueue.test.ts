import { describe, expect, it } from 'vitest';
import { render, screen, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import { mockIPC } from '@tauri-apps/api/mocks';
import MediaQueue from './MediaQueue.svelte';
import type { BackfillStatus } from '$lib/bindings/BackfillStatus';
import type { MediaCounts } from '$lib/bindings/MediaCounts';

const counts: MediaCounts = { waiting: 12, kept: 340, gone: 5, failed: 3, too_large: 1, files: 300, bytes: 45_600_000 };
const idle: BackfillStatus = { running: false, done: false, readTo: 0, lastPk: 0, queued: 0 };

describe('Settings → Media kept', () => {
  it('shows the queue by state and sends the failed items back to it', async () => {
    let now = { ...counts };
    const asked: string[] = [];
    mockIPC((cmd) => {
      asked.push(cmd);
      if (cmd === 'media_progress') return now;
      if (cmd === 'media_backfill_status') return idle;
      if (cmd === 'media_retry_failed') {
        now = { ...now, waiting: now.waiting + now.failed, failed: 0 };
        return 3;
      }
      return undefined;
    });
    render(MediaQueue);
    const list = await screen.findByTestId('media-counts');
    expect(within(list).getByTestId('media-count-waiting')).toHaveTextContent('12');
    expect(within(list).getByTestId('media-count-kept')).toHaveTextContent('340');
    expect(within(list).getByTestId('media-count-gone')).toHaveTextContent('5');
    expect(within(list).getByTestId('media-count-failed')).toHaveTextContent('3');
    expect(within(list).getByTestId('media-count-too_large')).toHaveTextContent('1');
    expect(list).toHaveTextContent('300 files, 45.6 MB');
    // Nothing stopped or running: no backfill line.
    expect(screen.queryByTestId('media-backfill')).not.toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Retry failed' }));
    expect(await screen.findByRole('status')).toHaveTextContent('3 items wait to be fetched again.');
    expect(asked.filter((cmd) => cmd === 'media_retry_failed')).toHaveLength(1);
    expect(within(list).getByTestId('media-count-waiting')).toHaveTextContent('15');
    expect(screen.getByRole('button', { name: 'Retry failed' })).toBeDisabled();
  });

  it('shows the archived posts being queued, stops it and goes on', async () => {
    let status: BackfillStatus = { running: true, done: false, readTo: 400, lastPk: 1000, queued: 250 };
    mockIPC((cmd) => {
      if (cmd === 'media_progress') return { ...counts, failed: 0 };
      if (cmd === 'media_backfill_status') return status;
      if (cmd === 'media_backfill_stop') return (status = { ...status, running: false });
      if (cmd === 'media_backfill_start') return (status = { ...status, running: true });
      return undefined;
    });
    render(MediaQueue);
    const line = await screen.findByTestId('media-backfill');
    expect(line).toHaveTextContent('Queueing the media of archived posts: 40% read, 250 pictures and videos queued so far.');
    expect(within(line).getByRole('progressbar', { name: 'Archived posts read' })).toHaveAttribute('value', '40');
    expect(screen.getByRole('button', { name: 'Retry failed' })).toBeDisabled();

    await userEvent.click(within(line).getByRole('button', { name: 'Stop' }));
    expect(await within(line).findByText(/stopped at 40% read/)).toBeInTheDocument();
    await userEvent.click(within(line).getByRole('button', { name: 'Go on' }));
    expect(await within(line).findByRole('button', { name: 'Stop' })).toBeInTheDocument();
  });
});
