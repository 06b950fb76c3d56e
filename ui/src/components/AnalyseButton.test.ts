import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import AnalyseButton from './AnalyseButton.svelte';
import { readRoute } from '$lib/analysisRoute';

describe('AnalyseButton', () => {
  it('opens the analysis of the list beside it, on the view asked for', async () => {
    const user = userEvent.setup();
    const source = { kind: 'request' as const, history_id: 12 };
    render(AnalyseButton, { source: () => source, view: 'hours', label: 'Posting hours', description: 'Posting hours of @ana' });
    await user.click(screen.getByRole('button', { name: 'Posting hours of @ana' }));
    expect(readRoute(window.location.hash)).toEqual({ source, postId: null, view: 'hours' });
  });

  it('stays put while there is nothing stored to analyse', async () => {
    const user = userEvent.setup();
    window.location.hash = '#/x';
    render(AnalyseButton, { source: () => null });
    await user.click(screen.getByRole('button', { name: 'Analyse' }));
    expect(window.location.hash).toBe('#/x');
  });
});
