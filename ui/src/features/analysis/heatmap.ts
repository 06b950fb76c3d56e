/**
 * The posting-time heatmap apart from drawing: the zone as printed on it, each cell's shade,
 * a one-line summary, and the grid as SVG and as a canvas picture for reports.
 */
import type { Heatmap } from '$lib/bindings/Heatmap';
import { utcOffset, zoneAbbreviation } from '$lib/format';
import type { ChartColors } from './chartTheme';
import { escapeMarkup } from '$lib/markup';

export const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
export const HOURS = Array.from({ length: 24 }, (_, hour) => String(hour).padStart(2, '0'));

/**
 * "Asia/Kolkata (UTC+05:30)", or for a zone that changes its clocks "America/New_York (local
 * clock: UTC−05:00 and UTC−04:00 in summer)": a cell's hour is always the zone's own clock.
 */
export function heatmapZoneName(zone: string, year: number = new Date().getUTCFullYear()): string {
  if (zone === 'UTC') return 'UTC';
  const winterDay = new Date(Date.UTC(year, 0, 1));
  const january = utcOffset(zone, winterDay);
  const july = utcOffset(zone, new Date(Date.UTC(year, 6, 1)));
  // UTC by another spelling (Etc/UTC, a system's usual) reads as plain UTC, as everywhere else.
  if (january === 'UTC' && july === 'UTC' && zoneAbbreviation(winterDay, zone) === 'UTC') return 'UTC';
  if (january === july) return `${zone} (${january})`;
  // Summer time moves clocks forward, in either hemisphere: the later clock is summer's.
  const [winter, summer] = minutesOf(january) < minutesOf(july) ? [january, july] : [july, january];
  return `${zone} (local clock: ${winter}, and ${summer} in summer)`;
}

/** "UTC+05:30" → 330, "UTC−03:00" → −180, "UTC" → 0. */
function minutesOf(offset: string): number {
  const match = /^UTC([+−-])(\d{2}):(\d{2})$/.exec(offset);
  if (!match) return 0;
  return (match[1] === '+' ? 1 : -1) * (Number(match[2]) * 60 + Number(match[3]));
}

/** 0 for no posts, else 1–4 in quarters of the busiest cell. */
export function level(count: number, busiest: number): number {
  if (count <= 0 || busiest <= 0) return 0;
  return Math.min(4, Math.ceil((4 * count) / busiest));
}

export function busiestCell(map: Heatmap): { day: number; hour: number; count: number } {
  let best = { day: 0, hour: 0, count: 0 };
  map.cells.forEach((row, day) =>
    row.forEach((count, hour) => {
      if (count > best.count) best = { day, hour, count };
    }),
  );
  return best;
}

/**
 * "the busiest hour is Friday 13:00 with 3"; when several tie, each is named ("the busiest hours
 * are Monday 09:00 and Friday 13:00, with 3 each"), and past three only how many and the first.
 * `noun` is the bucket ("hour", "day"); `verb` "is" or "was".
 */
export function busiestWords(labels: string[], count: number, noun: string, verb: 'is' | 'was'): string {
  const figure = count.toLocaleString('en-US');
  const plural = verb === 'is' ? 'are' : 'were';
  if (labels.length <= 1) return `the busiest ${noun} ${verb} ${labels[0] ?? ''} with ${figure}`;
  if (labels.length <= 3) return `the busiest ${noun}s ${plural} ${labels.slice(0, -1).join(', ')} and ${labels.at(-1)}, with ${figure} each`;
  return `${labels.length} ${noun}s tie as the busiest, with ${figure} each, the first ${labels[0]}`;
}

export function heatmapSummary(map: Heatmap): string {
  if (map.total === 0) return 'No posts in this scope.';
  const best = busiestCell(map).count;
  const tied: string[] = [];
  map.cells.forEach((row, day) => row.forEach((count, hour) => count === best && tied.push(`${WEEKDAYS[day]} ${HOURS[hour]}:00`)));
  return `${map.total.toLocaleString('en-US')} posts; ${busiestWords(tied, best, 'hour', 'is')}, in ${heatmapZoneName(map.zone)}.`;
}

const CELL = 30;
const LEFT = 96;
const TOP = 78;

function cellFill(count: number, busiest: number, colors: ChartColors): { fill: string; text: string } {
  const shade = level(count, busiest);
  if (shade === 0) return { fill: colors.surface, text: colors.muted };
  return { fill: colors.heat[shade - 1] ?? colors.accent, text: shade <= 2 ? colors.heatText[0] : colors.heatText[1] };
}

export function heatmapSvg(map: Heatmap, title: string, colors: ChartColors): string {
  const width = LEFT + 24 * CELL + 16;
  const height = TOP + 7 * CELL + 24;
  const busiest = busiestCell(map).count;
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="11">`,
    `<rect width="${width}" height="${height}" fill="${colors.surface}"/>`,
    `<text x="8" y="22" font-size="15" font-weight="600" fill="${colors.text}">${escapeMarkup(title)}</text>`,
    `<text x="8" y="40" font-size="12" fill="${colors.muted}">${escapeMarkup(`Posts per weekday and hour, in ${heatmapZoneName(map.zone)}`)}</text>`,
  ];
  HOURS.forEach((hour, index) => parts.push(`<text x="${LEFT + index * CELL + CELL / 2}" y="${TOP - 8}" text-anchor="middle" fill="${colors.muted}">${hour}</text>`));
  map.cells.forEach((row, day) => {
    parts.push(`<text x="8" y="${TOP + day * CELL + CELL / 2 + 4}" fill="${colors.text}">${WEEKDAYS[day]}</text>`);
    row.forEach((count, hour) => {
      const { fill, text } = cellFill(count, busiest, colors);
      const x = LEFT + hour * CELL;
      const y = TOP + day * CELL;
      parts.push(`<rect x="${x}" y="${y}" width="${CELL - 2}" height="${CELL - 2}" rx="3" fill="${fill}" stroke="${colors.border}"/>`);
      if (count > 0) parts.push(`<text x="${x + (CELL - 2) / 2}" y="${y + CELL / 2 + 3}" text-anchor="middle" fill="${text}">${count}</text>`);
    });
  });
  parts.push('</svg>');
  return parts.join('\n');
}

export function heatmapCanvas(map: Heatmap, title: string, colors: ChartColors, ratio = 2): HTMLCanvasElement | null {
  const width = LEFT + 24 * CELL + 16;
  const height = TOP + 7 * CELL + 24;
  const canvas = document.createElement('canvas');
  canvas.width = width * ratio;
  canvas.height = height * ratio;
  const ctx = canvas.getContext('2d');
  if (!ctx) return null;
  ctx.scale(ratio, ratio);
  ctx.fillStyle = colors.surface;
  ctx.fillRect(0, 0, width, height);
  ctx.fillStyle = colors.text;
  ctx.font = '600 15px sans-serif';
  ctx.fillText(title, 8, 22);
  ctx.fillStyle = colors.muted;
  ctx.font = '12px sans-serif';
  ctx.fillText(`Posts per weekday and hour, in ${heatmapZoneName(map.zone)}`, 8, 40);
  ctx.font = '11px sans-serif';
  ctx.textAlign = 'center';
  HOURS.forEach((hour, index) => ctx.fillText(hour, LEFT + index * CELL + CELL / 2, TOP - 8));
  const busiest = busiestCell(map).count;
  map.cells.forEach((row, day) => {
    ctx.textAlign = 'left';
    ctx.fillStyle = colors.text;
    ctx.fillText(WEEKDAYS[day] ?? '', 8, TOP + day * CELL + CELL / 2 + 4);
    ctx.textAlign = 'center';
    row.forEach((count, hour) => {
      const { fill, text } = cellFill(count, busiest, colors);
      const x = LEFT + hour * CELL;
      const y = TOP + day * CELL;
      ctx.fillStyle = fill;
      ctx.strokeStyle = colors.border;
      ctx.fillRect(x, y, CELL - 2, CELL - 2);
      ctx.strokeRect(x + 0.5, y + 0.5, CELL - 3, CELL - 3);
      if (count > 0) {
        ctx.fillStyle = text;
        ctx.fillText(String(count), x + (CELL - 2) / 2, y + CELL / 2 + 3);
      }
    });
  });
  return canvas;
}
