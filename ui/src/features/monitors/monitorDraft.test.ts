import { describe, expect, it } from 'vitest';
import table from '../../../../crates/core/tests/fixtures/monitor-draft-cases.json';
import { draftProblems, emptyMonitorForm, formFromMonitor, toDraft, validateMonitor } from './monitorDraft';
import { makeMonitor } from '$lib/testMonitors';

describe('draftProblems mirrors the Rust rules of a monitor draft', () => {
  for (const testCase of table.cases) {
    it(testCase.name, () => {
      expect(draftProblems(testCase.draft)).toEqual(testCase.errors);
    });
  }
});

describe('the monitor form', () => {
  it('builds an X search draft that asks for the latest posts, the cap as its count', () => {
    const form = emptyMonitorForm();
    form.name = ' Storm watch ';
    form.search.query = '#StormEowyn';
    form.search.lang = 'en';
    form.cap = '40';
    form.intervalMinutes = 15;
    form.investigationId = '3';
    expect(validateMonitor(form)).toEqual({});
    expect(toDraft(form)).toMatchObject({
      name: 'Storm watch',
      intervalMinutes: 15,
      cap: 40,
      investigationId: 3,
      target: { kind: 'search', request: { query: '#StormEowyn', sort: 'Latest', count: 40, lang: 'en', user: null } },
    });
  });

  it('builds an account draft from a handle typed with @', () => {
    const form = { ...emptyMonitorForm(), name: 'Met Office', kind: 'account' as const, account: '@metoffice' };
    expect(toDraft(form).target).toEqual({ kind: 'account', request: { username: 'metoffice', cursor: null } });
    expect(toDraft(form).investigationId).toBeNull();
  });

  it("names the target's own problems as its form's fields, and a cap that is no number by its words", () => {
    const form = { ...emptyMonitorForm(), name: 'x', cap: '2.5' };
    form.search.start_date = '2026-02-31';
    const problems = validateMonitor(form);
    expect(problems.query).toBe('Type what to search for on X.');
    expect(problems.start_date).toMatch(/^Write the date as YYYY-MM-DD/);
    expect(problems.cap).toBe('Choose a number from 1 to 100 (you entered 2.5).');
    expect(problems.count).toBeUndefined();
    expect(validateMonitor({ ...emptyMonitorForm(), name: 'x', kind: 'account', account: '' }).username).toBe('Enter the X username, for example nasa.');
  });

  it('fills the form back from a saved monitor, unchanged when saved again', () => {
    const monitor = makeMonitor();
    const form = formFromMonitor(monitor);
    expect(toDraft(form)).toEqual({ name: monitor.name, target: monitor.target, intervalMinutes: monitor.intervalMinutes, cap: monitor.cap, investigationId: monitor.investigationId });
  });
});
