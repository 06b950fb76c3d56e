/**
 * The activity chart's data, apart from drawing: stacked layers in the shape uPlot takes,
 * each bucket's label and end, a dragged selection snapped to whole buckets, and the chart as
 * SVG for reports (uPlot draws on canvas only).
 */
import type { ActivitySeries } from '$lib/bindings/ActivitySeries';
import type { Bucket } from '$lib/bindings/Bucket';
import type { StackBy } from '$lib/bindings/StackBy';
import { LANGUAGES } from '$lib/languages';
import { zoneDay, zoneDayStart, zonedDay, zonedTime, zoneLabel } from '$lib/format';
import type { ChartColors } from './chartTheme';
import { escapeMarkup } from '$lib/markup';
import { busiestWords } from './heatmap';
import type { TimeRange } from './scopeState.svelte';

const ACCOUNT_KINDS: Record<string, string> = { verified: 'Verified', blue: 'Blue check', other: 'Other accounts' };

/** A layer's name as the legend and table show it. */
export function layerName(key: string, stackBy: StackBy): string {
  if (stackBy === 'account_kind') return ACCOUNT_KINDS[key] ?? key;
  if (key === 'none') return 'No language';
  if (key === 'others') return 'Other languages';
  const known = LANGUAGES.find((language) => language.code === key);
  return known ? `${known.name} (${key})` : key;
}

/** "hour", "days", "weeks": a bucket's width as a noun, for `count` of them. */
export function bucketNoun(bucket: Bucket, count = 1): string {
  return count === 1 ? bucket : `${bucket}s`;
}

/**
 * A bucket's start as its row, range list and axis say it, in the chart's zone: the day and hour
 * ("9 Feb 2026, 20:00 CET"), the day ("9 Feb 2026"), the week ("week of 9 Feb 2026", from
 * Monday) or the month ("Feb 2026").
 */
export function bucketLabel(series: ActivitySeries, index: number): string {
  const start = series.starts[index];
  if (!start) return '';
  switch (series.bucket) {
    case 'hour':
      return zonedTime(start, series.zone);
    case 'day':
      return zonedDay(start, series.zone);
    case 'week':
      return `week of ${zonedDay(start, series.zone)}`;
    case 'month':
      return zonedDay(start, series.zone).replace(/^\d+ /, '');
  }
}

/** When bucket `index` ends (the next one's start; after the last, the zone's next hour, day, week or month). */
export function bucketEnd(series: ActivitySeries, index: number): Date {
  const next = series.starts[index + 1];
  if (next) return new Date(next);
  const start = new Date(series.starts[index] ?? 0);
  if (series.bucket === 'hour') return new Date(start.getTime() + 3_600_000);
  const day = zoneDay(start, 0, series.zone);
  let after = zoneDay(start, series.bucket === 'week' ? 7 : 1, series.zone);
  if (series.bucket === 'month') {
    const [year, month] = day.split('-').map(Number) as [number, number];
    after = new Date(Date.UTC(year, month, 1)).toISOString().slice(0, 10);
  }
  return zoneDayStart(after, series.zone) ?? new Date(start.getTime() + 86_400_000);
}

/** The bucket holding an instant (ms), clamped to the chart's ends. */
export function bucketAt(series: ActivitySeries, time: number): number {
  let found = 0;
  series.starts.forEach((start, index) => {
    if (new Date(start).getTime() <= time) found = index;
  });
  return found;
}

/** A selection from `left` to `right` (ms) as whole buckets: the range the other views take. */
export function snapRange(series: ActivitySeries, left: number, right: number): TimeRange | null {
  if (series.starts.length === 0) return null;
  const first = bucketAt(series, Math.min(left, right));
  const last = bucketAt(series, Math.max(left, right));
  const from = series.starts[first];
  if (!from) return null;
  return { from: new Date(from).toISOString(), to: bucketEnd(series, last).toISOString() };
}

/**
 * uPlot's data: x in seconds, then one cumulative series per layer, the largest sum first (each
 * drawn as bars from zero, the smaller sums over it, so the layers read as a stack), then
 * engagement. `order[i]` is the layer behind uPlot series i + 1.
 */
export function stackedData(series: ActivitySeries): { data: number[][]; order: number[] } {
  const xs = series.starts.map((start) => new Date(start).getTime() / 1000);
  const sums: number[][] = [];
  let running = xs.map(() => 0);
  for (const layer of series.layers) {
    running = running.map((sum, index) => sum + (layer.counts[index] ?? 0));
    sums.push(running);
  }
  const order = series.layers.map((_, index) => index).reverse();
  return { data: [xs, ...order.map((index) => sums[index] ?? []), series.engagement.map(Number)], order };
}

/**
 * The time axis's tick labels (uPlot gives their instants in seconds), in the app's own style
 * and the chart's zone: clock times within a day ("20:00", the day at midnight: "9 Feb"),
 * days across weeks ("9 Feb"), months across a longer span ("Feb 2026").
 */
export function axisTicks(splits: number[], zone: string): string[] {
  const spacing = splits.length > 1 ? (splits[1] ?? 0) - (splits[0] ?? 0) : 86_400;
  return splits.map((seconds) => {
    const parts = /^(\d+) (\w+) (\d+), (\d\d:\d\d)/.exec(zonedTime(new Date(seconds * 1000), zone));
    if (!parts) return '';
    const [, day, month, year, clock] = parts;
    if (spacing < 86_400) return clock === '00:00' ? `${day} ${month}` : (clock ?? '');
    if (spacing < 28 * 86_400) return `${day} ${month}`;
    return `${month} ${year}`;
  });
}

/** One line of text summing the chart, for screen readers and the figure's caption. */
export function activitySummary(series: ActivitySeries): string {
  const count = series.totals.length;
  if (count === 0) return 'No posts in this scope.';
  const best = Math.max(...series.totals);
  const tied = series.totals.flatMap((total, index) => (total === best ? [bucketLabel(series, index).replace(/^week of/, 'the week of')] : []));
  const posts = series.totals.reduce((sum, total) => sum + total, 0);
  return `${posts.toLocaleString('en-US')} posts over ${count} ${bucketNoun(series.bucket, count)}; ${busiestWords(tied, best, series.bucket, 'was')}.`;
}

/** The zone the chart's times are in, as printed on it: "UTC", "GMT+5:30 (Asia/Kolkata)". */
export function chartZoneName(series: ActivitySeries): string {
  return zoneLabel(new Date(series.starts[0] ?? Date.now()), series.zone);
}

/** The chart as an SVG picture: stacked bars, the engagement line on its own scale, axes and a legend. */
export function activitySvg(series: ActivitySeries, stackBy: StackBy, title: string, colors: ChartColors): string {
  const width = 960;
  const height = 420;
  const plot = { left: 56, right: width - 64, top: 56, bottom: height - 92 };
  const plotWidth = plot.right - plot.left;
  const plotHeight = plot.bottom - plot.top;
  const count = Math.max(1, series.totals.length);
  const slot = plotWidth / count;
  const barWidth = Math.max(1, slot * 0.8);
  const highest = Math.max(1, ...series.totals);
  const highestEngagement = Math.max(1, ...series.engagement);
  const y = (value: number) => plot.bottom - (value / highest) * plotHeight;
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="12">`,
    `<rect width="${width}" height="${height}" fill="${colors.surface}"/>`,
    `<text x="${plot.left}" y="24" font-size="16" font-weight="600" fill="${colors.text}">${escapeMarkup(title)}</text>`,
    `<text x="${plot.left}" y="42" fill="${colors.muted}">${escapeMarkup(`Posts per ${series.bucket}, times in ${chartZoneName(series)}; engagement (likes, reposts, replies, quotes) on the right scale`)}</text>`,
  ];
  for (const fraction of [0, 0.5, 1]) {
    const value = Math.round(highest * fraction);
    parts.push(`<line x1="${plot.left}" x2="${plot.right}" y1="${y(value).toFixed(1)}" y2="${y(value).toFixed(1)}" stroke="${colors.border}"/>`);
    parts.push(`<text x="${plot.left - 6}" y="${(y(value) + 4).toFixed(1)}" text-anchor="end" fill="${colors.muted}">${value}</text>`);
    const engagement = Math.round(highestEngagement * fraction);
    parts.push(`<text x="${plot.right + 6}" y="${(y(value) + 4).toFixed(1)}" fill="${colors.muted}">${engagement}</text>`);
  }
  series.layers.forEach((layer, layerIndex) => {
    const colour = colors.series[layerIndex % colors.series.length];
    const rects: string[] = [];
    layer.counts.forEach((value, index) => {
      if (value <= 0) return;
      const below = series.layers.slice(0, layerIndex).reduce((sum, other) => sum + (other.counts[index] ?? 0), 0);
      const x = plot.left + index * slot + (slot - barWidth) / 2;
      rects.push(`M${x.toFixed(1)} ${y(below + value).toFixed(1)}h${barWidth.toFixed(1)}V${y(below).toFixed(1)}h${(-barWidth).toFixed(1)}Z`);
    });
    parts.push(`<path fill="${colour}" d="${rects.join('')}"><title>${escapeMarkup(layerName(layer.key, stackBy))}</title></path>`);
  });
  const line = series.engagement
    .map((value, index) => {
      const x = plot.left + index * slot + slot / 2;
      const yy = plot.bottom - (value / highestEngagement) * plotHeight;
      return `${index === 0 ? 'M' : 'L'}${x.toFixed(1)} ${yy.toFixed(1)}`;
    })
    .join('');
  parts.push(`<path d="${line}" fill="none" stroke="${colors.text}" stroke-width="2" stroke-dasharray="6 3"/>`);
  const labelEvery = Math.max(1, Math.ceil(count / 8));
  series.starts.forEach((_, index) => {
    if (index % labelEvery !== 0) return;
    const x = plot.left + index * slot + slot / 2;
    parts.push(`<text x="${x.toFixed(1)}" y="${plot.bottom + 16}" text-anchor="middle" fill="${colors.muted}">${escapeMarkup(bucketLabel(series, index))}</text>`);
  });
  let legendX = plot.left;
  const legendY = height - 40;
  const entries = [...series.layers.map((layer, index) => ({ name: layerName(layer.key, stackBy), colour: colors.series[index % colors.series.length] ?? colors.accent, line: false })), { name: 'Engagement', colour: colors.text, line: true }];
  for (const entry of entries) {
    parts.push(
      entry.line
        ? `<line x1="${legendX}" x2="${legendX + 14}" y1="${legendY - 4}" y2="${legendY - 4}" stroke="${entry.colour}" stroke-width="2" stroke-dasharray="6 3"/>`
        : `<rect x="${legendX}" y="${legendY - 10}" width="12" height="12" fill="${entry.colour}"/>`,
    );
    parts.push(`<text x="${legendX + 18}" y="${legendY}" fill="${colors.text}">${escapeMarkup(entry.name)}</text>`);
    legendX += 30 + entry.name.length * 7;
  }
  parts.push('</svg>');
  return parts.join('\n');
}
