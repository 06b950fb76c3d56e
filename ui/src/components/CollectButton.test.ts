import { beforeAll, describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import CollectButton from './CollectButton.svelte';
import DetailHeader from './DetailHeader.svelte';
import { mockBackend } from '../test/backend';
import { modalDialogs } from '../test/dialog';
import { makeCollection } from '$lib/testMonitors';
import { makeCheck } from '../test/fixtures';
import type { CollectionSource } from '$lib/bindings/CollectionSource';
import type { CollectUntil } from '$lib/bindings/CollectUntil';

const source: CollectionSource = { kind: 'user_posts', request: { username: 'metoffice', cursor: null } };

beforeAll(modalDialogs);

describe('CollectButton', () => {
  it('asks until when, refuses a number out of range in words, then starts the collection', async () => {
    const calls = mockBackend({ collection_start: () => makeCollection({ name: 'Posts by @metoffice' }) });
    render(CollectButton, { source: () => source });
    await userEvent.click(screen.getByRole('button', { name: 'Collect…' }));
    const count = screen.getByRole('spinbutton', { name: 'How many posts' });
    await userEvent.clear(count);
    await userEvent.type(count, '0');
    await userEvent.click(screen.getByRole('button', { name: 'Start collecting' }));
    expect(count).toHaveAccessibleDescription('Choose a number from 1 to 100,000.');
    expect(calls.collection_start).toBeUndefined();

    await userEvent.clear(count);
    await userEvent.type(count, '300');
    await userEvent.click(screen.getByRole('button', { name: 'Start collecting' }));
    expect(calls.collection_start?.[0]?.draft).toEqual({ name: '', source, until: { kind: 'count', items: 300 }, investigationId: null });
    expect(await screen.findByRole('status')).toHaveTextContent('Collecting “Posts by @metoffice”: see its progress.');
    expect(screen.getByRole('link', { name: 'see its progress' })).toHaveAttribute('href', '#/monitors?tab=collections');
  });

  it('collects back to a day or to the end', async () => {
    const calls = mockBackend({ collection_start: () => makeCollection() });
    render(CollectButton, { source: () => source });
    await userEvent.click(screen.getByRole('button', { name: 'Collect…' }));
    await userEvent.click(screen.getByRole('radio', { name: 'Back to a date' }));
    await userEvent.click(screen.getByRole('button', { name: 'Start collecting' }));
    expect(screen.getByText('Type the oldest day to collect, as YYYY-MM-DD.')).toBeInTheDocument();
    // A typed field in the app's order (YYYY-MM-DD); month-first is not read as a day.
    const day = screen.getByLabelText('Oldest day to collect (UTC)');
    expect(day).toHaveValue('');
    await userEvent.type(day, '11/01/2026');
    expect(screen.getByText('Write the date as YYYY-MM-DD, for example 2026-03-01 (you entered "11/01/2026").')).toBeInTheDocument();
    await userEvent.clear(day);
    await userEvent.type(day, '2026-11-01');
    await userEvent.click(screen.getByRole('button', { name: 'Start collecting' }));
    expect(calls.collection_start?.[0]?.draft).toMatchObject({ until: { kind: 'date', date: '2026-11-01' } });

    await userEvent.click(screen.getByRole('button', { name: 'Collect…' }));
    await userEvent.click(screen.getByRole('radio', { name: /To the end/ }));
    await userEvent.click(screen.getByRole('button', { name: 'Start collecting' }));
    expect(calls.collection_start?.[1]?.draft).toMatchObject({ until: { kind: 'end' } });
  });

  it('shows the estimated cost before starting, from the core, and says what it depends on', async () => {
    const calls = mockBackend({
      collection_estimate: (args) => {
        const until = (args.draft as { until: CollectUntil }).until;
        if (until.kind === 'count') return { ...makeCheck('0.045'), estimate: { amount: '0.045', currency: 'USD', units: until.items } };
        return { ...makeCheck('0.015', 'warn'), estimate: { amount: '0.015', currency: 'USD', units: 100 } };
      },
    });
    const base = makeCollection().source as Extract<CollectionSource, { kind: 'search' }>;
    const search: CollectionSource = { kind: 'search', request: { ...base.request, sort: 'Top' } };
    render(CollectButton, { source: () => search });
    await userEvent.click(screen.getByRole('button', { name: 'Collect…' }));
    expect(await screen.findByText(/^Estimated cost: about \$0\.045 for 300 posts, at the rate the service charged/)).toBeInTheDocument();
    expect(calls.collection_estimate?.at(-1)?.draft).toEqual({ name: '', investigationId: null, source: search, until: { kind: 'count', items: 300 } });
    expect(screen.getByText(/sorted by Top, but a collection goes back in time .* newest posts first/)).toBeInTheDocument();

    await userEvent.click(screen.getByRole('radio', { name: /To the end/ }));
    expect(await screen.findByText(/^Estimated cost: about \$0\.015 per 100 posts.*The total depends on how many there are to the end, which cannot be known before\.$/)).toBeInTheDocument();
    expect(screen.getByText(/Near the budget’s limit: it will pause for your confirmation/)).toBeInTheDocument();

    // No rate learned yet: unknown, never a guess.
    mockBackend({ collection_estimate: () => makeCheck(null) });
    await userEvent.click(screen.getByRole('radio', { name: 'A number of posts' }));
    expect(await screen.findByText(/^Cost: unknown until a rate is learned/)).toBeInTheDocument();
  });

  it('says nothing of Top for an account or a Latest search', async () => {
    mockBackend({});
    render(CollectButton, { source: () => source });
    await userEvent.click(screen.getByRole('button', { name: 'Collect…' }));
    expect(screen.queryByText(/sorted by Top/)).not.toBeInTheDocument();
  });

  it("keeps Esc in its dialog: on an account's or a post's view it does not go Back as well", async () => {
    mockBackend({});
    window.location.hash = '#/user?handle=metoffice';
    const back = vi.spyOn(window.history, 'back');
    render(DetailHeader, { title: 'Met Office' });
    render(CollectButton, { source: () => source });
    await userEvent.click(screen.getByRole('button', { name: 'Collect…' }));
    screen.getByRole('button', { name: 'Start collecting' }).focus();
    await userEvent.keyboard('{Escape}');
    expect(back).not.toHaveBeenCalled();
    expect(window.location.hash).toBe('#/user?handle=metoffice');
    back.mockRestore();
  });
});
