/** The operations in words a reader recognises, for history rows, filters and spend lines; written from Rust's `Operation::label`. */
import type { Operation } from './bindings/Operation';
import { operationNames } from './bindings/operationNames';

export { operationNames };

/** The name of a stored operation; one this version does not know is shown as stored. */
export function operationName(operation: string): string {
  return operationNames[operation as Operation] ?? operation;
}
