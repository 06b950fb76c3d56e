/** Words for Spend's lines that are not plain names. */
import type { SpendLine } from '$lib/bindings/SpendLine';

/**
 * A monitor's or a collection's line: its name as it is now, or, once it was deleted (its
 * money stays in Spend), "A deleted monitor (no. 12)" so two deleted ones stay apart.
 */
export function ownerName(line: SpendLine, kind: 'monitor' | 'collection'): string {
  return line.label ?? `A deleted ${kind} (no. ${line.key})`;
}
