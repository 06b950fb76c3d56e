import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/svelte';
import { clearMocks } from '@tauri-apps/api/mocks';
import { afterEach } from 'vitest';

afterEach(() => {
  cleanup();
  clearMocks();
  window.location.hash = '';
});
