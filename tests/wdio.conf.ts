import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { isolatedEnvironment, screenshotDir, startTauriDriver, tauriDriverConfig } from './support/app.ts';
import { startSandbox, stopSandbox } from './support/sandbox.ts';
import { mountSmallDisk, unmountSmallDisk } from './support/smallDisk.ts';

let driver: ChildProcess | undefined;
let smallDisk: string | undefined;

export const config: WebdriverIO.Config = {
  ...tauriDriverConfig(),
  specs: ['./specs/**/*.e2e.ts'],
  waitforTimeout: 10_000,
  connectionRetryTimeout: 60_000,
  mochaOpts: { ui: 'bdd', timeout: 60_000 },

  onPrepare() {
    mkdirSync(screenshotDir, { recursive: true });
  },

  // One driver (and so one app with fresh folders) per spec file. A `*.live.e2e.ts` spec gets
  // its own sandbox service, and the app is pointed at it as if it were the real one.
  // A `*.disk-full.e2e.ts` spec gets its data folder on a 16 MB tmpfs it can fill.
  async beforeSession(_config, _capabilities, specs) {
    const { root, env } = isolatedEnvironment();
    // The monitors spec needs posts arriving fast (600 a minute) and the app's log of its
    // notifications (its runs are started by Run now).
    const monitors = specs.some((spec) => spec.endsWith('monitors.live.e2e.ts'));
    if (monitors) {
      process.env.SIGHTLINE_E2E_NOTIFICATION_LOG = env.SIGHTLINE_NOTIFICATION_LOG = path.join(root, 'notifications.jsonl');
    }
    if (specs.some((spec) => spec.endsWith('.live.e2e.ts'))) {
      // Every live spec may read the sandbox's log of each response it sent (the SHA-256 of the
      // bytes on the wire), to hold the app's provenance and requests against it.
      process.env.SIGHTLINE_E2E_BODY_LOG = path.join(root, 'sandbox-bodies.jsonl');
      // And the app's data folder, to read its log files.
      process.env.SIGHTLINE_E2E_DATA_DIR = env.SIGHTLINE_DATA_DIR;
      // The float-costs spec's service writes costs as a float-computing one does
      // (0.0021000000000000003, 1.5e-05), to hold Spend to the bill with the rounding rule.
      const floatCosts = specs.some((spec) => spec.endsWith('float-costs.live.e2e.ts'));
      const extra = [
        '--body-log',
        process.env.SIGHTLINE_E2E_BODY_LOG,
        ...(monitors ? ['--live-rate', '600'] : []),
        ...(floatCosts ? ['--float-costs'] : []),
      ];
      env.SIGHTLINE_BASE_URL = (await startSandbox(extra)).baseUrl;
    }
    // A `*.first-run.e2e.ts` spec gets a sandbox too, but the app is not told where: the welcome
    // asks for the address. The spec reads the data folder to see that nothing was kept.
    if (specs.some((spec) => spec.endsWith('.first-run.e2e.ts'))) {
      await startSandbox();
      process.env.SIGHTLINE_E2E_DATA_DIR = env.SIGHTLINE_DATA_DIR;
    }
    // A `*.recovery.e2e.ts` spec changes the app's database between restarts (a newer version's
    // mark, a damaged page), so it is told where the data folder is.
    if (specs.some((spec) => spec.endsWith('.recovery.e2e.ts'))) {
      process.env.SIGHTLINE_E2E_DATA_DIR = env.SIGHTLINE_DATA_DIR;
    }
    if (specs.some((spec) => spec.endsWith('.disk-full.e2e.ts'))) {
      smallDisk = env.SIGHTLINE_DATA_DIR as string;
      const refused = mountSmallDisk(smallDisk, 16 * 1024);
      if (refused) {
        process.env.SIGHTLINE_E2E_SMALL_DISK_REFUSED = refused;
        smallDisk = undefined;
      } else {
        process.env.SIGHTLINE_E2E_SMALL_DISK = env.SIGHTLINE_DATA_DIR;
      }
    }
    driver = startTauriDriver(env);
    return new Promise((resolve) => setTimeout(resolve, 1_000));
  },

  async afterSession() {
    driver?.kill();
    driver = undefined;
    await stopSandbox();
    if (smallDisk) unmountSmallDisk(smallDisk);
    smallDisk = undefined;
  },
};
