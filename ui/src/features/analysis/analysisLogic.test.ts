/**
 * The analysis views' arithmetic apart from drawing: the address read back, the stacked layers
 * uPlot draws, a dragged selection snapped to whole buckets, the heatmap's zone as printed and
 * its shades, and the SVG pictures saved for reports.
 */
import { describe, expect, it } from 'vitest';
import type { ActivitySeries } from '$lib/bindings/ActivitySeries';
import type { Heatmap } from '$lib/bindings/Heatmap';
import { analysisHref, conversationHref } from '$lib/navigate';
import { activitySummary, activitySvg, axisTicks, bucketEnd, bucketLabel, bucketNoun, layerName, snapRange, stackedData } from './activity';
import type { ChartColors } from './chartTheme';
import { busiestWords, heatmapSummary, heatmapSvg, heatmapZoneName, level } from './heatmap';
import { readRoute } from '$lib/analysisRoute';

const colors: ChartColors = {
  text: '#111111',
  muted: '#555555',
  border: '#cccccc',
  surface: '#ffffff',
  accent: '#0a62bd',
  series: ['#000001', '#000002', '#000003'],
  heat: ['#100000', '#200000', '#300000', '#400000'],
  heatText: ['#111111', '#ffffff'],
};

const hours: ActivitySeries = {
  bucket: 'hour',
  zone: 'UTC',
  starts: ['2026-03-08T06:00:00Z', '2026-03-08T07:00:00Z', '2026-03-08T08:00:00Z'],
  layers: [
    { key: 'en', counts: [3, 0, 1], total: 4 },
    { key: 'es', counts: [1, 2, 0], total: 3 },
  ],
  totals: [4, 2, 1],
  engagement: [40, 5, 9],
};

describe('the analysis address', () => {
  it('reads back the scope, view and post it was built with', () => {
    const source = { kind: 'request' as const, history_id: 42 };
    expect(readRoute(analysisHref(source, 'hours'))).toEqual({ source, postId: null, view: 'hours' });
    expect(readRoute(conversationHref('190&1'))).toEqual({ source: null, postId: '190&1', view: 'conversation' });
  });

  it('names nothing when the address does not parse, rather than guessing', () => {
    expect(readRoute('#/analysis?source=%7Bbroken').source).toBeNull();
    expect(readRoute('#/analysis?source=%7B%22kind%22%3A%22request%22%7D').source).toBeNull();
    // A conversation tab without a post falls back to the first view of the scope.
    expect(readRoute(`${analysisHref({ kind: 'investigation', id: 3 })}`.replace('view=activity', 'view=conversation')).view).toBe('activity');
  });
});

describe('activity over time', () => {
  it('stacks the layers for uPlot, the largest sum drawn first, engagement last', () => {
    const { data, order } = stackedData(hours);
    expect(order).toEqual([1, 0]);
    expect(data[0]).toEqual([Date.parse('2026-03-08T06:00:00Z') / 1000, Date.parse('2026-03-08T07:00:00Z') / 1000, Date.parse('2026-03-08T08:00:00Z') / 1000]);
    // en + es, then en alone over it.
    expect(data[1]).toEqual([4, 2, 1]);
    expect(data[2]).toEqual([3, 0, 1]);
    expect(data[3]).toEqual([40, 5, 9]);
  });

  it('snaps a dragged selection to whole buckets, the last one ending at the next hour', () => {
    const at = (text: string) => Date.parse(text);
    expect(snapRange(hours, at('2026-03-08T07:40:00Z'), at('2026-03-08T06:10:00Z'))).toEqual({ from: '2026-03-08T06:00:00.000Z', to: '2026-03-08T08:00:00.000Z' });
    expect(snapRange(hours, at('2026-03-08T08:10:00Z'), at('2026-03-08T09:30:00Z'))).toEqual({ from: '2026-03-08T08:00:00.000Z', to: '2026-03-08T09:00:00.000Z' });
  });

  it("ends the last day at the zone's next midnight, a short day when the clocks go forward", () => {
    const days: ActivitySeries = { ...hours, bucket: 'day', zone: 'America/New_York', starts: ['2026-03-08T05:00:00Z'], totals: [1], layers: [], engagement: [0] };
    // 8 March 2026 in New York has 23 hours: midnight EST to midnight EDT.
    expect(bucketEnd(days, 0).toISOString()).toBe('2026-03-09T04:00:00.000Z');
  });

  it('labels weeks and months, ends the last at the next one, and sums them in words', () => {
    // Weeks from Monday in New York: 2 March 2026 and the week across the clock change.
    const weeks: ActivitySeries = {
      ...hours,
      bucket: 'week',
      zone: 'America/New_York',
      starts: ['2026-03-02T05:00:00Z', '2026-03-09T04:00:00Z'],
      totals: [3, 9],
      engagement: [0, 0],
      layers: [],
    };
    expect(bucketLabel(weeks, 0)).toBe('week of 2 Mar 2026');
    expect(bucketEnd(weeks, 1).toISOString()).toBe('2026-03-16T04:00:00.000Z');
    expect(activitySummary(weeks)).toBe('12 posts over 2 weeks; the busiest week was the week of 9 Mar 2026 with 9.');
    const months: ActivitySeries = { ...weeks, bucket: 'month', starts: ['2026-02-01T05:00:00Z', '2026-03-01T05:00:00Z'] };
    expect(bucketLabel(months, 1)).toBe('Mar 2026');
    // April begins in daylight time: 04:00 UTC.
    expect(bucketEnd(months, 1).toISOString()).toBe('2026-04-01T04:00:00.000Z');
    expect(activitySummary(months)).toBe('12 posts over 2 months; the busiest month was Mar 2026 with 9.');
    expect(bucketNoun('day', 2)).toBe('days');
  });

  it("labels the time axis in the chart's zone, by the span between ticks", () => {
    const at = (text: string) => Date.parse(text) / 1000;
    expect(axisTicks([at('2026-03-07T22:00:00Z'), at('2026-03-08T00:00:00Z'), at('2026-03-08T02:00:00Z')], 'UTC')).toEqual(['22:00', '8 Mar', '02:00']);
    expect(axisTicks([at('2026-03-07T22:00:00Z'), at('2026-03-08T00:00:00Z')], 'Asia/Kolkata')).toEqual(['03:30', '05:30']);
    expect(axisTicks([at('2026-03-01T00:00:00Z'), at('2026-03-08T00:00:00Z')], 'UTC')).toEqual(['1 Mar', '8 Mar']);
    expect(axisTicks([at('2026-01-01T00:00:00Z'), at('2026-04-01T00:00:00Z')], 'UTC')).toEqual(['Jan 2026', 'Apr 2026']);
  });

  it('names layers in words and sums the chart in one line', () => {
    expect(layerName('en', 'language')).toBe('English (en)');
    expect(layerName('none', 'language')).toBe('No language');
    expect(layerName('others', 'language')).toBe('Other languages');
    expect(layerName('blue', 'account_kind')).toBe('Blue check');
    expect(activitySummary(hours)).toBe('7 posts over 3 hours; the busiest hour was 8 Mar 2026, 06:00 UTC with 4.');
  });

  it('draws the same series as SVG, with the zone and a legend, text escaped', () => {
    const svg = activitySvg(hours, 'language', 'X search “a<b”', colors);
    const doc = new DOMParser().parseFromString(svg, 'image/svg+xml');
    expect(doc.querySelector('parsererror')).toBeNull();
    expect(svg).toContain('a&lt;b');
    expect(svg).toContain('times in UTC');
    expect(svg).toContain('English (en)');
    // One path per layer holding a bar per non-empty bucket, then the engagement line.
    const layers = [...doc.querySelectorAll('path[fill="#000001"], path[fill="#000002"]')];
    expect(layers.map((path) => (path.getAttribute('d')?.match(/M/g) ?? []).length)).toEqual([2, 2]);
  });
});

describe('posting hours', () => {
  it('prints the zone with its offset, and both clocks where summer time changes it', () => {
    expect(heatmapZoneName('UTC')).toBe('UTC');
    expect(heatmapZoneName('Etc/UTC')).toBe('UTC');
    expect(heatmapZoneName('Africa/Abidjan', 2026)).toBe('Africa/Abidjan (UTC)');
    expect(heatmapZoneName('Asia/Kolkata', 2026)).toBe('Asia/Kolkata (UTC+05:30)');
    expect(heatmapZoneName('America/New_York', 2026)).toBe('America/New_York (local clock: UTC−05:00, and UTC−04:00 in summer)');
    expect(heatmapZoneName('Australia/Sydney', 2026)).toBe('Australia/Sydney (local clock: UTC+10:00, and UTC+11:00 in summer)');
  });

  it('shades cells in quarters of the busiest, and names the busiest hour', () => {
    expect([0, 1, 2, 3, 4, 5, 8].map((count) => level(count, 8))).toEqual([0, 1, 1, 2, 2, 3, 4]);
    const cells = Array.from({ length: 7 }, () => Array.from({ length: 24 }, () => 0));
    cells[2]![21] = 5;
    cells[6]![0] = 1;
    const map: Heatmap = { zone: 'Asia/Kolkata', cells, total: 6 };
    expect(heatmapSummary(map)).toBe('6 posts; the busiest hour is Wednesday 21:00 with 5, in Asia/Kolkata (UTC+05:30).');
    // Two hours tie: both are named, not the first found alone.
    const tie = { ...map, total: 10, cells: map.cells.map((row, day) => row.map((count, hour) => (day === 0 && hour === 9 ? 5 : count))) };
    expect(heatmapSummary(tie)).toBe('10 posts; the busiest hours are Monday 09:00 and Wednesday 21:00, with 5 each, in Asia/Kolkata (UTC+05:30).');
    expect(busiestWords(['a', 'b', 'c', 'd'], 2, 'day', 'was')).toBe('4 days tie as the busiest, with 2 each, the first a');
    const svg = heatmapSvg(map, 'Posting hours', colors);
    const doc = new DOMParser().parseFromString(svg, 'image/svg+xml');
    expect(doc.querySelector('parsererror')).toBeNull();
    // The background and 7 × 24 cells.
    expect(doc.querySelectorAll('rect')).toHaveLength(1 + 7 * 24);
    expect(doc.querySelectorAll('rect[fill="#400000"]')).toHaveLength(1);
  });
});
