import { describe, expect, it, vi } from 'vitest';
import { applyTheme, resolveTheme } from './theme';

function fakeMatchMedia(dark: boolean) {
  const listeners = new Set<() => void>();
  const media = {
    matches: dark,
    addEventListener: (_: string, listener: () => void) => listeners.add(listener),
    removeEventListener: (_: string, listener: () => void) => listeners.delete(listener),
  };
  vi.stubGlobal('matchMedia', () => media);
  return {
    media,
    listeners,
    flip(next: boolean) {
      media.matches = next;
      listeners.forEach((listener) => listener());
    },
  };
}

describe('theme', () => {
  it('follows the system unless the user picked a theme', () => {
    expect(resolveTheme('system', true)).toBe('dark');
    expect(resolveTheme('system', false)).toBe('light');
    expect(resolveTheme('light', true)).toBe('light');
    expect(resolveTheme('dark', false)).toBe('dark');
  });

  it('tracks system changes while on "system", and stops when asked', () => {
    const system = fakeMatchMedia(false);
    const root = document.createElement('html');
    const stop = applyTheme('system', root);
    expect(root.dataset.theme).toBe('light');
    system.flip(true);
    expect(root.dataset.theme).toBe('dark');
    stop();
    expect(system.listeners.size).toBe(0);
  });

  it('does not listen when a theme is fixed', () => {
    const system = fakeMatchMedia(true);
    const root = document.createElement('html');
    applyTheme('light', root);
    expect(root.dataset.theme).toBe('light');
    expect(system.listeners.size).toBe(0);
  });
});
