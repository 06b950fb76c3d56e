// Written by crates/core/src/bindings.rs from the store's `label` of each state when the tests run. Do not edit.
import type { CollectionState } from './CollectionState';
import type { MonitorState } from './MonitorState';
import type { RunOutcome } from './RunOutcome';

/** How a run ended, in words (crates/store/src/runs.rs, RunOutcome::label). */
export const runOutcomeLabels: Record<RunOutcome, string> = {
  running: "Running",
  done: "Done",
  budget_blocked: "Stopped by the budget",
  needs_confirmation: "Waiting for your confirmation",
  skipped: "Skipped",
  rate_limited: "Asked to wait by the service",
  paused: "Paused",
  cancelled: "Cancelled",
  failed: "Failed",
};

/** Where a collection stands, in words (crates/store/src/collections.rs, CollectionState::label). */
export const collectionStateLabels: Record<CollectionState, string> = {
  running: "Collecting",
  paused: "Paused",
  done: "Done",
  cancelled: "Cancelled",
  stopped_by_budget: "Stopped by the budget",
  failed: "Stopped by an error",
};

/** Where a monitor stands, in words (crates/store/src/monitors.rs, MonitorState::label). */
export const monitorStateLabels: Record<MonitorState, string> = {
  active: "Active",
  paused: "Paused",
  budget_paused: "Paused by the budget",
  needs_confirmation: "Waiting for your confirmation",
};
