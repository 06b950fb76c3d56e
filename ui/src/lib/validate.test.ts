import { describe, expect, it } from 'vitest';
import table from '../../../crates/api/tests/fixtures/validation-cases.json';
import type { Operation } from './bindings/Operation';
import { validateRequest, type RequestOf } from './validate';

interface Case {
  name: string;
  operation: Operation;
  request: Record<string, unknown>;
  errors: Record<string, string | string[]>;
}

/** Each request type's `Default` in crates/api: what a field left out of a case stands for. */
const DEFAULTS: { [O in Operation]: RequestOf[O] } = {
  ai_search: {
    prompt: '',
    tools: [],
    count: 10,
    date_filter: 'PAST_24_HOURS',
    start_date: null,
    end_date: null,
    result_type: 'LINKS_WITH_FINAL_SUMMARY',
    system_message: null,
    scoring_system_message: null,
    streaming: false,
    model: null,
    response_order: null,
  },
  links_web: { prompt: '', tools: [], count: 10 },
  links_twitter: { prompt: '', count: 10 },
  twitter_search: {
    query: '',
    sort: 'Top',
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
    min_likes: null,
    count: 20,
  },
  twitter_urls: { urls: [] },
  twitter_post: { id: '' },
  twitter_post_user: { user: '', query: '', count: 10 },
  twitter_retweeters: { id: '', cursor: null },
  twitter_user_posts: { username: '', cursor: null },
  twitter_replies: { user: '', count: 10, query: '' },
  twitter_replies_post: { post_id: '', count: 10, query: '' },
  twitter_trends: { woeid: 1, count: 30 },
  web_search: { query: '', start: 0 },
  web_crawl: { url: '', format: 'text' },
  forecast: { query: null, title: null, description: null, cutoff: null, topics: [], agent_version_id: null },
  forecast_status: { prediction_id: '' },
};

const cases = (table as unknown as { cases: Case[] }).cases;

function byField(errors: { field: string; message: string }[]): Record<string, string[]> {
  const grouped: Record<string, string[]> = {};
  for (const { field, message } of errors) (grouped[field] ??= []).push(message);
  return grouped;
}

describe('the input rules shared with crates/api', () => {
  it.each(cases.map((c) => [`${c.operation}: ${c.name}`, c] as const))('%s', (_, c) => {
    const request = { ...DEFAULTS[c.operation], ...c.request } as RequestOf[typeof c.operation];
    const expected = Object.fromEntries(Object.entries(c.errors).map(([field, messages]) => [field, [messages].flat()]));
    expect(byField(validateRequest(c.operation, request))).toEqual(expected);
  });

  it('covers every operation with a valid request and one that breaks a rule', () => {
    for (const operation of Object.keys(DEFAULTS)) {
      const of = cases.filter((c) => c.operation === operation);
      expect(of.some((c) => Object.keys(c.errors).length === 0), operation).toBe(true);
      expect(of.some((c) => Object.keys(c.errors).length > 0), operation).toBe(true);
    }
  });
});
