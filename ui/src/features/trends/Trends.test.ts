import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import { mockIPC } from '@tauri-apps/api/mocks';
import Trends from './Trends.svelte';
import { makeCheck } from '../../test/fixtures';

describe('Trends', () => {
  it('fetches trends for a named place and opens an X search from one', async () => {
    const sent: { request: unknown }[] = [];
    mockIPC((cmd, args) => {
      if (cmd === 'estimate_cost') return makeCheck('0.009');
      if (cmd === 'twitter_trends') {
        sent.push(args as { request: unknown });
        return {
          historyId: 3,
          body: { trends: [{ name: '#Eclipse2026', query: '%23Eclipse2026', rank: 1 }, { name: 'Brazil vs Spain', query: null, rank: 2 }], woeid: { name: 'Brazil', id: 23424768 } },
          billing: { cost: '0.0006', usage_count: 2, service: 'twitter', currency: 'USD' },
          fromCache: false,
          replayed: false,
          hasMore: false,
        };
      }
    });
    render(Trends);
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Place' }), 'Brazil');
    const count = screen.getByRole('textbox', { name: 'Trends' });
    await userEvent.clear(count);
    await userEvent.type(count, '50{Enter}');
    expect(await screen.findByRole('heading', { name: 'Trending in Brazil' })).toBeInTheDocument();
    expect(sent[0]?.request).toEqual({ woeid: 23424768, count: 50 });
    await userEvent.click(screen.getByRole('button', { name: 'Brazil vs Spain' }));
    expect(window.location.hash).toBe('#/x?q=Brazil%20vs%20Spain');
    // Beside each trend, Ask fills in a question about it (the Ask screen does not send it).
    expect(screen.getByRole('link', { name: 'Ask about #Eclipse2026' })).toHaveAttribute(
      'href',
      `#/ask?q=${encodeURIComponent('What is being said about #Eclipse2026, and why is it trending?')}`,
    );
  });

  it('keeps the count within 30 to 100 before sending', async () => {
    const sent: unknown[] = [];
    mockIPC((cmd, args) => {
      if (cmd === 'twitter_trends') sent.push(args);
      if (cmd === 'estimate_cost') return makeCheck('0.009');
    });
    render(Trends);
    const count = screen.getByRole('textbox', { name: 'Trends' });
    await userEvent.clear(count);
    await userEvent.type(count, '20{Enter}');
    expect(count).toHaveAccessibleDescription('Choose a number from 30 to 100 (you entered 20).');
    expect(sent).toHaveLength(0);
  });
});
