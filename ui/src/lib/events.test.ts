import { describe, expect, it, vi } from 'vitest';
import { follow } from './events';

/** An `on…` function whose listener is put in place when the test says so. */
function fakeSubscribe() {
  let handler: ((payload: number) => void) | null = null;
  let place!: () => void;
  let fail!: (error: unknown) => void;
  const unlisten = vi.fn(() => {
    handler = null;
  });
  const placed = new Promise<() => void>((resolve, reject) => {
    place = () => resolve(unlisten);
    fail = reject;
  });
  const subscribe = (given: (payload: number) => void) => {
    handler = given;
    return placed;
  };
  return { subscribe, unlisten, place, fail, emit: (payload: number) => handler?.(payload) };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('follow', () => {
  it('hands each event to the handler until cleanup, which removes the listener once', async () => {
    const event = fakeSubscribe();
    const seen: number[] = [];
    const stop = follow(event.subscribe, (payload) => seen.push(payload));
    event.place();
    await settle();
    event.emit(1);
    stop();
    stop();
    event.emit(2);
    expect(seen).toEqual([1]);
    expect(event.unlisten).toHaveBeenCalledTimes(1);
  });

  it('removes a listener that is put in place only after cleanup, and never calls the handler', async () => {
    const event = fakeSubscribe();
    const handler = vi.fn();
    const stop = follow(event.subscribe, handler);
    stop();
    event.emit(1);
    event.place();
    await settle();
    expect(event.unlisten).toHaveBeenCalledTimes(1);
    expect(handler).not.toHaveBeenCalled();
  });

  it('fails quietly, telling the caller, when there is no event to follow', async () => {
    const event = fakeSubscribe();
    const unavailable = vi.fn();
    const stop = follow(event.subscribe, vi.fn(), unavailable);
    event.fail(new Error('no Tauri'));
    await settle();
    expect(unavailable).toHaveBeenCalledTimes(1);
    expect(() => stop()).not.toThrow();
    expect(event.unlisten).not.toHaveBeenCalled();
  });
});
