/**
 * What is wrong with an investigation's name as typed, in the core's words (its limit and words
 * generated from crates/core/src/investigations.rs; both run
 * crates/core/tests/fixtures/investigation-name-cases.json). A name already used is refused by
 * the core, which looks it up.
 */
import { investigationNameRule } from './bindings/limits';

export function investigationNameProblem(name: string): string | null {
  const trimmed = name.trim();
  if (!trimmed) return investigationNameRule.missing;
  // Characters as Rust counts them (code points), not UTF-16 units.
  if ([...trimmed].length > investigationNameRule.maxChars) return investigationNameRule.tooLong;
  return null;
}
