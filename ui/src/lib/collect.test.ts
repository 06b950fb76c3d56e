import { describe, expect, it } from 'vitest';
import table from '../../../crates/core/tests/fixtures/collection-draft-cases.json';
import { untilProblem, type UntilForm } from './collect';

describe('untilProblem mirrors the core rule of when a collection stops', () => {
  for (const testCase of table.cases) {
    it(testCase.name, () => {
      const { until } = testCase;
      // The dialog holds what was typed, as text.
      const form: UntilForm = {
        kind: until.kind as UntilForm['kind'],
        items: 'items' in until ? String(until.items) : '',
        date: 'date' in until ? String(until.date) : '',
      };
      expect(untilProblem(form)).toBe(testCase.problem);
    });
  }
});
