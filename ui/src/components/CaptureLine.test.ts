import { beforeAll, describe, expect, it, vi } from 'vitest';
import { render, screen, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import CaptureLine from './CaptureLine.svelte';
import DetailHeader from './DetailHeader.svelte';
import PostCard from './PostCard.svelte';
import { makePost } from '../test/fixtures';
import { mockBackend } from '../test/backend';
import { modalDialogs } from '../test/dialog';
import type { ProvenanceRecord } from '$lib/bindings/ProvenanceRecord';

const sha256 = '1f3a9c0b5e7d2a4f6b8c0d1e2f3a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c';

const record: ProvenanceRecord = {
  history_id: 7,
  captured_at: '2026-11-23T18:04:12.345Z',
  service_url: 'https://api.example.com',
  operation: 'twitter_search',
  params_json: '{"query":"flood"}',
  response_url: 'https://api.example.com/twitter/search?query=flood',
  http_status: 200,
  billing_headers: { 'x-service-cost-usd': '0.0006', 'x-service-usage-count': '4' },
  app_version: '0.1.0',
  sha256,
  body_size: 48213,
  from_cache: false,
};

beforeAll(modalDialogs);

describe('CaptureLine', () => {
  it('says when and what hash, in UTC, and opens the whole record from one click', async () => {
    const calls = mockBackend({
      provenance_get: () => ({ state: 'captured', record }),
      provenance_verify: () => ({ history_id: 7, recorded: sha256, recomputed: sha256, matches: true }),
    });
    render(CaptureLine, { capture: { state: 'captured', capture: { history_id: 7, captured_at: record.captured_at, sha256 } } });
    const line = screen.getByRole('button', { name: /captured/ });
    expect(line).toHaveTextContent('captured 2026-11-23 18:04:12 UTC · sha256 1f3a9c0b…');
    expect(line.querySelector('time')).toHaveAttribute('datetime', '2026-11-23T18:04:12.345Z');

    await userEvent.click(line);
    const dialog = await screen.findByRole('dialog', { name: 'Where this response came from' });
    expect(calls.provenance_get?.[0]).toMatchObject({ historyId: 7 });
    expect(await within(dialog).findByText(sha256)).toBeInTheDocument();
    for (const text of ['https://api.example.com', 'twitter_search', '{"query":"flood"}', 'x-service-cost-usd: 0.0006', 'Sightline 0.1.0']) {
      expect(within(dialog).getByText(text)).toBeInTheDocument();
    }
    expect(within(dialog).getByText(/48,213 bytes exactly as received/)).toBeInTheDocument();

    await userEvent.click(within(dialog).getByRole('button', { name: 'Re-check the hash' }));
    expect(await within(dialog).findByRole('status')).toHaveTextContent('matches: the stored bytes hash to the SHA-256 recorded when they were received');
    expect(calls.provenance_verify?.[0]).toMatchObject({ historyId: 7 });
  });

  it("keeps Esc in the record: on a detail view it does not go Back as well", async () => {
    mockBackend({ provenance_get: () => ({ state: 'captured', record }) });
    window.location.hash = '#/post?id=7';
    const back = vi.spyOn(window.history, 'back');
    // The post view's header (Esc = Back) behind the card's capture line.
    render(DetailHeader, { title: 'Post' });
    render(CaptureLine, { capture: { state: 'captured', capture: { history_id: 7, captured_at: record.captured_at, sha256 } } });
    await userEvent.click(screen.getByRole('button', { name: /captured/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Where this response came from' });
    (await within(dialog).findByRole('button', { name: 'Re-check the hash' })).focus();
    await userEvent.keyboard('{Escape}');
    expect(back).not.toHaveBeenCalled();
    expect(window.location.hash).toBe('#/post?id=7');
    back.mockRestore();
  });

  it('says plainly when the stored bytes no longer match', async () => {
    mockBackend({
      provenance_get: () => ({ state: 'captured', record }),
      provenance_verify: () => ({ history_id: 7, recorded: sha256, recomputed: 'ab'.repeat(32), matches: false }),
    });
    render(CaptureLine, { capture: { state: 'captured', capture: { history_id: 7, captured_at: record.captured_at, sha256 } } });
    await userEvent.click(screen.getByRole('button', { name: /captured/ }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.click(await within(dialog).findByRole('button', { name: 'Re-check the hash' }));
    expect(await within(dialog).findByRole('status')).toHaveTextContent(`does not match: the stored bytes now hash to ${'ab'.repeat(32)}`);
  });

  it('never invents a hash for older rows, and says when no response came', () => {
    const { unmount } = render(CaptureLine, { capture: { state: 'before_provenance' } });
    expect(screen.getByText('captured before provenance was kept')).toBeInTheDocument();
    expect(screen.queryByRole('button')).toBeNull();
    unmount();
    render(CaptureLine, { capture: { state: 'not_received' } });
    expect(screen.getByText('no response was received')).toBeInTheDocument();
  });

  it('sits at the foot of a post card given its capture, and a card without one stays as it was', () => {
    mockBackend({});
    const capture = { state: 'captured' as const, capture: { history_id: 7, captured_at: record.captured_at, sha256 } };
    const { unmount } = render(PostCard, { post: makePost(), capture });
    const card = screen.getByRole('article');
    expect(within(card).getByRole('button', { name: /captured 2026-11-23 18:04:12 UTC/ })).toBeInTheDocument();
    unmount();
    render(PostCard, { post: makePost() });
    expect(screen.queryByText(/captured/)).toBeNull();
  });
});
