import { describe, expect, it } from 'vitest';
import { render, screen, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import ConversationTree from './ConversationTree.svelte';
import { estimateAsks, fetchLabel, fetchedWords } from './conversation';
import { mockBackend, reject } from '../../test/backend';
import { makeCheck } from '../../test/fixtures';
import type { ConversationNode } from '$lib/bindings/ConversationNode';
import type { ConversationTree as Tree } from '$lib/bindings/ConversationTree';

const node = (id: string, parent: string | null, depth: number, relation: ConversationNode['relation'], replies = 0, held = 0): ConversationNode => ({
  id,
  parent_id: parent,
  depth,
  relation,
  author_username: `user${id}`,
  author_name: `User ${id}`,
  text: `text ${id}`,
  created_at: '2026-11-20T10:00:00Z',
  reply_count: replies,
  replies_held: held,
});

const tree: Tree = {
  root_id: '1',
  nodes: [node('1', null, 0, 'root', 5, 3), node('2', '1', 1, 'reply', 1, 1), node('3', '2', 2, 'reply'), node('4', '1', 1, 'reply'), node('5', '1', 1, 'quote')],
  root_parent_missing: null,
  missing: [{ post_id: '1', missing: 2, within: null, asked: false, fetch: true }],
};

const items = () => screen.getAllByRole('treeitem');
const focusedId = () => (document.activeElement as HTMLElement | null)?.dataset.id;

describe('ConversationTree', () => {
  it('shows the replies and quotes as an ARIA tree that the arrow keys walk and fold', async () => {
    mockBackend({ analysis_conversation: () => tree });
    render(ConversationTree, { postId: '1' });
    const root = await screen.findByRole('tree', { name: 'Replies and quotes' });
    expect(items().map((item) => [item.dataset.id, item.getAttribute('aria-level'), item.getAttribute('aria-expanded')])).toEqual([
      ['1', '1', 'true'],
      ['2', '2', 'true'],
      ['3', '3', null],
      ['4', '2', null],
      ['5', '2', null],
    ]);
    expect(within(root).getByTestId('missing-replies')).toHaveTextContent('2 replies not fetched (3 of 5 here)');
    expect(screen.getByTestId('conversation-summary')).toHaveTextContent('5 posts stored in this conversation · 2 replies the service counts are not fetched yet.');

    items()[0]?.focus();
    await userEvent.keyboard('{ArrowDown}');
    expect(focusedId()).toBe('2');
    await userEvent.keyboard('{ArrowLeft}'); // folds 2
    expect(items().map((item) => item.dataset.id)).toEqual(['1', '2', '4', '5']);
    await userEvent.keyboard('{ArrowDown}');
    expect(focusedId()).toBe('4');
    await userEvent.keyboard('{ArrowLeft}'); // no children: to its parent
    expect(focusedId()).toBe('1');
    await userEvent.keyboard('{End}');
    expect(focusedId()).toBe('5');
    expect(items().filter((item) => item.tabIndex === 0).map((item) => item.dataset.id)).toEqual(['5']);
  });

  it('fetches the missing replies only after showing the estimate, and confirms a budget warning', async () => {
    const fuller: Tree = { ...tree, nodes: [...tree.nodes, node('6', '1', 1, 'reply')], missing: [] };
    const calls = mockBackend({
      analysis_conversation: () => tree,
      analysis_conversation_estimate: () => ({ requests: 1, replies: 3, parent: null, cost: makeCheck('0.0009', 'warn') }),
      analysis_conversation_fetch: () => ({ tree: fuller, requests: 1, newReplies: 1, repliesAlreadyHeld: 2, parentFound: null, cost: '0.0003' }),
    });
    render(ConversationTree, { postId: '1' });
    await userEvent.click(await screen.findByRole('button', { name: 'Fetch missing replies' }));
    expect(await screen.findByTestId('fetch-estimate')).toHaveTextContent('1 request for about 3 replies: about $0.0009.');
    expect(screen.getByText(/Daily budget/)).toBeInTheDocument();
    expect(calls.analysis_conversation_fetch).toBeUndefined();
    await userEvent.click(screen.getByRole('button', { name: 'Fetch anyway' }));
    expect(await screen.findByTestId('fetch-note')).toHaveTextContent('Fetched 1 new reply in 1 request; 2 replies were already stored · cost $0.0003');
    expect(calls.analysis_conversation_fetch?.[0]?.send?.confirmBudget).toBe(true);
    expect(items()).toHaveLength(6);
    expect(screen.queryByRole('button', { name: 'Fetch missing replies' })).toBeNull();
  });

  it('offers the post the first one answers when it was never fetched, with its estimate first', async () => {
    const orphan: Tree = { root_id: '7', nodes: [node('7', null, 0, 'root')], root_parent_missing: '6', missing: [] };
    const grown: Tree = { root_id: '6', nodes: [node('6', null, 0, 'root', 1, 1), node('7', '6', 1, 'reply')], root_parent_missing: null, missing: [] };
    const calls = mockBackend({
      analysis_conversation: () => orphan,
      analysis_conversation_estimate: () => ({ requests: 1, replies: 0, parent: '6', cost: makeCheck('0.0003') }),
      analysis_conversation_fetch: () => ({ tree: grown, requests: 1, newReplies: 0, repliesAlreadyHeld: 0, parentFound: true, cost: '0.0003' }),
    });
    render(ConversationTree, { postId: '7' });
    expect(await screen.findByText(/The first post here answers a post that is not stored: fetch it below/)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Fetch the post it answers' }));
    expect(await screen.findByTestId('fetch-estimate')).toHaveTextContent('1 request for the post it answers: about $0.0003.');
    expect(calls.analysis_conversation_fetch).toBeUndefined();
    await userEvent.click(screen.getByRole('button', { name: 'Fetch now' }));
    expect(await screen.findByTestId('fetch-note')).toHaveTextContent('Fetched the post it answers in 1 request · cost $0.0003');
    expect(items().map((item) => item.dataset.id)).toEqual(['6', '7']);
    expect(screen.queryByRole('button', { name: /^Fetch/ })).toBeNull();
  });

  it('says the words of each fetch: both kinds, replies new or stored already, and a parent the service no longer has', () => {
    expect(fetchLabel(true, true)).toBe('Fetch the post it answers and missing replies');
    expect(fetchLabel(true, false)).toBe('Fetch missing replies');
    expect(fetchLabel(false, true)).toBe('Fetch the post it answers');
    expect(estimateAsks({ requests: 2, replies: 3, parent: '6', cost: makeCheck('0.0012') })).toBe('2 requests for the post it answers and about 3 replies');
    const fetched = { tree, requests: 2, newReplies: 3, repliesAlreadyHeld: 0, parentFound: true, cost: '0' };
    expect(fetchedWords(fetched)).toBe('Fetched the post it answers and 3 new replies in 2 requests');
    expect(fetchedWords({ ...fetched, parentFound: false })).toBe('Fetched 3 new replies in 2 requests (the post it answers is no longer on the service)');
    // Replies the service sent again are not counted as fetched: none new, and said so.
    expect(fetchedWords({ ...fetched, requests: 1, newReplies: 0, repliesAlreadyHeld: 2, parentFound: null })).toBe('Fetched no new replies in 1 request; 2 replies were already stored');
    expect(fetchedWords({ ...fetched, newReplies: 1, repliesAlreadyHeld: 1 })).toBe('Fetched the post it answers and 1 new reply in 2 requests; 1 reply was already stored');
  });

  it('offers no fetch for replies the service was asked for and did not return, and counts a thread once', async () => {
    const asked: Tree = {
      ...tree,
      nodes: [node('1', null, 0, 'root', 5, 3), node('2', '1', 1, 'reply', 2, 1), node('3', '2', 2, 'reply'), node('4', '1', 1, 'reply'), node('5', '1', 1, 'quote')],
      missing: [
        { post_id: '1', missing: 2, within: null, asked: true, fetch: false },
        { post_id: '2', missing: 1, within: '1', asked: true, fetch: false },
      ],
    };
    mockBackend({ analysis_conversation: () => asked });
    render(ConversationTree, { postId: '1' });
    // 2's missing reply is one of 1's two: the summary counts two, not three.
    expect(await screen.findByTestId('conversation-summary')).toHaveTextContent('5 posts stored in this conversation · 2 replies the service counts were not returned when asked.');
    expect(screen.getAllByTestId('missing-replies').map((line) => line.textContent)).toEqual([
      '2 replies not returned when asked (3 of 5 here)',
      '1 reply not returned when asked (1 of 2 here)',
    ]);
    expect(screen.queryByRole('button', { name: /^Fetch/ })).toBeNull();
  });

  it('sends nothing when the budget blocks, and says a failed read in words', async () => {
    const calls = mockBackend({
      analysis_conversation: () => tree,
      analysis_conversation_estimate: () => ({ requests: 1, replies: 3, cost: makeCheck('0.0009', 'block') }),
    });
    render(ConversationTree, { postId: '1' });
    await userEvent.click(await screen.findByRole('button', { name: 'Fetch missing replies' }));
    expect(await screen.findByText(/Over budget: nothing is fetched/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Fetch (now|anyway)/ })).toBeNull();
    expect(calls.analysis_conversation_fetch).toBeUndefined();

    mockBackend({ analysis_conversation: () => reject({ kind: 'not_found', message: 'That post is not stored.' }) });
    render(ConversationTree, { postId: '9' });
    expect(await screen.findByText('That post is not stored.')).toBeInTheDocument();
  });
});
