/**
 * A network of 5,000 accounts and 20,000 edges in the app's own webview (WebKitGTK): the
 * product's layout worker and sigma renderer, mounted by the test-only harness page
 * (tests/perf/harness/network.html). Times the layout (off the UI thread) and the page's frames
 * meanwhile, then the frames while panning for 3 s and while zooming in and out. Prints
 * figures; asserts nothing about time.
 */
import { browser, $ } from '@wdio/globals';
import { median, ms, percentile, report, snapshot, table } from './support/report.ts';

const NODES = 5_000;
const EDGES = 20_000;

function frameCells(intervals: number[]): string[] {
  return [String(intervals.length), ms(median(intervals)), ms(percentile(intervals, 95))];
}

interface LayoutFigures {
  layoutMs: number;
  workerMs: number;
  iterations: number;
  updates: number;
  framesDuringLayout: number[];
}

/** rAF intervals while `move` runs once per frame for `duration` ms (inside the page). */
async function movingFrames(kind: 'pan' | 'zoom', duration: number): Promise<number[]> {
  return browser.executeAsync(
    (what: string, length: number, done: (value: number[]) => void) => {
      const probe = (window as unknown as { networkProbe: { renderer: { zoom(inwards: boolean): void } } }).networkProbe;
      const layer = document.querySelector('#stage canvas.sigma-mouse') ?? document.getElementById('stage');
      if (!layer) throw new Error('no sigma mouse layer');
      const box = layer.getBoundingClientRect();
      const centre = { x: box.left + box.width / 2, y: box.top + box.height / 2 };
      const intervals: number[] = [];
      let last: number | null = null;
      let start: number | null = null;
      let step = 0;
      const frame = (time: number) => {
        if (last !== null) intervals.push(time - last);
        last = time;
        start ??= time;
        step += 1;
        if (what === 'pan') {
          // A drag as the mouse makes it: down on sigma's mouse layer, a circle of moves, up.
          const x = centre.x + Math.cos(step / 20) * 150;
          const y = centre.y + Math.sin(step / 20) * 150;
          const init = { clientX: x, clientY: y, button: 0, buttons: 1, bubbles: true, cancelable: true };
          if (step === 1) layer.dispatchEvent(new MouseEvent('mousedown', init));
          document.dispatchEvent(new MouseEvent('mousemove', init));
        } else if (step % 10 === 0) probe.renderer.zoom(Math.floor(step / 60) % 2 === 0);
        if (time - start < length) requestAnimationFrame(frame);
        else {
          if (what === 'pan') document.dispatchEvent(new MouseEvent('mouseup', { clientX: centre.x, clientY: centre.y, button: 0, bubbles: true }));
          done(intervals);
        }
      };
      requestAnimationFrame(frame);
    },
    kind,
    duration,
  );
}

/** The benchmark's size, then two smaller ones beside it: what the machine's WebGL costs by itself. */
const SIZES = [
  [NODES, EDGES],
  [1_000, 4_000],
  [100, 400],
] as const;

describe('a network of 5,000 accounts and 20,000 edges in the real webview', () => {
  it('lays out off the UI thread and pans and zooms', async () => {
    const base = process.env.SIGHTLINE_PERF_HARNESS_URL;
    if (!base) throw new Error('SIGHTLINE_PERF_HARNESS_URL is not set: run with tests/perf/wdio.perf.conf.ts');
    await browser.setTimeout({ script: 120_000 });
    const rows: string[][] = [];
    const figures: unknown[] = [];
    let engine = '';
    let glRenderer = '';
    for (const [nodes, edges] of SIZES) {
      await browser.url(`${base}network.html?nodes=${nodes}&edges=${edges}`);
      await $('[data-testid="network-status"]').waitForDisplayed({ timeout: 60_000 });
      await browser.waitUntil(async () => (await $('[data-testid="network-status"]').getText()).startsWith('Laid out'), {
        timeout: 60_000,
        timeoutMsg: 'the layout did not finish',
      });
      const layout = (await browser.execute(() => {
        const probe = (window as unknown as { networkProbe: LayoutFigures }).networkProbe;
        return { layoutMs: probe.layoutMs, workerMs: probe.workerMs, iterations: probe.iterations, updates: probe.updates, framesDuringLayout: probe.framesDuringLayout };
      })) as LayoutFigures;
      engine = await browser.execute(() => navigator.userAgent);
      glRenderer = await browser.execute(() => {
        const gl = document.createElement('canvas').getContext('webgl2');
        return gl ? String(gl.getParameter(gl.VERSION)) : 'no WebGL 2';
      });
      // A full draw (every edge and label), timed synchronously five times.
      const fullDraw = await browser.execute(() => {
        const probe = (window as unknown as { networkProbe: { renderer: { resize(): void } } }).networkProbe;
        const times: number[] = [];
        for (let at = 0; at < 5; at++) {
          const start = performance.now();
          probe.renderer.resize();
          times.push(performance.now() - start);
        }
        return times;
      });
      if (nodes === NODES) await snapshot('network');
      const pan = await movingFrames('pan', 3_000);
      const zoom = await movingFrames('zoom', 3_000);
      const size = `${nodes} / ${edges}`;
      rows.push([size, `${ms(layout.workerMs)} (${layout.iterations} it.)`, ms(layout.layoutMs), ms(Math.max(...layout.framesDuringLayout)), ms(median(fullDraw)), ...frameCells(pan), ...frameCells(zoom)]);
      figures.push({ nodes, edges, layout, fullDraw, pan, zoom });
    }
    const text = [
      "Network (ForceAtlas2 in a worker, sigma.js WebGL) in the app's webview; harness tests/perf/harness/network.html",
      `engine: ${engine}; ${glRenderer}`,
      'layout = worker time (iterations) and page time from start to the last positions drawn; longest frame = the page\'s',
      'longest requestAnimationFrame gap meanwhile; full draw = one synchronous render with every edge and label (median of 5);',
      'pan / zoom: frames in 3 s, median and p95 interval (ms); sigma draws only the accounts while the view moves (>2,000 edges).',
      '',
      table(['nodes / edges', 'worker ms', 'layout ms', 'longest frame', 'full draw', 'pan frames', 'median', 'p95', 'zoom frames', 'median', 'p95'], rows),
    ].join('\n');
    report('network', text, figures);
  });
});
