import { describe, expect, it } from 'vitest';
import { stampWords } from './stampWords';

describe('stampWords', () => {
  it('says who stamped and that the token, not this computer, vouches for the time', () => {
    const words = stampWords({ state: 'stamped', tsa_url: 'https://freetsa.org/tsr', stamped_at: '2026-11-27T21:00:00Z', authority: 'CN=www.freetsa.org' });
    expect(words).toBe('CN=www.freetsa.org (https://freetsa.org/tsr) signed a token saying it saw this SHA-256 at that time.');
  });

  it('names the next try and, after a failure, why', () => {
    const first = stampWords({ state: 'waiting', tsa_url: 'http://tsa.test', next_try_at: '2026-11-27T21:00:00Z', attempts: 0, problem: null });
    expect(first).toContain('Waiting: http://tsa.test is asked next at');
    expect(first).not.toContain('attempt');
    const again = stampWords({ state: 'waiting', tsa_url: 'http://tsa.test', next_try_at: '2026-11-27T21:00:00Z', attempts: 2, problem: 'It could not be reached.' });
    expect(again).toContain('2 attempts so far; the last: It could not be reached.');
  });

  it('says why a stamp failed and how to ask again, and when none was asked', () => {
    expect(stampWords({ state: 'failed', tsa_url: 'http://tsa.test', attempts: 1, problem: 'It refused.' })).toBe(
      'Failed: It refused. Not asked again until you choose "Stamp now" on an investigation that holds it.',
    );
    expect(stampWords({ state: 'not_asked' })).toMatch(/^None: no timestamp authority was set/);
  });
});
