import { afterEach, describe, expect, it } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import { mockIPC } from '@tauri-apps/api/mocks';
import type { Channel } from '@tauri-apps/api/core';
import Ask from './Ask.svelte';
import { makeCheck, makePost } from '../../test/fixtures';
import type { AiSearchResult } from '$lib/bindings/AiSearchResult';
import type { CommandError } from '$lib/bindings/CommandError';
import type { StreamEvent } from '$lib/bindings/StreamEvent';
import type { StreamMessage } from '$lib/bindings/StreamMessage';
import { FIRST_DELTA_PAINTED, FIRST_DELTA_RECEIVED } from './marks';

interface Call {
  cmd: string;
  request: Record<string, unknown>;
  send: { requestId: string; confirmBudget: boolean };
  channel?: Channel<StreamMessage>;
  resolve: (value: unknown) => void;
  reject: (error: CommandError) => void;
}

/** The command layer: each AI search waits until the test answers it, as a real stream does. */
function backend() {
  const calls: Call[] = [];
  const cancelled: string[] = [];
  mockIPC((cmd, args) => {
    if (cmd === 'estimate_cost') return makeCheck('0.004');
    if (cmd === 'settings_get') return { mediaSafeView: true };
    if (cmd === 'cancel_stream') {
      cancelled.push((args as { requestId: string }).requestId);
      return true;
    }
    if (cmd === 'ai_search_stream' || cmd === 'ai_search') {
      return new Promise((resolve, reject) => calls.push({ cmd, ...(args as object), resolve, reject } as Call));
    }
  });
  return { calls, cancelled };
}

function emit(call: Call | undefined, ...events: StreamEvent[]) {
  for (const event of events) call?.channel?.onmessage({ type: 'event', event });
}

function started(call: Call | undefined) {
  call?.channel?.onmessage({ type: 'started', historyId: 7 });
}

function result(overrides: Partial<AiSearchResult> = {}): AiSearchResult {
  return {
    search: null,
    hacker_news_search: null,
    reddit_search: null,
    youtube_search: null,
    wikipedia_search: null,
    arxiv_search: null,
    tweets: null,
    miner_link_scores: null,
    text: null,
    completion: null,
    ...overrides,
  } as AiSearchResult;
}

function outcome(body: AiSearchResult, cost: string | null = '0.004') {
  return {
    historyId: 7,
    body,
    billing: cost === null ? null : { cost, usage_count: 1, service: 'ai_search', currency: 'USD' },
    fromCache: false,
    replayed: false,
    hasMore: false,
  };
}

const webLinks = [
  { title: 'Flood barriers hold in Bristol', snippet: 'The new barriers were tested overnight.', link: 'https://news.example/floods' },
  { title: 'River levels explained', snippet: 'Why the river rose so fast.', link: 'https://science.example/rivers/' },
];

async function ask(question: string) {
  const user = userEvent.setup();
  await user.type(screen.getByRole('textbox', { name: 'Question' }), question);
  await user.keyboard('{Enter}');
  return user;
}

const answer = () => screen.getByTestId('answer');

afterEach(() => {
  delete (window as { pwned?: unknown }).pwned;
  performance.clearMarks();
});

describe('Ask', () => {
  it('fills in a question handed over in the address, without sending it', async () => {
    const { calls } = backend();
    window.location.hash = `#/ask?q=${encodeURIComponent('What is being said about #Eclipse2026?')}`;
    render(Ask);
    const question = screen.getByRole('textbox', { name: 'Question' });
    expect(question).toHaveValue('What is being said about #Eclipse2026?');
    await waitFor(() => expect(question).toHaveFocus());
    // Consumed, so going back does not fill it again; and nothing was sent or billed.
    expect(window.location.hash).toBe('#/ask');
    expect(calls).toHaveLength(0);
  });

  it('checks the form before sending and says what to fix under each field', async () => {
    const { calls } = backend();
    render(Ask);
    const user = userEvent.setup();
    await user.click(screen.getByRole('checkbox', { name: 'Web' }));
    await user.click(screen.getByRole('checkbox', { name: 'X' }));
    const count = screen.getByRole('spinbutton', { name: 'Results per source' });
    await user.clear(count);
    await user.type(count, '5');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Time range' }), 'Custom dates…');
    await user.type(screen.getByLabelText('From (UTC)'), '2026-03-10');
    await user.type(screen.getByLabelText('To (UTC)'), '2026-03-01');
    await user.click(screen.getByRole('button', { name: 'Ask' }));

    expect(screen.getByRole('textbox', { name: 'Question' })).toHaveAccessibleDescription('Type what you want to search for.');
    expect(screen.getByRole('group', { name: 'Sources' })).toHaveAccessibleDescription('Pick at least one source to search.');
    expect(count).toHaveAccessibleDescription('Choose a number from 10 to 200 (you entered 5).');
    expect(screen.getByLabelText('To (UTC)')).toHaveAccessibleDescription('The end date is before the start date.');
    expect(calls).toHaveLength(0);
  });

  it('sends the request as the service expects it, streaming by default', async () => {
    const { calls } = backend();
    render(Ask);
    const user = userEvent.setup();
    await user.click(screen.getByRole('checkbox', { name: 'Reddit' }));
    await user.selectOptions(screen.getByRole('combobox', { name: 'Time range' }), 'Custom dates…');
    await user.type(screen.getByLabelText('From (UTC)'), '2026-03-01');
    await user.type(screen.getByLabelText('To (UTC)'), '2026-03-02');
    await user.click(screen.getByRole('button', { name: 'Advanced' }));
    await user.type(screen.getByRole('textbox', { name: 'System message' }), 'Answer in French.');
    await user.type(screen.getByRole('textbox', { name: 'Question' }), 'flood defences{Enter}');

    await waitFor(() => expect(calls).toHaveLength(1));
    expect(calls[0]?.cmd).toBe('ai_search_stream');
    expect(calls[0]?.request).toEqual({
      prompt: 'flood defences',
      tools: ['web', 'twitter', 'reddit'],
      count: 10,
      date_filter: null,
      start_date: '2026-03-01T00:00:00Z',
      end_date: '2026-03-02T23:59:59Z',
      result_type: 'LINKS_WITH_FINAL_SUMMARY',
      system_message: 'Answer in French.',
      scoring_system_message: null,
      streaming: true,
      model: null,
      response_order: null,
    });
  });

  it('keeps Shift+Enter as a new line in the question', async () => {
    const { calls } = backend();
    render(Ask);
    const user = userEvent.setup();
    const question = screen.getByRole('textbox', { name: 'Question' });
    await user.type(question, 'first line{Shift>}{Enter}{/Shift}second');
    expect(question).toHaveValue('first line\nsecond');
    expect(calls).toHaveLength(0);
  });

  it('shows the answer growing as deltas arrive, the sources with their grades, then the cost', async () => {
    const { calls } = backend();
    render(Ask);
    await ask('flood defences');
    await waitFor(() => expect(calls).toHaveLength(1));
    const call = calls[0];
    started(call);
    expect(await screen.findByRole('status')).toHaveTextContent('Searching…');
    expect(screen.getByRole('tab', { name: /Web/ })).toHaveTextContent('…');

    emit(call, { kind: 'link_results', tool: 'search', results: webLinks });
    emit(call, { kind: 'tweets', tweets: [makePost()] });
    emit(call, { kind: 'link_scores', scores: { 'https://news.example/floods': 'HIGH', 'https://science.example/rivers': 'LOW', '1890000000000000001': 'MEDIUM' } });
    emit(call, { kind: 'text', role: 'summary', text: '## Flood defences\n\nThe barriers ' });
    await waitFor(() => expect(answer()).toHaveTextContent('The barriers'));
    expect(screen.getByRole('heading', { name: 'Flood defences' })).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Writing the answer…');
    const firstLength = answer().textContent?.length ?? 0;

    emit(call, { kind: 'text', role: 'summary', text: 'held overnight ([Web](https://news.example/floods)).' });
    await waitFor(() => expect(answer()).toHaveTextContent('The barriers held overnight (Web).'));
    expect(answer().textContent?.length ?? 0).toBeGreaterThan(firstLength);
    expect(within(answer()).getByRole('link', { name: 'Web' })).toHaveAttribute('href', 'https://news.example/floods');

    // Sources: the web results with their grades (one matched despite a trailing slash).
    const panel = screen.getByRole('tabpanel');
    const barrier = within(panel).getByRole('article', { name: 'Flood barriers hold in Bristol' });
    expect(barrier).toHaveTextContent('HIGH');
    expect(barrier).toHaveTextContent('news.example');
    expect(within(panel).getByRole('article', { name: 'River levels explained' })).toHaveTextContent('LOW');

    emit(call, { kind: 'completion', text: '## Flood defences\n\nThe barriers held overnight ([Web](https://news.example/floods)).' });
    call?.resolve(
      outcome(
        result({
          search: webLinks,
          tweets: [makePost()],
          miner_link_scores: { 'https://news.example/floods': 'HIGH' },
          text: '## Flood defences\n\nThe barriers held overnight ([Web](https://news.example/floods)).',
          completion: '## Flood defences\n\nThe barriers held overnight ([Web](https://news.example/floods)).',
        }),
        '0.004',
      ),
    );
    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent(/^Done · \$0\.004 · \d+\.\d s$/));
    expect(screen.getByTestId('cost-chip')).toHaveTextContent('$0.004');

    // The X posts, graded by bare post id.
    await userEvent.click(screen.getByRole('tab', { name: /X/ }));
    const posts = screen.getByRole('tabpanel');
    expect(within(posts).getByRole('article', { name: /Post by Ana Lima/ })).toBeInTheDocument();
    expect(posts).toHaveTextContent('MEDIUM');
  });

  it('marks when the first piece of the answer arrived and when it was painted', async () => {
    const { calls } = backend();
    render(Ask);
    await ask('flood');
    await waitFor(() => expect(calls).toHaveLength(1));
    started(calls[0]);
    expect(performance.getEntriesByName(FIRST_DELTA_RECEIVED)).toHaveLength(0);
    emit(calls[0], { kind: 'text', role: 'summary', text: 'First ' }, { kind: 'text', role: 'summary', text: 'words' });
    expect(performance.getEntriesByName(FIRST_DELTA_RECEIVED)).toHaveLength(1);
    await waitFor(() => expect(performance.getEntriesByName(FIRST_DELTA_PAINTED)).toHaveLength(1));
    const [received] = performance.getEntriesByName(FIRST_DELTA_RECEIVED);
    const [painted] = performance.getEntriesByName(FIRST_DELTA_PAINTED);
    expect(painted!.startTime).toBeGreaterThanOrEqual(received!.startTime);
    expect(answer()).toHaveTextContent('First');
  });

  it('stops on Stop, keeps the partial answer and says so', async () => {
    const { calls, cancelled } = backend();
    render(Ask);
    const user = await ask('flood');
    await waitFor(() => expect(calls).toHaveLength(1));
    const call = calls[0];
    started(call);
    emit(call, { kind: 'text', role: 'summary', text: 'The barriers held ' });
    await waitFor(() => expect(answer()).toHaveTextContent('The barriers held'));

    await user.click(screen.getByRole('button', { name: 'Stop' }));
    expect(cancelled).toEqual([call?.send.requestId]);
    // The command then ends with what arrived (the Rust side records it as cancelled).
    call?.resolve(outcome(result({ text: 'The barriers held ' }), '0.004'));

    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent('Stopped — partial answer kept · $0.004'));
    expect(answer()).toHaveTextContent('The barriers held');
    expect(screen.queryByRole('button', { name: 'Stop' })).toBeNull();
  });

  it('stops on Esc as well', async () => {
    const { calls, cancelled } = backend();
    render(Ask);
    const user = await ask('flood');
    await waitFor(() => expect(calls).toHaveLength(1));
    started(calls[0]);
    emit(calls[0], { kind: 'text', role: 'summary', text: 'Partial words' });
    await user.keyboard('{Escape}');
    expect(cancelled).toHaveLength(1);
    calls[0]?.resolve(outcome(result({ text: 'Partial words' })));
    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent('Stopped — partial answer kept'));
    expect(answer()).toHaveTextContent('Partial words');
  });

  it('keeps the partial answer when the stream fails, and offers a retry', async () => {
    const { calls } = backend();
    render(Ask);
    const user = await ask('flood');
    await waitFor(() => expect(calls).toHaveLength(1));
    const call = calls[0];
    started(call);
    emit(call, { kind: 'link_results', tool: 'search', results: webLinks });
    emit(call, { kind: 'text', role: 'summary', text: 'Half of the answer' });
    await waitFor(() => expect(answer()).toHaveTextContent('Half of the answer'));
    emit(call, { kind: 'error', message: 'model overloaded' });
    call?.reject({
      kind: 'service',
      message: 'The service reported an error mid-answer: model overloaded',
      error: { kind: 'stream_failed', message: 'model overloaded', fields: [], retry_after_secs: null, status: 200, received_events: 3 },
    });

    const banner = await screen.findByRole('alert');
    expect(banner).toHaveTextContent('The service reported an error while answering.');
    expect(banner).toHaveTextContent('model overloaded');
    expect(answer()).toHaveTextContent('Half of the answer');
    expect(screen.getByRole('status')).toHaveTextContent('Interrupted — partial answer kept');
    expect(within(screen.getByRole('tabpanel')).getAllByRole('article')).toHaveLength(2);

    await user.click(within(banner).getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(calls).toHaveLength(2));
    expect(calls[1]?.send.requestId).not.toBe(call?.send.requestId);
    expect(calls[1]?.request).toEqual(call?.request);
  });

  it('keeps the partial answer when the stream is cut', async () => {
    const { calls } = backend();
    render(Ask);
    await ask('flood');
    await waitFor(() => expect(calls).toHaveLength(1));
    started(calls[0]);
    emit(calls[0], { kind: 'text', role: 'summary', text: 'Cut here' });
    calls[0]?.reject({
      kind: 'service',
      message: 'The connection broke during the answer.',
      error: { kind: 'stream_cut', message: 'cut', fields: [], retry_after_secs: null, status: null, received_events: 1 },
    });
    expect(await screen.findByRole('alert')).toHaveTextContent('The answer stopped part-way.');
    expect(answer()).toHaveTextContent('Cut here');
  });

  it('puts a server 422 message under its field, opening Advanced when it is there', async () => {
    const { calls } = backend();
    render(Ask);
    await ask('flood');
    await waitFor(() => expect(calls).toHaveLength(1));
    calls[0]?.reject({
      kind: 'service',
      message: 'The service did not accept the request.',
      error: {
        kind: 'validation',
        message: 'invalid',
        fields: [
          { field: 'count', message: 'Input should be less than or equal to 200' },
          { field: 'system_message', message: 'Input should be a valid string' },
        ],
        retry_after_secs: null,
        status: 422,
        received_events: null,
      },
    });
    const count = screen.getByRole('spinbutton', { name: 'Results per source' });
    await waitFor(() => expect(count).toHaveAccessibleDescription('Input should be less than or equal to 200'));
    const system = screen.getByRole('textbox', { name: 'System message' });
    expect(system).toBeVisible();
    expect(system).toHaveAccessibleDescription('Input should be a valid string');
  });

  it('renders a hostile answer inert', async () => {
    const { calls } = backend();
    render(Ask);
    await ask('xss');
    await waitFor(() => expect(calls).toHaveLength(1));
    started(calls[0]);
    emit(
      calls[0],
      { kind: 'text', role: 'summary', text: '## <img src=x onerror="window.pwned=1"> Findings\n\n' },
      { kind: 'text', role: 'summary', text: 'Logs: <script>window.pwned=2</script> <svg onload="window.pwned=3"></svg> ' },
      { kind: 'text', role: 'summary', text: '[claim prize](javascript:window.pwned=4) <a href="javascript:window.pwned=5" onclick="window.pwned=6">here</a> <iframe src="https://evil.example"></iframe> <p style="position:fixed;inset:0">cover</p>' },
    );
    await waitFor(() => expect(answer()).toHaveTextContent('claim prize'));
    const region = answer();
    expect(region.querySelector('img, script, svg, iframe, [style], [onclick], [onerror]')).toBeNull();
    for (const link of Array.from(region.querySelectorAll('a'))) expect(link.hasAttribute('href')).toBe(false);
    await userEvent.click(within(region).getByText('here'));
    expect((window as { pwned?: unknown }).pwned).toBeUndefined();
  });

  it('asks before passing the budget warning, then resends with the same request id', async () => {
    const { calls } = backend();
    render(Ask);
    const user = await ask('flood');
    await waitFor(() => expect(calls).toHaveLength(1));
    calls[0]?.reject({ kind: 'budget_warning', message: 'Near your daily limit.', check: makeCheck('0.004', 'warn').budget });
    await user.click(await screen.findByRole('button', { name: 'Send anyway' }));
    await waitFor(() => expect(calls).toHaveLength(2));
    expect(calls[1]?.send).toEqual({ requestId: calls[0]?.send.requestId, confirmBudget: true });
  });

  it('uses the plain request when streaming is off, and shows the whole answer', async () => {
    const { calls } = backend();
    render(Ask);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Advanced' }));
    await user.click(screen.getByRole('checkbox', { name: 'Show the answer as it is written' }));
    await user.type(screen.getByRole('textbox', { name: 'Question' }), 'flood{Enter}');
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(calls[0]?.cmd).toBe('ai_search');
    expect(calls[0]?.request.streaming).toBe(false);
    expect(screen.queryByRole('button', { name: 'Stop' })).toBeNull();
    calls[0]?.resolve(outcome(result({ search: webLinks, completion: 'All **at once**.', miner_link_scores: { 'https://news.example/floods': 'MEDIUM' } }), '0.004'));
    await waitFor(() => expect(answer()).toHaveTextContent('All at once.'));
    expect(within(screen.getByRole('tabpanel')).getByRole('article', { name: 'Flood barriers hold in Bristol' })).toHaveTextContent('MEDIUM');
    expect(screen.getByRole('status')).toHaveTextContent('Done · $0.004');
  });

  it('says so when the service could not write an answer', async () => {
    const { calls } = backend();
    render(Ask);
    await ask('flood');
    await waitFor(() => expect(calls).toHaveLength(1));
    started(calls[0]);
    emit(calls[0], { kind: 'link_results', tool: 'search', results: webLinks }, { kind: 'completion', text: '' });
    calls[0]?.resolve(outcome(result({ search: webLinks, completion: '' })));
    expect(await screen.findByText(/could not write an answer this time/)).toBeInTheDocument();
  });

  it('shows a 429 countdown, and no empty answer or sources, when nothing was sent', async () => {
    const { calls } = backend();
    render(Ask);
    await ask('flood');
    await waitFor(() => expect(calls).toHaveLength(1));
    calls[0]?.reject({
      kind: 'service',
      message: 'Too many requests.',
      error: { kind: 'rate_limited', message: 'slow down', fields: [], retry_after_secs: 30, status: 429, received_events: null },
    });
    expect(await screen.findByText('You can try again in 30 s.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Retry in 30 s' })).toBeDisabled();
    expect(screen.queryByRole('region', { name: 'Answer' })).toBeNull();
    expect(screen.queryByRole('tab')).toBeNull();
  });

  it('focuses the question on Ctrl+K', async () => {
    backend();
    render(Ask);
    await userEvent.keyboard('{Control>}k{/Control}');
    expect(screen.getByRole('textbox', { name: 'Question' })).toHaveFocus();
  });
});
