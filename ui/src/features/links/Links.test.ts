import { describe, expect, it } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import { mockIPC } from '@tauri-apps/api/mocks';
import Links from './Links.svelte';
import { makeCheck, makePost } from '../../test/fixtures';
import type { CommandError } from '$lib/bindings/CommandError';

type Sent = { cmd: string; request: Record<string, unknown>; send: { requestId: string; confirmBudget: boolean } };

class Rejection {
  constructor(readonly error: CommandError) {}
}

function outcome(body: unknown, cost = '0.004') {
  return { historyId: 1, body, billing: { cost, usage_count: 1, service: 'ai_links_web', currency: 'USD' }, fromCache: false, replayed: false, hasMore: false };
}

function backend(answer: (sent: Sent) => unknown) {
  const sent: Sent[] = [];
  const estimated: string[] = [];
  mockIPC((cmd, args) => {
    if (cmd === 'estimate_cost') {
      estimated.push((args as { operation: string }).operation);
      return makeCheck('0.004');
    }
    if (cmd === 'settings_get') return { mediaSafeView: true };
    if (cmd === 'links_web' || cmd === 'links_twitter') {
      const call = { cmd, ...(args as object) } as Sent;
      sent.push(call);
      const result = answer(call);
      if (result instanceof Rejection) throw result.error;
      return result;
    }
  });
  return { sent, estimated };
}

const webBody = {
  search_results: [
    { title: 'Barriers hold', snippet: 'Tested overnight.', link: 'https://news.example/barriers' },
    { title: '<img src=x onerror=alert(1)> Flood maps', snippet: '<script>alert(1)</script> maps', link: 'javascript:alert(1)' },
  ],
  youtube_search_results: null,
  hacker_news_search_results: null,
  reddit_search_results: [{ title: 'r/floods discussion', snippet: 'Locals report.', link: 'https://reddit.example/r/floods/1' }],
  arxiv_search_results: [],
  wikipedia_search_results: null,
};

describe('Links', () => {
  it('finds web links with the chosen sources and groups them by source', async () => {
    const { sent } = backend(() => outcome(webBody));
    render(Links);
    const user = userEvent.setup();
    await user.click(screen.getByRole('checkbox', { name: 'Reddit' }));
    await user.click(screen.getByRole('checkbox', { name: 'arXiv' }));
    expect(screen.queryByRole('checkbox', { name: 'X' })).toBeNull();
    await user.type(screen.getByRole('textbox', { name: 'Find links about' }), 'flood barriers{Enter}');

    expect(await screen.findByRole('status')).toHaveTextContent('3 links from Web, Reddit');
    expect(sent[0]?.cmd).toBe('links_web');
    expect(sent[0]?.request).toEqual({ prompt: 'flood barriers', tools: ['web', 'reddit', 'arxiv'], count: 10 });

    const tabs = screen.getAllByRole('tab');
    expect(tabs.map((tab) => tab.textContent?.replace(/\s+/g, ' ').trim())).toEqual(['Web 2', 'Reddit 1', 'arXiv 0']);
    const panel = screen.getByRole('tabpanel');
    expect(within(panel).getByRole('link', { name: 'Barriers hold' })).toHaveAttribute('href', 'https://news.example/barriers');
    // Untrusted titles stay text, and a javascript: link is not a link.
    const hostile = within(panel).getByRole('article', { name: /Flood maps/ });
    expect(hostile).toHaveTextContent('<img src=x onerror=alert(1)> Flood maps');
    expect(hostile.querySelector('a, img, script')).toBeNull();

    await user.click(screen.getByRole('tab', { name: /Reddit/ }));
    expect(within(screen.getByRole('tabpanel')).getByRole('link', { name: 'r/floods discussion' })).toBeInTheDocument();
    await user.click(screen.getByRole('tab', { name: /arXiv/ }));
    expect(screen.getByRole('tabpanel')).toHaveTextContent('No results from arXiv for this question.');
    expect(screen.getByTestId('cost-chip')).toHaveTextContent('$0.004');
  });

  it('switches to posts on X, which has no sources to pick, and keeps each mode’s results', async () => {
    const { sent, estimated } = backend((call) =>
      call.cmd === 'links_web' ? outcome(webBody) : outcome({ miner_tweets: [makePost(), makePost({ id: '2', text: 'second post' })] }),
    );
    render(Links);
    const user = userEvent.setup();
    await user.type(screen.getByRole('textbox', { name: 'Find links about' }), 'flood barriers{Enter}');
    await screen.findByRole('tab', { name: /Web/ });

    await user.click(screen.getByRole('radio', { name: 'Posts on X' }));
    expect(screen.queryByRole('group', { name: 'Sources' })).toBeNull();
    const prompt = screen.getByRole('textbox', { name: 'Find posts about' });
    expect(prompt).toHaveValue('flood barriers');
    expect(screen.queryByRole('tab')).toBeNull();
    await waitFor(() => expect(estimated).toContain('links_twitter'));

    await user.click(screen.getByRole('button', { name: 'Find' }));
    expect(await screen.findByText('second post')).toBeInTheDocument();
    expect(sent[1]?.cmd).toBe('links_twitter');
    expect(sent[1]?.request).toEqual({ prompt: 'flood barriers', count: 10 });
    expect(screen.getAllByRole('article')).toHaveLength(2);
    expect(screen.getByRole('status')).toHaveTextContent('2 posts');

    await user.click(screen.getByRole('radio', { name: 'Web links' }));
    expect(screen.getByRole('tab', { name: /Web/ })).toBeInTheDocument();
    expect(sent).toHaveLength(2);
  });

  it('checks the form before sending', async () => {
    const { sent } = backend(() => outcome(webBody));
    render(Links);
    const user = userEvent.setup();
    await user.click(screen.getByRole('checkbox', { name: 'Web' }));
    const count = screen.getByRole('spinbutton', { name: 'Results per source' });
    await user.clear(count);
    await user.type(count, '300');
    await user.click(screen.getByRole('button', { name: 'Find' }));
    expect(screen.getByRole('textbox', { name: 'Find links about' })).toHaveAccessibleDescription('Type what you want to search for.');
    expect(screen.getByRole('group', { name: 'Sources' })).toHaveAccessibleDescription('Pick at least one source to search.');
    expect(count).toHaveAccessibleDescription('Choose a number from 10 to 200 (you entered 300).');
    expect(sent).toHaveLength(0);
  });

  it('puts a server 422 message under its field', async () => {
    backend(
      () =>
        new Rejection({
          kind: 'service',
          message: 'The service did not accept the request.',
          error: { kind: 'validation', message: 'invalid', fields: [{ field: 'tools', message: 'Input should be web, hackernews, reddit' }], retry_after_secs: null, status: 422, received_events: null },
        }),
    );
    render(Links);
    await userEvent.type(screen.getByRole('textbox', { name: 'Find links about' }), 'flood{Enter}');
    await waitFor(() => expect(screen.getByRole('group', { name: 'Sources' })).toHaveAccessibleDescription('Input should be web, hackernews, reddit'));
  });

  it('says what to try when nothing matched', async () => {
    backend(() => outcome({ miner_tweets: [] }));
    render(Links);
    const user = userEvent.setup();
    await user.click(screen.getByRole('radio', { name: 'Posts on X' }));
    await user.type(screen.getByRole('textbox', { name: 'Find posts about' }), 'zzzz{Enter}');
    expect(await screen.findByText('No posts matched. Try other or fewer words.')).toBeInTheDocument();
  });
});
