/**
 * The one typed wrapper around every Rust command. Screens call these functions, never `invoke`.
 * Types come from Rust through ts-rs (src/lib/bindings), so both sides agree by construction.
 */
import { invoke } from '@tauri-apps/api/core';
import type { AppInfo } from './bindings/AppInfo';

export type { AppInfo } from './bindings/AppInfo';
export type { KeychainStatus } from './bindings/KeychainStatus';

/** Version, data folder and keychain reachability, for Settings. */
export function appInfo(): Promise<AppInfo> {
  return invoke<AppInfo>('app_info');
}

/** Turns whatever a failed command threw into a sentence for the UI. */
export function errorMessage(error: unknown): string {
  if (typeof error === 'string') return error;
  if (error instanceof Error) return error.message;
  if (error && typeof error === 'object' && 'message' in error && typeof error.message === 'string') {
    return error.message;
  }
  return 'Something went wrong, and the app could not say what.';
}
