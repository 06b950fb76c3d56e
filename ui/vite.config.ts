import { defineConfig } from 'vitest/config';
import { svelte } from '@sveltejs/vite-plugin-svelte';

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
  resolve: mode === 'test' ? { conditions: ['browser'] } : undefined,
  test: {
    environment: 'jsdom',
    include: ['src/**/*.test.ts'],
    setupFiles: ['src/test-setup.ts'],
    // Screens render whole in jsdom; on a shared two-core machine 5 s (the default) is too tight.
    testTimeout: 20_000,
  },
}));
