/** Splits a failed command into messages per form field and one general message. */
import { keyFormMessage } from './errorWords';
import { asCommandError, type CommandError } from './ipc';
import { fieldErrors } from './request.svelte';

export interface FormErrors {
  /** Field name (as the command names it) → message to show under that field. */
  fields: Record<string, string>;
  /** A message for the whole form, when the error is not about one field. */
  general: string | null;
  error: CommandError;
}

export function formErrors(thrown: unknown): FormErrors {
  const error = asCommandError(thrown);
  const fields = fieldErrors(error);
  return { fields, general: Object.keys(fields).length > 0 ? null : keyFormMessage(error), error };
}

/**
 * A field's `aria-describedby`: the ids given, without the empty ones. An error's id is passed
 * only while the error is shown, as an id missing from the page describes nothing.
 */
export function describedBy(...ids: (string | false | null | undefined)[]): string | undefined {
  const shown = ids.filter((id): id is string => typeof id === 'string' && id !== '');
  return shown.length > 0 ? shown.join(' ') : undefined;
}
