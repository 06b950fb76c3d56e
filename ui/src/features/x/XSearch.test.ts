import { describe, expect, it } from 'vitest';
import { render, screen, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import { mockIPC } from '@tauri-apps/api/mocks';
import XSearch from './XSearch.svelte';
import { makeCheck, makePost } from '../../test/fixtures';
import type { CommandError } from '$lib/bindings/CommandError';

type Sent = { request: Record<string, unknown>; send: { requestId: string; confirmBudget: boolean } };

function outcome(body: unknown, cost = '0.006') {
  return { historyId: 1, body, billing: { cost, usage_count: 20, service: 'twitter', currency: 'USD' }, fromCache: false, replayed: false, hasMore: false };
}

/** The command layer for these tests: records what was sent and answers with `answer`. */
function backend(answer: (sent: Sent, call: number) => unknown) {
  const sent: Sent[] = [];
  mockIPC((cmd, args) => {
    if (cmd === 'estimate_cost') return makeCheck('0.006');
    if (cmd === 'settings_get') return { mediaSafeView: true };
    if (cmd === 'twitter_search') {
      const call = args as unknown as Sent;
      sent.push(call);
      const result = answer(call, sent.length);
      if (result instanceof Rejection) throw result.error;
      return result;
    }
  });
  return sent;
}

class Rejection {
  constructor(readonly error: CommandError) {}
}

describe('X search', () => {
  it('checks the form before sending and says what to fix under each field', async () => {
    const sent = backend(() => outcome([]));
    render(XSearch);
    const user = userEvent.setup();
    await user.click(screen.getByRole('textbox', { name: 'Search X' }));
    await user.keyboard('{Enter}');
    expect(screen.getByText('Type what to search for on X.')).toBeInTheDocument();

    await user.type(screen.getByRole('textbox', { name: 'Search X' }), 'flood');
    const count = screen.getByRole('spinbutton', { name: 'Posts' });
    await user.clear(count);
    await user.type(count, '101');
    await user.click(screen.getByRole('button', { name: /More filters/ }));
    await user.type(screen.getByLabelText('From date (UTC)'), '2026-03-10');
    await user.type(screen.getByLabelText('To date (UTC)'), '2026-03-01');
    await user.type(screen.getByRole('textbox', { name: 'Minimum likes' }), '1.5');
    await user.click(screen.getByRole('button', { name: 'Search' }));

    expect(screen.getByText('Choose a number from 1 to 100 (you entered 101).')).toBeInTheDocument();
    expect(screen.getByText('The end date is before the start date.')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Minimum likes' })).toHaveAccessibleDescription('Enter a whole number of 0 or more (you entered "1.5").');
    expect(sent).toHaveLength(0);
  });

  it('moves focus to the first field to fix when a search is refused, opening More filters for it', async () => {
    const sent = backend(() => outcome([]));
    render(XSearch);
    const user = userEvent.setup();
    await user.type(screen.getByRole('textbox', { name: 'Search X' }), 'flood');
    await user.click(screen.getByRole('button', { name: /More filters/ }));
    await user.type(screen.getByRole('textbox', { name: 'Minimum replies' }), 'ten');
    await user.click(screen.getByRole('button', { name: /More filters/ }));
    await user.click(screen.getByRole('textbox', { name: 'Search X' }));
    await user.keyboard('{Enter}');

    const replies = screen.getByRole('textbox', { name: 'Minimum replies' });
    await expect.poll(() => document.activeElement).toBe(replies);
    expect(replies).toHaveAccessibleDescription('Enter a whole number of 0 or more (you entered "ten").');
    expect(sent).toHaveLength(0);
  });

  it('sends every filter and shows the posts with the exact cost', async () => {
    const sent = backend(() => outcome([makePost(), makePost({ id: '2', text: 'second report' })], '0.0006'));
    render(XSearch);
    const user = userEvent.setup();
    await user.type(screen.getByRole('textbox', { name: 'Search X' }), 'flood defences');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Sort' }), 'Latest');
    await user.click(screen.getByRole('button', { name: /More filters/ }));
    await user.type(screen.getByRole('textbox', { name: 'From user' }), '@ana_reports');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Language' }), 'Spanish');
    await user.click(screen.getByRole('checkbox', { name: 'With video' }));
    await user.type(screen.getByRole('textbox', { name: 'Minimum likes' }), '10{Enter}');

    expect(await screen.findByText('second report')).toBeInTheDocument();
    expect(sent[0]?.request).toEqual({
      query: 'flood defences',
      sort: 'Latest',
      count: 20,
      user: 'ana_reports',
      start_date: null,
      end_date: null,
      lang: 'es',
      verified: null,
      blue_verified: null,
      is_quote: null,
      is_video: true,
      is_image: null,
      min_retweets: null,
      min_replies: null,
      min_likes: '10',
    });
    expect(screen.getByTestId('cost-chip')).toHaveTextContent('$0.0006');
    expect(screen.getAllByRole('article')).toHaveLength(2);
  });

  it('puts a server 422 message under its field', async () => {
    backend(() => new Rejection({
      kind: 'service',
      message: 'The service did not accept the request.',
      error: { kind: 'validation', message: 'invalid', fields: [{ field: 'min_retweets', message: 'Input should be a valid integer' }], retry_after_secs: null, status: 422, received_events: null },
    }));
    render(XSearch);
    await userEvent.type(screen.getByRole('textbox', { name: 'Search X' }), 'flood{Enter}');
    const field = await screen.findByRole('textbox', { name: 'Minimum reposts' });
    expect(field).toHaveAccessibleDescription('Input should be a valid integer');
    expect(field).toBeVisible();
  });

  it('asks before passing the budget warning, then resends with the same request id', async () => {
    const sent = backend((call) =>
      call.send.confirmBudget ? outcome([makePost()]) : new Rejection({ kind: 'budget_warning', message: 'Near your daily limit.', check: makeCheck('0.006', 'warn').budget }),
    );
    render(XSearch);
    await userEvent.type(screen.getByRole('textbox', { name: 'Search X' }), 'flood{Enter}');
    await userEvent.click(await screen.findByRole('button', { name: 'Send anyway' }));
    expect(await screen.findByRole('article')).toBeInTheDocument();
    expect(sent).toHaveLength(2);
    expect(sent[1]?.send.confirmBudget).toBe(true);
    expect(sent[1]?.send.requestId).toBe(sent[0]?.send.requestId);
    expect(sent[1]?.request).toEqual(sent[0]?.request);
  });

  it('after a timeout asks whether to send again, and sends it as a new request', async () => {
    const sent = backend((_, call) =>
      call === 1
        ? new Rejection({
            kind: 'service',
            message: 'The service took too long to answer.',
            error: { kind: 'timeout', message: 'timeout', fields: [], retry_after_secs: null, status: null, received_events: null },
          })
        : outcome([makePost()]),
    );
    render(XSearch);
    await userEvent.type(screen.getByRole('textbox', { name: 'Search X' }), 'flood{Enter}');
    expect(await screen.findByText('The service may have billed this request; send again?')).toBeInTheDocument();
    expect(sent).toHaveLength(1);
    await userEvent.click(screen.getByRole('button', { name: 'Send again' }));
    expect(await screen.findByRole('article')).toBeInTheDocument();
    expect(sent).toHaveLength(2);
    expect(sent[1]?.send.requestId).not.toBe(sent[0]?.send.requestId);
    expect(sent[1]?.request).toEqual(sent[0]?.request);
  });

  it('shows a 429 countdown with a retry', async () => {
    backend(() => new Rejection({
      kind: 'service',
      message: 'Too many requests.',
      error: { kind: 'rate_limited', message: 'slow down', fields: [], retry_after_secs: 60, status: 429, received_events: null },
    }));
    render(XSearch);
    await userEvent.type(screen.getByRole('textbox', { name: 'Search X' }), 'flood{Enter}');
    expect(await screen.findByText('You can try again in 60 s.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Retry in 60 s' })).toBeDisabled();
  });

  it('starts a new search from a hashtag in a result', async () => {
    const sent = backend((_, call) => outcome(call === 1 ? [makePost()] : [makePost({ id: '3', text: 'more on the storm' })]));
    render(XSearch);
    await userEvent.type(screen.getByRole('textbox', { name: 'Search X' }), 'flood{Enter}');
    const card = await screen.findByRole('article');
    await userEvent.click(within(card).getByRole('link', { name: '#StormEowyn' }));
    expect(await screen.findByText('more on the storm')).toBeInTheDocument();
    expect(sent[1]?.request.query).toBe('#StormEowyn');
    expect(screen.getByRole('textbox', { name: 'Search X' })).toHaveValue('#StormEowyn');
  });

  it('suggests what to change when nothing matches', async () => {
    backend(() => outcome([]));
    render(XSearch);
    const user = userEvent.setup();
    await user.type(screen.getByRole('textbox', { name: 'Search X' }), 'flood');
    await user.click(screen.getByRole('button', { name: /More filters/ }));
    await user.selectOptions(screen.getByRole('combobox', { name: 'Language' }), 'French');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    expect(await screen.findByText('No posts match. Remove the French language filter?')).toBeInTheDocument();
  });

  it('runs the search another screen asked for in the hash, once', async () => {
    const sent = backend(() => outcome([makePost()]));
    window.location.hash = '#/x?q=%23Eclipse2026';
    render(XSearch);
    expect(await screen.findByRole('article')).toBeInTheDocument();
    expect(sent[0]?.request.query).toBe('#Eclipse2026');
    expect(window.location.hash).toBe('#/x');
  });

  it('focuses the search field on Ctrl+K', async () => {
    backend(() => outcome([]));
    render(XSearch);
    await userEvent.keyboard('{Control>}k{/Control}');
    expect(screen.getByRole('textbox', { name: 'Search X' })).toHaveFocus();
  });

  it('folds "More filters" away on Esc', async () => {
    backend(() => outcome([]));
    render(XSearch);
    const more = screen.getByRole('button', { name: /More filters/ });
    await userEvent.click(more);
    expect(more).toHaveAttribute('aria-expanded', 'true');
    await userEvent.keyboard('{Escape}');
    expect(more).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('textbox', { name: 'From user' })).toBeNull();
  });

  it('moves through the results with the arrow keys and opens the focused post with Enter', async () => {
    backend(() => outcome([makePost({ id: '11', text: 'first result' }), makePost({ id: '12', text: 'second result' }), makePost({ id: '13', text: 'third result' })]));
    render(XSearch);
    const user = userEvent.setup();
    await user.type(screen.getByRole('textbox', { name: 'Search X' }), 'flood{Enter}');
    const first = (await screen.findByText('first result')).closest('article') as HTMLElement;
    first.focus();
    await user.keyboard('{ArrowDown}');
    expect(screen.getByText('second result').closest('article')).toHaveFocus();
    await user.keyboard('{End}');
    expect(screen.getByText('third result').closest('article')).toHaveFocus();
    await user.keyboard('k{Enter}');
    expect(window.location.hash).toBe('#/post?id=12');
  });
});
