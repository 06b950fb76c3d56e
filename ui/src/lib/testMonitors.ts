/** Monitors, collections and run log lines as the commands return them, for component tests. */
import type { Collection } from '$lib/bindings/Collection';
import type { Monitor } from '$lib/bindings/Monitor';
import type { MonitorEstimate } from '$lib/bindings/MonitorEstimate';
import type { RunLogEntry } from '$lib/bindings/RunLogEntry';

export function makeMonitor(overrides: Partial<Monitor> = {}): Monitor {
  return {
    id: 1,
    name: 'Storm watch',
    target: {
      kind: 'search',
      request: {
        query: '#StormEowyn',
        sort: 'Latest',
        count: 20,
        user: null,
        start_date: null,
        end_date: null,
        lang: null,
        verified: null,
        blue_verified: null,
        is_quote: null,
        is_video: null,
        is_image: null,
        min_retweets: null,
        min_replies: null,
        min_likes: '10',
      },
    },
    intervalMinutes: 60,
    cap: 20,
    investigationId: null,
    state: 'active',
    stateReason: null,
    nextRunAt: '2026-11-23T18:15:00Z',
    lastRunAt: '2026-11-23T17:15:00Z',
    running: false,
    unseen: 3,
    createdAt: '2026-11-20T09:00:00Z',
    ...overrides,
  };
}

export function makeEstimate(overrides: Partial<MonitorEstimate> = {}): MonitorEstimate {
  return {
    perRun: '0.003',
    perMonth: '2.16',
    currency: 'USD',
    runsPerMonth: 720,
    shareOfMonthlyBudget: '21.6',
    monthlyLimit: '10',
    budget: { verdict: 'allow', estimate: '0.003', warn_percent: 80, daily: null, monthly: null },
    ...overrides,
  };
}

export function makeRun(overrides: Partial<RunLogEntry> = {}): RunLogEntry {
  return { id: 1, startedAt: '2026-11-23T17:15:00Z', finishedAt: '2026-11-23T17:15:02Z', outcome: 'done', newItems: 4, requests: 1, cost: '0.00060', error: null, ...overrides };
}

export function makeCollection(overrides: Partial<Collection> = {}): Collection {
  return {
    id: 7,
    name: '#flood, 300 posts',
    source: { kind: 'search', request: { ...(makeMonitor().target.request as Extract<Monitor['target'], { kind: 'search' }>['request']), query: '#flood', min_likes: null } },
    until: { kind: 'count', items: 300 },
    investigationId: null,
    state: 'running',
    stopReason: null,
    items: 120,
    pages: 6,
    cost: '0.018',
    estimatedToFinish: '0.027',
    needsConfirmation: false,
    createdAt: '2026-11-23T17:00:00Z',
    updatedAt: '2026-11-23T17:01:00Z',
    ...overrides,
  };
}
