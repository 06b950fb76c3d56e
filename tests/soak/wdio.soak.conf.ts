/**
 * The monitors soak (a measurement, not a test of the suite: `scripts/soak-monitors.sh` runs it,
 * never `make test`): the real app under tauri-driver against a standalone sandbox with a live
 * trickle and a body log, monitors allowed to run every minute (the test-only minimum-interval hook).
 * SOAK_MINUTES sets its length (30 by default).
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { isolatedEnvironment, screenshotDir, startTauriDriver, tauriDriverConfig } from '../support/app.ts';
import { startSandbox, stopSandbox } from '../support/sandbox.ts';

let driver: ChildProcess | undefined;
const minutes = Number(process.env.SOAK_MINUTES ?? 30);

export const config: WebdriverIO.Config = {
  ...tauriDriverConfig(),
  specs: ['./monitors.soak.ts'],
  waitforTimeout: 30_000,
  connectionRetryTimeout: 120_000,
  mochaOpts: { ui: 'bdd', timeout: (minutes + 10) * 60_000 },

  onPrepare() {
    mkdirSync(screenshotDir, { recursive: true });
  },

  async beforeSession() {
    const { root, env } = isolatedEnvironment();
    process.env.SIGHTLINE_SOAK_BODY_LOG = path.join(root, 'sandbox-bodies.jsonl');
    // The test hook that lets a monitor run every minute (the app's own minimum is 15).
    env.SIGHTLINE_MONITOR_MIN_INTERVAL = '1';
    // Set for the spec too: it counts the notifications the app recorded.
    process.env.SIGHTLINE_SOAK_NOTIFICATION_LOG = env.SIGHTLINE_NOTIFICATION_LOG = path.join(root, 'notifications.jsonl');
    // 12 posts a minute (the sandbox's own default), so each of the ten monitors finds some.
    env.SIGHTLINE_BASE_URL = (await startSandbox(['--live-rate', '12', '--body-log', process.env.SIGHTLINE_SOAK_BODY_LOG])).baseUrl;
    driver = startTauriDriver(env);
    return new Promise((resolve) => setTimeout(resolve, 1_000));
  },

  async afterSession() {
    driver?.kill();
    driver = undefined;
    await stopSandbox();
  },
};
