/**
 * Test-only page: the product's network view parts (the layout worker and the sigma renderer)
 * on a generated network of `?nodes=` accounts and `?edges=` edges, so the perf spec can time
 * the layout off the UI thread and the frames while panning and zooming in the real webview.
 * Built by tests/perf/harness/serve.ts with the UI's own Vite; never shipped.
 */
import '../../../ui/src/app.css';
import type { EdgeKind } from '../../../ui/src/lib/bindings/EdgeKind';
import type { Network } from '../../../ui/src/lib/bindings/Network';
import { chartColors } from '../../../ui/src/features/analysis/chartTheme';
import { Layout } from '../../../ui/src/features/analysis/layout';
import { seededPositions } from '../../../ui/src/features/analysis/layoutPlan';
import { NetworkRenderer } from '../../../ui/src/features/analysis/networkRenderer';

const params = new URLSearchParams(window.location.search);
const nodeCount = Number(params.get('nodes') ?? 5_000);
const edgeCount = Number(params.get('edges') ?? 20_000);

/** A repeatable network where a few accounts draw most links, as real ones do. */
function generate(): Network {
  let state = 42;
  const random = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const kinds: EdgeKind[] = ['repost', 'reply', 'quote', 'mention'];
  const nodes = Array.from({ length: nodeCount }, (_, at) => ({ id: `user${at}`, label: `@user${at}`, posts: Math.floor(random() * 20) }));
  const seen = new Set<string>();
  const edges: Network['edges'] = [];
  while (edges.length < edgeCount) {
    const source = Math.floor(random() * nodeCount);
    const target = Math.floor(random() ** 3 * nodeCount);
    const kind = kinds[Math.floor(random() * kinds.length)] as EdgeKind;
    const key = `${kind}:${source}>${target}`;
    if (source === target || seen.has(key)) continue;
    seen.add(key);
    edges.push({ source: `user${source}`, target: `user${target}`, kind, weight: 1 + Math.floor(random() ** 4 * 20), first: '2026-11-20T10:00:00Z', last: '2026-11-21T10:00:00Z' });
  }
  edges.sort((a, b) => b.weight - a.weight);
  return { nodes, edges, total_edges: edges.length, reposter_requests: 0 };
}

interface Probe {
  done: boolean;
  layoutMs: number;
  workerMs: number;
  iterations: number;
  updates: number;
  /** requestAnimationFrame intervals on the page while the worker ran. */
  framesDuringLayout: number[];
  renderer: NetworkRenderer;
}

const network = generate();
const stage = document.getElementById('stage') as HTMLElement;
const renderer = new NetworkRenderer(stage, network, chartColors(), seededPositions(network.nodes.length), () => {});
const probe: Probe = { done: false, layoutMs: 0, workerMs: 0, iterations: 0, updates: 0, framesDuringLayout: [], renderer };
(window as unknown as { networkProbe: Probe }).networkProbe = probe;

let last: number | null = null;
const watch = (time: number) => {
  if (last !== null) probe.framesDuringLayout.push(time - last);
  last = time;
  if (!probe.done) requestAnimationFrame(watch);
};
requestAnimationFrame(watch);

const started = performance.now();
new Layout().start(
  network,
  (reply) => {
    probe.updates += 1;
    renderer.setPositions(reply.positions);
    if (!reply.done) return;
    probe.done = true;
    probe.layoutMs = performance.now() - started;
    probe.workerMs = reply.elapsedMs;
    probe.iterations = reply.iterations;
    (document.getElementById('status') as HTMLElement).textContent = `Laid out: ${network.nodes.length} nodes, ${network.edges.length} edges`;
  },
  (message) => {
    (document.getElementById('status') as HTMLElement).textContent = `Layout failed: ${message}`;
  },
);
