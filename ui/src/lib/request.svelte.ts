/**
 * One form's request lifecycle: sending, the outcome, the error, and the budget-warning resend.
 * A warning is accepted by resending with `confirmBudget` and the SAME request id, so the
 * command layer knows it is the same request; a retry after a failure is a new request.
 */
import { asCommandError, newRequestId, type SendOptions } from './ipc';
import type { CommandError } from './bindings/CommandError';
import type { Outcome } from './bindings/Outcome';

/**
 * What every request form shares: the request and its id, and the four things a user can do
 * with it. A subclass says how one attempt goes (`go`), with the budget confirmed or not.
 */
export abstract class RequestLifecycle<Req> {
  error = $state<CommandError | null>(null);
  protected requestId = '';
  protected request: Req | null = null;

  /** A new request: a new id, so it is sent and billed. */
  run(request: Req): Promise<void> {
    this.request = request;
    this.requestId = newRequestId();
    return this.go(false);
  }

  /** The user accepted the budget warning: the same request, confirmed. */
  confirm(): Promise<void> {
    return this.go(true);
  }

  /** A new request with the same fields (a retry is a new request, billed again). */
  retry(): Promise<void> {
    return this.request === null ? Promise.resolve() : this.run(this.request);
  }

  dismiss(): void {
    this.error = null;
  }

  protected abstract go(confirmBudget: boolean): Promise<void>;
}

/** A form whose request is one command returning one outcome. */
export class RequestRunner<Req, Res> extends RequestLifecycle<Req> {
  busy = $state(false);
  outcome = $state<Outcome<Res> | null>(null);

  constructor(private readonly send: (request: Req, options: SendOptions) => Promise<Outcome<Res>>) {
    super();
  }

  protected async go(confirmBudget: boolean): Promise<void> {
    if (this.request === null) return;
    this.busy = true;
    this.error = null;
    try {
      this.outcome = await this.send(this.request, { requestId: this.requestId, confirmBudget });
    } catch (error) {
      this.error = asCommandError(error);
    } finally {
      this.busy = false;
    }
  }
}

/** Field messages from a local `invalid` error or the service's 422, keyed by request field. */
export function fieldErrors(error: CommandError | null): Record<string, string> {
  const fields = error?.kind === 'invalid' ? error.fields : error?.kind === 'service' ? error.error.fields : [];
  const map: Record<string, string> = {};
  for (const { field, message } of fields) map[field] ??= message;
  return map;
}
