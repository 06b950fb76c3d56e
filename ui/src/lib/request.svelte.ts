/**
 * One form's request lifecycle: sending, the outcome, the error, and the budget-warning resend.
 * A warning is accepted by resending with `confirmBudget` and the SAME request id, so the
 * command layer knows it is the same request; a retry after a failure is a new request.
 */
import { asCommandError, newRequestId, type SendOptions } from './ipc';
import type { CommandError } from './bindings/CommandError';
import type { Outcome } from './bindings/Outcome';

export class RequestRunner<Req, Res> {
  busy = $state(false);
  error = $state<CommandError | null>(null);
  outcome = $state<Outcome<Res> | null>(null);
  private requestId = '';
  private request: Req | null = null;

  constructor(private readonly send: (request: Req, options: SendOptions) => Promise<Outcome<Res>>) {}

  run(request: Req): Promise<void> {
    this.request = request;
    this.requestId = newRequestId();
    return this.go(false);
  }

  /** The user accepted the budget warning. */
  confirm(): Promise<void> {
    return this.go(true);
  }

  retry(): Promise<void> {
    return this.request === null ? Promise.resolve() : this.run(this.request);
  }

  dismiss(): void {
    this.error = null;
  }

  private async go(confirmBudget: boolean): Promise<void> {
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
