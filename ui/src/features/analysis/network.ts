/**
 * The network view's pure parts: what each edge kind is called and drawn in, each account's
 * degree, the words that sum the network up, and the picture (positions scaled to a page, drawn
 * as SVG text or onto a canvas) that Save as PNG / SVG writes.
 */
import type { EdgeKind } from '$lib/bindings/EdgeKind';
import type { Network } from '$lib/bindings/Network';
import type { NetworkEdge } from '$lib/bindings/NetworkEdge';
import type { NetworkNode } from '$lib/bindings/NetworkNode';
import { countOf } from '$lib/format';
import type { ChartColors } from './chartTheme';
import { escapeMarkup } from '$lib/markup';

export const EDGE_KINDS: readonly EdgeKind[] = ['repost', 'reply', 'quote', 'mention'];

const KIND_WORDS: Record<EdgeKind, [string, string]> = {
  repost: ['repost', 'reposts'],
  reply: ['reply', 'replies'],
  quote: ['quote', 'quotes'],
  mention: ['mention', 'mentions'],
};

export function kindWord(kind: EdgeKind, count = 2): string {
  return KIND_WORDS[kind][count === 1 ? 0 : 1];
}

/** Each kind keeps one series colour of the chart palette (3:1 against the surface, both themes). */
export function kindColour(kind: EdgeKind, colors: ChartColors): string {
  return colors.series[EDGE_KINDS.indexOf(kind)] ?? colors.accent;
}

export interface NodeStats extends NetworkNode {
  /** Edges leaving this account (it acted) and reaching it (it was acted on). */
  out: number;
  in: number;
  degree: number;
  /** Sum of the weights of its edges, both ways. */
  strength: number;
}

/** Each node with its degree, most connected first (then by handle, for a stable order). */
export function nodeStats(network: Network): NodeStats[] {
  const stats = new Map<string, NodeStats>(network.nodes.map((node) => [node.id, { ...node, out: 0, in: 0, degree: 0, strength: 0 }]));
  for (const edge of network.edges) {
    const source = stats.get(edge.source);
    const target = stats.get(edge.target);
    if (source) {
      source.out += 1;
      source.degree += 1;
      source.strength += edge.weight;
    }
    if (target) {
      target.in += 1;
      target.degree += 1;
      target.strength += edge.weight;
    }
  }
  return [...stats.values()].sort((a, b) => b.degree - a.degree || b.strength - a.strength || a.id.localeCompare(b.id));
}

export function kindCounts(edges: NetworkEdge[]): Record<EdgeKind, number> {
  const counts: Record<EdgeKind, number> = { repost: 0, reply: 0, quote: 0, mention: 0 };
  for (const edge of edges) counts[edge.kind] += 1;
  return counts;
}

/** One sentence for assistive tech and the figure's caption. */
export function networkSummary(network: Network, stats: NodeStats[] = nodeStats(network)): string {
  if (network.edges.length === 0) return 'No interactions between accounts match these filters.';
  const counts = kindCounts(network.edges);
  const kinds = EDGE_KINDS.filter((kind) => counts[kind] > 0).map((kind) => `${counts[kind]} ${kindWord(kind, counts[kind])}`);
  const top = stats
    .slice(0, 3)
    .map((node) => `${node.label} (${countOf(node.degree, 'link', 'links')})`)
    .join(', ');
  const cut = network.total_edges > network.edges.length ? ` The ${network.edges.length} heaviest of ${network.total_edges} edges are shown.` : '';
  return `${countOf(network.nodes.length, 'account', 'accounts')} linked by ${countOf(network.edges.length, 'edge', 'edges')}: ${kinds.join(', ')}. Most connected: ${top}.${cut}`;
}

/** Node size on screen: grows with the square root of its links, so hubs stand out without hiding the rest. */
export function nodeSize(degree: number): number {
  return 3 + Math.min(17, Math.sqrt(degree) * 2);
}

// --- The saved picture ------------------------------------------------------------------

export interface Picture {
  width: number;
  height: number;
  title: string;
  subtitle: string;
  lines: { x1: number; y1: number; x2: number; y2: number; colour: string; width: number }[];
  dots: { x: number; y: number; r: number; label: string | null }[];
  legend: { name: string; colour: string }[];
}

const PAGE = { width: 1200, height: 900, top: 64, margin: 24, bottom: 40 };
/** Labels on the most connected accounts only: more would cover the picture. */
const LABELLED = 30;

/** The network at its laid-out positions, fitted to a page; `positions` is [x0, y0, x1, y1, …] in `network.nodes` order. */
export function networkPicture(network: Network, positions: Float32Array, colors: ChartColors, title: string): Picture {
  const index = new Map(network.nodes.map((node, at) => [node.id, at]));
  const stats = nodeStats(network);
  const degree = new Map(stats.map((node) => [node.id, node.degree]));
  const labelled = new Set(stats.slice(0, LABELLED).map((node) => node.id));
  let minX = Infinity;
  let maxX = -Infinity;
  let minY = Infinity;
  let maxY = -Infinity;
  for (let at = 0; at < network.nodes.length; at++) {
    const x = positions[at * 2] ?? 0;
    const y = positions[at * 2 + 1] ?? 0;
    minX = Math.min(minX, x);
    maxX = Math.max(maxX, x);
    minY = Math.min(minY, y);
    maxY = Math.max(maxY, y);
  }
  const boxWidth = PAGE.width - 2 * PAGE.margin;
  const boxHeight = PAGE.height - PAGE.top - PAGE.bottom - PAGE.margin;
  const scale = Math.min(boxWidth / Math.max(1e-9, maxX - minX), boxHeight / Math.max(1e-9, maxY - minY));
  const finite = Number.isFinite(scale) && network.nodes.length > 1 ? scale : 1;
  // Graph y grows upwards (as sigma draws it); the page's grows downwards.
  const place = (at: number) => ({
    x: PAGE.margin + (boxWidth - (maxX - minX) * finite) / 2 + ((positions[at * 2] ?? 0) - minX) * finite,
    y: PAGE.top + (boxHeight - (maxY - minY) * finite) / 2 + (maxY - (positions[at * 2 + 1] ?? 0)) * finite,
  });
  const points = network.nodes.map((_, at) => place(at));
  const heaviest = Math.max(1, ...network.edges.map((edge) => edge.weight));
  const lines: Picture['lines'] = [];
  // Lightest first, so the heavy edges are drawn on top.
  for (const edge of [...network.edges].reverse()) {
    const from = points[index.get(edge.source) ?? -1];
    const to = points[index.get(edge.target) ?? -1];
    if (!from || !to) continue;
    lines.push({ x1: from.x, y1: from.y, x2: to.x, y2: to.y, colour: kindColour(edge.kind, colors), width: 0.6 + 2.4 * Math.sqrt(edge.weight / heaviest) });
  }
  const dots = network.nodes.map((node, at) => ({
    x: points[at]?.x ?? 0,
    y: points[at]?.y ?? 0,
    r: nodeSize(degree.get(node.id) ?? 0) / 2 + 1,
    label: labelled.has(node.id) ? node.label : null,
  }));
  const counts = kindCounts(network.edges);
  return {
    width: PAGE.width,
    height: PAGE.height,
    title,
    subtitle: networkSummary(network, stats),
    lines,
    dots,
    legend: EDGE_KINDS.filter((kind) => counts[kind] > 0).map((kind) => ({ name: `${kindWord(kind)} (${counts[kind]})`, colour: kindColour(kind, colors) })),
  };
}

const round = (value: number) => Math.round(value * 10) / 10;

export function pictureSvg(picture: Picture, colors: ChartColors): string {
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${picture.width}" height="${picture.height}" viewBox="0 0 ${picture.width} ${picture.height}" font-family="sans-serif">`,
    `<rect width="100%" height="100%" fill="${colors.surface}"/>`,
    `<text x="24" y="28" font-size="16" font-weight="600" fill="${colors.text}">${escapeMarkup(picture.title)}</text>`,
    `<text x="24" y="48" font-size="12" fill="${colors.muted}">${escapeMarkup(picture.subtitle)}</text>`,
    '<g stroke-opacity="0.7" stroke-linecap="round">',
  ];
  for (const line of picture.lines) {
    parts.push(`<line x1="${round(line.x1)}" y1="${round(line.y1)}" x2="${round(line.x2)}" y2="${round(line.y2)}" stroke="${line.colour}" stroke-width="${round(line.width)}"/>`);
  }
  parts.push(`</g><g fill="${colors.text}" stroke="${colors.surface}" stroke-width="1">`);
  for (const dot of picture.dots) parts.push(`<circle cx="${round(dot.x)}" cy="${round(dot.y)}" r="${round(dot.r)}"/>`);
  parts.push(`</g><g font-size="11" fill="${colors.text}">`);
  for (const dot of picture.dots) {
    if (dot.label) parts.push(`<text x="${round(dot.x + dot.r + 2)}" y="${round(dot.y + 4)}">${escapeMarkup(dot.label)}</text>`);
  }
  parts.push('</g>');
  let x = 24;
  for (const entry of picture.legend) {
    parts.push(`<rect x="${x}" y="${picture.height - 26}" width="12" height="12" fill="${entry.colour}"/>`);
    parts.push(`<text x="${x + 16}" y="${picture.height - 16}" font-size="12" fill="${colors.text}">${escapeMarkup(entry.name)}</text>`);
    x += 40 + entry.name.length * 7;
  }
  parts.push('</svg>');
  return parts.join('\n');
}

export function drawPicture(ctx: CanvasRenderingContext2D, picture: Picture, colors: ChartColors): void {
  ctx.fillStyle = colors.surface;
  ctx.fillRect(0, 0, picture.width, picture.height);
  ctx.fillStyle = colors.text;
  ctx.font = '600 16px sans-serif';
  ctx.fillText(picture.title, 24, 28);
  ctx.fillStyle = colors.muted;
  ctx.font = '12px sans-serif';
  ctx.fillText(picture.subtitle, 24, 48);
  ctx.globalAlpha = 0.7;
  ctx.lineCap = 'round';
  for (const line of picture.lines) {
    ctx.strokeStyle = line.colour;
    ctx.lineWidth = line.width;
    ctx.beginPath();
    ctx.moveTo(line.x1, line.y1);
    ctx.lineTo(line.x2, line.y2);
    ctx.stroke();
  }
  ctx.globalAlpha = 1;
  ctx.fillStyle = colors.text;
  ctx.strokeStyle = colors.surface;
  ctx.lineWidth = 1;
  for (const dot of picture.dots) {
    ctx.beginPath();
    ctx.arc(dot.x, dot.y, dot.r, 0, Math.PI * 2);
    ctx.fill();
    ctx.stroke();
  }
  ctx.font = '11px sans-serif';
  for (const dot of picture.dots) if (dot.label) ctx.fillText(dot.label, dot.x + dot.r + 2, dot.y + 4);
  let x = 24;
  ctx.font = '12px sans-serif';
  for (const entry of picture.legend) {
    ctx.fillStyle = entry.colour;
    ctx.fillRect(x, picture.height - 26, 12, 12);
    ctx.fillStyle = colors.text;
    ctx.fillText(entry.name, x + 16, picture.height - 16);
    x += 40 + entry.name.length * 7;
  }
}
