import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/svelte';
import UnseenBadge from './UnseenBadge.svelte';
import Sidebar from './Sidebar.svelte';
import { screens } from '$lib/screens';
import { mockBackend } from '../test/backend';

describe('UnseenBadge', () => {
  it('shows a count read as unseen, and nothing at zero', () => {
    const { container, rerender } = render(UnseenBadge, { count: 1234 });
    expect(container).toHaveTextContent('1.2K(1,234 unseen)');
    expect(container.querySelector('.badge')).toHaveAttribute('title', '1,234 unseen');
    return rerender({ count: 0 }).then(() => expect(container.querySelector('.badge')).toBeNull());
  });

  it('puts the unseen posts of every monitor on the sidebar entry, from the counts Rust keeps', async () => {
    mockBackend({
      monitor_unseen: () => ({ total: 5, byMonitor: [{ monitorId: 1, unseen: 3 }, { monitorId: 2, unseen: 2 }] }),
      investigation_list: () => [],
      investigation_active: () => null,
      app_status: () => null,
    });
    render(Sidebar, { screens, current: 'x' });
    expect(await screen.findByRole('link', { name: /^Monitors ?\(5 unseen\)$/ })).toHaveAttribute('href', '#/monitors');
  });
});
