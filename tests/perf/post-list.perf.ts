/**
 * A list of 10,000 posts in the app's own webview (WebKitGTK): the product's VirtualList of
 * PostCard, mounted by the test-only harness page (tests/perf/harness) that the perf config builds
 * and serves on loopback. Counts DOM nodes and mounted cards, then scrolls top to bottom over
 * ~5 s, one step per animation frame, recording frame intervals with requestAnimationFrame.
 * Prints figures; asserts nothing about time.
 */
import { browser, $ } from '@wdio/globals';
import { median, ms, percentile, report, snapshot, table } from './support/report.ts';

const POSTS = 10_000;
const SCROLL_MS = Number(process.env.SIGHTLINE_PERF_SCROLL_MS ?? 5_000);
const SCROLL_RUNS = 3;
const READING_SPEED = 1_500;
const READING_MS = 4_000;
/** The nominal 60 Hz frame budget; the "at rest" row shows the cadence actually measured here. */
const FRAME_MS = 1000 / 60;

interface Census {
  nodes: number;
  rows: number;
  cards: number;
}

interface ScrollRun {
  /** requestAnimationFrame timestamp deltas. */
  intervals: number[];
  /**
   * Per scroll event: from its dispatch (a capture listener on the feed) to the next task, which
   * runs after the list's handler, Svelte's re-render and the row measurements (forced layout):
   * the main-thread cost of the list following the scroll. Painting is not included.
   */
  update: number[];
  duration: number;
  distance: number;
  lastIndex: number;
  reachedBottom: boolean;
  samples: Census[];
}

async function census(): Promise<Census> {
  return browser.execute(() => ({
    nodes: document.getElementsByTagName('*').length,
    rows: document.querySelectorAll('[role="feed"] [data-index]').length,
    cards: document.querySelectorAll('[role="feed"] [data-index] > article.post').length,
  }));
}

/** rAF intervals with nothing happening: the webview's frame cadence here. */
async function idleIntervals(frames: number): Promise<number[]> {
  return browser.executeAsync((count: number, done: (value: number[]) => void) => {
    const intervals: number[] = [];
    let last: number | null = null;
    const step = (time: number) => {
      if (last !== null) intervals.push(time - last);
      last = time;
      if (intervals.length < count) requestAnimationFrame(step);
      else done(intervals);
    };
    requestAnimationFrame(step);
  }, frames);
}

/**
 * One scroll pass, one step per animation frame: `speed` 0 goes from the top to the bottom in
 * `duration` ms (10,000 posts in 5 s: a new screenful every frame), otherwise `speed` px/s from
 * the top for `duration` ms (reading speed: most cards stay mounted from frame to frame).
 */
async function scrollPass(duration: number, speed: number): Promise<ScrollRun> {
  return browser.executeAsync((durationMs: number, pxPerSecond: number, done: (value: ScrollRun) => void) => {
    const feed = document.querySelector<HTMLElement>('[role="feed"]');
    if (!feed) throw new Error('no feed');
    const sample = () => ({
      nodes: document.getElementsByTagName('*').length,
      rows: feed.querySelectorAll('[data-index]').length,
      cards: feed.querySelectorAll('[data-index] > article.post').length,
    });
    const lastMounted = () =>
      Math.max(-1, ...Array.from(feed.querySelectorAll<HTMLElement>('[data-index]'), (row) => Number(row.dataset.index)));
    const intervals: number[] = [];
    const update: number[] = [];
    const channel = new MessageChannel();
    const pending: number[] = [];
    channel.port1.onmessage = () => {
      const at = pending.shift();
      if (at !== undefined) update.push(performance.now() - at);
    };
    const onScroll = () => {
      pending.push(performance.now());
      channel.port2.postMessage(null);
    };
    const samples: ReturnType<typeof sample>[] = [];
    let start: number | null = null;
    let last: number | null = null;
    let settleFrames = 0;
    const step = (time: number) => {
      if (start === null) start = time;
      if (last !== null) intervals.push(time - last);
      last = time;
      const elapsed = time - start;
      const progress = Math.min(1, elapsed / durationMs);
      // Row heights are measured as rows render, so the total changes: aim at the current bottom.
      const bottom = feed.scrollHeight - feed.clientHeight;
      feed.scrollTop = pxPerSecond > 0 ? Math.min(bottom, (elapsed * pxPerSecond) / 1000) : progress * bottom;
      if (intervals.length % 5 === 0) samples.push(sample());
      const atBottom = feed.scrollTop >= feed.scrollHeight - feed.clientHeight - 1;
      if (progress >= 1 && (atBottom || pxPerSecond > 0)) settleFrames += 1;
      // A few more frames let the last rows mount; stop 3 s after the planned end in any case.
      if ((progress >= 1 && settleFrames >= 5) || elapsed > durationMs + 3_000) {
        samples.push(sample());
        feed.removeEventListener('scroll', onScroll, true);
        channel.port1.close();
        done({
          intervals,
          update,
          duration: elapsed,
          distance: feed.scrollTop,
          lastIndex: lastMounted(),
          reachedBottom: atBottom,
          samples,
        });
        return;
      }
      requestAnimationFrame(step);
    };
    feed.scrollTop = 0;
    requestAnimationFrame(() =>
      requestAnimationFrame((time) => {
        feed.addEventListener('scroll', onScroll, true);
        step(time);
      }),
    );
  }, duration, speed);
}

describe('a list of 10,000 posts in the real webview', () => {
  it('keeps a bounded DOM and scrolls top to bottom', async () => {
    const base = process.env.SIGHTLINE_PERF_HARNESS_URL;
    if (!base) throw new Error('SIGHTLINE_PERF_HARNESS_URL is not set: run with tests/perf/wdio.perf.conf.ts');
    await browser.setTimeout({ script: 120_000 });

    const loadStart = Date.now();
    await browser.url(`${base}?posts=${POSTS}`);
    await $('[role="feed"] article.post').waitForDisplayed({ timeout: 60_000 });
    const loadMs = Date.now() - loadStart;
    const summary = await $('[data-testid="harness-count"]').getText();
    const engine = await browser.execute(() => navigator.userAgent);
    const viewport = await browser.execute(() => `${window.innerWidth}x${window.innerHeight} @${window.devicePixelRatio}x`);

    await snapshot('post-list');
    const idle = await idleIntervals(120);
    const before = await census();

    const passes: { label: string; duration: number; speed: number }[] = [
      ...Array.from({ length: SCROLL_RUNS }, (_, index) => ({
        label: `top → bottom in ${SCROLL_MS / 1000} s${index === 0 ? ' (1st: rows measured)' : ''}`,
        duration: SCROLL_MS,
        speed: 0,
      })),
      { label: `reading speed, ${READING_SPEED} px/s for ${READING_MS / 1000} s`, duration: READING_MS, speed: READING_SPEED },
    ];
    const runs: ScrollRun[] = [];
    const after: Census[] = [];
    for (const pass of passes) {
      runs.push(await scrollPass(pass.duration, pass.speed));
      await browser.pause(500);
      after.push(await census());
    }

    const threshold = 1.5 * FRAME_MS;
    const frameColumns = (intervals: number[], duration: number) => {
      const dropped = intervals.filter((interval) => interval > threshold).length;
      const missed = intervals.reduce((sum, interval) => sum + Math.max(0, Math.round(interval / FRAME_MS) - 1), 0);
      return [
        String(intervals.length),
        (duration / 1000).toFixed(2),
        ((intervals.length / duration) * 1000).toFixed(1),
        ms(median(intervals)),
        ms(percentile(intervals, 95)),
        ms(Math.max(...intervals)),
        `${dropped} (${((dropped / intervals.length) * 100).toFixed(0)}%)`,
        String(missed),
      ];
    };
    const idleDuration = idle.reduce((sum, interval) => sum + interval, 0);
    const rows = [
      ['at rest, no scrolling', ...frameColumns(idle, idleDuration), '', `${before.nodes}`, `${before.cards}`, ''],
      ...runs.map((run, index) => {
        const nodes = run.samples.map((s) => s.nodes);
        const cards = run.samples.map((s) => s.cards);
        return [
          passes[index]?.label ?? '',
          ...frameColumns(run.intervals, run.duration),
          `${run.update.length}: ${ms(median(run.update))} / ${ms(percentile(run.update, 95))} / ${ms(Math.max(...run.update))}`,
          `${Math.min(...nodes)}–${Math.max(...nodes)}`,
          `${Math.min(...cards)}–${Math.max(...cards)}`,
          `${run.lastIndex}${(passes[index]?.speed ?? 0) === 0 && !run.reachedBottom ? ' (not at bottom)' : ''}`,
        ];
      }),
    ];

    const text = [
      `Post list: ${summary} (VirtualList + PostCard, production build) in the app's webview`,
      `engine: ${engine}; viewport ${viewport}; harness page ready ${loadMs} ms after navigation (WebDriver round trips included)`,
      `Frame interval = requestAnimationFrame timestamp delta (ms). "dropped" = interval > ${ms(threshold)} ms (1.5 × 60 Hz);`,
      `"missed" = frames skipped in total (interval / ${ms(FRAME_MS)} ms − 1). "list update" = scroll events: ms from each one`,
      "to the next task (the list's re-render and row measurement; no painting), median / p95 / max.",
      '',
      table(
        ['pass', 'frames', 's', 'fps', 'median', 'p95', 'max', 'dropped', 'missed', 'list update', 'DOM nodes', 'cards', 'last row'],
        rows,
      ),
      '',
      table(
        ['DOM census', 'DOM nodes', 'rows mounted', 'cards (top level)'],
        [
          ['before scrolling (top)', String(before.nodes), String(before.rows), String(before.cards)],
          ...after.map((c, index) => [`after pass ${index + 1}`, String(c.nodes), String(c.rows), String(c.cards)]),
        ],
      ),
    ].join('\n');
    report('post-list', text, { posts: POSTS, engine, viewport, loadMs, idle, before, after, passes, runs });
  });
});
