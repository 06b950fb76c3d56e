/**
 * What the layout worker is sent and answers, and how long it runs: shared by the worker
 * (layout.worker.ts) and the window's side (layout.ts).
 */

export interface LayoutRequest {
  id: number;
  count: number;
  /** [source0, target0, source1, target1, …] as node indexes. */
  pairs: Uint32Array;
  weights: Float32Array;
}

export interface LayoutReply {
  id: number;
  positions: Float32Array;
  iterations: number;
  elapsedMs: number;
  done: boolean;
}

/**
 * How long to run: small networks settle fully; big ones get Barnes–Hut (coarser as they grow),
 * one iteration per batch so the time limit holds, and fewer position updates (the biggest only
 * the last), since each one redraws every edge on the window's side.
 */
export function layoutPlan(count: number): { iterations: number; batch: number; barnesHut: boolean; theta: number; budgetMs: number; postEveryMs: number } {
  if (count <= 300) return { iterations: 600, batch: 50, barnesHut: false, theta: 0.5, budgetMs: 4000, postEveryMs: 200 };
  if (count <= 2000) return { iterations: 400, batch: 5, barnesHut: true, theta: 0.8, budgetMs: 4000, postEveryMs: 400 };
  // Only the settled positions: each redraw of 20,000 edges holds the window for a moment.
  return { iterations: 300, batch: 1, barnesHut: true, theta: 1.2, budgetMs: 4000, postEveryMs: Infinity };
}

/** Start positions on a disc from a fixed seed (mulberry32), so a layout is repeatable. */
export function seededPositions(count: number, seed = 17): Float32Array {
  let state = seed >>> 0;
  const random = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const radius = Math.sqrt(Math.max(1, count)) * 10;
  const out = new Float32Array(count * 2);
  for (let node = 0; node < count; node++) {
    const angle = random() * Math.PI * 2;
    const distance = Math.sqrt(random()) * radius;
    out[node * 2] = Math.cos(angle) * distance;
    out[node * 2 + 1] = Math.sin(angle) * distance;
  }
  return out;
}

