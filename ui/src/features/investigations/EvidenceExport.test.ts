import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import type { Channel } from '@tauri-apps/api/core';
import EvidenceExport from '$components/EvidenceExport.svelte';
import VerifyBundle from './VerifyBundle.svelte';
import { mockBackend } from '../../test/backend';
import type { BundleCheck } from '$lib/bindings/BundleCheck';
import type { BundleOutcome } from '$lib/bindings/BundleOutcome';
import type { BundleProgress } from '$lib/bindings/BundleProgress';
import type { ReadProgress } from '$lib/bindings/ReadProgress';

describe('EvidenceExport', () => {
  it('shows progress while the bundle is written, then where it was saved', async () => {
    let finish: (outcome: BundleOutcome) => void = () => {};
    let channel: Channel<BundleProgress> | undefined;
    const calls = mockBackend({
      evidence_export: (args) => {
        channel = args.progress as Channel<BundleProgress>;
        return new Promise((resolve) => (finish = resolve));
      },
    });
    render(EvidenceExport, { source: { investigationId: 3 } });
    await userEvent.click(screen.getByRole('button', { name: 'Export evidence bundle' }));
    expect(await screen.findByText('Gathering the investigation…')).toBeInTheDocument();
    channel?.onmessage({ done: 5, total: 20, file: 'responses/0005-twitter-search-a.json' });
    expect(await screen.findByText('Step 5 of 20 · responses/0005-twitter-search-a.json')).toBeInTheDocument();
    expect(screen.getByRole('progressbar', { name: 'Evidence bundle written' })).toHaveAttribute('value', '25');
    expect(calls.evidence_export?.[0]).toMatchObject({ investigationId: 3, historyIds: null, postIds: null });

    finish({ outcome: 'written', path: '/exports/b.zip', files: 9, posts: 1200, responses: 12, bytes: 2_400_000, manifestSha256: 'eeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee', signedBy: 'a1b2c3d4e5f60718000000000000000000000000000000000000000000000000', manifestStamp: { state: 'stamped', stampedAt: '2026-11-27T21:30:05.000Z', authority: 'Sightline Test TSA' } });
    expect(await screen.findByRole('status')).toHaveTextContent(
      "Saved /exports/b.zip: 1,200 posts, 12 responses as received, 2.4 MB in 9 files (SHA256SUMS and the 8 it lists), signed by this installation's key a1b2c3d4e5f60718…. Its manifest is stamped by Sightline Test TSA at 2026-11-27 21:30:05 UTC.",
    );
    expect(screen.getByRole('button', { name: 'Export evidence bundle' })).toBeEnabled();

    // The file is one click from the system's file manager.
    await userEvent.click(screen.getByRole('button', { name: 'Show in folder' }));
    expect(calls.show_in_folder?.[0]).toEqual({ path: '/exports/b.zip' });
  });

  it('cancels, and says nothing was saved', async () => {
    let finish: (outcome: BundleOutcome) => void = () => {};
    const calls = mockBackend({
      evidence_export: () => new Promise((resolve) => (finish = resolve)),
      evidence_cancel: () => finish({ outcome: 'cancelled' }),
    });
    render(EvidenceExport, { source: { historyIds: [1, 2], postIds: ['9'] } });
    await userEvent.click(screen.getByRole('button', { name: 'Export evidence bundle' }));
    expect(await screen.findByText('Gathering the selection…')).toBeInTheDocument();
    await userEvent.click(await screen.findByRole('button', { name: 'Cancel' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Export cancelled. Nothing was saved.');
    expect(calls.evidence_cancel).toHaveLength(1);
    expect(calls.evidence_export?.[0]).toMatchObject({ investigationId: null, historyIds: [1, 2], postIds: ['9'] });
  });

  it('says in words why a bundle was not saved', async () => {
    mockBackend({
      evidence_export: () => {
        throw { kind: 'file', message: 'The export folder /gone does not exist.' };
      },
    });
    render(EvidenceExport, { source: { investigationId: 3 } });
    await userEvent.click(screen.getByRole('button', { name: 'Export evidence bundle' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The evidence bundle was not saved: The export folder /gone does not exist.');
  });
});

const tampered: BundleCheck = {
  path: '/exports/b.zip',
  files: [
    { path: 'SHA256SUMS', outcome: 'matches', expected: 'a', actual: 'a' },
    { path: 'notes.md', outcome: 'missing', expected: 'b', actual: null },
    { path: 'posts.csv', outcome: 'changed', expected: 'c', actual: 'd' },
    { path: 'report.html', outcome: 'matches', expected: 'e', actual: 'e' },
    { path: 'responses/9999-planted.json', outcome: 'extra', expected: null, actual: 'f' },
  ],
  listsAgree: false,
  disagreements: ['SHA256SUMS and manifest.json give posts.csv different hashes.'],
  findings: [
    {
      kind: 'duplicateName',
      path: 'posts.csv',
      words: 'Two entries are named posts.csv: tools differ on which one they show, so each copy was checked.',
    },
  ],
  stopped: false,
  intact: false,
  signature: {
    state: 'invalid',
    fingerprint: '3f9a0c1e'.repeat(8),
    standing: 'current',
    declaredFingerprint: '3f9a0c1e'.repeat(8),
    why: null,
  },
  stamps: [
    {
      of: 'responses/0001-twitter-search-req-1.json',
      file: 'timestamps/0001-twitter-search-req-1.tsr',
      valid: false,
      stampedAt: null,
      authority: null,
      chain: null,
      why: 'The token is for another hash.',
    },
    { of: 'manifest.json', file: 'manifest.json.tsr', valid: true, stampedAt: '2026-11-27T21:00:00.000Z', authority: 'Test TSA', chain: null, why: null },
  ],
  stampCounts: { captures: 1, stamped: 1, waiting: 0, failed: 0, notStamped: 0 },
  custody: { state: 'fails', entries: 3, head: null, brokenAt: 2, why: 'that entry is missing.' },
  manifestSha256: 'ab'.repeat(32),
  exported: null,
  checks: [
    { kind: 'files', state: 'fails', words: 'Files words.' },
    { kind: 'signature', state: 'fails', words: 'Signature words.' },
    { kind: 'timestamps', state: 'fails', words: 'Timestamp words.' },
    { kind: 'custody', state: 'fails', words: 'Custody words.' },
    { kind: 'export', state: 'holds', words: 'Export words.' },
  ],
  asWritten: false,
  verdict: 'The verdict as Rust words it.',
};

describe('VerifyBundle', () => {
  it('checks a picked bundle: the verdict as Rust words it, what the ZIP hides, each file in plain words, the wrong ones first', async () => {
    const calls = mockBackend({
      evidence_pick_bundle: () => '/exports/b.zip',
      evidence_verify: () => tampered,
    });
    render(VerifyBundle);
    await userEvent.click(screen.getByRole('button', { name: 'Choose a bundle…' }));
    expect(await screen.findByRole('status')).toHaveTextContent('The verdict as Rust words it.');
    expect(calls.evidence_verify?.[0]).toMatchObject({ path: '/exports/b.zip' });
    expect(screen.getByRole('list', { name: 'What the ZIP hides or withholds' })).toHaveTextContent(
      'Two entries are named posts.csv: tools differ on which one they show',
    );
    const rows = screen.getByRole('list', { name: 'Each file' }).querySelectorAll('li');
    expect([...rows].map((row) => row.textContent?.replace(/\s+/g, ' ').trim())).toEqual([
      'notes.md Missing from the bundle',
      'posts.csv Changed since the bundle was made',
      'responses/9999-planted.json Added: not part of the bundle as made',
      'SHA256SUMS Matches',
      'report.html Matches',
    ]);
    expect(screen.getByRole('list', { name: 'Where the two lists disagree' })).toHaveTextContent('different hashes');
  });

  it('lists the checks in plain words, the key by its fingerprint, and the tokens that are not valid', async () => {
    mockBackend({ evidence_verify: () => tampered });
    render(VerifyBundle);
    await userEvent.type(screen.getByRole('textbox', { name: 'Bundle file path' }), '/exports/b.zip{Enter}');
    const checks = await screen.findByRole('list', { name: 'The checks' });
    // The mark beside each is hidden from screen readers: the words say it.
    expect([...checks.querySelectorAll('li .check-body')].map((li) => li.textContent?.replace(/\s+/g, ' ').trim())).toEqual([
      'Files and their sums: Does not hold. Files words.',
      `Signature: Does not hold. Signature words. Key fingerprint ${'3f9a 0c1e '.repeat(8).trim()}`,
      'Timestamps: Does not hold. Timestamp words.',
      'Custody log: Does not hold. Custody words.',
      "This computer's record: Holds. Export words.",
    ]);
    const tokens = screen.getByRole('list', { name: 'Timestamp tokens that are not valid' });
    expect(tokens.querySelectorAll('li')).toHaveLength(1);
    expect(tokens).toHaveTextContent('timestamps/0001-twitter-search-req-1.tsr (for responses/0001-twitter-search-req-1.json): The token is for another hash.');
  });

  it('shows how far a check is, and stops it', async () => {
    let finish: (check: BundleCheck | null) => void = () => {};
    let channel: Channel<ReadProgress> | undefined;
    const calls = mockBackend({
      evidence_verify: (args) => {
        channel = args.progress as Channel<ReadProgress>;
        return new Promise((resolve) => (finish = resolve));
      },
      evidence_verify_cancel: () => finish(null),
    });
    render(VerifyBundle);
    await userEvent.type(screen.getByRole('textbox', { name: 'Bundle file path' }), '/tmp/b.zip{Enter}');
    expect(await screen.findByText('Opening the bundle…')).toBeInTheDocument();
    channel?.onmessage({ done: 3, total: 40, percent: 35, file: 'responses/0003-a.json' });
    expect(await screen.findByText('Read 3 of 40 files · responses/0003-a.json')).toBeInTheDocument();
    expect(screen.getByRole('progressbar', { name: 'Bundle read' })).toHaveAttribute('value', '35');
    await userEvent.click(screen.getByRole('button', { name: 'Stop' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Check stopped. Nothing was checked.');
    expect(calls.evidence_verify_cancel).toHaveLength(1);
  });

  it('checks a typed path, and says when a file is not a bundle', async () => {
    mockBackend({
      evidence_verify: () => {
        throw { kind: 'file', message: '/tmp/x.txt is not a ZIP file, so it is not an evidence bundle.' };
      },
    });
    render(VerifyBundle);
    await userEvent.type(screen.getByRole('textbox', { name: 'Bundle file path' }), '/tmp/x.txt{Enter}');
    expect(await screen.findByRole('alert')).toHaveTextContent('The bundle could not be checked: /tmp/x.txt is not a ZIP file');
  });
});
