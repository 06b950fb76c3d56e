import { defineConfig } from 'vitest/config';
import { svelte } from '@sveltejs/vite-plugin-svelte';

/** `$lib/…` and `$components/…` name the shared code from anywhere (tsconfig.json's `paths` too). */
const folder = (relative: string) => decodeURIComponent(new URL(relative, import.meta.url).pathname);
const alias = { $lib: folder('./src/lib'), $components: folder('./src/components') };

// Tauri serves the built files itself; in development it loads this dev server.
export default defineConfig(({ mode }) => ({
  plugins: [svelte()],
  clearScreen: false,
  server: { port: 5173, strictPort: true },
  build: {
    target: 'es2022',
    // Inline nothing: the CSP allows only files from the app itself.
    assetsInlineLimit: 0,
    sourcemap: false,
  },
  // Vitest runs in Node: make Svelte resolve its browser build, as in the app.
  resolve: mode === 'test' ? { alias, conditions: ['browser'] } : { alias },
  test: {
    environment: 'jsdom',
    include: ['src/**/*.test.ts'],
    setupFiles: ['src/test-setup.ts'],
    // The contrast test reads the colour tokens from app.css as text.
    css: { include: [/app\.css/] },
    // Component tests type through user-event, which is slow on the shared 2-core builder when it
    // is loaded: a generous time limit per test, so load alone never fails one.
    testTimeout: 30_000,
  },
}));
