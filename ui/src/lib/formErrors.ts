/** Splits a failed command into messages per form field and one general message. */
import { asCommandError, type CommandError } from './ipc';

export interface FormErrors {
  /** Field name (as the command names it) → message to show under that field. */
  fields: Record<string, string>;
  /** A message for the whole form, when the error is not about one field. */
  general: string | null;
  error: CommandError;
}

export function formErrors(thrown: unknown): FormErrors {
  const error = asCommandError(thrown);
  const list = error.kind === 'invalid' ? error.fields : error.kind === 'service' ? error.error.fields : [];
  const fields: Record<string, string> = {};
  for (const { field, message } of list) fields[field] ??= message;
  return { fields, general: list.length > 0 ? null : plainMessage(error), error };
}

/** The message, with the two key refusals said in plain words whatever the service sent. */
export function plainMessage(error: CommandError): string {
  if (error.kind === 'service' && error.error.kind === 'key_refused') {
    return 'The service refused this key (401): it is not a valid key, or it was revoked. Check it on your account page and add it again.';
  }
  if (error.kind === 'service' && error.error.kind === 'not_an_api_key') {
    return 'The service says this value is not an API key at all (403): it may be a placeholder, a shortened key or a login token. Copy the whole key, which starts with dt_ or dsr_.';
  }
  return error.message;
}
