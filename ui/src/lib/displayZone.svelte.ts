/**
 * The display zone: the IANA zone every time is shown in (Settings → Preferences; the system's
 * by default). Rust decides it (crates/core/src/zone.rs) and Spend's days follow the same one;
 * until Rust has answered, the webview's own zone stands in. Read it through lib/format.ts.
 */
import { displayZone as readDisplayZone } from './ipc';

function webviewZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

const state = $state({ zone: webviewZone(), system: webviewZone() });

/** Read-only: reading it in a component or $derived re-renders times when the zone changes. */
export const zoneSetting = {
  get zone() {
    return state.zone;
  },
  get system() {
    return state.system;
  },
};

/** Sets the zone times are shown in (tests, and after Rust has said which one it is). */
export function setDisplayZone(zone: string, system: string = state.system): void {
  state.zone = zone;
  state.system = system;
}

/** Asks Rust for the zone in use; at start-up and after Settings are saved. Errors keep the current one. */
export async function loadDisplayZone(): Promise<void> {
  try {
    const answer = await readDisplayZone();
    if (answer) setDisplayZone(answer.zone, answer.system);
  } catch {
    // Times stay in the zone already shown; Settings reports its own failures.
  }
}
