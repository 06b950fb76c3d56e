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
