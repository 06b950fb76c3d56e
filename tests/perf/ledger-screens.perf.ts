/**
 * How long History (100,000 rows) and Spend (a year of daily data) take to show their first view
 * in the real app, timed inside the page: from the user's action (a capture-phase listener on the
 * click or the range change records performance.now()) to the first content in the DOM (a
 * MutationObserver) and then to that content painted (the next requestAnimationFrame, plus a task
 * after it so the frame has been produced). Prints figures; asserts nothing about time.
 */
import { browser, $, $$ } from '@wdio/globals';
import { median, ms, report, snapshot, sorted, table } from './support/report.ts';

const RUNS = Number(process.env.SIGHTLINE_PERF_RUNS ?? 10);

type ReadyKind = 'history-rows' | 'spend-first' | 'spend-year';

interface Timing {
  /** Action → first content in the DOM. */
  dom: number;
  /** Action → that content painted. */
  painted: number;
  /** Did the content exist before the action (the measurement would be void)? */
  readyBeforeAction: boolean;
}

/**
 * Arms the in-page probe: records when `eventTypes` reach an element matching `trigger`, and
 * when the screen reached the state `ready` names after it.
 */
async function arm(trigger: string, eventTypes: string[], ready: ReadyKind): Promise<void> {
  await browser.execute(
    (triggerSelector: string, types: string[], kind: string) => {
      const chart = () => document.querySelector('figure svg[role="img"]');
      // The chart draws one path per service, one subpath (`M…Z`) per day with spend.
      const dayBars = () => (chart()?.querySelector('path')?.getAttribute('d')?.match(/M/g) ?? []).length;
      const baseline = chart()?.getAttribute('aria-label') ?? null;
      const isReady = (): boolean => {
        if (kind === 'history-rows') {
          return document.querySelector('[aria-label="Requests, newest first"] [role="listitem"] button.row') !== null;
        }
        if (kind === 'spend-first') {
          const all = document.querySelector('[data-testid="spend-all"]');
          return all !== null && (all.textContent ?? '').trim() !== '…' && dayBars() > 0;
        }
        const svg = chart();
        return svg !== null && svg.getAttribute('aria-label') !== baseline && dayBars() > 31;
      };
      const state: { start: number | null; dom: number | null; painted: number | null; readyBeforeAction: boolean } = {
        start: null,
        dom: null,
        painted: null,
        readyBeforeAction: isReady(),
      };
      (window as unknown as { __sightlinePerf: typeof state }).__sightlinePerf = state;
      const onAction = (event: Event) => {
        if (state.start !== null || !(event.target instanceof Element) || !event.target.closest(triggerSelector)) return;
        state.start = performance.now();
        types.forEach((type) => document.removeEventListener(type, onAction, true));
      };
      types.forEach((type) => document.addEventListener(type, onAction, true));
      const observer = new MutationObserver(() => {
        if (state.start === null || state.dom !== null || !isReady()) return;
        state.dom = performance.now();
        observer.disconnect();
        requestAnimationFrame(() => {
          // rAF runs before the frame is produced; a task posted from it runs after.
          const channel = new MessageChannel();
          channel.port1.onmessage = () => {
            state.painted = performance.now();
          };
          channel.port2.postMessage(null);
        });
      });
      observer.observe(document.body, { childList: true, subtree: true, attributes: true, characterData: true });
    },
    trigger,
    eventTypes,
    ready,
  );
}

/** Waits for the armed probe to finish and returns its figures. */
async function collect(): Promise<Timing> {
  const result = await browser.executeAsync((done: (value: unknown) => void) => {
    const started = performance.now();
    const poll = () => {
      const state = (window as unknown as { __sightlinePerf?: { start: number | null; dom: number | null; painted: number | null; readyBeforeAction: boolean } }).__sightlinePerf;
      if (state && state.start !== null && state.dom !== null && state.painted !== null) {
        done({ dom: state.dom - state.start, painted: state.painted - state.start, readyBeforeAction: state.readyBeforeAction });
      } else if (performance.now() - started > 25_000) {
        done({ error: `no result: ${JSON.stringify(state)}` });
      } else {
        setTimeout(poll, 10);
      }
    };
    poll();
  });
  const value = result as Timing & { error?: string };
  if (value.error) throw new Error(value.error);
  return value;
}

const screenLink = (id: string) => `nav[aria-label="Screens"] a[href="#/${id}"]`;

/** Leaves for the X screen (cheap: nothing loads) and lets the page settle. */
async function leave(): Promise<void> {
  await $(screenLink('x')).click();
  await $('h1=X search').waitForDisplayed();
  await browser.executeAsync((done: () => void) => {
    requestAnimationFrame(() => requestAnimationFrame(() => done()));
  });
  await browser.pause(300);
}

async function openScreen(id: string, ready: ReadyKind): Promise<Timing> {
  await arm(screenLink(id), ['click'], ready);
  await $(screenLink(id)).click();
  return collect();
}

async function pickLastYear(): Promise<Timing> {
  const picker = 'section[aria-labelledby="per-day-title"] select';
  await arm(picker, ['input', 'change'], 'spend-year');
  await $(picker).selectByVisibleText('Last year');
  return collect();
}

interface Series {
  label: string;
  cold?: Timing;
  runs: Timing[];
}

function rowsOf(series: Series[]): string[][] {
  return series.flatMap(({ label, cold, runs }) =>
    (['dom', 'painted'] as const).map((key) => {
      const values = runs.map((run) => run[key]);
      const ordered = sorted(values);
      return [
        `${label} → ${key === 'dom' ? 'in DOM' : 'painted'}`,
        cold ? ms(cold[key]) : '',
        ms(median(values)),
        ms(ordered[0] ?? Number.NaN),
        ms(ordered.at(-1) ?? Number.NaN),
        String(values.length),
      ];
    }),
  );
}

/**
 * The same commands the screen sends, called from the page through Tauri's IPC without
 * rendering anything: how much of a figure is the back end (query + IPC) and how much the page.
 * Each call set runs `runs` times; returns ms per set.
 */
async function commandTimes(calls: [string, Record<string, unknown>][], runs: number): Promise<number[]> {
  const result = await browser.executeAsync(
    (list: { command: string; args: Record<string, unknown> }[], count: number, done: (value: unknown) => void) => {
      const ipc = (window as unknown as { __TAURI_INTERNALS__?: { invoke: (cmd: string, args: unknown) => Promise<unknown> } })
        .__TAURI_INTERNALS__;
      if (!ipc) {
        done({ error: 'no Tauri IPC in this page' });
        return;
      }
      const times: number[] = [];
      const once = async () => {
        const start = performance.now();
        await Promise.all(list.map(({ command, args }) => ipc.invoke(command, args)));
        times.push(performance.now() - start);
      };
      (async () => {
        for (let run = 0; run < count; run += 1) await once();
      })().then(
        () => done(times),
        (error: unknown) => done({ error: String(error) }),
      );
    },
    calls.map(([command, args]) => ({ command, args })),
    runs,
  );
  if (!Array.isArray(result)) throw new Error((result as { error: string }).error);
  return result as number[];
}

/** `YYYY-MM-DD` of a local day, `offset` days from today (as the Spend screen's localDay). */
function localDay(offset = 0): string {
  const now = new Date();
  const day = new Date(now.getFullYear(), now.getMonth(), now.getDate() + offset);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${day.getFullYear()}-${pad(day.getMonth() + 1)}-${pad(day.getDate())}`;
}

describe('ledger screens with a large database', () => {
  const history: Series = { label: 'History (100,000 rows): click', runs: [] };
  const spendFirst: Series = { label: 'Spend: click → totals + 30-day chart', runs: [] };
  const spendYear: Series = { label: 'Spend: "Last year" → 365-day chart', runs: [] };
  let historyCount = '';
  let yearBars = 0;

  before(async () => {
    await browser.setTimeout({ script: 60_000 });
    await $(screenLink('history')).waitForDisplayed({ timeout: 60_000 });
  });

  it('History: sidebar click to first rows', async () => {
    // The first visit after launch also opens the database (and starts the demo service).
    history.cold = await openScreen('history', 'history-rows');
    await browser.waitUntil(async () => /\d/.test(await $('header .count').getText()), { timeoutMsg: 'no row count' });
    historyCount = await $('header .count').getText();
    await snapshot('history');
    for (let run = 0; run < RUNS; run += 1) {
      await leave();
      history.runs.push(await openScreen('history', 'history-rows'));
    }
    const rows = await $$('[aria-label="Requests, newest first"] [role="listitem"]').length;
    console.log(`History shows "${historyCount}", ${rows} rows mounted by the virtual list`);
  });

  it('Spend: sidebar click to totals and chart, then a year of days', async () => {
    await leave();
    spendFirst.cold = await openScreen('spend', 'spend-first');
    spendYear.cold = await pickLastYear();
    yearBars = await browser.execute(
      () => (document.querySelector('figure svg[role="img"] path')?.getAttribute('d')?.match(/M/g) ?? []).length,
    );
    await snapshot('spend-year');
    for (let run = 0; run < RUNS; run += 1) {
      await leave();
      spendFirst.runs.push(await openScreen('spend', 'spend-first'));
      spendYear.runs.push(await pickLastYear());
    }
  });

  const commands: { label: string; times: number[] }[] = [];

  it('the same commands without rendering (back end + IPC)', async () => {
    const year: [string, Record<string, unknown>][] = [
      ['spend_totals', {}],
      ['spend_by_day', { first: localDay(-364), last: localDay() }],
      ['spend_breakdown', { dimension: 'operation', first: localDay(-364), last: localDay() }],
      ['spend_breakdown', { dimension: 'key_label', first: localDay(-364), last: localDay() }],
      ['learned_rates', {}],
    ];
    const month: [string, Record<string, unknown>][] = year.map(([command, args]) => [
      command,
      'first' in args ? { ...args, first: localDay(-29) } : args,
    ]);
    const sets: [string, [string, Record<string, unknown>][]][] = [
      ['history_list, first page of 200 + count', [['history_list', { query: { limit: 200, offset: 0 } }]]],
      ['Spend, 30 days: the 5 commands in parallel', month],
      ['Spend, 365 days: the 5 commands in parallel', year],
      ...year.map(([command, args]): [string, [string, Record<string, unknown>][]] => [
        `  365 days: ${command}${typeof args.dimension === 'string' ? ` (${args.dimension})` : ''} alone`,
        [[command, args]],
      ]),
    ];
    for (const [label, calls] of sets) commands.push({ label, times: await commandTimes(calls, RUNS) });
  });

  after(async () => {
    const series = [history, spendFirst, spendYear];
    const voided = series.flatMap((s) => [...(s.cold ? [s.cold] : []), ...s.runs]).filter((t) => t.readyBeforeAction).length;
    const text = [
      `Ledger screens, demo.db with ${historyCount || '? requests'}; year chart: ${yearBars} days`,
      `Timed in the page from the action (capture-phase listener) to the content in the DOM`,
      `(MutationObserver) and painted (next requestAnimationFrame + a task). cold = first visit`,
      `after launch (opens the database); then ${RUNS} runs, leaving for the X screen in between.`,
      '',
      table(['measure (ms)', 'cold', 'median', 'min', 'max', 'runs'], rowsOf(series)),
      '',
      'The same commands called from the page through IPC, nothing rendered (ms per set):',
      table(
        ['commands', 'median', 'min', 'max', 'runs'],
        commands.map(({ label, times }) => {
          const ordered = sorted(times);
          return [label, ms(median(times)), ms(ordered[0] ?? Number.NaN), ms(ordered.at(-1) ?? Number.NaN), String(times.length)];
        }),
      ),
      ...(voided > 0 ? ['', `WARNING: ${voided} measurement(s) found the content already present before the action.`] : []),
    ].join('\n');
    report('ledger-screens', text, { historyCount, yearBars, runs: RUNS, series, commands });
  });
});
