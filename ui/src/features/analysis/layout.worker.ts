/**
 * Lays a network out with ForceAtlas2, off the UI thread. The library's own worker is built from
 * a blob: URL, which the app's content security policy (scripts from the app only) refuses, so
 * this module worker runs its synchronous iterations in batches, posting the positions as they
 * settle and once more at the end. Start positions come from a fixed seed: the same network
 * always gets the same picture.
 */
import Graph from 'graphology';
import forceAtlas2 from 'graphology-layout-forceatlas2';
import { layoutPlan, seededPositions, type LayoutReply, type LayoutRequest } from './layoutPlan';

let running = 0;

self.onmessage = (event: MessageEvent<LayoutRequest | { stop: number }>) => {
  const message = event.data;
  if ('stop' in message) {
    if (running === message.stop) running = 0;
    return;
  }
  running = message.id;
  run(message);
};

function post(reply: LayoutReply) {
  (self as unknown as Worker).postMessage(reply, [reply.positions.buffer]);
}

function run(request: LayoutRequest) {
  const started = performance.now();
  const graph = new Graph({ type: 'undirected', multi: false, allowSelfLoops: false });
  const start = seededPositions(request.count);
  for (let node = 0; node < request.count; node++) graph.addNode(node, { x: start[node * 2], y: start[node * 2 + 1] });
  for (let at = 0; at < request.pairs.length / 2; at++) {
    const source = request.pairs[at * 2] as number;
    const target = request.pairs[at * 2 + 1] as number;
    if (source === target) continue;
    // Edges of several kinds between the same two accounts pull as one, by their summed weight.
    graph.updateEdge(source, target, (attributes) => ({ weight: ((attributes.weight as number | undefined) ?? 0) + (request.weights[at] ?? 1) }));
  }
  const plan = layoutPlan(request.count);
  const settings = { ...forceAtlas2.inferSettings(graph), barnesHutOptimize: plan.barnesHut, barnesHutTheta: plan.theta };
  let done = 0;
  let lastPost = started;
  const positions = () => {
    const out = new Float32Array(request.count * 2);
    graph.forEachNode((node, attributes) => {
      out[Number(node) * 2] = attributes.x as number;
      out[Number(node) * 2 + 1] = attributes.y as number;
    });
    return out;
  };
  // Batches yield to the message queue between them, so a stop (a new network, the view closed) is heard.
  const batch = () => {
    if (running !== request.id) return;
    forceAtlas2.assign(graph, { iterations: plan.batch, settings, getEdgeWeight: 'weight' });
    done += plan.batch;
    const now = performance.now();
    const finished = done >= plan.iterations || now - started >= plan.budgetMs;
    if (finished || now - lastPost >= plan.postEveryMs) {
      lastPost = now;
      post({ id: request.id, positions: positions(), iterations: done, elapsedMs: now - started, done: finished });
    }
    if (finished) running = 0;
    else setTimeout(batch, 0);
  };
  batch();
}
