/** Investigations as the commands return them, for component tests. */
import type { InvestigationSummary } from '$lib/bindings/InvestigationSummary';
import type { InvestigationDetail } from '$lib/bindings/InvestigationDetail';

export function makeInvestigation(overrides: Partial<InvestigationSummary> = {}): InvestigationSummary {
  return {
    id: 1,
    name: 'Flood response',
    description: 'Who said what about the dam',
    created_at: '2026-11-20T09:00:00Z',
    updated_at: '2026-11-23T18:04:12Z',
    archived: false,
    media_full_view: false,
    request_count: 3,
    post_count: 42,
    cost: '0.0123',
    ...overrides,
  };
}

export function makeDetail(overrides: Partial<InvestigationDetail> = {}): InvestigationDetail {
  return {
    summary: makeInvestigation(),
    notebook: '',
    cost: {
      total: '0.0123',
      by_day: [
        { day: '2026-11-21', cost: '0.0003', requests: 1 },
        { day: '2026-11-23', cost: '0.012', requests: 2 },
      ],
      by_operation: [
        { operation: 'twitter_search', cost: '0.012', requests: 2 },
        { operation: 'twitter_post', cost: '0.0003', requests: 1 },
      ],
    },
    zone: 'Europe/Lisbon',
    tags: [{ tag: 'dam', count: 3 }],
    latest_check: null,
    ...overrides,
  };
}
