import { describe, expect, it, vi } from 'vitest';
import { render, screen, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import AddTo from './AddTo.svelte';
import { mockBackend } from '../test/backend';
import { makeInvestigation } from '../test/investigations';
import { refreshInvestigations } from '$lib/investigations.svelte';

const flood = makeInvestigation({ id: 1, name: 'Flood response' });
const fires = makeInvestigation({ id: 2, name: 'Wildfires' });

describe('AddTo', () => {
  it('ticks the investigations that hold the post, and adds it to or takes it out of one', async () => {
    let holders = [1];
    const calls = mockBackend({
      investigation_list: () => [flood, fires],
      investigation_active: () => null,
      investigation_memberships: (args) => (args.items as unknown[]).map((item) => ({ item, investigation_ids: holders })),
      investigation_add: () => {
        holders = [1, 2];
        return { requests: 0, posts: 1 };
      },
      investigation_remove: () => ({ requests: 0, posts: 1 }),
    });
    render(AddTo, { items: [{ kind: 'post', post_id: '42' }] });
    await userEvent.click(screen.getByRole('button', { name: 'Add to…' }));
    const panel = await screen.findByRole('dialog', { name: 'Add this post to investigations' });
    expect(await within(panel).findByRole('checkbox', { name: 'Flood response' })).toBeChecked();
    expect(within(panel).getByRole('checkbox', { name: 'Wildfires' })).not.toBeChecked();

    await userEvent.click(within(panel).getByRole('checkbox', { name: 'Wildfires' }));
    expect(await within(panel).findByText('Added to Wildfires.')).toBeInTheDocument();
    expect(calls.investigation_add?.[0]).toMatchObject({ id: 2, items: [{ kind: 'post', post_id: '42' }] });
    expect(within(panel).getByRole('checkbox', { name: 'Wildfires' })).toBeChecked();

    await userEvent.click(within(panel).getByRole('checkbox', { name: 'Flood response' }));
    expect(await within(panel).findByText('Taken out of Flood response.')).toBeInTheDocument();
    expect(calls.investigation_remove?.[0]).toMatchObject({ id: 1 });
  });

  it('half-ticks an investigation holding part of a selection, and adding files the whole selection', async () => {
    const calls = mockBackend({
      investigation_list: () => [flood],
      investigation_active: () => null,
      investigation_memberships: () => [
        { item: { kind: 'request', history_id: 5 }, investigation_ids: [1] },
        { item: { kind: 'request', history_id: 6 }, investigation_ids: [] },
      ],
      investigation_add: () => ({ requests: 1, posts: 3 }),
    });
    const items = [
      { kind: 'request' as const, history_id: 5 },
      { kind: 'request' as const, history_id: 6 },
    ];
    render(AddTo, { items, label: 'Add 2 selected to…' });
    await userEvent.click(screen.getByRole('button', { name: 'Add 2 selected to…' }));
    const box = await screen.findByRole('checkbox', { name: 'Flood response' });
    await expect.poll(() => (box as HTMLInputElement).indeterminate).toBe(true);
    await userEvent.click(box);
    expect(calls.investigation_add?.[0]).toMatchObject({ id: 1, items });
  });

  it('creates a new investigation in place and adds the item to it', async () => {
    let list = [flood];
    const calls = mockBackend({
      investigation_list: () => list,
      investigation_active: () => null,
      investigation_memberships: () => [],
      investigation_create: (args) => {
        const created = makeInvestigation({ id: 9, name: String(args.name) });
        list = [created, ...list];
        return created;
      },
      investigation_add: () => ({ requests: 1, posts: 0 }),
    });
    render(AddTo, { items: [{ kind: 'request', history_id: 3 }] });
    await userEvent.click(screen.getByRole('button', { name: 'Add to…' }));
    await userEvent.click(await screen.findByRole('button', { name: 'New investigation…' }));
    await userEvent.type(screen.getByRole('textbox', { name: 'Name' }), 'Dam leak{Enter}');
    expect(await screen.findByText('Added to Dam leak, a new investigation.')).toBeInTheDocument();
    expect(calls.investigation_create?.[0]).toMatchObject({ name: 'Dam leak' });
    expect(calls.investigation_add?.[0]).toMatchObject({ id: 9, items: [{ kind: 'request', history_id: 3 }] });
  });

  it('closes with Esc and gives focus back to its button', async () => {
    mockBackend({ investigation_list: () => [flood], investigation_active: () => null, investigation_memberships: () => [] });
    render(AddTo, { items: [{ kind: 'post', post_id: '42' }] });
    const button = screen.getByRole('button', { name: 'Add to…' });
    await userEvent.click(button);
    await screen.findByRole('checkbox', { name: 'Flood response' });
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(button).toHaveFocus();
    expect(button).toHaveAttribute('aria-expanded', 'false');
  });

  it('keeps the focus on a ticked box while the memberships reload, so Esc still closes the panel', async () => {
    // The reload after a tick is held open until the test lets it go.
    let release: () => void = () => {};
    let holders: number[] = [];
    const calls = mockBackend({
      investigation_list: () => [flood, fires],
      investigation_active: () => null,
      investigation_memberships: (args, call) => {
        const answer = (args.items as unknown[]).map((item) => ({ item, investigation_ids: holders }));
        return call === 1 ? answer : new Promise((resolve) => (release = () => resolve(answer)));
      },
      investigation_add: () => {
        holders = [2];
        return { requests: 0, posts: 1 };
      },
    });
    await refreshInvestigations();
    render(AddTo, { items: [{ kind: 'post', post_id: '42' }] });
    const button = screen.getByRole('button', { name: 'Add to…' });
    await userEvent.click(button);
    const box = await screen.findByRole('checkbox', { name: 'Wildfires' });
    box.focus();
    await userEvent.keyboard(' ');
    await vi.waitFor(() => expect(screen.getByRole('group', { name: 'Investigations' })).toHaveAttribute('aria-busy', 'true'));
    // While it reloads, the box keeps the focus and stays usable (a disabled control drops it).
    expect(box).toHaveFocus();
    expect(box).toBeEnabled();
    // A second press while it reloads files nothing twice and leaves the box as it was.
    await userEvent.keyboard(' ');
    expect(box).toBeChecked();
    expect(calls.investigation_add).toHaveLength(1);
    release();
    await vi.waitFor(() => expect(screen.getByRole('group', { name: 'Investigations' })).toHaveAttribute('aria-busy', 'false'));
    expect(box).toHaveFocus();
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(button).toHaveFocus();
  });

  it('gives the focus to the new investigation\'s box once it is created and the item added', async () => {
    let list = [flood];
    mockBackend({
      investigation_list: () => list,
      investigation_active: () => null,
      investigation_memberships: (args) => (args.items as unknown[]).map((item) => ({ item, investigation_ids: list.length > 1 ? [9] : [] })),
      investigation_create: (args) => {
        const created = makeInvestigation({ id: 9, name: String(args.name) });
        list = [created, ...list];
        return created;
      },
      investigation_add: () => ({ requests: 0, posts: 1 }),
    });
    await refreshInvestigations();
    render(AddTo, { items: [{ kind: 'post', post_id: '42' }] });
    const button = screen.getByRole('button', { name: 'Add to…' });
    await userEvent.click(button);
    await userEvent.click(await screen.findByRole('button', { name: 'New investigation…' }));
    await userEvent.type(screen.getByRole('textbox', { name: 'Name' }), 'Dam leak{Enter}');
    expect(await screen.findByText('Added to Dam leak, a new investigation.')).toBeInTheDocument();
    await vi.waitFor(() => expect(screen.getByRole('checkbox', { name: 'Dam leak' })).toHaveFocus());
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(button).toHaveFocus();
  });

  it('says plainly when filing fails', async () => {
    mockBackend({
      investigation_list: () => [flood],
      investigation_active: () => null,
      investigation_memberships: () => [],
      investigation_add: () => {
        throw { kind: 'disk_full', message: 'The disk is full.' };
      },
    });
    render(AddTo, { items: [{ kind: 'post', post_id: '42' }] });
    await userEvent.click(screen.getByRole('button', { name: 'Add to…' }));
    await userEvent.click(await screen.findByRole('checkbox', { name: 'Flood response' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Could not add it to Flood response: The disk is full.');
  });
});
