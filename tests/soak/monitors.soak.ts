import { browser, $, expect } from '@wdio/globals';
import { existsSync, readFileSync, readdirSync, readlinkSync } from 'node:fs';
import { appBinary } from '../support/app.ts';
import { billed, sandbox } from '../support/sandbox.ts';

/**
 * Ten monitors running every minute plus an AI answer every minute, for SOAK_MINUTES minutes.
 * Each minute it samples the proportional set size (PSS) of the app and every process under it
 * (its WebKit web and network processes) from /proc/<pid>/smaps_rollup. At the end: no X request
 * was sent twice (the sandbox's body log holds no repeated GET target among its answers), and the
 * app's spend equals what the sandbox billed, to the last digit. Prints every figure.
 */

const minutes = Number(process.env.SOAK_MINUTES ?? 30);
// Ten different searches (the ninth is #AI again, with a minimum of likes): two monitors on the very
// same search would rightly send the same request each, which the end check would count as a repeat.
const hashtags = ['#AI', '#ClimateAction', '#ChampionsLeague', '#Space', '#Bitcoin', '#Election', '#Foodie', '#Gaming', '#AI', '#JWST'];

/** Every process: pid → parent pid. */
function parents(): Map<number, number> {
  const map = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // The command name may hold spaces and parentheses: the fields after the last ')' are fixed.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      map.set(Number(entry), Number(fields[1]));
    } catch {
      // The process ended while we looked.
    }
  }
  return map;
}

/** The app's pid (its executable is the binary under test) and every process below it. */
function appTree(): number[] {
  const binary = appBinary();
  const tree = parents();
  const roots = [...tree.keys()].filter((pid) => {
    try {
      return readlinkSync(`/proc/${pid}/exe`) === binary;
    } catch {
      return false;
    }
  });
  const found = new Set(roots);
  let grew = true;
  while (grew) {
    grew = false;
    for (const [pid, parent] of tree) {
      if (found.has(parent) && !found.has(pid)) {
        found.add(pid);
        grew = true;
      }
    }
  }
  return [...found];
}

/** Summed PSS of the app's process tree, in KiB, and by process name (the app, WebKit's web and network processes). */
function treePssKib(): { kib: number; uss: number; dirty: number; processes: number; byName: Record<string, number> } {
  let kib = 0;
  let uss = 0;
  let dirty = 0;
  const byName: Record<string, number> = {};
  const pids = appTree();
  for (const pid of pids) {
    try {
      const rollup = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8').split('\n');
      const field = (name: string) => Number(rollup.find((each) => each.startsWith(`${name}:`))?.replace(/[^\d]/g, '') ?? 0);
      const own = field('Pss');
      // Pages only this process maps: unlike PSS, not lowered when another WebKit app starts.
      uss += field('Private_Clean') + field('Private_Dirty');
      // Memory written by this process alone (its heaps): the one figure no other process on
      // the machine can move, since mapping the same libraries turns clean pages shared.
      dirty += field('Private_Dirty');
      const name = readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
      kib += own;
      byName[name] = (byName[name] ?? 0) + own;
    } catch {
      // Gone, or not ours to read.
    }
  }
  return { kib, uss, dirty, processes: pids.length, byName };
}

const mib = (kib: number) => (kib / 1024).toFixed(1);

/**
 * Where WebKit's web process keeps its private dirty memory, by kind of mapping: its heaps
 * (anonymous and `[heap]`), shared buffers (memfd, /dev/shm, SysV: painted tiles and IPC), GPU
 * (/dev/dri) and files. KiB by kind; where the soak's growth sits.
 */
function webProcessByMapping(): Record<string, number> {
  const kinds: Record<string, number> = {};
  for (const pid of appTree()) {
    try {
      if (!readFileSync(`/proc/${pid}/comm`, 'utf8').startsWith('WebKitWebProces')) continue;
      let kind = 'file';
      for (const line of readFileSync(`/proc/${pid}/smaps`, 'utf8').split('\n')) {
        const header = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
        if (header) {
          const name = header[1] ?? '';
          kind = name === '' || name === '[heap]' || name.startsWith('[anon') ? 'heap'
            : /memfd:|\/dev\/shm|SYSV/.test(name) ? 'shared buffers'
            : name.startsWith('/dev/dri') ? 'gpu'
            : name.startsWith('[') ? 'other' : 'file';
        } else if (line.startsWith('Private_Dirty:')) {
          kinds[kind] = (kinds[kind] ?? 0) + Number(line.replace(/[^\d]/g, ''));
        }
      }
    } catch {
      // Gone, or not ours to read.
    }
  }
  return kinds;
}

function invoke<T>(command: string, args: Record<string, unknown> = {}): Promise<T> {
  return browser.executeAsync(
    (cmd: string, payload: Record<string, unknown>, done: (value: unknown) => void) => {
      const internals = (window as unknown as { __TAURI_INTERNALS__: { invoke: (c: string, a: unknown) => Promise<unknown> } }).__TAURI_INTERNALS__;
      internals.invoke(cmd, payload).then(done, (error: unknown) => done({ __error: error }));
    },
    command,
    args,
  ) as Promise<T>;
}

function nanos(amount: string): bigint {
  const [whole = '0', fraction = ''] = amount.replace(/[$,\s]/g, '').split('.');
  return BigInt(whole) * 1_000_000_000n + BigInt(fraction.padEnd(9, '0').slice(0, 9) || '0');
}

async function ask(question: string) {
  await $('nav[aria-label="Screens"]').$('a=Ask').click();
  const prompt = $('#ask-prompt');
  await prompt.clearValue();
  await prompt.setValue(question);
  await prompt.click();
  await browser.keys(['Enter']);
  await browser.waitUntil(async () => (await $('[data-testid="ask-status"]').getText()).startsWith('Done'), { timeout: 50_000, interval: 500 });
}

describe(`monitors soak, ${minutes} minutes`, () => {
  it('keeps ten monitors and an AI answer a minute going, and its books', async () => {
    await $('nav[aria-label="Screens"]').waitForDisplayed({ timeout: 60_000 });
    await $('#welcome-key').setValue(sandbox().key);
    await $('button=Use this key').click();
    await expect($('h1=X search')).toBeDisplayed();

    for (const [index, tag] of hashtags.entries()) {
      const draft = {
        name: `Soak ${index + 1} ${tag}`,
        target: { kind: 'search', request: { query: tag, sort: 'Latest', count: 20, user: null, start_date: null, end_date: null, lang: null, verified: null, blue_verified: null, is_quote: null, is_video: null, is_image: null, min_retweets: null, min_replies: null, min_likes: index === 8 ? '1' : null } },
        // Every minute, which only the test hook allows (wdio.soak.conf.ts).
        intervalMinutes: 1,
        cap: 20,
        investigationId: null,
      };
      const created = await invoke<{ id?: number; __error?: unknown }>('monitor_create', { draft });
      if (!created.id) throw new Error(`monitor_create failed: ${JSON.stringify(created.__error)}`);
    }

    const samples: { minute: number; kib: number; uss: number; processes: number; byName: Record<string, number>; answers: number }[] = [];
    const settled: number[] = [];
    const settledDirty: number[] = [];
    const swings: [number, number][] = [];
    const started = Date.now();
    let answers = 0;
    for (let minute = 0; minute < minutes; minute++) {
      const due = started + minute * 60_000;
      await browser.pause(Math.max(0, due - Date.now()));
      await ask(`Soak minute ${minute + 1}: what is new about flood defences?`);
      answers += 1;
      const { kib, uss, processes, byName } = treePssKib();
      samples.push({ minute, kib, uss, processes, byName, answers });
      const parts = Object.entries(byName)
        .map(([name, own]) => `${name} ${mib(own)}`)
        .join(', ');
      const domNodes = await browser.execute(() => document.getElementsByTagName('*').length);
      const mapped = Object.entries(webProcessByMapping())
        .map(([kind, own]) => `${kind} ${mib(own)}`)
        .join(', ');
      console.log(`soak: minute ${minute + 1}/${minutes} · PSS ${mib(kib)} MiB over ${processes} processes (${parts}) · USS ${mib(uss)} MiB · web process private dirty: ${mapped} MiB · ${domNodes} DOM elements`);
      // Every 10 s until the next minute: how far memory swings within a minute (the web
      // process's garbage collector, pages being parsed) and where it settles before the next.
      const within = [kib];
      let last = { kib, dirty: 0 };
      while (Date.now() + 10_000 < due + 60_000) {
        await browser.pause(10_000);
        last = treePssKib();
        within.push(last.kib);
      }
      settled.push(within.at(-1)!);
      settledDirty.push(last.dirty);
      swings.push([Math.min(...within), Math.max(...within)]);
      console.log(`soak:   within the minute PSS ${within.map(mib).join(' ')} MiB; private dirty at its end ${mib(last.dirty)} MiB`);
    }
    // One more minute for the last runs to finish, then the books.
    await browser.pause(Math.max(0, started + minutes * 60_000 + 30_000 - Date.now()));
    const end = treePssKib();
    samples.push({ minute: minutes, kib: end.kib, uss: end.uss, processes: end.processes, byName: end.byName, answers });

    const service = await billed();
    const spend = await invoke<{ all_time: string }>('spend_totals');
    const log = readFileSync(process.env.SIGHTLINE_SOAK_BODY_LOG as string, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line) as { method: string; target: string; status: number });
    const gets = log.filter((line) => line.method === 'GET' && line.status === 200 && !line.target.startsWith('/__sandbox'));
    const counts = new Map<string, number>();
    for (const line of gets) counts.set(line.target, (counts.get(line.target) ?? 0) + 1);
    const repeated = [...counts].filter(([, count]) => count > 1);
    const runs = await invoke<{ id: number }[]>('monitor_list');
    let runLines = 0;
    for (const monitor of runs) runLines += (await invoke<unknown[]>('monitor_runs', { id: monitor.id, limit: 10_000 })).length;
    const notifications = existsSync(process.env.SIGHTLINE_SOAK_NOTIFICATION_LOG ?? '') ? readFileSync(process.env.SIGHTLINE_SOAK_NOTIFICATION_LOG as string, 'utf8').split('\n').filter(Boolean).length : null;

    const first = samples[1] ?? samples[0]!;
    // The target reads from the tenth minute on: the growth of each later sample over it.
    const tenth = samples[Math.min(9, samples.length - 1)]!;
    const last = samples.at(-1)!;
    const peak = Math.max(...samples.map((sample) => sample.kib));
    const fromTenth = samples.slice(9);
    const maxGrowth = Math.max(...fromTenth.map((sample) => sample.kib - tenth.kib));
    const names = [...new Set(samples.flatMap((sample) => Object.keys(sample.byName)))];
    const perProcess = names.map((name) => {
      const at = (sample: (typeof samples)[number]) => sample.byName[name] ?? 0;
      const growth = Math.max(...fromTenth.map((sample) => at(sample) - at(tenth)));
      return `  ${name}: minute 10 ${mib(at(tenth))} MiB, end ${mib(at(last))} MiB, most above minute 10 +${mib(growth)} MiB; per minute ${samples.map((sample) => mib(at(sample))).join(' ')}`;
    });
    console.log(
      [
        'soak figures',
        `  minutes: ${minutes}, monitors: ${runs.length}, monitor runs logged: ${runLines}, AI answers: ${answers}, notifications: ${notifications ?? 'no log'}`,
        `  PSS of the app's process tree (MiB) per minute: ${samples.map((sample) => (sample.kib / 1024).toFixed(1)).join(' ')}`,
        `  PSS after minute 1: ${mib(first.kib)} MiB; minute 10: ${mib(tenth.kib)} MiB; at the end: ${mib(last.kib)} MiB; peak ${mib(peak)} MiB; most above minute 10: +${mib(maxGrowth)} MiB; end above minute 10: ${mib(last.kib - tenth.kib)} MiB`,
        ...perProcess,
        `  PSS settled (the last sample of each minute, ~55 s after its answer): ${settled.map(mib).join(' ')}; most above minute 10: +${mib(Math.max(...settled.slice(9).map((kib) => kib - settled[Math.min(9, settled.length - 1)]!)))} MiB`,
        `  Private dirty memory settled per minute: ${settledDirty.map(mib).join(' ')}; most above minute 10: +${mib(Math.max(...settledDirty.slice(9).map((kib) => kib - settledDirty[Math.min(9, settledDirty.length - 1)]!)))} MiB`,
        `  PSS low and high within each minute: ${swings.map(([low, high]) => `${mib(low)}-${mib(high)}`).join(' ')}`,
        `  USS (pages no other process maps) per minute: ${samples.map((sample) => mib(sample.uss)).join(' ')}; most above minute 10: +${mib(Math.max(...fromTenth.map((sample) => sample.uss - tenth.uss)))} MiB`,
        `  responses billed by the sandbox: ${service.responses.length}, total $${service.total_usd}; the app's spend: $${spend.all_time}`,
        `  X GETs answered: ${gets.length}, repeated targets: ${repeated.length}${repeated.length ? ` (${repeated.slice(0, 5).map(([target, count]) => `${count}× ${target}`).join('; ')})` : ''}`,
      ].join('\n'),
    );
    expect(nanos(spend.all_time)).toBe(nanos(service.total_usd));
    expect(repeated).toEqual([]);
  });
});
