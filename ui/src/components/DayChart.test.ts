import { describe, expect, it } from 'vitest';
import { tick } from 'svelte';
import { render, screen } from '@testing-library/svelte';
import DayChart from '$components/DayChart.svelte';
import type { DaySpend } from '$lib/bindings/DaySpend';

function year(): DaySpend[] {
  const start = Date.UTC(2025, 10, 22);
  return Array.from({ length: 365 }, (_, index) => {
    const date = new Date(start + index * 86_400_000).toISOString().slice(0, 10);
    const web = { key: 'web_search', cost: '0.0025', requests: 1, usage_count: 1 };
    const x = { key: 'x', cost: index === 200 ? '0.3' : '0.006', requests: 1, usage_count: 20 };
    return { date, total: index === 200 ? '0.3025' : '0.0085', by_service: [web, x] };
  });
}

describe('DayChart', () => {
  it('draws a year as one path per service, and names the highest day', () => {
    const { container } = render(DayChart, { days: year() });
    expect(container.querySelectorAll('path')).toHaveLength(2);
    expect(container.querySelectorAll('svg *').length).toBeLessThan(10);
    expect(screen.getByRole('img', { name: /2025-11-22 to 2026-11-21; highest day \$0\.3025/ })).toBeInTheDocument();
    // 365 bars of each service, one subpath each.
    expect(container.querySelector('path')?.getAttribute('d')?.match(/M/g)).toHaveLength(365);
  });

  it('names the day under the pointer with its exact amounts', async () => {
    const { container } = render(DayChart, { days: year() });
    const svg = container.querySelector('svg')!;
    svg.getBoundingClientRect = () => ({ left: 0, top: 0, width: 730, height: 180, right: 730, bottom: 180, x: 0, y: 0, toJSON: () => ({}) });
    // jsdom has no PointerEvent: a mouse event of the same type carries the position.
    svg.dispatchEvent(new MouseEvent('pointermove', { clientX: 401, bubbles: true }));
    await tick();
    expect(container.querySelector('.hover')).toHaveTextContent('2026-06-10: $0.3025 · Web search $0.0025 · X searches and lookups $0.30');
  });
});
