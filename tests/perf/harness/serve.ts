/**
 * Builds the perf harness (index.html + main.ts here) with the UI's own Vite and Svelte, in
 * production mode as the app ships, and serves the result on loopback. Runs in the WebdriverIO
 * launcher (tests/perf/wdio.perf.conf.ts), so the tests project needs no copy of Vite.
 */
import { createServer, type Server } from 'node:http';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { repoRoot } from '../../support/app.ts';

const harnessDir = path.dirname(fileURLToPath(import.meta.url));
const uiDir = path.join(repoRoot, 'ui');
export const harnessOutDir = path.join(repoRoot, 'target', 'perf-harness');

const contentTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.json': 'application/json',
};

/** Loads a module from ui/node_modules (the tests project does not depend on Vite). */
async function fromUi(specifier: string, subpath: string): Promise<any> {
  const file = path.join(uiDir, 'node_modules', specifier, subpath);
  return import(pathToFileURL(file).href);
}

export async function buildHarness(): Promise<string> {
  const vite = await fromUi('vite', 'dist/node/index.js');
  const { svelte, vitePreprocess } = await fromUi('@sveltejs/vite-plugin-svelte', 'src/index.js');
  const uiEntry = path.join(uiDir, 'src', 'main.ts');
  // Bare imports from the harness ('svelte', '@tanstack/virtual-core', ...) resolve as if the UI
  // imported them, so the harness uses exactly the UI's installed packages.
  const resolveFromUi = {
    name: 'sightline-perf-resolve-from-ui',
    enforce: 'pre',
    async resolveId(this: any, id: string, importer: string | undefined, options: object) {
      if (!importer || importer.startsWith(uiDir) || /^(\.|\/|\0|[a-zA-Z]:)/.test(id)) return null;
      return this.resolve(id, uiEntry, { ...options, skipSelf: true });
    },
  };
  await vite.build({
    configFile: false,
    root: harnessDir,
    base: './',
    logLevel: 'warn',
    clearScreen: false,
    plugins: [resolveFromUi, svelte({ configFile: false, preprocess: vitePreprocess() })],
    build: {
      outDir: harnessOutDir,
      emptyOutDir: true,
      target: 'es2022',
      assetsInlineLimit: 0,
      sourcemap: false,
      // The compile-time report is noise here: the figures that matter come from the webview.
      rolldownOptions: {
        checks: { bundlerTimings: false },
        // Two pages: the post list (index.html) and the network (network.html).
        input: { index: path.join(harnessDir, 'index.html'), network: path.join(harnessDir, 'network.html') },
      },
    },
  });
  return harnessOutDir;
}

/** Serves `dir` on 127.0.0.1 (a free port); resolves with its base URL. */
export async function serveDirectory(dir: string): Promise<{ url: string; server: Server }> {
  const server = createServer((request, response) => {
    const pathname = decodeURIComponent(new URL(request.url ?? '/', 'http://127.0.0.1').pathname);
    const file = path.join(dir, pathname === '/' ? 'index.html' : pathname);
    if (!file.startsWith(dir + path.sep)) {
      response.writeHead(403).end();
      return;
    }
    readFile(file).then(
      (body) => {
        response.writeHead(200, {
          'content-type': contentTypes[path.extname(file)] ?? 'application/octet-stream',
          'cache-control': 'no-store',
        });
        response.end(body);
      },
      () => response.writeHead(404).end(),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('perf harness: no server address');
  return { url: `http://127.0.0.1:${address.port}/`, server };
}
