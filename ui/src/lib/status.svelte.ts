/**
 * What the sidebar foot and the first-run check need: the app's mode and keys, and today's
 * spend. Refreshed when any request changes the records, and after key or mode changes
 * (those commands return the new status: pass it to `setStatus`).
 */
import { appStatus, errorMessage, onRecordsChanged, spendTotals, type AppStatus } from './ipc';
import { follow } from './events';
import { NewestAnswer } from './newest';

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

// The status and today's spend are read again on each records change (and the spend after each
// key or mode change): a read asked before a change can answer after the one asked since. Only
// the newest answer of each stands, or the sidebar would keep the old figure.
const statusReads = new NewestAnswer();
const spendReads = new NewestAnswer();

/** Takes the status a key or mode command returned, and re-reads today's spend. */
export function setStatus(status: AppStatus | null | undefined): void {
  if (status) {
    state.status = status;
    // At least as new as any status read asked before it came: such a read answering late
    // cannot put the old keys or mode back.
    statusReads.supersede();
  }
  void refreshSpend();
}

async function refreshSpend(): Promise<void> {
  try {
    const read = await spendReads.take(spendTotals);
    if (!read) return;
    state.today = read.answer?.today ?? null;
  } catch {
    // Today's figure is a convenience; the Spend screen reports failures in full.
    state.today = null;
  }
}

/** Reads the mode, the keys and today's spend again. */
export async function refreshStatus(): Promise<void> {
  try {
    const read = await statusReads.take(appStatus);
    if (read) {
      state.status = read.answer ?? null;
      state.failure = null;
    }
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
