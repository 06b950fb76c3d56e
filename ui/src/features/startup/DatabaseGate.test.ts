import { describe, expect, it } from 'vitest';
import { render, screen, waitFor } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import GateHarness from './GateHarness.test.svelte';
import { holdable, mockBackend, reject } from '../../test/backend';
import type { DatabaseStatus } from '$lib/bindings/DatabaseStatus';
import type { DatabaseProblem } from '$lib/bindings/DatabaseProblem';
import { notice } from '$lib/notices.svelte';
import { setStatus } from '$lib/status.svelte';
import type { AppStatus } from '$lib/ipc';

const ready: DatabaseStatus = { state: 'ready', readOnly: false, checking: false };

function migrating(elapsedMs: number): DatabaseStatus {
  return {
    state: 'opening',
    elapsedMs,
    step: {
      step: 'migrating',
      version: 8,
      description: 'analysis',
      number: 1,
      count: 2,
      posts_done: 140_000,
      posts_total: 1_000_000,
      backup: { outcome: 'made', file: '/data/backups/sightline-before-0008-2026-11-27T102945.658Z.db', bytes: 879_000_000 },
    },
  };
}

/** Answers each status call with the next of `answers`, the last one for good. */
function statuses(...answers: DatabaseStatus[]) {
  return (_: unknown, call: number) => answers[Math.min(call, answers.length) - 1];
}

const damaged: DatabaseProblem = {
  kind: 'damaged',
  message: 'Sightline checked this archive’s file and found it damaged.',
  details: ['*** in database main *** Page 40: btreeInitPage() returns error code 11'],
  file: '/data/demo.db',
  backup: null,
};

describe('DatabaseGate', () => {
  it('shows the app at once when the archive opens quickly, and nothing before', async () => {
    mockBackend({ database_status: statuses({ state: 'opening', elapsedMs: 40, step: null }, ready) });
    render(GateHarness);
    expect(screen.queryByRole('heading')).toBeNull();
    expect(await screen.findByText('The app itself')).toBeInTheDocument();
  });

  it('follows the archive of the mode now: an answer asked before the mode changed is not shown', async () => {
    const mode = (name: AppStatus['mode']): AppStatus => ({ mode: name, demoForced: false, keys: [], activeKey: null, serviceConfigured: true });
    let archive: DatabaseStatus = { state: 'problem', problem: damaged };
    const reads = holdable(() => archive);
    mockBackend({ database_status: reads.handler });
    setStatus(mode('demo'));
    // The demo archive's status is slow to answer.
    reads.hold();
    render(GateHarness);
    await waitFor(() => expect(reads.held).toBe(1));

    // The mode changes: the other mode's archive is followed, and it is ready.
    archive = ready;
    setStatus(mode('live'));
    expect(await screen.findByText('The app itself')).toBeInTheDocument();

    // The demo archive's answer arrives only now.
    await reads.release();
    expect(screen.getByText('The app itself')).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'This archive’s file is damaged' })).toBeNull();
  });

  it('shows an upgrade longer than a second in posts done of total, then the app', async () => {
    mockBackend({ database_status: statuses(migrating(400), migrating(1_300), migrating(1_500), ready) });
    render(GateHarness);
    expect(await screen.findByRole('heading', { name: 'Sightline is getting your archive ready' })).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Upgrading your archive: about 140,000 of 1,000,000 posts (step 1 of 2)');
    expect(screen.getByRole('progressbar')).toHaveAttribute('value', '0.14');
    expect(screen.getByText(/A copy of your archive as it was is kept in \/data\/backups\/sightline-before-0008/)).toBeInTheDocument();
    expect(screen.getByText(/You can quit: the upgrade goes on where it stopped/)).toBeInTheDocument();
    expect(await screen.findByText('The app itself')).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Sightline is getting your archive ready' })).toBeNull();
  });

  it('offers read-only for a database from a newer Sightline, and says so over the app', async () => {
    let now: DatabaseStatus = {
      state: 'problem',
      problem: { ...damaged, kind: 'newer', message: 'This archive was last used by a newer version of Sightline.', details: [] },
    };
    const calls = mockBackend({
      database_status: () => now,
      database_open_read_only: () => {
        now = { state: 'ready', readOnly: true, checking: false };
        return { status: now, setAside: null };
      },
    });
    render(GateHarness);
    expect(await screen.findByRole('heading', { level: 1, name: 'This archive is from a newer Sightline' })).toBeInTheDocument();
    expect(screen.queryByText('The app itself')).toBeNull();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Open it read-only' }));
    expect(await screen.findByText('The app itself')).toBeInTheDocument();
    expect(screen.getByText(/Read-only: this archive is shown as it is/)).toBeInTheDocument();
    expect(calls.database_open_read_only).toHaveLength(1);
  });

  it('turns to the recovery screen when the check finds damage, and starts a new archive keeping the old file', async () => {
    let afresh = false;
    const checked = statuses({ state: 'ready', readOnly: false, checking: true }, { state: 'problem', problem: damaged });
    const calls = mockBackend({
      database_status: (args, call) => (afresh ? ready : checked(args, call)),
      database_start_afresh: () => {
        afresh = true;
        return { status: ready, setAside: '/data/demo-damaged-2026-11-27T103000.000Z.db' };
      },
    });
    render(GateHarness);
    expect(await screen.findByText('The app itself')).toBeInTheDocument();
    expect(await screen.findByRole('heading', { level: 1, name: 'This archive’s file is damaged' })).toBeInTheDocument();
    // No copy was ever made: nothing to restore, and it says why.
    expect(screen.queryByRole('button', { name: 'Restore the last copy' })).toBeNull();
    expect(screen.getByText(/There is no copy to restore/)).toBeInTheDocument();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Start a new archive' }));
    expect(await screen.findByText('The app itself')).toBeInTheDocument();
    expect(notice.message).toBe('The previous archive file was kept as /data/demo-damaged-2026-11-27T103000.000Z.db. Nothing was deleted.');
    expect(calls.database_start_afresh).toHaveLength(1);
  });

  it('offers the last copy with its date and says what a failed choice did', async () => {
    mockBackend({
      database_status: () => ({
        state: 'problem',
        problem: { ...damaged, backup: { file: '/data/backups/demo-before-0008.db', madeAt: '2026-11-20T09:30:00Z', bytes: 2_500_000 } },
      }),
      database_restore_backup: () =>
        reject({ kind: 'file', message: 'The archive’s file could not be set aside: permission denied. Nothing was changed or deleted.' }),
    });
    render(GateHarness);
    const restore = await screen.findByRole('button', { name: 'Restore the last copy' });
    expect(screen.getByText(/made before its last upgrade, on 2026-11-20 09:30:00 UTC \(2.5 MB\)/)).toBeInTheDocument();
    await userEvent.setup().click(restore);
    expect(await screen.findByRole('alert')).toHaveTextContent('could not be set aside: permission denied');
    expect(screen.getByRole('heading', { level: 1, name: 'This archive’s file is damaged' })).toBeInTheDocument();
  });
});
