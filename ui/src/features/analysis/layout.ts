/**
 * The network's layout, asked of a worker (layout.worker.ts) so the window stays responsive
 * while ForceAtlas2 runs: the nodes go as indexes and the edges as pairs, the positions come
 * back as [x0, y0, x1, y1, …] several times as they settle.
 */
import type { Network } from '$lib/bindings/Network';
import type { LayoutReply, LayoutRequest } from './layoutPlan';

export function layoutRequest(id: number, network: Network): LayoutRequest {
  const index = new Map(network.nodes.map((node, at) => [node.id, at]));
  const pairs = new Uint32Array(network.edges.length * 2);
  const weights = new Float32Array(network.edges.length);
  network.edges.forEach((edge, at) => {
    pairs[at * 2] = index.get(edge.source) ?? 0;
    pairs[at * 2 + 1] = index.get(edge.target) ?? 0;
    weights[at] = edge.weight;
  });
  return { id, count: network.nodes.length, pairs, weights };
}

/** One worker for the view's life; each new layout stops the one before it. */
export class Layout {
  private worker: Worker | null = null;
  private current = 0;

  /** `onpositions` is called as the layout settles, the last time with `done`. */
  start(network: Network, onpositions: (reply: LayoutReply) => void, onfailure: (message: string) => void): void {
    this.stop();
    const id = ++this.current;
    if (!this.worker) {
      this.worker = new Worker(new URL('./layout.worker.ts', import.meta.url), { type: 'module' });
    }
    this.worker.onmessage = (event: MessageEvent<LayoutReply>) => {
      if (event.data.id === this.current) onpositions(event.data);
    };
    this.worker.onerror = (event) => onfailure(event.message || 'the layout stopped with an error');
    const request = layoutRequest(id, network);
    this.worker.postMessage(request, [request.pairs.buffer, request.weights.buffer]);
  }

  stop(): void {
    this.worker?.postMessage({ stop: this.current });
  }

  dispose(): void {
    this.worker?.terminate();
    this.worker = null;
  }
}
