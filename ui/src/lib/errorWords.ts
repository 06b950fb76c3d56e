/** Plain words for each class of failure: what happened and what to do. */
import type { CommandError } from '../lib/bindings/CommandError';

export interface ErrorText {
  title: string;
  /** What the user can do about it. */
  advice: string;
  /** A plain retry helps (transient failures). */
  retry: boolean;
}

const SERVICE: Record<string, ErrorText> = {
  missing_key: { title: 'No API key is set.', advice: 'Add a key in Settings, or switch to demo data.', retry: false },
  key_refused: { title: 'The service refused the API key.', advice: 'Check the key in Settings, or replace it with a current one.', retry: false },
  not_an_api_key: {
    title: 'The saved value is not an API key.',
    advice:
      'The service answered 403: the value looks like a placeholder, a truncated key or a console session token. Paste a full key starting with dt_ or dsr_ in Settings.',
    retry: false,
  },
  validation: { title: 'The service did not accept some fields.', advice: 'Correct the fields marked below and send again.', retry: false },
  out_of_credit: { title: 'Your account is out of credit.', advice: 'Top up your balance with the service, then try again.', retry: true },
  rate_limited: { title: 'Too many requests for now.', advice: 'The service asked to wait before the next one.', retry: true },
  server_error: { title: 'The service had a problem on its side.', advice: 'This is usually brief: try again in a moment.', retry: true },
  moved: { title: 'The service address has moved.', advice: 'Check the service address in Settings.', retry: false },
  network: { title: 'The service could not be reached.', advice: 'Check your internet connection, then try again.', retry: true },
  timeout: { title: 'The service took too long to answer.', advice: 'Try again; a smaller count may help.', retry: true },
  malformed_response: { title: 'The service sent an answer Sightline could not read.', advice: 'Try again; if it repeats, the service may be changing.', retry: true },
  unexpected_status: { title: 'The service answered in an unexpected way.', advice: 'Try again in a moment.', retry: true },
  stream_cut: { title: 'The answer stopped part-way.', advice: 'What arrived is kept. Try again for the rest.', retry: true },
  stream_failed: { title: 'The service reported an error while answering.', advice: 'Try again in a moment.', retry: true },
};

export function describeError(error: CommandError): ErrorText {
  switch (error.kind) {
    case 'invalid':
      return { title: 'Some fields need attention.', advice: 'Correct the fields marked below; nothing was sent or charged.', retry: false };
    case 'service':
      return SERVICE[error.error.kind] ?? { title: 'The request failed.', advice: 'Try again in a moment.', retry: true };
    case 'budget_blocked':
      return { title: 'Over budget: this request was not sent.', advice: 'Raise the limit in Spend, or wait for the next period.', retry: false };
    case 'budget_warning':
      return { title: 'This request passes your budget warning level.', advice: 'Send anyway?', retry: false };
    case 'keychain':
      return { title: 'The system keychain could not be used.', advice: 'Unlock or start the keychain (GNOME Keyring, KWallet), then try again.', retry: true };
    case 'not_configured':
      return { title: 'No API key is set up yet.', advice: 'Add a key in Settings, or switch to demo data.', retry: false };
    case 'not_found':
      return { title: 'Not found.', advice: 'It may have been deleted.', retry: false };
    case 'storage':
      return { title: 'Sightline could not use its local records.', advice: 'Try again; if it repeats, check free disk space.', retry: true };
  }
}
