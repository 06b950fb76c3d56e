import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/svelte';
import CollectionProgress from './CollectionProgress.svelte';
import { makeCollection } from '$lib/testMonitors';

describe('CollectionProgress', () => {
  it('shows the share of its count, pages, cost so far and the estimate to finish', () => {
    render(CollectionProgress, { collection: makeCollection() });
    expect(screen.getByRole('progressbar', { name: 'Progress of #flood, 300 posts' })).toHaveAttribute('aria-valuenow', '40');
    expect(screen.getByText(/Collecting/).parentElement).toHaveTextContent('Collecting · 120 of 300 posts · 6 pages · $0.018 so far · about $0.027 to finish');
  });

  it('gives the reason the budget stopped it, and no estimate once it is over', () => {
    render(CollectionProgress, {
      collection: makeCollection({ state: 'stopped_by_budget', stopReason: 'Monthly budget: $9.99 of $10.00 spent; the next page would make $10.02.', estimatedToFinish: '0.027' }),
    });
    expect(screen.getByText(/Stopped by the budget/).parentElement).toHaveTextContent('Stopped by the budget · 120 of 300 posts · 6 pages · $0.018 so far');
    expect(screen.queryByText(/to finish/)).not.toBeInTheDocument();
    expect(screen.getByText(/Monthly budget: \$9\.99/)).toBeInTheDocument();
  });

  it('counts accounts for reposters, and has no share to show without a count', () => {
    render(CollectionProgress, {
      collection: makeCollection({ source: { kind: 'reposters', request: { id: '1890000000000000001', cursor: null } }, until: { kind: 'end' }, items: 1, estimatedToFinish: null }),
    });
    const bar = screen.getByRole('progressbar');
    expect(bar).not.toHaveAttribute('aria-valuenow');
    expect(bar).toHaveAttribute('aria-valuetext', '1 account');
    expect(screen.getByText(/cost to finish unknown/)).toBeInTheDocument();
  });

  it('fills the bar when done, its cost in all (no longer "so far")', () => {
    render(CollectionProgress, { collection: makeCollection({ state: 'done', items: 300, until: { kind: 'date', date: '2026-11-01' } }) });
    expect(screen.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '100');
    expect(screen.getByText(/Done/).parentElement).toHaveTextContent('$0.018 in all');
    expect(screen.queryByText(/so far/)).not.toBeInTheDocument();
  });
});
