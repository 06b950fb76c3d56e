import { describe, expect, it } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import { emit } from '@tauri-apps/api/event';
import InvestigationList from './InvestigationList.svelte';
import { holdable, mockBackend } from '../../test/backend';
import { makeInvestigation } from '../../test/investigations';

describe('InvestigationList', () => {
  it('creates an investigation with a name and a description, and refuses a blank name by its field', async () => {
    let list = [makeInvestigation()];
    const calls = mockBackend({
      investigation_list: () => list,
      investigation_active: () => null,
      investigation_create: (args) => {
        const created = makeInvestigation({ id: 2, name: String(args.name), description: String(args.description), post_count: 0, request_count: 0, cost: '0' });
        list = [created, ...list];
        return created;
      },
    });
    render(InvestigationList);
    expect(await screen.findByRole('link', { name: 'Flood response' })).toHaveAttribute('href', '#/investigations?id=1');
    expect(screen.getByText(/3 queries · 42 posts · \$0\.0123/)).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Create investigation' }));
    expect(screen.getByRole('textbox', { name: 'Name' })).toHaveAccessibleDescription('Give the investigation a name.');
    expect(calls.investigation_create).toBeUndefined();

    await userEvent.type(screen.getByRole('textbox', { name: 'Name' }), 'Dam leak');
    await userEvent.type(screen.getByRole('textbox', { name: 'Description' }), 'Leaked memo');
    await userEvent.click(screen.getByRole('button', { name: 'Create investigation' }));
    expect(await screen.findByRole('link', { name: 'Dam leak' })).toBeInTheDocument();
    expect(calls.investigation_create?.[0]).toMatchObject({ name: 'Dam leak', description: 'Leaked memo' });
  });

  it('renames and describes, archives, and deletes only after saying the spend stays in Spend', async () => {
    let list = [makeInvestigation()];
    const calls = mockBackend({
      investigation_list: (args) => (args.includeArchived ? list : list.filter((each) => !each.archived)),
      investigation_active: () => null,
      investigation_update: (args) => {
        const changes = args.changes as { name: string; description: string };
        list = [{ ...list[0]!, ...changes }];
        return list[0];
      },
      investigation_archive: (args) => {
        list = [{ ...list[0]!, archived: Boolean(args.archived) }];
        return list[0];
      },
      investigation_delete: () => {
        list = [];
      },
    });
    render(InvestigationList);
    await screen.findByRole('link', { name: 'Flood response' });
    const items = screen.getByRole('list', { name: 'Investigations' });
    await userEvent.click(within(items).getByRole('button', { name: 'Edit Flood response' }));
    const name = within(items).getByRole('textbox', { name: 'Name' });
    await userEvent.clear(name);
    await userEvent.type(name, 'Dam failure{Enter}');
    expect(await within(items).findByRole('link', { name: 'Dam failure' })).toBeInTheDocument();
    expect(calls.investigation_update?.[0]).toMatchObject({ id: 1, changes: { name: 'Dam failure', description: 'Who said what about the dam' } });

    await userEvent.click(within(items).getByRole('button', { name: 'Archive Dam failure' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Archived Dam failure');
    await expect.poll(() => screen.queryByRole('link', { name: 'Dam failure' })).toBeNull();
    await userEvent.click(screen.getByRole('checkbox', { name: 'Show archived' }));
    expect(await screen.findByRole('button', { name: 'Unarchive Dam failure' })).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Delete Dam failure' }));
    const confirm = screen.getByRole('group', { name: 'Delete Dam failure?' });
    expect(confirm).toHaveTextContent('what they cost ($0.0123) stays in Spend');
    expect(calls.investigation_delete).toBeUndefined();
    await userEvent.click(within(confirm).getByRole('button', { name: 'Delete investigation' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Deleted Dam failure. Its requests are still in History, and what they cost is still in Spend.');
    expect(calls.investigation_delete?.[0]).toEqual({ id: 1 });
  });

  it('keeps the newest list when a read asked before an investigation was created answers last', async () => {
    let list = [makeInvestigation()];
    const reads = holdable(() => list);
    mockBackend({ investigation_list: reads.handler, investigation_active: () => null });
    render(InvestigationList);
    await screen.findByRole('link', { name: 'Flood response' });

    // Records change: the list is read again, and that read is slow to answer.
    reads.hold();
    await emit('records-changed');
    await waitFor(() => expect(reads.held).toBe(1));

    // An investigation is created elsewhere (the sidebar's picker): this read answers at once.
    list = [makeInvestigation({ id: 2, name: 'Dam leak' }), ...list];
    await emit('records-changed');
    expect(await screen.findByRole('link', { name: 'Dam leak' })).toBeInTheDocument();

    // The slow read, asked before it was created, answers only now.
    await reads.release();
    expect(screen.getByRole('link', { name: 'Dam leak' })).toBeInTheDocument();
  });
});
