/**
 * The UI's words for failures, in one table: for each kind of error, what happened, what to do,
 * whether a plain retry helps and whether Settings can fix it. Service errors are keyed by
 * `ErrorKind` (crates/api), so a kind added there fails to compile here until it is worded, and
 * `serviceKind()` makes a comparison with a misspelt kind fail too.
 */
import type { CommandError } from './bindings/CommandError';
import type { ErrorKind } from './bindings/ErrorKind';
import { mayHaveBilledKinds } from './bindings/mayHaveBilledKinds';
import type { FirstKeyOutcome } from './bindings/FirstKeyOutcome';
import type { SetupProblem } from './bindings/SetupProblem';

export interface ErrorText {
  title: string;
  /** What the user can do about it. */
  advice: string;
  /** A plain retry helps (transient failures). */
  retry: boolean;
  /** The fix is in Settings: the banner links there. */
  settings?: boolean;
  /** Said in a key form (Welcome, Settings) in place of the service's own message. */
  inKeyForm?: string;
  /**
   * The request went out and no whole answer came back: the service may have billed it, so the
   * banner asks before sending it again. Set from `ErrorKind::may_have_billed` (crates/api),
   * exported as `bindings/mayHaveBilledKinds.ts`, never by hand.
   */
  mayHaveBilled?: boolean;
}

/** What the banner asks when the service may have billed a request that gave no answer. */
export const MAY_HAVE_BILLED = 'The service may have billed this request; send again?';

const SERVICE: Record<ErrorKind, ErrorText> = {
  missing_key: { title: 'No API key is set.', advice: 'Add a key in Settings, or switch to demo data.', retry: false, settings: true },
  key_refused: {
    title: 'The service refused the API key.',
    advice: 'Check the key in Settings, or replace it with a current one.',
    retry: false,
    settings: true,
    inKeyForm:
      'The service refused this key (401): it is not a valid key, or it was revoked. Check it on your account page and add it again.',
  },
  not_an_api_key: {
    title: 'The saved value is not an API key.',
    advice:
      'The service answered 403: the value looks like a placeholder, a truncated key or a console session token. Paste a full key starting with dt_ or dsr_ in Settings.',
    retry: false,
    settings: true,
    inKeyForm:
      'The service says this value is not an API key at all (403): it may be a placeholder, a shortened key or a login token. Copy the whole key, which starts with dt_ or dsr_.',
  },
  validation: { title: 'The service did not accept some fields.', advice: 'Correct the fields marked below and send again.', retry: false },
  out_of_credit: { title: 'Your account is out of credit.', advice: 'Top up your balance with the service, then try again.', retry: true },
  rate_limited: { title: 'Too many requests for now.', advice: 'The service asked to wait before the next one.', retry: true },
  server_error: { title: 'The service had a problem on its side.', advice: 'This is usually brief: try again in a moment.', retry: true },
  moved: { title: 'The service address has moved.', advice: 'Check the service address in Settings.', retry: false, settings: true },
  network: { title: 'The service could not be reached.', advice: 'Check your internet connection, then try again.', retry: true },
  timeout: { title: 'The service took too long to answer.', advice: MAY_HAVE_BILLED, retry: true },
  answer_cut: { title: 'The connection broke before the whole answer arrived.', advice: MAY_HAVE_BILLED, retry: true },
  malformed_response: { title: 'The service sent an answer Sightline could not read.', advice: 'Try again; if it repeats, the service may be changing.', retry: true },
  unexpected_status: { title: 'The service answered in an unexpected way.', advice: 'Try again in a moment.', retry: true },
  stream_cut: { title: 'The answer stopped part-way.', advice: 'What arrived is kept. Try again for the rest.', retry: true },
  stream_failed: { title: 'The service reported an error while answering.', advice: 'Try again in a moment.', retry: true },
};

/** A service error this version has no words for (one from a newer back end). */
const UNKNOWN_SERVICE: ErrorText = { title: 'The request failed.', advice: 'Try again in a moment.', retry: true };

/** The kind of a service error, typed; null for every other failure. */
export function serviceKind(error: CommandError | null | undefined): ErrorKind | null {
  return error?.kind === 'service' ? error.error.kind : null;
}

export function describeError(error: CommandError): ErrorText {
  switch (error.kind) {
    case 'invalid':
      return { title: 'Some fields need attention.', advice: 'Correct the fields marked below; nothing was sent or charged.', retry: false };
    case 'service':
      return SERVICE[error.error.kind]
        ? { ...SERVICE[error.error.kind], mayHaveBilled: mayHaveBilledKinds.includes(error.error.kind) }
        : UNKNOWN_SERVICE;
    case 'budget_blocked':
      return { title: 'Over budget: this request was not sent.', advice: 'Raise the limit in Spend, or wait for the next period.', retry: false };
    case 'budget_warning':
      return { title: 'This request passes your budget warning level.', advice: 'Send anyway?', retry: false };
    case 'keychain':
      return { title: 'The system keychain could not be used.', advice: 'Unlock or start the keychain (GNOME Keyring, KWallet), then try again.', retry: true };
    case 'not_configured':
      return { title: 'No API key is set up yet.', advice: 'Add a key in Settings, or switch to demo data.', retry: false, settings: true };
    case 'not_found':
      return { title: 'Not found.', advice: 'It may have been deleted.', retry: false };
    case 'disk_full':
      return { title: 'The disk is full.', advice: 'Free some space, then try again. Nothing saved earlier was lost.', retry: true };
    case 'read_only':
      return { title: 'This archive is open for reading only.', advice: 'Nothing can be saved to it until you choose what to do on the start screen.', retry: false };
    case 'database':
      return { title: 'Sightline could not use its local records.', advice: 'Try again; if it repeats, restart Sightline.', retry: true };
    case 'file':
      return { title: 'A file or folder could not be used.', advice: 'Check that it is there and that you may write to it, or choose another.', retry: true };
    case 'system':
      return { title: 'Another program could not be opened.', advice: 'Check the default browser and file manager of your desktop, then try again.', retry: true };
    case 'internal':
      return { title: 'Something went wrong inside Sightline.', advice: 'Try again; if it repeats, the log folder (Settings) says what happened.', retry: true };
  }
}

/** The message a key form shows: the two key refusals in plain words, else the error's own. */
export function keyFormMessage(error: CommandError): string {
  const kind = serviceKind(error);
  return (kind && SERVICE[kind].inKeyForm) || error.message;
}

/** Nothing by that id or handle: the app's own not-found, or the service's 404. */
export function isNotFound(error: CommandError | null | undefined): boolean {
  return error?.kind === 'not_found' || (error?.kind === 'service' && error.error.status === 404);
}

/**
 * What the welcome says when its check of a first key and address fails, keyed by the problem
 * crates/core found (first_key.rs); the field it belongs next to comes with it.
 */
const SETUP: Record<SetupProblem, string> = {
  no_such_host: 'No computer has this name. Check the address for a typo; copy it from the service\'s documentation or your account page.',
  refused: 'A computer answered at this address, but nothing is listening there. Check the address, and the port number after the colon if it has one.',
  bad_certificate:
    'This address\'s security certificate cannot be trusted (it is self-signed, expired or made for another name), so your key was not sent. Check that the address is the service\'s own.',
  not_this_service: 'Something answered at this address, but it is not the search service. Check that the address is the service\'s own, with nothing after it.',
  no_answer: 'Nothing answered at this address in time. Check the address and your connection, or save now and check later.',
  key_refused: SERVICE.key_refused.inKeyForm ?? SERVICE.key_refused.title,
  not_a_key: SERVICE.not_an_api_key.inKeyForm ?? SERVICE.not_an_api_key.title,
  offline: 'This computer seems to be offline: the address could not be looked up. Connect to the internet and try again, or save now and check later.',
  unreachable: 'The connection to the service broke off. Try again, or save now and check later.',
  service_trouble: 'The service is there but could not answer just now. Try again in a moment, or save now and check later.',
};

/** The welcome's words for a failed check, with the code of an answer that was not the service's. */
export function setupMessage(failure: Extract<FirstKeyOutcome, { outcome: 'not_saved' }>): string {
  const words = SETUP[failure.problem];
  return failure.problem === 'not_this_service' && failure.status !== null ? `${words} (It answered with code ${failure.status}.)` : words;
}
