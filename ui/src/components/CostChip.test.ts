import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/svelte';
import { mockIPC } from '@tauri-apps/api/mocks';
import CostChip from './CostChip.svelte';
import { makeCheck } from '../test/fixtures';

describe('CostChip', () => {
  it('estimates from the learned rate for the request being filled in', async () => {
    const asked: unknown[] = [];
    mockIPC((cmd, args) => {
      if (cmd === 'estimate_cost') {
        asked.push(args);
        return makeCheck('0.006');
      }
    });
    render(CostChip, { operation: 'twitter_search', request: { query: 'flood', count: 20 } });
    expect(await screen.findByText('≈ $0.006')).toBeInTheDocument();
    expect(asked).toEqual([{ operation: 'twitter_search', request: { query: 'flood', count: 20 } }]);
    expect(screen.getByRole('button', { name: 'Search' })).toHaveAttribute('type', 'submit');
  });

  it('says unknown when there is no rate yet', async () => {
    mockIPC((cmd) => (cmd === 'estimate_cost' ? makeCheck(null) : undefined));
    render(CostChip, { operation: 'twitter_search', request: { query: 'x' } });
    expect(await screen.findByText('Cost unknown')).toBeInTheDocument();
  });

  it('turns amber with the reason on a budget warning', async () => {
    mockIPC((cmd) => (cmd === 'estimate_cost' ? makeCheck('0.006', 'warn') : undefined));
    render(CostChip, { operation: 'twitter_search', request: { query: 'x' } });
    expect(await screen.findByRole('status')).toHaveTextContent('Daily budget: $0.95 of $1.00 spent; this would make $1.006.');
    expect(screen.getByTestId('cost-chip')).toHaveClass('warn');
  });

  it('replaces Send with "Over budget: review" on a block', async () => {
    mockIPC((cmd) => (cmd === 'estimate_cost' ? makeCheck('0.006', 'block') : undefined));
    render(CostChip, { operation: 'twitter_search', request: { query: 'x' } });
    const review = await screen.findByRole('button', { name: 'Over budget: review' });
    expect(review).toHaveAttribute('type', 'button');
    expect(screen.queryByRole('button', { name: 'Search' })).toBeNull();
    review.click();
    expect(await screen.findByRole('status')).toHaveTextContent('Raise the limit in Spend');
  });

  it('shows the exact charge after the answer', () => {
    mockIPC(() => makeCheck('0.1'));
    render(CostChip, { operation: 'twitter_search', request: null, billing: { cost: '0.00015', cost_text: '0.00015', usage_count: 10, service: 'x', currency: 'USD' } });
    expect(screen.getByTestId('cost-chip')).toHaveTextContent('$0.00015');
  });
});
