/**
 * A stand-in for the command layer in component tests: each command answers through a handler,
 * every call is recorded, and a handler throws `reject(error)` to make the command fail as
 * Rust would (with a CommandError). The archive's status, settings and cost estimates answer by
 * default. Events are mocked too: a test sends one with `emit` (@tauri-apps/api/event).
 */
import { mockIPC } from '@tauri-apps/api/mocks';
import type { CommandError } from '$lib/bindings/CommandError';
import type { ErrorKind } from '$lib/bindings/ErrorKind';
import type { Outcome } from '$lib/bindings/Outcome';
import type { User } from '$lib/bindings/User';
import { makeCheck } from './fixtures';

export type Args = Record<string, unknown> & {
  request?: Record<string, unknown>;
  historyId?: number;
  send?: { requestId: string; confirmBudget: boolean };
};
type Handler = (args: Args, call: number) => unknown;

export class Rejection {
  constructor(readonly error: CommandError) {}
}

export const reject = (error: CommandError) => new Rejection(error);

/** What answers when a test gives no handler: an open archive, settings, a cost estimate. */
const defaults: Record<string, Handler> = {
  database_status: () => ({ state: 'ready', readOnly: false, checking: false }),
  estimate_cost: () => makeCheck('0.006'),
  settings_get: () => ({ mediaSafeView: true }),
};

/** A handler's answer as the command gives it: a rejection thrown. */
function settle(answer: unknown): unknown {
  if (answer instanceof Rejection) throw answer.error;
  return answer;
}

export function mockBackend(handlers: Record<string, Handler>) {
  const calls: Record<string, Args[]> = {};
  mockIPC(
    (cmd, args) => {
      const list = (calls[cmd] ??= []);
      list.push((args ?? {}) as Args);
      const handler = handlers[cmd] ?? defaults[cmd];
      const answer = handler?.(list.at(-1) as Args, list.length);
      return answer instanceof Promise ? answer.then(settle) : settle(answer);
    },
    { shouldMockEvents: true },
  );
  return calls;
}

/**
 * A command whose answers the test can hold back, to make a read asked early answer late (after
 * one asked since), as IPC answers may. `hold()` holds the next call's answer, as it stood when
 * asked, until `release()`; the other calls answer at once.
 */
export function holdable<Asked extends unknown[]>(answer: (...asked: Asked) => unknown) {
  const held: (() => void)[] = [];
  let holdNext = false;
  const handler = (...asked: Asked): unknown => {
    const now = answer(...asked);
    if (!holdNext) return now;
    holdNext = false;
    return new Promise((resolve) => held.push(() => resolve(now)));
  };
  return {
    handler,
    hold() {
      holdNext = true;
    },
    /** How many answers are held now. */
    get held() {
      return held.length;
    },
    /** Gives the oldest answer held, and lets it reach the screen. */
    async release() {
      held.shift()?.();
      await new Promise((resolve) => setTimeout(resolve, 20));
    },
  };
}

/** An Outcome as the commands return it: billed unless `cost` is null. */
export function outcome<T>(body: T, historyId = 1, options: { cost?: string | null; hasMore?: boolean; notSaved?: string } = {}): Outcome<T> {
  const cost = options.cost === undefined ? '0.006' : options.cost;
  return {
    historyId,
    body,
    billing: cost === null ? null : { cost, cost_text: cost, usage_count: 20, service: 'x', currency: 'USD' },
    fromCache: cost === null,
    replayed: false,
    hasMore: options.hasMore ?? false,
    notSaved: options.notSaved ?? null,
  };
}

export function serviceError(kind: ErrorKind, options: { status?: number; retryAfter?: number; message?: string } = {}): CommandError {
  return {
    kind: 'service',
    message: options.message ?? `The request failed (${kind}).`,
    error: { kind, message: kind, fields: [], retry_after_secs: options.retryAfter ?? null, status: options.status ?? null, received_events: null },
  };
}

export function makeUser(index: number, overrides: Partial<User> = {}): User {
  return {
    id: `u${index}`,
    username: `reader_${index}`,
    name: `Reader ${index}`,
    url: null,
    created_at: null,
    description: `Bio of reader ${index}`,
    location: null,
    followers_count: 100 + index,
    followings_count: 10,
    favourites_count: null,
    statuses_count: null,
    listed_count: null,
    media_count: null,
    profile_image_url: null,
    profile_banner_url: null,
    verified: false,
    is_blue_verified: false,
    ...overrides,
  };
}
