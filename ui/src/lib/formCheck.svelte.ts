/**
 * What every request form does with its field messages: its own problems (lib/validate.ts) show
 * once the user has tried to send, over the field messages of the error the last send got (a
 * local `invalid`, or the service's 422); a refused send moves focus to the first field marked
 * invalid. Fields are named as the request names them; their elements use `{prefix}-{field}` ids.
 */
import { tick } from 'svelte';
import type { CommandError } from './bindings/CommandError';
import { fieldErrors } from './request.svelte';
import type { FieldMessages } from './rules';

export class FormCheck {
  /** The user has tried to send: the form's own problems show from now on. */
  attempted = $state(false);
  readonly #local: () => FieldMessages;
  readonly #sent: () => CommandError | null;
  readonly #prefix: string;

  /** The form's problems as it stands. */
  readonly problems = $derived.by(() => this.#local());
  /** Field messages of the last send's error. */
  readonly server = $derived.by(() => fieldErrors(this.#sent()));
  /** What each field shows. */
  readonly errors = $derived.by<FieldMessages>(() => ({ ...this.server, ...(this.attempted ? this.problems : {}) }));
  readonly valid = $derived(Object.keys(this.problems).length === 0);

  /**
   * `problems` gives the form's problems; `sentError` the error of its request runner; `prefix`
   * starts the id of each field's message (`{prefix}-{field}-error`).
   */
  constructor(prefix: string, problems: () => FieldMessages, sentError: () => CommandError | null) {
    this.#prefix = prefix;
    this.#local = problems;
    this.#sent = sentError;
  }

  /**
   * The form's submit: true when the request may be sent. Otherwise every message shows and,
   * once drawn, the first field marked invalid takes focus.
   */
  submit(event?: Event): boolean {
    this.attempted = true;
    if (this.valid) return true;
    const form = event?.currentTarget instanceof HTMLFormElement ? event.currentTarget : null;
    if (form) void tick().then(() => form.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());
    return false;
  }

  /**
   * The last send's error, for a banner above the results: none when each of its field messages
   * is already shown under one of the form's `placed` fields.
   */
  bannerError(placed: readonly string[]): CommandError | null {
    const fields = Object.keys(this.server);
    return fields.length > 0 && fields.every((field) => placed.includes(field)) ? null : this.#sent();
  }

  /** Back to untried, e.g. when the form changes to other rules. */
  reset(): void {
    this.attempted = false;
  }

  errorId(field: string): string {
    return `${this.#prefix}-${field}-error`;
  }

  /** The field's `aria-invalid`. */
  invalid(field: string): 'true' | undefined {
    return this.errors[field] ? 'true' : undefined;
  }

  /** The field's `aria-describedby`: its message, when it has one. */
  describedBy(field: string): string | undefined {
    return this.errors[field] ? this.errorId(field) : undefined;
  }
}
