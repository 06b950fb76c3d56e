/**
 * A second installation on the same computer, for specs that hand something from one person to
 * another (a case package). tauri-driver starts the app it is given with its own environment,
 * which a capability cannot change; so the second installation is the same binary behind a small
 * script that points it at folders of its own (data, HOME, XDG) and a keychain of its own (a
 * D-Bus session bus and GNOME Keyring started here), then `exec`s it. A spec switches between
 * the two with `browser.reloadSession`: one app runs at a time, each keeping its data across the
 * switch, as two colleagues' computers would.
 */
import { browser } from '@wdio/globals';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { appBinary, isolatedEnvironment } from './app.ts';

export interface SecondMachine {
  /** The script tauri-driver starts instead of the app. */
  launcher: string;
  /** Its data folder. */
  dataDir: string;
  /** Stops its bus and keyring (after the last session on it). */
  stop: () => void;
}

function waitFor(file: string, what: string): void {
  const until = Date.now() + 10_000;
  while (!existsSync(file)) {
    if (Date.now() > until) throw new Error(`${what} did not start within 10 s`);
    execFileSync('sleep', ['0.1']);
  }
}

/** Sets up the second installation's folders, bus and keychain, and the script that starts it. */
export function secondMachine(): SecondMachine {
  const { root, env } = isolatedEnvironment();
  const runtime = path.join(root, 'runtime');
  mkdirSync(runtime, { recursive: true, mode: 0o700 });
  const socket = path.join(runtime, 'bus');
  const bus: ChildProcess = spawn('dbus-daemon', ['--session', '--nofork', `--address=unix:path=${socket}`], {
    stdio: 'ignore',
  });
  waitFor(socket, 'The second installation’s session bus');
  const own = {
    HOME: env.HOME as string,
    XDG_CONFIG_HOME: env.XDG_CONFIG_HOME as string,
    XDG_CACHE_HOME: env.XDG_CACHE_HOME as string,
    XDG_STATE_HOME: env.XDG_STATE_HOME as string,
    XDG_DATA_HOME: env.XDG_DATA_HOME as string,
    XDG_RUNTIME_DIR: runtime,
    SIGHTLINE_DATA_DIR: env.SIGHTLINE_DATA_DIR as string,
    DBUS_SESSION_BUS_ADDRESS: `unix:path=${socket}`,
  };
  // As scripts/with-keyring.sh does: an unlocked login keyring, then the Secret Service on it.
  const keyringEnv = { ...process.env, ...own };
  const unlocked = execFileSync('gnome-keyring-daemon', ['--unlock', '--components=secrets'], {
    env: keyringEnv,
    input: 'sightline-tests',
  }).toString();
  const started = execFileSync('gnome-keyring-daemon', ['--start', '--components=secrets'], { env: keyringEnv }).toString();
  const printed = Object.fromEntries(
    `${unlocked}\n${started}`
      .split('\n')
      .map((line) => line.trim().split('='))
      .filter(([name, value]) => name && value),
  ) as Record<string, string>;
  const keyringPid = Number(printed.GNOME_KEYRING_PID);
  const vars = { ...own, GNOME_KEYRING_CONTROL: printed.GNOME_KEYRING_CONTROL ?? '' };
  const launcher = path.join(root, 'second-installation.sh');
  const exports = Object.entries(vars)
    .map(([name, value]) => `export ${name}='${value}'`)
    .join('\n');
  writeFileSync(launcher, `#!/bin/sh\n${exports}\nexec '${appBinary()}' "$@"\n`);
  chmodSync(launcher, 0o755);
  return {
    launcher,
    dataDir: own.SIGHTLINE_DATA_DIR,
    stop: () => {
      if (keyringPid > 0) {
        try {
          process.kill(keyringPid);
        } catch {
          // Already gone.
        }
      }
      bus.kill();
    },
  };
}

/** Quits the app running now and starts the installation behind `application` in its place. */
export async function switchTo(application: string): Promise<void> {
  // @ts-expect-error tauri:options is tauri-driver's own capability.
  await browser.reloadSession({ 'tauri:options': { application } });
}

/** The first installation: the app as wdio.conf.ts starts it. */
export const firstMachine = () => appBinary();
