/**
 * A standalone sandbox service for specs that use a real key instead of demo mode
 * (`*.live.e2e.ts`). wdio.conf starts it before the app, so the app's SIGHTLINE_BASE_URL can
 * point at it; the spec reads its address and key here, asks it what it billed, and can stop it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { repoRoot } from './app.ts';

export interface RunningSandbox {
  baseUrl: string;
  /** The key this sandbox accepts (its demo key, printed at start). */
  key: string;
  process: ChildProcess;
}

let running: RunningSandbox | null = null;

export function sandboxBinary(): string {
  const binary = process.env.SIGHTLINE_SANDBOX ?? path.join(repoRoot, 'target', 'debug', 'sightline-sandbox');
  if (!existsSync(binary)) throw new Error(`No sandbox binary at ${binary}: build it first (make e2e does).`);
  return binary;
}

/**
 * Starts the sandbox on a free loopback port and waits for the address and key it prints.
 * `extraArgs` go after the usual ones (a spec's own `--live-rate`, `--body-log`).
 */
export function startSandbox(extraArgs: string[] = []): Promise<RunningSandbox> {
  const child = spawn(sandboxBinary(), ['--port', '0', '--faults', '--pace-ms', '40', ...extraArgs], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    const printed: Record<string, string> = {};
    const timer = setTimeout(() => reject(new Error('The sandbox did not start within 20 s')), 20_000);
    child.on('error', reject);
    child.on('exit', (code) => reject(new Error(`The sandbox exited early (code ${code})`)));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const [name, ...rest] = line.split('=');
      if (name) printed[name.trim()] = rest.join('=').trim();
      if (printed.base_url && printed.demo_key) {
        clearTimeout(timer);
        running = { baseUrl: printed.base_url, key: printed.demo_key, process: child };
        resolve(running);
      }
    });
  });
}

export function sandbox(): RunningSandbox {
  if (!running) throw new Error('No sandbox is running: only *.live.e2e.ts specs get one');
  return running;
}

/** Stops the sandbox and waits until it has exited: the app then has no service to reach. */
export async function stopSandbox(): Promise<void> {
  const current = running;
  running = null;
  if (!current || current.process.exitCode !== null) return;
  const exited = new Promise((resolve) => current.process.once('exit', resolve));
  current.process.kill('SIGTERM');
  await exited;
}

/** What the sandbox says it billed: every cost header as sent, and their exact sum. */
export async function billed(): Promise<{ responses: { route: string; cost_usd: string }[]; total_usd: string }> {
  const response = await fetch(`${sandbox().baseUrl}/__sandbox/billed`);
  if (!response.ok) throw new Error(`GET /__sandbox/billed answered ${response.status}`);
  return (await response.json()) as { responses: { route: string; cost_usd: string }[]; total_usd: string };
}

/** Queues faults on a route of the sandbox (see crates/sandbox/README.md, "Fault injection"). */
export async function queueFault(route: string, fault: Record<string, unknown>): Promise<void> {
  const response = await fetch(`${sandbox().baseUrl}/__sandbox/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ route, fault }),
  });
  if (response.status !== 201) throw new Error(`the sandbox refused the fault: ${response.status} ${await response.text()}`);
}
