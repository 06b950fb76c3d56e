// Written by crates/core/src/bindings.rs from ErrorKind::may_have_billed when the tests run. Do not edit.
import type { ErrorKind } from './ErrorKind';

export const mayHaveBilledKinds: readonly ErrorKind[] = ['timeout', 'answer_cut'];
