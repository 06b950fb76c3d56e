/**
 * What the sidebar foot and the first-run check need: the app's mode and keys, and today's
 * spend. Refreshed when any request changes the records, and after key or mode changes
 * (those commands return the new status: pass it to `setStatus`).
 */
import { appStatus, errorMessage, onRecordsChanged, spendTotals, type AppStatus } from './ipc';
import { follow } from './events';

const state = $state<{ status: AppStatus | null; today: string | null; failure: string | null }>({
  status: null,
  today: null,
  failure: null,
});

/** Read-only view for components: reading it inside a component or $derived tracks changes. */
export const appState = {
  get status() {
    return state.status;
  },
  get today() {
    return state.today;
  },
  get failure() {
    return state.failure;
  },
};

/** Takes the status a key or mode command returned, and re-reads today's spend. */
export function setStatus(status: AppStatus | null | undefined): void {
  if (status) state.status = status;
  void refreshSpend();
}

async function refreshSpend(): Promise<void> {
  try {
    const totals = await spendTotals();
    state.today = totals?.today ?? null;
  } catch {
    // Today's figure is a convenience; the Spend screen reports failures in full.
    state.today = null;
  }
}

/** Reads the mode, the keys and today's spend again. */
export async function refreshStatus(): Promise<void> {
  try {
    const status = await appStatus();
    state.status = status ?? null;
    state.failure = null;
  } catch (error) {
    state.failure = errorMessage(error);
  }
  await refreshSpend();
}

/** Loads the status and follows record changes; returns the function that stops following. */
export function startStatus(): () => void {
  void refreshStatus();
  // Without the event (no Tauri) the figures refresh on the next key or mode change.
  return follow(onRecordsChanged, () => void refreshStatus());
}
