import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import SavedNote from './SavedNote.svelte';
import { mockBackend, reject } from '../test/backend';

describe('SavedNote', () => {
  it('says where the file went, and shows it in its folder on request', async () => {
    const calls = mockBackend({ show_in_folder: () => null });
    render(SavedNote, { text: 'Saved to /home/reader/exports/posts.csv', path: '/home/reader/exports/posts.csv' });
    // The status holds the words alone; the button is beside it.
    expect(screen.getByRole('status')).toHaveTextContent(/^Saved to \/home\/reader\/exports\/posts\.csv$/);
    await userEvent.click(screen.getByRole('button', { name: 'Show in folder' }));
    expect(calls.show_in_folder).toEqual([{ path: '/home/reader/exports/posts.csv' }]);
  });

  it('says plainly when the file is not there any more', async () => {
    mockBackend({ show_in_folder: () => reject({ kind: 'not_found', message: '/x/posts.csv is not there any more: it was moved or deleted.' }) });
    render(SavedNote, { text: 'Saved to /x/posts.csv', path: '/x/posts.csv' });
    await userEvent.click(screen.getByRole('button', { name: 'Show in folder' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The folder could not be shown: /x/posts.csv is not there any more');
  });

  it('offers nothing to show when nothing was saved', () => {
    render(SavedNote, { text: 'Export cancelled.' });
    expect(screen.getByRole('status')).toHaveTextContent('Export cancelled.');
    expect(screen.queryByRole('button')).toBeNull();
  });
});
