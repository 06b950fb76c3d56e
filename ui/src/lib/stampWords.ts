/**
 * A capture's trusted timestamp in words, claiming only what is known: a stamped capture's
 * authority attests it saw the hash at its own time (the token itself says so, and "Check the
 * token" checks it); waiting names when the authority is asked next; failed says why.
 */
import type { StampState } from './bindings/StampState';
import { countOf, exactUtc, toDate } from './format';

export function stampWords(stamp: StampState): string {
  switch (stamp.state) {
    case 'not_asked':
      return 'None: no timestamp authority was set when this was captured. "Stamp now" on an investigation that holds it asks for one.';
    case 'waiting': {
      const at = toDate(stamp.next_try_at);
      const next = `Waiting: ${stamp.tsa_url} is asked next${at ? ` at ${exactUtc(at)}` : ''}.`;
      if (stamp.attempts === 0) return next;
      const tries = countOf(Number(stamp.attempts), 'attempt', 'attempts');
      return `${next} ${tries} so far; the last: ${stamp.problem ?? 'it failed'}`;
    }
    case 'stamped':
      return `${stamp.authority} (${stamp.tsa_url}) signed a token saying it saw this SHA-256 at that time.`;
    case 'failed':
      return `Failed: ${stamp.problem} Not asked again until you choose "Stamp now" on an investigation that holds it.`;
  }
}
