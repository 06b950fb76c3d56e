/**
 * The analysis screen over mocked commands: the scope named with its count and span, the views
 * as tabs, a top-list entry narrowing every view (and its chip undoing that), an account's
 * posts listed from its top-list entry, the heatmap's zone
 * asked of Rust and printed, a range picked from the keyboard, Reset range, and exports.
 *
 * jsdom draws no canvas, so uPlot is replaced here by a stand-in that keeps what it was given;
 * the real chart is drawn and screenshotted in tests/specs/analysis.e2e.ts.
 */
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { render, screen, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import { mockIPC } from '@tauri-apps/api/mocks';
import type { AnalysisScope } from '$lib/bindings/AnalysisScope';
import { analysisHref } from '$lib/navigate';
import { setDisplayZone } from '$lib/displayZone.svelte';
import Analysis from './Analysis.svelte';
import { modalDialogs } from '../../test/dialog';

const drawn = vi.hoisted(() => ({ charts: [] as { data: number[][]; series: unknown[] }[] }));
vi.mock('uplot', () => {
  class FakePlot {
    static paths = { bars: () => () => null };
    static tzDate = (date: Date) => date;
    ctx = { canvas: document.createElement('canvas') };
    width = 720;
    constructor(options: { series: unknown[] }, data: number[][]) {
      drawn.charts.push({ data, series: options.series });
    }
    setSize() {}
    destroy() {}
  }
  return { default: FakePlot };
});

globalThis.ResizeObserver ??= class {
  observe() {}
  disconnect() {}
  unobserve() {}
} as unknown as typeof ResizeObserver;

const cells = () => Array.from({ length: 7 }, () => Array.from({ length: 24 }, () => 0));

function mockAnalysis(calls: [string, Record<string, unknown>][]) {
  mockIPC((cmd, args) => {
    const asked = args as Record<string, unknown>;
    calls.push([cmd, asked]);
    const scope = asked.scope as AnalysisScope | undefined;
    const narrowed = !!scope && (scope.from !== null || Object.values(scope.filters).some((value) => value !== null));
    switch (cmd) {
      case 'analysis_summary':
        return { name: 'X search “flood”', post_count: narrowed ? 2 : 5, first: '2026-11-20T08:15:00Z', last: '2026-11-21T17:40:00Z', bucket: 'hour' };
      case 'analysis_activity':
        return {
          bucket: 'hour',
          zone: 'UTC',
          starts: ['2026-11-20T08:00:00Z', '2026-11-20T09:00:00Z'],
          layers: [{ key: 'en', counts: [3, 2], total: 5 }],
          totals: [3, 2],
          engagement: [12, 7],
        };
      case 'analysis_heatmap': {
        const grid = cells();
        const zone = (asked.zone as string | null) ?? 'UTC';
        grid[4]![zone === 'Asia/Kolkata' ? 13 : 8] = 3;
        return { zone, cells: grid, total: 3 };
      }
      case 'analysis_top': {
        const list = (entries: { key: string; label: string; count: number }[]) => ({ entries, distinct: entries.length });
        return {
          accounts_by_posts: list([{ key: 'ana', label: '@Ana', count: 3 }]),
          accounts_by_engagement: list([{ key: 'ana', label: '@Ana', count: 19 }]),
          hashtags: list([
            { key: 'floods', label: '#Floods', count: 2 },
            { key: 'rain', label: '#rain', count: 1 },
          ]),
          mentions: list([]),
          cashtags: list([]),
          domains: list([{ key: 'example.org', label: 'example.org', count: 1 }]),
          languages: list([{ key: 'en', label: 'en', count: 5 }]),
        };
      }
      case 'analysis_export_table':
        return '/home/reader/exports/sightline-top-hashtags.csv';
      case 'analysis_posts':
        return { posts: [], total: 3 };
      default:
        return undefined;
    }
  });
}

function open(view: 'activity' | 'hours' | 'top' = 'activity') {
  window.location.hash = analysisHref({ kind: 'request', history_id: 7 }, view);
  return render(Analysis);
}

beforeAll(() => {
  modalDialogs();
});

describe('Analysis', () => {
  it('names the scope with its post count, span and zone, and opens on the activity chart', async () => {
    setDisplayZone('UTC');
    const calls: [string, Record<string, unknown>][] = [];
    mockAnalysis(calls);
    open();
    expect(await screen.findByRole('heading', { level: 1, name: 'Analysis of X search “flood”' })).toBeInTheDocument();
    expect(screen.getByTestId('analysis-count')).toHaveTextContent('5 posts');
    expect(screen.getByTestId('analysis-scope')).toHaveTextContent('from 20 Nov 2026, 08:15 UTC to 21 Nov 2026, 17:40 UTC · times in UTC');
    expect(screen.getByRole('tab', { name: 'Activity' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getAllByRole('tab').map((tab) => tab.textContent)).toEqual(['Activity', 'Posting hours', 'Top lists', 'Network', 'Coordination', 'Shared pictures']);
    await screen.findByRole('img', { name: /5 posts over 2 hours/ });
    const activity = calls.find(([cmd]) => cmd === 'analysis_activity')?.[1];
    expect(activity).toMatchObject({ scope: { source: { kind: 'request', history_id: 7 }, from: null, to: null }, options: { stackBy: 'language' } });
    expect(drawn.charts.at(-1)?.data).toEqual([[Date.parse('2026-11-20T08:00:00Z') / 1000, Date.parse('2026-11-20T09:00:00Z') / 1000], [3, 2], [12, 7]]);
  });

  it('shows the buckets as a table, stacks by account kind, and narrows to a picked range until Reset range', async () => {
    setDisplayZone('UTC');
    const user = userEvent.setup();
    const calls: [string, Record<string, unknown>][] = [];
    mockAnalysis(calls);
    open();
    await user.click(await screen.findByRole('button', { name: 'Show the table' }));
    const table = screen.getByRole('table');
    expect(within(table).getAllByRole('row').map((row) => row.textContent)).toEqual(['Hour startingEnglish (en)PostsEngagement', '20 Nov 2026, 08:00 UTC3312', '20 Nov 2026, 09:00 UTC227']);

    await user.click(screen.getByLabelText('Account kind'));
    expect(calls.filter(([cmd]) => cmd === 'analysis_activity').at(-1)?.[1]).toMatchObject({ options: { stackBy: 'account_kind' } });

    await user.selectOptions(screen.getByLabelText('Range from'), '1');
    await user.selectOptions(screen.getByLabelText('to'), '1');
    await user.click(screen.getByRole('button', { name: 'Narrow to these hours' }));
    expect(await screen.findByTestId('range-chip')).toHaveTextContent('From 20 Nov 2026, 09:00 UTC to 20 Nov 2026, 10:00 UTC');
    expect(await screen.findByText('2 posts of 5')).toBeInTheDocument();
    expect(calls.filter(([cmd]) => cmd === 'analysis_activity').at(-1)?.[1]).toMatchObject({ scope: { from: '2026-11-20T09:00:00.000Z', to: '2026-11-20T10:00:00.000Z' } });

    await user.click(screen.getByRole('button', { name: 'Reset range' }));
    expect(screen.queryByTestId('range-chip')).not.toBeInTheDocument();
    expect(calls.filter(([cmd]) => cmd === 'analysis_activity').at(-1)?.[1]).toMatchObject({ scope: { from: null, to: null } });
  });

  it('narrows every view to a top-list entry, and its chip removes that again', async () => {
    const user = userEvent.setup();
    const calls: [string, Record<string, unknown>][] = [];
    mockAnalysis(calls);
    open('top');
    const hashtags = await screen.findByTestId('top-hashtags');
    expect(within(hashtags).getByText('2 distinct entries')).toBeInTheDocument();
    expect(within(hashtags).getAllByTestId('top-count').map((cell) => cell.textContent)).toEqual(['2', '1']);
    expect(within(screen.getByTestId('top-languages')).getByRole('button', { name: 'English (en)' })).toBeInTheDocument();
    expect(within(screen.getByTestId('top-accounts_by_posts')).getByRole('link', { name: 'Account @Ana' })).toHaveAttribute('href', '#/user?handle=ana');

    await user.click(within(hashtags).getByRole('button', { name: '#Floods' }));
    expect(await screen.findByTestId('filter-chip')).toHaveTextContent('Hashtag #Floods');
    expect(calls.filter(([cmd]) => cmd === 'analysis_top').at(-1)?.[1]).toMatchObject({ scope: { filters: { hashtag: 'floods' } } });
    expect(within(hashtags).getByRole('button', { name: '#Floods' })).toHaveAttribute('aria-pressed', 'true');

    await user.click(screen.getByRole('button', { name: 'Remove the filter Hashtag #Floods' }));
    expect(screen.queryByTestId('filter-chip')).not.toBeInTheDocument();
    expect(calls.filter(([cmd]) => cmd === 'analysis_top').at(-1)?.[1]).toMatchObject({ scope: { filters: { hashtag: null } } });

    // An account lists its posts in the scope; narrowing to it is one button there.
    await user.click(within(screen.getByTestId('top-accounts_by_posts')).getByRole('button', { name: '@Ana' }));
    const dialog = await screen.findByRole('dialog', { name: 'Posts by @Ana in this scope' });
    expect(calls.find(([cmd]) => cmd === 'analysis_posts')?.[1]).toMatchObject({ scope: { filters: { account: 'ana', hashtag: null } }, page: { offset: 0 } });
    await user.click(within(dialog).getByRole('button', { name: 'Narrow the analysis to @Ana' }));
    expect(await screen.findByTestId('filter-chip')).toHaveTextContent('Posts by @Ana');
    await vi.waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await user.click(screen.getByRole('button', { name: 'Remove the filter Posts by @Ana' }));

    await user.click(within(hashtags).getByRole('button', { name: 'Export CSV of the hashtags list\'s table' }));
    expect(await within(hashtags).findByText('Saved to /home/reader/exports/sightline-top-hashtags.csv')).toBeInTheDocument();
    expect(calls.find(([cmd]) => cmd === 'analysis_export_table')?.[1]).toMatchObject({ table: { table: 'top', list: 'hashtags', limit: null } });
  });

  it('asks Rust for the heatmap in the zone picked, and prints that zone', async () => {
    setDisplayZone('Europe/Paris');
    const user = userEvent.setup();
    const calls: [string, Record<string, unknown>][] = [];
    mockAnalysis(calls);
    open('hours');
    const grid = await screen.findByRole('table');
    expect(calls.find(([cmd]) => cmd === 'analysis_heatmap')?.[1]).toMatchObject({ zone: null });
    expect(within(grid).getAllByRole('columnheader')).toHaveLength(24);
    expect(within(grid).getAllByRole('rowheader').map((cell) => cell.textContent)).toEqual(['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday']);

    await user.selectOptions(screen.getByLabelText('Time zone'), 'Asia/Kolkata');
    expect(await screen.findByTestId('heatmap-zone')).toHaveTextContent('Asia/Kolkata (UTC+05:30)');
    expect(calls.filter(([cmd]) => cmd === 'analysis_heatmap').at(-1)?.[1]).toMatchObject({ zone: 'Asia/Kolkata' });
    const busy = screen.getByRole('table').querySelector('td[data-day="4"][data-hour="13"]');
    expect(busy).toHaveAttribute('data-count', '3');
    expect(busy).toHaveClass('level-4');
    expect(screen.getByText(/the busiest hour is Friday 13:00 with 3/)).toBeInTheDocument();
  });

  it('says what became of a scope that is no longer stored, and offers no views of it', async () => {
    mockIPC((cmd) => {
      if (cmd === 'analysis_summary') throw { kind: 'not_found', message: 'What this analysis looked at is no longer stored: the request was deleted from History, or the investigation was deleted.' };
      return undefined;
    });
    open();
    expect(await screen.findByRole('alert')).toHaveTextContent(/no longer stored/);
    expect(screen.queryByRole('tab')).not.toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Activity over time' })).not.toBeInTheDocument();
  });

  it('says plainly when the address names nothing to analyse', () => {
    window.location.hash = '#/analysis?source=nonsense';
    render(Analysis);
    expect(screen.getByText(/This link names nothing to analyse/)).toBeInTheDocument();
  });
});
