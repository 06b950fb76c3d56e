/** Calendar days as `YYYY-MM-DD` strings, stepped without any time zone (they already are local days). */

/** Every day from the earliest to the latest of `days`, in order; empty for none. */
export function everyDay(days: string[]): string[] {
  const sorted = [...days].sort();
  const first = sorted[0];
  const last = sorted.at(-1);
  if (!first || !last) return [];
  const out: string[] = [];
  const at = new Date(`${first}T00:00:00Z`);
  const end = new Date(`${last}T00:00:00Z`);
  // A year and a half of days at most: a chart wider than that says nothing more.
  while (at <= end && out.length < 550) {
    out.push(at.toISOString().slice(0, 10));
    at.setUTCDate(at.getUTCDate() + 1);
  }
  return out;
}
