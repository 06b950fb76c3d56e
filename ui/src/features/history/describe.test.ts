import { describe, expect, it } from 'vitest';
import { operationName } from '$lib/operations';
import { postLines, shortQuery } from './describe';

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
});
