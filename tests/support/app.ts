/**
 * How the end-to-end suite starts the real app: tauri-driver (which drives WebKitWebDriver) with
 * the built binary, in throw-away HOME and XDG folders so no run sees another's data.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
// SIGHTLINE_E2E_SCREENSHOTS keeps one run's pictures apart (the installed package's smoke run).
export const screenshotDir =
  process.env.SIGHTLINE_E2E_SCREENSHOTS ?? path.join(repoRoot, 'target', 'e2e-screenshots');

/** The binary `make e2e` builds: a debug build with the UI embedded (custom-protocol). */
export function appBinary(): string {
  const binary = process.env.SIGHTLINE_APP ?? path.join(repoRoot, 'target', 'debug', 'sightline');
  if (!existsSync(binary)) {
    throw new Error(`No app binary at ${binary}: build it first (make e2e does).`);
  }
  return binary;
}

/**
 * What every wdio config here shares: the app under tauri-driver on loopback, one session at a
 * time, mocha with the spec reporter. Each config adds its specs, timeouts and session hooks.
 */
export function tauriDriverConfig(): WebdriverIO.Config {
  return {
    runner: 'local',
    maxInstances: 1,
    // tauri-driver listens here; sending browserName would make WebdriverIO fetch a browser.
    hostname: '127.0.0.1',
    port: 4444,
    capabilities: [
      {
        // @ts-expect-error tauri:options is tauri-driver's own capability.
        'tauri:options': { application: appBinary() },
      },
    ],
    logLevel: 'warn',
    bail: 0,
    connectionRetryCount: 2,
    framework: 'mocha',
    reporters: ['spec'],
    specs: [],
  };
}

/** Fresh folders for one app session, plus the environment that points the app at them. */
export function isolatedEnvironment(): { root: string; env: NodeJS.ProcessEnv } {
  const root = mkdtempSync(path.join(tmpdir(), 'sightline-e2e-'));
  const dirs = {
    HOME: path.join(root, 'home'),
    XDG_CONFIG_HOME: path.join(root, 'config'),
    XDG_CACHE_HOME: path.join(root, 'cache'),
    XDG_STATE_HOME: path.join(root, 'state'),
    // The webview keeps its local storage here (the welcome's "answered" flag among it).
    XDG_DATA_HOME: path.join(root, 'share'),
    SIGHTLINE_DATA_DIR: path.join(root, 'data'),
  };
  Object.values(dirs).forEach((dir) => mkdirSync(dir, { recursive: true }));
  // XDG_RUNTIME_DIR and the D-Bus address stay as scripts/with-keyring.sh set them: the keyring
  // daemon of this test session is reached through them.
  return { root, env: { ...process.env, ...dirs } };
}

export function tauriDriverBinary(): string {
  const cargoHome = process.env.CARGO_HOME ?? path.join(process.env.HOME ?? '', '.cargo');
  return process.env.TAURI_DRIVER ?? path.join(cargoHome, 'bin', 'tauri-driver');
}

export function startTauriDriver(env: NodeJS.ProcessEnv): ChildProcess {
  const driver = spawn(tauriDriverBinary(), [], { env, stdio: ['ignore', 'inherit', 'inherit'] });
  driver.on('error', (error) => {
    console.error(`tauri-driver failed to start: ${error.message}`);
  });
  return driver;
}
