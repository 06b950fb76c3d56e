import { describe, expect, it } from 'vitest';
import table from '../../../crates/core/tests/fixtures/investigation-name-cases.json';
import { investigationNameProblem } from './investigationName';

describe('investigationNameProblem mirrors the core rule of a name', () => {
  for (const testCase of table.cases) {
    it(testCase.name, () => {
      expect(investigationNameProblem(testCase.input)).toBe(testCase.problem);
    });
  }
});
