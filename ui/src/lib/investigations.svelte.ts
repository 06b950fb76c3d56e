/**
 * The investigations every screen can see: the list (for "Add to…" and the sidebar's picker) and
 * which one is active (its requests are filed under it). Read again when any request changes
 * the records, and after each change made here.
 */
import type { InvestigationSummary } from './bindings/InvestigationSummary';
import { errorMessage, investigationActive, investigationCreate, investigationList, investigationSetActive, onRecordsChanged } from './ipc';
import { follow } from './events';
import { NewestAnswer } from './newest';

const state = $state<{ list: InvestigationSummary[]; activeId: number | null; loaded: boolean; failure: string | null }>({
  list: [],
  activeId: null,
  loaded: false,
  failure: null,
});

/** Read-only view for components. `list` holds the open (not archived) investigations, newest first. */
export const investigations = {
  get list() {
    return state.list;
  },
  get activeId() {
    return state.activeId;
  },
  get active(): InvestigationSummary | null {
    return state.list.find((investigation) => investigation.id === state.activeId) ?? null;
  },
  get loaded() {
    return state.loaded;
  },
  get failure() {
    return state.failure;
  },
};

// Read again on each change from here and on each records change: a read asked before a change
// can answer after the one asked since. Only the newest answer stands, or the old list would stay.
const newest = new NewestAnswer();

export async function refreshInvestigations(): Promise<void> {
  try {
    const read = await newest.take(() => Promise.all([investigationList(false), investigationActive()]));
    if (!read) return;
    const [list, activeId] = read.answer;
    state.list = list ?? [];
    state.activeId = activeId ?? null;
    state.failure = null;
  } catch (error) {
    state.failure = errorMessage(error);
  } finally {
    state.loaded = true;
  }
}

/** Files every request from now on under `id` (or under none). Rejects with the command's error. */
export async function setActiveInvestigation(id: number | null): Promise<void> {
  await investigationSetActive(id);
  state.activeId = id;
  await refreshInvestigations();
}

/** A new investigation, listed at once; resolves with it. */
export async function createInvestigation(name: string, description = ''): Promise<InvestigationSummary> {
  const created = await investigationCreate(name.trim(), description.trim());
  await refreshInvestigations();
  return created;
}

/** Loads the list and follows record changes; returns the function that stops following. */
export function startInvestigations(): () => void {
  void refreshInvestigations();
  // Without the event (no Tauri) the list refreshes on the next change made from here.
  return follow(onRecordsChanged, () => void refreshInvestigations());
}
