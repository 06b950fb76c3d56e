import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import Notebook from './Notebook.svelte';
import { mockBackend } from '../../test/backend';

describe('Notebook', () => {
  it('renders the Markdown through the sanitiser: structure and web links stay, scripts and other schemes go', () => {
    mockBackend({});
    const notebook = '# Leads\n\n- [report](https://example.org/r)\n- [bad](javascript:alert(1))\n\n<script>alert(1)</script><img src=x onerror=alert(1)>';
    render(Notebook, { id: 1, notebook });
    const rendered = screen.getByTestId('notebook-rendered');
    expect(rendered.querySelector('h1')).toHaveTextContent('Leads');
    expect(screen.getByRole('link', { name: 'report' })).toHaveAttribute('href', 'https://example.org/r');
    expect(rendered.innerHTML).not.toMatch(/<script|onerror|href="javascript:|<img/);
    // The defused link is plain text with the address it had, not a blue link that does nothing;
    // what was taken out leaves a note.
    expect(screen.queryByRole('link', { name: /bad/ })).toBeNull();
    expect(rendered).toHaveTextContent('bad (link not opened: javascript:alert(1))');
    expect(rendered).toHaveTextContent('[script removed][image removed]');
  });

  it('says when the text is not saved yet, saves it on leaving the field, then says Saved', async () => {
    const calls = mockBackend({ investigation_update: () => ({}) });
    render(Notebook, { id: 4, notebook: 'old' });
    const state = screen.getByTestId('notebook-state');
    expect(state).toHaveTextContent('All changes saved');
    const field = screen.getByRole('textbox', { name: 'Notebook (Markdown)' });
    await userEvent.type(field, ' and **new**');
    expect(state).toHaveTextContent('Not saved yet');
    expect(screen.getByTestId('notebook-rendered').querySelector('strong')).toHaveTextContent('new');
    await userEvent.tab();
    await expect.poll(() => state.textContent?.trim()).toBe('Saved');
    expect(calls.investigation_update?.[0]).toEqual({ id: 4, changes: { notebook: 'old and **new**' } });
  });

  it('keeps the text and says so when saving fails', async () => {
    mockBackend({
      investigation_update: () => {
        throw { kind: 'disk_full', message: 'The disk is full.' };
      },
    });
    render(Notebook, { id: 4, notebook: '' });
    await userEvent.type(screen.getByRole('textbox', { name: 'Notebook (Markdown)' }), 'draft');
    await userEvent.click(screen.getByRole('button', { name: 'Save notebook' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The notebook was not saved. The disk is full. Your text is still here');
    expect(screen.getByRole('textbox', { name: 'Notebook (Markdown)' })).toHaveValue('draft');
    expect(screen.getByTestId('notebook-state')).toHaveTextContent('Not saved yet');
  });
});
