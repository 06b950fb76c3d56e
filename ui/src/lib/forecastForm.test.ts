import { describe, expect, it } from 'vitest';
import { addTopic, displayZone, elapsed, emptyForm, formFromParams, localToUtc, percent, plainOdds, toRequest, utcToLocal, validate } from '$lib/forecastForm';
import { setDisplayZone } from '$lib/displayZone.svelte';

describe('the forecast form', () => {
  it('asks for a question or a title', () => {
    expect(validate(emptyForm())).toEqual({ query: 'Type the question, or give the event a title below.' });
    expect(validate({ ...emptyForm(), title: 'EU flood directive adopted' })).toEqual({});
  });

  it('sends the picked local time in UTC and refuses a past one', () => {
    const local = '2099-03-01T09:30';
    expect(toRequest({ ...emptyForm(), query: 'q', cutoff: local }).cutoff).toBe(localToUtc(local));
    expect(localToUtc(local)).toMatch(/^2099-03-01T\d{2}:30:00Z$/);
    expect(validate({ ...emptyForm(), query: 'q', cutoff: '2020-01-01T00:00' })).toEqual({
      cutoff: 'The resolution time has passed: choose a time in the future.',
    });
  });

  it('reads a time typed in the app\'s order, and says how to write one it cannot read', () => {
    expect(localToUtc('2099-03-01 09:30', 'Asia/Kolkata')).toBe('2099-03-01T04:00:00Z');
    expect(validate({ ...emptyForm(), query: 'q', cutoff: '2099-03-01 09:30' })).toEqual({});
    // Month-first, as WebKitGTK's picker showed it, is not read as a day.
    expect(validate({ ...emptyForm(), query: 'q', cutoff: '03/01/2099 09:30' })).toEqual({
      cutoff: 'Write the time as YYYY-MM-DD HH:MM, for example 2027-03-01 09:30 (you entered "03/01/2099 09:30").',
    });
  });

  it('keeps topics trimmed and once each', () => {
    expect(addTopic(['eu'], ' Climate, ')).toEqual(['eu', 'Climate']);
    expect(addTopic(['eu'], 'EU')).toEqual(['eu']);
    expect(addTopic(['eu'], '  ')).toEqual(['eu']);
  });

  it('reads a probability in plain words', () => {
    expect(plainOdds(0.25)).toBe('unlikely (about 1 in 4)');
    expect(plainOdds(0.8)).toBe('likely (about 4 in 5)');
    expect(plainOdds(0.33)).toBe('unlikely (about 1 in 3)');
    expect(plainOdds(0.28)).toBe('unlikely (about 3 in 10)');
    expect(plainOdds(0.5)).toBe('as likely as not');
    expect(plainOdds(0.06)).toBe('very unlikely (about 1 in 17)');
    expect(plainOdds(0.04)).toBe('very unlikely (about 1 in 25)');
    expect(plainOdds(0.97)).toBe('very likely (about 1 in 33 that it does not happen)');
    // Never "unlikely (about 1 in 2)": near even is said so.
    expect(plainOdds(0.45)).toBe('as likely as not');
    expect(plainOdds(0.44)).toBe('unlikely (about 2 in 5)');
    expect(plainOdds(0.6)).toBe('likely (about 3 in 5)');
    expect(percent(0.25)).toBe('25%');
    expect(percent(0.004)).toBe('0.4%');
  });

  it('fills the form from an earlier forecast, its time back in the display zone', () => {
    const params = JSON.stringify({ query: null, title: 'EU flood directive', description: 'Adopted by the Council', cutoff: '2027-03-01T08:30:00Z', topics: ['eu', 'floods'], agent_version_id: null });
    expect(formFromParams(params, 'Europe/Paris')).toEqual({ query: '', title: 'EU flood directive', description: 'Adopted by the Council', cutoff: '2027-03-01 09:30', topics: ['eu', 'floods'] });
    expect(utcToLocal('2027-03-01T08:30:00Z', 'Asia/Kolkata')).toBe('2027-03-01 14:00');
    // The time read back is the one that was sent.
    expect(localToUtc(utcToLocal('2027-03-01T08:30:00Z', 'Asia/Kolkata'), 'Asia/Kolkata')).toBe('2027-03-01T08:30:00Z');
    expect(formFromParams('not json')).toEqual(emptyForm());
  });

  it('names the zone the picked time is in as the other screens do', () => {
    setDisplayZone('Etc/UTC');
    expect(displayZone()).toBe('UTC');
    setDisplayZone('Asia/Kolkata');
    expect(displayZone()).toBe('GMT+5:30 (Asia/Kolkata)');
    setDisplayZone('UTC');
  });

  it('reads the picked time in the display zone, not the machine zone', () => {
    expect(localToUtc('2027-03-01T09:30', 'Europe/Paris')).toBe('2027-03-01T08:30:00Z');
    expect(localToUtc('2027-03-01T09:30', 'Asia/Kolkata')).toBe('2027-03-01T04:00:00Z');
    // Summer time in London: BST is UTC+1.
    expect(localToUtc('2027-07-01T09:30', 'Europe/London')).toBe('2027-07-01T08:30:00Z');
    expect(localToUtc('2027-02-30T09:30', 'UTC')).toBeNull();
  });

  it('counts elapsed time', () => {
    expect(elapsed(4_200)).toBe('4 s');
    expect(elapsed(185_000)).toBe('3 min 05 s');
  });
});
