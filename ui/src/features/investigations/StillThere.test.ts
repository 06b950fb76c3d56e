import { describe, expect, it } from 'vitest';
import { render, screen, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import StillThere from './StillThere.svelte';
import { mockBackend, reject, serviceError } from '../../test/backend';
import { makeCheck } from '../../test/fixtures';
import type { CheckReport } from '$lib/bindings/CheckReport';

const report: CheckReport = {
  summary: { id: 7, checked_at: '2026-11-23T18:04:12Z', unchanged: 1, changed: 1, gone: 1, cost: '0.0009', history_ids: [12] },
  items: [
    { post_id: '101', outcome: 'unchanged', changes: [] },
    {
      post_id: '102',
      outcome: 'changed',
      changes: [
        { field: 'like_count', before: '15300', after: '15420' },
        { field: 'text', before: 'The dam held', after: 'The dam held (edited)' },
      ],
    },
    { post_id: '103', outcome: 'gone', changes: [] },
  ],
};

describe('StillThere', () => {
  it('shows the estimate first, checks only when asked, then lists each post with what changed', async () => {
    let checks: CheckReport['summary'][] = [];
    const calls = mockBackend({
      investigation_checks: () => checks,
      investigation_check_estimate: () => makeCheck('0.0009'),
      investigation_check: () => {
        checks = [report.summary];
        return report;
      },
    });
    render(StillThere, { id: 3, postCount: 3 });
    expect(await screen.findByText('None yet.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Check these posts' }));
    expect(await screen.findByTestId('check-estimate')).toHaveTextContent('This would cost about $0.0009.');
    expect(calls.investigation_check).toBeUndefined();

    await userEvent.click(screen.getByRole('button', { name: 'Check now' }));
    const list = await screen.findByRole('region', { name: /^Check of / });
    expect(within(list).getByText('3 posts: 1 unchanged, 1 changed, 1 no longer available')).toBeInTheDocument();
    const items = within(list).getAllByRole('listitem').filter((item) => item.parentElement?.getAttribute('aria-label') !== 'What changed');
    // The gone and changed posts first.
    expect(items.map((item) => item.querySelector('.outcome')?.textContent)).toEqual(['No longer available', 'Changed', 'Unchanged']);
    expect(items[0]).toHaveTextContent('The service did not return it');
    const changes = within(items[1]!).getByRole('list', { name: 'What changed' });
    expect(within(changes).getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      'Likes: 15,300 → 15,420 (+120)',
      'Text: The dam held → The dam held (edited)',
    ]);
    expect(within(items[1]!).getByRole('link', { name: 'Post 102' })).toHaveAttribute('href', '#/post?id=102');
    expect(calls.investigation_check?.[0]).toMatchObject({ id: 3, send: { confirmBudget: false } });

    // Kept as a dated check.
    expect(await screen.findByText(/1 unchanged, 1 changed, 1 no longer available · \$0\.0009/)).toBeInTheDocument();

    await userEvent.selectOptions(within(list).getByRole('combobox', { name: 'Show' }), 'gone');
    expect(within(list).getAllByRole('link').map((link) => link.textContent)).toEqual(['Post 103']);
  });

  it('runs a check that did not finish again as the same check, so what it had fetched is re-used', async () => {
    let attempts = 0;
    const calls = mockBackend({
      investigation_checks: () => [],
      investigation_check_estimate: () => makeCheck('0.0009'),
      investigation_check: () => {
        attempts += 1;
        return attempts === 1 ? reject(serviceError('rate_limited', { status: 429, retryAfter: 120 })) : report;
      },
    });
    render(StillThere, { id: 3, postCount: 3 });
    await userEvent.click(await screen.findByRole('button', { name: 'Check these posts' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Check now' }));
    expect(await screen.findByText(/The check did not finish\..*checking again re-uses it at no cost\./)).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Check these posts' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Check now' }));
    await screen.findByRole('region', { name: /^Check of / });
    const [first, second] = calls.investigation_check!.map((args) => (args as { send: { requestId: string } }).send.requestId);
    expect(second).toBe(first);
  });

  it('does not send a check the budget blocks, and says why', async () => {
    const calls = mockBackend({
      investigation_checks: () => [],
      investigation_check_estimate: () => makeCheck('0.0009', 'block'),
    });
    render(StillThere, { id: 3, postCount: 3 });
    await userEvent.click(screen.getByRole('button', { name: 'Check these posts' }));
    expect(await screen.findByText('Over budget: the check is not sent. Raise the budget in Spend, or check later.')).toBeInTheDocument();
    expect(screen.getByText(/Daily budget: \$0\.95 of \$1\.00 spent/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Check now|Check anyway/ })).toBeNull();
    expect(calls.investigation_check).toBeUndefined();
  });

  it('opens an earlier check', async () => {
    mockBackend({
      investigation_checks: () => [report.summary],
      investigation_check_report: () => report,
    });
    render(StillThere, { id: 3, postCount: 3 });
    await userEvent.click(await screen.findByRole('button', { name: /^Show the check of / }));
    expect(await screen.findByRole('region', { name: /^Check of / })).toHaveTextContent('1 no longer available');
  });
});
