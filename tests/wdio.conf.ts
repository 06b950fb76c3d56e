import { mkdirSync } from 'node:fs';
import type { ChildProcess } from 'node:child_process';
import { isolatedEnvironment, screenshotDir, startTauriDriver, tauriDriverConfig } from './support/app.ts';
import { startSandbox, stopSandbox } from './support/sandbox.ts';

let driver: ChildProcess | undefined;

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
  async beforeSession(_config, _capabilities, specs) {
    const { env } = isolatedEnvironment();
    if (specs.some((spec) => spec.endsWith('.live.e2e.ts'))) {
      env.SIGHTLINE_BASE_URL = (await startSandbox()).baseUrl;
    }
    driver = startTauriDriver(env);
    return new Promise((resolve) => setTimeout(resolve, 1_000));
  },

  async afterSession() {
    driver?.kill();
    driver = undefined;
    await stopSandbox();
  },
};
