import { describe, expect, it } from 'vitest';
import { operationName } from '$lib/operations';
import type { HistoryEntry } from '$lib/bindings/HistoryEntry';
import { chargeWords, originWords, postLines, receivedWords, rowQuery, shortQuery } from './describe';

describe('history wording', () => {
  it('names operations in words', () => {
    expect(operationName('twitter_search')).toBe('X search');
    expect(operationName('something_new')).toBe('something_new');
  });

  it('shortens the parameters to what was asked', () => {
    expect(shortQuery('{"query":"climate","user":"nasa","count":20}')).toBe('"climate" · @nasa');
    expect(shortQuery('{"urls":["https://x.com/a/status/1","https://x.com/b/status/2"]}')).toBe(
      'https://x.com/a/status/1, https://x.com/b/status/2',
    );
    expect(shortQuery('{"woeid":1,"count":30}')).toBe('Worldwide');
    expect(shortQuery('{"woeid":23424977,"count":30}')).toBe('United States');
    expect(shortQuery('{"woeid":4242,"count":30}')).toBe('WOEID 4242');
    expect(shortQuery(`{"prompt":"${'a'.repeat(200)}"}`, 20)).toHaveLength(20);
  });

  it('finds posts in arrays and in result objects', () => {
    const post = { id: '1', text: 'hello', user: { username: 'ada', name: 'Ada' } };
    expect(postLines([post])).toEqual([{ author: 'Ada @ada', text: 'hello' }]);
    expect(postLines({ miner_tweets: [post] })).toEqual([{ author: 'Ada @ada', text: 'hello' }]);
    expect(postLines({ trends: [] })).toBeNull();
  });

  it('shows a monitor’s or a collection’s query as written, its added bound in words', () => {
    const sent = JSON.stringify({ query: 'climate since_time:1764252309', count: 50 });
    expect(shortQuery(sent)).toBe('"climate"');
    expect(shortQuery(sent, 200, true)).toMatch(/^"climate" · posts since 27 Nov 2025, \d\d:05:09 /);
    const page = JSON.stringify({ query: 'élections until_time:1769409543' });
    expect(shortQuery(page)).toBe('"élections"');
    // A replies page whose query is only the bound.
    expect(shortQuery(JSON.stringify({ post_id: '42', query: 'since_time:1764252309' }))).toBe('42');
  });

  it('names the monitor or collection that sent a request', () => {
    expect(originWords({ kind: 'monitor', id: 3, name: 'Climate' })).toBe('Monitor: Climate');
    expect(originWords({ kind: 'collection', id: 4, name: 'Élections 2026' })).toBe('Collection: Élections 2026');
    expect(originWords({ kind: 'collection', id: 4, name: null })).toBe('A deleted collection');
    expect(originWords(null)).toBe('');
    const entry = {
      params_json: JSON.stringify({ query: 'climate since_time:1764252309' }),
      origin: { kind: 'monitor', id: 3, name: 'Climate' },
    } as HistoryEntry;
    expect(rowQuery(entry)).toBe('Monitor: Climate · "climate"');
    expect(rowQuery({ ...entry, origin: null })).toBe('"climate"');
  });

  it('tells a charge with its units and the service in words', () => {
    const billing = { cost: '0.000105', cost_text: null, usage_count: 1, service: 'x', currency: 'USD' };
    expect(chargeWords(billing)).toMatch(/^\S+ \(1 unit, X searches and lookups\)$/);
    expect(chargeWords(null)).toBe('Nothing was charged');
  });
});

describe('receivedWords', () => {
  it('says whose a received request’s cost and key were, and that Spend does not count it', () => {
    const sent = { mode: 'live', key_label: 'newsroom', billing: { cost: '0.006', cost_text: '0.006', usage_count: 20, service: 'x', currency: 'USD' } } as HistoryEntry;
    expect(receivedWords(sent)).toBeNull();
    const received = { ...sent, received_from: { name: 'Ana Ruiz', key: '3f9a'.repeat(16) } } as HistoryEntry;
    expect(receivedWords(received)).toBe(
      "Received from Ana Ruiz in a case package: sent with their key “newsroom”; $0.006 was charged to Ana Ruiz. A fact about the case, not counted in this installation's Spend or budgets.",
    );
  });
});
