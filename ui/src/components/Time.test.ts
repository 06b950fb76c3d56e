import { afterEach, describe, expect, it } from 'vitest';
import { render } from '@testing-library/svelte';
import { flushSync } from 'svelte';
import Time from './Time.svelte';
import { setDisplayZone } from '$lib/displayZone.svelte';

describe('Time', () => {
  afterEach(() => setDisplayZone('UTC', 'UTC'));

  it('shows the zoned time with its zone, UTC in datetime, on hover and read aloud', () => {
    setDisplayZone('Asia/Kolkata', 'Europe/Paris');
    const { container } = render(Time, { value: '2026-11-23T18:04:12Z' });
    const time = container.querySelector('time')!;
    expect(time).toHaveAttribute('datetime', '2026-11-23T18:04:12.000Z');
    expect(time).toHaveAttribute('title', '23 Nov 2026, 23:34:12 GMT+5:30 (Asia/Kolkata) · 2026-11-23 18:04:12 UTC');
    expect(time.textContent).toBe('23 Nov 2026, 23:34 GMT+5:30 (2026-11-23 18:04:12 UTC)');
    expect(time.querySelector('.visually-hidden')).toHaveTextContent('2026-11-23 18:04:12 UTC');
  });

  it('keeps the absolute time of a relative one, and follows a change of zone', () => {
    setDisplayZone('Europe/London');
    const { container } = render(Time, { value: new Date('2026-03-29T01:00:00Z'), form: 'relative', now: new Date('2026-03-29T01:05:00Z') });
    const time = container.querySelector('time')!;
    expect(time.firstChild?.textContent).toBe('5m');
    expect(time).toHaveAttribute('title', '29 Mar 2026, 02:00:00 BST (Europe/London) · 2026-03-29 01:00:00 UTC');
    expect(time.querySelector('.visually-hidden')).toHaveTextContent('29 Mar 2026, 02:00 BST, 2026-03-29 01:00:00 UTC');
    setDisplayZone('Europe/Paris');
    flushSync();
    expect(time).toHaveAttribute('title', '29 Mar 2026, 03:00:00 CEST (Europe/Paris) · 2026-03-29 01:00:00 UTC');
  });

  it('shows a day, and a dash or the text itself when there is no time', () => {
    setDisplayZone('Asia/Tokyo');
    expect(render(Time, { value: '2026-11-23T18:04:12Z', form: 'day' }).container.querySelector('time')?.firstChild?.textContent).toBe('24 Nov 2026');
    expect(render(Time, { value: null }).container.textContent).toBe('—');
    expect(render(Time, { value: 'sometime' }).container.textContent).toBe('sometime');
  });
});
