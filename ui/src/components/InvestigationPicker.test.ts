import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import InvestigationPicker from './InvestigationPicker.svelte';
import FilingBar from './FilingBar.svelte';
import { mockBackend } from '../test/backend';
import { makeInvestigation } from '../test/investigations';

const flood = makeInvestigation({ id: 1, name: 'Flood response' });

describe('InvestigationPicker', () => {
  it('shows "No investigation" until one is chosen, then files under it; the search screens say so', async () => {
    let active: number | null = null;
    const calls = mockBackend({
      investigation_list: () => [flood],
      investigation_active: () => active,
      investigation_set_active: (args) => {
        active = args.id as number | null;
      },
    });
    render(InvestigationPicker);
    render(FilingBar);
    const select = screen.getByRole('combobox', { name: 'Filing under' });
    await screen.findByRole('option', { name: 'Flood response' });
    expect(select).toHaveValue('');
    expect(screen.getByRole('option', { name: 'No investigation' })).toBeInTheDocument();

    await userEvent.selectOptions(select, 'Flood response');
    expect(calls.investigation_set_active?.[0]).toEqual({ id: 1 });
    expect(await screen.findByTestId('filing-bar')).toHaveTextContent('Results are filed under Flood response.');
    expect(screen.getByRole('link', { name: 'Flood response' })).toHaveAttribute('href', '#/investigations?id=1');

    await userEvent.selectOptions(select, 'No investigation');
    expect(calls.investigation_set_active?.[1]).toEqual({ id: null });
    await expect.poll(() => screen.queryByTestId('filing-bar')).toBeNull();
  });

  it('creates a new investigation from the picker and makes it the active one', async () => {
    let list = [flood];
    let active: number | null = null;
    const calls = mockBackend({
      investigation_list: () => list,
      investigation_active: () => active,
      investigation_create: (args) => {
        const created = makeInvestigation({ id: 2, name: String(args.name) });
        list = [...list, created];
        return created;
      },
      investigation_set_active: (args) => {
        active = args.id as number | null;
      },
    });
    render(InvestigationPicker);
    await screen.findByRole('option', { name: 'Flood response' });
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Filing under' }), 'New investigation…');
    const name = screen.getByRole('textbox', { name: 'Name of the new investigation' });
    expect(name).toHaveFocus();
    await userEvent.click(screen.getByRole('button', { name: 'Create' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Give the investigation a name.');
    await userEvent.type(name, 'Dam leak{Enter}');
    await expect.poll(() => calls.investigation_set_active?.[0]).toEqual({ id: 2 });
    await expect.poll(() => (screen.getByRole('combobox', { name: 'Filing under' }) as HTMLSelectElement).value).toBe('2');
  });
});
