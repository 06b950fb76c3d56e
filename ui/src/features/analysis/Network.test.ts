import { beforeAll, describe, expect, it, vi } from 'vitest';
import { render, screen, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import Network from './Network.svelte';
import { mockBackend } from '../../test/backend';
import type { AnalysisScope } from '$lib/bindings/AnalysisScope';
import type { Network as NetworkData } from '$lib/bindings/Network';
import { networkPicture, networkSummary, nodeStats, pictureSvg } from './network';
import { chartColors } from './chartTheme';
import { layoutPlan, seededPositions } from './layoutPlan';
import { layoutRequest } from './layout';
import { modalDialogs } from '../../test/dialog';

const scope: AnalysisScope = { source: { kind: 'request', history_id: 4 }, from: null, to: null, filters: { account: null, hashtag: null, mention: null, cashtag: null, domain: null, language: null } };

const network: NetworkData = {
  nodes: [
    { id: 'jordan', label: '@Jordan', posts: 3 },
    { id: 'ana', label: '@ana', posts: 0 },
    { id: 'bo', label: '@bo', posts: 1 },
  ],
  edges: [
    { source: 'ana', target: 'jordan', kind: 'repost', weight: 2, first: '2026-11-20T10:00:00Z', last: '2026-11-21T10:00:00Z' },
    { source: 'bo', target: 'jordan', kind: 'reply', weight: 1, first: '2026-11-20T11:00:00Z', last: '2026-11-20T11:00:00Z' },
  ],
  total_edges: 2,
  reposter_requests: 1,
};

describe('network helpers', () => {
  it('counts each account’s links both ways, most connected first', () => {
    const stats = nodeStats(network);
    expect(stats.map((node) => [node.id, node.degree, node.in, node.out, node.strength])).toEqual([
      ['jordan', 2, 2, 0, 3],
      ['ana', 1, 0, 1, 2],
      ['bo', 1, 0, 1, 1],
    ]);
    expect(networkSummary(network)).toBe('3 accounts linked by 2 edges: 1 repost, 1 reply. Most connected: @Jordan (2 links), @ana (1 link), @bo (1 link).');
  });

  it('sends the layout worker node indexes, and seeds the same start every time', () => {
    const request = layoutRequest(1, network);
    expect([...request.pairs]).toEqual([1, 0, 2, 0]);
    expect([...request.weights]).toEqual([2, 1]);
    expect(seededPositions(3)).toEqual(seededPositions(3));
    expect(layoutPlan(5000).barnesHut).toBe(true);
  });

  it('draws the saved picture with escaped labels inside the page', () => {
    const odd = { ...network, nodes: network.nodes.map((node, at) => (at === 0 ? { ...node, label: '@a<b&c' } : node)) };
    const picture = networkPicture(odd, new Float32Array([0, 0, 10, 5, -10, -5]), chartColors(), 'Network');
    for (const dot of picture.dots) {
      expect(dot.x).toBeGreaterThanOrEqual(0);
      expect(dot.x).toBeLessThanOrEqual(picture.width);
    }
    expect(picture.lines).toHaveLength(2);
    const svg = pictureSvg(picture, chartColors());
    expect(svg).toContain('@a&lt;b&amp;c');
    expect(new DOMParser().parseFromString(svg, 'image/svg+xml').getElementsByTagName('parsererror')).toHaveLength(0);
  });
});

describe('Network', () => {
  beforeAll(() => {
    modalDialogs();
  });

  it('asks for the kinds ticked and the minimum weight, and lists nodes and edges as tables', async () => {
    const calls = mockBackend({ analysis_network: () => network, analysis_posts: () => ({ posts: [], total: 0 }) });
    const filterBy = vi.fn();
    render(Network, { scope, active: true, filterBy });
    await screen.findByText(/3 accounts linked by 2 edges/);
    expect(calls.analysis_network?.[0]?.query).toEqual({ kinds: ['repost', 'reply', 'quote', 'mention'], min_weight: 1, max_edges: 0 });

    await userEvent.click(screen.getByRole('checkbox', { name: /Replies/ }));
    await vi.waitFor(() => expect(calls.analysis_network?.at(-1)?.query).toEqual({ kinds: ['repost', 'quote', 'mention'], min_weight: 1, max_edges: 0 }));

    // jsdom draws no WebGL: the view says so and opens the tables, which hold the whole network.
    expect(screen.getByRole('alert')).toHaveTextContent('The picture cannot be drawn in this window (WebGL is not available). The tables below hold the whole network.');
    expect(screen.getByRole('button', { name: 'Hide the tables' })).toHaveAttribute('aria-expanded', 'true');
    const nodes = within(screen.getByTestId('network-nodes'));
    expect(nodes.getAllByRole('row').map((row) => [...row.children].map((cell) => cell.textContent?.trim()).join(' '))).toEqual([
      'Account Posts Links Out In Weight',
      '@Jordan 3 2 0 2 3',
      '@ana 0 1 1 0 2',
      '@bo 1 1 1 0 1',
    ]);
    expect(within(screen.getByTestId('network-edges')).getAllByRole('row')).toHaveLength(3);

    // Choosing an account (Enter or click on its name) lists its posts in the scope; closed, its
    // links stay shown, and the analysis narrows to it on request.
    nodes.getByRole('button', { name: '@Jordan' }).focus();
    await userEvent.keyboard('{Enter}');
    const dialog = await screen.findByRole('dialog', { name: 'Posts by @Jordan in this scope' });
    await vi.waitFor(() => expect(calls.analysis_posts?.[0]).toEqual({ scope: { ...scope, filters: { ...scope.filters, account: 'jordan' } }, page: { offset: 0, limit: 50, after: null } }));
    (dialog as HTMLDialogElement).close();
    await vi.waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const chosen = within(await screen.findByTestId('network-chosen'));
    expect(chosen.getByText('3 posts in this scope · 0 links out, 2 links in')).toBeInTheDocument();
    await userEvent.click(chosen.getByRole('button', { name: 'Narrow the analysis to @Jordan' }));
    expect(filterBy).toHaveBeenCalledWith('account', 'jordan', '@Jordan');

    // An account with no posts here (a reposter only) shows its links without a list.
    await userEvent.click(nodes.getByRole('button', { name: '@ana' }));
    expect(within(await screen.findByTestId('network-chosen')).getByText('0 posts in this scope · 1 link out, 0 links in')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(calls.analysis_posts).toHaveLength(1);
  });

  it('exports GEXF and the edge CSV with the query shown, and says where they went', async () => {
    const calls = mockBackend({
      analysis_network: () => network,
      analysis_export_network: (args) => (args.format === 'gexf' ? '/exports/network.gexf' : null),
    });
    render(Network, { scope, active: true, filterBy: () => {} });
    await screen.findByText(/3 accounts linked by 2 edges/);
    await userEvent.click(screen.getByRole('button', { name: 'Export GEXF' }));
    expect(await screen.findByText('Saved to /exports/network.gexf')).toBeInTheDocument();
    expect(calls.analysis_export_network?.[0]).toMatchObject({ scope, format: 'gexf', query: { kinds: ['repost', 'reply', 'quote', 'mention'], min_weight: 1 } });
    await userEvent.click(screen.getByRole('button', { name: 'Export edge CSV' }));
    await vi.waitFor(() => expect(calls.analysis_export_network).toHaveLength(2));
    expect(screen.getByTestId('network-export-note')).toHaveTextContent('');
  });

  it('says in words when nothing links the accounts', async () => {
    mockBackend({ analysis_network: () => ({ nodes: [], edges: [], total_edges: 0, reposter_requests: 0 }) });
    render(Network, { scope, active: true, filterBy: () => {} });
    expect(await screen.findByTestId('network-empty')).toHaveTextContent('No reposts, replies, quotes, mentions between accounts in this scope.');
  });
});
