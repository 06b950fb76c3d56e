/**
 * Performance measurements (not tests: they print figures and assert nothing about time) on the
 * real app under tauri-driver, like the e2e suite. Run through scripts/bench-screens.sh, which
 * seeds the database and starts Xvfb and the keyring; or `npm --prefix tests run perf` inside
 * such an environment.
 *
 * - Each session gets fresh HOME/XDG folders and a data folder holding a copy of the seeded
 *   database as demo.db (the app with no key stored opens <SIGHTLINE_DATA_DIR>/demo.db).
 * - The launcher builds the 10,000-post harness (tests/perf/harness) with the UI's Vite and
 *   serves it on loopback; post-list.perf.ts opens it in the app's own webview.
 */
import { copyFileSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { ChildProcess } from 'node:child_process';
import type { Server } from 'node:http';
import { isolatedEnvironment, repoRoot, screenshotDir, startTauriDriver, tauriDriverConfig } from '../support/app.ts';
import { buildHarness, serveDirectory } from './harness/serve.ts';

/** The seeded database (crates/store/examples/seed.rs) copied into every session. */
const seededDatabase = process.env.SIGHTLINE_PERF_DB ?? path.join(repoRoot, 'target', 'perf-data', 'demo.db');

let driver: ChildProcess | undefined;
let sessionRoot: string | undefined;
let harnessServer: Server | undefined;

export const config: WebdriverIO.Config = {
  ...tauriDriverConfig(),
  specs: ['./*.perf.ts'],
  waitforTimeout: 30_000,
  connectionRetryTimeout: 120_000,
  mochaOpts: { ui: 'bdd', timeout: 600_000 },

  async onPrepare() {
    mkdirSync(screenshotDir, { recursive: true });
    if (!existsSync(seededDatabase)) {
      throw new Error(
        `No seeded database at ${seededDatabase}: run scripts/bench-screens.sh, or ` +
          'cargo run --release -p sightline-store --example seed -- <path> --history 100000 --days 365',
      );
    }
    const served = await serveDirectory(await buildHarness());
    harnessServer = served.server;
    // Workers are started after onPrepare and inherit the launcher's environment.
    process.env.SIGHTLINE_PERF_HARNESS_URL = served.url;
  },

  onComplete() {
    harnessServer?.close();
  },

  // One driver (and so one app) per spec file, with its own copy of the seeded database.
  beforeSession() {
    const { root, env } = isolatedEnvironment();
    sessionRoot = root;
    const dataDir = env.SIGHTLINE_DATA_DIR as string;
    // The seed checkpoints and closes, so the main file holds everything; copy a WAL if one is left.
    for (const suffix of ['', '-wal']) {
      if (existsSync(seededDatabase + suffix)) copyFileSync(seededDatabase + suffix, path.join(dataDir, `demo.db${suffix}`));
    }
    driver = startTauriDriver(env);
    return new Promise((resolve) => setTimeout(resolve, 1_000));
  },

  afterSession() {
    driver?.kill();
    driver = undefined;
    // Each session holds a copy of the seeded database: do not leave them behind.
    if (sessionRoot) rmSync(sessionRoot, { recursive: true, force: true });
    sessionRoot = undefined;
  },
};
