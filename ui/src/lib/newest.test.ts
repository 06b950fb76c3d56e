import { describe, expect, it } from 'vitest';
import { NewestAnswer } from './newest';

/** A read answered when the test says. */
function held<T>() {
  let answer!: (value: T) => void;
  let fail!: (error: unknown) => void;
  const promise = new Promise<T>((resolve, reject) => {
    answer = resolve;
    fail = reject;
  });
  return { read: () => promise, answer, fail };
}

describe('the newest answer', () => {
  it('drops an answer that arrives after the answer to a read asked later', async () => {
    const newest = new NewestAnswer();
    const old = held<string>();
    const recent = held<string>();
    const first = newest.take(old.read);
    const second = newest.take(recent.read);
    recent.answer('done');
    expect(await second).toEqual({ answer: 'done' });
    old.answer('running');
    expect(await first).toBeNull();
  });

  it('gives every answer that arrives in the order asked', async () => {
    const newest = new NewestAnswer();
    const old = held<number>();
    const recent = held<number>();
    const first = newest.take(old.read);
    const second = newest.take(recent.read);
    old.answer(1);
    expect(await first).toEqual({ answer: 1 });
    recent.answer(2);
    expect(await second).toEqual({ answer: 2 });
  });

  it("passes on a read's failure unless a later read has answered", async () => {
    const newest = new NewestAnswer();
    const old = held<number>();
    const recent = held<number>();
    const first = newest.take(old.read);
    const second = newest.take(recent.read);
    recent.answer(2);
    await second;
    old.fail(new Error('gone'));
    expect(await first).toBeNull();
    await expect(newest.take(() => Promise.reject(new Error('closed')))).rejects.toThrow('closed');
  });

  it('drops an answer that arrives after the failure of a read asked later: the failure stands', async () => {
    const newest = new NewestAnswer();
    const old = held<number>();
    const recent = held<number>();
    const first = newest.take(old.read);
    const second = newest.take(recent.read);
    recent.fail(new Error('closed'));
    await expect(second).rejects.toThrow('closed');
    old.answer(1);
    expect(await first).toBeNull();
  });

  it('drops the answers of reads asked before a value handed over another way', async () => {
    const newest = new NewestAnswer();
    const old = held<string>();
    const first = newest.take(old.read);
    newest.supersede();
    old.answer('before');
    expect(await first).toBeNull();
    const after = held<string>();
    const next = newest.take(after.read);
    after.answer('since');
    expect(await next).toEqual({ answer: 'since' });
  });
});
