import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import type { Channel } from '@tauri-apps/api/core';
import WaczExport from './WaczExport.svelte';
import { mockBackend } from '../test/backend';
import type { BundleProgress } from '$lib/bindings/BundleProgress';
import type { WaczOutcome } from '$lib/bindings/WaczOutcome';

describe('WaczExport', () => {
  it('shows progress while the web archive is written, then where it was saved and whose key signed it', async () => {
    let finish: (outcome: WaczOutcome) => void = () => {};
    let channel: Channel<BundleProgress> | undefined;
    const calls = mockBackend({
      wacz_export: (args) => {
        channel = args.progress as Channel<BundleProgress>;
        return new Promise((resolve) => (finish = resolve));
      },
    });
    render(WaczExport, { investigationId: 3 });
    await userEvent.click(screen.getByRole('button', { name: 'Export as web archive (WACZ)' }));
    expect(await screen.findByText('Gathering the investigation…')).toBeInTheDocument();
    channel?.onmessage({ done: 3, total: 12, file: 'archive/data.warc.gz' });
    expect(await screen.findByText('Step 3 of 12 · archive/data.warc.gz')).toBeInTheDocument();
    expect(screen.getByRole('progressbar', { name: 'Web archive written' })).toHaveAttribute('value', '25');
    expect(calls.wacz_export?.[0]).toMatchObject({ investigationId: 3 });

    finish({
      outcome: 'written',
      path: '/exports/case.wacz',
      posts: 1200,
      responses: 12,
      bytes: 3_100_000,
      signedBy: 'a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f90',
    });
    expect(await screen.findByRole('status')).toHaveTextContent(
      "Saved /exports/case.wacz: 1,200 post cards and 12 responses with their requests, 3.1 MB, signed by this installation's key a1b2c3d4e5f60718…. It is a WACZ web archive, the format ReplayWeb.page opens.",
    );
    await userEvent.click(screen.getByRole('button', { name: 'Show in folder' }));
    expect(calls.show_in_folder?.[0]).toEqual({ path: '/exports/case.wacz' });
  });

  it('cancels, and says nothing was saved', async () => {
    let finish: (outcome: WaczOutcome) => void = () => {};
    const calls = mockBackend({
      wacz_export: () => new Promise((resolve) => (finish = resolve)),
      wacz_cancel: () => finish({ outcome: 'cancelled' }),
    });
    render(WaczExport, { investigationId: 3 });
    await userEvent.click(screen.getByRole('button', { name: 'Export as web archive (WACZ)' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Cancel' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Export cancelled. Nothing was saved.');
    expect(calls.wacz_cancel).toHaveLength(1);
  });

  it('says in words why the archive was not saved', async () => {
    mockBackend({
      wacz_export: () => {
        throw { kind: 'file', message: 'The export folder /gone does not exist.' };
      },
    });
    render(WaczExport, { investigationId: 3 });
    await userEvent.click(screen.getByRole('button', { name: 'Export as web archive (WACZ)' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'The web archive was not saved: The export folder /gone does not exist.',
    );
  });
});
