import { describe, expect, it } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import { emit } from '@tauri-apps/api/event';
import CustodyLog from './CustodyLog.svelte';
import { actionWords, idWords, shortHash } from './custodyWords';
import { holdable, mockBackend, reject } from '../../test/backend';
import type { CustodyLog as Log } from '$lib/bindings/CustodyLog';
import type { CustodyAction } from '$lib/bindings/CustodyAction';

const hash = (n: number) => String(n).repeat(64).slice(0, 64);

const log: Log = {
  entries: [
    { seq: 1, at: 1764234000000, collector: '', action: 'created', ids: [], detail: 'named “Harbour”', prev_hash: '0'.repeat(64), hash: hash(1) },
    {
      seq: 2,
      at: 1764234060000,
      collector: 'Jane Doe',
      action: 'post_added',
      ids: ['post:101', 'post:102', 'post:103', 'post:104', 'post:105'],
      detail: '5 posts, by hand',
      prev_hash: hash(1),
      hash: hash(2),
    },
  ],
  check: { state: 'unbroken', head_hash: hash(2), count: 2 },
  checkWords: 'The custody log’s chain is unbroken: 2 entries in order.',
};

describe('CustodyLog', () => {
  it('lists each entry with who, what, which ids and a shortened hash', async () => {
    mockBackend({ investigation_custody_log: () => log });
    render(CustodyLog, { id: 3 });
    const table = await screen.findByRole('table');
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(2);
    expect(rows[0]).toHaveTextContent('not named');
    expect(rows[0]).toHaveTextContent('Created');
    expect(rows[0]).toHaveTextContent('named “Harbour”');
    expect(rows[1]).toHaveTextContent('Jane Doe');
    expect(rows[1]).toHaveTextContent('post 101, post 102, post 103 and 2 more');
    expect(within(rows[1]!).getByText(shortHash(hash(2)))).toHaveAttribute('title', hash(2));
  });

  it('checks the chain when asked, reading the log again, and says the verdict in words', async () => {
    const broken: Log = {
      ...log,
      check: { state: 'broken', at_seq: 2, why: 'edited' },
      checkWords: 'The custody log’s chain is broken at entry 2: its content does not give the hash it carries.',
    };
    const calls = mockBackend({ investigation_custody_log: (_args, call) => (call === 1 ? log : broken) });
    render(CustodyLog, { id: 3 });
    await screen.findByRole('table');
    expect(screen.getByRole('status')).toHaveTextContent('');
    await userEvent.click(screen.getByRole('button', { name: 'Check the chain' }));
    const status = screen.getByRole('status');
    expect(await within(status).findByText('Broken at entry 2')).toBeInTheDocument();
    expect(status).toHaveTextContent('broken at entry 2: its content does not give the hash it carries');
    expect(calls.investigation_custody_log).toHaveLength(2);
    expect(calls.investigation_custody_log![1]).toEqual({ id: 3 });
  });

  it('keeps the newest log when a read asked before an entry was added answers after Check the chain', async () => {
    let stored = log;
    const reads = holdable(() => stored);
    mockBackend({ investigation_custody_log: reads.handler });
    render(CustodyLog, { id: 3 });
    expect(await screen.findByText('2 entries; times in the display zone (UTC on hover)')).toBeInTheDocument();

    // Records change: the log is read again, and that read is slow to answer.
    reads.hold();
    await emit('records-changed');
    await waitFor(() => expect(reads.held).toBe(1));

    // An entry is added, then the chain checked: that read answers at once.
    const added = { ...log.entries[1]!, seq: 3, action: 'note_changed' as const, prev_hash: hash(2), hash: hash(3) };
    stored = { entries: [...log.entries, added], check: { state: 'unbroken', head_hash: hash(3), count: 3 }, checkWords: 'The custody log’s chain is unbroken: 3 entries in order.' };
    await userEvent.click(screen.getByRole('button', { name: 'Check the chain' }));
    expect(await screen.findByText('3 entries; times in the display zone (UTC on hover)')).toBeInTheDocument();

    // The slow read, asked before the entry was added, answers only now.
    await reads.release();
    expect(screen.getByText('3 entries; times in the display zone (UTC on hover)')).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('unbroken: 3 entries in order');
  });

  it('says when the log cannot be read, and reads it again on Try again', async () => {
    mockBackend({
      investigation_custody_log: (_args, call) => (call === 1 ? reject({ kind: 'database', message: 'disk I/O error' }) : log),
    });
    render(CustodyLog, { id: 3 });
    expect(await screen.findByRole('alert')).toHaveTextContent('The custody log could not be read');
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('table')).toBeInTheDocument();
  });

  it('has words for every action and names ids by their kind', () => {
    const actions = Object.keys(actionWords) as CustodyAction[];
    expect(actions).toHaveLength(22);
    expect(actions.every((action) => actionWords[action].length > 0)).toBe(true);
    expect(idWords('request:12')).toBe('request 12');
    expect(idWords('odd')).toBe('odd');
  });
});
