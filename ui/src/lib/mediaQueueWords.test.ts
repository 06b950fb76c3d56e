import { describe, expect, it } from 'vitest';
import { backfillPercent, backfillWords, QUEUE_ROWS } from './mediaQueueWords';

const status = { running: true, done: false, readTo: 250, lastPk: 1000, queued: 1234 };

describe('media queue words', () => {
  it('names every state of the queue once', () => {
    expect(QUEUE_ROWS.map((row) => row.key)).toEqual(['waiting', 'kept', 'gone', 'failed', 'too_large']);
  });

  it('tells the backfill as a share of posts read, never over 100', () => {
    expect(backfillPercent(status)).toBe(25);
    expect(backfillPercent({ ...status, readTo: 1200 })).toBe(100);
    expect(backfillPercent({ ...status, done: true, readTo: 0 })).toBe(100);
    expect(backfillPercent({ ...status, lastPk: 0 })).toBe(100);
  });

  it('says whether it runs, stopped or finished', () => {
    expect(backfillWords(status)).toBe('Queueing the media of archived posts: 25% read, 1,234 pictures and videos queued so far.');
    expect(backfillWords({ ...status, running: false })).toBe('Queueing the media of archived posts stopped at 25% read; it goes on from there when started again.');
    expect(backfillWords({ ...status, running: false, done: true, queued: 1 })).toBe('The media of every archived post are queued (1 picture or video added this time).');
  });
});
