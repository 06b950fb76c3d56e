/**
 * The forecast being watched on the screen: asked (the billed request, with the budget warning's
 * resend under the same request id), then each step the core reports for its job. The job runs
 * in the core, not here: leaving the screen or closing the app loses nothing.
 */
import { forecast, onForecastUpdate } from '$lib/ipc';
import { follow } from '$lib/events';
import type { Billing } from '$lib/bindings/Billing';
import type { ForecastJob } from '$lib/bindings/ForecastJob';
import type { ForecastRequest } from '$lib/bindings/ForecastRequest';
import type { ForecastState } from '$lib/bindings/ForecastState';
import type { ForecastUpdate } from '$lib/bindings/ForecastUpdate';
import { asCommandError } from '$lib/ipc';
import { RequestLifecycle } from '$lib/request.svelte';

/** One forecast as the screen shows it. */
export interface Watched {
  historyId: number;
  status: ForecastState;
  job: ForecastJob | null;
  following: boolean;
  problem: string | null;
  /** When it was asked (ms since the epoch), for the elapsed time. */
  since: number;
  billing: Billing | null;
}

export class ForecastRun extends RequestLifecycle<ForecastRequest> {
  busy = $state(false);
  watched = $state<Watched | null>(null);

  /** Starts listening for steps; returns the way to stop. */
  listen(): () => void {
    return follow(onForecastUpdate, (update) => this.apply(update));
  }

  /** Shows another forecast (one re-opened from the list). */
  show(watched: Watched): void {
    this.watched = watched;
  }

  apply(update: ForecastUpdate): void {
    const current = this.watched;
    if (!current || current.historyId !== update.historyId) return;
    this.watched = {
      ...current,
      status: update.status,
      job: update.job ?? current.job,
      following: update.following,
      problem: update.problem,
    };
  }

  protected async go(confirmBudget: boolean): Promise<void> {
    if (this.request === null) return;
    this.busy = true;
    this.error = null;
    try {
      const started = await forecast(this.request, { requestId: this.requestId, confirmBudget });
      // A step may already have arrived for it: keep the newer state.
      if (this.watched?.historyId !== started.historyId) {
        this.watched = {
          historyId: started.historyId,
          status: 'PENDING',
          job: null,
          following: true,
          problem: null,
          since: Date.now(),
          billing: started.billing,
        };
      }
    } catch (error) {
      this.error = asCommandError(error);
    } finally {
      this.busy = false;
    }
  }
}
